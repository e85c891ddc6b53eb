import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// `macmd/search` over LSP: hits from the disk and from an open document's unsaved text, best
/// first, their ranges and the matches inside their excerpts in the client's position encoding,
/// the limit, and the switch.
final class SearchServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /garden/soil.md
        # Soil tests 🌱

        The 🌱 soil tests came back: the café soil is fine.
        //- /beds.md
        ---
        tags: [garden]
        ---
        # Beds

        Raised beds need good soil.
        //- /code.md
        Nothing here but `soil = 1`.
        """)

    func start(options: JSONValue? = nil) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(SearchServerTests.notebook)
        return (fixture, LSPTestClient.started(on: fixture, capabilities: [:], initializationOptions: options))
    }

    func testHitsBestFirstWithTheirRangesAndMatches() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let hits = try XCTUnwrap(client.request("macmd/search", ["query": "soil"])?.value?.arrayValue)
        XCTAssertEqual(hits.compactMap { $0["uri"]?.stringValue }, [fixture.uri("garden/soil.md"), fixture.uri("beds.md"), fixture.uri("code.md")])
        let first = hits[0]
        XCTAssertEqual(first["title"], "Soil tests 🌱")
        // The best place: the first of the stretch with the most matches, after an emoji (two
        // UTF-16 units).
        XCTAssertEqual(first["range"], ["start": ["line": 0, "character": 2], "end": ["line": 0, "character": 6]])
        XCTAssertEqual(first["excerpt"], "# Soil tests 🌱  The 🌱 soil tests came back: the café soil is fine.")
        XCTAssertEqual(first["matches"], [["start": 2, "end": 6], ["start": 24, "end": 28], ["start": 55, "end": 59]])
        XCTAssertGreaterThan(first["score"]?.doubleValue ?? 0, hits[1]["score"]?.doubleValue ?? 0)
        // A phrase, a filter, a limit.
        XCTAssertEqual(client.request("macmd/search", ["query": "\"good soil\" tag:garden"])?.value?.arrayValue?.count, 1)
        XCTAssertEqual(client.request("macmd/search", ["query": "soil", "limit": 1])?.value?.arrayValue?.count, 1)
        // Open and edited: the unsaved text is searched.
        client.open(fixture, "code.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("code.md")), "version": 2],
                                                 "contentChanges": [["text": "Compost only.\n"]]])
        XCTAssertEqual(client.request("macmd/search", ["query": "compost"])?.value?[0]?["uri"]?.stringValue, fixture.uri("code.md"))
        XCTAssertEqual(client.request("macmd/search", ["query": "soil"])?.value?.arrayValue?.count, 2)
    }

    /// `features.search: false`: the request is not announced and refused.
    func testTheSwitchTurnsSearchOff() throws {
        let (fixture, client) = start(options: ["features": ["search": false]])
        defer { client.close(); fixture.destroy() }
        XCTAssertEqual(client.request("macmd/search", ["query": "soil"])?.errorCode, -32601)
    }
}
