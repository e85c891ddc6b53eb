// The block starts of the block pass: what each block does when it opens on a line (the `$$`
// math and table starts live with the rest of their constructs).
//
// Invariants: `BlockParser.openBlockStart` calls an opener only once the block's start matched at
// `nextNonspace` of the current line. An opener consumes its marker (containers), closes the
// blocks the line did not continue before it adds a node (`closeUnmatchedOnce`), and pushes the
// new block on the open stack; none reads past the current line.

import TextCore

extension BlockParser {
    /// Opens a block quote at the `>` at the first non-space.
    mutating func openBlockQuote(into tree: inout SyntaxTree) {
        let start = nextNonspace
        consumeBlockQuoteMarker()
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.blockQuote, start: start, into: &tree)
        tree.arena[id].sourceEnd = Int32(clamping: offset)
        push(OpenBlock(node: id, kind: .blockQuote, lastLineEnd: offset))
    }

    /// Opens an ATX heading of `level` at the first non-space; its content is the line after the
    /// opening `#` run, without a closing `#` run and the blanks around the text.
    mutating func openATXHeading(level: Int, into tree: inout SyntaxTree) {
        let start = nextNonspace
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.heading, start: start, into: &tree)
        tree.arena[id].data = Int32(level)
        var s = nextNonspace + level
        var e = lineEnd
        while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        var h = e
        while h > s && bytes[h - 1] == UInt8(ascii: "#") { h -= 1 }
        if h == s { e = s } else if isSpaceOrTab(bytes[h - 1]) {
            e = h
            while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        }
        while s < e && isSpaceOrTab(bytes[s]) { s += 1 }
        tree.arena[id].contentStart = Int32(clamping: content.count)
        appendContent(s, e, into: &tree)
        tree.arena[id].contentEnd = Int32(clamping: content.count)
        push(OpenBlock(node: id, kind: .heading, lastLineEnd: lineEnd))
    }

    /// Opens fenced code at a fence of `length` `character`s at the first non-space; the rest of
    /// the line, trimmed, is the info string.
    mutating func openCodeFence(character: UInt8, length: Int, into tree: inout SyntaxTree) {
        let start = nextNonspace
        let fenceIndent = indent
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.codeBlock, start: start, into: &tree)
        var infoStart = nextNonspace + length
        var infoEnd = lineEnd
        while infoStart < infoEnd && isSpaceOrTab(bytes[infoStart]) { infoStart += 1 }
        while infoEnd > infoStart && isSpaceOrTab(bytes[infoEnd - 1]) { infoEnd -= 1 }
        tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: character, fenceLength: Int32(length),
                                             fenceIndent: Int32(fenceIndent), info: ByteSpan(infoStart, infoEnd)))
        tree.arena[id].data = Int32(tree.codeBlocks.count - 1)
        tree.arena[id].contentStart = Int32(clamping: content.count)
        tree.arena[id].contentEnd = Int32(clamping: content.count)
        push(OpenBlock(node: id, kind: .codeBlock, fenceCharacter: character, fenceLength: length,
                       fenceIndent: fenceIndent, isFenced: true, lastLineEnd: lineEnd))
    }

    /// Opens an HTML block of start condition `type` (1...7) at the first non-space; the line
    /// itself is its first line of text.
    mutating func openHTMLBlock(type: Int, into tree: inout SyntaxTree) {
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.htmlBlock, start: nextNonspace, into: &tree)
        tree.arena[id].contentStart = Int32(clamping: content.count)
        tree.arena[id].contentEnd = Int32(clamping: content.count)
        push(OpenBlock(node: id, kind: .htmlBlock, htmlType: type, lastLineEnd: lineEnd))
    }

    /// A setext underline of `level` under the paragraph at `lineContainer`: the paragraph
    /// becomes a heading unless it was only link reference definitions. Returns true when it
    /// did (the underline is used up); otherwise the line is paragraph text.
    mutating func makeSetextHeading(level: Int, into tree: inout SyntaxTree) -> Bool {
        let paragraph = open[lineContainer].node
        guard resolveLinkDefinitions(paragraph, into: &tree) else { return false }
        tree.arena[paragraph].kind = .heading
        tree.arena[paragraph].data = Int32(level)
        tree.arena[paragraph].flags = Node.headingSetext
        open[lineContainer].kind = .heading
        open[lineContainer].lastLineEnd = lineEnd
        return true
    }

    /// Opens a thematic break at the first non-space.
    mutating func openThematicBreak(into tree: inout SyntaxTree) {
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.thematicBreak, start: nextNonspace, into: &tree)
        push(OpenBlock(node: id, kind: .thematicBreak, lastLineEnd: lineEnd))
    }

    /// Opens a GFM footnote definition `[^label]:` at the first non-space (`labelEnd`: the
    /// label's `]`; `after`: where its content starts). Its content is indented by 4.
    mutating func openFootnoteDefinition(labelEnd: Int, after: Int, into tree: inout SyntaxTree) {
        let start = nextNonspace
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.footnoteDefinition, start: start, into: &tree)
        let label = ByteSpan(start + 2, labelEnd)
        let normalized = LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: bytes[label.range]))
        tree.footnoteDefinitions.append(FootnoteDefinition(label: label, normalizedLabel: normalized, node: id))
        tree.arena[id].data = Int32(tree.footnoteDefinitions.count - 1)
        advance(after - offset, columns: false)
        push(OpenBlock(node: id, kind: .footnoteDefinition, contentIndent: 4, lastLineEnd: lineEnd))
    }

    /// Opens a list item at `marker` (the first non-space), and a list around it unless the
    /// open list has the same kind of marker. The item's content indentation is the marker's
    /// column plus the marker and 1-4 spaces after it (5 or more mean indented code inside the
    /// item, so one space counts; so does an empty rest of line).
    mutating func openListItem(_ marker: BlockScanners.ListMarker, into tree: inout SyntaxTree) {
        let markerStart = nextNonspace
        let markerOffset = indent
        advance(nextNonspace + marker.length - offset, columns: false)
        let savedOffset = offset, savedColumn = column, savedTab = partiallyConsumedTab
        while column - savedColumn <= 5 && offset < lineEnd && isSpaceOrTab(bytes[offset]) {
            advance(1, columns: true)
        }
        let spaces = column - savedColumn
        var padding: Int
        if spaces >= 5 || spaces < 1 || offset >= lineEnd {
            padding = marker.length + 1
            offset = savedOffset
            column = savedColumn
            partiallyConsumedTab = savedTab
            if spaces > 0 { advance(1, columns: true) }
        } else {
            padding = marker.length + spaces
        }
        closeUnmatchedOnce(into: &tree)
        let current = open[open.count - 1]
        if !(current.kind == .list && current.listOrdered == marker.ordered && current.listDelimiter == marker.delimiter) {
            let list = addChild(.list, start: markerStart, into: &tree)
            tree.arena[list].data = marker.start
            tree.arena[list].flags = (marker.ordered ? Node.listOrdered : 0)
                | (marker.delimiter.rawValue << Node.listDelimiterShift)
            push(OpenBlock(node: list, kind: .list, listDelimiter: marker.delimiter, listOrdered: marker.ordered,
                           lastLineEnd: lineEnd))
        }
        let item = addChild(.item, start: markerStart, into: &tree)
        tree.arena[item].sourceEnd = Int32(clamping: offset)
        padding = max(padding, 1)
        push(OpenBlock(node: item, kind: .item, contentIndent: markerOffset + padding, lastLineEnd: offset))
    }

    /// Opens indented code: the line is indented four columns or more, which are consumed.
    mutating func openIndentedCode(into tree: inout SyntaxTree) {
        advance(4, columns: true)
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.codeBlock, start: offset, into: &tree)
        tree.codeBlocks.append(CodeBlockInfo(isFenced: false))
        tree.arena[id].data = Int32(tree.codeBlocks.count - 1)
        tree.arena[id].contentStart = Int32(clamping: content.count)
        tree.arena[id].contentEnd = Int32(clamping: content.count)
        push(OpenBlock(node: id, kind: .codeBlock, lastLineEnd: lineEnd))
    }
}
