import Foundation
import TestSupport
import XCTest
import JSONRPC
@testable import MacMDServer

/// Navigation and refactoring over LSP, checked the way an editor shows them: which file and
/// line a jump lands on, what a hover says, what a rename changes.
final class NavigationServerTests: XCTestCase {
    static let files = [
        "index.md": "# Home\n\nSee [[soil#pH]] and [beds](garden/beds.md). #garden\n",
        "garden/soil.md": "---\ntitle: Soil notes\n---\n# Soil\n\n## pH\n\nAcid is fine. #garden\n",
        "garden/beds.md": "# Beds\n\n[[soil]] [[Soil notes#pH]]\n",
    ]

    func start(_ capabilities: JSONValue = [:]) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(NavigationServerTests.files)
        let client = LSPTestClient()
        // With progress shown, the scan's `end` says the whole notebook is indexed.
        var withProgress = capabilities.objectValue ?? [:]
        withProgress["window"] = ["workDoneProgress": true]
        client.initialize(capabilities: .object(withProgress), workspaceFolders: [fixture.root])
        var kind = ""
        while kind != "end", let params = client.notification("$/progress") { kind = params["value"]?["kind"]?.stringValue ?? "" }
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(fixture.uri("index.md")), "languageId": "markdown",
                                                                "version": 1, "text": .string(fixture.text("index.md"))]])
        _ = client.diagnostics(for: fixture.uri("index.md"))
        return (fixture, client)
    }

    func at(_ fixture: NotebookFixture, _ path: String, _ line: Int, _ character: Int) -> JSONValue {
        ["textDocument": ["uri": .string(fixture.uri(path))], "position": ["line": .int(Int64(line)), "character": .int(Int64(character))]]
    }

    func testDefinitionJumpsToTheHeadingInAnotherNote() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let result = client.request("textDocument/definition", at(fixture, "index.md", 2, 8))?.value
        XCTAssertEqual(result?[0]?["uri"]?.stringValue, fixture.uri("garden/soil.md"))
        XCTAssertEqual(result?[0]?["range"]?["start"], ["line": 5, "character": 0])
    }

    func testReferencesOfAHeadingAndHoverOfALinkAndATag() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        var params = at(fixture, "garden/soil.md", 5, 4)
        params = .object((params.objectValue ?? [:]).merging(["context": ["includeDeclaration": false]]) { $1 })
        let refs = client.request("textDocument/references", params)?.value?.arrayValue ?? []
        XCTAssertEqual(refs.compactMap { $0["uri"]?.stringValue }, [fixture.uri("garden/beds.md"), fixture.uri("index.md")])
        let hover = client.request("textDocument/hover", at(fixture, "index.md", 2, 8))?.value
        // NotebookIDE's hover (`HoverText`): the title and heading, the path, the section's text.
        XCTAssertEqual(hover?["contents"]?["value"]?.stringValue, "**Soil notes** › pH\n\n`garden/soil.md`\n\n---\n\nAcid is fine. #garden")
        let tag = client.request("textDocument/hover", at(fixture, "index.md", 2, 51))?.value
        XCTAssertEqual(tag?["contents"]?["value"]?.stringValue, "`#garden` — used 2 times in 2 notes")
    }

    func testRenamingAHeadingEditsEveryNoteThatLinksToIt() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let prepared = client.request("textDocument/prepareRename", at(fixture, "garden/soil.md", 5, 4))?.value
        XCTAssertEqual(prepared?["placeholder"]?.stringValue, "pH")
        var params = at(fixture, "garden/soil.md", 5, 4)
        params = .object((params.objectValue ?? [:]).merging(["newName": "Acidity"]) { $1 })
        let edit = client.request("textDocument/rename", params)?.value
        let changes = edit?["changes"]?.objectValue ?? [:]
        XCTAssertEqual(Set(changes.keys), [fixture.uri("index.md"), fixture.uri("garden/soil.md"), fixture.uri("garden/beds.md")])
        XCTAssertEqual(changes[fixture.uri("index.md")]?[0]?["newText"]?.stringValue, "Acidity")
        // Nothing renameable under the cursor is an error the editor shows, not a crash.
        XCTAssertEqual(client.request("textDocument/prepareRename", at(fixture, "index.md", 1, 0))?.errorCode, -32600)
    }

    func testRenamingANoteFromALinkRenamesTheFileWithItsLinks() {
        let (fixture, client) = start(["workspace": ["workspaceEdit": ["documentChanges": true]]])
        defer { client.close(); fixture.destroy() }
        var params = at(fixture, "garden/beds.md", 2, 3)
        params = .object((params.objectValue ?? [:]).merging(["newName": "loam"]) { $1 })
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

    /// Applies an item's textEdit to one line, as an editor does.
    func apply(_ item: JSONValue?, to line: String) -> String {
        guard let edit = item?["textEdit"], let start = edit["range"]?["start"]?["character"]?.intValue,
              let end = edit["range"]?["end"]?["character"]?.intValue, let text = edit["newText"]?.stringValue else { return line }
        var scalars = Array(line.utf16)
        scalars.replaceSubrange(start..<end, with: Array(text.utf16))
        return String(decoding: scalars, as: UTF16.self)
    }

    func testCompletingAWikiLinkATagAndAHeadingGivesTheTextTheWriterExpects() {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let cases: [(typed: String, pick: String, expected: String)] = [
            ("Read [[so", "Soil notes", "Read [[soil]]"),
            ("Read [[soil#p", "pH", "Read [[soil#pH]]"),
            ("Tagged #gar", "garden", "Tagged #garden"),
            ("A [link](garden/be", "beds.md", "A [link](garden/beds.md)"),
        ]
        var version = 1
        for (typed, pick, expected) in cases {
            version += 1
            client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                     "contentChanges": [["range": ["start": ["line": 3, "character": 0], "end": ["line": 3, "character": 200]],
                                                                         "text": .string(typed)]]])
            let result = client.request("textDocument/completion", at(fixture, "index.md", 3, typed.utf16.count))?.value
            let items = result?["items"]?.arrayValue ?? []
            let item = items.first { $0["label"]?.stringValue == pick }
            XCTAssertNotNil(item, "\(typed): no `\(pick)` among \(items.compactMap { $0["label"]?.stringValue })")
            XCTAssertEqual(apply(item, to: typed), expected, typed)
        }
        // Typing inside an existing `[[…]]` never doubles the brackets.
        version += 1
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["range": ["start": ["line": 3, "character": 0], "end": ["line": 3, "character": 200]],
                                                                     "text": "x [[so]] y"]]])
        let items = client.request("textDocument/completion", at(fixture, "index.md", 3, 6))?.value?["items"]?.arrayValue ?? []
        XCTAssertEqual(apply(items.first { $0["label"]?.stringValue == "Soil notes" }, to: "x [[so]] y"), "x [[soil]] y")
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
        XCTAssertTrue(folds.contains { $0["startLine"] == 0 && $0["endLine"] == 2 && $0["kind"] == "imports" }, "front matter folds: \(folds)")
        let found = client.request("workspace/symbol", ["query": "soil"])?.value?.arrayValue ?? []
        XCTAssertTrue(found.prefix(3).contains { $0["name"]?.stringValue == "Soil notes" && $0["kind"] == 1 }, "the note ranks high: \(found)")
        XCTAssertFalse(found.contains { $0["name"]?.stringValue == "Beds" }, "no match without the letters s-o-i-l in order")
        XCTAssertTrue(found.contains { $0["name"]?.stringValue == "Soil" && $0["kind"] == 15 }, "and its heading is there")
        // A broken wiki-link offers to create the note; every note can get a table of contents.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": "# Home\n\n## One\n\nSee [[Greenhouse]].\n"]]])
        let actions = client.request("textDocument/codeAction", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                "range": ["start": ["line": 4, "character": 8], "end": ["line": 4, "character": 8]],
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
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1,
                                                                "text": "# Draft\n\n## Part\n\n[[#Part]] #draft and #dr\n"]])
        let symbols = client.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]])?.value?.arrayValue ?? []
        XCTAssertEqual(symbols.first?["name"]?.stringValue, "Draft")
        let items = client.request("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 4, "character": 24]])?.value?["items"]?.arrayValue ?? []
        XCTAssertTrue(items.contains { $0["label"]?.stringValue == "draft" }, "\(items)")
        let edit = client.request("textDocument/rename", ["textDocument": ["uri": uri], "position": ["line": 2, "character": 4], "newName": "Section"])?.value
        XCTAssertEqual(edit?["changes"]?["untitled:Untitled-1"]?.arrayValue?.count, 2, "the heading and the link to it")
        XCTAssertEqual(client.request("textDocument/hover", ["textDocument": ["uri": "untitled:Never-Opened"], "position": ["line": 0, "character": 0]])?.errorCode, -32602)
    }
}
