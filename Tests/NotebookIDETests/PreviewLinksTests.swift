import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookIDE
import TextCore

/// Where the preview's wiki-links and embeds point: the notebook's resolution, as URLs relative to
/// the previewed note (`garden/beds.md`), checked link by link against a multi-file fixture.
final class PreviewLinksTests: XCTestCase {
    /// Notes are parsed, other files (`img/pic.png`) become assets.
    static let fixture = Fixture("""
        //- /garden/soil.md
        # Soil

        ## pH Level

        Acid. ^acid
        //- /garden/beds.md
        # Beds
        //- /Seed Catalogue.md
        # Seeds
        //- /notes/100% done?.md
        # Done
        //- /a/dup.md
        # Dup A
        //- /b/dup.md
        # Dup B
        //- /日本/東京.md
        # 東京
        //- /img/pic.png
        //- /docs/Guide.pdf
        """)

    /// The notebook of a fixture: its notes, and its other files as assets.
    static func notebook(_ fixture: Fixture) -> Notebook {
        var notebook = Notebook()
        for file in fixture.files {
            if file.path.hasSuffix(".md") {
                notebook.update(NoteSymbols.extract(from: MarkdownParser.parse(Array(file.text.utf8), options: .notebook), path: file.path))
            } else {
                notebook.addAsset(file.path)
            }
        }
        return notebook
    }

    /// The destination of the first wiki-link of `link`, written in `garden/beds.md`. Files on
    /// disk that the notebook does not list: `garden/scan.tiff`.
    func destination(_ link: String) -> WikiLinkDestination? {
        let tree = MarkdownParser.parse(Array(link.utf8), options: .notebook)
        guard let info = tree.wikiLinks.first else { return nil }
        let reference = WikiLinkReference(info, of: tree)
        let notebook = PreviewLinksTests.notebook(PreviewLinksTests.fixture)
        return PreviewLinks.destination(of: reference, catalog: notebook.catalog, assets: notebook.assets,
                                        from: "garden/beds.md", fileExists: { $0 == "garden/scan.tiff" })
    }

    func testWikiLinksPointWhereTheNotebookResolvesThem() {
        let rows: [(link: String, expected: WikiLinkDestination?, line: UInt)] = [
            // A note beside the previewed one, by stem; headings by text or slug become the id.
            ("[[soil]]", .url("soil.md"), #line),
            ("[[soil#pH Level]]", .url("soil.md#ph-level"), #line),
            ("[[soil#ph-level|label]]", .url("soil.md#ph-level"), #line),
            ("[[soil#^acid]]", .url("soil.md#^acid"), #line),
            ("[[garden/soil]]", .url("soil.md"), #line),
            // Elsewhere in the notebook: relative to the previewed note's folder, percent-encoded.
            ("[[Seed Catalogue]]", .url("../Seed%20Catalogue.md"), #line),
            ("[[Seeds]]", .url("../Seed%20Catalogue.md"), #line),                   // by title
            ("[[100% done?]]", .url("../notes/100%25%20done%3F.md"), #line),     // `%` and `?` in a name
            ("[[東京]]", .url("../%E6%97%A5%E6%9C%AC/%E6%9D%B1%E4%BA%AC.md"), #line),
            // Embeds: an image found by its name anywhere, a PDF, a file only on disk.
            ("![[pic.png]]", .url("../img/pic.png"), #line),
            ("![[img/pic.png|alt]]", .url("../img/pic.png"), #line),
            ("[[Guide.pdf]]", .url("../docs/Guide.pdf"), #line),
            ("![[scan.tiff]]", .broken, #line),                                      // by path from the root: not there
            ("![[garden/scan.tiff]]", .url("scan.tiff"), #line),
            ("![[nope.png]]", .broken, #line),
            // What reaches nothing has no URL at all.
            ("[[Missing]]", .broken, #line),
            ("[[soil#No such heading]]", .broken, #line),
            ("[[soil#^nope]]", .broken, #line),
            // Several match: the first candidate, marked ambiguous.
            ("[[dup]]", .ambiguous("../a/dup.md"), #line),
            ("[[dup#Dup A]]", .ambiguous("../a/dup.md#dup-a"), #line),
            ("[[dup#Dup B]]", .ambiguous("../a/dup.md"), #line),
            // Links into the previewed note itself keep the renderer's own `#slug`.
            ("[[#Beds]]", nil, #line),
        ]
        for row in rows {
            XCTAssertEqual(destination(row.link), row.expected, row.link, line: row.line)
        }
    }

    /// Markdown links the notebook finds elsewhere than their path says (by name in a vault, a
    /// book's published pages) point at what they reach; the others stay as written.
    func testMarkdownLinksFoundByNameOrAsPagesPointWhereTheyLead() throws {
        var notebook = PreviewLinksTests.notebook(Fixture("""
            //- /book/chapter.md
            # Chapter

            <a id="old"></a>

            ## Getting started
            //- /book/intro.md
            # Intro
            //- /notes/Seed Catalogue.md
            # Seeds
            //- /img/pic.png
            """))
        notebook.markdownResolution = .obsidian
        let text = """
            [c](chapter.html) [c](chapter.html#old) [g](chapter.htm#getting-started) [i](intro.md) [i](intro)
            [s](Seed%20Catalogue.md#Seeds) [s](../notes/Seed%20Catalogue.md) ![p](pic.png) [x](nowhere.md)
            [w](https://example.com/a.html) [r][ref]

            [ref]: chapter.html

            """
        let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
        let links = NoteSymbols.extract(from: tree, path: "book/appendix.md").links
        let destinations = PreviewLinks.markdownDestinations(of: links, catalog: notebook.catalog, notePath: "book/appendix.md")
        XCTAssertEqual(destinations, [
            "chapter.html": "chapter.md",
            "chapter.html#old": "chapter.md#old",
            "chapter.htm#getting-started": "chapter.md#getting-started",
            "Seed%20Catalogue.md#Seeds": "../notes/Seed%20Catalogue.md#seeds",
            "pic.png": "../img/pic.png",
        ])
        var options = HTMLOptions.notebookPreview
        options.linkDestinations = destinations
        let html = String(decoding: HTMLRenderer(options: options).render(tree), as: UTF8.self)
        XCTAssertTrue(html.contains(#"<a href="chapter.md">c</a> <a href="chapter.md#old">c</a>"#), html)
        XCTAssertTrue(html.contains(#"<a href="intro.md">i</a> <a href="intro">i</a>"#), "as written: \(html)")
        XCTAssertTrue(html.contains(#"<img src="../img/pic.png" alt="p" />"#), html)
        XCTAssertTrue(html.contains(#"<a href="nowhere.md">x</a>"#), html)
        XCTAssertTrue(html.contains(#"<a href="chapter.md">r</a>"#), "a reference link too: \(html)")
    }

    func testPercentEncodingKeepsOnlyUnreservedBytesAndSlashes() {
        XCTAssertEqual(PreviewLinks.encoded("a b/c?d#e%f&g'h"), "a%20b/c%3Fd%23e%25f%26g%27h")
        XCTAssertEqual(PreviewLinks.encoded("../x-y_z.~.md"), "../x-y_z.~.md")
        XCTAssertEqual(PreviewLinks.encoded("é"), "%C3%A9")
    }
}
