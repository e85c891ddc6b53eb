// Auto-pairing hints (`macmd/pairs`): which pairs an editor should close when the writer types
// their opening at a position, and what the position is in. The syntax decides.
//
// How an editor uses the answer: when the writer types a character, the editor looks for the
// longest pair whose `open` ends the text before the cursor plus that character, and inserts its
// `close` after the cursor. Opens of two characters (`[[`, `**`, `__`, `~~`, `$$`) extend a pair
// of one: an editor that already closed the first `[` or `*` replaces that close (`[|]` + `[` →
// `[[|]]`). `pairs` lists the longest opens first.
//
// Rules:
// - Prose (`text`): `[`→`]`, `(`→`)`, `` ` ``→`` ` ``, `*`, `**`, `_`, `__`, `~~` (when
//   strikethrough is on), `$` and `$$` (when math is on: the notebook profile), `[[`→`]]` (when
//   wiki-links are on). Withheld there: `*` where it would start a list item (nothing but
//   containers before the cursor on its line); `_` and `__` next to a letter or digit on either
//   side (intraword `_` neither opens nor closes emphasis); `$` before a digit (a `$` there cannot
//   close math); `` ` `` where it would be a fence's third backtick (`onTypeFormatting` closes
//   fences). A single `$` is paired until the next key says otherwise: its pair carries
//   `withdrawOn` (digits and white space), and an editor takes the close back when the writer
//   types one of those right after it (`$5`, `$ `: money and dollar signs, not maths).
// - `"` and `'` are not paired in prose (quotation marks and apostrophes are prose, and
//   closing them would be wrong as often as right); they pair in the front matter (YAML) and in
//   a link's title.
// - Inside a code span only a backtick pairs, and only when the run it would make is not as
//   long as the span's delimiter (it would close the span instead). Fenced code, URLs (autolinks
//   `<…>` and bare `https://…`, `www.…`), link destinations, wiki-links and the character after a
//   backslash pair nothing.
// - Math (`$…$`, `$$…$$`, a `$$` block) pairs `{`, `(`, `[`. The front matter pairs `[`, `{`, `"`,
//   `'`.
// - Spans are read on the cursor's line only (a code span or math that a line break splits is
//   not seen); blocks (front matter, fences, `$$` blocks) come from `LineRegions`.
//
// Invariant: reads the cursor's line, and `LineRegions` for the line's block; never traps.

import MarkdownSyntax
import TextCore

/// Where a position is, for auto-pairing.
public enum PairContext: String, Sendable, Equatable, CaseIterable {
    /// Markdown prose.
    case text
    /// Right after a backslash: the next character is literal.
    case escaped
    /// Inside a code span.
    case codeSpan
    /// Inside a fenced code block (or on its fence lines): the block's language decides.
    case fencedCode
    /// Inside the front matter (YAML).
    case frontMatter
    /// Inside math: `$…$`, `$$…$$` or a `$$` block.
    case math
    /// Inside a link's destination (`[text](here)`, `[label]: here`).
    case linkDestination
    /// Inside a link's title (`[text](url "here")`).
    case linkTitle
    /// Inside an autolink (`<https://…>`) or a bare URL.
    case url
    /// Inside a wiki-link (`[[here]]`).
    case wikiLink
    /// Inside raw HTML: an HTML block, or a tag or comment in a line (`<a href="here">`).
    case html
}

/// One pair that should auto-close: typing `open` inserts `close` after the cursor.
public struct AutoPair: Sendable, Hashable {
    /// What the pair writes.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case linkText, parentheses, codeSpan, emphasis, strongEmphasis, strikethrough
        case inlineMath, displayMath, wikiLink, brackets, braces, doubleQuotes, singleQuotes
    }

    public var open: String
    public var close: String
    public var kind: Kind
    /// The characters that, typed right after `open`, take `close` back: the syntax could not
    /// know what the pair was until the next key. Empty for most pairs.
    public var withdrawOn: String

    public init(_ open: String, _ close: String, _ kind: Kind, withdrawOn: String = "") {
        self.open = open
        self.close = close
        self.kind = kind
        self.withdrawOn = withdrawOn
    }

    /// What takes back the close of an inline-maths `$`: a digit (`$5` is money; a `$` before a
    /// digit cannot close maths either) or white space (`$ ` opens no maths).
    public static let moneyOrSpace = "0123456789 \t"
}

/// The answer of `macmd/pairs`: the context of a position and the pairs that close there.
public struct PairHints: Sendable, Equatable {
    public var context: PairContext
    /// The pairs, longest `open` first.
    public var pairs: [AutoPair]
    /// In a fenced code block, the first word of its info string (`swift` for ```` ```swift ````),
    /// so that an editor can pair as that language does; nil elsewhere or when the fence has none.
    public var language: String?

    public init(context: PairContext, pairs: [AutoPair], language: String? = nil) {
        self.context = context
        self.pairs = pairs
        self.language = language
    }
}

public enum AutoPairing {
    /// The pairs that should auto-close at the UTF-8 offset `offset` of `text`, with the syntax
    /// of `extensions` (math, wiki-links and strikethrough pair only when they are on).
    public static func pairs(at offset: Int, in text: [UInt8], extensions: ParseOptions.Extensions = .notebook) -> PairHints {
        EditorText.reading(text) { pairs(at: max(0, min(offset, $0.count)), in: $0, extensions: extensions) }
    }

    static func pairs(at cursor: Int, in text: EditorText, extensions: ParseOptions.Extensions) -> PairHints {
        let place = context(at: cursor, in: text, extensions: extensions)
        switch place.context {
        case .text:
            return PairHints(context: .text, pairs: prosePairs(at: cursor, in: text, extensions: extensions))
        case .codeSpan:
            return PairHints(context: .codeSpan, pairs: place.backtickPairs ? [AutoPair("`", "`", .codeSpan)] : [])
        case .frontMatter:
            return PairHints(context: .frontMatter, pairs: [
                AutoPair("[", "]", .brackets), AutoPair("{", "}", .braces),
                AutoPair("\"", "\"", .doubleQuotes), AutoPair("'", "'", .singleQuotes),
            ])
        case .math:
            return PairHints(context: .math, pairs: [
                AutoPair("{", "}", .braces), AutoPair("(", ")", .parentheses), AutoPair("[", "]", .brackets),
            ])
        case .linkDestination:
            return PairHints(context: .linkDestination, pairs: [AutoPair("(", ")", .parentheses)])
        case .linkTitle:
            return PairHints(context: .linkTitle, pairs: [
                AutoPair("\"", "\"", .doubleQuotes), AutoPair("'", "'", .singleQuotes), AutoPair("(", ")", .parentheses),
            ])
        case .fencedCode:
            return PairHints(context: .fencedCode, pairs: [], language: place.language)
        case .html:
            return PairHints(context: .html, pairs: [AutoPair("\"", "\"", .doubleQuotes), AutoPair("'", "'", .singleQuotes)])
        case .escaped, .url, .wikiLink:
            return PairHints(context: place.context, pairs: [])
        }
    }

    /// The pairs of prose at `cursor`.
    static func prosePairs(at cursor: Int, in text: EditorText, extensions: ParseOptions.Extensions) -> [AutoPair] {
        let lineStart = text.lineStart(of: cursor)
        let containers = LineContainers(text, lineStart, cursor)
        let startsLine = text.isBlank(containers.textStart, cursor)
        let inWord = isWordScalar(before: cursor, in: text) || isWordScalar(at: cursor, in: text)
        let beforeDigit = cursor < text.count && text[cursor] >= 0x30 && text[cursor] <= 0x39
        let fenceInTheMaking = cursor - text.skipSpaces(containers.textStart, cursor) == 2
            && text[cursor - 1] == UInt8(ascii: "`") && text[cursor - 2] == UInt8(ascii: "`")

        var pairs: [AutoPair] = []
        if extensions.contains(.wikiLinks) { pairs.append(AutoPair("[[", "]]", .wikiLink)) }
        pairs.append(AutoPair("**", "**", .strongEmphasis))
        if !inWord { pairs.append(AutoPair("__", "__", .strongEmphasis)) }
        if extensions.contains(.strikethrough) { pairs.append(AutoPair("~~", "~~", .strikethrough)) }
        if extensions.contains(.math) { pairs.append(AutoPair("$$", "$$", .displayMath)) }
        pairs.append(AutoPair("[", "]", .linkText))
        pairs.append(AutoPair("(", ")", .parentheses))
        if !fenceInTheMaking { pairs.append(AutoPair("`", "`", .codeSpan)) }
        if !startsLine { pairs.append(AutoPair("*", "*", .emphasis)) }
        if !inWord { pairs.append(AutoPair("_", "_", .emphasis)) }
        if extensions.contains(.math), !beforeDigit { pairs.append(AutoPair("$", "$", .inlineMath, withdrawOn: AutoPair.moneyOrSpace)) }
        return pairs
    }

    // MARK: Context

    /// The context of `cursor`; in a code span whether a backtick pairs there, in fenced code the
    /// block's language.
    static func context(at cursor: Int, in text: EditorText, extensions: ParseOptions.Extensions)
        -> (context: PairContext, backtickPairs: Bool, language: String?) {
        let line = LineRegions.line(at: cursor, in: text.bytes)
        switch line.kind {
        case .frontMatter, .frontMatterFence: return (.frontMatter, false, nil)
        case .codeOpening, .codeContent, .codeClosing:
            guard case .code(_, let info) = line.region, !info.isEmpty else { return (.fencedCode, false, nil) }
            return (.fencedCode, false, info)
        case .math where extensions.contains(.math): return (.math, false, nil)
        case .html: return (.html, false, nil)
        case .math, .body: break
        }
        let found = spanContext(at: cursor, in: text, extensions: extensions)
        return (found.context, found.backtickPairs, nil)
    }

    /// The context of `cursor` in the spans of its line (its block not asked).
    static func spanContext(at cursor: Int, in text: EditorText, extensions: ParseOptions.Extensions)
        -> (context: PairContext, backtickPairs: Bool) {
        let lineStart = text.lineStart(of: cursor)
        let lineEnd = text.lineEnd(from: cursor)
        var scanner = SpanScanner(text: text, start: LineContainers(text, lineStart, lineEnd).textStart, end: lineEnd,
                                  cursor: cursor, extensions: extensions)
        return scanner.context()
    }

    /// The number of backticks just before and just after `cursor`.
    static func backticksAround(_ cursor: Int, in text: EditorText) -> Int {
        var count = 0
        var index = cursor
        while index > 0, text[index - 1] == UInt8(ascii: "`") { count += 1; index -= 1 }
        index = cursor
        while index < text.count, text[index] == UInt8(ascii: "`") { count += 1; index += 1 }
        return count
    }

    /// Whether the scalar that ends at `offset` is a letter or a digit.
    static func isWordScalar(before offset: Int, in text: EditorText) -> Bool {
        guard offset > 0 else { return false }
        var start = offset - 1
        while start > 0, offset - start < 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        return isWordScalar(at: start, in: text, end: offset)
    }

    /// Whether the scalar that starts at `offset` is a letter or a digit.
    static func isWordScalar(at offset: Int, in text: EditorText, end: Int? = nil) -> Bool {
        guard offset < text.count else { return false }
        let byte = text[offset]
        if byte < 0x80 {
            return (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
        }
        let (value, _) = DisplayWidth.decode(text.bytes, offset, end ?? text.count)
        guard let scalar = Unicode.Scalar(value), value != 0xFFFD else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

/// The inline spans of one line up to a cursor: what the cursor is inside.
///
/// Linear in the line: a search for a closer that fails is remembered (as the inline parser does),
/// so that later openers of the same kind do not search the same bytes again, and a link that
/// closes before the cursor is skipped whole.
struct SpanScanner {
    let text: EditorText
    let start: Int
    let end: Int
    let cursor: Int
    let extensions: ParseOptions.Extensions
    /// For each backtick run length, the start of the last run of that length seen; complete
    /// once a search has read to the line's end (`scannedAllBackticks`), as in cmark.
    private var lastBacktickRun: [Int: Int] = [:]
    private var scannedAllBackticks = false
    /// The line's inline maths by the offset of its opening delimiter, once `mathSpan` parsed it.
    private var lineMaths: [Int: (contentStart: Int, contentEnd: Int, end: Int)]?

    init(text: EditorText, start: Int, end: Int, cursor: Int, extensions: ParseOptions.Extensions) {
        self.text = text
        self.start = start
        self.end = end
        self.cursor = cursor
        self.extensions = extensions
    }

    /// Whether `position` lies inside a code span, inline maths or raw HTML of its line, where
    /// nothing links or tags, as auto-pairing reads the line: completion asks this too, so that
    /// the two features agree on what a span is.
    static func hidesMarkdown(at position: Int, in bytes: UnsafeBufferPointer<UInt8>, extensions: ParseOptions.Extensions = .notebook) -> Bool {
        let context = AutoPairing.spanContext(at: max(0, min(position, bytes.count)), in: EditorText(bytes: bytes), extensions: extensions).context
        return context == .codeSpan || context == .math || context == .html
    }

    mutating func context() -> (context: PairContext, backtickPairs: Bool) {
        if let definition = referenceDefinition() { return (definition, false) }
        var index = start
        while index < cursor {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\\"):
                if index + 1 == cursor { return (.escaped, false) }
                if extensions.contains(.math), index + 1 < end, text[index + 1] == UInt8(ascii: "(") || text[index + 1] == UInt8(ascii: "["),
                   let math = mathSpan(at: index) {
                    if cursor >= math.contentStart, cursor <= math.contentEnd { return (.math, false) }
                    if cursor < math.contentStart { return (.text, false) }
                    index = math.end
                    continue
                }
                index += 2
                continue
            case UInt8(ascii: "`"):
                let runEnd = run(of: byte, from: index)
                if runEnd > cursor { return (.text, false) }
                guard let close = closingBackticks(length: runEnd - index, from: runEnd) else {
                    index = runEnd
                    continue
                }
                if cursor <= close {
                    // A backtick typed against a delimiter changes the delimiter; elsewhere it
                    // pairs unless its run would be as long as the delimiters (and close the span).
                    let touches = cursor == runEnd || cursor == close
                    let run = AutoPairing.backticksAround(cursor, in: text) + 1
                    return (.codeSpan, !touches && run != runEnd - index)
                }
                index = close + (runEnd - index)
                continue
            case UInt8(ascii: "$") where extensions.contains(.math):
                if let math = mathSpan(at: index) {
                    if cursor > math.contentStart, cursor <= math.contentEnd { return (.math, false) }
                    if cursor <= math.contentStart { return (.text, false) }
                    index = math.end
                    continue
                }
            case UInt8(ascii: "[") where extensions.contains(.wikiLinks):
                if index + 1 < end, text[index + 1] == UInt8(ascii: "[") {
                    let close = find(UInt8(ascii: "]"), twice: true, from: index + 2)
                    if cursor >= index + 2, close.map({ cursor <= $0 }) ?? true { return (.wikiLink, false) }
                    if let close { index = close + 2; continue }
                }
            case UInt8(ascii: "]"):
                if index + 1 < end, text[index + 1] == UInt8(ascii: "(") {
                    switch linkTail(from: index + 2) {
                    case .inside(let context): return (context, false)
                    case .closed(let linkEnd):
                        index = linkEnd
                        continue
                    case .notALink: break
                    }
                }
            case UInt8(ascii: "<"):
                if let close = autolinkEnd(from: index + 1) ?? LinkScanners.scanEmailAutolink(text.bytes, at: index, end: end) {
                    if cursor <= close { return (.url, false) }
                    index = close + 1
                    continue
                }
                if let htmlEnd = inlineHTMLEnd(at: index) {
                    if cursor < htmlEnd { return (.html, false) }
                    index = htmlEnd
                    continue
                }
            default:
                if let urlEnd = bareURLEnd(at: index) {
                    if cursor <= urlEnd { return (.url, false) }
                    index = urlEnd
                    continue
                }
            }
            index += 1
        }
        return (.text, false)
    }

    // MARK: Spans

    func run(of byte: UInt8, from index: Int) -> Int {
        var runEnd = index
        while runEnd < end, text[runEnd] == byte { runEnd += 1 }
        return runEnd
    }

    /// The start of the next run of exactly `length` backticks at or after `from`.
    mutating func closingBackticks(length: Int, from: Int) -> Int? {
        if scannedAllBackticks, lastBacktickRun[length, default: -1] < from { return nil }
        var index = from
        while index < end {
            if text[index] == UInt8(ascii: "`") {
                let runEnd = run(of: UInt8(ascii: "`"), from: index)
                lastBacktickRun[runEnd - index] = max(lastBacktickRun[runEnd - index, default: -1], index)
                if runEnd - index == length { return index }
                index = runEnd
            } else {
                index += 1
            }
        }
        scannedAllBackticks = true
        return nil
    }

    /// The first `byte` (or two of it in a row) at or after `from` on the line.
    func find(_ byte: UInt8, twice: Bool, from: Int) -> Int? {
        var index = from
        while index < end {
            if text[index] == byte, !twice || (index + 1 < end && text[index + 1] == byte) { return index }
            index += 1
        }
        return nil
    }

    /// Inline maths starting at `index` (its content's start and end, and its own end), as the
    /// parser reads the line: the line is parsed once, on its first `$` or `\\(`, so the pairing
    /// rules and the preview agree on which `$` opens a formula (braces, runs of `$`, digits
    /// after the closer: MarkdownSyntax's rules, not a copy of them).
    mutating func mathSpan(at index: Int) -> (contentStart: Int, contentEnd: Int, end: Int)? {
        if lineMaths == nil {
            var spans: [Int: (contentStart: Int, contentEnd: Int, end: Int)] = [:]
            let line = Array(text.bytes[start..<end])
            let tree = MarkdownParser.parse(line, options: ParseOptions(extensions: extensions))
            for node in tree.nodes where node.kind == .inlineMath || node.kind == .displayMath {
                let content = tree.sourceRange(forContent: ByteSpan(node.contentStart, node.contentEnd))
                spans[start + Int(node.sourceStart)] = (start + content.lowerBound, start + content.upperBound, start + Int(node.sourceEnd))
            }
            lineMaths = spans
        }
        return lineMaths?[index]
    }

    enum LinkTail {
        /// The cursor is in the destination or the title.
        case inside(PairContext)
        /// The link closes before the cursor, at this offset (after its `)`).
        case closed(Int)
        /// No `)` closes it on the line.
        case notALink
    }

    /// After `](`: whether the cursor is in the destination or the title, or where the link ends.
    func linkTail(from destinationStart: Int) -> LinkTail {
        var index = text.skipSpaces(destinationStart, end)
        if index < end, text[index] == UInt8(ascii: "<") {
            while index < end, text[index] != UInt8(ascii: ">") {
                if index >= cursor { return .inside(.linkDestination) }
                index += 1
            }
            if cursor <= index { return .inside(.linkDestination) }
            index += 1
        } else {
            var depth = 0
            while index < end {
                let byte = text[index]
                if EditorText.isSpace(byte) { break }
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") {
                    if depth == 0 { break }
                    depth -= 1
                }
                if byte == UInt8(ascii: "\\") { index += 1 }
                index += 1
            }
            if cursor <= index { return .inside(.linkDestination) }
        }
        // Spaces, then the title, then the link's closing parenthesis.
        let titleStart = text.skipSpaces(min(index, end), end)
        if cursor <= titleStart { return .inside(.linkTitle) }
        index = titleStart
        if index < end, let closer = SpanScanner.titleCloser(text[index]) {
            index += 1
            while index < end, text[index] != closer {
                if text[index] == UInt8(ascii: "\\") { index += 1 }
                index += 1
            }
            if cursor <= index { return .inside(.linkTitle) }
            index = text.skipSpaces(min(index + 1, end), end)
            if cursor <= index { return .inside(.linkTitle) }
        }
        guard index < end, text[index] == UInt8(ascii: ")") else { return .notALink }
        return .closed(index + 1)
    }

    /// The byte that closes a link title opened by `byte`.
    static func titleCloser(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): return UInt8(ascii: "\"")
        case UInt8(ascii: "'"): return UInt8(ascii: "'")
        case UInt8(ascii: "("): return UInt8(ascii: ")")
        default: return nil
        }
    }

    /// The `>` that closes an autolink whose scheme starts at `from`, on the line; a cursor in an
    /// autolink still being typed (no `>` yet, no space before the cursor) counts as inside, so
    /// a search that reaches the line's end ends the scan.
    func autolinkEnd(from: Int) -> Int? {
        var index = from
        while index < end, index - from < 32, isSchemeByte(text[index], first: index == from) { index += 1 }
        guard index - from >= 2, index < end, text[index] == UInt8(ascii: ":") else { return nil }
        while index < end {
            let byte = text[index]
            if byte == UInt8(ascii: ">") { return index }
            if EditorText.isSpace(byte) || byte == UInt8(ascii: "<") { return index > cursor ? index : nil }
            index += 1
        }
        return end
    }

    /// The end of raw HTML at `index` (`<`) on the line, by the parser's rules: an open or
    /// closing tag (`HTMLTagScanner`), or a comment `<!-- … -->`.
    func inlineHTMLEnd(at index: Int) -> Int? {
        if let length = HTMLTagScanner.openTag(text.bytes, index, end) ?? HTMLTagScanner.closingTag(text.bytes, index, end) {
            return index + length
        }
        guard index + 3 < end, text[index + 1] == UInt8(ascii: "!"), text[index + 2] == UInt8(ascii: "-"),
              text[index + 3] == UInt8(ascii: "-") else { return nil }
        var close = index + 4
        while close + 2 < end, !(text[close] == UInt8(ascii: "-") && text[close + 1] == UInt8(ascii: "-") && text[close + 2] == UInt8(ascii: ">")) {
            close += 1
        }
        return close + 2 < end ? close + 3 : nil
    }

    private func isSchemeByte(_ byte: UInt8, first: Bool) -> Bool {
        let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
        if first { return letter }
        return letter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// The end of a bare URL (`http://`, `https://`, `ftp://`, `www.`) starting at `index` where
    /// GFM's extended autolinks may start: the next space or `<` (while a URL is typed, what GFM
    /// would trim from its end may be its next part).
    func bareURLEnd(at index: Int) -> Int? {
        let byte = text[index] | 0x20
        guard byte == UInt8(ascii: "h") || byte == UInt8(ascii: "w") || byte == UInt8(ascii: "f") else { return nil }
        let isWWW = hasPrefix("www.", at: index)
        guard isWWW || ["http://", "https://", "ftp://"].contains(where: { hasPrefix($0, at: index) }) else { return nil }
        if index > start {
            // As the parser: `www.` after white space or `*_~(`; a scheme after anything but a
            // letter (which would make the scheme longer).
            let previous = text[index - 1]
            if isWWW {
                guard EditorText.isSpace(previous) || previous == UInt8(ascii: "*") || previous == UInt8(ascii: "_")
                        || previous == UInt8(ascii: "~") || previous == UInt8(ascii: "(") else { return nil }
            } else if (previous | 0x20) >= 0x61 && (previous | 0x20) <= 0x7A {
                return nil
            }
        }
        var urlEnd = index
        while urlEnd < end, !EditorText.isSpace(text[urlEnd]), text[urlEnd] != UInt8(ascii: "<") { urlEnd += 1 }
        return urlEnd
    }

    private func hasPrefix(_ prefix: String, at index: Int) -> Bool {
        var position = index
        for byte in prefix.utf8 {
            guard position < end, text[position] | 0x20 == byte | 0x20 else { return false }
            position += 1
        }
        return true
    }

    /// A link reference definition's destination or title (`[label]: destination "title"`) that
    /// holds the cursor.
    func referenceDefinition() -> PairContext? {
        guard start < end, text[start] == UInt8(ascii: "[") else { return nil }
        var index = start + 1
        while index < end, text[index] != UInt8(ascii: "]") {
            if text[index] == UInt8(ascii: "\\") { index += 1 }
            index += 1
        }
        guard index + 1 < end, text[index + 1] == UInt8(ascii: ":"), cursor > index + 1 else { return nil }
        let destination = text.skipSpaces(index + 2, end)
        var destinationEnd = destination
        while destinationEnd < end, !EditorText.isSpace(text[destinationEnd]) { destinationEnd += 1 }
        if cursor <= destinationEnd { return .linkDestination }
        return .linkTitle
    }
}
