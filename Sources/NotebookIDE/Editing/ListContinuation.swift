// What a line break typed after a list item or a block-quote line adds to the new line: the
// containers of the line the writer left, continued.
//
// Rules:
// - The new line gets the left line's containers: block quotes as written (`> > `), list items
//   as the indentation of their content, and the innermost item a new marker with the same
//   indentation and spacing: the same bullet, the next number with the same delimiter (`1.` →
//   `2.`, `1)` → `2)`), a fresh `[ ] ` when the item had a task box (checked or not).
// - Ordered items below the new one in the same list (the same delimiter at the same indentation
//   and quote depth, down to where the list ends) are renumbered after it. A list whose numbers
//   do not count up (`1.` `1.` `1.`) keeps its number and is not renumbered.
// - An item with nothing after its marker (and the new line empty too) ends its list: the marker
//   goes and the left line keeps only the containers outside the item; the new line continues
//   those. An empty *nested* item instead moves out one level, as most editors do: it becomes the
//   next item of its parent's list, on the left line, and the line break the writer typed goes
//   (pressing Enter again on the now-empty outer item ends that list). An empty quote line (`> `)
//   ends the innermost quote the same way: the left line keeps the outer quotes (`>` alone, so
//   that a lazy line cannot continue the inner one) and the new line continues them. The new line
//   keeps the indentation before the marker that went (a quote inside a list item stays in it).
// - Nothing happens inside fenced code, `$$` math or the front matter, on a line without
//   containers, or when the new line already has text before the cursor. Text the line break
//   carried into the new item loses the blanks it began with (`- split| here` → `- here`).
//
// Invariants: reads the left line, the lines of the list below (renumbering) or above (an empty
// nested item's parent), and `LineRegions` for the left line; every edit before the cursor ends at
// or before it, every edit after starts after it.

import MarkdownSyntax
import TextCore

enum ListContinuation {
    /// The edits for a line break typed just before the line that holds `cursor`.
    static func edits(_ text: EditorText, cursor: Int) -> TypingEdits? {
        let lineStart = text.lineStart(of: cursor)
        guard text.isBlank(lineStart, cursor), let left = text.previousLine(before: lineStart) else { return nil }
        guard LineRegions.region(at: left.start, in: text.bytes) == .body else { return nil }
        let line = LineContainers(text, left.start, left.end)
        guard let innermost = line.containers.last else { return nil }
        let depth = line.containers.count - 1
        let carriesText = !text.isBlank(cursor, text.lineEnd(from: cursor))
        let newLine = lineStart..<cursor

        if line.isEmpty(in: text), !carriesText {
            if innermost.marker != nil, let parent = parentItem(of: line, in: text) {
                // Out one level: the left line becomes the parent list's next item, after the
                // containers outside the parent (the parent's index on this line is its depth).
                let outside = line.continuation(text, depth: parent.index)
                let next = nextItem(after: parent.line, at: parent.index, below: lineStart, in: text)
                let item = parent.line.newItem(text, at: parent.index, marker: next.marker)
                return TypingEdits([TextReplacement(span: ByteSpan(left.start, cursor), newText: string(outside + item))] + next.renumbering)
            }
            // End the innermost container; the new line keeps the indentation before its marker.
            let outer = line.continuation(text, depth: depth) + text.bytes[innermost.start..<innermost.markerStart]
            var trimmed = outer
            while let last = trimmed.last, EditorText.isSpace(last) { trimmed.removeLast() }
            return TypingEdits([
                replacement(left.start..<left.end, with: trimmed, in: text),
                replacement(newLine, with: outer, in: text),
            ].compactMap { $0 })
        }

        var prefix = line.continuation(text, depth: depth)
        var renumbering: [TextReplacement] = []
        if innermost.marker != nil {
            let next = nextItem(after: line, at: depth, below: lineStart, in: text)
            prefix += line.newItem(text, at: depth, marker: next.marker)
            renumbering = next.renumbering
        } else {
            prefix = line.continuation(text, depth: depth + 1)
        }
        // Text carried into the new item starts after its marker: the blanks it began with go
        // (an edit that starts at the cursor, so the cursor stays before the text).
        let carriedStart = text.skipSpaces(cursor, text.lineEnd(from: cursor))
        let blanks = carriesText && carriedStart > cursor ? [TextReplacement(span: ByteSpan(cursor, carriedStart), newText: "")] : []
        return TypingEdits([replacement(newLine, with: prefix, in: text)].compactMap { $0 } + blanks + renumbering)
    }

    /// The replacement of `range` by `bytes`; nil when they are the same.
    static func replacement(_ range: Range<Int>, with bytes: [UInt8], in text: EditorText) -> TextReplacement? {
        if text.bytes[range].elementsEqual(bytes) { return nil }
        return TextReplacement(span: ByteSpan(range.lowerBound, range.upperBound), newText: string(bytes))
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Numbers

    /// The marker of a new item after the item `containers[index]` of `line`, inserted on the
    /// line that starts at `newLineStart`, and the renumbering of the ordered items below it.
    static func nextItem(after line: LineContainers, at index: Int, below newLineStart: Int, in text: EditorText)
        -> (marker: ListMarker, renumbering: [TextReplacement]) {
        guard let list = ListPosition(line: line, index: index, in: text), let number = list.marker.number else {
            return (line.containers[index].marker ?? ListMarker(character: UInt8(ascii: "-")), [])
        }
        let siblings = list.itemsBelow(text.nextLineStart(after: text.lineEnd(from: newLineStart)), in: text)
        if let first = siblings.first, first.number == number { return (list.marker, []) }
        var expected = min(number + 1, LineContainers.largestItemNumber)
        let marker = ListMarker(character: list.marker.character, number: expected)
        var edits: [TextReplacement] = []
        for sibling in siblings {
            expected = min(expected + 1, LineContainers.largestItemNumber)
            if sibling.number != expected {
                edits.append(TextReplacement(span: ByteSpan(sibling.digits.lowerBound, sibling.digits.upperBound), newText: String(expected)))
            }
        }
        return (marker, edits)
    }

    // MARK: Nesting

    /// The item an empty item is nested in: an item before it on the same line, or the nearest
    /// item above at a smaller indentation whose content the item is indented into.
    static func parentItem(of line: LineContainers, in text: EditorText) -> (line: LineContainers, index: Int)? {
        let depth = line.containers.count - 1
        if depth > 0, !line.containers[depth - 1].isQuote { return (line, depth - 1) }
        guard depth == line.leadingQuotes else { return nil }
        guard let list = ListPosition(line: line, index: depth, in: text), list.column > 0 else { return nil }
        return list.parentAbove(in: text)
    }
}

/// Where a list item sits: its quote depth, the columns of its marker and content, its marker.
struct ListPosition {
    let quotes: Int
    let column: Int
    let contentColumn: Int
    let marker: ListMarker
    let lineStart: Int

    /// The position of the item `line.containers[index]`; nil when it is a quote.
    init?(line: LineContainers, index: Int, in text: EditorText) {
        guard index < line.containers.count, let marker = line.containers[index].marker else { return nil }
        let item = line.containers[index]
        quotes = line.leadingQuotes
        column = line.column(of: item.markerStart, in: text)
        contentColumn = line.column(of: item.contentStart, in: text)
        self.marker = marker
        lineStart = line.lineStart
    }

    /// What a line is to this list.
    enum LineRole {
        /// Blank after the list's quotes.
        case blank
        /// An item at the list's indentation (or up to its content's): the list's own or another.
        case item(LineContainers, index: Int, column: Int)
        /// An item indented into the content.
        case nestedItem
        /// Text indented at least to `column` (`indent` columns).
        case text(indent: Int, start: Int)
        /// Not inside the quotes the list is in.
        case outside
    }

    func role(_ line: LineContainers, in text: EditorText) -> LineRole {
        guard line.leadingQuotes >= quotes else { return .outside }
        let quotesEnd = quotes == 0 ? line.lineStart : line.containers[quotes - 1].contentStart
        let first = text.skipSpaces(quotesEnd, line.lineEnd)
        if first == line.lineEnd { return .blank }
        if line.containers.count > quotes, let _ = line.containers[quotes].marker {
            let itemColumn = line.column(of: line.containers[quotes].markerStart, in: text)
            return itemColumn >= contentColumn ? .nestedItem : .item(line, index: quotes, column: itemColumn)
        }
        return .text(indent: text.columns(quotesEnd, first), start: first)
    }

    /// The items of this list below `start` (a line start): each one's number and the bytes of
    /// its digits, down to where the list ends.
    func itemsBelow(_ start: Int, in text: EditorText) -> [(number: Int, digits: Range<Int>)] {
        var items: [(number: Int, digits: Range<Int>)] = []
        var lineStart = start
        var previousBlank = false
        // A fence opened inside an item: its lines are code until it closes or the item ends.
        var fence: (character: UInt8, length: Int)? = nil
        while lineStart < text.count {
            let lineEnd = text.lineEnd(from: lineStart)
            let line = LineContainers(text, lineStart, lineEnd)
            let role = role(line, in: text)
            var blank = false
            switch role {
            case .outside:
                return items
            case .blank:
                blank = true
            case .text(let indent, let first) where fence != nil && indent >= contentColumn:
                if let open = fence, LineRegions.isClosingFence(text.bytes, first, lineEnd, character: open.character, length: open.length) { fence = nil }
            case .item(let found, let index, let itemColumn):
                fence = nil
                guard itemColumn >= column, let marker = found.containers[index].marker, marker.isSameList(as: self.marker),
                      let number = marker.number else { return items }
                let item = found.containers[index]
                items.append((number, item.markerStart..<(item.markerEnd - 1)))
            case .nestedItem:
                break
            case .text(let indent, let first):
                fence = nil
                if indent >= contentColumn {
                    if let open = LineRegions.openingFence(text.bytes, first, lineEnd) { fence = (open.character, open.length) }
                } else if previousBlank || ListPosition.startsBlock(text, first, lineEnd) {
                    return items
                }
                // Otherwise a lazy continuation line of the item above.
            }
            previousBlank = blank
            let next = text.nextLineStart(after: lineEnd)
            if next == lineStart { break }
            lineStart = next
        }
        return items
    }

    /// The nearest item above this one at a smaller indentation, when this item's marker is
    /// inside its content.
    func parentAbove(in text: EditorText) -> (line: LineContainers, index: Int)? {
        var below = lineStart
        var belowBlank = false
        while let above = text.previousLine(before: below) {
            let line = LineContainers(text, above.start, above.end)
            switch role(line, in: text) {
            case .outside:
                return nil
            case .blank:
                belowBlank = true
                below = above.start
                continue
            case .item(let found, let index, let itemColumn) where itemColumn < column:
                let content = found.column(of: found.containers[index].contentStart, in: text)
                return content <= column ? (found, index) : nil
            case .text(let indent, _) where indent < column && belowBlank:
                return nil
            case .item, .nestedItem, .text:
                break
            }
            belowBlank = false
            below = above.start
        }
        return nil
    }

    /// Whether the text at `first` starts a block that ends a list it is not indented into: a
    /// heading, a fence, a thematic break or an HTML block.
    static func startsBlock(_ text: EditorText, _ first: Int, _ end: Int) -> Bool {
        let byte = text[first]
        if byte == UInt8(ascii: "#") {
            var index = first
            while index < end, text[index] == UInt8(ascii: "#") { index += 1 }
            return index - first <= 6 && (index == end || EditorText.isSpace(text[index]))
        }
        if byte == UInt8(ascii: "<") { return true }
        return LineRegions.openingFence(text.bytes, first, end) != nil || LineContainers.isThematicBreak(text, first, end)
    }
}
