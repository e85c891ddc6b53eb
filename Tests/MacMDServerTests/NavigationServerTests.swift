import Foundation
import JSONRPC
import TestSupport
import XCTest
import JSON
@testable import MacMDServer

/// Navigation and refactoring over LSP, checked the way an editor shows them: which file and
/// line a jump lands on, what a hover says, what a rename changes.
final class NavigationServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home

        See [[soil#pH]] and [beds](garden/beds.md). #garden
        //- /garden/soil.md
        ---
        title: Soil notes
        ---
        # Soil

        ## pH

        Acid is fine. #garden
        //- /garden/beds.md
        # Beds

        [[soil]] [[Soil notes#pH]]

        """)

    func start(_ capabilities: JSONValue = [:], notebook: Fixture = NavigationServerTests.notebook) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: capabilities)
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md"))
        return (fixture, client)
    }

    func testDefinitionJumpsToTheHeadingInAnotherNote() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let result = client.request("textDocument/definition", fixture.at("[[so$0il#pH]]", in: "index.md"))?.value
        XCTAssertEqual(result?[0]?["uri"]?.stringValue, fixture.uri("garden/soil.md"))
        XCTAssertEqual(result?[0]?["range"]?["start"], fixture.range("$0## pH$0", in: "garden/soil.md")["start"])
    }

    func testReferencesOfAHeadingAndHoverOfALinkAndATag() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let params = fixture.at("## p$0H", in: "garden/soil.md").adding(["context": ["includeDeclaration": false]])
        let refs = try XCTUnwrap(client.request("textDocument/references", params)?.value?.arrayValue)
        XCTAssertEqual(refs.compactMap { $0["uri"]?.stringValue }, [fixture.uri("garden/beds.md"), fixture.uri("index.md")])
        XCTAssertEqual(refs.map { $0["range"] }, [fixture.range("[[soil]] $0[[Soil notes#pH]]$0", in: "garden/beds.md"),
                                                  fixture.range("$0[[soil#pH]]$0", in: "index.md")])
        let hover = client.request("textDocument/hover", fixture.at("[[so$0il#pH]]", in: "index.md"))?.value
        // NotebookIDE's hover (`HoverText`): the title and heading, the path, the section's text.
        XCTAssertEqual(hover?["contents"]?["value"]?.stringValue, "**Soil notes** › pH\n\n`garden/soil.md`\n\n---\n\nAcid is fine. #garden")
        let tag = client.request("textDocument/hover", fixture.at("#garden$0", in: "index.md"))?.value
        XCTAssertEqual(tag?["contents"]?["value"]?.stringValue, "`#garden` — used 2 times in 2 notes")
        XCTAssertEqual(hover?["contents"]?["kind"]?.stringValue, "markdown")
    }

    /// The backlinks tree over LSP: an item for a note's title and for a heading (its text in
    /// `data`), the notes that link to it with the ranges of their links, and its own links.
    func testCallHierarchyGivesBacklinksAndLinks() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        // Off any symbol, the note itself (its title is the front matter's: no title heading).
        let prepared = try XCTUnwrap(client.request("textDocument/prepareCallHierarchy", fixture.at("Acid$0 is", in: "garden/soil.md"))?.value?.arrayValue)
        let note = try XCTUnwrap(prepared.first)
        XCTAssertEqual(note["name"]?.stringValue, "Soil notes")
        XCTAssertEqual(note["detail"]?.stringValue, "garden")
        XCTAssertEqual(note["kind"], 1)
        XCTAssertEqual(note["selectionRange"], fixture.range("$0$0---\ntitle", in: "garden/soil.md"))
        let incoming = try XCTUnwrap(client.request("callHierarchy/incomingCalls", ["item": note])?.value?.arrayValue)
        XCTAssertEqual(incoming.compactMap { $0["from"]?["uri"]?.stringValue }, [fixture.uri("garden/beds.md"), fixture.uri("index.md")])
        XCTAssertEqual(incoming.map { $0["fromRanges"] }, [
            .array([fixture.range("$0[[soil]]$0 [[Soil", in: "garden/beds.md"), fixture.range("[[soil]] $0[[Soil notes#pH]]$0", in: "garden/beds.md")]),
            .array([fixture.range("$0[[soil#pH]]$0", in: "index.md")]),
        ])
        // A heading: only the links to it; the index links back to nothing of its own.
        let heading = try XCTUnwrap(client.request("textDocument/prepareCallHierarchy", fixture.at("## p$0H", in: "garden/soil.md"))?.value?[0])
        XCTAssertEqual(heading["data"], ["heading": "pH"])
        XCTAssertEqual(heading["kind"], 15)
        let toHeading = try XCTUnwrap(client.request("callHierarchy/incomingCalls", ["item": heading])?.value?.arrayValue)
        XCTAssertEqual(toHeading.map { $0["fromRanges"]?.arrayValue?.count }, [1, 1])
        let index = try XCTUnwrap(client.request("textDocument/prepareCallHierarchy", fixture.at("# Ho$0me", in: "index.md"))?.value?[0])
        let outgoing = try XCTUnwrap(client.request("callHierarchy/outgoingCalls", ["item": index])?.value?.arrayValue)
        XCTAssertEqual(outgoing.compactMap { $0["to"]?["name"]?.stringValue }, ["Beds", "Soil notes"])
        XCTAssertEqual(outgoing.map { $0["fromRanges"] }, [.array([fixture.range("$0[beds](garden/beds.md)$0", in: "index.md")]),
                                                           .array([fixture.range("$0[[soil#pH]]$0", in: "index.md")])])
    }

    /// Code lenses over LSP: listed without a command (cheap), each resolved to its count in
    /// the writer's language and `macmd.showReferences` with VS Code's `showReferences`
    /// arguments: the note, the lens's position, the places.
    func testCodeLensesCountBacklinksWhenResolved() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let uri = fixture.uri("garden/soil.md")
        let lenses = try XCTUnwrap(client.request("textDocument/codeLens", ["textDocument": ["uri": .string(uri)]])?.value?.arrayValue)
        // The title (from the front matter: the note's start) and `## pH`, which two links reach.
        XCTAssertEqual(lenses.map { $0["range"] }, [fixture.range("$0$0---\ntitle", in: "garden/soil.md"),
                                                    fixture.range("$0## pH$0", in: "garden/soil.md")])
        XCTAssertEqual(lenses.map { $0["command"] }, [nil, nil], "commands come with codeLens/resolve")
        let title = try XCTUnwrap(client.request("codeLens/resolve", lenses[0])?.value)
        XCTAssertEqual(title["command"]?["title"]?.stringValue, "3 backlinks")
        XCTAssertEqual(title["command"]?["command"]?.stringValue, "macmd.showReferences")
        let arguments = try XCTUnwrap(title["command"]?["arguments"]?.arrayValue)
        XCTAssertEqual(arguments.first?.stringValue, uri)
        XCTAssertEqual(arguments.dropFirst().first, lenses[0]["range"]?["start"])
        XCTAssertEqual(arguments.last?.arrayValue?.compactMap { $0["uri"]?.stringValue },
                       [fixture.uri("garden/beds.md"), fixture.uri("garden/beds.md"), fixture.uri("index.md")])
        XCTAssertEqual(arguments.last?.arrayValue?.last?["range"], fixture.range("$0[[soil#pH]]$0", in: "index.md"))
        let heading = try XCTUnwrap(client.request("codeLens/resolve", lenses[1])?.value)
        XCTAssertEqual(heading["command"]?["title"]?.stringValue, "2 backlinks")
        // One link: the singular; a lens whose data names nothing is returned as it came.
        let beds = try XCTUnwrap(client.request("textDocument/codeLens", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])?.value?[0])
        XCTAssertEqual(client.request("codeLens/resolve", beds)?.value?["command"]?["title"]?.stringValue, "0 backlinks")
        let bedsLens = try XCTUnwrap(client.request("textDocument/codeLens", ["textDocument": ["uri": .string(fixture.uri("garden/beds.md"))]])?.value?[0])
        XCTAssertEqual(client.request("codeLens/resolve", bedsLens)?.value?["command"]?["title"]?.stringValue, "1 backlink")
        let bare: JSONValue = ["range": lenses[0]["range"] ?? .null]
        XCTAssertEqual(client.request("codeLens/resolve", bare)?.value, bare)
    }

    /// A client that can be asked (`workspace.codeLens.refreshSupport`) is asked to fetch its
    /// lenses again when another note's links change, not when only its prose does; the new
    /// count is there.
    func testLensesAreRefreshedWhenAnotherNoteLinksHere() throws {
        let (fixture, client) = start(["workspace": ["codeLens": ["refreshSupport": true]]])
        defer { client.close(); fixture.destroy() }
        client.open(fixture, "garden/beds.md")
        func refreshes(within seconds: Double) -> Int {
            var count = 0
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, let message = client.nextMessage(timeout: end.timeIntervalSinceNow) {
                if case .request(let id, "workspace/codeLens/refresh", _) = message {
                    count += 1
                    client.send(.response(id: id, result: .success(.null)))
                }
            }
            return count
        }
        _ = refreshes(within: 1.5)
        let uri = fixture.uri("garden/beds.md")
        // Prose only: the links name what they named.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 2],
                                                 "contentChanges": [["text": "# Beds\n\nRaised. [[soil]] [[Soil notes#pH]]\n"]]])
        XCTAssertEqual(refreshes(within: 1.5), 0, "no refresh for prose")
        // A new link to the soil note's title: one refresh, and the lens counts it.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 3],
                                                 "contentChanges": [["text": "# Beds\n\nRaised. [[soil]] [[Soil notes#pH]] [[soil]]\n"]]])
        XCTAssertEqual(refreshes(within: 1.5), 1, "one refresh for a new link")
        let lens = try XCTUnwrap(client.request("textDocument/codeLens", ["textDocument": ["uri": .string(fixture.uri("garden/soil.md"))]])?.value?[0])
        XCTAssertEqual(client.request("codeLens/resolve", lens)?.value?["command"]?["title"]?.stringValue, "4 backlinks")
    }

    /// `textDocument/documentHighlight`: the links to the same place read it, the heading is
    /// written there.
    func testDocumentHighlightMarksUsesAndTheDeclaration() throws {
        let (fixture, client) = start(notebook: Fixture("""
            //- /index.md
            # Home

            ## Plan

            See [[#Plan]] and [[index#Plan]], not [[#Home]].
            """))
        defer { client.close(); fixture.destroy() }
        let found = try XCTUnwrap(client.request("textDocument/documentHighlight", fixture.at("[[#Pl$0an]]", in: "index.md"))?.value?.arrayValue)
        XCTAssertEqual(found.map { $0["kind"] }, [3, 2, 2])
        XCTAssertEqual(found.map { $0["range"] }, [fixture.range("$0## Plan$0", in: "index.md"), fixture.range("$0[[#Plan]]$0", in: "index.md"),
                                                   fixture.range("$0[[index#Plan]]$0", in: "index.md")])
        XCTAssertEqual(client.request("textDocument/documentHighlight", fixture.at("See$0 [[", in: "index.md"))?.value, .null)
    }

    /// `textDocument/selectionRange`: one chain a position, each range's parent around it.
    func testSelectionRangesNestOutwards() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let at = fixture.at("[[so$0il#pH]]", in: "index.md")
        let params: JSONValue = ["textDocument": at["textDocument"] ?? .null, "positions": [at["position"] ?? .null, at["position"] ?? .null]]
        let chains = try XCTUnwrap(client.request("textDocument/selectionRange", params)?.value?.arrayValue)
        XCTAssertEqual(chains.count, 2)
        var ranges: [JSONValue] = []
        var current: JSONValue? = chains.first
        while let range = current?["range"] {
            ranges.append(range)
            current = current?["parent"]
        }
        XCTAssertEqual(ranges, [fixture.range("[[$0soil$0#pH]]", in: "index.md"), fixture.range("$0[[soil#pH]]$0", in: "index.md"),
                                fixture.range("$0See [[soil#pH]] and [beds](garden/beds.md). #garden$0", in: "index.md"),
                                fixture.range("$0# Home\n\nSee [[soil#pH]] and [beds](garden/beds.md). #garden$0", in: "index.md")])
    }

    /// A client that shows hovers only as plain text (Vim's ALE) gets them without markup.
    func testHoverAsPlainTextForAClientThatWantsIt() {
        let (fixture, client) = start(["textDocument": ["hover": ["contentFormat": ["plaintext"]]]])
        defer { client.close(); fixture.destroy() }
        let hover = client.request("textDocument/hover", fixture.at("[[so$0il#pH]]", in: "index.md"))?.value
        XCTAssertEqual(hover?["contents"]?["kind"]?.stringValue, "plaintext")
        XCTAssertEqual(hover?["contents"]?["value"]?.stringValue, "Soil notes › pH\n\ngarden/soil.md\n\n────────────────────\n\nAcid is fine. #garden")
    }

    func testReferencesOfALinkDefinitionAreTheLinksUsingItsLabel() throws {
        let (fixture, client) = start(notebook: Fixture("""
            //- /index.md
            See [the soil][soil] and [Soil][] and [SOIL], not [other].

            [so$0il]: garden/soil.md
            [other]: garden/soil.md
            //- /garden/soil.md
            # Soil

            [soil] is not a use: this note has no such definition.

            """))
        defer { client.close(); fixture.destroy() }
        let uses = [fixture.range("$0[the soil][soil]$0", in: "index.md"), fixture.range("$0[Soil][]$0", in: "index.md"),
                    fixture.range("$0[SOIL]$0", in: "index.md")]
        let definition = fixture.range("$0[soil]: garden/soil.md$0", in: "index.md")
        for (includeDeclaration, expected) in [(false, uses), (true, [definition] + uses)] {
            let params = fixture.at(fixture.fixture.cursor).adding(["context": ["includeDeclaration": .bool(includeDeclaration)]])
            let refs = try XCTUnwrap(client.request("textDocument/references", params)?.value?.arrayValue)
            XCTAssertEqual(refs.compactMap { $0["uri"]?.stringValue }, Array(repeating: fixture.uri("index.md"), count: expected.count))
            XCTAssertEqual(refs.map { $0["range"] }, expected, "includeDeclaration: \(includeDeclaration)")
        }
        // And from a use, definition leads to the definition, then to the note it names.
        let found = try XCTUnwrap(client.request("textDocument/definition", fixture.at("[SO$0IL]", in: "index.md"))?.value?.arrayValue)
        XCTAssertEqual(found.map { $0["range"] }, [definition, fixture.range("$0# Soil$0", in: "garden/soil.md")], "then the title of the note")
        XCTAssertEqual(found.compactMap { $0["uri"]?.stringValue }, [fixture.uri("index.md"), fixture.uri("garden/soil.md")])
    }

    func testRenamingAHeadingEditsEveryNoteThatLinksToIt() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let heading = fixture.at("## p$0H", in: "garden/soil.md")
        let prepared = client.request("textDocument/prepareRename", heading)?.value
        XCTAssertEqual(prepared?["placeholder"]?.stringValue, "pH")
        XCTAssertEqual(prepared?["range"], fixture.range("## $0pH$0", in: "garden/soil.md"))
        let params = heading.adding(["newName": "Acidity"])
        let edit = client.request("textDocument/rename", params)?.value
        let changes = edit?["changes"]?.objectValue ?? [:]
        XCTAssertEqual(Set(changes.keys), [fixture.uri("index.md"), fixture.uri("garden/soil.md"), fixture.uri("garden/beds.md")])
        XCTAssertEqual(changes[fixture.uri("index.md")]?[0]?["newText"]?.stringValue, "Acidity")
        // Nothing renameable under the cursor is an error the editor shows, not a crash.
        XCTAssertEqual(client.request("textDocument/prepareRename", fixture.at("# Home\n$0\n", in: "index.md"))?.errorCode, -32600)
    }

    /// Renaming a tag onto a tag that is already used merges them: the editor asks first. A
    /// client that shows change annotations gets edits that need confirmation; one that answers
    /// `window/showMessageRequest` is asked, and the rename waits for the choice; another gets
    /// the question as an error, with the name that says yes ahead (`soil!`). The same rename
    /// again is never a yes. A free name needs no yes.
    func testRenamingATagOntoAnotherAsksFirst() throws {
        let notebook = Fixture("//- /index.md\n# Home\n\n#garden and #soil\n//- /beds.md\n#soil/clay #garden/beds\n")
        let (fixture, client) = start(notebook: notebook)
        defer { client.close(); fixture.destroy() }
        let params = fixture.at("#gar$0den and", in: "index.md")
        for _ in 0..<2 {
            let refused = client.request("textDocument/rename", params.adding(["newName": "soil"]))
            XCTAssertEqual(refused?.errorCode, -32600, "asked again, still a question")
            let question = refused?.errorMessage ?? ""
            XCTAssertTrue(question.contains("`#soil` is already a tag (in 2 notes)") && question.contains("rename to `soil!`"), question)
        }
        let merged = client.request("textDocument/rename", params.adding(["newName": "soil!"]))?.value
        XCTAssertEqual(merged?["changes"]?[fixture.uri("beds.md")]?[0]?["newText"]?.stringValue, "soil/beds", "`soil!` merges")
        XCTAssertEqual(merged?["changes"]?[fixture.uri("index.md")]?[0]?["newText"]?.stringValue, "soil")
        // A free name goes at once.
        let fresh = client.request("textDocument/rename", params.adding(["newName": "yard"]))?.value
        XCTAssertEqual(fresh?["changes"]?[fixture.uri("index.md")]?[0]?["newText"]?.stringValue, "yard")

        // A client that answers `window/showMessageRequest` (Neovim) is asked.
        let (asking, neovim) = start(["window": ["showMessage": ["messageActionItem": ["additionalPropertiesSupport": false]]]],
                                     notebook: notebook)
        defer { neovim.close(); asking.destroy() }
        let place = asking.at("#gar$0den and", in: "index.md")
        for (choice, merges) in [(0, true), (1, false), (nil, false)] as [(Int?, Bool)] {
            let rename = neovim.sendRequest("textDocument/rename", place.adding(["newName": "soil"]))
            var asked: (id: RequestID, params: JSONValue?)?
            while asked == nil, let message = neovim.nextMessage() {
                if case .request(let id, "window/showMessageRequest", let question) = message { asked = (id, question) }
            }
            let question = try XCTUnwrap(asked, "the server asks")
            XCTAssertTrue(question.params?["message"]?.stringValue?.contains("merges the two") ?? false, "\(question.params ?? .null)")
            let actions = question.params?["actions"]?.arrayValue ?? []
            XCTAssertEqual(actions.compactMap { $0["title"]?.stringValue }, ["Merge tags", "Cancel"])
            neovim.send(.response(id: question.id, result: .success(choice.map { actions[$0] } ?? .null)))
            let answer = neovim.response(to: rename)
            if merges {
                XCTAssertEqual(answer?.value?["changes"]?[asking.uri("beds.md")]?[0]?["newText"]?.stringValue, "soil/beds", "Merge tags merges")
            } else {
                XCTAssertEqual(answer?.value, .null, "no choice, or Cancel, is no edit: \(String(describing: answer))")
            }
        }

        let (annotating, editor) = start(["workspace": ["workspaceEdit": ["documentChanges": true, "changeAnnotationSupport": ["groupsOnLabel": true]]]],
                                         notebook: notebook)
        defer { editor.close(); annotating.destroy() }
        let edit = try XCTUnwrap(editor.request("textDocument/rename", annotating.at("#gar$0den and", in: "index.md").adding(["newName": "soil"]))?.value)
        let annotation = try XCTUnwrap(edit["changeAnnotations"]?["macmd.confirm"])
        XCTAssertEqual(annotation["needsConfirmation"], true)
        XCTAssertTrue(annotation["description"]?.stringValue?.contains("merges the two") ?? false)
        let edits = (edit["documentChanges"]?.arrayValue ?? []).flatMap { $0["edits"]?.arrayValue ?? [] }
        XCTAssertFalse(edits.isEmpty)
        XCTAssertTrue(edits.allSatisfy { $0["annotationId"] == "macmd.confirm" })
    }

    func testRenamingANoteFromALinkRenamesTheFileWithItsLinks() {
        let (fixture, client) = start(["workspace": ["workspaceEdit": ["documentChanges": true]]])
        defer { client.close(); fixture.destroy() }
        let params = fixture.at("[[s$0oil]]", in: "garden/beds.md").adding(["newName": "loam"])
        let changes = client.request("textDocument/rename", params)?.value?["documentChanges"]?.arrayValue ?? []
        XCTAssertEqual(changes.last?["kind"]?.stringValue, "rename")
        XCTAssertEqual(changes.last?["newUri"]?.stringValue, fixture.uri("garden/loam.md"))
        let texts = changes.compactMap { $0["edits"]?[0]?["newText"]?.stringValue }
        XCTAssertEqual(texts.sorted(), ["loam", "loam"], "[[soil]] in beds.md and [[soil#pH]] in index.md")
    }

    func testWillRenameFilesUpdatesRelativeLinksForAMovedFolder() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let edit = client.request("workspace/willRenameFiles", ["files": [["oldUri": .string(fixture.uri("garden")),
                                                                          "newUri": .string(fixture.uri("yard"))]]])?.value
        XCTAssertEqual(edit?["changes"]?[fixture.uri("index.md")]?[0]?["newText"]?.stringValue, "yard/beds.md")
    }

    func testCompletingAWikiLinkATagAndAHeadingGivesTheTextTheWriterExpects() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let uri = JSONValue.string(fixture.uri("index.md"))
        let base = fixture.fixture.text("index.md")
        var lastLine = ""
        var version = 1
        /// Replaces the last line of index.md (as marked by `$0…$0` around it) with `marked`
        /// without its cursor, and returns the text and the items at the cursor.
        func type(_ marked: String) -> (text: String, items: [JSONValue]) {
            version += 1
            let before = Fixture(base + "$0" + lastLine + "$0")
            let after = Fixture(base + marked)
            lastLine = String(after.text.dropFirst(base.count))
            client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": .int(Int64(version))],
                                                     "contentChanges": [["range": before.lspRange(), "text": .string(lastLine)]]])
            let result = client.request("textDocument/completion", ["textDocument": ["uri": uri], "position": after.lspPosition(after.cursor)])
            return (after.text, result?.value?["items"]?.arrayValue ?? [])
        }
        let cases: [(typed: String, pick: String, expected: String)] = [
            ("Read [[so$0", "Soil notes", "Read [[soil]]"),
            ("Read [[soil#p$0", "pH", "Read [[soil#pH]]"),
            ("Tagged #gar$0", "garden", "Tagged #garden"),
            ("A [link](garden/be$0", "beds.md", "A [link](garden/beds.md)"),
            // Typing inside an existing `[[…]]` never doubles the brackets.
            ("x [[so$0]] y", "Soil notes", "x [[soil]] y"),
        ]
        var items: [JSONValue] = []
        for (typed, pick, expected) in cases {
            let (text, offered) = type(typed)
            items = offered
            let item = items.first { $0["label"]?.stringValue == pick }
            XCTAssertNotNil(item, "\(typed): no `\(pick)` among \(items.compactMap { $0["label"]?.stringValue })")
            XCTAssertEqual(applying(item, to: text), base + expected, typed)
        }
        // The note's preview (title, path, opening lines) comes with completionItem/resolve.
        let item = items.first { $0["label"]?.stringValue == "Soil notes" }
        XCTAssertNil(item?["documentation"], "the list itself reads no note")
        let resolved = item.flatMap { client.request("completionItem/resolve", $0)?.value }
        XCTAssertEqual(resolved?["documentation"]?["value"]?.stringValue,
                       "**Soil notes**\n\n`garden/soil.md`\n\n---\n\n# Soil\n\n## pH\n\nAcid is fine. #garden")
    }

    func testOutlineFoldingWorkspaceSymbolsAndCodeActions() {
        let (fixture, client) = start(["workspace": ["workspaceEdit": ["documentChanges": true]]])
        defer { client.close(); fixture.destroy() }
        let doc: JSONValue = ["textDocument": ["uri": .string(fixture.uri("garden/soil.md"))]]
        let symbols = client.request("textDocument/documentSymbol", doc)?.value?.arrayValue ?? []
        XCTAssertEqual(symbols.compactMap { $0["name"]?.stringValue }, ["front matter", "Soil"])
        XCTAssertEqual(symbols.last?["children"]?[0]?["name"]?.stringValue, "pH", "H2 nested under its H1")
        let folds = client.request("textDocument/foldingRange", doc)?.value?.arrayValue ?? []
        let frontMatter = fixture.range("$0---\ntitle: Soil notes\n---$0", in: "garden/soil.md")
        XCTAssertTrue(folds.contains { $0["startLine"] == frontMatter["start"]?["line"] && $0["endLine"] == frontMatter["end"]?["line"]
                                       && $0["kind"] == "imports" }, "front matter folds: \(folds)")
        let found = client.request("workspace/symbol", ["query": "soil"])?.value?.arrayValue ?? []
        XCTAssertTrue(found.prefix(3).contains { $0["name"]?.stringValue == "Soil notes" && $0["kind"] == 1 }, "the note ranks high: \(found)")
        XCTAssertFalse(found.contains { $0["name"]?.stringValue == "Beds" }, "no match without the letters s-o-i-l in order")
        XCTAssertTrue(found.contains { $0["name"]?.stringValue == "Soil" && $0["kind"] == 15 }, "and its heading is there")
        // A broken wiki-link offers to create the note; every note can get a table of contents.
        let edited = Fixture("# Home\n\n## One\n\nSee [[Gr$0$0eenhouse]].\n")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": .string(edited.text)]]])
        let actions = client.request("textDocument/codeAction", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                "range": edited.lspRange(),
                                                                "context": ["diagnostics": []]])?.value?.arrayValue ?? []
        XCTAssertEqual(actions.compactMap { $0["title"]?.stringValue }, ["Create note `Greenhouse.md`", "Insert a table of contents"])
        let create = actions.first?["edit"]?["documentChanges"]
        XCTAssertEqual(create?[0]?["kind"], "create")
        XCTAssertEqual(create?[0]?["uri"]?.stringValue, fixture.uri("Greenhouse.md"))
        XCTAssertEqual(create?[1]?["edits"]?[0]?["newText"]?.stringValue, "# Greenhouse\n\n")
        let toc = actions.last?["edit"]?["changes"]?[fixture.uri("index.md")]?[0]?["newText"]?.stringValue ?? ""
        XCTAssertTrue(toc.contains("<!-- toc -->") && toc.contains("[One](#one)"), toc)
    }

    func testUntitledBuffersGetOutlineTagCompletionAndRenames() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let uri: JSONValue = "untitled:Untitled-1"
        let draft = Fixture("# Draft\n\n## Part\n\n[[#Part]] #draft and #dr$0\n")
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1,
                                                                "text": .string(draft.text)]])
        let symbols = client.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]])?.value?.arrayValue ?? []
        XCTAssertEqual(symbols.first?["name"]?.stringValue, "Draft")
        let items = client.request("textDocument/completion", ["textDocument": ["uri": uri], "position": draft.lspPosition(draft.cursor)])?.value?["items"]?.arrayValue ?? []
        XCTAssertTrue(items.contains { $0["label"]?.stringValue == "draft" }, "\(items)")
        let heading = draft.lspPosition(draft.cursor(at: "## P$0art", in: draft.path))
        let edit = client.request("textDocument/rename", ["textDocument": ["uri": uri], "position": heading, "newName": "Section"])?.value
        let edits = edit?["changes"]?["untitled:Untitled-1"]?.arrayValue ?? []
        XCTAssertEqual(edits.count, 2, "the heading and the link to it")
        XCTAssertEqual(applying(edits: edits, to: draft.text), "# Draft\n\n## Section\n\n[[#Section]] #draft and #dr\n")
        let never = Fixture("$0")
        XCTAssertEqual(client.request("textDocument/hover", ["textDocument": ["uri": "untitled:Never-Opened"],
                                                             "position": never.lspPosition(never.cursor)])?.errorCode, -32602)
    }
}
