import XCTest
import TestSupport
@testable import MarkdownSyntax
import TextCore

/// Data-driven tests of the inline pass: each case is Markdown and the expected dump of the inline
/// nodes of its first leaf block (see `InlineDump`).
final class InlineTests: XCTestCase {
    // MARK: CommonMark

    func testCommonMarkInlines() {
        check(.commonmark, [
            ("hello *world*", #"text"hello " emphasis(text"world")"#),
            ("**a** _b_", #"strong(text"a") text" " emphasis(text"b")"#),
            ("***x***", #"emphasis(strong(text"x"))"#),
            ("*a _b* c_", #"emphasis(text"a _b") text" c_""#),
            ("foo*bar*", #"text"foo" emphasis(text"bar")"#),
            ("foo_bar_", #"text"foo_bar_""#),
            ("*foo**bar**baz*", #"emphasis(text"foo" strong(text"bar") text"baz")"#),
            ("`code` span", #"code"code" text" span""#),
            ("``a ` b``", #"code"a ` b""#),
            ("`unclosed", #"text"`unclosed""#),
            ("a  \nb\\\nc\nd", #"text"a" hardBreak text"b" hardBreak text"c" softBreak text"d""#),
            ("trailing  ", #"text"trailing""#),
            ("\\*not\\* &amp; &#42;", #"text!"\*not\* &amp; &#42;""#),
            ("[t](/u \"ti\")", #"link<inline dest=/u title=ti>(text"t")"#),
            ("[t](<a b> 'x')", #"link<inline dest=a b title=x>(text"t")"#),
            ("[t]()", #"link<inline dest=>(text"t")"#),
            ("![alt *e*](i.png)", #"image<inline dest=i.png>(text"alt " emphasis(text"e"))"#),
            ("[r]\n\n[r]: /x", #"link<shortcut def=0>(text"r")"#),
            ("[R][]\n\n[r]: /x", #"link<collapsed def=0>(text"R")"#),
            ("[text][R]\n\n[r]: /x", #"link<full def=0>(text"text")"#),
            ("[missing]", #"text"[missing]""#),
            ("[a [b](/c)](/d)", #"text"[a " link<inline dest=/c>(text"b") text"](/d)""#),
            ("![a [b](/c)](/d)", #"image<inline dest=/d>(text"a " link<inline dest=/c>(text"b"))"#),
            ("**x [a*b**c*](d)", #"text"**x " link<inline dest=d>(text"a" emphasis(text"b**c"))"#),
            ("<https://a.b/c>", #"autolink<uriAutolink dest=https://a.b/c>(text"https://a.b/c")"#),
            ("<a@b.co>", #"autolink<emailAutolink dest=a@b.co>(text"a@b.co")"#),
            ("a <b class=\"x\"> c <!-- k -->", #"text"a " inlineHTML"<b class="x">" text" c " inlineHTML"<!-- k -->""#),
            ("x <!--> <!---> <?p?> <!DOC x> <![CDATA[y]]>",
             #"text"x " inlineHTML"<!-->" text" " inlineHTML"<!--->" text" " inlineHTML"<?p?>" text" " inlineHTML"<!DOC x>" text" " inlineHTML"<![CDATA[y]]>""#),
            ("x <!-- unclosed", #"text"x <!-- unclosed""#),
            ("*€*", #"emphasis(text"€")"#),
            ("a*\"foo\"*", #"text"a*"foo"*""#),
            ("http://x.y www.x.y a@b.co ~~s~~", #"text"http://x.y www.x.y a@b.co ~~s~~""#),
            ("[[note]] #tag $x$", #"text"[[note]] #tag $x$""#),
        ])
    }

    // MARK: GFM

    func testGFMInlines() {
        check(.gfm, [
            ("~~s~~ ~t~", #"strikethrough(text"s") text" " strikethrough(text"t")"#),
            ("x ~~~no~~~ ~mis~~", #"text"x ~~~no~~~ ~mis~~""#),
            ("www.x.com/a.", #"autolink<wwwAutolink dest=www.x.com/a>(text"www.x.com/a") text".""#),
            ("(see https://x.org/q?(a))", #"text"(see " autolink<urlAutolink dest=https://x.org/q?(a)>(text"https://x.org/q?(a)") text")""#),
            ("mail a.b@c.de.", #"text"mail " autolink<extendedEmailAutolink dest=a.b@c.de>(text"a.b@c.de") text".""#),
            ("mailto:a@b.cd", #"autolink<urlAutolink dest=mailto:a@b.cd>(text"mailto:a@b.cd")"#),
            ("www.google.com/search?q=commonmark&hl;", #"autolink<wwwAutolink dest=www.google.com/search?q=commonmark>(text"www.google.com/search?q=commonmark") text!"&hl;""#),
            ("[www.x.com](/u)", #"link<inline dest=/u>(text"www.x.com")"#),
            ("x[^1] y[^none]\n\n[^1]: note", #"text"x" footnoteReference"[^1]" text" y[^none]""#),
            ("[^_a_]", #"text"[^_a_]""#),
        ])
    }

    // MARK: Notebook

    func testNotebookInlines() {
        check(.notebook, [
            ("see [[note]] and ![[img.png]]", #"text"see " wikiLink<note>(text"note") text" and " wikiLink<embed img.png>(text"img.png")"#),
            ("[[note#H#Sub|Label]]", #"wikiLink<note #H #Sub |Label>(text"Label")"#),
            ("[[#Heading]]", ##"wikiLink< #Heading>(text"#Heading")"##),
            ("[[note#^b-1]] [[note^b2]]", #"wikiLink<note ^b-1>(text"note#^b-1") text" " wikiLink<note ^b2>(text"note^b2")"#),
            ("[[a\nb]] [[]]", #"text"[[a" softBreak text"b]] [[]]""#),
            ("#tag and #nested/tag, a#no #123 (#ok)", ##"tag"#tag" text" and " tag"#nested/tag" text", a#no #123 (" tag"#ok" text")""##),
            ("[a #t](u) #ok", ##"link<inline dest=u>(text"a #t") text" " tag"#ok""##),
            ("#überfahrt #日本", ##"tag"#überfahrt" text" " tag"#日本""##),
            ("`#code` [l](#x) <a href=\"#y\"> &#35;z", ##"code"#code" text" " link<inline dest=#x>(text"l") text" " inlineHTML"<a href="#y">" text!" &#35;z""##),
            ("$x^2$ and $$y$$", #"inlineMath"x^2" text" and " displayMath"y""#),
            ("cost $5 and $6", #"text"cost $5 and $6""#),
            // The first `$` after an opener decides: before a digit or after a space, no maths.
            ("$5 and $6, $ a$", #"text"$5 and $6, $ a$""#),
            ("$a\\$b$", #"inlineMath"a\$b""#),
            ("\\$x$", #"text!"\$x$""#),
            ("para text ^abc-1", #"text"para text" blockID"^abc-1""#),
            ("line one\n^id9", #"text"line one" blockID"^id9""#),
            ("no^id", #"text"no^id""#),
        ])
    }

    func testHeadingsAndTableCellsParseInlines() {
        let tree = MarkdownParser.parse("# A *b*\n\n| x | `y` |\n|---|---|\n", options: .gfm)
        var dumps: [String] = []
        for index in tree.nodes.indices where tree.nodes[index].kind.hasInlineContent && tree.nodes[index].parent != .none {
            dumps.append(InlineDump.dump(tree, NodeID(index)))
        }
        XCTAssertEqual(dumps, [#"text"A " emphasis(text"b")"#, #"text"x""#, #"code"y""#])
    }

    // MARK: Source ranges

    func testLinkSourceRanges() {
        let source = "> quote [the *text*](/dest \"a title\")\n> more\n"
        let tree = MarkdownParser.parse(source, options: .commonmark)
        guard let link = firstNode(.link, in: tree) else { return XCTFail("no link") }
        guard let info = tree.links[safe: Int(tree[link].data)] else { return XCTFail("no link info") }
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.destination)), "/dest")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.title)), "a title")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.text)), "the *text*")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: link)), "[the *text*](/dest \"a title\")")
        guard let emphasis = firstNode(.emphasis, in: tree) else { return XCTFail("no emphasis") }
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: emphasis)), "*text*")
        guard let softBreak = firstNode(.softBreak, in: tree) else { return XCTFail("no break") }
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: softBreak)), "\n")
        guard let last = tree[tree[link].parent].lastChild as NodeID?, last != .none else { return XCTFail() }
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: last)), "more")
    }

    func testReferenceLinkSourceRanges() {
        let source = "- see [Text][Ref]\n\n  [ref]: /u\n"
        let tree = MarkdownParser.parse(source, options: .commonmark)
        guard let link = firstNode(.link, in: tree) else { return XCTFail("no link") }
        guard let info = tree.links[safe: Int(tree[link].data)] else { return XCTFail("no link info") }
        XCTAssertEqual(info.form, .full)
        XCTAssertEqual(info.definition, 0)
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.label)), "Ref")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.text)), "Text")
    }

    func testWikiLinkSourceRanges() {
        let source = "> see [[My Note#Head#Sub^blk-1|Shown label]] now\n"
        let tree = MarkdownParser.parse(source, options: .notebook)
        guard let wiki = firstNode(.wikiLink, in: tree) else { return XCTFail("no wiki-link") }
        guard let info = tree.wikiLinks[safe: Int(tree[wiki].data)] else { return XCTFail("no wiki-link info") }
        XCTAssertFalse(info.isEmbed)
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: wiki)), "[[My Note#Head#Sub^blk-1|Shown label]]")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.target)), "My Note")
        XCTAssertEqual(info.headings.map { sourceText(tree, tree.sourceRange(forContent: $0)) }, ["Head", "Sub"])
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.blockID)), "blk-1")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(forContent: info.label)), "Shown label")
        XCTAssertTrue(info.hasLabel)

        let embed = MarkdownParser.parse("![[note#^abc|x]]", options: .notebook)
        guard let node = firstNode(.wikiLink, in: embed) else { return XCTFail("no embed") }
        guard let embedInfo = embed.wikiLinks[safe: Int(embed[node].data)] else { return XCTFail("no embed info") }
        XCTAssertTrue(embedInfo.isEmbed)
        XCTAssertTrue(embedInfo.hasBlockID)
        XCTAssertEqual(sourceText(embed, embed.sourceRange(forContent: embedInfo.blockID)), "abc")
        XCTAssertEqual(sourceText(embed, embed.sourceRange(forContent: embedInfo.inner)), "note#^abc|x")
    }

    func testTagAndMathSourceRanges() {
        let tree = MarkdownParser.parse("> a #t/x and $y$\n", options: .notebook)
        guard let tag = firstNode(.tag, in: tree), let math = firstNode(.inlineMath, in: tree) else { return XCTFail() }
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: tag)), "#t/x")
        XCTAssertEqual(sourceText(tree, tree.sourceRange(of: math)), "$y$")
        XCTAssertEqual(String(decoding: tree.contentBytes(of: math), as: UTF8.self), "y")
        // `\(…\)` and `\[…\]`: the source takes the delimiters, the content is the TeX between.
        let backslashes = MarkdownParser.parse("- a \\(x\\) b\n  \\[\n  y\n  \\]\n", options: .notebook)
        guard let inline = firstNode(.inlineMath, in: backslashes), let display = firstNode(.displayMath, in: backslashes) else {
            return XCTFail()
        }
        XCTAssertEqual(sourceText(backslashes, backslashes.sourceRange(of: inline)), "\\(x\\)")
        XCTAssertEqual(String(decoding: backslashes.contentBytes(of: inline), as: UTF8.self), "x")
        XCTAssertEqual(sourceText(backslashes, backslashes.sourceRange(of: display)), "\\[\n  y\n  \\]")
        XCTAssertEqual(String(decoding: backslashes.contentBytes(of: display), as: UTF8.self), "\ny\n")
    }

    // MARK: Shared scanners

    func testLinkDefinitionScanner() {
        let cases: [(String, String?)] = [
            ("[foo]: /url \"title\"\nrest", "foo|/url|title|20"),
            ("[foo]:\n<a b>\n'multi\nline'", "foo|a b|multi\nline|25"),
            ("[foo]: /url \"title\" junk", nil),
            ("[foo]: /url\n\"title\" junk", "foo|/url||12"),
            ("[ ]: /url", nil),
            ("[foo]: <bar>(baz)", nil),
            ("[foo]:", nil),
            ("[a\\]b]: x", "a\\]b|x||9"),
        ]
        for (input, expected) in cases {
            let bytes = Array(input.utf8)
            let result = bytes.withUnsafeBufferPointer { LinkScanners.scanLinkDefinition($0, start: 0, end: $0.count) }
            let dump = result.map { definition -> String in
                func text(_ span: ByteSpan) -> String { bytes.text(span.range) }
                return "\(text(definition.label))|\(text(definition.destination))|\(text(definition.title))|\(definition.end)"
            }
            XCTAssertEqual(dump, expected, input.debugDescription)
        }
    }

    func testNormalizeLabel() {
        func normalize(_ text: String) -> String {
            Array(text.utf8).withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) }
        }
        XCTAssertEqual(normalize("  Foo \t\n Bar  "), "foo bar")
        XCTAssertEqual(normalize("ẞ"), normalize("SS"))
        XCTAssertEqual(normalize("ΑΓΩ"), normalize("αγω"))
    }

    // MARK: Robustness and linearity

    func testPathologicalInputsStayFast() {
        let inputs: [String] = [
            String(repeating: "*a **a ", count: 3000) + "b" + String(repeating: " a** a*", count: 3000),
            String(repeating: "![[]()", count: 20000),
            String(repeating: "[", count: 5000) + "a" + String(repeating: "]", count: 5000),
            String(repeating: "*a ", count: 5000) + String(repeating: "_a*_ ", count: 5000),
            "a**b" + String(repeating: "c* ", count: 5000),
            String(repeating: "[a](<b", count: 5000),
            String(repeating: "[ (](", count: 5000),
            "</" + String(repeating: "<!--", count: 20000),
            String(repeating: "a@", count: 20000),
            String(repeating: "$a ", count: 20000),
            String(repeating: "<?", count: 20000) + String(repeating: "<![CDATA[", count: 5000),
        ]
        let start = Date()
        for input in inputs {
            let tree = MarkdownParser.parse(input, options: .notebook)
            XCTAssertGreaterThan(tree.nodes.count, 1)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "inline pass is not linear")
        var backticks = ""
        for length in 1..<400 { backticks += "e" + String(repeating: "`", count: length) }
        let tree = MarkdownParser.parse(backticks, options: .commonmark)
        XCTAssertNil(firstNode(.code, in: tree))
    }

    func testDeepEmphasisNests() {
        let depth = 2000
        let tree = MarkdownParser.parse(String(repeating: "*a **a ", count: depth) + "b" + String(repeating: " a** a*", count: depth),
                                        options: .commonmark)
        var nesting = 0
        let paragraph = tree.nodes.indices.first { tree.nodes[$0].kind == .paragraph }.map { NodeID($0) } ?? .none
        var node = paragraph == .none ? .none : tree[paragraph].firstChild
        while node != .none {
            nesting += 1
            var next: NodeID = .none
            for child in tree.children(of: node) where tree[child].kind == .emphasis || tree[child].kind == .strong {
                next = child
            }
            node = next
        }
        XCTAssertEqual(nesting, depth * 2)
    }

    func testMalformedUTF8AndControlBytes() {
        let bytes: [UInt8] = [0x2A, 0xFF, 0x2A, 0x20, 0x5F, 0xE2, 0x82, 0x5F, 0x00, 0x5B, 0xF0, 0x9F, 0x5D, 0x28, 0x29, 0x23, 0xC3]
        let tree = MarkdownParser.parse(bytes, options: .notebook)
        XCTAssertGreaterThan(tree.nodes.count, 1)
    }

    /// Random token soup: every attached inline node has ordered ranges inside its block's content
    /// and inside its parent's ranges, and source ranges inside the source.
    func testRangesStayNestedOnRandomInput() {
        let tokens = ["*", "**", "_", "[", "]", "(", ")", "![", "[[", "]]", "|", "#", "^", "$", "$$", "\\", "\n",
                      "&amp;", "<", ">", "`", "~~", "www.", "http://", "@", ".", "a", "é", "日", " ", "  \n", "-",
                      "/", ":", "\"", "<!--", "-->", "<a b=\"", "mailto:", "[^1]", "^id", "\t", "> ", "- "]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<1500 {
            var text = ""
            for _ in 0..<(1 + next(20)) { text += tokens[next(tokens.count)] }
            text += ["", "\n\n[^1]: x\n", "\n\n[a]: /u\n"][next(3)]
            let tree = MarkdownParser.parse(text, options: .notebook)
            for index in tree.nodes.indices where !tree.nodes[index].kind.isBlock && tree.nodes[index].parent != .none {
                let node = tree.nodes[index]
                let parent = tree.nodes[Int(node.parent)]
                XCTAssertLessThanOrEqual(node.contentStart, node.contentEnd, text.debugDescription)
                XCTAssertLessThanOrEqual(node.sourceStart, node.sourceEnd, text.debugDescription)
                XCTAssertLessThanOrEqual(Int(node.sourceEnd), tree.source.count, text.debugDescription)
                XCTAssertGreaterThanOrEqual(node.contentStart, parent.contentStart, text.debugDescription)
                XCTAssertLessThanOrEqual(node.contentEnd, parent.contentEnd, text.debugDescription)
                XCTAssertGreaterThanOrEqual(node.sourceStart, parent.sourceStart, text.debugDescription)
                XCTAssertLessThanOrEqual(node.sourceEnd, parent.sourceEnd, text.debugDescription)
            }
        }
    }

    // MARK: Helpers

    private func check(_ options: ParseOptions, _ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        InlineDump.check(options, cases, file: file, line: line)
    }

    private func firstNode(_ kind: NodeKind, in tree: SyntaxTree) -> NodeID? {
        tree.nodes.indices.first { tree.nodes[$0].kind == kind && tree.nodes[$0].parent != .none }.map { NodeID($0) }
    }

    private func sourceText(_ tree: SyntaxTree, _ range: Range<Int>) -> String {
        tree.source.text(range)
    }
}

/// A compact, readable dump of the inline children of a node, used as golden text in tests:
/// `text"…"` (`text!"…"` when it needs decoding), `code"…"`, `kind<details>(children)`.
enum InlineDump {
    /// Checks each `(markdown, dump)`: the inline tree of the first leaf block of `markdown`
    /// parsed with `options`, compared by `Expect` (`MACMD_BLESS=1` writes it into the test).
    static func check(_ options: ParseOptions, _ cases: [(String, String)], file: StaticString, line: UInt) {
        for (markdown, expected) in cases {
            let tree = MarkdownParser.parse(markdown, options: options)
            guard let block = tree.nodes.indices.first(where: { tree.nodes[$0].kind.hasInlineContent && tree.nodes[$0].parent != .none }) else {
                XCTFail("no leaf block for \(markdown.debugDescription)", file: file, line: line)
                continue
            }
            Expect.equal(dump(tree, NodeID(block)), expected, fixture: markdown, file: file, line: line)
        }
    }

    static func dump(_ tree: SyntaxTree, _ parent: NodeID) -> String {
        tree.children(of: parent).map { node(tree, $0) }.joined(separator: " ")
    }

    static func node(_ tree: SyntaxTree, _ id: NodeID) -> String {
        let node = tree[id]
        let content = String(decoding: tree.contentBytes(of: id), as: UTF8.self)
        func text(_ span: ByteSpan) -> String { tree.content.text(span.range) }
        switch node.kind {
        case .text:
            return (node.flags & Node.textNeedsDecoding != 0 ? "text!" : "text") + "\"\(content)\""
        case .code, .inlineHTML, .tag, .blockID, .inlineMath, .displayMath, .footnoteReference:
            return "\(node.kind)\"\(content)\""
        case .softBreak, .hardBreak:
            return "\(node.kind)"
        case .link, .image, .autolink:
            let info = tree.links[Int(node.data)]
            var details = "\(info.form)"
            if info.definition >= 0 {
                details += " def=\(info.definition)"
            } else {
                details += " dest=\(text(info.destination))"
            }
            if info.hasTitle { details += " title=\(text(info.title))" }
            return "\(node.kind)<\(details)>(\(dump(tree, id)))"
        case .wikiLink:
            let info = tree.wikiLinks[Int(node.data)]
            var details = info.isEmbed ? "embed " : ""
            details += text(info.target)
            for heading in info.headings { details += " #" + text(heading) }
            if info.hasBlockID { details += " ^" + text(info.blockID) }
            if info.hasLabel { details += " |" + text(info.label) }
            return "wikiLink<\(details)>(\(dump(tree, id)))"
        default:
            return "\(node.kind)(\(dump(tree, id)))"
        }
    }
}
