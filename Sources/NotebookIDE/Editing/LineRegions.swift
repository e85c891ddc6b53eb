// Which block a line of a note's text is in, as far as the blocks that hide Markdown go: the
// front matter, a fenced code block, a `$$` display-math block, or the body. Found by reading
// line starts from the top of the text, never by parsing it: what editing features ask about
// the line being typed (a keystroke makes a new version, and parsing a 1 MB note on every one
// would cost tens of milliseconds).
//
// Invariants:
// - The same decisions as the block parser for these blocks at the top level and in lists (up to
//   three spaces of indentation before a fence, fences closed by the same character at least as
//   long with nothing after it, a backtick fence whose info has no backtick, `$$` as the parser
//   opens and closes it, front matter only from the first line and only when it is closed).
//   Fences inside block quotes (`> ````) are read after the quote markers.
// - Linear in the text before the line, eight bytes a step between line breaks; never traps.

import MarkdownSyntax

/// The block a line is in.
public enum LineRegion: Sendable, Equatable {
    /// Ordinary Markdown.
    case body
    /// Inside the front matter (between its fences).
    case frontMatter
    /// A fence line of the front matter (`---` at the top, or its closing `---`/`...`).
    case frontMatterFence
    /// Inside a fenced code block, or on its fence lines; `fence` is the opening fence's
    /// character (`` ` `` or `~`) repeated, `info` the opening line's info string.
    case code(fence: String, info: String)
    /// Inside a `$$` display-math block, or on its `$$` lines.
    case math
}

public enum LineRegions {
    /// The region of the line that holds the UTF-8 offset `offset` of `text`.
    public static func region(at offset: Int, in text: [UInt8]) -> LineRegion {
        text.withUnsafeBufferPointer { region(at: offset, in: $0) }
    }

    /// The region of the line that holds `offset` in `bytes`.
    public static func region(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> LineRegion {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .body }
        let count = bytes.count
        let offset = max(0, min(offset, count))
        // The start of the line holding `offset`.
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }

        // Front matter: `---` on the first line, closed by `---` or `...` below.
        var start = 0
        if isFenceLine(bytes, 0, ByteSearch.lineEnd(base, from: 0, end: count), marker: UInt8(ascii: "-")) {
            let openEnd = ByteSearch.lineEnd(base, from: 0, end: count)
            var line = nextLineStart(bytes, after: openEnd)
            while line < count {
                let end = ByteSearch.lineEnd(base, from: line, end: count)
                if isFenceLine(bytes, line, end, marker: UInt8(ascii: "-")) || isFenceLine(bytes, line, end, marker: UInt8(ascii: ".")) {
                    if lineStart == 0 || lineStart == line { return .frontMatterFence }
                    if lineStart < line { return .frontMatter }
                    start = nextLineStart(bytes, after: end)
                    break
                }
                let next = nextLineStart(bytes, after: end)
                if next == line { break }
                line = next
            }
        }

        // Fenced code and `$$` math, line by line down to the line.
        var open: (character: UInt8, length: Int, info: String)? = nil
        var inMath = false
        var line = start
        while line <= lineStart && line < count {
            let end = ByteSearch.lineEnd(base, from: line, end: count)
            let first = contentStart(bytes, line, end)
            if let fence = open {
                if isClosingFence(bytes, first, end, character: fence.character, length: fence.length) {
                    if line == lineStart { return .code(fence: String(repeating: Character(Unicode.Scalar(fence.character)), count: fence.length), info: fence.info) }
                    open = nil
                } else if line == lineStart {
                    return .code(fence: String(repeating: Character(Unicode.Scalar(fence.character)), count: fence.length), info: fence.info)
                }
            } else if inMath {
                if line == lineStart { return .math }
                if endsWithDollars(bytes, first, end) { inMath = false }
            } else if let fence = openingFence(bytes, first, end) {
                if line == lineStart { return .code(fence: String(repeating: Character(Unicode.Scalar(fence.character)), count: fence.length), info: fence.info) }
                open = fence
            } else if opensMath(bytes, first, end) {
                if line == lineStart { return .math }
                inMath = !closesOnItsLine(bytes, first, end)
            }
            if line == lineStart { return .body }
            let next = nextLineStart(bytes, after: end)
            if next == line { break }
            line = next
        }
        if open != nil, let fence = open {
            return .code(fence: String(repeating: Character(Unicode.Scalar(fence.character)), count: fence.length), info: fence.info)
        }
        return inMath ? .math : .body
    }

    // MARK: Lines

    static func nextLineStart(_ bytes: UnsafeBufferPointer<UInt8>, after end: Int) -> Int {
        var index = end
        if index < bytes.count, bytes[index] == 0x0D { index += 1 }
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        return index
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// True when `start..<end` is `marker` three times followed by nothing but spaces.
    static func isFenceLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, marker: UInt8) -> Bool {
        guard end - start >= 3, bytes[start] == marker, bytes[start + 1] == marker, bytes[start + 2] == marker else { return false }
        return bytes[(start + 3)..<end].allSatisfy(isSpace)
    }

    /// Where a line's content starts: after block-quote markers and up to three spaces of
    /// indentation (and the indentation of list items, which may be more).
    static func contentStart(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var index = start
        while true {
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: ">") else { return index }
            index += 1
        }
    }

    /// An opening fence at `first` (three or more backticks or tildes; a backtick fence's info has
    /// no backtick).
    static func openingFence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> (character: UInt8, length: Int, info: String)? {
        guard first < end, bytes[first] == UInt8(ascii: "`") || bytes[first] == UInt8(ascii: "~") else { return nil }
        let character = bytes[first]
        var run = first
        while run < end, bytes[run] == character { run += 1 }
        guard run - first >= 3 else { return nil }
        if character == UInt8(ascii: "`"), bytes[run..<end].contains(UInt8(ascii: "`")) { return nil }
        var infoStart = run
        while infoStart < end, isSpace(bytes[infoStart]) { infoStart += 1 }
        var infoEnd = infoStart
        while infoEnd < end, !isSpace(bytes[infoEnd]) { infoEnd += 1 }
        return (character, run - first, String(decoding: UnsafeBufferPointer(rebasing: bytes[infoStart..<infoEnd]), as: UTF8.self))
    }

    static func isClosingFence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int, character: UInt8, length: Int) -> Bool {
        var run = first
        while run < end, bytes[run] == character { run += 1 }
        return run - first >= length && bytes[run..<end].allSatisfy(isSpace)
    }

    /// `$$` at the content start opens a math block (as the parser decides: `opensDollarMath`).
    static func opensMath(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
        guard end - first >= 2, bytes[first] == UInt8(ascii: "$"), bytes[first + 1] == UInt8(ascii: "$") else { return false }
        var trimmedEnd = end
        while trimmedEnd > first + 2, isSpace(bytes[trimmedEnd - 1]) { trimmedEnd -= 1 }
        if trimmedEnd - (first + 2) >= 2, bytes[trimmedEnd - 1] == UInt8(ascii: "$"), bytes[trimmedEnd - 2] == UInt8(ascii: "$") { return true }
        var index = first + 2
        while index + 1 < trimmedEnd {
            if bytes[index] == UInt8(ascii: "$") && bytes[index + 1] == UInt8(ascii: "$") { return false }
            index += 1
        }
        return true
    }

    /// A one-line `$$ … $$` closes where it opens.
    static func closesOnItsLine(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
        endsWithDollars(bytes, first + 2, end)
    }

    static func endsWithDollars(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
        var trimmedEnd = end
        while trimmedEnd > first, isSpace(bytes[trimmedEnd - 1]) { trimmedEnd -= 1 }
        return trimmedEnd - first >= 2 && bytes[trimmedEnd - 1] == UInt8(ascii: "$") && bytes[trimmedEnd - 2] == UInt8(ascii: "$")
    }
}
