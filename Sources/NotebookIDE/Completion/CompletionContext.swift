// What the user is completing at a cursor: the kind of item wanted, the bytes an item replaces,
// and whether the closing text of the construct is already there.
//
// Invariants:
// - Detection reads only the cursor's line, except two cheap scans from the top of the document:
//   whether the cursor lies inside the leading `---` front matter (and under which key), and
//   whether it lies inside a fenced code block (by the fence lines above it).
// - `replace` starts right after the trigger (`[[`, `#`, `(`, `[`, `^`, `/`) and always contains
//   the cursor, so an item's `newText` never repeats the trigger and `[[[[` cannot appear;
//   `typed` is exactly the bytes from `replace.start` to the cursor.
// - Any cursor and any bytes are accepted: the cursor is clamped, invalid UTF-8 is decoded
//   leniently, and the result is nil when nothing is being completed.

import MarkdownSyntax

/// What is being completed at a cursor (`detect(text:cursor:)`).
public struct CompletionContext: Sendable, Equatable {
    /// The kind of items wanted.
    public enum Kind: Sendable, Equatable {
        /// `[[partial` (`isEmbed` for `![[`): notes by title, alias or path; embeds also files.
        case wikiTarget(isEmbed: Bool)
        /// `[[note#H#partial`: headings of `note` (empty: this note) inside the sections of
        /// `parents`, outermost first.
        case wikiHeading(note: String, parents: [String])
        /// `[[note#^partial`: block ids of `note` (empty: this note).
        case wikiBlock(note: String)
        /// `[text](folder/partial`: entries of the folder named by `folder` (as written, ending
        /// in `/` or empty), relative to the note, or to the root when it starts with `/`.
        case markdownPath(folder: String, isImage: Bool)
        /// `](path.md#partial` or `](#partial`: heading slugs of the note `path` names (as
        /// written, not decoded; empty: this note).
        case markdownHeading(path: String)
        /// `](path.md#^partial`: block ids of the note `path` names (empty: this note).
        case markdownBlock(path: String)
        /// `[text][partial`: link reference labels defined in this note.
        case referenceLabel
        /// `#partial` in text: tags.
        case tag
        /// A tag in the front matter's `tags:`/`tag:` (a list item, flow list item or scalar).
        case frontMatterTag
        /// A key at the start of a front-matter line.
        case frontMatterKey
        /// The value of `key` in the front matter (a scalar or a list item).
        case frontMatterValue(key: String)
    }

    public var kind: Kind
    /// The source bytes an item replaces: what was typed since the trigger, plus the rest of
    /// the word after the cursor when the cursor is in the middle of one.
    public var replace: ByteSpan
    /// What the user typed since the trigger: the bytes from `replace.start` to the cursor.
    public var typed: String
    /// True when the construct's closing text (`]]`, `)`, `]`, the `:` after a key) already
    /// follows the replaced bytes, so an item must not add it again. For wiki-links this is also
    /// true when `|label]]` or `#heading]]` follows.
    public var closingFollows: Bool
    /// True when a `/` directly follows the replaced bytes (a folder item then adds none).
    public var slashFollows: Bool
    /// True when a `|` follows the replaced bytes inside a wiki-link (an alias item then inserts
    /// only the target: the label is already written).
    public var labelFollows: Bool
    /// True for a front-matter value inside quotes (an item then needs no quoting of its own).
    public var isQuoted: Bool

    public init(kind: Kind, replace: ByteSpan, typed: String, closingFollows: Bool = false,
                slashFollows: Bool = false, labelFollows: Bool = false, isQuoted: Bool = false) {
        self.kind = kind
        self.replace = replace
        self.typed = typed
        self.closingFollows = closingFollows
        self.slashFollows = slashFollows
        self.labelFollows = labelFollows
        self.isQuoted = isQuoted
    }

    /// What the user is completing at the UTF-8 offset `cursor` of `text`; nil when nothing.
    public static func detect(text: [UInt8], cursor: Int) -> CompletionContext? {
        let cursor = min(max(cursor, 0), text.count)
        return text.withUnsafeBufferPointer { buffer in
            ContextScanner(bytes: buffer, cursor: cursor).detect()
        }
    }
}

/// The line scanner behind `CompletionContext.detect`.
struct ContextScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let cursor: Int
    let lineStart: Int
    let lineEnd: Int

    init(bytes: UnsafeBufferPointer<UInt8>, cursor: Int) {
        self.bytes = bytes
        self.cursor = cursor
        var start = cursor
        while start > 0, !ContextScanner.isLineBreak(bytes[start - 1]) { start -= 1 }
        var end = cursor
        while end < bytes.count, !ContextScanner.isLineBreak(bytes[end]) { end += 1 }
        lineStart = start
        lineEnd = end
    }

    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    func string(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    func detect() -> CompletionContext? {
        switch frontMatterState() {
        case .inside:
            return detectFrontMatter()
        case .fence:
            return nil
        case .outside(let bodyStart):
            if isInFencedCode(from: bodyStart) { return nil }
        }
        if let context = detectWiki() { return context }
        if let context = detectMarkdownDestination() { return context }
        if let context = detectReferenceLabel() { return context }
        return detectTag()
    }

    // MARK: Wiki-links

    /// The last `[[` before the cursor on this line with no `]]` after it, and the `[[` start.
    private func openWikiLink() -> Int? {
        var index = cursor - 1
        while index > lineStart {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]"), bytes[index - 1] == UInt8(ascii: "]") { return nil }
            if byte == UInt8(ascii: "["), bytes[index - 1] == UInt8(ascii: "[") {
                return index - 1
            }
            index -= 1
        }
        return nil
    }

    private func detectWiki() -> CompletionContext? {
        guard let open = openWikiLink(), !isInCodeSpan(open) else { return nil }
        let isEmbed = open > lineStart && bytes[open - 1] == UInt8(ascii: "!")
        let contentStart = open + 2
        // A `|` before the cursor means the label is being typed: nothing to complete.
        var hash: Int? = nil
        for index in contentStart..<cursor {
            let byte = bytes[index]
            if byte == UInt8(ascii: "|") { return nil }
            if byte == UInt8(ascii: "#"), hash == nil { hash = index }
        }
        guard let firstHash = hash else {
            let (end, closing, label) = wikiTokenEnd(stopAtHash: true)
            return CompletionContext(kind: .wikiTarget(isEmbed: isEmbed), replace: ByteSpan(contentStart, end),
                                     typed: string(contentStart, cursor), closingFollows: closing, labelFollows: label)
        }
        let note = ContextScanner.trimmed(string(contentStart, firstHash))
        // Split the parts after the first `#`; the last one is being typed.
        var parts: [String] = []
        var partStart = firstHash + 1
        var index = partStart
        while index < cursor {
            if bytes[index] == UInt8(ascii: "#") {
                parts.append(ContextScanner.trimmed(string(partStart, index)))
                partStart = index + 1
            }
            index += 1
        }
        if partStart < cursor, bytes[partStart] == UInt8(ascii: "^") {
            let (end, closing, label) = wikiTokenEnd(stopAtHash: true)
            return CompletionContext(kind: .wikiBlock(note: note), replace: ByteSpan(partStart + 1, end),
                                     typed: string(partStart + 1, cursor), closingFollows: closing, labelFollows: label)
        }
        let (end, closing, label) = wikiTokenEnd(stopAtHash: true)
        return CompletionContext(kind: .wikiHeading(note: note, parents: parts.filter { !$0.isEmpty }),
                                 replace: ByteSpan(partStart, end), typed: string(partStart, cursor),
                                 closingFollows: closing, labelFollows: label)
    }

    /// Where the wiki-link part at the cursor ends, and whether `]]` closes the link later on
    /// the line (directly, or after `|label` / `#heading`) and whether a `|` follows.
    ///
    /// Inside an existing link (`[[no$0te]]`) the part runs to the `]]`, `|` or `#`, spaces
    /// included; in an unclosed link it runs to the end of the word.
    private func wikiTokenEnd(stopAtHash: Bool) -> (end: Int, closing: Bool, label: Bool) {
        var index = cursor
        while index < lineEnd {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "|") || (stopAtHash && byte == UInt8(ascii: "#"))
                || byte == UInt8(ascii: "[") { break }
            index += 1
        }
        let delimiter = index < lineEnd ? bytes[index] : 0
        if delimiter == UInt8(ascii: "]") || delimiter == UInt8(ascii: "|") || delimiter == UInt8(ascii: "#") {
            // A closing `]]` must follow before any new `[[` for the link to be closed.
            var probe = index
            while probe + 1 < lineEnd {
                if bytes[probe] == UInt8(ascii: "[") && bytes[probe + 1] == UInt8(ascii: "[") { break }
                if bytes[probe] == UInt8(ascii: "]") && bytes[probe + 1] == UInt8(ascii: "]") {
                    return (index, true, delimiter == UInt8(ascii: "|"))
                }
                probe += 1
            }
        }
        // Not closed: the part ends with the word at the cursor.
        var end = cursor
        while end < index, !ContextScanner.isSpace(bytes[end]) { end += 1 }
        return (end, false, false)
    }

    // MARK: Markdown destinations `](…`

    private func detectMarkdownDestination() -> CompletionContext? {
        // The `(` of `](` whose destination the cursor is in: no space or `)` in between.
        var index = cursor
        var open: Int? = nil
        while index > lineStart {
            let byte = bytes[index - 1]
            if ContextScanner.isSpace(byte) || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "<") { return nil }
            if byte == UInt8(ascii: "(") {
                if index - 1 > lineStart, bytes[index - 2] == UInt8(ascii: "]") { open = index - 1 }
                break
            }
            index -= 1
        }
        guard let paren = open, !isInCodeSpan(paren) else { return nil }
        let isImage = isImageLink(closingBracket: paren - 1)
        let start = paren + 1
        // `scheme:` before any `/` or `#`: a URL, not a path.
        var colonAt: Int? = nil
        var hash: Int? = nil
        var lastSlash: Int? = nil
        for position in start..<cursor {
            let byte = bytes[position]
            if byte == UInt8(ascii: "#"), hash == nil { hash = position }
            if hash == nil {
                if byte == UInt8(ascii: ":"), lastSlash == nil { colonAt = position }
                if byte == UInt8(ascii: "/") { lastSlash = position }
            }
        }
        if colonAt != nil { return nil }
        if let hash {
            let path = string(start, hash)
            var partStart = hash + 1
            let isBlock = partStart < cursor && bytes[partStart] == UInt8(ascii: "^")
            if isBlock { partStart += 1 }
            var end = cursor
            while end < lineEnd, !ContextScanner.isSpace(bytes[end]), bytes[end] != UInt8(ascii: ")") { end += 1 }
            let closing = end < lineEnd && bytes[end] == UInt8(ascii: ")")
            return CompletionContext(kind: isBlock ? .markdownBlock(path: path) : .markdownHeading(path: path),
                                     replace: ByteSpan(partStart, end), typed: string(partStart, cursor),
                                     closingFollows: closing)
        }
        let segmentStart = lastSlash.map { $0 + 1 } ?? start
        var end = cursor
        while end < lineEnd {
            let byte = bytes[end]
            if ContextScanner.isSpace(byte) || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "#") { break }
            end += 1
        }
        let next: UInt8 = end < lineEnd ? bytes[end] : 0
        return CompletionContext(kind: .markdownPath(folder: string(start, segmentStart), isImage: isImage),
                                 replace: ByteSpan(segmentStart, end), typed: string(segmentStart, cursor),
                                 closingFollows: next == UInt8(ascii: ")") || next == UInt8(ascii: "#"),
                                 slashFollows: next == UInt8(ascii: "/"))
    }

    /// True when the link text closed by the `]` at `closingBracket` opened with `![`.
    private func isImageLink(closingBracket: Int) -> Bool {
        var depth = 0
        var index = closingBracket
        while index >= lineStart {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") { depth += 1 }
            if byte == UInt8(ascii: "[") {
                depth -= 1
                if depth == 0 { return index > lineStart && bytes[index - 1] == UInt8(ascii: "!") }
            }
            index -= 1
        }
        return false
    }

    // MARK: Reference labels `][…`

    private func detectReferenceLabel() -> CompletionContext? {
        var index = cursor
        while index > lineStart {
            let byte = bytes[index - 1]
            if byte == UInt8(ascii: "]") { return nil }
            if byte == UInt8(ascii: "[") {
                guard index - 1 > lineStart, bytes[index - 2] == UInt8(ascii: "]"), !isInCodeSpan(index - 1) else {
                    return nil
                }
                var end = cursor
                while end < lineEnd, bytes[end] != UInt8(ascii: "]"), bytes[end] != UInt8(ascii: "[") { end += 1 }
                let closing = end < lineEnd && bytes[end] == UInt8(ascii: "]")
                if !closing {
                    end = cursor
                    while end < lineEnd, !ContextScanner.isSpace(bytes[end]) { end += 1 }
                }
                return CompletionContext(kind: .referenceLabel, replace: ByteSpan(index, end),
                                         typed: string(index, cursor), closingFollows: closing)
            }
            index -= 1
        }
        return nil
    }

    // MARK: Tags

    /// Bytes a tag name may hold (non-ASCII bytes count as word characters).
    static func isTagByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
    }

    private func detectTag() -> CompletionContext? {
        var index = cursor
        while index > lineStart, ContextScanner.isTagByte(bytes[index - 1]) { index -= 1 }
        guard index > lineStart, bytes[index - 1] == UInt8(ascii: "#") else { return nil }
        let hash = index - 1
        guard hash == lineStart || tagMayFollow(before: hash), !isInCodeSpan(hash), !isInsideBrackets(hash) else {
            return nil
        }
        var end = cursor
        while end < lineEnd, ContextScanner.isTagByte(bytes[end]) { end += 1 }
        return CompletionContext(kind: .tag, replace: ByteSpan(index, end), typed: string(index, cursor))
    }

    /// The parser's rule: a tag follows whitespace or punctuation that does not glue it to a word
    /// or URL (so never `##`, `a#b` or `/#frag`).
    private func tagMayFollow(before position: Int) -> Bool {
        let byte = bytes[position - 1]
        if byte >= 0x80 { return precedingScalarIsSpaceOrPunctuation(position) }
        switch byte {
        case 0x20, 0x09, UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ")"),
             UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "!"),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"),
             UInt8(ascii: "<"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    /// Common non-ASCII spaces and punctuation (general punctuation, CJK and full-width
    /// punctuation); other scalars are word characters that glue a `#` to the word.
    private func precedingScalarIsSpaceOrPunctuation(_ position: Int) -> Bool {
        var start = position - 1
        while start > lineStart, bytes[start] & 0xC0 == 0x80, position - start < 4 { start -= 1 }
        var value: UInt32 = 0
        let lead = bytes[start]
        let length = position - start
        value = length == 2 ? UInt32(lead & 0x1F) : length == 3 ? UInt32(lead & 0x0F) : UInt32(lead & 0x07)
        for offset in 1..<max(length, 1) { value = value << 6 | UInt32(bytes[start + offset] & 0x3F) }
        return value == 0xA0 || (0x2000...0x206F).contains(value) || (0x3000...0x303F).contains(value)
            || (0xFF01...0xFF0F).contains(value) || (0xFF1A...0xFF20).contains(value)
    }

    /// True when a `[` before `position` on this line is still open: link text, where the parser
    /// makes no tags.
    private func isInsideBrackets(_ position: Int) -> Bool {
        var depth = 0
        var index = lineStart
        while index < position {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth = max(depth - 1, 0)
            default: break
            }
            index += 1
        }
        return depth > 0
    }

    // MARK: Code

    /// True when `position` on this line lies inside a code span: an opening backtick run before
    /// it that a run of the same length closes somewhere later on the line.
    func isInCodeSpan(_ position: Int) -> Bool {
        var index = lineStart
        var openLength = 0
        while index < position {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), openLength == 0 {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "`") {
                var run = index
                while run < lineEnd, bytes[run] == UInt8(ascii: "`") { run += 1 }
                let length = run - index
                if openLength == 0 {
                    if closingRun(length: length, from: run) { openLength = length }
                } else if length == openLength {
                    openLength = 0
                }
                index = run
                continue
            }
            index += 1
        }
        return openLength != 0
    }

    private func closingRun(length: Int, from start: Int) -> Bool {
        var index = start
        while index < lineEnd {
            if bytes[index] == UInt8(ascii: "`") {
                var run = index
                while run < lineEnd, bytes[run] == UInt8(ascii: "`") { run += 1 }
                if run - index == length { return true }
                index = run
            } else {
                index += 1
            }
        }
        return false
    }

    /// True when the cursor's line lies inside a fenced code block opened between `start` and
    /// the line (a simple scan of fence lines; containers such as lists are not modelled).
    private func isInFencedCode(from start: Int) -> Bool {
        var openCharacter: UInt8 = 0
        var openLength = 0
        var index = start
        while index < lineStart {
            var end = index
            while end < lineStart, !ContextScanner.isLineBreak(bytes[end]) { end += 1 }
            var first = index
            while first < end, first - index < 3, bytes[first] == 0x20 { first += 1 }
            if first < end, bytes[first] == UInt8(ascii: "`") || bytes[first] == UInt8(ascii: "~") {
                let character = bytes[first]
                var run = first
                while run < end, bytes[run] == character { run += 1 }
                let length = run - first
                if length >= 3 {
                    if openLength == 0 {
                        let infoHasBacktick = character == UInt8(ascii: "`")
                            && bytes[run..<end].contains(UInt8(ascii: "`"))
                        if !infoHasBacktick {
                            openCharacter = character
                            openLength = length
                        }
                    } else if character == openCharacter, length >= openLength,
                              bytes[run..<end].allSatisfy(ContextScanner.isSpace) {
                        openLength = 0
                    }
                }
            }
            index = end
            if index < lineStart, bytes[index] == 0x0D { index += 1 }
            if index < lineStart, bytes[index] == 0x0A { index += 1 }
        }
        return openLength != 0
    }

    static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
