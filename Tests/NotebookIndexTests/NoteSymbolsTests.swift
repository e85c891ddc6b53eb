import MarkdownSyntax
@testable import NotebookIndex
import TextCore
import XCTest
import TestSupport

/// Fixture-driven tests of `NoteSymbols.extract`: every range is checked by slicing the source.
final class NoteSymbolsTests: XCTestCase {
    private func symbols(_ text: String, path: String = "garden/soil tests.md") -> (NoteSymbols, [UInt8]) {
        let source = Array(text.utf8)
        return (NoteSymbols.extract(from: MarkdownParser.parse(source), path: path), source)
    }

    private func slice(_ source: [UInt8], _ span: ByteSpan) -> String {
        guard span.start >= 0, Int(span.end) <= source.count, span.start <= span.end else { return "<bad range \(span)>" }
        return source.text(span.range)
    }

    // MARK: Title and aliases

    func testTitleComesFromFrontMatterThenFirstH1ThenFileStem() {
        let cases: [(text: String, title: String, source: NoteSymbols.TitleSource)] = [
            ("---\ntitle: Soil\n---\n# Heading\n", "Soil", .frontMatter),
            ("## Two\n\n# First *one*\n\n# Second\n", "First one", .firstHeading),
            ("Just text.\n", "soil tests", .fileStem),
        ]
        for c in cases {
            let (s, _) = symbols(c.text)
            XCTAssertEqual(s.title, c.title, c.text)
            XCTAssertEqual(s.titleSource, c.source, c.text)
        }
        XCTAssertEqual(NotebookPath.fileStem(of: "a/b.c/note.v2.md"), "note.v2")
        XCTAssertEqual(NotebookPath.fileStem(of: ".hidden"), ".hidden")
    }

    func testAliasesFromListOrCommaSeparatedScalar() {
        let cases: [(String, [String])] = [
            ("---\naliases: [Dirt, Earth]\n---\n", ["Dirt", "Earth"]),
            ("---\naliases:\n  - Dirt\n  - \"Top soil\"\n---\n", ["Dirt", "Top soil"]),
            ("---\nalias: Dirt, Earth ,  Loam\n---\n", ["Dirt", "Earth", "Loam"]),
            ("No front matter\n", []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(symbols(text).0.aliases, expected, text)
        }
    }

    // MARK: Headings

    func testHeadingsHaveLevelTextSlugAndRanges() {
        let text = """
        # Soil *tests*

        Intro.

        ## pH & lime
        Setext heading
        --------------
        ## pH & lime

        """
        let (s, source) = symbols(text)
        let got = s.headings.map { [String($0.level), $0.text, $0.slug, slice(source, $0.range), slice(source, $0.textRange)] }
        XCTAssertEqual(got, [
            ["1", "Soil tests", "soil-tests", "# Soil *tests*", "Soil *tests*"],
            ["2", "pH & lime", "ph--lime", "## pH & lime", "pH & lime"],
            ["2", "Setext heading", "setext-heading", "Setext heading\n--------------", "Setext heading"],
            ["2", "pH & lime", "ph--lime-1", "## pH & lime", "pH & lime"],
        ])
    }

    // MARK: Links

    /// One row per link: form, image?, target, heading parts, block id, label, and the source
    /// slices of the whole link and of each part.
    private func describe(_ link: LinkSymbol, _ source: [UInt8]) -> String {
        var parts = ["\(link.form)\(link.isImage ? " image" : "")", "range=\(slice(source, link.range))",
                     "target=\(link.target.text)@\(slice(source, link.target.range))"]
        for heading in link.headings { parts.append("heading=\(heading.text)@\(slice(source, heading.range))") }
        if let block = link.blockID { parts.append("block=\(block.text)@\(slice(source, block.range))") }
        if let label = link.label { parts.append("label=\(label.text)@\(slice(source, label.range))") }
        if let reference = link.referenceLabel { parts.append("ref=\(reference.text)@\(slice(source, reference.range))") }
        if let title = link.title { parts.append("title=\(title)") }
        return parts.joined(separator: " | ")
    }

    func testEveryLinkFormWithItsParts() {
        let text = """
        See [the *notes*](notes/a\\_b.md#Deep%20Dive "Title &amp; more") and ![plot](img/plot.png).
        Also [full][Ref], [ref][] and [REF], <https://example.com/x#y>, www.example.org.
        Same note: [up](#soil-tests) and block [b](other.md#^abc123).
        > [[garden/beds#Raised#Soil mix^blk|the beds]] and ![[diagram.png]] and [[#Local]].

        [ref]: <dest with space.md#Part> 'T'

        """
        let (s, source) = symbols(text)
        let got = s.links.map { describe($0, source) }
        let expected = [
            "inline | range=[the *notes*](notes/a\\_b.md#Deep%20Dive \"Title &amp; more\") | target=notes/a_b.md@notes/a\\_b.md | heading=Deep%20Dive@Deep%20Dive | label=the *notes*@the *notes* | title=Title & more",
            "inline image | range=![plot](img/plot.png) | target=img/plot.png@img/plot.png | label=plot@plot",
            "fullReference | range=[full][Ref] | target=dest with space.md@dest with space.md | heading=Part@Part | label=full@full | ref=ref@Ref | title=T",
            "collapsedReference | range=[ref][] | target=dest with space.md@dest with space.md | heading=Part@Part | label=ref@ref | ref=ref@ref | title=T",
            "shortcutReference | range=[REF] | target=dest with space.md@dest with space.md | heading=Part@Part | label=REF@REF | ref=ref@REF | title=T",
            "autolink | range=<https://example.com/x#y> | target=https://example.com/x#y@https://example.com/x#y",
            "autolink | range=www.example.org | target=www.example.org@www.example.org",
            "inline | range=[up](#soil-tests) | target=@ | heading=soil-tests@soil-tests | label=up@up",
            "inline | range=[b](other.md#^abc123) | target=other.md@other.md | block=abc123@abc123 | label=b@b",
            "wikiLink | range=[[garden/beds#Raised#Soil mix^blk|the beds]] | target=garden/beds@garden/beds | heading=Raised@Raised | heading=Soil mix@Soil mix | block=blk@blk | label=the beds@the beds",
            "wikiEmbed | range=![[diagram.png]] | target=diagram.png@diagram.png",
            "wikiLink | range=[[#Local]] | target=@ | heading=Local@Local",
        ]
        XCTAssertEqual(got.count, expected.count, got.joined(separator: "\n"))
        for (g, e) in zip(got, expected) { XCTAssertEqual(g, e) }
        XCTAssertEqual(s.links.first?.destination, "notes/a_b.md#Deep%20Dive")
        XCTAssertEqual(s.links[safe: 9]?.destination, "garden/beds#Raised#Soil mix^blk")
        XCTAssertEqual(s.links[safe: 1]?.isEmbed, true)
        XCTAssertEqual(s.links[safe: 10]?.isEmbed, true)
    }

    func testWikiLinkPartSplitting() {
        let cases: [(String, target: String, headings: [String], block: String?, label: String?)] = [
            ("[[note]]", "note", [], nil, nil),
            ("[[note|Shown]]", "note", [], nil, "Shown"),
            ("[[note#H]]", "note", ["H"], nil, nil),
            ("[[note#H#Sub^id|label]]", "note", ["H", "Sub"], "id", "label"),
            ("[[note#^id]]", "note", [], "id", nil),
            ("[[note^id]]", "note", [], "id", nil),
            ("[[ folder/note.md # H | L ]]", "folder/note.md", ["H"], nil, "L"),
            ("[[#^id]]", "", [], "id", nil),
        ]
        for c in cases {
            let (s, source) = symbols("x " + c.0 + " y\n")
            guard let link = s.links.first, s.links.count == 1 else { XCTFail("no single link in \(c.0)"); continue }
            XCTAssertEqual(link.form, .wikiLink, c.0)
            XCTAssertEqual(link.target.text, c.target, c.0)
            XCTAssertEqual(slice(source, link.target.range), c.target, c.0)
            XCTAssertEqual(link.headings.map(\.text), c.headings, c.0)
            XCTAssertEqual(link.headings.map { slice(source, $0.range) }, c.headings, c.0)
            XCTAssertEqual(link.blockID?.text, c.block, c.0)
            XCTAssertEqual(link.blockID.map { slice(source, $0.range) }, c.block, c.0)
            XCTAssertEqual(link.label?.text, c.label, c.0)
            XCTAssertEqual(slice(source, link.range), c.0, c.0)
        }
    }

    func testLinkDefinitions() {
        let text = """
        Use [Soil Ref].

        [Soil  ref]: ./soil.md "The &amp; title"
        [other]: <a\\*b.md>

        """
        let (s, source) = symbols(text)
        let got = s.linkDefinitions.map {
            [$0.label, $0.normalizedLabel, $0.destination, $0.title ?? "-", slice(source, $0.range),
             slice(source, $0.labelRange), slice(source, $0.destinationRange), slice(source, $0.titleRange)]
        }
        XCTAssertEqual(got, [
            ["Soil  ref", "soil ref", "./soil.md", "The & title", "[Soil  ref]: ./soil.md \"The &amp; title\"",
             "Soil  ref", "./soil.md", "The &amp; title"],
            ["other", "other", "a*b.md", "-", "[other]: <a\\*b.md>", "other", "a\\*b.md", ""],
        ])
    }

    // MARK: Tags

    func testInlineTagsWithRangesAndAncestors() {
        let text = """
        Plant #garden/beds/raised today, #todo and #2024 (not a tag).
        - item #garden

        """
        let (s, source) = symbols(text)
        XCTAssertEqual(s.tags.map(\.name), ["garden/beds/raised", "todo", "garden"])
        XCTAssertEqual(s.tags.map { slice(source, $0.range) }, ["#garden/beds/raised", "#todo", "#garden"])
        XCTAssertEqual(s.tags.map { slice(source, $0.nameRange) }, ["garden/beds/raised", "todo", "garden"])
        XCTAssertEqual(s.tags.map(\.isFromFrontMatter), [false, false, false])
        XCTAssertEqual(s.tags[safe: 0]?.ancestors, ["garden", "garden/beds"])
        XCTAssertEqual(s.tags[safe: 1]?.ancestors, [])
        XCTAssertEqual(s.tags[safe: 0]?.matches("garden"), true)
        XCTAssertEqual(s.tags[safe: 0]?.matches("garden/beds"), true)
        XCTAssertEqual(s.tags[safe: 0]?.matches("garden/be"), false)
        XCTAssertEqual(s.tags[safe: 1]?.matches("garden"), false)
    }

    func testFrontMatterTagForms() {
        let cases: [(String, [String])] = [
            ("tags: [a, b]", ["a", "b"]),
            ("tags: a, b", ["a", "b"]),
            ("tags: a b", ["a", "b"]),
            ("tags:\n  - a\n  - b/c", ["a", "b/c"]),
            ("tag: x", ["x"]),
            ("tags: [\"#a\", '#b']", ["a", "b"]),
            ("tags:\n  - \"#a\"\n  - '#b'", ["a", "b"]),
            ("tags: #a #b", ["a", "b"]),
            ("tags: a # a comment", ["a"]),
            ("tags: []", []),
            ("tags:", []),
        ]
        for (yaml, expected) in cases {
            let text = "---\n\(yaml)\n---\nBody #inline\n"
            let (s, source) = symbols(text)
            let front = s.tags.filter(\.isFromFrontMatter)
            XCTAssertEqual(front.map(\.name), expected, yaml)
            XCTAssertEqual(front.map { slice(source, $0.nameRange) }, expected, yaml)
            XCTAssertEqual(s.tags.last?.name, "inline", yaml)
            XCTAssertEqual(s.tags.last?.isFromFrontMatter, false, yaml)
        }
    }

    // MARK: Block ids, front matter, words

    func testBlockIDsNameTheirBlock() {
        let text = """
        A paragraph
        over two lines ^para-1

        - item one ^item1
        - item two

        """
        let (s, source) = symbols(text)
        XCTAssertEqual(s.blockIDs.map(\.id), ["para-1", "item1"])
        XCTAssertEqual(s.blockIDs.map { slice(source, $0.range) }, ["^para-1", "^item1"])
        XCTAssertEqual(s.blockIDs.map { slice(source, $0.blockRange) }, ["A paragraph\nover two lines ^para-1", "- item one ^item1"])
    }

    /// Raw HTML gives places a fragment may name: `id` on any element, `name` on `<a>`.
    func testHTMLIDsFromBlocksAndInlineTags() {
        let text = """
        <a id="old-heading"></a>

        Text <a name=legacy>anchor</a> and <span ID='Inline'>x</span> <img src="a.png" id=pic>.

        <div data-id="no" class="box" id = "spaced"><p name="not-an-anchor" id="">empty</p></div>

        <!-- <a id="in-a-comment"></a> --> <a href="#x" id="after-comment">

        `<a id="in-code">`

        """
        let (s, source) = symbols(text)
        XCTAssertEqual(s.htmlIDs.map(\.id), ["old-heading", "legacy", "Inline", "pic", "spaced", "after-comment"])
        XCTAssertEqual(s.htmlIDs.map { slice(source, $0.range) }, s.htmlIDs.map(\.id), "each range is the value as written")
    }

    /// Unfinished tags and quotes end at the HTML's end, in one pass whatever the input holds.
    func testHTMLIDScannerStopsAtTheEndOfOddInput() {
        let odd = ["<a id=\"unclosed", "<a id=", "<a id", "<a", "<", "<!--", "<!-- x", "<a id='x' name", "<<<a id=x", "<a\nid=\"x\">"]
        for html in odd {
            let bytes = Array(html.utf8)
            let ranges = HTMLIDScanner.idRanges(in: bytes[...])
            for range in ranges { XCTAssertTrue(range.lowerBound >= 0 && range.upperBound <= bytes.count, html) }
        }
        XCTAssertEqual(HTMLIDScanner.idRanges(in: Array("<<<a id=x".utf8)[...]), [8..<9])
        XCTAssertEqual(HTMLIDScanner.idRanges(in: Array("<a\nid=\"x\">".utf8)[...]), [7..<8])
        // Linear: many ids and many unclosed tags cost about what their bytes cost.
        let many = Array(String(repeating: "<a id=\"x\"></a>", count: 20_000).utf8)
        XCTAssertEqual(HTMLIDScanner.idRanges(in: many[...]).count, 20_000)
        let open = Array(String(repeating: "<a id=", count: 20_000).utf8)
        XCTAssertLessThanOrEqual(HTMLIDScanner.idRanges(in: open[...]).count, 20_000)
    }

    func testFrontMatterKeysAndValues() {
        let text = """
        ---
        title: "Soil tests"
        tags: [a, b]
        rating: 4
        ---
        Body.

        """
        let (s, source) = symbols(text)
        guard let front = s.frontMatter else { return XCTFail("no front matter") }
        XCTAssertEqual(front.entries.map(\.key), ["title", "tags", "rating"])
        XCTAssertEqual(front.entries.map { slice(source, $0.keyRange) }, ["title", "tags", "rating"])
        XCTAssertEqual(slice(source, front.range), "---\ntitle: \"Soil tests\"\ntags: [a, b]\nrating: 4\n---")
        XCTAssertEqual(front["title"], .scalar("Soil tests"))
        XCTAssertEqual(front["tags"], .list(["a", "b"]))
        XCTAssertEqual(front["rating"], .scalar("4"))
        XCTAssertEqual(front["missing"], nil)
    }

    /// Packed headings read back as stored, levels alone included; equal lists compare equal.
    func testPackedHeadingsReadBackAsStored() {
        let headings = [
            HeadingSymbol(level: 1, text: "Soil tests and what they tell a gardener", slug: "soil-tests-and-what-they-tell-a-gardener",
                          range: ByteSpan(0, 42), textRange: ByteSpan(2, 42)),
            HeadingSymbol(level: 2, text: "", slug: "", range: ByteSpan(44, 47), textRange: ByteSpan(47, 47)),
            HeadingSymbol(level: 6, text: "Café ☕", slug: "café-", range: ByteSpan(48, 70), textRange: ByteSpan(55, 70)),
        ]
        let list = HeadingList(headings)
        XCTAssertEqual(Array(list), headings)
        XCTAssertEqual((0..<list.count).map(list.level(at:)), [1, 2, 6])
        XCTAssertEqual(list, HeadingList(headings))
        XCTAssertNotEqual(list, HeadingList(Array(headings.dropLast())))
        XCTAssertEqual(HeadingList([]).count, 0)
        XCTAssertEqual(HeadingList(), [])
    }

    /// Packed links read back as stored: every part, lengths read from the next text's start
    /// (empty texts, the last text, a link without parts before one with), ranges in a word and
    /// those that do not fit one (a reference link's target defined far away, a title's empty
    /// range, a link longer than 64 KB); equal lists compare equal.
    func testPackedLinksReadBackAsStored() {
        func part(_ text: String, _ start: Int32, _ end: Int32) -> LinkSymbol.Part { LinkSymbol.Part(text: text, range: ByteSpan(start, end)) }
        let long = String(repeating: "far/", count: 20_000) + "away.md"
        let links = [
            LinkSymbol(form: .wikiLink, target: part("Soil tests", 102, 112),
                       headings: [part("Método", 113, 120), part("", 121, 121)], blockID: part("b1", 122, 124),
                       label: part("über die Böden", 125, 140), range: ByteSpan(100, 142)),
            LinkSymbol(form: .inline, target: part("", 150, 150), range: ByteSpan(145, 152)),
            LinkSymbol(form: .fullReference, isImage: true, target: part("img/plot.png", 90_000, 90_012),
                       referenceLabel: part("plot", 160, 164), title: "A plot", range: ByteSpan(153, 165)),
            LinkSymbol(form: .inline, target: part(long, 200_001, Int32(200_001 + long.utf8.count)),
                       range: ByteSpan(200_000, Int32(200_002 + long.utf8.count))),
            LinkSymbol(form: .wikiEmbed, target: part("日本語", 300_002, 300_011), label: part("", 300_012, 300_012),
                       range: ByteSpan(300_000, 300_014)),
        ]
        let list = LinkList(links)
        XCTAssertEqual(Array(list), links)
        XCTAssertEqual((0..<list.count).map(list.targetText(at:)), links.map(\.target.text))
        XCTAssertEqual((0..<list.count).map(list.form(at:)), links.map(\.form))
        XCTAssertEqual(list, LinkList(links))
        XCTAssertNotEqual(list, LinkList(Array(links.dropLast())))
        XCTAssertEqual(LinkList([links[1]]).first, links[1])
        XCTAssertEqual(LinkList([]).count, 0)
    }

    /// Packed tags read back as stored (names whose lengths come from the next tag's offset:
    /// empty, long, non-ASCII, last), the front-matter flag beside the offset; equal lists
    /// compare equal.
    func testPackedTagsReadBackAsStored() {
        let long = String(repeating: "garden/beds/raised/", count: 40) + "tomatoes"
        let tags = [
            TagSymbol(name: "project", range: ByteSpan(10, 19), nameRange: ByteSpan(11, 18), isFromFrontMatter: true),
            TagSymbol(name: "", range: ByteSpan(30, 31), nameRange: ByteSpan(31, 31), isFromFrontMatter: false),
            TagSymbol(name: long, range: ByteSpan(40, Int32(41 + long.utf8.count)), nameRange: ByteSpan(41, Int32(41 + long.utf8.count)), isFromFrontMatter: false),
            TagSymbol(name: "日本語/Привет", range: ByteSpan(2000, 2024), nameRange: ByteSpan(2001, 2024), isFromFrontMatter: true),
        ]
        let list = TagList(tags)
        XCTAssertEqual(Array(list), tags)
        XCTAssertEqual((0..<list.count).map(list.name(at:)), tags.map(\.name))
        XCTAssertEqual(list, TagList(tags))
        XCTAssertNotEqual(list, TagList(Array(tags.dropLast())))
        XCTAssertNotEqual(list, TagList(tags.map { TagSymbol(name: $0.name, range: $0.range, nameRange: $0.nameRange, isFromFrontMatter: !$0.isFromFrontMatter) }))
        XCTAssertEqual(TagList([]).count, 0)
        XCTAssertEqual(TagList(), [])
    }

    /// The index's packed copy reads back every entry's key, key range and value as parsed.
    func testPackedFrontMatterReadsBackAsParsed() throws {
        let texts = [
            "---\ntitle: Café\ndate:\ntags:\n  - a\n  - \"b c\"\nempty: []\nnotes: |\n  line one\n  line two\nmap: {a: 1}\n---\n",
            "---\ntags: [x, y, z]\nbroken: [a, b\ntitle: 'Q'\n---\nBody\n",
            "---\n---\n", "---\nk: v\n---\n",
        ]
        for text in texts {
            let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
            guard let parsed = tree.frontMatter else { return XCTFail("no front matter: \(text)") }
            let packed = NoteFrontMatter(parsed)
            XCTAssertEqual(packed.range, parsed.range, text)
            XCTAssertEqual(packed.entries.map(\.key), parsed.entries.map(\.key), text)
            XCTAssertEqual(packed.entries.map(\.value), parsed.entries.map(\.value), text)
            XCTAssertEqual(packed.entries.map(\.keyRange), parsed.entries.map(\.keyRange), text)
            XCTAssertEqual(packed, NoteFrontMatter(parsed), text)
            for entry in parsed.entries { XCTAssertEqual(packed[entry.key], parsed[entry.key], text) }
        }
        let one = NoteFrontMatter(try XCTUnwrap(MarkdownParser.parse(Array("---\nk: v\n---\n".utf8), options: .notebook).frontMatter))
        let other = NoteFrontMatter(try XCTUnwrap(MarkdownParser.parse(Array("---\nk: w\n---\n".utf8), options: .notebook).frontMatter))
        XCTAssertNotEqual(one, other)
    }

    func testExtractionNeverTrapsOnOddInput() {
        for text in ["", "\n", "---\n", "---\ntags: [\n---\n", "[[", "[[]]", "![[|]]", "[a]: <>\n[a]", "#", "^x", "# \n"] {
            _ = symbols(text)
        }
    }
}

/// Every prefix of a rich note: extraction never traps and every range lies inside the source.
final class NoteSymbolsRangeTests: XCTestCase {
    func testEveryRangeOfEveryPrefixIsInsideTheSource() {
        let text = """
        ---
        title: "Soil"
        tags: [a/b, "#c"]
        aliases: x, y
        ---
        # Soil *tests* ^not-an-id
        See [t](a.md#h "T") ![i](p.png) [r][] <https://e.x> www.e.org #tag/nested
        > [[n#H#S^b|l]] ![[e.png]] [[#L]] ^q1

        [r]: <d.md#x> 'T'
        - item ^i1
        日本語 #標签

        """
        let bytes = Array(text.utf8)
        for length in 0...bytes.count {
            let source = Array(bytes[0..<length])
            let s = NoteSymbols.extract(from: MarkdownParser.parse(source), path: "n.md")
            var spans: [ByteSpan] = []
            spans += s.headings.flatMap { [$0.range, $0.textRange] }
            spans += s.links.flatMap { link in
                [link.range, link.target.range] + link.headings.map(\.range) + [link.blockID, link.label, link.referenceLabel].compactMap { $0?.range }
            }
            spans += s.linkDefinitions.flatMap { [$0.range, $0.labelRange, $0.destinationRange, $0.titleRange] }
            spans += s.tags.flatMap { [$0.range, $0.nameRange] }
            spans += s.blockIDs.flatMap { [$0.range, $0.blockRange] }
            for span in spans {
                XCTAssertTrue(span.start >= 0 && span.start <= span.end && Int(span.end) <= source.count,
                              "range \(span) outside \(length) bytes")
            }
            for tag in s.tags {
                XCTAssertEqual(source.text(tag.nameRange.range), tag.name)
            }
        }
    }
}

/// The word counter's fast ranges agree with the Unicode properties they stand for.
final class WordCounterRangeTests: XCTestCase {
    func testFastRangesAgreeWithUnicodeProperties() {
        var disagreements: [String] = []
        for range in [0x80...0x24F, 0x386...0x3FF, 0x400...0x52F, 0x600...0x6FF, 0x900...0x97F, 0x2000...0x206F, 0x3000...0x303F,
                      0xFF00...0xFF20] {
            for v in range {
                guard let scalar = Unicode.Scalar(UInt32(v)) else { continue }
                let p = scalar.properties
                let expected = p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark
                    || p.generalCategory == .spacingMark || p.generalCategory == .decimalNumber
                if p.generalCategory == .unassigned { continue }
                XCTAssertEqual(WordCounter.unicodeIsWordish(UInt32(v)), expected)
                if WordCounter.isWordish(UInt32(v)) != expected { disagreements.append(String(v, radix: 16)) }
            }
        }
        XCTAssertEqual(disagreements, [])
        XCTAssertEqual(WordCounter.count("Привет, мир — καλημέρα κόσμε; مرحبا بالعالم। नमस्ते दुनिया").words, 8)
    }
}

final class StringFoldingTests: XCTestCase {
    func testFoldedEqualsLowercased() {
        for text in ["", "soil", "Soil Tests", "garden/Beds.md", "ÜBER", "Привет Мир", "ǅ", "İstanbul", "ß", "a\u{301}B",
                     "привет", "καλημέρα", "ΚΑΛΗΜΕΡΑ", "مرحبا", "नमस्ते", "ひらがな", "漢字", "한국어"] {
            XCTAssertEqual(text.folded, text.lowercased(), text)
        }
        // The ranges the fast path trusts really do not change when lowercased.
        for v in UInt32(0)...0xFFFF where !Slugger.mayChangeWhenLowercased(v) {
            guard let scalar = Unicode.Scalar(v) else { continue }
            XCTAssertFalse(scalar.properties.changesWhenLowercased, String(v, radix: 16))
        }
    }
}

/// The word counter's eight-byte loop counts exactly as its one-scalar-at-a-time path does, and
/// both as the plain definition (a state machine over decoded scalars, written out here), on any
/// bytes cut into any pieces.
final class WordCounterFastPathTests: XCTestCase {
    /// The definition, written out over decoded scalars: a letter or digit starts a word
    /// unless the scalar before is one, or the one before is a middle mark of its kind (`'`,
    /// `’`, `.`, `:` between letters; `.`, `,`, `;` between digits) with a letter (digit)
    /// before it; a mark after a letter or digit goes on with it (and is no character); a
    /// Chinese character or kana is a word of its own; line breaks are not characters. Invalid
    /// bytes are one U+FFFD each.
    private struct Reference {
        var words = 0
        var characters = 0
        var spaces = 0
        /// The classes of the last two scalars, the last first.
        var last: [WordCounter.Class] = [.other, .other]

        mutating func breakWord() { last = [.other, .other] }

        mutating func feed(_ piece: ArraySlice<UInt8>) {
            var index = piece.startIndex
            while index < piece.endIndex {
                var iterator = piece[index...].makeIterator()
                var decoder = UTF8()
                let value: UInt32
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    value = scalar.value
                    index += UTF8.width(scalar)
                case .error:
                    value = 0xFFFD
                    index += 1
                case .emptyInput:
                    return
                }
                let kind = WordCounter.scalarClass(value)
                if kind != .lineBreak && kind != .mark { characters += 1 }
                if kind == .space { spaces += 1 }
                let isWord = { (k: WordCounter.Class) in k == .letter || k == .digit }
                switch kind {
                case .ideograph:
                    words += 1
                    breakWord()
                case .letter, .digit:
                    let joined = (kind == .letter && (last[0] == .midLetter || last[0] == .midBoth) && last[1] == .letter)
                        || (kind == .digit && (last[0] == .midNumber || last[0] == .midBoth) && last[1] == .digit)
                    if !isWord(last[0]) && !joined { words += 1 }
                    last = [kind, last[0]]
                case .mark:
                    if !isWord(last[0]) {
                        words += 1
                        last = [.letter, last[0]]
                    }
                default:
                    last = [kind, last[0]]
                }
            }
        }
    }

    func testFastLoopEqualsGeneralPathAndTheDefinition() {
        var generator = SeededGenerator(state: 7)
        let alphabet: [[UInt8]] = ["a", "Z", "9", " ", "'", "-", "\n", "\r", ".", "é", "я", "世", "😀", "\u{2019}", "\u{301}",
                                   "word ", "Don't ", "well-known", "a-'b", "--", "x1", "\u{0}", "\u{7F}", "@[`{/:", "\t",
                                   "3.14", "1,000", "e.g.", "a:b", "9;9", "_x", "\u{A0}", "ก", "\u{E34}", "한", "ー"].map { Array($0.utf8) }
            + [[0xC3], [0x80], [0xFF], [0xE4, 0xB8]]
        for round in 0..<600 {
            var bytes: [UInt8] = []
            // Short runs mix every class at every byte position; long ones keep the eight-byte
            // loop busy across piece boundaries.
            let length = round % 3 == 0 ? generator.next(400) : generator.next(60)
            for _ in 0..<length {
                bytes += generator.next(3) == 0 ? alphabet[generator.next(alphabet.count)] : alphabet[generator.next(9)]
            }
            var fast = WordCounter()
            var general = WordCounter()
            var reference = Reference()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + generator.next(round % 2 == 0 ? 12 : 70))
                bytes[start..<end].withUnsafeBufferPointer { fast.feed($0) }
                general.feed(bytes: bytes[start..<end])
                reference.feed(bytes[start..<end])
                if generator.next(5) == 0 {
                    fast.breakWord()
                    general.breakWord()
                    reference.breakWord()
                }
                start = end
            }
            XCTAssertEqual(fast, general, "\(bytes)")
            XCTAssertEqual(fast.words, reference.words, "\(bytes)")
            XCTAssertEqual(fast.characters, reference.characters, "\(bytes)")
            XCTAssertEqual(fast.spaces, reference.spaces, "\(bytes)")
        }
    }

    func testKnownCounts() {
        for (text, words, characters) in [("", 0, 0), ("one two  three", 3, 14), ("don't stop-me now", 4, 17),
                                          ("3.14 and 1,000, e.g. x:y", 5, 24), ("a.b. 1.2.3 x,y 9;9", 5, 18),
                                          ("안녕하세요 세계", 2, 8), ("ภาษาไทย ดี", 2, 9), ("cafe\u{301} naïve", 2, 10),
                                          ("a--b a-'b 'quoted' -dash- x-", 7, 28), ("line\nbreak\r\nhere", 3, 13),
                                          ("12345678 abcdefgh ABCDEFGH 9", 4, 28), ("日本語のtext", 5, 8),
                                          ("Привет, мир — καλημέρα", 3, 22)] {
            let counter = WordCounter.count(text)
            XCTAssertEqual(counter.words, words, text)
            XCTAssertEqual(counter.characters, characters, text)
        }
    }
}
