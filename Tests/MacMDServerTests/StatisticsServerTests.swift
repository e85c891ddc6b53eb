import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// `macmd/statistics` over LSP: a note on disk or open (with its unsaved text), a selection in
/// the client's position encoding, the options, and the switch.
final class StatisticsServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /soil.md
        ---
        title: Soil
        ---
        # Soil 🌱 tests

        Don't dig the bed before it's dry: see [the guide](https://example.com/guide).

        ```
        let ph = 6.5
        ```
        """)

    func start(options: JSONValue? = nil) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(StatisticsServerTests.notebook)
        return (fixture, LSPTestClient.started(on: fixture, capabilities: [:], initializationOptions: options))
    }

    func testTheCountsOfANoteASelectionAndTheOptions() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let uri = JSONValue.string(fixture.uri("soil.md"))
        // On disk: "Soil tests" (the emoji is no word), nine words of prose (the URL is a
        // destination), three of code; three paragraphs (heading, paragraph, code).
        let whole = try XCTUnwrap(client.request("macmd/statistics", ["textDocument": ["uri": uri]])?.value)
        XCTAssertEqual(whole["words"]?.intValue, 2 + 10 + 3)
        XCTAssertEqual(whole["paragraphs"], 3)
        XCTAssertEqual(whole["readingSeconds"], 4)
        let characters = try XCTUnwrap(whole["characters"]?.intValue)
        XCTAssertEqual(whole["charactersWithoutSpaces"]?.intValue.map { characters - $0 }, 2 + 9 + 3, "the spaces")
        // Without code, with the front matter.
        let options = try XCTUnwrap(client.request("macmd/statistics", ["textDocument": ["uri": uri],
                                                                       "options": ["code": false, "frontMatter": true]])?.value)
        XCTAssertEqual(options["words"]?.intValue, 2 + 2 + 10)
        XCTAssertEqual(options["paragraphs"], 2)
        // A selection: "the bed before" (UTF-16 positions after the emoji's line).
        let range = fixture.range("dig $0the bed before$0 it's", in: "soil.md")
        let selection = try XCTUnwrap(client.request("macmd/statistics", ["textDocument": ["uri": uri], "range": range])?.value)
        XCTAssertEqual(selection["words"], 3)
        XCTAssertEqual(selection["characters"], 14)
        // Open and edited: the unsaved text counts.
        client.open(fixture, "soil.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": "One two 三四\n"]]])
        XCTAssertEqual(client.request("macmd/statistics", ["textDocument": ["uri": uri]])?.value?["words"], 4)
    }

    /// `features.statistics: false`: the request is not announced and refused.
    func testTheSwitchTurnsStatisticsOff() throws {
        let (fixture, client) = start(options: ["features": ["statistics": false]])
        defer { client.close(); fixture.destroy() }
        XCTAssertEqual(client.request("macmd/statistics", ["textDocument": ["uri": .string(fixture.uri("soil.md"))]])?.errorCode, -32601)
    }
}
