// GFM tables in the block pass, following cmark-gfm's table extension: a paragraph's last line
// becomes the header row when the next line is a delimiter row with the same number of cells;
// following lines are body rows until a blank line or the start of another block.

import TextCore

extension BlockParser {
    /// A cell of a row: its trimmed byte range in whatever buffer the row was read from.
    struct RowCell {
        var start: Int
        var end: Int
    }

    /// Spaces that the table scanners skip around cells and delimiters.
    @inline(__always) static func isTableSpace(_ c: UInt8) -> Bool {
        c == byteSpace || c == byteTab || c == 0x0B || c == 0x0C
    }

    /// Parses one row `|? cell (| cell)* |?` in `b[s..<e]` (one line, no line ending).
    /// Returns nil when the line holds no cell.
    static func parseRow(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> [RowCell]? {
        // Room for most rows at once: growing from none took four allocations a row.
        var cells: [RowCell] = []
        cells.reserveCapacity(8)
        var i = s
        if i < e && b[i] == UInt8(ascii: "|") {
            i += 1
            while i < e && isTableSpace(b[i]) { i += 1 }
        }
        while i < e {
            let cellStart = i
            var j = i
            while j < e {
                let c = b[j]
                if c == UInt8(ascii: "\\"), j + 1 < e, b[j + 1] == UInt8(ascii: "|") { j += 2; continue }
                if c == UInt8(ascii: "|") { break }
                j += 1
            }
            var pipe = 0
            if j < e && b[j] == UInt8(ascii: "|") {
                pipe = 1
                while j + pipe < e && isTableSpace(b[j + pipe]) { pipe += 1 }
            }
            if j > cellStart || pipe > 0 {
                // Trim like cmark's strbuf_trim: space, tab, CR, LF (not VT/FF).
                var cs = cellStart, ce = j
                while cs < ce && (b[cs] == byteSpace || b[cs] == byteTab) { cs += 1 }
                while ce > cs && (b[ce - 1] == byteSpace || b[ce - 1] == byteTab) { ce -= 1 }
                cells.append(RowCell(start: cs, end: ce))
            }
            i = j + pipe
            if pipe == 0 { break }
        }
        return cells.isEmpty ? nil : cells
    }

    /// Alignment of a delimiter cell `:?-+:?` (table spaces allowed around it), or nil.
    static func delimiterAlignment(_ b: UnsafeBufferPointer<UInt8>, _ cell: RowCell) -> TableAlignment? {
        var s = cell.start, e = cell.end
        while s < e && isTableSpace(b[s]) { s += 1 }
        while e > s && isTableSpace(b[e - 1]) { e -= 1 }
        guard s < e else { return nil }
        let left = b[s] == UInt8(ascii: ":")
        if left { s += 1 }
        let right = e > s && b[e - 1] == UInt8(ascii: ":")
        if right { e -= 1 }
        guard s < e else { return nil }
        for k in s..<e where b[k] != UInt8(ascii: "-") { return nil }
        switch (left, right) {
        case (true, true): return .center
        case (true, false): return .left
        case (false, true): return .right
        default: return TableAlignment.none
        }
    }

    /// Whether the current line continues the open table.
    func tableRowMatches() -> Bool {
        guard nextNonspace < lineEnd else { return false }
        return BlockParser.parseRow(bytes, nextNonspace, lineEnd) != nil
    }

    /// Tries to turn the paragraph at `open[paragraphIndex]` plus the current (delimiter) line into
    /// a table. Returns false and changes nothing when they do not form one.
    mutating func openTable(paragraphIndex: Int, into tree: inout SyntaxTree) -> Bool {
        guard nextNonspace < lineEnd else { return false }
        let c = bytes[nextNonspace]
        guard c == UInt8(ascii: "|") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") else { return false }
        guard let delimiters = BlockParser.parseRow(bytes, nextNonspace, lineEnd) else { return false }
        var alignments: [TableAlignment] = []
        for cell in delimiters {
            guard let a = BlockParser.delimiterAlignment(bytes, cell) else { return false }
            alignments.append(a)
        }
        // The header is the paragraph's last line.
        let paragraph = open[paragraphIndex].node
        let cs = Int(tree.arena[paragraph].contentStart)
        let ce = Int(tree.arena[paragraph].contentEnd)
        guard ce > cs else { return false }
        var headerStart = ce
        while headerStart > cs && content[headerStart - 1] != byteNewline { headerStart -= 1 }
        let headerCells = content.withUnsafeBufferPointer { BlockParser.parseRow($0, headerStart, ce) }
        guard let headerCells, headerCells.count == alignments.count else { return false }

        let headerSource = sourceOffset(forContent: headerStart)
        if headerStart > cs {
            // Earlier lines stay a paragraph.
            tree.arena[paragraph].contentEnd = Int32(clamping: headerStart - 1)
            open[paragraphIndex].lastLineEnd = sourceOffset(forContent: headerStart - 1)
            closeUnmatched(downTo: paragraphIndex - 1, into: &tree)
        } else {
            open.removeLast()
            while let last = stoppers.last, last >= open.count { stoppers.removeLast() }
            tree.arena.unlink(paragraph)
        }
        tableAlignments = alignments
        let table = addChild(.table, start: headerSource, into: &tree)
        push(OpenBlock(node: table, kind: .table, lastLineEnd: lineEnd))
        let row = tree.buildNode(Node(kind: .tableRow, flags: Node.tableHeader,
                                     sourceStart: Int32(clamping: headerSource),
                                     sourceEnd: Int32(clamping: sourceOffset(forContent: max(headerStart, ce - 1)) + 1)))
        meta.append(Meta())
        tree.arena.link(row, under: table)
        for (column, cell) in headerCells.enumerated() {
            addCell(to: row, column: column, copyingContent: cell, into: &tree)
        }
        return true
    }

    /// Adds the current line as a body row of the table at `open[index]`.
    mutating func addTableRow(_ index: Int, into tree: inout SyntaxTree) {
        let table = open[index].node
        let cells = BlockParser.parseRow(bytes, nextNonspace, lineEnd) ?? []
        let row = tree.buildNode(Node(kind: .tableRow, sourceStart: Int32(clamping: nextNonspace), sourceEnd: Int32(clamping: lineEnd)))
        meta.append(Meta())
        tree.arena.link(row, under: table)
        for column in 0..<tableAlignments.count {
            if column < cells.count {
                addCell(to: row, column: column, sourceCell: cells[column], into: &tree)
            } else {
                let id = tree.buildNode(Node(kind: .tableCell, sourceStart: Int32(clamping: lineEnd), sourceEnd: Int32(clamping: lineEnd),
                                            contentStart: Int32(clamping: content.count), contentEnd: Int32(clamping: content.count),
                                            data: tableAlignments[column].rawValue))
                meta.append(Meta())
                tree.arena.link(id, under: row)
            }
        }
        open[index].lastLineEnd = lineEnd
    }

    /// A cell whose text is in the source (a body row): copied with `\|` unescaped.
    private mutating func addCell(to row: NodeID, column: Int, sourceCell cell: RowCell, into tree: inout SyntaxTree) {
        let contentStart = content.count
        var runStart = cell.start
        var k = cell.start
        while k < cell.end {
            if bytes[k] == UInt8(ascii: "\\"), k + 1 < cell.end, bytes[k + 1] == UInt8(ascii: "|") {
                appendContent(runStart, k, into: &tree)
                runStart = k + 1
                k += 2
                continue
            }
            k += 1
        }
        appendContent(runStart, cell.end, into: &tree)
        let id = tree.buildNode(Node(kind: .tableCell, sourceStart: Int32(clamping: cell.start), sourceEnd: Int32(clamping: cell.end),
                                    contentStart: Int32(clamping: contentStart), contentEnd: Int32(clamping: content.count),
                                    data: tableAlignments[column].rawValue))
        meta.append(Meta())
        tree.arena.link(id, under: row)
    }

    /// A header cell whose text is already in the content buffer (the paragraph's last line).
    private mutating func addCell(to row: NodeID, column: Int, copyingContent cell: RowCell, into tree: inout SyntaxTree) {
        let contentStart = content.count
        var runStart = cell.start
        var k = cell.start
        func copy(_ parser: inout BlockParser, _ tree: inout SyntaxTree, _ s: Int, _ e: Int) {
            guard e > s else { return }
            let source = parser.sourceOffset(forContent: s)
            parser.contentMap.append((Int32(clamping: parser.content.count), Int32(clamping: source)))
            for q in s..<e { parser.content.append(parser.content[q]) }
        }
        while k < cell.end {
            if content[k] == UInt8(ascii: "\\"), k + 1 < cell.end, content[k + 1] == UInt8(ascii: "|") {
                copy(&self, &tree, runStart, k)
                runStart = k + 1
                k += 2
                continue
            }
            k += 1
        }
        copy(&self, &tree, runStart, cell.end)
        let sourceRange = sourceRange(forContent: ByteSpan(cell.start, cell.end))
        let id = tree.buildNode(Node(kind: .tableCell, sourceStart: Int32(clamping: sourceRange.lowerBound),
                                    sourceEnd: Int32(clamping: sourceRange.upperBound),
                                    contentStart: Int32(clamping: contentStart), contentEnd: Int32(clamping: content.count),
                                    data: tableAlignments[column].rawValue))
        meta.append(Meta())
        tree.arena.link(id, under: row)
        // Following content must not be taken as contiguous with the copied run.
        contentMap.append((Int32(clamping: content.count), Int32(clamping: sourceRange.upperBound)))
    }
}

/// GFM table rows read the way the block pass reads them, for editors that work on one line at a
/// time (table formatting, new rows): the same cells, split at the same pipes.
public enum TableRowSyntax {
    /// The cells of the row `bytes[start..<end]` (one line without its line break): each cell's
    /// byte range with spaces and tabs trimmed, split at every `|` not escaped as `\|` (a code
    /// span does not protect a pipe, as in GFM). Nil when the line holds no cell.
    public static func cells(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [Range<Int>]? {
        guard start >= 0, start <= end, end <= bytes.count else { return nil }
        return BlockParser.parseRow(bytes, start, end)?.map { $0.start..<$0.end }
    }

    /// The alignment a delimiter-row cell (`:?-+:?`) gives its column; nil when the cell is not
    /// one.
    public static func alignment(_ bytes: UnsafeBufferPointer<UInt8>, _ cell: Range<Int>) -> TableAlignment? {
        guard cell.lowerBound >= 0, cell.upperBound <= bytes.count else { return nil }
        return BlockParser.delimiterAlignment(bytes, BlockParser.RowCell(start: cell.lowerBound, end: cell.upperBound))
    }
}
