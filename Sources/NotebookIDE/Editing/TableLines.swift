// Where a GFM table's rows are: from the syntax tree (formatting a note or a range), or from the
// lines around one line (a keystroke in a table, which must not parse the note).
//
// Invariants:
// - A table is a header row, its delimiter row (the same number of cells, each `:?-+:?`, and
//   not a setext underline), then body rows down to a blank line, a line at another quote depth,
//   or a line that starts another block (a heading, a fence, a thematic break, a list item, an
//   HTML block, or indented code) — the parser's rules, read line by line. A test checks that
//   both ways find the same tables.
// - A row's cells start after its quote markers and indentation (`LineRegions.contentStart`); a
//   table whose rows the tree starts elsewhere (one that begins on a list item's marker line) is
//   left out.
// - Finding the table around a line reads the table's lines and `LineRegions` for its header.

import MarkdownSyntax

/// The lines of one table: the header row, the delimiter row, then the body rows.
struct TableLines: Equatable {
    struct Row: Equatable {
        var lineStart: Int
        /// Where the row's cells start: after its quote markers and indentation.
        var cellsStart: Int
        /// The end of the line, before its line break.
        var lineEnd: Int
    }

    var rows: [Row]

    var start: Int { rows.first?.lineStart ?? 0 }
    var end: Int { rows.last?.lineEnd ?? 0 }

    /// The tables of `tree` whose rows this module can read.
    static func tables(in tree: SyntaxTree, text: EditorText) -> [TableLines] {
        var tables: [TableLines] = []
        for node in tree.nodes where node.kind == .table {
            var rows: [Row] = []
            var child = node.firstChild
            var readable = true
            while child != .none, readable {
                let rowNode = tree.nodes[Int(child)]
                let row = TableLines.row(text, at: text.lineStart(of: Int(rowNode.sourceStart)))
                readable = row.cellsStart == Int(rowNode.sourceStart)
                rows.append(row)
                if rows.count == 1 {
                    // The delimiter row is no node: it is the line after the header.
                    let next = text.nextLineStart(after: row.lineEnd)
                    readable = readable && next < text.count
                    rows.append(TableLines.row(text, at: next))
                }
                child = rowNode.next
            }
            if readable, rows.count >= 2 { tables.append(TableLines(rows: rows)) }
        }
        return tables
    }

    /// The table that the line starting at `lineStart` belongs to, read from the lines around it.
    static func table(around lineStart: Int, in text: EditorText) -> TableLines? {
        let line = row(text, at: lineStart)
        guard line.cellsStart < line.lineEnd else { return nil }
        let quotes = quoteDepth(line, text)
        // The delimiter row: the next line when this is the header, else this line or one above.
        var delimiter: Row? = nil
        let belowStart = text.nextLineStart(after: line.lineEnd)
        if belowStart > line.lineEnd, belowStart < text.count {
            let below = row(text, at: belowStart)
            if quoteDepth(below, text) == quotes, isDelimiter(below, header: line, text) { delimiter = below }
        }
        if delimiter == nil {
            var candidate = line
            while true {
                guard let above = text.previousLine(before: candidate.lineStart) else { return nil }
                let header = row(text, at: above.start)
                guard header.cellsStart < header.lineEnd, quoteDepth(header, text) == quotes else { return nil }
                if isDelimiter(candidate, header: header, text) {
                    delimiter = candidate
                    break
                }
                // Rows between the delimiter and the line are body rows.
                guard !startsBlock(candidate, text) else { return nil }
                candidate = header
            }
        }
        guard let delimiter, let headerLine = text.previousLine(before: delimiter.lineStart) else { return nil }
        let header = row(text, at: headerLine.start)
        guard LineRegions.region(at: header.lineStart, in: text.bytes) == .body else { return nil }
        var rows = [header, delimiter]
        let baseIndent = indent(header, text)
        var next = text.nextLineStart(after: delimiter.lineEnd)
        while next < text.count {
            let body = row(text, at: next)
            guard body.cellsStart < body.lineEnd, quoteDepth(body, text) == quotes, !startsBlock(body, text),
                  indent(body, text) < baseIndent + 4 else { break }
            rows.append(body)
            let after = text.nextLineStart(after: body.lineEnd)
            if after == next { break }
            next = after
        }
        guard rows.contains(where: { $0.lineStart == lineStart }) else { return nil }
        return TableLines(rows: rows)
    }

    // MARK: Lines

    static func row(_ text: EditorText, at lineStart: Int) -> Row {
        let lineEnd = text.lineEnd(from: lineStart)
        return Row(lineStart: lineStart, cellsStart: LineRegions.contentStart(text.bytes, lineStart, lineEnd), lineEnd: lineEnd)
    }

    /// The number of `>` before a row's cells.
    static func quoteDepth(_ row: Row, _ text: EditorText) -> Int {
        text.bytes[row.lineStart..<row.cellsStart].reduce(0) { $0 + ($1 == UInt8(ascii: ">") ? 1 : 0) }
    }

    /// The columns of indentation after a row's last quote marker.
    static func indent(_ row: Row, _ text: EditorText) -> Int {
        var start = row.cellsStart
        while start > row.lineStart, text[start - 1] != UInt8(ascii: ">") { start -= 1 }
        return text.columns(start, row.cellsStart)
    }

    /// Whether `row` is a delimiter row for `header`: as many cells, each `:?-+:?`, and not a
    /// setext underline (dashes alone, which make `header` a heading), under a header that is a
    /// paragraph's line.
    static func isDelimiter(_ row: Row, header: Row, _ text: EditorText) -> Bool {
        guard row.cellsStart < row.lineEnd else { return false }
        let first = text[row.cellsStart]
        guard first == UInt8(ascii: "|") || first == UInt8(ascii: ":") || first == UInt8(ascii: "-") else { return false }
        let line = text.bytes[row.cellsStart..<row.lineEnd]
        guard line.contains(UInt8(ascii: "|")) || line.contains(UInt8(ascii: ":")) else { return false }
        guard let cells = TableRowSyntax.cells(text.bytes, row.cellsStart, row.lineEnd),
              cells.allSatisfy({ TableRowSyntax.alignment(text.bytes, $0) != nil }),
              header.cellsStart < header.lineEnd, !startsBlock(header, text),
              let headerCells = TableRowSyntax.cells(text.bytes, header.cellsStart, header.lineEnd) else { return false }
        return headerCells.count == cells.count
    }

    /// Whether a row's line starts another block instead: a heading, a fence, a thematic break,
    /// an HTML block or a list item.
    static func startsBlock(_ row: Row, _ text: EditorText) -> Bool {
        ListPosition.startsBlock(text, row.cellsStart, row.lineEnd)
            || LineContainers.listMarker(text, row.cellsStart, row.lineEnd) != nil
    }
}
