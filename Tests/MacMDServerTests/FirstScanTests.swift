import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer

/// While a notebook's first scan is running, a link whose target the scan has not reached must
/// not be called broken: a note gets its own problems only, pushed or pulled, and the preview
/// waits for the scan's end. Once the scan ends, the full set follows (pushed again, or a refresh
/// request for clients that pull). The scan is held before its end (`holdScan`), so "still
/// running" is certain, not a race.
final class FirstScanTests: XCTestCase {
    static let notebook: [String: String] = [
        "index.md": "# Home\n\nSee [[zeta]], [[missing]], [[zeta#Nope]] and [x][nowhere].\n\n![[gone.png]]\n",
        "zeta.md": "# Zeta\n",
    ]

    /// The codes of a diagnostics array.
    func codes(_ items: [JSONValue]?) -> [String] {
        (items ?? []).compactMap { $0["code"]?.stringValue }.sorted()
    }

    /// The notebook with its scan held before its end (every note read), `index.md` open, for a
    /// client that shows progress and is pushed diagnostics.
    func openDuringTheScan() -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(Self.notebook)
        let client = LSPTestClient(holdScan: true)
        client.initialize(capabilities: ["window": ["workDoneProgress": true]], workspaceFolders: [fixture.root])
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        client.open(fixture, "index.md")
        return (fixture, client)
    }

    func testPushedDiagnosticsAndThePreviewWaitForTheScan() throws {
        let (fixture, client) = openDuringTheScan()
        defer { fixture.destroy(); client.close() }
        let uri = fixture.uri("index.md")

        // Scanning: the note's own problem only (a reference with no definition).
        let early = client.diagnostics(for: uri)
        XCTAssertEqual(codes(early), ["undefined-reference"], "no cross-note problem before the scan ends: \(early ?? [])")
        let pulled = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])?.value
        XCTAssertEqual(codes(pulled?["items"]?.arrayValue), ["undefined-reference"])
        // The preview waits for the scan: its links must show what they reach, and nothing would
        // render the page again when the scan ends.
        let previewID = client.sendRequest("macmd/preview", ["textDocument": ["uri": .string(uri)]])
        let workspace = client.request("workspace/diagnostic", ["previousResultIds": []])?.value?["items"]?.arrayValue ?? []
        XCTAssertFalse(workspace.contains { codes($0["items"]?.arrayValue).contains("broken-wikilink") })
        XCTAssertFalse(client.received.contains { if case .response(previewID, _) = $0 { true } else { false } },
                       "no preview while the scan runs")

        // The scan ends: every problem, pushed again, and the preview that waited.
        client.releaseScan()
        let waited = try XCTUnwrap(client.response(to: previewID)?.value?["html"]?.stringValue)
        XCTAssertTrue(waited.contains(#"<a class="wikilink broken">missing</a>"#), waited)
        XCTAssertTrue(waited.contains(#"href="zeta.md""#), waited)
        client.waitForScanEnd()
        let full = client.diagnostics(for: uri) { $0.contains("broken-wikilink") }
        XCTAssertEqual(codes(full), ["broken-heading", "broken-image", "broken-wikilink", "undefined-reference"])
        let after = try XCTUnwrap(client.request("macmd/preview", ["textDocument": ["uri": .string(uri)]])?.value?["html"]?.stringValue)
        XCTAssertTrue(after.contains(#"<a class="wikilink broken">missing</a>"#), after)
        XCTAssertTrue(after.contains(#"href="zeta.md""#), "the link that resolves did so all along: \(after)")
    }

    /// A link completion asked while the first scan runs (the writer typed `[[` just as the
    /// editor started) waits for the scan's end rather than answering from part of the notebook;
    /// when the scan takes longer than the wait, it answers what it has, marked incomplete.
    func testCompletionWaitsForTheScan() throws {
        let (fixture, client) = openDuringTheScan()
        defer { fixture.destroy(); client.close() }
        let uri = fixture.uri("index.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 2],
                                                 "contentChanges": [["text": "See [[ze"]]])
        let params: JSONValue = ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 8]]
        let completionID = client.sendRequest("textDocument/completion", params)
        // A request sent after it is answered first: the completion waits (for a minute here).
        XCTAssertNotNil(client.request("macmd/pairs", params))
        XCTAssertFalse(client.received.contains { if case .response(completionID, _) = $0 { true } else { false } },
                       "no completion while the scan runs")
        client.releaseScan()
        let answer = try XCTUnwrap(client.response(to: completionID)?.value)
        XCTAssertEqual(answer["isIncomplete"]?.boolValue, false)
        XCTAssertEqual(answer["items"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["Zeta"])
    }

    func testCompletionAfterAShortWaitIsIncomplete() throws {
        let fixture = NotebookFixture(Self.notebook)
        let client = LSPTestClient(holdScan: true, completionScanWaitSeconds: 0.05)
        defer { fixture.destroy(); client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true]], workspaceFolders: [fixture.root])
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        client.open(fixture, "index.md")
        let uri = fixture.uri("index.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 2],
                                                 "contentChanges": [["text": "See [[ze"]]])
        let answer = try XCTUnwrap(client.request("textDocument/completion", ["textDocument": ["uri": .string(uri)],
                                                                              "position": ["line": 0, "character": 8]])?.value)
        XCTAssertEqual(answer["isIncomplete"]?.boolValue, true, "the client asks again at the next keystroke")
        XCTAssertEqual(answer["items"]?.arrayValue?.compactMap { $0["label"]?.stringValue }, ["Zeta"], "the notes read so far")
        client.releaseScan()
    }

    func testPullingClientsAreAskedToPullAgainWhenTheScanEnds() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }
        let client = LSPTestClient(holdScan: true)
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true],
                                         "workspace": ["diagnostics": ["refreshSupport": true]],
                                         "textDocument": ["diagnostic": ["dynamicRegistration": false]]],
                          workspaceFolders: [fixture.root])
        let uri = fixture.uri("index.md")
        // Nothing is open: the refresh at the end of the scan is for the workspace's report.
        // The scan reports 100 % once every note is read; it is held before it ends.
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        let during = client.request("workspace/diagnostic", ["previousResultIds": []])?.value?["items"]?.arrayValue ?? []
        XCTAssertEqual(during.flatMap { codes($0["items"]?.arrayValue) }, ["undefined-reference"],
                       "only a note's own problems while scanning (the notes are read, the scan not ended): \(during)")
        client.received.removeAll()
        client.releaseScan()
        var refreshed = false
        while !refreshed, let message = client.nextMessage(timeout: 5) {
            if case .request(let id, "workspace/diagnostic/refresh", _) = message {
                refreshed = true
                client.send(.response(id: id, result: .success(.null)))
            }
        }
        XCTAssertTrue(refreshed, "the server asks the client to pull again when the index is complete")
        let report = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])?.value
        XCTAssertEqual(codes(report?["items"]?.arrayValue), ["broken-heading", "broken-image", "broken-wikilink", "undefined-reference"])
    }

    /// A client that pulls but cannot be asked to pull again (no `refreshSupport`: Neovim
    /// 0.10–0.12) would keep the report of a pull made while the scan runs: its answer waits for
    /// the scan's end and holds every problem.
    func testAPullThatCannotBeRefreshedIsAnsweredWhenTheScanEnds() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }
        let client = LSPTestClient(holdScan: true)
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true],
                                         "textDocument": ["diagnostic": ["dynamicRegistration": false]]],
                          workspaceFolders: [fixture.root])
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        client.open(fixture, "index.md")
        let uri = fixture.uri("index.md")
        let id = client.sendRequest("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])
        // Other requests are answered meanwhile; this one is not.
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601)
        XCTAssertFalse(client.received.contains { if case .response(id, _) = $0 { true } else { false } },
                       "no report while the scan runs")
        client.releaseScan()
        let report = client.response(to: id)
        XCTAssertEqual(codes(report?.value?["items"]?.arrayValue), ["broken-heading", "broken-image", "broken-wikilink", "undefined-reference"])
        // Once the index is complete, pulls are answered at once.
        let again = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])?.value
        XCTAssertEqual(codes(again?["items"]?.arrayValue), ["broken-heading", "broken-image", "broken-wikilink", "undefined-reference"])
    }

    /// A request that waits for the scan can be cancelled meanwhile: it answers -32800 when the
    /// scan ends, not a result the client gave up on.
    func testAPreviewWaitingForTheScanCanBeCancelled() {
        let (fixture, client) = openDuringTheScan()
        defer { fixture.destroy(); client.close() }
        let uri = fixture.uri("index.md")
        let id = client.sendRequest("macmd/preview", ["textDocument": ["uri": .string(uri)]])
        client.notify("$/cancelRequest", ["id": id.json])
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601)
        client.releaseScan()
        XCTAssertEqual(client.response(to: id)?.errorCode, -32800)
    }

    /// A notebook removed before its first scan started (queued behind another's) never has a
    /// scan to end: a preview waiting for it goes on when it is removed, and is answered.
    func testAPreviewWaitingForARemovedNotebookIsAnswered() throws {
        // The note is in a folder of b's: once b is removed, its notebook is that folder, so
        // no scan of b's path comes to answer it.
        let fixture = NotebookFixture(["a/index.md": "# A\n", "b/sub/note.md": "# B\n\nSee [[note]].\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient(holdScan: true)
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true]], workspaceFolders: [fixture.root + "/a"])
        // a's scan is held at its end; b's waits behind it on the same queue.
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        let b = ["uri": JSONValue.string("file://" + fixture.root + "/b"), "name": "b"]
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": [.object(b)], "removed": []]])
        client.open(fixture, "b/sub/note.md")
        let id = client.sendRequest("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("b/sub/note.md"))]])
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601)
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": [], "removed": [.object(b)]]])
        client.releaseScan()
        let html = try XCTUnwrap(client.response(to: id)?.value?["html"]?.stringValue, "the preview is answered")
        XCTAssertTrue(html.contains(">B</h1>"), html)
    }
}
