import Foundation
import TestSupport
import XCTest
import JSONRPC
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
        let client = LSPTestClient()
        // With progress shown, the scan's `end` says the whole notebook is indexed.
        var withProgress = capabilities.objectValue ?? [:]
        withProgress["window"] = ["workDoneProgress": true]
        let initialized = client.initialize(capabilities: .object(withProgress), workspaceFolders: [fixture.root])
        var kind = ""
        while kind != "end", let params = client.notification("$/progress") { kind = params["value"]?["kind"]?.stringValue ?? "" }
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(fixture.uri("index.md")), "languageId": "markdown",
                                                                "version": 1, "text": .string(fixture.text("index.md"))]])
        return (fixture, client, initialized)
    }

    /// Replaces the whole of `index.md` with `text` (with `$0` marking the cursor), asks for
    /// completion there and returns the text without the marker, and the items.
    func complete(_ client: LSPTestClient, _ fixture: NotebookFixture, _ marked: String, version: Int,
                  encoding: String = "utf-16") -> (text: String, items: [JSONValue]) {
        guard let marker = marked.range(of: "$0") else { return (marked, []) }
        let text = marked.replacingCharacters(in: marker, with: "")
        let before = String(marked[..<marker.lowerBound])
        let lineStart = CompletionServerTests.lineStarts(before).last ?? before.startIndex
        let lineText = before[lineStart...]
        let line = CompletionServerTests.lineStarts(before).count - 1
        let character = encoding == "utf-8" ? lineText.utf8.count : lineText.utf16.count
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["text": .string(text)]]])
        let result = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                "position": ["line": .int(Int64(line)), "character": .int(Int64(character))]])
        return (text, (try? result?.get())?["items"]?.arrayValue ?? [])
    }

    /// Where each line of `text` starts (LSP lines: `\n`, `\r\n` and `\r` end one).
    static func lineStarts(_ text: String) -> [String.Index] {
        var starts = [text.startIndex]
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == "\n" || character == "\r\n" || character == "\r" { starts.append(index) }
        }
        return starts
    }

    /// `text` with the item's textEdit applied, its range read in `encoding` as an editor does.
    func apply(_ item: JSONValue?, to text: String, encoding: String = "utf-16") -> String {
        guard let edit = item?["textEdit"], let newText = edit["newText"]?.stringValue,
              let start = offset(edit["range"]?["start"], in: text, encoding: encoding),
              let end = offset(edit["range"]?["end"], in: text, encoding: encoding) else { return "<no textEdit>" }
        let bytes = Array(text.utf8)
        return String(decoding: bytes[..<start] + Array(newText.utf8) + bytes[end...], as: UTF8.self)
    }

    /// The UTF-8 offset of an LSP position in `text`.
    func offset(_ position: JSONValue?, in text: String, encoding: String) -> Int? {
        guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue else { return nil }
        let starts = CompletionServerTests.lineStarts(text)
        guard line < starts.count else { return nil }
        let lineStart = starts[line]
        let prefixBytes = text[..<lineStart].utf8.count
        if encoding == "utf-8" { return prefixBytes + character }
        let units = Array(text[lineStart...].utf16.prefix(character))
        return prefixBytes + String(decoding: units, as: UTF16.self).utf8.count
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
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1,
                                                                "text": "# Draft\n\n## Part\n\nPart text.\n\n## Links\n\n[[#P\n"]])
        let result = client.request("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 8, "character": 4]])
        let items = (try? result?.get())?["items"]?.arrayValue ?? []
        XCTAssertEqual(resolved(client, item(items, "Part")), "**Draft** › Part\n\n`untitled.md`\n\n---\n\nPart text.")
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
            XCTAssertEqual(apply(item(items, pick), to: text), expected, marked)
        }
        // Outside `<…>` a space ends the path: nothing to complete after it.
        XCTAssertEqual(complete(client, fixture, "See [x](garden/seed c$0", version: version + 2).items.count, 0)
        let climbing = complete(client, fixture, "See [x](journal/$0", version: version + 1).items
        XCTAssertEqual(climbing.compactMap { $0["label"]?.stringValue }, ["today.md"], "no `../` inside a typed folder")
    }

    func testFrontMatterValuesComeFromOtherNotesOnly() {
        let (fixture, client, _) = start()
        defer { client.close(); fixture.destroy() }
        let (text, items) = complete(client, fixture, "---\nstatus: ac$0\n---\n# Home\n", version: 2)
        XCTAssertEqual(items.compactMap { $0["label"]?.stringValue }, ["active", "archived"])
        XCTAssertEqual(items.first?["detail"]?.stringValue, "1 use")
        XCTAssertEqual(apply(items.first, to: text), "---\nstatus: active\n---\n# Home\n")
    }

    func testWideCharactersAndWindowsLineEndingsInBothEncodings() {
        for encoding in ["utf-16", "utf-8"] {
            let (fixture, client, _) = start(["general": ["positionEncodings": [.string(encoding)]]])
            defer { client.close(); fixture.destroy() }
            let marked = "# Home 🌱\r\n\r\né 🌱 [[so$0]] 𝄞 #x\r\nmore\r\n"
            let (text, items) = complete(client, fixture, marked, version: 2, encoding: encoding)
            XCTAssertEqual(apply(item(items, "Soil notes"), to: text, encoding: encoding),
                           "# Home 🌱\r\n\r\né 🌱 [[soil]] 𝄞 #x\r\nmore\r\n", encoding)
            let (lone, loneItems) = complete(client, fixture, "é 🌱 [[so$0] 𝄞\r\nmore", version: 3, encoding: encoding)
            XCTAssertEqual(apply(item(loneItems, "Soil notes"), to: lone, encoding: encoding), "é 🌱 [[soil]] 𝄞\r\nmore", encoding)
        }
    }
}
