// Which block a line of a note's text is in, as far as the blocks that hide Markdown go: the
// front matter, a fenced code block, a `$$` display-math block, or the body. Found by reading
// line starts from the top of the text, never by parsing it: what editing features ask about
// the line being typed (a keystroke makes a new version, and a 1 MB note is too large to parse
// again on every one).
//
// Invariants:
// - The same decisions as the block parser for these blocks at the top level and in lists (up to
//   three spaces of indentation before a fence, fences closed by the same character at least as
//   long with nothing after it, a backtick fence whose info has no backtick, `$$` as the parser
//   opens and closes it, front matter only from the first line and only when it is closed).
//   Fences inside block quotes (`> ````) are read after the quote markers.
// - Linear in the text before the line, eight bytes a step between the lines that can open or
//   close a block (those with three backticks or tildes, or two dollars, in a row); never traps.

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
        line(at: offset, in: bytes).region
    }

    /// What a line is: its region, and for fence lines whether they open or close their block.
    enum LineKind: Equatable {
        case body, frontMatter, frontMatterFence, codeOpening, codeContent, codeClosing, math
    }

    /// The kind and region of the line that holds `offset`.
    static func line(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (kind: LineKind, region: LineRegion) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (.body, .body) }
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
                    if lineStart == 0 || lineStart == line { return (.frontMatterFence, .frontMatterFence) }
                    if lineStart < line { return (.frontMatter, .frontMatter) }
                    start = nextLineStart(bytes, after: end)
                    break
                }
                let next = nextLineStart(bytes, after: end)
                if next == line { break }
                line = next
            }
        }

        // Fenced code and `$$` math down to the line, then the line itself (an empty last line,
        // or the place between a `\r` and its `\n`, reads as an empty line).
        var scanner = BlockLineScanner()
        scanner.skim(bytes, from: start, to: lineStart)
        let kind = scanner.step(bytes, lineStart, ByteSearch.lineEnd(base, from: lineStart, end: count))
        return (kind, scanner.region(of: kind, in: bytes))
    }

    /// Whether the lines from `lineStart` to the end of `bytes`, read on their own, end inside a
    /// fenced code block that nothing closes.
    static func endsInsideCode(from lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = BlockLineScanner()
        scanner.skim(bytes, from: max(0, min(lineStart, bytes.count)), to: bytes.count)
        return scanner.isInCode
    }

    /// Fenced code and `$$` math, one line at a time from the top of the body.
    struct BlockLineScanner {
        typealias Fence = (character: UInt8, length: Int, infoStart: Int, infoEnd: Int)
        /// The fence open after the last line read.
        private var fence: Fence? = nil
        /// The fence of the block the last line read belongs to (its closing line included).
        private var lineFence: Fence? = nil
        private(set) var isInMath = false

        var isInCode: Bool { fence != nil }

        /// Reads the lines from the line start `start` up to `stop` (a line start, or the end of
        /// `bytes`), skipping the lines that cannot open or close a block: only a line that holds
        /// three backticks or tildes in a row, or two dollars, can. Linear: each line is read once,
        /// eight bytes a step between the candidates.
        mutating func skim(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) {
            guard let base = bytes.baseAddress else { return }
            var position = start
            while position < stop {
                let candidate = BlockLineScanner.nextRun(bytes, from: position, to: stop)
                guard candidate < stop else { return }
                var lineStart = candidate
                while lineStart > position, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
                let lineEnd = ByteSearch.lineEnd(base, from: candidate, end: bytes.count)
                _ = step(bytes, lineStart, lineEnd)
                position = nextLineStart(bytes, after: lineEnd)
                if position == lineEnd { return }  // the last line
            }
        }

        /// The first run of three backticks, three tildes or two dollars that starts in
        /// `from..<stop`, or `stop`.
        static func nextRun(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to stop: Int) -> Int {
            guard let base = bytes.baseAddress else { return stop }
            var index = from
            while index < stop {
                index = ByteSearch.firstIndex(ofAny: UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "$"), in: base, from: index, end: stop)
                guard index < stop else { return stop }
                let byte = bytes[index]
                let needed = byte == UInt8(ascii: "$") ? 2 : 3
                var run = 1
                while run < needed, index + run < bytes.count, bytes[index + run] == byte { run += 1 }
                if run == needed { return index }
                index += run
            }
            return stop
        }

        /// Reads the line `line..<end` and says what it is.
        mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Int, _ end: Int) -> LineKind {
            let first = contentStart(bytes, line, end)
            lineFence = fence
            if let open = fence {
                guard isClosingFence(bytes, first, end, character: open.character, length: open.length) else { return .codeContent }
                fence = nil
                return .codeClosing
            }
            if isInMath {
                if endsWithDollars(bytes, first, end) { isInMath = false }
                return .math
            }
            if let opening = openingFence(bytes, first, end) {
                fence = opening
                lineFence = opening
                return .codeOpening
            }
            if opensMath(bytes, first, end) {
                isInMath = !closesOnItsLine(bytes, first, end)
                return .math
            }
            return .body
        }

        /// The region of the line `step` just read as `kind`.
        func region(of kind: LineKind, in bytes: UnsafeBufferPointer<UInt8>) -> LineRegion {
            switch kind {
            case .body: return .body
            case .frontMatter: return .frontMatter
            case .frontMatterFence: return .frontMatterFence
            case .math: return .math
            case .codeOpening, .codeContent, .codeClosing:
                guard let open = lineFence else { return .body }
                let info = String(decoding: UnsafeBufferPointer(rebasing: bytes[open.infoStart..<open.infoEnd]), as: UTF8.self)
                return .code(fence: String(repeating: Character(Unicode.Scalar(open.character)), count: open.length), info: info)
            }
        }
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
    /// no backtick): its character, length and the byte range of its info string's first word.
    static func openingFence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> (character: UInt8, length: Int, infoStart: Int, infoEnd: Int)? {
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
        return (character, run - first, infoStart, infoEnd)
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
