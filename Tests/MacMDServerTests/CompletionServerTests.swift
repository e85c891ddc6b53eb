import Foundation
import TestSupport
import XCTest
import JSON
@testable import MacMDServer

/// Completion over LSP, checked as an editor shows it: the buffer after an item's `textEdit`
/// (positions in the negotiated encoding) and the documentation `completionItem/resolve` adds.
final class CompletionServerTests: XCTestCase {
    static let files = [
        "index.md": "# Home\n\nText.\n",
        "garden/soil.md": """
            ---
            title: Soil notes
            status: active
            ---
            # Soil

            ## pH

            Acid is fine. ^acid

            ## Texture

            Loam. #garden

            """,
        "garden/seed catalog.md": "# Seed catalog\n\nSeeds.\n",
        "journal/today.md": "---\nstatus: archived\n---\n# Today\n",
    ]

    /// A server on a fresh copy of the notebook with `index.md` open and the scan done.
    func start(_ capabilities: JSONValue = [:]) -> (NotebookFixture, LSPTestClient, JSONValue?) {
        let fixture = NotebookFixture(CompletionServerTests.files)
        let client = LSPTestClient.started(on: fixture, capabilities: capabilities)
        client.open(fixture, "index.md")
        return (fixture, client, client.initializeResult)
    }

    /// Replaces the whole of `index.md` with the text of `marked` (a fixture whose `$0` marks the
    /// cursor), asks for completion there and returns the text without the marker, and the items.
    func complete(_ client: LSPTestClient, _ fixture: NotebookFixture, _ marked: String, version: Int,
                  encoding: ColumnEncoding = .utf16, file: StaticString = #filePath, line: UInt = #line) -> (text: String, items: [JSONValue]) {
        let typed = Fixture(marked, defaultPath: "index.md", file: file, line: line)
        if typed.cursor == nil { XCTFail("no `$0` in \(marked.debugDescription)", file: file, line: line) }
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["text": .string(typed.text)]]])
        let result = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                "position": typed.lspPosition(typed.cursor, encoding)])
        return (typed.text, result?.value?["items"]?.arrayValue ?? [])
    }

    func item(_ items: [JSONValue], _ label: String) -> JSONValue? {
        items.first { $0["label"]?.stringValue == label }
    }

    func resolved(_ client: LSPTestClient, _ item: JSONValue?) -> String? {
        guard let item else { return "<no item>" }
        return (try? client.request("completionItem/resolve", item)?.get())?["documentation"]?["value"]?.stringValue
    }

    func testResolvePreviewsTheNoteHeadingOrBlockAnItemLinksTo() {
        let (fixture, client, initialized) = start()
        defer { client.close(); fixture.destroy() }
        XCTAssertEqual(initialized?["capabilities"]?["completionProvider"]?["resolveProvider"], true)

        let notes = complete(client, fixture, "See [[so$0", version: 2).items
        let soil = item(notes, "Soil notes")
        // The list carries where the preview is, not the preview: resolve reads the note.
        XCTAssertNil(soil?["documentation"])
        XCTAssertEqual(soil?["data"]?["path"]?.stringValue, "garden/soil.md")
        XCTAssertEqual(resolved(client, soil), """
            **Soil notes**

            `garden/soil.md`

            ---

            # Soil

            ## pH

            Acid is fine. ^acid

            ## Texture

            Loam. #garden
            """)

        // A client that sends the item back with `documentation: null` gets it too.
        if case .object(var withNull)? = soil {
            withNull["documentation"] = .null
            XCTAssertEqual(resolved(client, .object(withNull))?.hasPrefix("**Soil notes**\n\n`garden/soil.md`"), true)
        }

        let headings = complete(client, fixture, "See [[soil#$0", version: 3).items
        XCTAssertEqual(resolved(client, item(headings, "pH")), "**Soil notes** › pH\n\n`garden/soil.md`\n\n---\n\nAcid is fine. ^acid")
        XCTAssertEqual(resolved(client, item(headings, "Texture")), "**Soil notes** › Texture\n\n`garden/soil.md`\n\n---\n\nLoam. #garden")

        let blocks = complete(client, fixture, "See [[soil#^$0", version: 4).items
        XCTAssertEqual(resolved(client, item(blocks, "^acid")), "**Soil notes**\n\n`garden/soil.md`\n\n---\n\nAcid is fine. ^acid")

        let paths = complete(client, fixture, "See [x](garden/$0", version: 5).items
        XCTAssertEqual(resolved(client, item(paths, "seed catalog.md")), "**Seed catalog**\n\n`garden/seed catalog.md`\n\n---\n\n# Seed catalog\n\nSeeds.")

        // Tags and folders say what they are at once.
        let tags = complete(client, fixture, "See #gar$0", version: 6).items
        XCTAssertEqual(item(tags, "garden")?["documentation"]?["value"]?.stringValue, "`#garden` — used once in the notebook")
        let folders = complete(client, fixture, "See [x](gar$0", version: 7).items
        XCTAssertEqual(item(folders, "garden/")?["documentation"]?["value"]?.stringValue, "Folder `garden/`: 2 notes")
    }

    func testResolveReadsTheOpenBufferBeforeTheDisk() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(fixture.uri("garden/soil.md")), "languageId": "markdown",
                                                                "version": 1, "text": "# Soil\n\n## pH\n\nEdited, not saved.\n"]])
        let headings = complete(client, fixture, "See [[soil#p$0", version: 2).items
        XCTAssertEqual(resolved(client, item(headings, "pH")), "**Soil** › pH\n\n`garden/soil.md`\n\n---\n\nEdited, not saved.")
    }

    func testResolveReadsNothingButTheNotebooksNotes() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let outside = "macmd-outside-\(UUID().uuidString).md"
        fixture.write("../" + outside, "# Not a note of this notebook\n")
        defer { fixture.remove("../" + outside) }
        let items = complete(client, fixture, "See [[so$0", version: 2).items
        guard case .object(var forged)? = item(items, "Soil notes"), case .object(var data)? = forged["data"] else {
            return XCTFail("no item with data")
        }
        data["path"] = .string("../" + outside)
        forged["data"] = .object(data)
        XCTAssertNil(resolved(client, .object(forged)))
        // Data the server never sent leaves the item as it was.
        let odd: JSONValue = ["label": "x", "data": 5]
        XCTAssertEqual(try? client.request("completionItem/resolve", odd)?.get(), odd)
    }

    func testResolveInAnUntitledBufferPreviewsItsOwnHeadings() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let uri: JSONValue = "untitled:Untitled-1"
        let draft = Fixture("# Draft\n\n## Part\n\nPart text.\n\n## Links\n\n[[#P$0\n")
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1,
                                                                "text": .string(draft.text)]])
        let result = client.request("textDocument/completion", ["textDocument": ["uri": uri], "position": draft.lspPosition(draft.cursor)])
        let items = result?.value?["items"]?.arrayValue ?? []
        XCTAssertEqual(resolved(client, item(items, "Part")), "**Draft** › Part\n\n`untitled.md`\n\n---\n\nPart text.")
    }

    /// Code is code, fenced or indented, in a list or not: no links, tags or snippets there; a
    /// list item's own indented paragraph is no code block and completes.
    func testNothingCompletesInCodeBlocks() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let cases: [(String, Bool)] = [
            ("Text\n\n    [[so$0", false),
            ("Text\n\n    #gar$0", false),
            ("Text\n\n    tab$0", false),
            ("- item\n\n      [[so$0", false),
            ("> quote\n>\n>     [[so$0", false),
            ("```\n[[so$0\n```\n", false),
            ("- item\n\n    [[so$0", true),
            ("- item\n\n    tab$0", true),
            ("Text\n    [[so$0", true),
            ("[[so$0", true),
        ]
        for (offset, (marked, completes)) in cases.enumerated() {
            let (_, items) = complete(client, fixture, marked, version: offset + 2)
            XCTAssertEqual(!items.isEmpty, completes, "\(marked.debugDescription): \(items.compactMap { $0["label"]?.stringValue })")
        }
    }

    func testEveryItemLeavesExactlyOneClosing() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let cases: [(marked: String, pick: String, expected: String)] = [
            ("See [[so$0]", "Soil notes", "See [[soil]]"),
            ("See [[so$0]]", "Soil notes", "See [[soil]]"),
            ("See [[so$0", "Soil notes", "See [[soil]]"),
            ("See [[soil#$0]", "pH", "See [[soil#pH]]"),
            ("See ![[so$0]", "Soil notes", "See ![[soil]]"),
            ("See [[so$0|the soil]", "Soil notes", "See [[soil|the soil]]"),
            ("See [[so$0il]] and [[index]]", "Soil notes", "See [[soil]] and [[index]]"),
            ("See [x](<garden/seed c$0", "seed catalog.md", "See [x](<garden/seed catalog.md>)"),
            ("See [x](<garden/seed c$0)", "seed catalog.md", "See [x](<garden/seed catalog.md>)"),
            ("See [x](garden/se$0)", "seed catalog.md", "See [x](garden/seed%20catalog.md)"),
        ]
        var version = 1
        for (marked, pick, expected) in cases {
            version += 1
            let (text, items) = complete(client, fixture, marked, version: version)
            XCTAssertNotNil(item(items, pick), "\(marked): no \(pick) among \(items.compactMap { $0["label"]?.stringValue })")
            XCTAssertEqual(applying(item(items, pick), to: text), expected, marked)
        }
        // Outside `<…>` a space ends the path: no path to complete after it (a word typed after
        // white space may still start a snippet).
        XCTAssertEqual(complete(client, fixture, "See [x](garden/seed c$0", version: version + 2).items.filter { $0["kind"] != 15 }.count, 0)
        let climbing = complete(client, fixture, "See [x](journal/$0", version: version + 1).items
        XCTAssertEqual(climbing.compactMap { $0["label"]?.stringValue }, ["today.md"], "no `../` inside a typed folder")
    }

    /// The link text of a note follows the notes that come and go while the server runs: a
    /// second note named `soil` with a shorter path takes the name (the resolver's shortest-path
    /// rule), so `garden/soil.md` needs its folder until that note is gone.
    func testALinkTextFollowsANoteThatComesToShareTheNameAndGoes() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        func inserted(_ version: Int) -> [String] {
            let (text, items) = complete(client, fixture, "See [[soil$0", version: version)
            return items.filter { $0["kind"]?.intValue == 17 }.map { applying($0, to: text) }.sorted()
        }
        // Once the reader thread has handled what was sent (a request answered after it), the
        // jobs it queued are done.
        func settle() {
            _ = client.request("workspace/symbol", ["query": "zzz"])
            client.server.settle()
        }
        XCTAssertEqual(inserted(2), ["See [[soil]]"])
        // An edit in the editor adds a note of that name.
        fixture.write("a/soil.md", "# Soil in a\n")
        client.open(fixture, "a/soil.md")
        settle()
        XCTAssertEqual(inserted(3), ["See [[garden/soil]]", "See [[soil]]"])
        // Closed and deleted, it goes.
        fixture.remove("a/soil.md")
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(fixture.uri("a/soil.md"))]])
        settle()
        XCTAssertEqual(inserted(4), ["See [[soil]]"])
    }

    func testFrontMatterValuesComeFromOtherNotesOnly() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let (text, items) = complete(client, fixture, "---\nstatus: ac$0\n---\n# Home\n", version: 2)
        XCTAssertEqual(items.compactMap { $0["label"]?.stringValue }, ["active", "archived"])
        XCTAssertEqual(items.first?["detail"]?.stringValue, "1 use")
        XCTAssertEqual(applying(items.first, to: text), "---\nstatus: active\n---\n# Home\n")
    }

    func testWideCharactersAndWindowsLineEndingsInBothEncodings() {
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client, _) = start(["general": ["positionEncodings": [.string(encoding.rawValue)]]])
            defer { client.close(); fixture.destroy() }
            let marked = "# Home 🌱\r\n\r\né 🌱 [[so$0]] 𝄞 #x\r\nmore\r\n"
            let (text, items) = complete(client, fixture, marked, version: 2, encoding: encoding)
            XCTAssertEqual(applying(item(items, "Soil notes"), to: text, encoding),
                           "# Home 🌱\r\n\r\né 🌱 [[soil]] 𝄞 #x\r\nmore\r\n", encoding.rawValue)
            let (lone, loneItems) = complete(client, fixture, "é 🌱 [[so$0] 𝄞\r\nmore", version: 3, encoding: encoding)
            XCTAssertEqual(applying(item(loneItems, "Soil notes"), to: lone, encoding), "é 🌱 [[soil]] 𝄞\r\nmore", encoding.rawValue)
        }
    }
}
