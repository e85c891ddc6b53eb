// Which block a line of a note's text is in, as far as the blocks that hide Markdown go: the
// front matter, a fenced code block, a `$$` display-math block, an HTML block, or the body. Found by reading
// line starts from the top of the text, never by parsing it: what editing features ask about
// the line being typed (a keystroke makes a new version, and a 1 MB note is too large to parse
// again on every one).
//
// Invariants:
// - The parser's decisions, made by the parser's own line rules (`BlockScanners`: fences, `$$`,
//   HTML blocks, list markers, thematic breaks, front-matter fences), inside the containers the
//   parser would see: block quotes and list items are followed line by line (a line that does not
//   continue them ends the code block inside them; paragraph text continues lazily), and a line
//   indented four columns past its container is indented code or paragraph text, never a fence.
//   `ScannerDifferentialTests` holds this against the parser's tree over every spec example,
//   every fixture and the corpus; the decisions where it differs on purpose are listed there.
// - Linear in the text before the line: each line is read once, from its start to its first
//   non-space (and to its end only where a block may open or close).
// - Never traps; invalid UTF-8 and any offset are accepted.

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
    /// A line of an HTML block (raw HTML, where Markdown is not read).
    case html
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
        case body, frontMatter, frontMatterFence, codeOpening, codeContent, codeClosing, math, html
    }

    /// The kind and region of the line that holds `offset`.
    static func line(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (kind: LineKind, region: LineRegion) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (.body, .body) }
        let count = bytes.count
        let offset = max(0, min(offset, count))
        // The start of the line holding `offset`.
        var lineStart = offset
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }

        let start: Int
        switch frontMatter(ofLineAt: lineStart, in: bytes) {
        case .inside: return (.frontMatter, .frontMatter)
        case .fence: return (.frontMatterFence, .frontMatterFence)
        case .outside(let bodyStart): start = bodyStart
        }

        // Fenced code and `$$` math down to the line, then the line itself (an empty last line,
        // or the place between a `\r` and its `\n`, reads as an empty line).
        var scanner = BlockLineScanner()
        scanner.read(bytes, from: start, to: lineStart)
        let kind = scanner.step(bytes, lineStart, ByteSearch.lineEnd(base, from: lineStart, end: count))
        return (kind, scanner.region(of: kind, in: bytes))
    }

    /// Where a line is with respect to the front matter.
    enum FrontMatterPlace: Equatable {
        /// Between the fences.
        case inside
        /// On a fence line.
        case fence
        /// In the body, which starts at `bodyStart` (0 without front matter).
        case outside(bodyStart: Int)
    }

    /// Where the line starting at `lineStart` is with respect to the front matter: `---` on the
    /// first line, closed by `---` or `...` below (unclosed, there is none). Reads the front
    /// matter's lines only.
    static func frontMatter(ofLineAt lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> FrontMatterPlace {
        guard let base = bytes.baseAddress else { return .outside(bodyStart: 0) }
        let count = bytes.count
        let openEnd = ByteSearch.lineEnd(base, from: 0, end: count)
        guard isFenceLine(bytes, 0, openEnd, marker: UInt8(ascii: "-")) else { return .outside(bodyStart: 0) }
        var line = nextLineStart(bytes, after: openEnd)
        while line < count {
            let end = ByteSearch.lineEnd(base, from: line, end: count)
            if isFenceLine(bytes, line, end, marker: UInt8(ascii: "-")) || isFenceLine(bytes, line, end, marker: UInt8(ascii: ".")) {
                if lineStart == 0 || lineStart == line { return .fence }
                if lineStart < line { return .inside }
                return .outside(bodyStart: nextLineStart(bytes, after: end))
            }
            let next = nextLineStart(bytes, after: end)
            if next == line { break }
            line = next
        }
        return .outside(bodyStart: 0)
    }

    /// Whether the lines from `lineStart` to the end of `bytes`, read on their own, end inside a
    /// fenced code block that nothing closes.
    static func endsInsideCode(from lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = BlockLineScanner()
        scanner.read(bytes, from: max(0, min(lineStart, bytes.count)), to: bytes.count)
        return scanner.isInCode
    }

    /// The blocks that hide Markdown, one line at a time from the top of the body, inside the
    /// containers (block quotes, list items) the lines open and continue.
    struct BlockLineScanner {
        typealias Fence = (character: UInt8, length: Int, infoStart: Int, infoEnd: Int)
        /// A container a line must continue: a block quote, or a list item whose content is
        /// indented by `contentIndent` columns.
        enum Container: Equatable {
            case quote
            case item(contentIndent: Int)
        }

        /// The containers open after the last line read, outermost first.
        private var containers: [Container] = []
        /// The fence open after the last line read.
        private var fence: Fence? = nil
        /// The fence of the block the last line read belongs to (its closing line included).
        private var lineFence: Fence? = nil
        private(set) var isInMath = false
        /// The type (1...7) of the HTML block open after the last line read, 0 for none.
        private var htmlType = 0
        /// Whether the last line read was paragraph text (which a later line may continue lazily).
        private var inParagraph = false

        var isInCode: Bool { fence != nil }

        /// A place on a line: its byte offset and its column (a tab stops at multiples of 4).
        struct Place {
            var offset: Int
            var column: Int
        }

        /// Reads the lines from the line start `start` up to `stop` (a line start, or the end of
        /// `bytes`). Linear: each line is read once.
        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) {
            guard let base = bytes.baseAddress else { return }
            var line = start
            while line < stop {
                let end = ByteSearch.lineEnd(base, from: line, end: bytes.count)
                // Most lines are prose that starts with a letter: outside any container and
                // block, such a line only says that a paragraph is open.
                let quiet = line < end && containers.isEmpty && fence == nil && !isInMath && htmlType == 0
                if quiet, Self.startsNothing(bytes[line]) {
                    inParagraph = true
                } else if quiet, bytes[line] == UInt8(ascii: "#") {
                    // A heading ends a paragraph; `#tag` text is one.
                    inParagraph = BlockScanners.atxHeadingStart(bytes, line, end) == nil
                } else {
                    _ = step(bytes, line, end)
                }
                let next = nextLineStart(bytes, after: end)
                if next == end { return }  // the last line
                line = next
            }
        }

        /// The first non-space at or after `place` on the line ending at `end`.
        @inline(__always)
        static func nonspace(_ bytes: UnsafeBufferPointer<UInt8>, _ place: Place, _ end: Int) -> Place {
            var place = place
            while place.offset < end {
                let byte = bytes[place.offset]
                if byte == 0x20 { place.column += 1 } else if byte == 0x09 { place.column += 4 - place.column % 4 } else { break }
                place.offset += 1
            }
            return place
        }

        /// Past the block quote's `>` at `marker` and the one column of space after it.
        static func afterQuoteMarker(_ bytes: UnsafeBufferPointer<UInt8>, _ marker: Place, _ end: Int) -> Place {
            let place = Place(offset: marker.offset + 1, column: marker.column + 1)
            guard place.offset < end, isSpace(bytes[place.offset]) else { return place }
            return advance(bytes, place, columns: 1, end)
        }

        /// `place` moved on by `columns` columns of spaces and tabs (a tab that goes past them
        /// is taken whole).
        static func advance(_ bytes: UnsafeBufferPointer<UInt8>, _ place: Place, columns: Int, _ end: Int) -> Place {
            var place = place
            let target = place.column + columns
            while place.column < target, place.offset < end, isSpace(bytes[place.offset]) {
                place.column += bytes[place.offset] == 0x09 ? 4 - place.column % 4 : 1
                place.offset += 1
            }
            return place
        }

        /// Reads the line `line..<end` and says what it is, as the block parser decides
        /// (`BlockParser.continueOpenBlocks` and `openBlockStart`, with `BlockScanners`' rules).
        mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Int, _ end: Int) -> LineKind {
            lineFence = fence
            var place = Place(offset: line, column: 0)
            // The containers the line continues.
            var matched = 0
            matching: while matched < containers.count {
                let first = Self.nonspace(bytes, place, end)
                switch containers[matched] {
                case .quote:
                    guard first.column - place.column <= 3, first.offset < end, bytes[first.offset] == UInt8(ascii: ">") else { break matching }
                    place = Self.afterQuoteMarker(bytes, first, end)
                case .item(let contentIndent):
                    if first.offset >= end {
                        place = first
                    } else if first.column - place.column >= contentIndent {
                        place = Self.advance(bytes, place, columns: contentIndent, end)
                    } else {
                        break matching
                    }
                }
                matched += 1
            }
            let first = Self.nonspace(bytes, place, end)
            let indent = first.column - place.column
            if fence != nil || isInMath || htmlType != 0 {
                if matched == containers.count {
                    if let open = fence {
                        guard indent <= 3, BlockScanners.closingFence(bytes, first.offset, end, character: open.character, minimum: open.length) else {
                            return .codeContent
                        }
                        fence = nil
                        return .codeClosing
                    }
                    if isInMath {
                        if BlockScanners.closesDollarMath(bytes, place.offset, end) { isInMath = false }
                        return .math
                    }
                    if htmlType >= 6 && first.offset >= end {
                        // A blank line ends the block and is no part of it.
                        htmlType = 0
                        return .body
                    }
                    if htmlType <= 5 && BlockScanners.htmlBlockEnds(type: htmlType, bytes, first.offset, end) { htmlType = 0 }
                    return .html
                }
                // A container ended, and so did the block inside it.
                fence = nil
                isInMath = false
                htmlType = 0
                inParagraph = false
            } else if matched < containers.count {
                // Paragraph text that starts no block continues the paragraph lazily, in its
                // containers.
                if inParagraph, first.offset < end, indent >= 4 || !Self.startsBlock(bytes, first.offset, end) { return .body }
                inParagraph = false
            }
            if matched < containers.count { containers.removeLast(containers.count - matched) }
            // The containers the line opens.
            while containers.count < LineContainers.maximumDepth {
                let first = Self.nonspace(bytes, place, end)
                let indent = first.column - place.column
                guard indent <= 3, first.offset < end else { break }
                if bytes[first.offset] == UInt8(ascii: ">") {
                    containers.append(.quote)
                    place = Self.afterQuoteMarker(bytes, first, end)
                    inParagraph = false
                    continue
                }
                var failure = 0
                guard !BlockScanners.thematicBreak(bytes, first.offset, end, failure: &failure),
                      let marker = BlockScanners.listMarker(bytes, first.offset, end, interruptsParagraph: inParagraph) else { break }
                let markerEnd = Place(offset: first.offset + marker.length, column: first.column + marker.length)
                let content = Self.nonspace(bytes, markerEnd, end)
                let spaces = content.column - markerEnd.column
                let blankItem = content.offset >= end
                let width = blankItem || spaces > 4 ? 1 : spaces
                containers.append(.item(contentIndent: indent + marker.length + width))
                place = Self.advance(bytes, markerEnd, columns: width, end)
                inParagraph = false
            }
            // The line's own block.
            let text = Self.nonspace(bytes, place, end)
            guard text.offset < end else {
                inParagraph = false
                return .body
            }
            // Indented code, or a paragraph's continuation.
            if text.column - place.column >= 4 { return .body }
            if let length = BlockScanners.openingFence(bytes, text.offset, end) {
                let opening = LineRegions.fence(bytes, text.offset, end, length: length)
                fence = opening
                lineFence = opening
                inParagraph = false
                return .codeOpening
            }
            if BlockScanners.opensDollarMath(bytes, text.offset, end) {
                isInMath = !BlockScanners.closesDollarMath(bytes, text.offset + 2, end)
                inParagraph = false
                return .math
            }
            if let type = BlockScanners.htmlBlockStart(bytes, text.offset, end, allowType7: !inParagraph) {
                htmlType = type <= 5 && BlockScanners.htmlBlockEnds(type: type, bytes, text.offset, end) ? 0 : type
                inParagraph = false
                return .html
            }
            var failure = 0
            if BlockScanners.atxHeadingStart(bytes, text.offset, end) != nil
                || BlockScanners.thematicBreak(bytes, text.offset, end, failure: &failure)
                || (inParagraph && BlockScanners.setextUnderline(bytes, text.offset, end) != nil) {
                inParagraph = false
                return .body
            }
            inParagraph = true
            return .body
        }

        /// Whether a line that starts with `byte` (no indentation) is paragraph text to this scanner:
        /// `byte` begins no container and no block that hides Markdown or ends a paragraph (a
        /// table row, a link definition and a footnote are paragraph-like here: none changes
        /// what the lines after it are).
        @inline(__always)
        static func startsNothing(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "$"),
                 UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"),
                 UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"), 0x0A, 0x0D:
                return false
            default:
                return true
            }
        }

        /// Whether the text at `first` starts a block, so that it cannot continue a paragraph
        /// lazily.
        static func startsBlock(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
            var failure = 0
            return bytes[first] == UInt8(ascii: ">")
                || BlockScanners.listMarker(bytes, first, end, interruptsParagraph: true) != nil
                || BlockScanners.thematicBreak(bytes, first, end, failure: &failure)
                || BlockScanners.openingFence(bytes, first, end) != nil
                || BlockScanners.opensDollarMath(bytes, first, end)
                || BlockScanners.htmlBlockStart(bytes, first, end, allowType7: false) != nil
                || BlockScanners.atxHeadingStart(bytes, first, end) != nil
        }

        /// The region of the line `step` just read as `kind`.
        func region(of kind: LineKind, in bytes: UnsafeBufferPointer<UInt8>) -> LineRegion {
            switch kind {
            case .body: return .body
            case .frontMatter: return .frontMatter
            case .frontMatterFence: return .frontMatterFence
            case .math: return .math
            case .html: return .html
            case .codeOpening, .codeContent, .codeClosing:
                guard let open = lineFence else { return .body }
                let info = String(decoding: UnsafeBufferPointer(rebasing: bytes[open.infoStart..<open.infoEnd]), as: UTF8.self)
                return .code(fence: String(repeating: Character(Unicode.Scalar(open.character)), count: open.length), info: info)
            }
        }
    }

    /// The opening fence of `length` at `first`: its character, length and the byte range of its
    /// info string's first word.
    static func fence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int, length: Int) -> BlockLineScanner.Fence {
        var infoStart = first + length
        while infoStart < end, isSpace(bytes[infoStart]) { infoStart += 1 }
        var infoEnd = infoStart
        while infoEnd < end, !isSpace(bytes[infoEnd]) { infoEnd += 1 }
        return (bytes[first], length, infoStart, infoEnd)
    }

    // MARK: Lines

    static func nextLineStart(_ bytes: UnsafeBufferPointer<UInt8>, after end: Int) -> Int {
        var index = end
        if index < bytes.count, bytes[index] == 0x0D { index += 1 }
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        return index
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// True when `start..<end` is a front-matter fence of `marker` (`BlockScanners.isFrontMatterFence`).
    static func isFenceLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, marker: UInt8) -> Bool {
        BlockScanners.isFrontMatterFence(bytes, start, end, marker)
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

    /// An opening fence at `first` (`BlockScanners.openingFence`): its character, length and
    /// the byte range of its info string's first word.
    static func openingFence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> BlockLineScanner.Fence? {
        BlockScanners.openingFence(bytes, first, end).map { fence(bytes, first, end, length: $0) }
    }

    static func isClosingFence(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int, character: UInt8, length: Int) -> Bool {
        BlockScanners.closingFence(bytes, first, end, character: character, minimum: length)
    }
}
