import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer
import NotebookWorkspace

/// The server's configurable limits, as an editor meets them: each has a default no real note
/// reaches, a setting that moves it, and a message that says which limit was hit.
final class LimitsServerTests: XCTestCase {
    /// `depth` nested block quotes around a broken link.
    static func quotes(_ depth: Int) -> String {
        String(repeating: "> ", count: depth) + "[[Missing]]\n"
    }

    func testQuotesNestedPastTheLimitAreTextWithOneWarning() {
        let fixture = NotebookFixture(["deep.md": Self.quotes(130), "shallow.md": Self.quotes(99)])
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.open(fixture, "deep.md")
        let deep = client.diagnostics(for: fixture.uri("deep.md")) { $0.contains("nesting-limit") }
        let warning = deep?.first { $0["code"]?.stringValue == "nesting-limit" }
        XCTAssertEqual(warning?["message"]?.stringValue,
                       "Quotes and lists nested deeper than 100 levels are read as text from here (`maxNestingDepth`)")
        XCTAssertEqual(warning?["range"]?["start"]?["character"]?.intValue, 200, "it points at the 101st `>`")
        XCTAssertEqual(deep?.filter { $0["code"]?.stringValue == "nesting-limit" }.count, 1, "one warning per note")
        // The link inside the text is still a link.
        XCTAssertTrue(deep?.contains { $0["code"]?.stringValue == "broken-wikilink" } ?? false)
        client.open(fixture, "shallow.md")
        let shallow = client.diagnostics(for: fixture.uri("shallow.md"))
        XCTAssertEqual(shallow?.compactMap { $0["code"]?.stringValue }, ["broken-wikilink"], "99 levels are within the limit")
    }

    func testANotebookSetsItsOwnNestingDepth() {
        let fixture = NotebookFixture(["deep.md": Self.quotes(130), ".macmd.json": #"{"maxNestingDepth": 200}"#])
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.open(fixture, "deep.md")
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("deep.md")) { $0 == ["broken-wikilink"] }, "200 levels allowed: no warning")
        // The preview reads the note as the index does: 130 quotes, no `>` left as text.
        let html = client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("deep.md"))]])?.value?["html"]?.stringValue ?? ""
        XCTAssertEqual(html.components(separatedBy: "<blockquote").count - 1, 130)
        XCTAssertFalse(html.contains("&gt;"))
    }

    func testCompletionIsCutAtTheConfiguredSizeAndSaysItIsIncomplete() {
        var files = [".macmd.json": #"{"maxCompletionItems": 10}"#, "index.md": "# Index\n\n[[\n"]
        for n in 0..<30 { files["note-\(n).md"] = "# Note \(n)\n" }
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.open(fixture, "index.md")
        let list = client.request("textDocument/completion", fixture.at("[[$0", in: "index.md"))?.value
        XCTAssertEqual(list?["items"]?.arrayValue?.count, 10)
        XCTAssertEqual(list?["isIncomplete"], .bool(true), "the editor must ask again as the writer types")
        // Narrowed below the limit, the list is whole.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": "# Index\n\n[[note-29\n"]]])
        let narrowed = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                  "position": ["line": 2, "character": 9]])?.value
        XCTAssertEqual(narrowed?["isIncomplete"], .bool(false))
        XCTAssertEqual(narrowed?["items"]?.arrayValue?.count, 1)
    }

    func testRequestsPastTheLimitInFlightAreRefusedWithTheReason() {
        let fixture = NotebookFixture(["note.md": "# Note\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient(holdWork: true)
        defer { client.close() }
        client.initialize(initializationOptions: ["maxRequestsInFlight": 3], workspaceFolders: [fixture.root])
        client.open(fixture, "note.md")
        let hover = fixture.at("# No$0te", in: "note.md")
        // Held at the gate, three requests fill the server; the fourth is refused at once.
        let held = (0..<3).map { _ in client.sendRequest("textDocument/hover", hover) }
        let refused = client.request("textDocument/hover", hover)
        XCTAssertEqual(refused?.errorCode, -32803)
        XCTAssertEqual(refused?.errorMessage,
                       "The server already holds 3 requests (`maxRequestsInFlight` is 3): this one is refused; ask again once answers come")
        client.releaseWork()
        for id in held { XCTAssertNotNil(client.response(to: id)?.value, "the requests held are answered") }
        XCTAssertNotNil(client.request("textDocument/hover", hover)?.value, "answered again once there is room")
    }

    func testLimitsRefuseBadValuesAndANotebookCannotSetTheServersOwn() {
        let fixture = NotebookFixture(["note.md": "# Note\n", ".macmd.json": #"{"maxRequestsInFlight": 5, "maxNestingDepth": 0, "maxCompletionItems": "ten"}"#])
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        // The first problem is shown, with a count of the others (all three are in the log).
        let shown = client.notification("window/showMessage")?["message"]?.stringValue ?? ""
        XCTAssertTrue(shown.hasSuffix(".macmd.json: `maxCompletionItems` must be a positive whole number (and 2 more problems with the settings: see the log)"), shown)
        let configuration = NotebookConfiguration(layers: [ConfigurationLayer(source: "x", value: try! JSON.parse(Array(fixture.text(".macmd.json").utf8)), isNotebookFile: true)])
        XCTAssertEqual(configuration.problems.map { $0.reason.string(in: .en) }, [
            "`maxCompletionItems` must be a positive whole number", "`maxNestingDepth` must be a positive whole number",
            "`maxRequestsInFlight` is a setting of the editor (initializationOptions or the `macmd` section), not of a notebook",
        ])
        XCTAssertEqual(configuration.maxRequestsInFlight, 10_000, "the default stands")
    }

    func testANoteOverTheSizeLimitIsNotReadAndSaysSo() {
        let big = "# Big\n\n[[Missing]]\n" + String(repeating: "Some text. ", count: 200)
        let fixture = NotebookFixture(["big.md": big, ".macmd.json": #"{"maxFileSize": 1000}"#])
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.open(fixture, "big.md")
        let uri = fixture.uri("big.md")
        let message = "This note has \(big.utf8.count) bytes, over the limit of 1000 (`maxFileSize`): MacMD does not read its links, headings or tags"
        let diagnostics = client.diagnostics(for: uri) { $0 == ["note-too-large"] }
        XCTAssertEqual(diagnostics?.first?["message"]?.stringValue, message)
        XCTAssertEqual(diagnostics?.first?["range"]?["start"]?["line"]?.intValue, 0)
        XCTAssertEqual(client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]])?.value?.arrayValue?.count, 0,
                       "its headings are not read")
        let preview = client.request("macmd/preview", ["textDocument": ["uri": .string(uri)]])
        XCTAssertEqual(preview?.errorCode, -32803)
        XCTAssertEqual(preview?.errorMessage, message)
        // Cut below the limit, it is a note like any other again.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 2],
                                                 "contentChanges": [["text": "# Big\n\n[[Missing]]\n"]]])
        XCTAssertNotNil(client.diagnostics(for: uri) { $0 == ["broken-wikilink"] })
        XCTAssertEqual(client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]])?.value?.arrayValue?.count, 1)
    }
}
