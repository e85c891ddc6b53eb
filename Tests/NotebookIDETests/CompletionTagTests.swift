import NotebookIndex
import XCTest
@testable import NotebookIDE

/// Tags in text and front matter, and front-matter keys and values, ranked by use.
final class CompletionTagTests: XCTestCase {
    func testTagsAreSortedByUse() {
        let (_, _, list) = CompletionFixture.complete("Text #$0")
        XCTAssertEqual(list.items.map(\.label), ["garden", "veg", "journal", "recipe", "soil"])
        XCTAssertEqual(list.items.map(\.detail), ["5 uses", "2 uses", "1 use", "1 use", "1 use"])
        XCTAssertEqual(list.items.first?.kind, .tag)
        assertCompletion("Text #ve$0 more", pick: "veg", gives: "Text #veg more")
        assertCompletion("Text #ga$0rd more", pick: "garden", gives: "Text #garden more")
    }

    func testPrefixMatchesComeBeforeMoreUsedSubstringMatches() {
        let workspace = CompletionWorkspace(notes: [], tagCounts: ["garden": 50, "den": 2, "gardening/roses": 3])
        let (_, _, list) = CompletionFixture.complete("#den$0", workspace: workspace)
        XCTAssertEqual(list.items.map(\.label), ["den", "garden", "gardening/roses"])
        XCTAssertEqual(list.items.map(\.sortText), ["0000", "0001", "0002"])
        // A nested tag's last part starts a word: it comes before a more used inner match.
        let (_, _, roses) = CompletionFixture.complete("#ro$0", workspace: CompletionWorkspace(
            notes: [], tagCounts: ["gardening/roses": 1, "hero": 9]))
        XCTAssertEqual(roses.items.map(\.label), ["gardening/roses", "hero"])
    }

    func testTheTagBeingTypedIsNotCountedAsAUse() {
        // The counts include this note, whose half-typed `#veggi` is one use of a tag that does
        // not exist yet, and its `#garden` above is a real use.
        let current = "Some #garden here\n\nText #veggi$0\n"
        let (bytes, _) = CompletionFixture.cursor(current)
        let symbols = CompletionFixture.symbols(String(decoding: bytes, as: UTF8.self), path: "scratch.md")
        var counts = CompletionWorkspace.tagCounts(of: CompletionFixture.notebook.files.map {
            CompletionFixture.symbols($0.text, path: $0.path)
        } + [symbols])
        XCTAssertEqual(counts["veggi"], 1)
        counts["veg"] = 2
        let workspace = CompletionWorkspace(notes: [], tagCounts: counts)
        let (_, _, list) = CompletionFixture.complete(current, workspace: workspace)
        XCTAssertEqual(list.items.map(\.label), [])
        let (_, _, all) = CompletionFixture.complete("Some #garden here\n\nText #ve$0gg\n", workspace: workspace)
        XCTAssertEqual(all.items.map(\.label), ["veg", "veggi"])
    }

    /// In an Obsidian vault `#Garden` and `#garden` are one tag: one item, written as its most
    /// used spelling, with every spelling's uses. Elsewhere the spellings are tags of their own.
    func testTagsThatDifferInCaseAreOneInAVault() {
        let counts = ["garden": 3, "Garden": 1, "GARDEN": 1, "Veg": 2, "veg": 1, "Straße": 1, "STRASSE": 1, "straße": 2]
        var catalog = NoteCatalog([])
        catalog.markdownResolution = .obsidian
        let vault = CompletionWorkspace(catalog: catalog, tagCounts: counts)
        let (_, _, merged) = CompletionFixture.complete("Text #$0", workspace: vault)
        XCTAssertEqual(merged.items.map(\.label), ["garden", "Veg", "straße", "STRASSE"])
        XCTAssertEqual(merged.items.map(\.detail), ["5 uses", "3 uses", "3 uses", "1 use"])
        // The half-typed tag is one of the uses, whatever its case.
        let (_, _, typing) = CompletionFixture.complete("Text #GARD$0", workspace: vault)
        XCTAssertEqual(typing.items.map(\.label), ["garden"])
        let (_, _, plain) = CompletionFixture.complete("Text #$0", workspace: CompletionWorkspace(notes: [], tagCounts: counts))
        XCTAssertEqual(plain.items.count, counts.count)
    }

    func testNoTagsWhereATagCannotBe() {
        for fixture in ["# $0", "a#g$0", "`#ga$0`", "```\n#ga$0\n```\n", "See http://x.org/#ga$0"] {
            XCTAssertNil(CompletionFixture.complete(fixture).context, fixture)
        }
    }

    func testFrontMatterTagsWithoutHash() {
        assertCompletion("---\ntags:\n  - ga$0\n---\n", pick: "garden", gives: "  - garden")
        assertCompletion("---\ntags: [journal, ve$0]\n---\n", pick: "veg", gives: "tags: [journal, veg]")
        assertCompletion("---\ntags: [$0]\n---\n", pick: "soil", gives: "tags: [soil]")
        assertCompletion("---\ntag: re$0\n---\n", pick: "recipe", gives: "tag: recipe")
    }

    func testFrontMatterKeysAndValues() {
        let (_, _, keys) = CompletionFixture.complete("---\n$0\n---\n")
        XCTAssertEqual(keys.items.first?.label, "tags")
        assertCompletion("---\nsta$0\n---\n", pick: "status", gives: "status: ")
        // Keys the note already has are not offered again, except the one being edited.
        XCTAssertFalse(labels("---\nstatus: x\nt$0\n---\n").contains("status"))
        XCTAssertTrue(labels("---\nsta$0tus: x\n---\n").contains("status"))
        assertCompletion("---\nsta$0: x\n---\n", pick: "status", gives: "status: x")
        let (_, _, values) = CompletionFixture.complete("---\nstatus: $0\n---\n")
        XCTAssertEqual(values.items.map(\.label), ["draft", "done"])
        XCTAssertEqual(values.items.map(\.detail), ["2 uses", "1 use"])
        assertCompletion("---\nstatus: do$0\n---\n", pick: "done", gives: "status: done")
        assertCompletion("---\ntitle: \"New$0\"\n---\n", pick: "New Year", gives: "title: \"New Year\"")
        XCTAssertEqual(labels("---\nunknown: $0\n---\n"), [])
    }

    func testFrontMatterValuesAreQuotedWhenYAMLNeedsIt() {
        let workspace = CompletionWorkspace(notes: [], frontMatterValues: ["subtitle": ["Part: One": 3, "plain words": 2, "#1": 1]])
        assertCompletion("---\nsubtitle: P$0\n---\n", pick: "Part: One", gives: "subtitle: \"Part: One\"", workspace: workspace)
        assertCompletion("---\nsubtitle: \"P$0\"\n---\n", pick: "Part: One", gives: "subtitle: \"Part: One\"",
                         workspace: workspace)
        assertCompletion("---\nsubtitle: pl$0\n---\n", pick: "plain words", gives: "subtitle: plain words", workspace: workspace)
        assertCompletion("---\nsubtitle: $0\n---\n", pick: "#1", gives: "subtitle: \"#1\"", workspace: workspace)
    }

    func testAValueIsNotOfferedBackFromTheNoteBeingEdited() {
        // The notebook's counts include this note as indexed, with the half-typed value.
        let notes: [(path: String, text: String)] = [
            ("a.md", "---\nstatus: active\n---\n"),
            ("b.md", "---\nstatus: archived\n---\n"),
            ("c.md", "---\nstatus: active\n---\n"),
            ("scratch.md", "---\nstatus: ac\ntags: [x]\n---\n"),
        ]
        let workspace = CompletionFixture.workspace(notes)
        let (_, _, list) = CompletionFixture.complete("---\nstatus: ac$0\ntags: [x]\n---\n", workspace: workspace)
        XCTAssertEqual(list.items.map(\.label), ["active", "archived"])
        XCTAssertEqual(list.items.map(\.detail), ["2 uses", "1 use"])
        assertCompletion("---\nstatus: ac$0\ntags: [x]\n---\n", pick: "active", gives: "status: active", workspace: workspace)
        // A value another note uses stays, counted without this note.
        let shared = CompletionFixture.workspace(notes + [("d.md", "---\nstatus: ac\n---\n")])
        let (_, _, both) = CompletionFixture.complete("---\nstatus: ac$0\ntags: [x]\n---\n", workspace: shared)
        XCTAssertEqual(both.items.map(\.label), ["active", "ac", "archived"])
        XCTAssertEqual(both.items.map(\.detail), ["2 uses", "1 use", "1 use"])
        // List items of this note are left out the same way.
        let listed = CompletionFixture.workspace([("a.md", "---\nauthors: [Ann, Bob]\n---\n"),
                                                  ("scratch.md", "---\nauthors:\n  - Bo\n---\n")])
        XCTAssertEqual(CompletionFixture.complete("---\nauthors:\n  - Bo$0\n---\n", workspace: listed).list.items.map(\.label),
                       ["Bob"])
    }

    func testQuotedValuesAreEscapedAndClosedOnce() {
        assertCompletion("---\ntitle: \"New$0\n---\n", pick: "New Year", gives: "title: \"New Year\"")
        assertCompletion("---\ntitle: 'New$0'\n---\n", pick: "New Year", gives: "title: 'New Year'")
        let workspace = CompletionWorkspace(notes: [], frontMatterValues: ["quote": ["it's \"fine\"": 1]])
        assertCompletion("---\nquote: 'it$0\n---\n", pick: "it's \"fine\"", gives: "quote: 'it''s \"fine\"'", workspace: workspace)
        assertCompletion("---\nquote: \"it$0\"\n---\n", pick: "it's \"fine\"", gives: "quote: \"it's \\\"fine\\\"\"",
                         workspace: workspace)
        assertCompletion("---\ntags: [\"ga$0]\n---\n", pick: "garden", gives: "tags: [\"garden\"]")
    }

    func testTagItemsShowTheirUses() {
        XCTAssertEqual(CompletionFixture.documentation("Text #ga$0", pick: "garden"), "`#garden` — used 5 times in the notebook")
        XCTAssertEqual(CompletionFixture.documentation("Text #rec$0", pick: "recipe"), "`#recipe` — used once in the notebook")
    }
}
