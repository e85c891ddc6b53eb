import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookIDE

/// Embeds shown in place (issue 33): the note, section or block an embed names, rendered where
/// it is written, its links resolved from its own note and written from the host page, its ids
/// its own; cycles, depth and size stopped with a link that says why. The pages are golden files
/// (`Fixtures/golden/transclusion/`, `MACMD_BLESS=1` rewrites them); what a reader relies on is
/// also asserted directly.
final class TransclusionTests: XCTestCase {
    static let fixture = Fixture("""
        //- /host.md
        # Plan

        ![[garden/soil]]

        ![[garden/soil#pH]]
        ![[soil#^acid]]

        As ![[garden/soil#pH]] says.

        ![[missing]] ![[garden/soil#Nowhere]]

        ## Self

        ![[#Self]]
        //- /garden/soil.md
        ---
        title: Soil tests
        ---
        # Soil

        See [[beds]] and ![[img/map.png|200]].

        ## pH

        Acid, as the [lab][lab] says.[^lab] ^acid

        ### Lime

        Add lime to [[#Soil|the top]].

        ## Texture

        Clay.

        [lab]: https://lab.example/
        [^lab]: The county lab.
        //- /garden/beds.md
        # Beds
        //- /garden/img/map.png
        //- /loop/a.md
        # A
        ![[b]]
        //- /loop/b.md
        # B
        ![[a]]
        //- /deep/1.md
        ![[2]]
        //- /deep/2.md
        two ![[3]]

        ![[3]]
        //- /deep/3.md
        ![[4]]
        //- /deep/4.md
        ![[5]]
        //- /deep/5.md
        ![[6]]
        //- /deep/6.md
        six
        """)

    /// The page of the note at `path` (its HTML fragment, as the preview renders it) and the
    /// transclusion that made it.
    static func page(_ path: String, depth: Int = Transclusion.defaultDepth, byteBudget: Int = Transclusion.defaultByteBudget)
        -> (html: String, transclusion: Transclusion) {
        let notebook = PreviewLinksTests.notebook(fixture)
        let texts = fixture.texts
        let fileExists = { (file: String) in texts[file] != nil }
        var page = HTMLOptions.notebookPreview
        page.locale = .en
        let transclusion = Transclusion(notebook: notebook, hostPath: path, page: page, parseOptions: .notebook, depth: depth,
                                        byteBudget: byteBudget, source: { note in
            texts[note].map { DocumentAnalysis(version: nil, text: Array($0.utf8), options: .notebook) }
        }, fileExists: fileExists)
        let tree = MarkdownParser.parse(Array(fixture.text(path).utf8), options: .notebook)
        page.wikiLinkDestinations = transclusion.embedding(PreviewLinks.destinations(of: tree, notebook: notebook, notePath: path,
                                                                                     fileExists: fileExists),
                                                           of: tree, notePath: path)
        return (String(decoding: HTMLRenderer(options: page).render(tree), as: UTF8.self), transclusion)
    }

    /// Every `id="…"` of `html`.
    static func ids(_ html: String) -> [String] {
        html.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    func testANoteASectionAndABlockAreShownWhereTheyAreEmbedded() {
        let (html, transclusion) = Self.page("host.md")
        Golden.assertMatches(html, "golden/transclusion/host.html")
        // The whole note, its `pH` section (to `## Texture`, `### Lime` included) and the block.
        XCTAssertTrue(html.contains(#"<div class="embed" data-source="garden/soil.md">"#))
        XCTAssertTrue(html.contains(#"<div class="embed" data-source="garden/soil.md#ph">"#))
        XCTAssertTrue(html.contains(#"<div class="embed" data-source="garden/soil.md#^acid">"#))
        XCTAssertTrue(html.contains("Soil tests › pH"), "the title names the note by its title")
        // Links inside resolve from `garden/`, and lead there from the host page.
        XCTAssertTrue(html.contains(#"<a class="wikilink" href="./garden/beds.md">beds</a>"#))
        XCTAssertTrue(html.contains(#"src="./garden/img/map.png" alt="img/map.png" width="200""#))
        // The section keeps the note's reference link and footnote definitions.
        XCTAssertTrue(html.contains(#"<a href="https://lab.example/">lab</a>"#))
        XCTAssertTrue(html.contains("The county lab."))
        // No id twice, though the same section is shown twice.
        let ids = Self.ids(html)
        XCTAssertEqual(Set(ids).count, ids.count, "\(ids)")
        // Inside a sentence: a link. Broken: visibly broken.
        XCTAssertTrue(html.contains(#"As <a class="wikilink embed" href="garden/soil.md#ph">garden/soil &gt; pH</a> says."#))
        XCTAssertTrue(html.contains(#"<a class="wikilink embed broken">missing</a>"#))
        // The note's own section, once: inside it the same embed would show itself again.
        XCTAssertEqual(html.components(separatedBy: #"data-source="host.md#self""#).count - 1, 1)
        XCTAssertTrue(html.contains(##"class="wikilink embed stopped" href="#self" title="Not shown here: it would show itself again""##))
        XCTAssertEqual(transclusion.embeddedNotes, ["garden/soil.md", "host.md"])
        XCTAssertEqual(transclusion.embeddedFiles, ["garden/img/map.png"])
    }

    func testACycleStopsWhereANoteWouldShowItselfAgain() {
        let (html, _) = Self.page("loop/a.md")
        Golden.assertMatches(html, "golden/transclusion/loop.html")
        // A shows B, which would show A: a link there, with the reason.
        XCTAssertEqual(html.components(separatedBy: #"<div class="embed""#).count - 1, 1)
        XCTAssertTrue(html.contains(#"<a class="wikilink embed stopped" href="a.md" title="Not shown here: it would show itself again">a</a>"#))
    }

    func testDepthAndSizeAreBounded() {
        // 1 → 2 → 3 → 4 → 5 → 6: four levels of embeds are shown, the fifth is a link.
        let (deep, _) = Self.page("deep/1.md")
        Golden.assertMatches(deep, "golden/transclusion/deep.html")
        XCTAssertTrue(deep.contains(#"data-source="deep/5.md""#))
        XCTAssertFalse(deep.contains(#"data-source="deep/6.md""#))
        XCTAssertTrue(deep.contains(#"title="Not shown here: embeds inside embeds stop at depth 4 (`preview.embedDepth`)">6</a>"#))
        // Depth 0: every embed is a link.
        let (none, _) = Self.page("deep/1.md", depth: 0)
        XCTAssertEqual(none, #"<p><a class="wikilink embed stopped" href="2.md" title="Not shown here: embeds inside embeds stop at depth 0 (`preview.embedDepth`)">2</a></p>"# + "\n")
        // Room for the text of 2 alone: 2 is shown, the 3 in it is a link.
        let (small, _) = Self.page("deep/1.md", byteBudget: Array(Self.fixture.text("deep/2.md").utf8).count)
        XCTAssertTrue(small.contains(#"data-source="deep/2.md""#))
        XCTAssertFalse(small.contains(#"data-source="deep/3.md""#))
        XCTAssertTrue(small.contains("title=\"Not shown here: the embeds of this page have reached their size limit\""), small)
    }
}
