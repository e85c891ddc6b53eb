import XCTest
import MarkdownSyntax
import TestSupport
@testable import MarkdownHTML
import TextCore

final class HTMLRendererTests: XCTestCase {
    // MARK: Core output

    func testParagraphEscapingAndDecoding() {
        var builder = TreeBuilder()
        builder.paragraph(#"a &amp; b \* &#0; &nosuch; <x> "q""#, decode: true)
        XCTAssertEqual(builder.html(), "<p>a &amp; b * \u{FFFD} &amp;nosuch; &lt;x&gt; &quot;q&quot;</p>\n")
    }

    func testInvalidUTF8AndNULBecomeReplacementCharacters() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        let span = builder.content(bytes: [0x61, 0x00, 0x62, 0xFF, 0x63, 0xE2, 0x82, 0x64, 0xC3, 0xA9])
        var text = Node(kind: .text, contentStart: span.start, contentEnd: span.end)
        text.flags = 0
        let id = builder.tree.makeNode(text)
        builder.tree.appendChild(id, to: paragraph)
        XCTAssertEqual(builder.html(), "<p>a\u{FFFD}b\u{FFFD}c\u{FFFD}dé</p>\n")
    }

    /// Clean content is written without the repair, but a text node that a tree cuts inside a
    /// character is still repaired.
    func testATextCutInsideACharacterOfCleanContentIsRepaired() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        let span = builder.content(bytes: Array("<é中>".utf8))
        // "<" é (2 bytes) 中 (3 bytes) ">", cut after the first byte of each character.
        for (start, end) in [(0, 2), (2, 4), (4, 7)] {
            let text = Node(kind: .text, contentStart: span.start + Int32(start), contentEnd: span.start + Int32(end))
            let id = builder.tree.makeNode(text)
            builder.tree.appendChild(id, to: paragraph)
        }
        XCTAssertEqual(builder.html(), "<p>&lt;\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}&gt;</p>\n")
    }

    func testTightAndLooseListsAndTasks() {
        var builder = TreeBuilder()
        let tight = builder.add(.list, flags: Node.listTight)
        let first = builder.add(.item, to: tight, flags: TaskState.checked.rawValue)
        builder.paragraph("done", to: first)
        let second = builder.add(.item, to: tight, flags: TaskState.unchecked.rawValue)
        builder.paragraph("todo", to: second)
        let loose = builder.add(.list, flags: Node.listOrdered, data: 3)
        let item = builder.add(.item, to: loose)
        builder.paragraph("one", to: item)
        builder.paragraph("two", to: item)
        XCTAssertEqual(builder.html(), """
            <ul>
            <li><input type="checkbox" checked="" disabled="" /> done</li>
            <li><input type="checkbox" disabled="" /> todo</li>
            </ul>
            <ol start="3">
            <li>
            <p>one</p>
            <p>two</p>
            </li>
            </ol>

            """)
    }

    func testCodeBlockUsesFirstDecodedWordOfInfo() {
        var builder = TreeBuilder(source: "``` rust&#x20;extra\n", extensions: [])
        builder.tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: 0x60, fenceLength: 3,
                                                     info: ByteSpan(4, 19)))
        builder.add(.codeBlock, text: "fn <main>\n", data: 0)
        builder.tree.codeBlocks.append(CodeBlockInfo(isFenced: false))
        builder.add(.codeBlock, text: "plain\n", data: 1)
        XCTAssertEqual(builder.html(), """
            <pre><code class="language-rust">fn &lt;main&gt;
            </code></pre>
            <pre><code>plain
            </code></pre>

            """)
    }

    func testCodeSpanNormalisation() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        builder.add(.code, to: paragraph, text: " a\nb ")
        builder.add(.code, to: paragraph, text: "  ")
        builder.add(.code, to: paragraph, text: " `` ")
        XCTAssertEqual(builder.html(), "<p><code>a b</code><code>  </code><code>``</code></p>\n")
    }

    func testLinksImagesAndHrefEscaping() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        builder.link("a", destination: #"/url?x=1&y="2" ä\)"#, title: "t &amp; \"q\"", to: paragraph)
        let image = builder.link("", destination: "img.png", title: "T", image: true, to: paragraph)
        let emphasis = builder.add(.emphasis, to: image)
        builder.add(.text, to: emphasis, text: "alt <b>")
        builder.add(.softBreak, to: image)
        builder.add(.code, to: image, text: "c")
        XCTAssertEqual(builder.html(),
                       #"<p><a href="/url?x=1&amp;y=%222%22%20%C3%A4)" title="t &amp; &quot;q&quot;">a</a>"#
                       + #"<img src="img.png" alt="alt &lt;b&gt; c" title="T" /></p>"# + "\n")
    }

    func testStrongCollapsingForGitHub() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        let outer = builder.add(.strong, to: paragraph)
        let inner = builder.add(.strong, to: outer)
        builder.add(.text, to: inner, text: "x")
        XCTAssertEqual(builder.html(.commonmarkSpec), "<p><strong><strong>x</strong></strong></p>\n")
        XCTAssertEqual(builder.html(.gfmSpec), "<p><strong>x</strong></p>\n")
    }

    func testTable() {
        var builder = TreeBuilder()
        let table = builder.add(.table)
        let header = builder.add(.tableRow, to: table, flags: Node.tableHeader)
        builder.add(.tableCell, to: header, text: nil, data: TableAlignment.left.rawValue)
        builder.add(.tableCell, to: header, data: TableAlignment.none.rawValue)
        let headerOnly = builder.html()
        XCTAssertEqual(headerOnly, """
            <table>
            <thead>
            <tr>
            <th align="left"></th>
            <th></th>
            </tr>
            </thead>
            </table>

            """)
        let row = builder.add(.tableRow, to: table)
        let cell = builder.add(.tableCell, to: row, data: TableAlignment.left.rawValue)
        builder.add(.text, to: cell, text: "x")
        builder.add(.tableCell, to: row, data: TableAlignment.none.rawValue)
        XCTAssertEqual(builder.html(), """
            <table>
            <thead>
            <tr>
            <th align="left"></th>
            <th></th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td align="left">x</td>
            <td></td>
            </tr>
            </tbody>
            </table>

            """)
    }

    func testTagFilter() {
        var builder = TreeBuilder(extensions: [.tagfilter])
        builder.add(.htmlBlock, text: "<div><script>x</script><scripts> <Title/> <title\n")
        let paragraph = builder.add(.paragraph)
        builder.add(.inlineHTML, to: paragraph, text: "<xmp>")
        builder.add(.inlineHTML, to: paragraph, text: "<em>")
        XCTAssertEqual(builder.html(),
                       "<div>&lt;script>x&lt;/script><scripts> &lt;Title/> &lt;title\n<p>&lt;xmp><em></p>\n")
    }

    // MARK: Safe mode

    func testSafeModeDropsRawHTMLAndDangerousURLs() {
        var builder = TreeBuilder()
        builder.add(.htmlBlock, text: "<script>alert(1)</script>\n")
        let paragraph = builder.add(.paragraph)
        builder.add(.inlineHTML, to: paragraph, text: "<b>")
        builder.link("js", destination: "JavaScript:alert(1)", to: paragraph)
        builder.link("data", destination: "data:text/html,x", to: paragraph)
        builder.link("png", destination: "data:image/png;base64,AA", image: true, to: paragraph)
        builder.link("ok", destination: "https://example.com", to: paragraph)
        XCTAssertEqual(builder.html(HTMLOptions()), """
            <!-- raw HTML omitted -->
            <p><!-- raw HTML omitted --><a href="">js</a><a href="">data</a>\
            <img src="data:image/png;base64,AA" alt="png" /><a href="https://example.com">ok</a></p>

            """)
        XCTAssertTrue(builder.html(HTMLOptions(safe: false)).contains(#"<a href="JavaScript:alert(1)">"#))
    }

    // MARK: Source lines and heading ids

    func testSourceLines() {
        let source = "# Title\n\ntext\r\n\r\n- item\n"
        var builder = TreeBuilder(source: source)
        let heading = builder.add(.heading, data: 1, sourceStart: 0)
        builder.add(.text, to: heading, text: "Title")
        builder.paragraph("text", sourceStart: 9)
        let list = builder.add(.list, flags: Node.listTight, sourceStart: 17)
        let item = builder.add(.item, to: list, sourceStart: 17)
        builder.paragraph("item", to: item, sourceStart: 19)
        XCTAssertEqual(builder.html(HTMLOptions(sourceLines: true)), """
            <h1 data-source-line="1">Title</h1>
            <p data-source-line="3">text</p>
            <ul data-source-line="5">
            <li data-source-line="5">item</li>
            </ul>

            """)
    }

    func testHeadingIDs() {
        var builder = TreeBuilder()
        for title in ["Hello, World!", "Hello, World!", "Über Straße — 日本語 café", "snake_case & dash-es", "Hello, World!"] {
            let heading = builder.add(.heading, data: 2)
            builder.add(.text, to: heading, text: title)
        }
        let code = builder.add(.heading, data: 3)
        builder.add(.code, to: code, text: "x.y()")
        let html = builder.html(HTMLOptions(headingIDs: true))
        XCTAssertTrue(html.contains(#"<h2 id="hello-world">Hello, World!</h2>"#), html)
        XCTAssertTrue(html.contains(#"<h2 id="hello-world-1">"#), html)
        XCTAssertTrue(html.contains(#"<h2 id="hello-world-2">"#), html)
        XCTAssertTrue(html.contains(#"<h2 id="über-straße--日本語-café">"#), html)
        XCTAssertTrue(html.contains(#"<h2 id="snake_case--dash-es">"#), html)
        XCTAssertTrue(html.contains(#"<h3 id="xy"><code>x.y()</code></h3>"#), html)
        XCTAssertFalse(builder.html().contains("id="))
    }

    // MARK: GitHub and notebook constructs

    func testAlert() {
        var builder = TreeBuilder()
        let quote = builder.add(.blockQuote, flags: AlertKind.warning.rawValue)
        builder.paragraph("Careful.", to: quote)
        XCTAssertEqual(builder.html(), """
            <div class="markdown-alert markdown-alert-warning">
            <p class="markdown-alert-title">Warning</p>
            <p>Careful.</p>
            </div>

            """)
    }

    func testNotebookInlines() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        let target = builder.content("My Note")
        let heading = builder.content("Some Heading")
        builder.tree.wikiLinks.append(WikiLinkInfo(isEmbed: false, target: target, headings: [heading], inner: .empty))
        builder.add(.wikiLink, to: paragraph, data: 0)
        let label = builder.content("label")
        let block = builder.content("abc")
        builder.tree.wikiLinks.append(WikiLinkInfo(isEmbed: false, target: target, blockID: block, hasBlockID: true,
                                                   label: label, hasLabel: true, inner: .empty))
        builder.add(.wikiLink, to: paragraph, flags: Node.unresolved, data: 1)
        let image = builder.content("pics/cat.PNG")
        builder.tree.wikiLinks.append(WikiLinkInfo(isEmbed: true, target: image, inner: .empty))
        builder.add(.wikiLink, to: paragraph, data: 2)
        builder.tree.wikiLinks.append(WikiLinkInfo(isEmbed: true, target: builder.content("Other"), inner: .empty))
        builder.add(.wikiLink, to: paragraph, data: 3)
        builder.add(.tag, to: paragraph, text: "#project/alpha")
        builder.add(.inlineMath, to: paragraph, text: "a<b")
        builder.add(.displayMath, to: paragraph, text: "x^2")
        builder.add(.blockID, to: paragraph, text: "^abc")
        XCTAssertEqual(builder.html(), #"<p><a class="wikilink" href="My%20Note.md#some-heading">My Note &gt; Some Heading</a>"#
                       + #"<a class="wikilink unresolved" href="My%20Note.md#%5Eabc">label</a>"#
                       + #"<img class="wikilink-embed" src="pics/cat.PNG" alt="pics/cat.PNG" />"#
                       + #"<a class="wikilink embed" href="Other.md">Other</a>"#
                       + ##"<a class="tag" href="#project/alpha">#project/alpha</a>"##
                       + #"<span class="math math-inline">\(a&lt;b\)</span>"#
                       + #"<span class="math math-display">\[x^2\]</span>"#
                       + #"<span class="block-id" id="^abc"></span></p>"# + "\n")
        let other = builder.html(HTMLOptions(safe: false, tagLinks: false, blockIDAnchors: false))
        XCTAssertTrue(other.contains(#"<span class="tag">#project/alpha</span>"#))
        XCTAssertFalse(other.contains("block-id"))
    }

    /// A table of destinations (the preview's notebook) decides each wiki-link's href and each
    /// image embed's src, once per distinct link; what reaches nothing loses its href; a link
    /// left undecided (nil) is written as without a table.
    func testWikiLinkDestinationsDecideHrefsAndSources() {
        let source = "[[soil#pH]] ![[pic.png|A pic]] [[Missing]] ![[gone.png]] [[dup]] [[twin]] [[#Local]] [[x]] [[soil#pH]]\n"
        let tree = MarkdownParser.parse(Array(source.utf8), options: .notebook)
        var asked: [WikiLinkReference] = []
        var options = HTMLOptions.notebookPreview
        options.wikiLinkDestinations = WikiLinkDestinations.resolving(tree) { reference in
            asked.append(reference)
            switch reference.target {
            case "soil": return .url("../garden/soil.md#ph")
            case "pic.png": return .url("img/pic%20one.png")
            case "Missing", "gone.png": return .broken
            case "dup": return .ambiguous(nil)
            case "twin": return .ambiguous("a/twin.md")
            case "x": return .url("javascript:alert(1)")
            default: return nil
            }
        }
        XCTAssertEqual(HTMLRenderer(options: options).renderString(tree), "<p>"
            + #"<a class="wikilink" href="../garden/soil.md#ph">soil &gt; pH</a> "#
            + #"<img class="wikilink-embed" src="img/pic%20one.png" alt="A pic" /> "#
            + #"<a class="wikilink broken">Missing</a> "#
            + #"<a class="wikilink embed broken">gone.png</a> "#
            + #"<a class="wikilink ambiguous">dup</a> "#
            + #"<a class="wikilink ambiguous" href="a/twin.md">twin</a> "#
            + ##"<a class="wikilink" href="#local">Local</a> "##
            + #"<a class="wikilink" href="">x</a> "#  // safe mode still empties a dangerous URL
            + #"<a class="wikilink" href="../garden/soil.md#ph">soil &gt; pH</a>"#
            + "</p>\n")
        XCTAssertEqual(asked.count, 8, "the repeated link is resolved once")
        XCTAssertEqual(asked.first, WikiLinkReference(isEmbed: false, target: "soil", headings: ["pH"]))
        XCTAssertEqual(asked[safe: 1], WikiLinkReference(isEmbed: true, target: "pic.png"))
        // Without a table (`macmd render`), links point at their target as written.
        XCTAssertTrue(HTMLRenderer(options: .notebookPreview).renderString(tree).contains(#"<img class="wikilink-embed" src="pic.png" alt="A pic" />"#))
        // A table made for another tree never traps: what it lacks is undecided.
        options.wikiLinkDestinations = WikiLinkDestinations(byIndex: [.broken])
        XCTAssertTrue(HTMLRenderer(options: options).renderString(tree).hasPrefix(#"<p><a class="wikilink broken">soil &gt; pH</a> <img class="wikilink-embed" src="pic.png""#))
    }

    func testMathBlocks() {
        var builder = TreeBuilder(source: "```math\n")
        builder.tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: 0x24, fenceLength: 2))
        builder.add(.mathBlock, text: "a & b\n", data: 0)
        builder.tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: 0x60, fenceLength: 3, info: ByteSpan(3, 7)))
        builder.add(.codeBlock, text: "\\frac12\n", data: 1)
        XCTAssertEqual(builder.html(), """
            <div class="math math-display">\\[a &amp; b\\]</div>
            <div class="math math-display">\\[\\frac12\\]</div>

            """)
    }

    func testFootnotes() {
        // "a[^x] b[^y] c[^x]" with definitions y then x then an unused one.
        let source = "[^x]: X\n[^y]: Y\n[^z]: Z\n"
        var builder = TreeBuilder(source: source, extensions: [.footnotes])
        let paragraph = builder.add(.paragraph)
        builder.add(.text, to: paragraph, text: "a")
        let labels = [ByteSpan(2, 3), ByteSpan(10, 11), ByteSpan(18, 19)]
        var definitionNodes: [NodeID] = []
        for (index, label) in labels.enumerated() {
            let node = builder.add(.footnoteDefinition, data: Int32(index))
            builder.paragraph(["X", "Y", "Z"][index], to: node)
            definitionNodes.append(node)
            builder.tree.footnoteDefinitions.append(FootnoteDefinition(label: label, normalizedLabel: "", node: node))
        }
        for definition in [1, 0, 1] {
            builder.tree.footnoteReferences.append(FootnoteReference(label: .empty, definition: Int32(definition)))
            builder.add(.footnoteReference, to: paragraph, data: Int32(builder.tree.footnoteReferences.count - 1))
        }
        XCTAssertEqual(builder.html(), """
            <p>a<sup class="footnote-ref"><a href="#fn-y" id="fnref-y" data-footnote-ref>1</a></sup>\
            <sup class="footnote-ref"><a href="#fn-x" id="fnref-x" data-footnote-ref>2</a></sup>\
            <sup class="footnote-ref"><a href="#fn-y" id="fnref-y-2" data-footnote-ref>1</a></sup></p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-y">
            <p>Y <a href="#fnref-y" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="1" \
            aria-label="Back to reference 1">↩</a> <a href="#fnref-y-2" class="footnote-backref" data-footnote-backref \
            data-footnote-backref-idx="1-2" aria-label="Back to reference 1-2">↩<sup class="footnote-ref">2</sup></a></p>
            </li>
            <li id="fn-x">
            <p>X <a href="#fnref-x" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="2" \
            aria-label="Back to reference 2">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }

    /// A definition nested in another is written once, as an entry of its own, and the outer
    /// one's back reference goes in its last paragraph, as cmark-gfm does (it unlinks every
    /// definition). Written inside the outer entry too, the section grew with the square of the
    /// nesting depth (`[^0]: [^1]: [^2]: …` on one line).
    func testNestedFootnoteDefinitionsAreWrittenOnce() {
        let source = "x[^0][^1][^2]\n\n[^0]: a\n    [^1]: [^2]: b\n\n    c\n"
        let html = HTMLRenderer().renderString(MarkdownParser.parse(Array(source.utf8), options: .gfm))
        XCTAssertEqual(html, """
            <p>x<sup class="footnote-ref"><a href="#fn-0" id="fnref-0" data-footnote-ref>1</a></sup>\
            <sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote-ref>2</a></sup>\
            <sup class="footnote-ref"><a href="#fn-2" id="fnref-2" data-footnote-ref>3</a></sup></p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-0">
            <p>a</p>
            <p>c <a href="#fnref-0" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="1" \
            aria-label="Back to reference 1">↩</a></p>
            </li>
            <li id="fn-1">
            <a href="#fnref-1" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="2" \
            aria-label="Back to reference 2">↩</a>
            </li>
            <li id="fn-2">
            <p>b <a href="#fnref-2" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="3" \
            aria-label="Back to reference 3">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }

    /// Footnotes are numbered in the order a reader meets their first reference: in a table's
    /// header row (the paragraph it was parsed as is dropped), in a quote, inside a definition.
    func testFootnotesAreNumberedInReadingOrderAcrossBlocks() {
        let source = "Intro [^b]\n[^a] | b\n--- | ---\nx [^b] | y [^a]\n\n> quote [^c]\n\n[^a]: A\n[^b]: B\n[^c]: C [^a]\n"
        let html = HTMLRenderer().renderString(MarkdownParser.parse(Array(source.utf8), options: .gfm))
        let numbers = html.split(separator: "data-footnote-ref>").dropFirst().map { $0.prefix { $0 != "<" } }
        XCTAssertEqual(numbers, ["1", "2", "1", "2", "3", "2"])
        let entries = html.split(separator: "<li id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(entries, ["fn-b", "fn-a", "fn-c"])
        XCTAssertTrue(html.contains("id=\"fnref-a-3\""), "the reference in C's definition is A's third")
    }

    func testFullPage() {
        var builder = TreeBuilder()
        let heading = builder.add(.heading, data: 1)
        builder.add(.text, to: heading, text: "A <Title>")
        let html = builder.html(HTMLOptions(fullPage: true))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n"))
        XCTAssertTrue(html.contains("<title>A &lt;Title&gt;</title>"))
        XCTAssertTrue(html.hasSuffix("<h1>A &lt;Title&gt;</h1>\n</article>\n</body>\n</html>\n"))
    }

    // MARK: Robustness

    func testDeepNestingDoesNotRecurse() {
        var builder = TreeBuilder()
        var parent = SyntaxTree.root
        let depth = 100_000
        for _ in 0..<depth { parent = builder.add(.blockQuote, to: parent) }
        builder.paragraph("deep", to: parent)
        var inline = builder.add(.paragraph)
        for _ in 0..<depth { inline = builder.add(.emphasis, to: inline) }
        let html = builder.html()
        XCTAssertTrue(html.hasPrefix("<blockquote>\n<blockquote>\n"))
        XCTAssertTrue(html.contains("<p>deep</p>\n</blockquote>\n"))
        XCTAssertTrue(html.hasSuffix("</em></em></p>\n"))
        _ = builder.html(HTMLOptions(headingIDs: true, fullPage: true))
    }

    func testBadIndicesNeverTrap() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        builder.add(.link, to: paragraph, data: 99)
        builder.add(.image, to: paragraph, data: -5)
        builder.add(.footnoteReference, to: paragraph, data: 7)
        builder.add(.wikiLink, to: paragraph, data: 3)
        builder.add(.codeBlock, data: 12)
        var broken = Node(kind: .text, contentStart: 50, contentEnd: 10)
        broken.flags = Node.textNeedsDecoding
        let id = builder.tree.makeNode(broken)
        builder.tree.appendChild(id, to: paragraph)
        _ = builder.html()
        _ = builder.html(HTMLOptions(sourceLines: true, headingIDs: true))
    }
}
