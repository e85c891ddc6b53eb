// The containers a line opens with, read from the line alone: block-quote markers and list-item
// markers, outermost first (`> - [ ] text` is a quote, then a bullet item with a task box).
//
// Invariants:
// - Markers are recognised as CommonMark writes them: `>` with one optional space; `-`, `+`, `*`
//   or one to nine digits and `.` or `)`, followed by a space, a tab or the line's end; a
//   thematic break (`- - -`, `***`) is not an item. Indentation before an item is not limited
//   (a nested item's indentation belongs to the items above it, which this line does not show).
// - At most `maximumDepth` containers are read; the rest of the line is its text.
// - Reads only `start..<end`; never traps.

/// A list item's marker.
struct ListMarker: Equatable {
    /// `-`, `+` or `*` for a bullet; `.` or `)` after an ordered item's number.
    var character: UInt8
    /// The number of an ordered item; nil for a bullet.
    var number: Int?

    /// The marker's text.
    var text: String {
        if let number { return "\(number)\(Character(Unicode.Scalar(character)))" }
        return String(Character(Unicode.Scalar(character)))
    }

    /// Whether an item with `other` belongs to the same list (same bullet, or same delimiter).
    func isSameList(as other: ListMarker) -> Bool {
        character == other.character && (number == nil) == (other.number == nil)
    }
}

struct LineContainers {
    /// More containers than this on one line are read as text.
    static let maximumDepth = 32
    /// The largest number an ordered item may have (nine digits).
    static let largestItemNumber = 999_999_999

    enum Kind: Equatable {
        case quote
        case item(ListMarker)
    }

    struct Container: Equatable {
        var kind: Kind
        /// Where the container's bytes start: its leading spaces, then its marker.
        var start: Int
        var markerStart: Int
        var markerEnd: Int
        /// Where its content starts: after the marker and the spaces that belong to it.
        var contentStart: Int

        var isQuote: Bool { kind == .quote }
        var marker: ListMarker? {
            if case .item(let marker) = kind { return marker }
            return nil
        }
    }

    let lineStart: Int
    let lineEnd: Int
    var containers: [Container] = []
    /// The task box (`[ ]`, `[x]`, `[X]`) that starts the innermost item's content, with the
    /// space after it.
    var task: Range<Int>? = nil
    /// Where the line's own text starts: after the containers and the task box.
    var textStart: Int

    /// The containers of the line `start..<end` of `text`.
    init(_ text: EditorText, _ start: Int, _ end: Int) {
        lineStart = start
        lineEnd = end
        textStart = start
        var index = start
        while containers.count < LineContainers.maximumDepth {
            let markerStart = text.skipSpaces(index, end)
            guard markerStart < end else { break }
            if text[markerStart] == UInt8(ascii: ">") {
                var contentStart = markerStart + 1
                if contentStart < end, EditorText.isSpace(text[contentStart]) { contentStart += 1 }
                containers.append(Container(kind: .quote, start: index, markerStart: markerStart, markerEnd: markerStart + 1, contentStart: contentStart))
                index = contentStart
                continue
            }
            guard let (marker, markerEnd) = LineContainers.listMarker(text, markerStart, end),
                  !LineContainers.isThematicBreak(text, markerStart, end) else { break }
            let spacesEnd = text.skipSpaces(markerEnd, end)
            let contentStart: Int
            if spacesEnd == end || spacesEnd - markerEnd > 4 {
                // An empty item, or one that starts with indented code: one space belongs to the marker.
                contentStart = min(markerEnd + 1, end)
            } else {
                contentStart = spacesEnd
            }
            containers.append(Container(kind: .item(marker), start: index, markerStart: markerStart, markerEnd: markerEnd, contentStart: contentStart))
            index = contentStart
        }
        textStart = index
        if let last = containers.last, !last.isQuote, let box = LineContainers.taskBox(text, last.contentStart, end) {
            task = box
            textStart = box.upperBound
        }
    }

    /// Whether the line holds nothing but its containers (and task box).
    func isEmpty(in text: EditorText) -> Bool { text.isBlank(textStart, lineEnd) }

    /// The number of block quotes before the first list item.
    var leadingQuotes: Int { containers.firstIndex { !$0.isQuote } ?? containers.count }

    /// The text that continues the first `depth` containers on another line: quote markers as
    /// written, list items as the spaces (tabs kept) that indent their content.
    func continuation(_ text: EditorText, depth: Int) -> [UInt8] {
        var prefix: [UInt8] = []
        for container in containers.prefix(depth) {
            if container.isQuote {
                prefix += text.bytes[container.start..<container.contentStart]
            } else {
                prefix += text.bytes[container.start..<container.markerStart]
                for index in container.markerStart..<container.contentStart {
                    prefix.append(text[index] == 0x09 ? 0x09 : 0x20)
                }
            }
        }
        return prefix
    }

    /// The marker text that starts a new item after the item `containers[index]`: its
    /// indentation, `marker`, the spacing it had (one space at least) and a fresh task box when
    /// it had one.
    func newItem(_ text: EditorText, at index: Int, marker: ListMarker) -> [UInt8] {
        let container = containers[index]
        var item = Array(text.bytes[container.start..<container.markerStart])
        item += Array(marker.text.utf8)
        let spacing = text.bytes[container.markerEnd..<container.contentStart]
        item += spacing.isEmpty ? [0x20] : Array(spacing)
        if index == containers.count - 1, task != nil { item += Array("[ ] ".utf8) }
        return item
    }

    /// The columns from the end of the leading quotes to `offset`.
    func column(of offset: Int, in text: EditorText) -> Int {
        let quotesEnd = leadingQuotes == 0 ? lineStart : containers[leadingQuotes - 1].contentStart
        return text.columns(quotesEnd, offset)
    }

    // MARK: Scanners

    /// A list marker at `start`, followed by a space, a tab or the line's end; and its end.
    static func listMarker(_ text: EditorText, _ start: Int, _ end: Int) -> (ListMarker, Int)? {
        guard start < end else { return nil }
        let first = text[start]
        var markerEnd: Int
        var marker: ListMarker
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            marker = ListMarker(character: first, number: nil)
            markerEnd = start + 1
        } else {
            var index = start
            var number = 0
            while index < end, index - start < 9, text[index] >= 0x30, text[index] <= 0x39 {
                number = number * 10 + Int(text[index] - 0x30)
                index += 1
            }
            guard index > start, index < end, text[index] == UInt8(ascii: ".") || text[index] == UInt8(ascii: ")") else { return nil }
            marker = ListMarker(character: text[index], number: number)
            markerEnd = index + 1
        }
        guard markerEnd == end || EditorText.isSpace(text[markerEnd]) else { return nil }
        return (marker, markerEnd)
    }

    /// A thematic break from `start`: three or more `-`, `*` or `_` (the same one), spaces between.
    static func isThematicBreak(_ text: EditorText, _ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        let character = text[start]
        guard character == UInt8(ascii: "-") || character == UInt8(ascii: "*") || character == UInt8(ascii: "_") else { return false }
        var marks = 0
        for index in start..<end {
            if text[index] == character { marks += 1 } else if !EditorText.isSpace(text[index]) { return false }
        }
        return marks >= 3
    }

    /// A task box at `start` (`[ ]`, `[x]` or `[X]` followed by a space, a tab or the line's
    /// end), with the one space after it.
    static func taskBox(_ text: EditorText, _ start: Int, _ end: Int) -> Range<Int>? {
        guard end - start >= 3, text[start] == UInt8(ascii: "["), text[start + 2] == UInt8(ascii: "]") else { return nil }
        let mark = text[start + 1]
        guard mark == 0x20 || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") else { return nil }
        if start + 3 == end { return start..<end }
        guard EditorText.isSpace(text[start + 3]) else { return nil }
        return start..<(start + 4)
    }
}
