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

    /// `[[` offers the other notes: not the note being written (its own headings come after
    /// `[[#`), nor the templates of the snippets folder, whose names only look like notes.
    func testTheNoteItselfAndTemplatesAreNoTargets() {
        let workspace = CompletionFixture.workspace([
            ("index.md", "# Home\n"), ("soil.md", "# Soil\n"), ("Templates/daily.md", "---\nprefix: daily\n---\n# {{date}}\n"),
            ("Templates/meeting.md", "# Meeting\n"), ("Templatesque.md", "# Templatesque\n"), ("zebra.md", "# Zebra\n"),
        ])
        func labels(_ text: String, in path: String, templates: String?) -> [String] {
            CompletionFixture.complete(text, in: path, workspace: workspace, templateFolder: templates).list.items.map(\.label).sorted()
        }
        XCTAssertEqual(labels("[[$0", in: "index.md", templates: "Templates"), ["Soil", "Templatesque", "Zebra"])
        XCTAssertEqual(labels("[[So$0", in: "soil.md", templates: "Templates"), [])
        XCTAssertEqual(labels("[[Meeting$0", in: "index.md", templates: "Templates"), [])
        // Without a snippets folder the notes there are notes like any other.
        XCTAssertEqual(labels("[[$0", in: "index.md", templates: nil), ["Meeting", "Soil", "Templatesque", "Zebra", "{{date}}"])
        // The note's own headings are still one `#` away.
        XCTAssertEqual(labels("# Home\n\n## Part\n\n[[#$0", in: "index.md", templates: "Templates"), ["Home", "Part"])
    }

    /// An embed of an attachment writes what Obsidian's "shortest" links write: the file's name
    /// when no other file has it, else as few of its folders as tell it apart.
    func testAttachmentsAreWrittenByTheirShortestName() {
        let files = ["Attachments/icons/lucide-x.svg", "Attachments/icons/logo.png", "Projects/Atlas/logo.png", "Archive/logo.png"]
        var catalog = NoteCatalog([CompletionFixture.symbols("# Home\n", path: "Home.md")])
        catalog.markdownResolution = .obsidian
        for file in files { catalog.insertAsset(file) }
        let vault = CompletionWorkspace(catalog: catalog, files: files)
        assertCompletion("![[lucide$0", in: "Daily/today.md", pick: "lucide-x.svg", gives: "![[lucide-x.svg]]", workspace: vault)
        // Three `logo.png`: the one the link reaches by name (the shortest path, `Archive/`) is
        // written by name, the others with the folder that tells them apart.
        let (bytes, _, list) = CompletionFixture.complete("![[logo$0", in: "Daily/today.md", workspace: vault)
        let written = list.items.map { CompletionFixture.applied($0, to: bytes) }.sorted()
        XCTAssertEqual(written, ["![[Atlas/logo.png]]", "![[icons/logo.png]]", "![[logo.png]]"])
    }

    func testCursorInTheMiddleOfAWordReplacesTheWholeWord() {
        assertCompletion("[[no$0te]] more", pick: "Note title", gives: "[[Note title]] more")
        assertCompletion("[[no$0te more", pick: "Note title", gives: "[[Note title]] more")
        assertCompletion("[[Soil Te$0xx]]", pick: "Soil Testing", gives: "[[soil tests]]")
    }

    func testNoItemEverDoublesTheBrackets() {
        // Whatever of the closing `]]` follows the cursor (none, one `]` from an editor that
        // paired a `[`, both), every item leaves exactly one `]]`.
        let fixtures = ["[[$0", "[[$0]]", "[[$0]", "![[$0]]", "![[$0]", "![[$0", "[[n$0]]", "[[n$0]", "[[n$0 ]",
                        "x [[$0]] y", "x [[$0] y", "[[index#$0", "[[index#$0]", "[[index#$0]]", "[[index#^$0]",
                        "[[index#Usage#$0]", "[[n$0|x]", "[[n$0|x]]", "[[n$0#Home]", "[[#$0]", "[[n$0]]\r\n"]
        for fixture in fixtures {
            let text = fixture.hasPrefix("[[#") ? "# Home\n\n" + fixture : fixture
            let (bytes, _, list) = CompletionFixture.complete(text)
            XCTAssertFalse(list.items.isEmpty, fixture)
            for item in list.items {
                let line = CompletionFixture.applied(item, to: bytes)
                XCTAssertFalse(line.contains("[[[") || line.contains("]]]"), "\(fixture) -> \(line)")
                XCTAssertEqual(line.utf8.count(where: { $0 == UInt8(ascii: "]") }), 2, "\(fixture) -> \(line)")
                XCTAssertTrue(line.contains("]]"), "\(fixture) -> \(line)")
            }
        }
    }

    func testALoneClosingBracketIsCompletedNotDoubled() {
        assertCompletion("See [[soi$0]", pick: "Soil Testing", gives: "See [[soil tests]]")
        assertCompletion("See [[soi$0] more", pick: "Soil Testing", gives: "See [[soil tests]] more")
        assertCompletion("See [[so$0il]", pick: "Soil Testing", gives: "See [[soil tests]]")
        assertCompletion("[[soil tests#$0]", pick: "pH & lime", gives: "[[soil tests#pH & lime]]")
        assertCompletion("[[soil tests#^$0]", pick: "^ph-block", gives: "[[soil tests#^ph-block]]")
        assertCompletion("![[pho$0]", pick: "photo one.png", gives: "![[images/photo one.png]]")
        assertCompletion("![[no$0]", pick: "Note title", gives: "![[Note title]]")
        // After a label or heading the missing `]` goes after them.
        assertCompletion("[[so$0|my label]", pick: "Soil Testing", gives: "[[soil tests|my label]]")
        assertCompletion("[[di$0|my label]", pick: "Dirt", gives: "[[soil tests|my label]]")
        assertCompletion("[[in$0#Usage]", pick: "Home", gives: "[[index#Usage]]")
        // A `]` after other words may belong to an outer `[`, and one before `(` or `[` ends a
        // link text: the wiki-link gets its own `]]`.
        assertCompletion("[see [[so$0 here]", pick: "Soil Testing", gives: "[see [[soil tests]] here]")
        assertCompletion("[see [[so$0](x.md)", pick: "Soil Testing", gives: "[see [[soil tests]]](x.md)")
    }

    func testHeadingsThatWouldBreakTheLinkAreWrittenAsTheirSlug() {
        let notes: [(path: String, text: String)] = [("n.md", "# N\n\n## C# tips\n\n## See [x] here\n\n## A | B\n\n## Plain\n")]
        let workspace = CompletionFixture.workspace(notes)
        let cases = [("C# tips", "[[n#c-tips]]"), ("See [x] here", "[[n#see-x-here]]"), ("A | B", "[[n#a--b]]"),
                     ("Plain", "[[n#Plain]]")]
        for (heading, expected) in cases {
            assertCompletion("[[n#$0", pick: heading, gives: expected, workspace: workspace)
            // The link written reaches that heading.
            let link = CompletionFixture.symbols(expected, path: "x.md").links.first
            let resolved = link.map { workspace.catalog.resolve($0, from: "x.md") }
            guard case .note("n.md", let found?, nil, _)? = resolved else { return XCTFail("\(expected): \(String(describing: resolved))") }
            XCTAssertEqual(found.text, heading)
        }
    }

    func testTextAfterTheTargetInAnUnfinishedLinkStaysInside() {
        // No `]]` is wedged between the target and a label or heading still being written.
        assertCompletion("[[so$0|my label", pick: "Soil Testing", gives: "[[soil tests|my label")
        assertCompletion("[[in$0#Usage", pick: "Home", gives: "[[index#Usage")
        // In a table the label separator is `\|`: its backslash stays.
        assertCompletion("| [[so$0\\|label]] |", pick: "Soil Testing", gives: "| [[soil tests\\|label]] |")
        assertCompletion("| [[di$0\\|label]] |", pick: "Dirt", gives: "| [[soil tests\\|label]] |")
    }

    func testCursorInsideAnExistingLinkReplacesOnlyItsTarget() {
        assertCompletion("[[Note ti$0tle]] and [[index]]", pick: "Note title", gives: "[[Note title]] and [[index]]")
        assertCompletion("[[$0index]] x", pick: "Soil Testing", gives: "[[soil tests]] x")
        assertCompletion("[[ind$0ex#Usage|see usage]]", pick: "Home", gives: "[[index#Usage|see usage]]")
        assertCompletion("[[index#Us$0age|see]]", pick: "Usage", gives: "[[index#Usage|see]]")
        assertCompletion("![[pho$0to.png]] x", pick: "photo one.png", gives: "![[images/photo one.png]] x")
        // Past the link's `]` nothing is completed.
        XCTAssertNil(CompletionFixture.complete("[[index]$0]").context)
    }

    func testWindowsLineEndingsAndWideCharactersAreKept() {
        let (bytes, _, list) = CompletionFixture.complete("🌱 [[so$0]]\r\nnext\r\n")
        let item = list.items.first { $0.label == "Soil Testing" }
        XCTAssertEqual(item.map { CompletionFixture.appliedText($0, to: bytes) }, "🌱 [[soil tests]]\r\nnext\r\n")
        let (open, _, unclosed) = CompletionFixture.complete("é 🌱 [[so$0\r\nnext")
        let soil = unclosed.items.first { $0.label == "Soil Testing" }
        XCTAssertEqual(soil.map { CompletionFixture.appliedText($0, to: open) }, "é 🌱 [[soil tests]]\r\nnext")
    }

    func testAliasItemInsertsStemAndAlias() {
        assertCompletion("[[di$0", pick: "Dirt", gives: "[[soil tests|Dirt]]")
        assertCompletion("[[ea$0]]", pick: "Earth", gives: "[[soil tests|Earth]]")
        // A label already written stays; the alias item then inserts only the target, as it
        // does before a heading (`[[soil tests|Dirt#pH]]` would make `Dirt#pH` the label).
        assertCompletion("[[di$0|shown]]", pick: "Dirt", gives: "[[soil tests|shown]]")
        assertCompletion("[[di$0#pH & lime]]", pick: "Dirt", gives: "[[soil tests#pH & lime]]")
        assertCompletion("[[di$0#pH & lime]", pick: "Dirt", gives: "[[soil tests#pH & lime]]")
        assertCompletion("[[di$0#pH & lime", pick: "Dirt", gives: "[[soil tests#pH & lime")
        let odd = CompletionFixture.workspace([("n.md", "---\naliases: [\"a]] b\", \"c | d\"]\n---\n")])
        assertCompletion("[[a$0", pick: "a]] b", gives: "[[n]]", workspace: odd)
        assertCompletion("[[c$0", pick: "c | d", gives: "[[n]]", workspace: odd)
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

    func testItemsCarryTheirTargetAndNoPreviewIsBuiltUpFront() {
        // A `[[` list reads no note text: previews are made when an item is resolved.
        let (_, _, list) = CompletionFixture.complete("[[$0")
        XCTAssertFalse(list.items.isEmpty)
        for item in list.items {
            XCTAssertNil(item.documentation, item.label)
            XCTAssertEqual(item.target, .note(path: item.detail ?? ""), item.label)
        }
        let (_, _, aliases) = CompletionFixture.complete("[[di$0")
        XCTAssertEqual(aliases.items.first { $0.label == "Dirt" }?.target, .note(path: "garden/soil tests.md"))
    }

    func testNoteAndAliasItemsPreviewTheNote() {
        let preview = """
            **Soil Testing**

            `garden/soil tests.md`

            ---

            # Soil

            ## pH & lime

            Acid soils need lime. ^ph-block

            More #garden notes.
            """
        XCTAssertEqual(CompletionFixture.documentation("[[so$0", pick: "Soil Testing"), preview)
        XCTAssertEqual(CompletionFixture.documentation("[[di$0", pick: "Dirt"), preview)
        XCTAssertEqual(CompletionFixture.documentation("[[no$0", pick: "Note title"),
                       "**Note title**\n\n`Note title.md`\n\n---\n\n# Note title")
        // The front matter is not part of the opening lines.
        XCTAssertEqual(CompletionFixture.documentation("[[New$0", pick: "New Year"),
                       "**New Year**\n\n`journal/2024-01-01.md`\n\n---\n\nText #garden")
    }

    func testHeadingAndBlockItemsPreviewTheirSectionAndBlock() {
        // The heading is escaped Markdown (`\&` shows as `&`, never as an entity).
        XCTAssertEqual(CompletionFixture.documentation("[[soil tests#p$0", pick: "pH & lime"), #"""
            **Soil Testing** › pH \& lime

            `garden/soil tests.md`

            ---

            Acid soils need lime. ^ph-block

            More #garden notes.
            """#)
        XCTAssertEqual(CompletionFixture.documentation("[[index#Us$0", pick: "Usage"),
                       "**Home** › Usage\n\n`index.md`\n\n---\n\n### Install")
        XCTAssertEqual(CompletionFixture.documentation("[[soil tests#^$0", pick: "^ph-block"),
                       "**Soil Testing**\n\n`garden/soil tests.md`\n\n---\n\nAcid soils need lime. ^ph-block")
        // This note's own headings preview its current text.
        let text = "# Alpha\n\n## Beta\n\nBeta's text.\n\n## Gamma\n\nSee [[#$0]]\n"
        XCTAssertEqual(CompletionFixture.documentation(text, pick: "Beta"),
                       "**Alpha** › Beta\n\n`scratch.md`\n\n---\n\nBeta's text.")
    }

    func testAHeadingThatMovedIsFoundByItsTextAndOneThatIsGoneShowsTheNote() {
        let note = CompletionFixture.symbols("# Top\n\n## Moved\n\nBody.\n", path: "n.md")
        let source = Array("# Top\n\n## Moved\n\nBody.\n".utf8)
        XCTAssertEqual(CompletionTarget.heading(path: "n.md", headingIndex: 0, text: "Moved").documentation(note: note, source: source),
                       "**Top** › Moved\n\n`n.md`\n\n---\n\nBody.")
        XCTAssertEqual(CompletionTarget.heading(path: "n.md", headingIndex: 7, text: "Gone").documentation(note: note, source: source),
                       "**Top**\n\n`n.md`\n\n---\n\n# Top\n\n## Moved\n\nBody.")
        XCTAssertEqual(CompletionTarget.block(path: "n.md", id: "gone").documentation(note: note, source: []), "**Top**\n\n`n.md`")
    }

    func testFileItemsSayWhatTheyAre() {
        let (_, _, list) = CompletionFixture.complete("![[$0")
        XCTAssertEqual(list.items.first { $0.label == "photo one.png" }?.documentation, "Image `images/photo one.png`")
        XCTAssertEqual(list.items.first { $0.label == "manual.pdf" }?.documentation, "PDF document `docs/manual.pdf`")
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


/// Completion as the server answers it (`IDECheck`): the labels, and the line after picking the
/// first.
final class CompletionCheckTests: XCTestCase {
    func testCompletion() {
        IDECheck.completion("""
            //- /index.md
            See [[so$0
            //- /garden/soil.md
            ---
            aliases: [Dirt]
            ---
            # Soil tests
            //- /garden/sowing.md
            # Sowing
            """, "Soil tests\nSowing\n=> See [[soil]]")
        IDECheck.completion("""
            //- /index.md
            See [[soil#$0]]
            //- /soil.md
            # Soil

            ## pH

            ## Texture
            """, "Soil\npH\nTexture\n=> See [[soil#Soil]]")
        IDECheck.completion("""
            //- /index.md
            A #gar$0
            //- /b.md
            #garden #garlic
            """, "garden\ngarlic\n=> A #garden")
        IDECheck.completion("""
            //- /index.md
            `[[so$0`
            //- /soil.md
            # Soil
            """, "")
    }
}
