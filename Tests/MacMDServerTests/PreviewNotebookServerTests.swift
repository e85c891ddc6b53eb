import Foundation
import JSONRPC
import XCTest
@testable import MacMDServer

/// `macmd/preview` of a note in a notebook: its theme comes from the notebook's configuration.
final class PreviewNotebookServerTests: XCTestCase {
    func preview(_ client: LSPTestClient, _ fixture: NotebookFixture, _ path: String, _ options: JSONValue = [:]) -> String {
        client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri(path))], "options": options])?.value?["html"]?.stringValue ?? ""
    }

    func theme(_ client: LSPTestClient, _ fixture: NotebookFixture, _ options: JSONValue = ["fullPage": true]) -> String? {
        let html = preview(client, fixture, "index.md", options)
        guard let start = html.range(of: "data-theme=\"") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    func testPreviewThemeComesFromTheNotebooksConfiguration() {
        let (fixture, client) = LinkedNotebook.start([".macmd.json": #"{"preview": {"theme": "dark"}}"#], initializationOptions: ["preview": ["theme": "ocean"]])
        defer { client.close(); fixture.destroy() }
        // The notebook's `.macmd.json` wins over the editor's settings; the request over both.
        XCTAssertEqual(theme(client, fixture), "dark")
        XCTAssertEqual(theme(client, fixture, ["fullPage": true, "theme": "novel"]), "novel")
        // A theme that does not exist falls back (with a log line) to the editor's; the preview works.
        fixture.write(".macmd.json", #"{"preview": {"theme": "neon"}}"#)
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri(".macmd.json")), "type": 2]]])
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.indexer.sync {}
        XCTAssertEqual(theme(client, fixture), "ocean")
        // `previewTheme` is not a key (it was never documented): ignored with a log line.
        fixture.write(".macmd.json", #"{"previewTheme": "grass"}"#)
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri(".macmd.json")), "type": 2]]])
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.indexer.sync {}
        XCTAssertEqual(theme(client, fixture), "ocean")
        let configuration = NotebookConfiguration.merged([("a", ["previewTheme": "grass", "preview": ["theme": "neon", "font": 1]])])
        XCTAssertEqual(configuration.previewTheme, "light")
        XCTAssertEqual(configuration.problems, [
            "a: unknown key `preview.font` ignored",
            "a: `preview.theme`: expected one of light, dark, basic, grass, homebrew, man-page, novel, ocean, pro, red-sands, silver-aerogel, solid-colors, got \"neon\"",
            "a: unknown key `previewTheme` ignored",
        ])
    }
}
