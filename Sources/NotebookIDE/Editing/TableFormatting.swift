// Aligning GFM tables: `textDocument/formatting` (every table of a note), `rangeFormatting` (the
// tables a range touches) and the re-alignment after a `|` typed at the end of a row.
//
// Rules:
// - Cells are the parser's: split at every `|` that is not escaped as `\|` (GFM: a pipe inside a
//   code span splits the cell unless it is escaped). A cell's text is kept byte for byte, only
//   the spaces around it change.
// - Each column is as wide as its widest cell in display columns (`DisplayWidth`: CJK and emoji
//   count two, combining marks none), three at least; a cell has one space on each side of its
//   padded text. Left-aligned and unaligned columns pad on the right, right-aligned on the left,
//   centred ones on both sides with the odd space on the right. The header is aligned as its
//   column.
// - The delimiter row keeps each column's colons (`:---`, `:---:`, `---:`) and is filled with
//   dashes to the column's width.
// - A row shorter than the header gets empty cells; cells past the header's count are kept and
//   aligned among the rows that have them. Each row keeps its indentation and block-quote
//   markers (tables in block quotes and list items are aligned too), and whether it starts and
//   ends with a pipe; a row that ends without one has no padding after its last cell, and gets a
//   closing pipe when its last cell is empty (else the cell would be lost).
// - The edits cover the rows that change, from their first cell to the end of the line, and
//   nothing else: a note whose tables are aligned, or that has none, gets no edit. Tables in code
//   blocks, HTML and front matter are not tables (the tree says so).
//
// Invariant: linear in the table's bytes.

import MarkdownSyntax
import TextCore

/// Table alignment for `textDocument/formatting` and `textDocument/rangeFormatting`.
public enum TableFormatting {
    /// The edits that align every table of the note `tree` was parsed from (`tree.source`).
    public static func edits(for tree: SyntaxTree) -> [TextReplacement] {
        edits(for: tree, touching: nil)
    }

    /// The edits that align the tables of `tree.source` that `range` touches (a table touches a
    /// range that overlaps it or ends or starts on one of its lines).
    public static func edits(for tree: SyntaxTree, in range: ByteSpan) -> [TextReplacement] {
        edits(for: tree, touching: range)
    }

    static func edits(for tree: SyntaxTree, touching range: ByteSpan?) -> [TextReplacement] {
        EditorText.reading(tree.source) { text in
            var edits: [TextReplacement] = []
            for table in TableLines.tables(in: tree, text: text) {
                if let range, Int(range.start) > table.end || Int(range.end) < table.start { continue }
                edits += align(table, in: text)
            }
            return edits
        }
    }

    // MARK: Layout

    /// One row as read: its cells and whether it has outer pipes.
    struct RowCells {
        var cells: [Range<Int>]
        var leadingPipe: Bool
        var trailingPipe: Bool

        init(_ row: TableLines.Row, _ text: EditorText) {
            cells = TableRowSyntax.cells(text.bytes, row.cellsStart, row.lineEnd) ?? []
            leadingPipe = row.cellsStart < row.lineEnd && text[row.cellsStart] == UInt8(ascii: "|")
            if let last = cells.last {
                let after = text.skipSpaces(last.upperBound, row.lineEnd)
                trailingPipe = after < row.lineEnd && text[after] == UInt8(ascii: "|")
            } else {
                trailingPipe = false
            }
        }
    }

    /// The edits that align `table`. The row that holds `cursor` (a `|` just typed at its end)
    /// keeps its number of cells, and its edit ends at the cursor: the cursor stays after the
    /// row's last pipe.
    static func align(_ table: TableLines, in text: EditorText, cursor: Int? = nil) -> [TextReplacement] {
        let rows = table.rows.map { RowCells($0, text) }
        guard rows.count >= 2 else { return [] }
        let alignments = rows[1].cells.map { TableRowSyntax.alignment(text.bytes, $0) ?? TableAlignment.none }
        let columnCount = rows[0].cells.count
        // Column widths from the header and body rows (the delimiter row is rewritten to fit).
        var widths = Array(repeating: 0, count: rows.map(\.cells.count).max() ?? 0)
        for (index, row) in rows.enumerated() where index != 1 {
            for (column, cell) in row.cells.enumerated() {
                widths[column] = max(widths[column], DisplayWidth.columns(text.bytes, cell.lowerBound, cell.upperBound))
            }
        }
        for column in 0..<min(columnCount, widths.count) { widths[column] = max(widths[column], 3) }

        var edits: [TextReplacement] = []
        for (index, row) in rows.enumerated() {
            let line = table.rows[index]
            let holdsCursor = cursor.map { line.cellsStart <= $0 && $0 <= line.lineEnd } ?? false
            let cellCount = holdsCursor ? row.cells.count : max(row.cells.count, columnCount)
            var out: [UInt8] = row.leadingPipe ? [UInt8(ascii: "|"), 0x20] : []
            for column in 0..<cellCount {
                if column > 0 { out += [0x20, UInt8(ascii: "|"), 0x20] }
                let alignment = column < alignments.count ? alignments[column] : .none
                if index == 1 {
                    out += delimiter(alignment, width: widths[column])
                    continue
                }
                let cell = column < row.cells.count ? row.cells[column] : 0..<0
                let width = DisplayWidth.columns(text.bytes, cell.lowerBound, cell.upperBound)
                let padding = max(0, widths[column] - width)
                let before = alignment == .right ? padding : (alignment == .center ? padding / 2 : 0)
                out += Array(repeating: 0x20, count: before)
                out += text.bytes[cell]
                out += Array(repeating: 0x20, count: padding - before)
            }
            let lastIsEmpty = cellCount > row.cells.count || (row.cells.last?.isEmpty ?? true)
            if row.trailingPipe || lastIsEmpty {
                out += [0x20, UInt8(ascii: "|")]
            } else {
                while let last = out.last, last == 0x20 { out.removeLast() }
            }
            let end = holdsCursor ? (cursor ?? line.lineEnd) : line.lineEnd
            if !text.bytes[line.cellsStart..<end].elementsEqual(out) {
                edits.append(TextReplacement(span: ByteSpan(line.cellsStart, end), newText: String(decoding: out, as: UTF8.self)))
            }
            if holdsCursor, let cursor, cursor < line.lineEnd {
                edits.append(TextReplacement(span: ByteSpan(cursor, line.lineEnd), newText: ""))
            }
        }
        return edits
    }

    /// A delimiter cell: the column's colons and dashes, `width` long.
    static func delimiter(_ alignment: TableAlignment, width: Int) -> [UInt8] {
        let colon = UInt8(ascii: ":")
        let dash = UInt8(ascii: "-")
        switch alignment {
        case .left: return [colon] + Array(repeating: dash, count: max(1, width - 1))
        case .right: return Array(repeating: dash, count: max(1, width - 1)) + [colon]
        case .center: return [colon] + Array(repeating: dash, count: max(1, width - 2)) + [colon]
        case .none: return Array(repeating: dash, count: max(1, width))
        }
    }
}
