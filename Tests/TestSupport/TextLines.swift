/// The units an LSP position's `character` counts (`general.positionEncodings`).
public enum ColumnEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"
}

/// A position as an editor names it: a 0-based line and the column in each encoding.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    /// 0-based; `\n`, `\r\n` and `\r` each end a line.
    public let line: Int
    public let utf8Character: Int
    public let utf16Character: Int
    /// Unicode scalars.
    public let utf32Character: Int

    public init(line: Int, utf8Character: Int, utf16Character: Int, utf32Character: Int) {
        self.line = line
        self.utf8Character = utf8Character
        self.utf16Character = utf16Character
        self.utf32Character = utf32Character
    }

    /// The column in `encoding`'s units.
    public func character(_ encoding: ColumnEncoding) -> Int {
        switch encoding {
        case .utf8: utf8Character
        case .utf16: utf16Character
        case .utf32: utf32Character
        }
    }

    public var description: String { "\(line):\(utf16Character)" }
}

/// The lines of a text, for turning UTF-8 offsets into editor positions and back. The tests'
/// own line index, written independently of TextCore's `LineIndex` so the two can check each other.
public struct TextLines: Sendable {
    public let bytes: [UInt8]
    /// The UTF-8 offset where each line starts.
    public let lineStarts: [Int]

    public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The lines of UTF-8 bytes (which need not be valid UTF-8).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
            if byte == 0x0A || byte == 0x0D { starts.append(index) }
        }
        lineStarts = starts
    }

    /// The number of lines (a text ending in a line break has an empty last line).
    public var count: Int { lineStarts.count }

    /// The line that holds the UTF-8 offset `offset` (clamped to the text).
    public func line(ofUTF8Offset offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The UTF-8 offset where line `line`'s text ends (before its line break); the end of the
    /// text for a line past the last.
    public func lineEnd(_ line: Int) -> Int {
        guard line >= 0, line < lineStarts.count else { return line < 0 ? 0 : bytes.count }
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if end > lineStarts[line], bytes[end - 1] == 0x0A { end -= 1 }
        if end > lineStarts[line], bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The position of a UTF-8 offset (clamped to the text; an offset inside a character counts
    /// the units before that character).
    public func position(ofUTF8Offset offset: Int) -> TextPosition {
        let offset = max(0, min(offset, bytes.count))
        var line = 0
        while line + 1 < lineStarts.count, lineStarts[line + 1] <= offset { line += 1 }
        let start = lineStarts[line]
        var utf16 = 0, utf32 = 0
        var index = start
        while index < offset {
            let length = TextLines.scalarLength(bytes[index])
            guard index + length <= offset else { break }
            utf16 += length == 4 ? 2 : 1
            utf32 += 1
            index += length
        }
        return TextPosition(line: line, utf8Character: offset - start, utf16Character: utf16, utf32Character: utf32)
    }

    /// The UTF-8 offset of `character` units of `encoding` into line `line`; nil when the line
    /// does not exist, the column is past the line's end or inside a character.
    public func utf8Offset(line: Int, character: Int, _ encoding: ColumnEncoding) -> Int? {
        guard line >= 0, line < lineStarts.count, character >= 0 else { return nil }
        let end = lineEnd(line)
        var index = lineStarts[line]
        var units = 0
        while units < character {
            guard index < end else { return nil }
            let length = TextLines.scalarLength(bytes[index])
            switch encoding {
            case .utf8: units += 1
            case .utf16: units += length == 4 ? 2 : 1
            case .utf32: units += 1
            }
            index += encoding == .utf8 ? 1 : length
        }
        guard units == character, index <= end else { return nil }
        if index < end, bytes[index] & 0xC0 == 0x80 { return nil }
        return index
    }

    /// The UTF-8 offset of `position`, read in `encoding`.
    public func utf8Offset(of position: TextPosition, _ encoding: ColumnEncoding) -> Int? {
        utf8Offset(line: position.line, character: position.character(encoding), encoding)
    }

    /// The length of the UTF-8 sequence a lead byte starts (1 for a stray continuation byte).
    static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
