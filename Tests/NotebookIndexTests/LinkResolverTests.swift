import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest

/// Table-driven tests of `NoteCatalog.resolve`: each rule of the resolver's documentation, over a
/// small notebook of parsed fixture notes.
final class LinkResolverTests: XCTestCase {
    /// The notebook, in TestSupport's fixture syntax (`//- /path` starts a note).
    private static let notebook = Fixture("""
        //- /index.md
        # Home

        Intro text. ^intro

        ## Getting Started

        ### Install

        ## Usage

        ### Install

        //- /garden/soil tests.md
        ---
        title: Soil Testing
        aliases: [Dirt, Earth]
        ---
        # Soil

        ## pH & lime

        Acid soils need lime. ^ph-block

        //- /garden/plants/tomato.md
        # Tomato
        //- /archive/tomato.md
        # Old tomato
        //- /recipes/tomato.md
        # Tomato sauce
        //- /journal/daily.md
        # Daily
        //- /journal/2024/daily.md
        # Daily 2024
        //- /Root Note.markdown
        # Root
        //- /twins/a.md
        ---
        title: Twin
        aliases: [Gemini]
        ---
        //- /twins/b.md
        ---
        title: Twin
        aliases: [gemini]
        ---

        """)

    private static let catalog = NoteCatalog(notebook.files.map {
        NoteSymbols.extract(from: MarkdownParser.parse(Array($0.text.utf8)), path: $0.path)
    })

    /// The first link of a one-note fixture.
    private func link(_ markdown: String, file: StaticString = #filePath, line: UInt = #line) -> LinkSymbol? {
        let symbols = NoteSymbols.extract(from: MarkdownParser.parse(Array(markdown.utf8)), path: "fixture.md")
        guard let first = symbols.links.first else {
            XCTFail("no link in \(markdown)", file: file, line: line)
            return nil
        }
        return first
    }

    private func check(_ cases: [(String, String)], from source: String, file: StaticString = #filePath,
                       line: UInt = #line) {
        for (markdown, expected) in cases {
            guard let link = link(markdown, file: file, line: line) else { continue }
            Expect.equal(Self.catalog.resolve(link, from: source).described, expected, fixture: markdown, file: file, line: line)
        }
    }

    // MARK: Markdown links

    func testMarkdownLinksRelativeRootRelativeAndExtensions() {
        check([
            ("[x](../index.md)", "note index.md"),
            ("[x](../index)", "note index.md"),
            ("[x](./../index.md)", "note index.md"),
            ("[x](/index.md)", "note index.md"),
            ("[x](/index)", "note index.md"),
            ("[x](plants/tomato.md)", "note garden/plants/tomato.md"),
            ("[x](plants/../plants/tomato)", "note garden/plants/tomato.md"),
            ("[x](/garden/plants/tomato.md)", "note garden/plants/tomato.md"),
            ("[x](../Root%20Note.markdown)", "note Root Note.markdown"),
            ("[x](../Root%20Note.md)", "note Root Note.markdown"),
            ("[x](<../Root Note>)", "note Root Note.markdown"),
            ("[x](soil%20tests.md)", "note garden/soil tests.md"),
            ("[x][ref]\n\n[ref]: ../index.md#usage\n", "note index.md#Usage"),
            ("[ref]\n\n[ref]: /journal/daily\n", "note journal/daily.md"),
        ], from: "garden/soil tests.md")
    }

    func testMarkdownAnchorsBySlugTextAndBlockID() {
        check([
            ("[x](#ph--lime)", "note garden/soil tests.md#pH & lime"),
            ("[x](#pH%20&%20lime)", "note garden/soil tests.md#pH & lime"),
            ("[x](#^ph-block)", "note garden/soil tests.md^ph-block"),
            ("[x](../index.md#getting-started)", "note index.md#Getting Started"),
            ("[x](/index#^intro)", "note index.md^intro"),
            ("[x](#getting-started)", "brokenHeading garden/soil tests.md#getting-started"),
            ("[x](../index.md#nope)", "brokenHeading index.md#nope"),
            ("[x](../index.md#^nope)", "brokenBlock index.md^nope"),
            ("[x](#^PH-BLOCK)", "brokenBlock garden/soil tests.md^PH-BLOCK"),
        ], from: "garden/soil tests.md")
    }

    func testMarkdownBrokenFilesImagesAndExternal() {
        check([
            ("[x](../../index.md)", "outside ../../index.md"),
            ("[x](missing.md)", "broken garden/missing.md"),
            ("[x](missing)", "broken garden/missing"),
            ("![photo](img/photo.png)", "file garden/img/photo.png"),
            ("![photo](/img/My%20Photo.png)", "file img/My Photo.png"),
            ("![diagram](../img/diagram)", "file img/diagram"),
            ("[pdf](docs/a%20b.pdf)", "file garden/docs/a b.pdf"),
            ("[folder](plants/)", "file garden/plants"),
            ("[x](https://example.com/a.md)", "external"),
            ("[x](mailto:someone@example.com)", "external"),
            ("[x](//cdn.example.com/x.png)", "external"),
            ("<https://example.com>", "external"),
            ("Mail a@example.com now", "external"),
            ("[x](%ZZ.md)", "broken garden/%ZZ.md"),
        ], from: "garden/soil tests.md")
    }

    // MARK: Wiki-links

    func testWikiLinksByPathStemTitleAndAlias() {
        check([
            ("[[index]]", "note index.md"),
            ("[[index.md]]", "note index.md"),
            ("[[/index]]", "note index.md"),
            ("[[garden/plants/tomato]]", "note garden/plants/tomato.md"),
            ("[[Garden/Plants/Tomato.md]]", "note garden/plants/tomato.md"),
            ("[[plants/tomato]]", "note garden/plants/tomato.md"),
            ("[[Root Note]]", "note Root Note.markdown"),
            ("[[SOIL TESTS]]", "note garden/soil tests.md"),
            ("[[daily]]", "note journal/daily.md"),
            ("[[2024/daily]]", "note journal/2024/daily.md"),
            ("[[soil testing]]", "note garden/soil tests.md"),
            ("[[Earth]]", "note garden/soil tests.md"),
            ("[[dirt|the dirt]]", "note garden/soil tests.md"),
            ("[[root]]", "note Root Note.markdown"),
            ("![[index]]", "note index.md"),
        ], from: "journal/daily.md")
    }

    func testWikiLinkAmbiguityAndBrokenTargets() {
        check([
            ("[[tomato]]", "ambiguous archive/tomato.md, recipes/tomato.md"),
            ("[[Twin]]", "ambiguous twins/a.md, twins/b.md"),
            ("[[GEMINI]]", "ambiguous twins/a.md, twins/b.md"),
            ("[[nowhere]]", "broken nowhere"),
            ("[[other/daily]]", "broken other/daily"),
            ("![[photo.png]]", "file photo.png"),
            ("![[img/photo.png]]", "file img/photo.png"),
        ], from: "index.md")
    }

    /// Wiki-links and embeds to files find them as Obsidian finds attachments: by path, else by
    /// file name anywhere, the shortest path winning.
    func testWikiLinksToFilesByPathThenByFileName() {
        var catalog = Self.catalog
        for asset in ["img/pic.png", "archive/old/pic.png", "a/chart.svg", "b/chart.svg", "docs/Report.PDF",
                      "garden/plants/img/leaf.jpg", "index.md.png"] {
            catalog.insertAsset(asset)
        }
        let cases: [(String, String)] = [
            ("![[pic.png]]", "file img/pic.png"),
            ("![[PIC.PNG]]", "file img/pic.png"),
            ("![[img/pic.png]]", "file img/pic.png"),
            ("![[/archive/old/pic.png]]", "file archive/old/pic.png"),
            ("![[old/pic.png]]", "file archive/old/pic.png"),
            ("![[other/pic.png]]", "file other/pic.png"),
            ("[[report.pdf]]", "file docs/Report.PDF"),
            ("![[leaf.jpg|200]]", "file garden/plants/img/leaf.jpg"),
            ("![[chart.svg]]", "ambiguous a/chart.svg, b/chart.svg"),
            ("![[b/chart.svg]]", "file b/chart.svg"),
            ("![[nope.png]]", "file nope.png"),
            ("![[index.md.png]]", "file index.md.png"),
            ("[[index]]", "note index.md"),
        ]
        for (markdown, expected) in cases {
            guard let link = link(markdown) else { continue }
            XCTAssertEqual(catalog.resolve(link, from: "journal/daily.md").described, expected, markdown)
        }
        catalog.removeAsset("img/pic.png")
        XCTAssertEqual(catalog.assets(named: "Pic.png"), ["archive/old/pic.png"])
        XCTAssertEqual(link("![[pic.png]]").map { catalog.resolve($0, from: "index.md").described }, "file archive/old/pic.png")
        catalog.removeAsset("archive/old/pic.png")
        XCTAssertEqual(catalog.assets(named: "pic.png"), [])
        XCTAssertEqual(catalog, { var c = Self.catalog
            for asset in ["a/chart.svg", "b/chart.svg", "docs/Report.PDF", "garden/plants/img/leaf.jpg", "index.md.png"] { c.insertAsset(asset) }
            return c }(), "removing an asset leaves the tables as if it never came")
    }

    func testWikiHeadingsAndBlocks() {
        check([
            ("[[#pH & lime]]", "note garden/soil tests.md#pH & lime"),
            ("[[#PH & LIME]]", "note garden/soil tests.md#pH & lime"),
            ("[[#ph--lime]]", "note garden/soil tests.md#pH & lime"),
            ("[[#^ph-block]]", "note garden/soil tests.md^ph-block"),
            ("[[index#Getting Started]]", "note index.md#Getting Started"),
            ("[[index#Usage#Install]]", "note index.md#Install"),
            ("[[index#Home#Usage#Install]]", "note index.md#Install"),
            ("[[index#Install#Usage]]", "brokenHeading index.md#Install#Usage"),
            ("[[index#Nope]]", "brokenHeading index.md#Nope"),
            ("[[index#^intro]]", "note index.md^intro"),
            ("[[index#^zz]]", "brokenBlock index.md^zz"),
            ("[[tomato#Tomato]]", "ambiguous archive/tomato.md, recipes/tomato.md"),
        ], from: "garden/soil tests.md")
    }

    /// `[[note#H#Sub]]` picks the Sub inside H's section, not the first Sub of the note.
    func testNestedHeadingPicksTheSectionsSubheading() throws {
        let index = try XCTUnwrap(Self.catalog.notes["index.md"])
        let cases: [(String, Int)] = [
            ("[[index#Getting Started#Install]]", 2),
            ("[[index#Usage#Install]]", 4),
            ("[[index#Install]]", 2),
        ]
        for (markdown, expected) in cases {
            let link = try XCTUnwrap(link(markdown))
            guard case .note(_, let heading?, nil, _) = Self.catalog.resolve(link, from: "index.md") else {
                XCTFail("no heading for \(markdown)")
                continue
            }
            XCTAssertEqual(heading.range, index.headings[safe: expected]?.range, markdown)
        }
    }

    /// Results do not depend on the order the notes are given in.
    func testCatalogOrderDoesNotMatter() throws {
        let reversed = NoteCatalog(Self.notebook.files.reversed().map {
            NoteSymbols.extract(from: MarkdownParser.parse(Array($0.text.utf8)), path: $0.path)
        })
        for markdown in ["[[tomato]]", "[[Twin]]", "[[daily]]", "[x](Root%20Note)"] {
            let link = try XCTUnwrap(link(markdown))
            XCTAssertEqual(reversed.resolve(link, from: "a.md"), Self.catalog.resolve(link, from: "a.md"), markdown)
        }
    }
}
