import XCTest
import MarkdownSyntax
@testable import NotebookIndex
import TestSupport

/// The notebook index kept up to date note by note: it must always equal an index built from
/// scratch, and it must name every other note whose problems an edit changes.
final class NotebookTests: XCTestCase {
    static func symbols(_ path: String, _ text: String) -> NoteSymbols {
        NoteSymbols.extract(from: MarkdownParser.parse(text, options: .notebook), path: path)
    }

    static func scratch(_ texts: [String: String], assets: Set<String>, order: [String],
                        markdownResolution: MarkdownResolution = .relative) -> Notebook {
        var notebook = Notebook()
        notebook.markdownResolution = markdownResolution
        for path in order { if let text = texts[path] { notebook.update(symbols(path, text)) } }
        for asset in assets { notebook.addAsset(asset) }
        return notebook
    }

    /// Pieces an edit inserts: links of every form, tags, headings, front matter, block ids.
    static let snippets = [
        "[[soil]]", "[[Soil Tests]]", "[[garden/soil#Tests]]", "[[beds#^b1]]", "[[Missing]]", "[[dup]]",
        "![[plot.png]]", "![[img/plot.png|80]]", "![[PIC.png]]", "[[garden/pic.png]]", "[s](garden/soil.md)", "[s](../soil.md#tests)", "[x](beds.md#nowhere)",
        "#garden", "#garden/beds", "#🌱", "# Tests", "## Beds", "Text ^b1", "[r][ref]\n\n[ref]: beds.md",
        "---\ntitle: Soil Tests\naliases: [dirt]\ntags: [garden]\n---", "[[dirt]]", "[[Beds]]", "plain words",
        // The resolution rules of Obsidian vaults and static sites: names shared by notes in
        // sibling folders (the linking note's own folder wins), attachments of any kind by name
        // with a fragment, headings with code and punctuation, Markdown links by name, pages
        // (`chapter.html`) for notes, HTML ids, paths above the root, names with `#`.
        "[[note]]", "[n](note.md)", "[n](../b/note.md)", "![[clip.mp4#t=10]]", "[[LICENSE]]", "![[My (draft) scan.pdf]]",
        "[l](LICENSE)", "[v](clip.mp4)", "## `move` it", "## How large can it be?", "[[#move it]]",
        "[[chapter#How large can it be]]", "[c](chapter.html)", "[c](chapter.html#old-heading)", "[[chapter#old-heading]]",
        "<a id=\"old-heading\"></a>", "<p name=\"x\" id='other'>", "[o](../../outside.md)", "[[C%23 notes]]",
        "[[C# notes]]", "[[C# notes#move it]]",
        // Full-text search: words in every field (the postings and lengths must follow).
        "Café au lait", "CAFE", "日本語の本", "本", "`soil words`", "```\nsoil block\n```", "$x + soil$",
    ]

    func testIncrementalUpdatesEqualAFromScratchBuild() {
        checkIncrementalUpdates(markdownResolution: .relative, seed: 20261122)
    }

    /// The same with Markdown links found by name when their path reaches nothing (a vault).
    func testIncrementalUpdatesEqualAFromScratchBuildInAVault() {
        checkIncrementalUpdates(markdownResolution: .obsidian, seed: 20261124)
    }

    private func checkIncrementalUpdates(markdownResolution mode: MarkdownResolution, seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        var texts: [String: String] = [
            "index.md": "# Home\n\n[[soil]] [[beds]] #garden\n",
            "garden/soil.md": "# Soil\n\n## Tests\n\nText ^b1\n",
            "beds.md": "---\ntitle: Beds\ntags: [garden/beds]\n---\n# Beds\n\n[[garden/soil#Tests]]\n",
            "a/dup.md": "# Dup A\n",
            "b/dup.md": "# Dup B\n",
        ]
        let names = ["index.md", "garden/soil.md", "beds.md", "a/dup.md", "b/dup.md", "new.md", "garden/new.md",
                     "soil.md", "x/y/dirt.md", "a/note.md", "b/note.md", "a/b/note.md", "chapter.md", "a/chapter.md",
                     "C# notes.md"]
        var assets: Set<String> = []
        var notebook = NotebookTests.scratch(texts, assets: assets, order: texts.keys.sorted(), markdownResolution: mode)
        for step in 0..<600 {
            let path = names[generator.next(names.count)]
            let before = notebook
            var changedPaths: Set<String> = [path]
            var affected: Set<String> = []
            switch generator.next(10) {
            case 0:
                affected = notebook.remove(path: path)?.affected ?? []
                texts[path] = nil
            case 1:
                // Files that embeds find by name: several share a name, at different depths.
                let assetNames = ["plot.png", "img/plot.png", "a/b/plot.png", "garden/pic.png", "x/pic.png", "media/clip.mp4",
                             "a/clip.mp4", "LICENSE", "a/LICENSE", "docs/My (draft) scan.pdf", "chapter.html"]
                let asset = assetNames[generator.next(assetNames.count)]
                affected = generator.next(2) == 0 ? notebook.addAsset(asset) : notebook.removeAsset(asset)
                // Re-sync `assets` with what the call did.
                assets = notebook.assets
                changedPaths = []
            default:
                var lines = (texts[path] ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if generator.next(3) == 0, !lines.isEmpty {
                    lines.remove(at: generator.next(lines.count))
                } else {
                    lines.insert(NotebookTests.snippets[generator.next(NotebookTests.snippets.count)],
                                 at: generator.next(lines.count + 1))
                }
                let text = lines.joined(separator: "\n")
                texts[path] = text
                affected = notebook.update(NotebookTests.symbols(path, text)).affected
            }
            var order = texts.keys.sorted()
            order.shuffle(using: &generator)
            let fresh = NotebookTests.scratch(texts, assets: assets, order: order, markdownResolution: mode)
            XCTAssertEqual(notebook, fresh, "step \(step): incremental index differs from a fresh build after editing \(path)")
            for query in ["soil", "cafe", "本語", "tag:garden", "soil tests"] {
                XCTAssertEqual(notebook.search(SearchQuery(query), limit: 50), fresh.search(SearchQuery(query), limit: 50),
                               "step \(step): \(query) ranks differently after editing \(path)")
            }
            // Every other note whose problems changed must be among those the update named.
            for other in fresh.notes.keys where !changedPaths.contains(other) {
                if before.diagnostics(for: other) != notebook.diagnostics(for: other) {
                    XCTAssertTrue(affected.contains(other), "step \(step): editing \(path) changed \(other)'s problems but did not name it")
                }
            }
            if notebook != fresh { return }
        }
    }

    /// A scan files notes in bulk, in batches in any order, and a note may arrive again (an edit
    /// raced the scan): the notebook equals one built note by note from the final texts.
    func testBulkInsertEqualsUpdatesWhateverTheBatches() {
        let texts = [
            ("garden/soil.md", "---\ntitle: Soil Tests\naliases: [dirt, Earth]\ntags: [garden]\n---\n# Soil\n\n## pH ^b1\n"),
            ("index.md", "[[soil]] [[Soil Tests]] [[dirt]] [m](garden/soil.md#ph) #garden #index\n"),
            ("Garden/Beds.md", "# Beds\n[up](../garden/soil.md) [[garden/soil#pH]] ![[plot.png]]\n"),
            ("garden/beds.markdown", "# Other beds\n[[Beds]] #garden/beds\n"),
        ]
        var expected = Notebook()
        for (path, text) in texts { expected.update(NotebookTests.symbols(path, text)) }
        expected.update(NotebookTests.symbols("index.md", "[[soil]] changed #index\n"))

        var bulk = Notebook()
        bulk.reserveCapacity(notes: texts.count)
        bulk.insert(Array(texts.reversed().prefix(2)).map { Notebook.prepare(NotebookTests.symbols($0.0, $0.1)) })
        bulk.insert(Array(texts.reversed().dropFirst(2)).map { Notebook.prepare(NotebookTests.symbols($0.0, $0.1)) })
        bulk.insert([Notebook.prepare(NotebookTests.symbols("index.md", "[[soil]] changed #index\n"))])
        XCTAssertEqual(bulk, expected)
        XCTAssertEqual(bulk.catalog.notes(named: "dirt"), ["garden/soil.md"])
        XCTAssertEqual(bulk.catalog.notes(named: "beds"), ["Garden/Beds.md", "garden/beds.markdown"])
    }

    func testBacklinksFindEveryFormOfLinkToANote() {
        var notebook = Notebook()
        let files = [
            ("garden/soil.md", "---\ntitle: Soil Tests\naliases: [dirt]\n---\n# Soil\n\n## pH\n\nAcid ^b1\n\n[[#pH]]\n"),
            ("index.md", "[[soil]] [[Soil Tests]] [[dirt|the dirt]] [m](garden/soil.md#ph) ![[soil#^b1]]\n[[other]]\n"),
            ("garden/beds.md", "[up](soil.md) [[garden/soil#pH]] [elsewhere](../index.md)\n"),
            ("other.md", "Nothing here about it. [[soiled]]\n"),
        ]
        for (path, text) in files { notebook.update(NotebookTests.symbols(path, text)) }
        let found = notebook.backlinks(to: "garden/soil.md").map { "\($0.source): \($0.link.destination) \($0.heading?.text ?? "")\($0.blockID.map { "^" + $0.id } ?? "")" }
        XCTAssertEqual(found, [
            "garden/beds.md: soil.md ",
            "garden/beds.md: garden/soil#pH pH",
            "garden/soil.md: #pH pH",
            "index.md: soil ",
            "index.md: Soil Tests ",
            "index.md: dirt ",
            "index.md: garden/soil.md#ph pH",
            "index.md: soil#^b1 ^b1",
        ])
    }

    func testTagUsesCountNestedTagsUnderTheirParents() {
        var notebook = Notebook()
        notebook.update(NotebookTests.symbols("a.md", "---\ntags: [garden]\n---\n#garden/beds #garden #compost\n"))
        notebook.update(NotebookTests.symbols("b.md", "#garden/beds/raised text #gardening\n"))
        XCTAssertEqual(notebook.tagCounts, ["garden": 2, "garden/beds": 1, "garden/beds/raised": 1, "compost": 1, "gardening": 1])
        XCTAssertEqual(notebook.uses(ofTag: "garden"), ["a.md": 3, "b.md": 1])
        XCTAssertEqual(notebook.uses(ofTag: "garden/beds"), ["a.md": 1, "b.md": 1])
        notebook.remove(path: "a.md")
        XCTAssertEqual(notebook.tagCounts, ["garden/beds/raised": 1, "gardening": 1])
    }
}

/// The byte-level fast path for a link's names gives exactly what the general path gives.
final class LinkNameTests: XCTestCase {
    func testFastPathEqualsGeneralPath() {
        let targets = ["", "soil", "Soil Tests", "garden/Soil.md", "garden\\beds.markdown", "a.b.c", ".hidden", "folder/",
                       " padded ", "a/ b .md", "x%20y.md", "%41.md", "Ünïcode", "日本/語.md", "https://example.org/x.md",
                       "//host/a", "mailto:a@b.c", "C:/notes/a.md", "a/b/", "/root.md", "UPPER/CASE.MD", "dot.", "a..b",
                       "tab\tin", "ends.with/.dot", "Σοφία/ΑΒΓ.md", "café/Été.md", "straße", "ǅemal", "Ωmega%20x", "日本語.md",
                       // Escapes: decoded for Markdown links before the fast path reads them.
                       "a%2Fb.md", "%E6%97%A5/%E6%9C%AC.md", "%zz.md", "%FF.md", "%20a.md", "a%20.md", "a%2E.md", "%25.md",
                       "HTTP%3A//x.org", "Kasho%20clacha/%D8%B3%D9%84.md#x", "%C3%89t%C3%A9.md", "%", "a%2", "%2f",
                       "%2541.md", "a%252Fb.md", "%20", "%20%20", "%E3%83%A9%E3%83%B3/%E3%81%B3.md", "Trirt%20prevom/Shaflea%20Lioio.md"]
        for target in targets {
            for isWiki in [false, true] {
                var names: [String] = []
                Notebook.appendLinkNames(isWiki: isWiki, target: target, to: &names)
                XCTAssertEqual(names, Notebook.linkNames(isWiki: isWiki, target: target), "\(target) wiki: \(isWiki)")
            }
        }
    }
}
