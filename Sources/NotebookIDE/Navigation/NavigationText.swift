// Small byte-level helpers shared by the navigation features (outline, folding, TOC, hover).
//
// Invariants: every function clamps its offsets to the buffer, so no input can make it read out
// of bounds; none allocates except the ones that return a String.

import MarkdownSyntax

/// Byte helpers over a note's UTF-8 source.
enum NavigationText {
    /// True for the bytes that make a line blank: space, tab, line feed and carriage return.
    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `end` moved back over blank bytes, never before `floor` (both clamped to `source`).
    static func trimmedEnd(_ source: [UInt8], end: Int, floor: Int) -> Int {
        let low = max(0, min(floor, source.count))
        var index = max(low, min(end, source.count))
        while index > low, isBlank(source[index - 1]) { index -= 1 }
        return index
    }

    /// The offset just past the line ending of the line that holds `offset - 1`: where the next
    /// line starts, or `source.count`. `"\r\n"` counts as one line ending.
    static func nextLineStart(_ source: [UInt8], after offset: Int) -> Int {
        var index = max(0, min(offset, source.count))
        while index < source.count {
            let byte = source[index]
            if byte == 0x0A { return index + 1 }
            if byte == 0x0D {
                if index + 1 < source.count, source[index + 1] == 0x0A { return index + 2 }
                return index + 1
            }
            index += 1
        }
        return source.count
    }

    /// The line ending the note uses first (`"\r\n"`, `"\r"` or `"\n"`), `"\n"` when it has none.
    static func lineEnding(of source: [UInt8]) -> String {
        for index in source.indices {
            if source[index] == 0x0A { return "\n" }
            if source[index] == 0x0D {
                return index + 1 < source.count && source[index + 1] == 0x0A ? "\r\n" : "\r"
            }
        }
        return "\n"
    }

    /// `text` with every character that Markdown (CommonMark, GFM and the notebook syntax) could
    /// read as markup backslash-escaped, so it shows as plain text: emphasis, code, links, HTML,
    /// tags, math, block ids, strikethrough, table pipes, character references.
    static func escapedMarkdown(_ text: String) -> String {
        var needsEscape = false
        for byte in text.utf8 where isMarkup(byte) {
            needsEscape = true
            break
        }
        guard needsEscape else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if isMarkup(byte) { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    private static func isMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "$"),
             UInt8(ascii: "~"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "!"), UInt8(ascii: "&"):
            return true
        default:
            return false
        }
    }

    /// `text` as a code span: wrapped in one more backtick than its longest run of backticks,
    /// with spaces inside when it starts or ends with a backtick.
    static func codeSpan(_ text: String) -> String {
        var longest = 0, run = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "`") { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.utf8.first == UInt8(ascii: "`") || text.utf8.last == UInt8(ascii: "`") ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// The largest offset `<= limit` in `bytes` that does not split a UTF-8 sequence.
    static func scalarBoundary(_ bytes: [UInt8], atOrBefore limit: Int) -> Int {
        var index = max(0, min(limit, bytes.count))
        // Continuation bytes are 10xxxxxx; a sequence is at most 4 bytes, so look back at most 3.
        var steps = 0
        while index > 0, index < bytes.count, bytes[index] & 0xC0 == 0x80, steps < 3 {
            index -= 1
            steps += 1
        }
        return index
    }
}
