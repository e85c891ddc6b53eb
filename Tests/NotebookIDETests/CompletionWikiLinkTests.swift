import MarkdownSyntax
import NotebookIndex
import XCTest
@testable import NotebookIDE

/// Wiki-link and embed completion, checked on the line the user sees after picking an item.
final class CompletionWikiLinkTests: XCTestCase {
    func testNoteItemInsertsTheStemAndExactlyOneClosing() {
        assertCompletion("See [[no$0", pick: "Note title", gives: "See [[Note title]]")
        assertCompletion("See [[no$0]] now", pick: "Note title", gives: "See [[Note title]] now")
        assertCompletion("See [[$0]]", pick: "Note title", gives: "See [[Note title]]")
        assertCompletion("See [[so$0", pick: "Soil Testing", gives: "See [[soil tests]]")
        assertCompletion("[[gar$0", pick: "Soil Testing", gives: "[[soil tests]]")
    }

    func testCursorInTheMiddleOfAWordReplacesTheWholeWord() {
        assertCompletion("[[no$0te]] more", pick: "Note title", gives: "[[Note title]] more")
        assertCompletion("[[no$0te more", pick: "Note title", gives: "[[Note title]] more")
        assertCompletion("[[Soil Te$0xx]]", pick: "Soil Testing", gives: "[[soil tests]]")
    }

    func testNoItemEverDoublesTheBrackets() {
        for fixture in ["[[$0", "[[$0]]", "![[$0]]", "[[n$0]]", "x [[$0]] y"] {
            let (bytes, _, list) = CompletionFixture.complete(fixture)
            XCTAssertFalse(list.items.isEmpty, fixture)
            for item in list.items {
                let line = CompletionFixture.applied(item, to: bytes)
                XCTAssertFalse(line.contains("[[[") || line.contains("]]]"), "\(fixture) -> \(line)")
                XCTAssertEqual(line.utf8.count(where: { $0 == UInt8(ascii: "]") }), 2, "\(fixture) -> \(line)")
            }
        }
    }

    func testAliasItemInsertsStemAndAlias() {
        assertCompletion("[[di$0", pick: "Dirt", gives: "[[soil tests|Dirt]]")
        assertCompletion("[[ea$0]]", pick: "Earth", gives: "[[soil tests|Earth]]")
        // A label already written stays; the alias item then inserts only the target.
        assertCompletion("[[di$0|shown]]", pick: "Dirt", gives: "[[soil tests|shown]]")
        let (_, _, list) = CompletionFixture.complete("[[di$0")
        let dirt = list.items.first { $0.label == "Dirt" }
        XCTAssertEqual(dirt?.kind, .alias)
        XCTAssertEqual(dirt?.filterText, "Dirt")
    }

    func testAmbiguousStemsInsertTheShortestPathTheResolverAccepts() {
        let (_, _, list) = CompletionFixture.complete("[[tom$0")
        var inserted: [String: String] = [:]
        for item in list.items where item.kind == .note { inserted[item.detail ?? ""] = item.newText }
        XCTAssertEqual(inserted["garden/plants/tomato.md"], "plants/tomato]]")
        XCTAssertEqual(inserted["archive/tomato.md"], "archive/tomato]]")
        XCTAssertEqual(inserted["recipes/tomato.md"], "recipes/tomato]]")
        // Each inserted target resolves back to its own note.
        let catalog = CompletionFixture.sharedWorkspace.catalog
        for (path, text) in inserted {
            let target = String(text.dropLast(2))
            let link = LinkSymbol(form: .wikiLink, target: .init(text: target, range: .empty),
                                  range: .empty)
            XCTAssertEqual(catalog.resolve(link, from: "scratch.md"), .note(path, heading: nil, blockID: nil))
        }
    }

    func testFilterTextIsWhatTheUserTypedAgainst() {
        let (_, _, list) = CompletionFixture.complete("[[garden/so$0")
        let soil = list.items.first { $0.detail == "garden/soil tests.md" }
        XCTAssertEqual(soil?.filterText, "garden/soil tests")
        let (_, _, byTitle) = CompletionFixture.complete("[[Soil T$0")
        XCTAssertEqual(byTitle.items.first?.filterText, "Soil Testing")
    }

    func testNotesCloserToTheCurrentNoteComeFirst() {
        let fromRoot = labels("[[$0")
        XCTAssertEqual(Array(fromRoot.prefix(2)), ["Home", "Note title"])
        let fromJournal = labels("[[$0", in: "journal/today.md")
        XCTAssertEqual(Array(fromJournal.prefix(3)), ["New Year", "2024-01-02", "2024-01-03"])
        // Prefix matches beat closeness.
        XCTAssertEqual(labels("[[old$0", in: "journal/today.md").first, "Old tomato")
    }

    func testNonLatinTitlesAndPaths() {
        assertCompletion("[[東$0", pick: "東京メモ", gives: "[[東京]]")
        assertCompletion("[[メモ$0", pick: "東京メモ", gives: "[[東京]]")
        assertCompletion("[[日本/$0", pick: "東京メモ", gives: "[[東京]]")
    }

    func testEmbedsOfferNotesAndFiles() {
        assertCompletion("![[pho$0", pick: "photo one.png", gives: "![[images/photo one.png]]")
        assertCompletion("![[bed$0]]", pick: "bed.jpg", gives: "![[garden/bed.jpg]]")
        let (_, _, list) = CompletionFixture.complete("![[$0")
        XCTAssertTrue(list.items.contains { $0.kind == .image })
        XCTAssertTrue(list.items.contains { $0.kind == .file && $0.label == "manual.pdf" })
        XCTAssertTrue(list.items.contains { $0.kind == .note })
        // Plain links do not offer files.
        XCTAssertFalse(labels("[[pho$0").contains("photo one.png"))
    }

    func testHeadingsOfAnotherNoteAndOfThisNote() {
        assertCompletion("[[soil tests#p$0", pick: "pH & lime", gives: "[[soil tests#pH & lime]]")
        assertCompletion("[[Soil Testing#$0]]", pick: "Soil", gives: "[[Soil Testing#Soil]]")
        XCTAssertEqual(labels("[[index#$0"), ["Home", "Getting Started", "Install", "Usage", "Install"])
        let (_, _, list) = CompletionFixture.complete("[[index#$0")
        XCTAssertEqual(list.items.map(\.detail), ["H1", "H2", "H3", "H2", "H3"])
        XCTAssertEqual(list.items.map(\.sortText), ["0000", "0001", "0002", "0003", "0004"])
        // This note's own headings, from its current text.
        let text = "# Alpha\n\n## Beta\n\nSee [[#$0]]\n"
        assertCompletion(text, pick: "Beta", gives: "See [[#Beta]]")
        XCTAssertEqual(labels(text), ["Alpha", "Beta"])
    }

    func testNestedHeadingsStayInsideTheirSection() {
        XCTAssertEqual(labels("[[index#Usage#$0"), ["Install"])
        assertCompletion("[[index#Usage#In$0]]", pick: "Install", gives: "[[index#Usage#Install]]")
        XCTAssertEqual(labels("[[index#Home#Getting Started#$0"), ["Install"])
        XCTAssertEqual(labels("[[index#Nope#$0"), [])
    }

    func testBlockIDs() {
        assertCompletion("[[index#^in$0", pick: "^intro", gives: "[[index#^intro]]")
        assertCompletion("[[soil tests#^$0]]", pick: "^ph-block", gives: "[[soil tests#^ph-block]]")
        let text = "Para one. ^first\n\nPara two. ^second\n\n[[#^$0"
        XCTAssertEqual(labels(text), ["^first", "^second"])
    }

    func testDocumentationPreviewsTheTarget() {
        let (_, _, list) = CompletionFixture.complete("[[no$0", preview: { path in
            path == "Note title.md" ? "First line of the body." : nil
        })
        let item = list.items.first { $0.label == "Note title" }
        XCTAssertEqual(item?.documentation, "**Note title**\n\n`Note title.md`\n\nFirst line of the body.")
        XCTAssertEqual(item?.detail, "Note title.md")
        XCTAssertEqual(item?.kind, .note)
    }

    func testResultsAreCappedAndTheBestMatchSurvives() {
        var notes: [(path: String, text: String)] = []
        for index in 0..<300 { notes.append(("notes/note \(index).md", "# Note number \(index)\n")) }
        notes.append(("zeta.md", "# Zebra crossing\n"))
        let workspace = CompletionFixture.workspace(notes)
        let (_, _, all) = CompletionFixture.complete("[[$0", workspace: workspace, limit: 50)
        XCTAssertEqual(all.items.count, 50)
        XCTAssertTrue(all.isIncomplete)
        let (_, _, zebra) = CompletionFixture.complete("[[zeb$0", workspace: workspace, limit: 50)
        XCTAssertEqual(zebra.items.first?.label, "Zebra crossing")
        XCTAssertFalse(zebra.isIncomplete)
        let (_, _, exact) = CompletionFixture.complete("[[note 29$0", workspace: workspace, limit: 5)
        XCTAssertEqual(exact.items.first?.newText, "note 29]]")
    }
}

private extension CompletionFixture {
    static func complete(_ text: String, in path: String = "scratch.md", workspace: CompletionWorkspace = sharedWorkspace,
                         limit: Int) -> (bytes: [UInt8], context: CompletionContext?, list: CompletionList) {
        complete(text, in: path, workspace: workspace, preview: nil, limit: limit)
    }
}
