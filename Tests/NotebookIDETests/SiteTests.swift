import NotebookWorkspace
import TestSupport
import XCTest
@testable import NotebookIDE

/// A notebook as a published site (issue 34): which pages it has, where each link of a page
/// leads, what a reader sees of a note left out (`publish: false`) or of a broken link, the
/// backlinks after a note, the tag pages and the index. Each page is made as `macmd export`
/// makes it, from a notebook on disk.
final class SiteTests: XCTestCase {
    static let files: [String: String] = [
        "README.md": """
            # Garden notebook

            Start with [[soil]], the [beds](garden/beds.md#bed-c), or [[secret]].
            Also ![[secret]] and [[missing]] and [a dead link](nowhere.md).
            #garden

            ![map](img/map.png)
            """,
        "soil.md": """
            ---
            title: Soil tests
            tags: [garden/soil]
            ---
            # Soil

            | pH | bed |
            |---:|:---:|
            | 6.5 | A |

            Back [[README|home]]. ^soil-1

            ![[garden/beds#Bed C]]
            """,
        "garden/beds.md": """
            # Beds

            ## Bed C

            Clay, see [[soil#^soil-1]] and [the scan](../scan.pdf). #garden/beds #garden
            """,
        "secret.md": """
            ---
            publish: false
            ---
            # Secret plans

            The password is swordfish. #private
            """,
        "draft.md": "---\ndraft: true\n---\n# Draft\n\n[[soil]]\n",
        "Snippets/observation.md": "---\nprefix: obs\n---\n# Observation\n",
        ".macmd.json": #"{ "snippets": { "folder": "Snippets" } }"#,
        "img/map.png": "png",
        "scan.pdf": "pdf",
        "private.pdf": "never linked",
    ]

    var folder: NotebookFixture!
    var site: Site!

    override func setUpWithError() throws {
        folder = NotebookFixture(Self.files)
        let (indexed, _, refusal) = NotebookFolder.indexed(path: folder.root)
        XCTAssertNil(refusal)
        var host = AnalysisHost()
        host.addFolder(indexed.path)
        host.updateFolder(indexed.path) { $0 = indexed }
        var options = SiteOptions()
        options.title = "My garden"
        options.baseURL = "https://example.org/garden"
        site = try XCTUnwrap(Site(snapshot: host.snapshot(), folderPath: indexed.path, options: options))
    }

    override func tearDown() {
        folder.destroy()
    }

    func page(_ item: Site.Item) throws -> String {
        String(decoding: try XCTUnwrap(site.page(item)).bytes, as: UTF8.self)
    }

    func testTheSiteHasAPageForEachPublishedNoteAndForEachTag() {
        XCTAssertEqual(site.pages.pageByNote, ["README.md": "index.html", "soil.md": "soil.html", "garden/beds.md": "garden/beds.html"],
                       "left out: publish: false, draft: true, the snippets")
        XCTAssertEqual(site.items.map(site.path(of:)), [
            "index.html", "garden/beds.html", "soil.html", "_notes.html", "_tags/index.html",
            "_tags/garden.html", "_tags/garden/beds.html", "_tags/garden/soil.html",
        ], "no page for #private, used only by the secret note")
        XCTAssertEqual(site.files, ["img/map.png", "scan.pdf"], "the files published notes show or link, not the others")
        let sitemap = String(decoding: site.sitemap?.bytes ?? [], as: UTF8.self)
        XCTAssertTrue(sitemap.contains("<loc>https://example.org/garden/garden/beds.html</loc>"), sitemap)
    }

    func testLinksLeadToPagesAndALeftOutNoteIsText() throws {
        let home = try page(.note("README.md"))
        XCTAssertTrue(home.contains(#"<a class="wikilink" href="./soil.html">soil</a>"#), home)
        XCTAssertTrue(home.contains(#"<a href="./garden/beds.html#bed-c">beds</a>"#), home)
        XCTAssertTrue(home.contains(#"<span class="unpublished">secret</span>"#), "a link to a left-out note is its text")
        XCTAssertFalse(home.contains("swordfish"), "an embed never shows a left-out note")
        XCTAssertFalse(home.contains("secret.html"))
        XCTAssertTrue(home.contains(#"<a class="wikilink broken">missing</a>"#), "a broken link stays visibly broken")
        XCTAssertTrue(home.contains(#"<a class="broken">a dead link</a>"#), home)
        XCTAssertTrue(home.contains(#"<img src="./img/map.png" alt="map" />"#), home)
        XCTAssertTrue(home.contains(#"<a class="tag" href="_tags/garden.html">#garden</a>"#), home)
        XCTAssertTrue(home.contains(#"<link rel="stylesheet" href="_macmd.css">"#))
        XCTAssertTrue(home.contains(#"<title>Garden notebook · My garden</title>"#))
        XCTAssertTrue(home.contains("Content-Security-Policy"))
        XCTAssertFalse(home.contains("<script"))

        // From a folder: every URL climbs to the root first.
        let beds = try page(.note("garden/beds.md"))
        XCTAssertTrue(beds.contains(##"<a class="wikilink" href="../soil.html#%5Esoil-1">soil &gt; ^soil-1</a>"##), beds)
        XCTAssertTrue(beds.contains(#"<a href="../scan.pdf">the scan</a>"#), beds)
        XCTAssertTrue(beds.contains(#"<a class="tag" href="../_tags/garden/beds.html">#garden/beds</a>"#), beds)
        XCTAssertTrue(beds.contains(#"<link rel="stylesheet" href="../_macmd.css">"#))
        XCTAssertTrue(beds.contains(#"<a class="site-title" href="../index.html">My garden</a>"#))
    }

    func testANotePageEndsWithItsBacklinksAndCounts() throws {
        let soil = try page(.note("soil.md"))
        // Linked from the home note and the beds; not from the draft, which is left out.
        let backlinks = try XCTUnwrap(soil.range(of: #"<nav class="backlinks">"#)).lowerBound
        let list = String(soil[backlinks...])
        XCTAssertTrue(list.contains("<h2>2 notes link here</h2>"), list)
        XCTAssertTrue(list.contains(#"<li><a href="garden/beds.html">Beds</a></li>"#), list)
        XCTAssertTrue(list.contains(#"<li><a href="index.html">Garden notebook</a></li>"#), list)
        XCTAssertFalse(list.contains("Draft"))
        XCTAssertTrue(soil.contains(#"<footer class="page-statistics">"#))
        // The embedded section, its links from this page; the table aligned by classes.
        XCTAssertTrue(soil.contains(#"data-source="garden/beds.md#bed-c""#), soil)
        XCTAssertTrue(soil.contains(#"<th class="align-right">pH</th>"#), soil)
        XCTAssertFalse(soil.contains(" align="), "HTML5 has no align attribute")
    }

    func testTagPagesNestAndTheIndexListsEveryNote() throws {
        let garden = try page(.tag("garden"))
        // Its own notes, then each nested tag with its notes.
        XCTAssertTrue(garden.contains(#"<li><a href="../garden/beds.html">Beds</a></li>"#), garden)
        XCTAssertTrue(garden.contains(#"<h2><a class="tag" href="../_tags/garden/soil.html">#garden/soil</a></h2>"#), garden)
        XCTAssertTrue(garden.contains(#"<li><a href="../soil.html">Soil tests</a></li>"#), garden)
        let tags = try page(.tags)
        XCTAssertTrue(tags.contains(#"<li><a class="tag" href="../_tags/garden.html">#garden</a> <span class="site-count">3</span>"#), tags)
        XCTAssertTrue(tags.contains(#"<ul>"#) && tags.contains(#"href="../_tags/garden/beds.html">#garden/beds</a>"#), tags)
        XCTAssertFalse(tags.contains("private"))
        let notes = try page(.index)
        XCTAssertTrue(notes.contains("<p class=\"site-count\">3 notes</p>"), notes)
        XCTAssertTrue(notes.contains("<h2>garden</h2>"), notes)
    }

    func testASiteInArabicRunsRightToLeftAndItsNotesInTheirOwnDirection() throws {
        let (indexed, _, _) = NotebookFolder.indexed(path: folder.root)
        var host = AnalysisHost()
        host.addFolder(indexed.path)
        host.updateFolder(indexed.path) { $0 = indexed }
        var options = SiteOptions()
        options.locale = .ar
        let arabic = try XCTUnwrap(Site(snapshot: host.snapshot(), folderPath: indexed.path, options: options))
        let soil = String(decoding: try XCTUnwrap(arabic.page(.note("soil.md"))).bytes, as: UTF8.self)
        XCTAssertTrue(soil.contains(#"<html lang="ar" dir="rtl" data-theme="light">"#), soil)
        XCTAssertTrue(soil.contains(#"<article class="markdown-body" dir="auto">"#), "an English note reads left to right")
        XCTAssertTrue(soil.contains("<h2>ملاحظتان ترتبطان بهذه الصفحة</h2>"), soil)
        XCTAssertTrue(soil.contains(">الوسوم</a>"), soil)
    }

    func testTheSamePagesComeOutTwice() throws {
        for item in site.items {
            XCTAssertEqual(site.page(item), site.page(item), "\(item): a page is a function of the notebook")
        }
    }
}
