// A note's text as the editing features read it: lines found from line breaks around an offset,
// never from the top of the text (except where `LineRegions` is asked).
//
// Invariants: every function clamps what it is given and reads only inside the buffer; a line's
// end is the offset of its line break (`\n`, `\r\n` or `\r`), or the text's end.

import MarkdownSyntax

/// Lines of a UTF-8 buffer around offsets.
struct EditorText {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    /// Runs `body` over the bytes of `text`.
    static func reading<Result>(_ text: [UInt8], _ body: (EditorText) -> Result) -> Result {
        text.withUnsafeBufferPointer { body(EditorText(bytes: $0)) }
    }

    subscript(index: Int) -> UInt8 { bytes[index] }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// The start of the line that holds `offset`.
    func lineStart(of offset: Int) -> Int {
        var start = max(0, min(offset, count))
        while start > 0, !EditorText.isLineBreak(bytes[start - 1]) { start -= 1 }
        return start
    }

    /// The end of the line that starts at or before `offset` (the offset of its line break).
    func lineEnd(from offset: Int) -> Int {
        let offset = max(0, min(offset, count))
        guard let base = bytes.baseAddress else { return offset }
        return ByteSearch.lineEnd(base, from: offset, end: count)
    }

    /// The start of the line after the one that ends at `lineEnd` (`count` for the last line).
    func nextLineStart(after lineEnd: Int) -> Int {
        LineRegions.nextLineStart(bytes, after: lineEnd)
    }

    /// The start and end of the line before the one that starts at `lineStart`; nil on the first
    /// line.
    func previousLine(before lineStart: Int) -> (start: Int, end: Int)? {
        guard lineStart > 0, lineStart <= count else { return nil }
        var end = lineStart - 1
        if bytes[end] == 0x0A, end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        return (self.lineStart(of: end), end)
    }

    /// Whether `start..<end` holds only spaces and tabs.
    func isBlank(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if !EditorText.isSpace(bytes[index]) { return false }
            index += 1
        }
        return true
    }

    /// The first offset at or after `start` (before `end`) that is not a space or tab.
    func skipSpaces(_ start: Int, _ end: Int) -> Int {
        var index = start
        while index < end, EditorText.isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// `start..<end` without its trailing spaces and tabs.
    func trimmedEnd(_ start: Int, _ end: Int) -> Int {
        var index = end
        while index > start, EditorText.isSpace(bytes[index - 1]) { index -= 1 }
        return index
    }

    /// The columns `start..<end` covers when it starts at `column`: a tab advances to the next
    /// multiple of four, as CommonMark counts indentation; other bytes count one each.
    func columns(_ start: Int, _ end: Int, from column: Int = 0) -> Int {
        var column = column
        var index = start
        while index < end {
            column = bytes[index] == 0x09 ? (column / 4 + 1) * 4 : column + 1
            index += 1
        }
        return column
    }

    /// The text of `start..<end`.
    func string(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The end of the scalar that starts at `offset` (a `\r\n` counts as one).
    func scalarEnd(at offset: Int) -> Int {
        guard offset < count else { return count }
        let lead = bytes[offset]
        if lead == 0x0D, offset + 1 < count, bytes[offset + 1] == 0x0A { return offset + 2 }
        var end = offset + 1
        if lead >= 0xC0 {
            while end < count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        return end
    }
}
