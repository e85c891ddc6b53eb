// What the user is completing at a cursor: the kind of item wanted, the bytes an item replaces,
// and the closing text an item must add so that the construct ends exactly once.
//
// Invariants:
// - Detection reads only the cursor's line, except two cheap scans from the top of the document:
//   whether the cursor lies inside the leading `---` front matter (and under which key), and
//   whether it lies inside a fenced code block (by the fence lines above it).
// - `replace` starts right after the trigger (`[[`, `#`, `(`, `(<`, `[`, `^`, `/`) and always
//   contains the cursor, so an item's `newText` never repeats the trigger and `[[[[` cannot
//   appear; `typed` is exactly the bytes from `replace.start` to the cursor.
// - `closing` is what is missing of the construct's end, never what is already there: `]]` when
//   nothing closes a wiki-link, `]` when a lone `]` follows (an editor that paired one `[`), and
//   nothing before `]]`. So picking any item leaves exactly one `]]` (`)`, `>)`, `]`) after it.
//   The closing is written after the typed part, never after text the user wrote further on,
//   except `carried` text (a `|label` before a lone `]`), which the range covers and items
//   write back unchanged.
// - Any cursor and any bytes are accepted: the cursor is clamped, invalid UTF-8 is decoded
//   leniently, and the result is nil when nothing is being completed.

import MarkdownSyntax
import TextCore

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
        /// `[text](folder/partial` or `[text](<folder/partial`: entries of the folder named by
        /// `folder` (as written, ending in `/` or empty), relative to the note, or to the root
        /// when it starts with `/`. In `<…>` (`inAngleBrackets`) names are written as they are,
        /// spaces included; otherwise they are percent-encoded.
        case markdownPath(folder: String, isImage: Bool, inAngleBrackets: Bool)
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
    /// the word after the cursor when the cursor is in the middle of one (and `carried`).
    public var replace: ByteSpan
    /// What the user typed since the trigger: the bytes from `replace.start` to the cursor.
    public var typed: String
    /// The text an item appends after its own text to end the construct: `]]`, `]`, `)`, `>)`,
    /// `>`, `: ` or a closing quote; empty when the end is already there (or the construct has
    /// none, as a tag). Folder items add `/` instead.
    public var closing: String
    /// Text at the end of `replace` that items write back unchanged before `closing`: a
    /// `|label` or `#heading` between the typed part and a lone `]`, so that the missing `]` can
    /// go after it. Usually empty.
    public var carried: String
    /// True when a `/` directly follows the replaced bytes (a folder item then adds none).
    public var slashFollows: Bool
    /// True when a `|label` follows the replaced part inside a wiki-link (an alias item then
    /// inserts only the target: the label is already written).
    public var labelFollows: Bool
    /// True when a `#heading` (or `#^block`) follows the replaced target inside a wiki-link: an
    /// alias item then inserts only the target, since its `|label` would land before the heading.
    public var headingFollows: Bool
    /// The quote (`"` or `'`) a front-matter value is written in, or empty: an item then escapes
    /// for that quote instead of quoting on its own.
    public var quote: String

    public init(kind: Kind, replace: ByteSpan, typed: String, closing: String = "", carried: String = "",
                slashFollows: Bool = false, labelFollows: Bool = false, headingFollows: Bool = false,
                quote: String = "") {
        self.kind = kind
        self.replace = replace
        self.typed = typed
        self.closing = closing
        self.carried = carried
        self.slashFollows = slashFollows
        self.labelFollows = labelFollows
        self.headingFollows = headingFollows
        self.quote = quote
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
        switch LineRegions.frontMatter(ofLineAt: lineStart, in: bytes) {
        case .inside: return detectFrontMatter()
        case .fence: return nil
        case .outside: break
        }
        // The line first (most keystrokes complete nothing), then the blocks above it: nothing
        // links, tags or names a path in fenced code or `$$` math.
        guard let context = detectWiki() ?? detectMarkdownDestination() ?? detectReferenceLabel() ?? detectTag() else { return nil }
        switch LineRegions.region(at: cursor, in: bytes) {
        case .code, .math, .html: return nil
        case .body, .frontMatter, .frontMatterFence: return context
        }
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
        guard let open = openWikiLink(), !hidesMarkdown(at: open) else { return nil }
        let isEmbed = open > lineStart && bytes[open - 1] == UInt8(ascii: "!")
        let contentStart = open + 2
        // A `|` before the cursor means the label is being typed, a `]` that the cursor is past
        // the link's end (`[[note]$0]`): nothing to complete.
        var hash: Int? = nil
        for index in contentStart..<cursor {
            let byte = bytes[index]
            if byte == UInt8(ascii: "|") || byte == UInt8(ascii: "]") { return nil }
            if byte == UInt8(ascii: "#"), hash == nil { hash = index }
        }
        let part = wikiPartEnd()
        func context(_ kind: CompletionContext.Kind, from start: Int) -> CompletionContext {
            CompletionContext(kind: kind, replace: ByteSpan(start, part.end), typed: string(start, cursor),
                              closing: part.closing, carried: part.carried, labelFollows: part.labelFollows,
                              headingFollows: part.headingFollows)
        }
        guard let firstHash = hash else {
            return context(.wikiTarget(isEmbed: isEmbed), from: contentStart)
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
            return context(.wikiBlock(note: note), from: partStart + 1)
        }
        return context(.wikiHeading(note: note, parents: parts.filter { !$0.isEmpty }), from: partStart)
    }

    /// The end of the wiki-link part at the cursor and what an item must add to close the link.
    struct WikiPartEnd {
        var end: Int
        var closing: String
        var carried: String
        var labelFollows: Bool
        var headingFollows = false
    }

    /// Where the wiki-link part at the cursor ends, and what is missing of the link's `]]`.
    ///
    /// Inside a closed link (`[[no$0te]]`, `[[no$0te|label]]`) the part runs to the `]]`, `|` or
    /// `#`, spaces included, and nothing is missing. A lone `]` right after the word (an editor
    /// that paired one `[`, or a `]` typed by hand) is half the closing: `]` is missing, and it
    /// goes before that `]`; after a `|label` or `#heading` the range then carries them, so the
    /// missing `]` lands after them. In an unclosed link the part is the word at the cursor and
    /// `]]` is missing, except before a `|` or `#` (the user is still writing the link: adding
    /// `]]` there would cut the rest off).
    private func wikiPartEnd() -> WikiPartEnd {
        let bar = UInt8(ascii: "|")
        let hash = UInt8(ascii: "#")
        let close = UInt8(ascii: "]")
        var index = cursor
        while index < lineEnd {
            let byte = bytes[index]
            if byte == close || byte == bar || byte == hash || byte == UInt8(ascii: "[") { break }
            index += 1
        }
        let delimiter: UInt8 = index < lineEnd ? bytes[index] : 0
        var wordEnd = cursor
        while wordEnd < index, !ContextScanner.isSpace(bytes[wordEnd]) { wordEnd += 1 }
        if delimiter == close {
            if index + 1 < lineEnd, bytes[index + 1] == close {
                return WikiPartEnd(end: index, closing: "", carried: "", labelFollows: false)
            }
            // A lone `]` closes this link only when nothing but spaces separates it from the
            // word: `[x [[so$0 y]` keeps its ` y]`, which may well close the outer `[`; and
            // `[see [[so$0](url)` keeps the `]` of the link text.
            let next: UInt8 = index + 1 < lineEnd ? bytes[index + 1] : 0
            if bytes[wordEnd..<index].allSatisfy(ContextScanner.isSpace), next != UInt8(ascii: "("),
               next != UInt8(ascii: "[") {
                return WikiPartEnd(end: index, closing: "]", carried: "", labelFollows: false)
            }
            return WikiPartEnd(end: wordEnd, closing: "]]", carried: "", labelFollows: false)
        }
        if delimiter == bar || delimiter == hash {
            // In a table the label separator is written `\|`: the backslash is part of it.
            let partEnd = delimiter == bar && index > cursor && bytes[index - 1] == UInt8(ascii: "\\") ? index - 1 : index
            let isLabel = delimiter == bar
            // The link's end is the first `]` after the label or heading, before any new `[[`.
            var probe = index + 1
            while probe < lineEnd {
                if bytes[probe] == UInt8(ascii: "["), probe + 1 < lineEnd, bytes[probe + 1] == UInt8(ascii: "[") { break }
                if bytes[probe] == close {
                    if probe + 1 < lineEnd, bytes[probe + 1] == close {
                        return WikiPartEnd(end: partEnd, closing: "", carried: "", labelFollows: isLabel,
                                           headingFollows: !isLabel)
                    }
                    return WikiPartEnd(end: probe, closing: "]", carried: string(partEnd, probe), labelFollows: isLabel,
                                       headingFollows: !isLabel)
                }
                probe += 1
            }
            return WikiPartEnd(end: partEnd, closing: "", carried: "", labelFollows: isLabel, headingFollows: !isLabel)
        }
        // Not closed: the part ends with the word at the cursor.
        return WikiPartEnd(end: wordEnd, closing: "]]", carried: "", labelFollows: false)
    }

    // MARK: Markdown destinations `](…` and `](<…`

    private func detectMarkdownDestination() -> CompletionContext? {
        guard let (start, inAngle) = destinationStart() else { return nil }
        let paren = inAngle ? start - 2 : start - 1
        guard !hidesMarkdown(at: paren) else { return nil }
        let isImage = isImageLink(closingBracket: paren - 1)
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
            let end = destinationPartEnd(inAngle: inAngle, isPathSegment: false)
            return CompletionContext(kind: isBlock ? .markdownBlock(path: path) : .markdownHeading(path: path),
                                     replace: ByteSpan(partStart, end), typed: string(partStart, cursor),
                                     closing: destinationClosing(at: end, inAngle: inAngle))
        }
        let segmentStart = lastSlash.map { $0 + 1 } ?? start
        let end = destinationPartEnd(inAngle: inAngle, isPathSegment: true)
        return CompletionContext(kind: .markdownPath(folder: string(start, segmentStart), isImage: isImage,
                                                     inAngleBrackets: inAngle),
                                 replace: ByteSpan(segmentStart, end), typed: string(segmentStart, cursor),
                                 closing: destinationClosing(at: end, inAngle: inAngle),
                                 slashFollows: end < lineEnd && bytes[end] == UInt8(ascii: "/"))
    }

    /// The first byte of the link destination the cursor is in, and whether it is written in
    /// angle brackets: after `](` with no space, `(`, `)` or `<` in between, or after `](<`
    /// with no `<` or `>` in between (spaces and parentheses are allowed there).
    private func destinationStart() -> (start: Int, inAngle: Bool)? {
        var index = cursor
        while index > lineStart {
            let byte = bytes[index - 1]
            if ContextScanner.isSpace(byte) || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "(") {
                if index - 1 > lineStart, bytes[index - 2] == UInt8(ascii: "]") { return (index, false) }
                break
            }
            index -= 1
        }
        index = cursor
        while index > lineStart {
            let byte = bytes[index - 1]
            if byte == UInt8(ascii: ">") { return nil }
            if byte == UInt8(ascii: "<") {
                let isOpen = index - 1 >= lineStart + 2 && bytes[index - 2] == UInt8(ascii: "(")
                    && bytes[index - 3] == UInt8(ascii: "]")
                return isOpen ? (index, true) : nil
            }
            index -= 1
        }
        return nil
    }

    /// Where the destination part at the cursor ends. A path segment stops at `/` and `#`;
    /// either part stops at a space or `)`, or, in angle brackets closed later on the line, at
    /// the `>` (spaces and parentheses belong to the path there).
    private func destinationPartEnd(inAngle: Bool, isPathSegment: Bool) -> Int {
        var closer: Int? = nil
        if inAngle {
            var probe = cursor
            while probe < lineEnd, bytes[probe] != UInt8(ascii: "<") {
                if bytes[probe] == UInt8(ascii: ">") {
                    closer = probe
                    break
                }
                probe += 1
            }
        }
        var end = cursor
        while end < lineEnd {
            let byte = bytes[end]
            if isPathSegment, byte == UInt8(ascii: "/") || byte == UInt8(ascii: "#") { break }
            if let closer {
                if end == closer { break }
            } else if ContextScanner.isSpace(byte) || byte == UInt8(ascii: ")") {
                break
            }
            end += 1
        }
        return end
    }

    /// What is missing of the destination's end after `end`: nothing before `)`, `#`, `/` (the
    /// destination goes on), a `>` or a title; `>` before a `)` in angle brackets; else `)`
    /// (`>)` in angle brackets).
    private func destinationClosing(at end: Int, inAngle: Bool) -> String {
        let next: UInt8 = end < lineEnd ? bytes[end] : 0
        if next == UInt8(ascii: "#") || next == UInt8(ascii: "/") { return "" }
        if inAngle {
            if next == UInt8(ascii: ">") { return "" }
            return next == UInt8(ascii: ")") ? ">" : ">)"
        }
        if next == UInt8(ascii: ")") { return "" }
        // `[x](no$0 "Title")`: the `)` comes after the title.
        var probe = end
        while probe < lineEnd, ContextScanner.isSpace(bytes[probe]) { probe += 1 }
        if probe > end, probe < lineEnd,
           bytes[probe] == UInt8(ascii: "\"") || bytes[probe] == UInt8(ascii: "'") || bytes[probe] == UInt8(ascii: "(") {
            return ""
        }
        return ")"
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
                guard index - 1 > lineStart, bytes[index - 2] == UInt8(ascii: "]"), !hidesMarkdown(at: index - 1) else {
                    return nil
                }
                var end = cursor
                while end < lineEnd, bytes[end] != UInt8(ascii: "]"), bytes[end] != UInt8(ascii: "[") { end += 1 }
                let closed = end < lineEnd && bytes[end] == UInt8(ascii: "]")
                if !closed {
                    end = cursor
                    while end < lineEnd, !ContextScanner.isSpace(bytes[end]) { end += 1 }
                }
                return CompletionContext(kind: .referenceLabel, replace: ByteSpan(index, end),
                                         typed: string(index, cursor), closing: closed ? "" : "]")
            }
            index -= 1
        }
        return nil
    }

    // MARK: Tags

    /// ASCII bytes a tag name may hold.
    static func isTagByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
    }

    /// The length of the tag character that ends at `end` (not before `lineStart`), or 0. Tags
    /// hold what the parser lets them hold (`UnicodeClass.isWordCharacter`): a `」`, a space, an
    /// emoji or a bidi mark after a half-typed tag is not replaced with it.
    private func tagCharacterLength(endingAt end: Int) -> Int {
        let last = bytes[end - 1]
        if last < 0x80 { return ContextScanner.isTagByte(last) ? 1 : 0 }
        var start = end - 1
        while start > lineStart, bytes[start] & 0xC0 == 0x80, end - start < 4 { start -= 1 }
        guard let value = scalarValue(start, end), UnicodeClass.isWordCharacter(value) else { return 0 }
        return end - start
    }

    /// The length of the tag character that starts at `start` (before `lineEnd`), or 0.
    private func tagCharacterLength(startingAt start: Int) -> Int {
        let first = bytes[start]
        if first < 0x80 { return ContextScanner.isTagByte(first) ? 1 : 0 }
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
        guard start + length <= lineEnd, let value = scalarValue(start, start + length), UnicodeClass.isWordCharacter(value) else { return 0 }
        return length
    }

    /// The scalar whose UTF-8 is exactly `bytes[start..<end]`, or nil for anything else.
    private func scalarValue(_ start: Int, _ end: Int) -> UInt32? {
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else { return nil }
        return scalar.value
    }

    private func detectTag() -> CompletionContext? {
        var index = cursor
        while index > lineStart {
            let length = tagCharacterLength(endingAt: index)
            if length == 0 { break }
            index -= length
        }
        guard index > lineStart, bytes[index - 1] == UInt8(ascii: "#") else { return nil }
        let hash = index - 1
        guard hash == lineStart || tagMayFollow(before: hash), !hidesMarkdown(at: hash), !isInsideBrackets(hash) else {
            return nil
        }
        var end = cursor
        while end < lineEnd {
            let length = tagCharacterLength(startingAt: end)
            if length == 0 { break }
            end += length
        }
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

    /// The parser's rule for a non-ASCII scalar before `#`: a space (Zs), punctuation or a
    /// symbol (P*, S*: `「`, `،`, emoji) or a bidi mark lets a tag start; letters, marks and
    /// digits of any script glue the `#` to their word.
    private func precedingScalarIsSpaceOrPunctuation(_ position: Int) -> Bool {
        var start = position - 1
        while start > lineStart, bytes[start] & 0xC0 == 0x80, position - start < 4 { start -= 1 }
        guard let value = scalarValue(start, position) else { return false }
        return UnicodeClass.isWhitespace(value) || UnicodeClass.isPunctuation(value) || UnicodeClass.isBidiMark(value)
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

    /// True when `position` on this line lies inside a code span, inline maths or raw HTML
    /// (`SpanScanner.hidesMarkdown`, auto-pairing's reading of the line).
    func hidesMarkdown(at position: Int) -> Bool { SpanScanner.hidesMarkdown(at: position, in: bytes) }

    static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
