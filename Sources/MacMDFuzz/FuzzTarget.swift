// FuzzTarget: what the fuzzers feed and what they check. Each target has seed inputs, tokens of
// its grammar for the mutator, and a check that runs one input and says what went wrong. A trap
// or a hang is a failure by itself (the runner sees the worker die or stall); the checks add the
// invariants a trap would not show: offsets inside the input, UTF-8 output, round trips, and for
// the text synchronization the very text the client holds.
//
// Invariant: `check` is a pure function of the input bytes, so a saved input
// (`Fixtures/fuzz/<target>/*.bin`) replays the failure exactly.

import JSON
import JSONRPC
import LSPTypes
import MacMDServer
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import TeXMath
import TextCore

/// A part of MacMD that reads untrusted input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `Content-Length` framing over a byte stream cut in random pieces, and the messages in it.
    case framer
    /// The JSON parser; what it accepts must write and read back to the same value.
    case json
    /// The Markdown parser in every profile, and the renderer with every option.
    case markdown
    /// Front matter on its own (a note that is mostly front matter).
    case frontMatter = "front-matter"
    /// GFM tables on their own.
    case table
    /// Wiki-links and embeds, through the parser and the index's symbols.
    case wikiLink = "wiki-link"
    /// The snippet grammar (VS Code's).
    case snippet
    /// TeX to MathML.
    case texMath = "tex-math"
    /// Incremental `didChange` edits, some out of bounds, in every position encoding: the
    /// server's text must be the client's.
    case sync

    /// A failure: what was wrong.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Inputs

    /// The inputs mutated into new ones.
    public var seeds: [[UInt8]] {
        let texts: [String]
        switch self {
        case .framer:
            let bodies = [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
                          #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.md","version":2},"contentChanges":[{"text":"x"}]}}"#,
                          #"{"jsonrpc":"2.0","id":"a","result":null}"#, #"[1,2]"#, "{}"]
            texts = bodies.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }
                + ["Content-Length: 99999999\r\n\r\n{}", "Content-Type: x\r\nContent-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
                   "content-length:2\n\n{}", "Content-Length: -1\r\n\r\n", String(repeating: "X-Header: y\r\n", count: 40) + "\r\n"]
        case .json:
            texts = [#"{"a":[1,-2.5e3,true,false,null,"\u00e9\ud83d\ude00\n"],"b":{"c":{}}}"#, "[]", #""x""#, "0", "-0.0e-0",
                     #"{"jsonrpc":"2.0","id":1,"method":"textDocument/completion","params":{"position":{"line":0,"character":3}}}"#]
        case .markdown:
            texts = ["# Title\n\nSome *emphasis*, **strong**, `code`, [link](url \"t\") and ![img](a.png).\n\n> quote\n> - list\n>   1. nested\n\n```swift\nlet x = 1\n```\n",
                     "<div>\n*html*\n</div>\n\n[ref]: /url\n\n[ref] [^1] ~~del~~ https://a.b www.c.d\n\n[^1]: note\n",
                     "- [ ] task\n- [x] done\n\n> [!NOTE]\n> alert\n\n$x^2$ and $$\\frac{a}{b}$$\n\n***\n\nSetext\n===\n",
                     "*a **b _c `d` e_ f** g*\n\n[a [b] c](d) <a@b.c> &amp; &#x1F600; \\* \\\n"]
        case .frontMatter:
            texts = ["---\ntitle: Note\ntags: [a, b/c, \"d e\"]\naliases:\n  - One\n  - 'Two'\ndate: 2024-01-02\n---\n# Body\n",
                     "---\nkey: value\nlist:\n- a\n- b\nquoted: \"x\\\"y\"\nempty:\n---\n", "+++\ntitle = \"toml\"\n+++\n", "---\n---\n"]
        case .table:
            texts = ["| a | b |\n| :-- | --: |\n| 1 | 2 |\n| `x|y` | \\| |\n", "a|b\n-|-\nc|d\n", "| x |\n|---|\n| [[n|l]] |\n",
                     "| a | b | c |\n|:-:|---|--:|\n| 1 |\n| 1 | 2 | 3 | 4 |\n"]
        case .wikiLink:
            texts = ["[[Note]] [[folder/Note#Heading|Label]] ![[image.png#a|100]] [[#Local]] [[Note#^block]] [[Note^x]]\n",
                     "[also [[Note]]](https://example.com/) [[|]] [[|Alias]] [[a]]b]] [[C%23 notes]] `[[code]]` \\[[not]]\n",
                     "Text ^block-id\n\n#tag #nested/tag [[Note#A#B]] [[ spaced ]] ![[clip.mp4#t=10]]\n"]
        case .snippet:
            texts = ["for ${1:item} in ${2:items} {\n\t$0\n}", "${1|one,two,three|} ${TM_FILENAME/(.*)\\..+$/${1:/upcase}/g}",
                     "${CURRENT_YEAR}-${CURRENT_MONTH}-${CURRENT_DATE} ${1:${2:nested}} \\$ \\} $UNKNOWN ${3/x/y/i}",
                     "${1:a${2:b${3:c}}} ${4|a\\,b,c|} ${5:\\}}"]
        case .texMath:
            texts = ["\\frac{a}{b} + \\sqrt[3]{x^2_1} = \\sum_{i=0}^{n} i", "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}",
                     "\\left( \\int_0^\\infty e^{-x} dx \\right] \\mathbb{R} \\text{word $x$} \\operatorname{f}",
                     "\\begin{aligned} x &= 1 \\\\ &\\neq 2 \\end{aligned} \\overbrace{a+b}^{c} \\color{red}{x}"]
        case .sync:
            texts = ["line one\nline two\r\nline three\rlast", "é日本😀𝒳 text\n🇩🇪 flag\n👨‍👩‍👧 family\n", "", "\n\n\n", "ascii only\n"]
        }
        return texts.map { Array($0.utf8) }
    }

    /// Pieces of the target's grammar, for the mutator.
    public var tokens: [[UInt8]] {
        let texts: [String]
        switch self {
        case .framer:
            texts = ["Content-Length: ", "\r\n", "\r\n\r\n", "0", "9999999999999999999999", "{", "}", "\"", ":", "Content-Type: a\r\n"]
        case .json:
            texts = ["{", "}", "[", "]", "\"", "\\", "\\u", "\\ud800", "\\udc00", ":", ",", "1e999", "-", "0.", "true", "null", " "]
        case .markdown:
            texts = ["*", "_", "**", "~~", "`", "```", "$", "$$", "[", "]", "(", ")", "![", "[[", "]]", "|", "#", "# ", "> ",
                     "- ", "1. ", "- [x] ", "<", ">", "<div>", "</div>", "<!--", "-->", "&", "&#", ";", "\\", "    ", "\t",
                     "[^", "]:", "---", "===", "> [!NOTE]", "https://", "www.", "@", "\\(", "\\)", "\\[", "\\]"]
        case .frontMatter:
            texts = ["---\n", "key: ", "- ", "  ", "\"", "'", "[", "]", ",", "#", ":", "\n", "tags: ", "title: ", "\\"]
        case .table:
            texts = ["|", "-", ":", "\\|", "`", "\n", " ", "|---|", "| a ", "[[", "]]"]
        case .wikiLink:
            texts = ["[[", "]]", "![[", "|", "#", "^", "\\", "[", "]", "(", ")", "`", "%", "%23", "#tag", " ^id"]
        case .snippet:
            texts = ["$", "${", "}", ":", "|", ",", "/", "\\", "1", "0", "${1:", "${1|", "|}", "TM_SELECTED_TEXT", "/upcase", "(?<n>x)"]
        case .texMath:
            texts = ["{", "}", "\\", "^", "_", "&", "\\\\", "\\frac", "\\left(", "\\right)", "\\begin{matrix}", "\\end{matrix}",
                     "\\sqrt[", "]", "\\text{", "$", "%", "#", "~", "\\mathrm{", "\\over", "'"]
        case .sync:
            texts = ["\n", "\r\n", "\r", "é", "😀", "日", "a", " "]
        }
        return texts.map { Array($0.utf8) }
    }

    /// The longest input the mutator makes for this target.
    var maximumLength: Int { self == .sync ? 4 * 1024 : 16 * 1024 }

    /// Input `index` of a run seeded `seed`: a seed of the target, mutated (and, now and then,
    /// random bytes or two seeds spliced).
    public func input(seed: UInt64, index: UInt64) -> [UInt8] {
        var random = FuzzRandom(seed: seed, index: index)
        let seeds = self.seeds
        if random.oneIn(16) {
            return (0..<random.below(512)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        var base = random.pick(seeds)
        if random.oneIn(8) { base += random.pick(seeds) }
        return FuzzMutator(tokens: tokens, maximumLength: maximumLength).mutate(base, &random)
    }

    // MARK: Checks

    /// Runs `input` through the target; the failure, or nil when every invariant held.
    public func check(_ input: [UInt8]) -> Failure? {
        switch self {
        case .framer: FuzzTarget.checkFramer(input)
        case .json: FuzzTarget.checkJSON(input)
        case .markdown: FuzzTarget.checkMarkdown(input, profiles: ParseOptions.Profile.allCases)
        case .frontMatter, .table: FuzzTarget.checkMarkdown(input, profiles: [.notebook, .gfm])
        case .wikiLink: FuzzTarget.checkWikiLinks(input)
        case .snippet: FuzzTarget.checkSnippet(input)
        case .texMath: FuzzTarget.checkTeX(input)
        case .sync: FuzzTarget.checkSync(input)
        }
    }

    static func checkFramer(_ input: [UInt8]) -> Failure? {
        var framer = MessageFramer(maxContentLength: 4096)
        // The stream arrives in pieces whose sizes come from the input itself.
        var random = FuzzRandom(seed: FuzzTarget.hash(input))
        var offset = 0
        var items = 0
        while offset < input.count {
            let length = 1 + random.below(min(64, input.count - offset))
            framer.append(Array(input[offset..<(offset + length)]))
            offset += length
            while let item = framer.next() {
                items += 1
                // Each item consumes input: more items than bytes means a loop.
                if items > input.count + 1 { return Failure("the framer gave more items than there are bytes") }
                if case .body(let body) = item {
                    if body.count > 4096 { return Failure("a body of \(body.count) bytes passed the 4096-byte limit") }
                    if let value = try? JSON.parse(body) { _ = Message.decode(value) }
                }
            }
            if framer.bufferedByteCount > offset { return Failure("the framer holds more bytes than it was given") }
        }
        return nil
    }

    static func checkJSON(_ input: [UInt8]) -> Failure? {
        do {
            let value = try JSON.parse(input)
            let written = JSON.serialize(value)
            guard let again = try? JSON.parse(written) else { return Failure("the JSON written does not read back") }
            if again != value { return Failure("the JSON written reads back as another value") }
        } catch {
            if error.offset < 0 || error.offset > input.count {
                return Failure("error offset \(error.offset) outside the \(input.count)-byte input")
            }
        }
        return nil
    }

    static func checkMarkdown(_ input: [UInt8], profiles: [ParseOptions.Profile]) -> Failure? {
        for profile in profiles {
            let tree = MarkdownParser.parse(input, options: ParseOptions(profile: profile))
            if let failure = checkTree(tree) { return Failure("\(profile): \(failure)") }
            for options in [HTMLOptions(), HTMLOptions(safe: false, sourceLines: true, headingIDs: true, fullPage: true)] {
                let html = HTMLRenderer(options: options).render(tree)
                if String(validating: html, as: UTF8.self) == nil { return Failure("\(profile): the HTML is not valid UTF-8") }
            }
        }
        return nil
    }

    /// Every attached node's ranges lie inside the source and the content.
    static func checkTree(_ tree: SyntaxTree) -> String? {
        let sourceCount = Int32(tree.source.count), contentCount = Int32(tree.content.count)
        for (index, node) in tree.nodes.enumerated() where node.parent != .none || index == 0 {
            if node.sourceStart < 0 || node.sourceStart > sourceCount || node.sourceEnd < 0 || node.sourceEnd > sourceCount {
                return "node \(index) (\(node.kind)) has source \(node.sourceStart)..<\(node.sourceEnd) outside 0...\(sourceCount)"
            }
            if node.contentStart < 0 || node.contentStart > contentCount || node.contentEnd < 0 || node.contentEnd > contentCount {
                return "node \(index) (\(node.kind)) has content \(node.contentStart)..<\(node.contentEnd) outside 0...\(contentCount)"
            }
        }
        for problem in tree.problems where problem.range.start < 0 || problem.range.end > sourceCount {
            return "a problem's range \(problem.range) lies outside the source"
        }
        return nil
    }

    static func checkWikiLinks(_ input: [UInt8]) -> Failure? {
        if let failure = checkMarkdown(input, profiles: [.notebook]) { return failure }
        let symbols = NoteSymbols.parsing(input, path: "fuzz/note.md")
        let count = Int32(input.count)
        func outside(_ span: ByteSpan) -> Bool { span.start < 0 || span.end > count || span.start > span.end }
        for link in symbols.links where outside(link.range) || outside(link.target.range) {
            return Failure("a link's range \(link.range) or target \(link.target.range) lies outside the note")
        }
        for heading in symbols.headings where outside(heading.range) {
            return Failure("a heading's range \(heading.range) lies outside the note")
        }
        for tag in symbols.tags where outside(tag.range) || outside(tag.nameRange) {
            return Failure("a tag's range \(tag.range) lies outside the note")
        }
        return nil
    }

    static func checkSnippet(_ input: [UInt8]) -> Failure? {
        let text = String(decoding: input, as: UTF8.self)
        if case .failure(let error) = SnippetParser.parse(text), error.utf8Offset < 0 || error.utf8Offset > text.utf8.count {
            return Failure("error offset \(error.utf8Offset) outside the \(text.utf8.count)-byte body")
        }
        return nil
    }

    static func checkTeX(_ input: [UInt8]) -> Failure? {
        for display in [false, true] {
            let output = input.withUnsafeBufferPointer { TeXMath.mathML(utf8: $0, display: display) }
            switch output {
            case .mathML(let markup):
                if !markup.hasPrefix("<math") || !markup.hasSuffix("</math>") { return Failure("the MathML is not one <math> element") }
            case .error(let error):
                if error.utf8Offset < 0 || error.utf8Offset > input.count {
                    return Failure("error offset \(error.utf8Offset) outside the \(input.count)-byte formula")
                }
            }
        }
        return nil
    }

    // MARK: Text synchronization

    /// The input is the document's first text; the edits come from a generator seeded by the
    /// input, in each encoding. After every edit the server's text must be the client's.
    static func checkSync(_ input: [UInt8]) -> Failure? {
        let initial = String(decoding: input, as: UTF8.self)
        for encoding in PositionEncoding.allCases {
            var random = FuzzRandom(seed: FuzzTarget.hash(input) ^ UInt64(encoding.rawValue.utf8.count))
            var client = SyncClient(text: initial)
            var server = LineIndex(utf8: Array(initial.utf8))
            for step in 0..<24 {
                var changes: [TextDocumentContentChangeEvent] = []
                for _ in 0..<(1 + random.below(3)) {
                    let change = client.randomChange(&random, encoding: encoding)
                    client.apply(change, encoding: encoding)
                    changes.append(change)
                }
                server = TextSynchronization.applying(changes, to: server, encoding: encoding)
                if server.utf8 != Array(client.text.utf8) {
                    return Failure("\(encoding.rawValue), edit \(step): the server holds \(String(decoding: server.utf8, as: UTF8.self).debugDescription), the client \(client.text.debugDescription)")
                }
            }
        }
        return nil
    }

    /// FNV-1a of the input: the seed of what a check derives from it.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}

/// A client's copy of a document, edited as the LSP specification says: a position past a line's
/// end means the line's end, a line past the last means the document's end.
struct SyncClient {
    var text: String

    /// Lines as (start, end before the line break) in UTF-8 offsets.
    var lines: [(start: Int, end: Int)] {
        let bytes = Array(text.utf8)
        var result: [(Int, Int)] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A || bytes[index] == 0x0D {
                result.append((start, index))
                index += bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        result.append((start, bytes.count))
        return result
    }

    /// How many units of `encoding` a column counts for `scalar`.
    static func width(_ scalar: Unicode.Scalar, _ encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: UTF8.width(scalar)
        case .utf16: UTF16.width(scalar)
        case .utf32: 1
        }
    }

    /// The UTF-8 offset of `position`, columns counted in `encoding`; positions are made only at
    /// character boundaries or past the end.
    func offset(_ position: LSPPosition, encoding: PositionEncoding) -> Int {
        let lines = self.lines
        guard position.line < lines.count else { return text.utf8.count }
        let line = lines[position.line]
        let bytes = Array(text.utf8)
        let lineText = String(decoding: bytes[line.start..<line.end], as: UTF8.self)
        var units = 0
        var offset = line.start
        for scalar in lineText.unicodeScalars {
            if units >= position.character { break }
            units += SyncClient.width(scalar, encoding)
            offset += UTF8.width(scalar)
        }
        return min(offset, line.end)
    }

    /// A random position: at a character boundary of a line, or past a line's end, or on a line
    /// past the last.
    func randomPosition(_ random: inout FuzzRandom, encoding: PositionEncoding) -> LSPPosition {
        let lines = self.lines
        let line = random.oneIn(10) ? lines.count + random.below(3) : random.below(lines.count)
        guard line < lines.count else { return LSPPosition(line: line, character: random.below(5)) }
        let bytes = Array(text.utf8)
        let scalars = Array(String(decoding: bytes[lines[line].start..<lines[line].end], as: UTF8.self).unicodeScalars)
        if random.oneIn(8) {
            let width = scalars.reduce(0) { $0 + SyncClient.width($1, encoding) }
            return LSPPosition(line: line, character: width + 1 + random.below(10))
        }
        let count = random.below(scalars.count + 1)
        let character = scalars.prefix(count).reduce(0) { $0 + SyncClient.width($1, encoding) }
        return LSPPosition(line: line, character: character)
    }

    func randomChange(_ random: inout FuzzRandom, encoding: PositionEncoding) -> TextDocumentContentChangeEvent {
        let pieces = ["", "x", "\n", "\r\n", "é", "😀", "日本", "ab\ncd", "\r", " "]
        if random.oneIn(40) { return TextDocumentContentChangeEvent(range: nil, text: random.pick(pieces) + "whole") }
        var start = randomPosition(&random, encoding: encoding)
        var end = random.oneIn(3) ? start : randomPosition(&random, encoding: encoding)
        if offset(end, encoding: encoding) < offset(start, encoding: encoding) { swap(&start, &end) }
        return TextDocumentContentChangeEvent(range: LSPRange(start: start, end: end), text: random.pick(pieces))
    }

    mutating func apply(_ change: TextDocumentContentChangeEvent, encoding: PositionEncoding) {
        guard let range = change.range else {
            text = change.text
            return
        }
        var bytes = Array(text.utf8)
        let start = offset(range.start, encoding: encoding)
        let end = max(start, offset(range.end, encoding: encoding))
        bytes.replaceSubrange(start..<end, with: Array(change.text.utf8))
        text = String(decoding: bytes, as: UTF8.self)
    }
}
