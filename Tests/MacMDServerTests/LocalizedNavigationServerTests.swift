import JSON
import TestSupport
import XCTest

/// Hover, outline, workspace symbols and completion in the language the client asks for
/// (`initializationOptions.locale`): MacMD's words translated, names and paths as written.
final class LocalizedNavigationServerTests: XCTestCase {
    /// Per locale: a tag's hover, the outline's names, a tag's workspace symbol container, a
    /// tag's completion detail (where it is typed: the other note's use only).
    let cases: [(locale: String, hover: String, outline: [String], container: String, detail: String)] = [
        ("de", "`#garden` — 2-mal in 2 Notizen verwendet", ["Front Matter", "Soil"], "2 Verwendungen", "1 Verwendung"),
        ("ja", "`#garden` — 2 件のノートで 2 回使われています", ["フロントマター", "Soil"], "2 回使用", "1 回使用"),
    ]

    func testNavigationSpeaksTheClientsLanguage() {
        for row in cases {
            let fixture = NotebookFixture(NavigationServerTests.notebook)
            let client = LSPTestClient.started(on: fixture, initializationOptions: ["locale": .string(row.locale)])
            defer { client.close(); fixture.destroy() }
            client.open(fixture, "index.md")
            _ = client.diagnostics(for: fixture.uri("index.md"))
            let hover = client.request("textDocument/hover", fixture.at("#garden$0", in: "index.md"))?.value
            XCTAssertEqual(hover?["contents"]?["value"]?.stringValue, row.hover, row.locale)
            let doc: JSONValue = ["textDocument": ["uri": .string(fixture.uri("garden/soil.md"))]]
            let symbols = client.request("textDocument/documentSymbol", doc)?.value?.arrayValue ?? []
            XCTAssertEqual(symbols.compactMap { $0["name"]?.stringValue }, row.outline, row.locale)
            let found = client.request("workspace/symbol", ["query": "#garden"])?.value?.arrayValue ?? []
            XCTAssertEqual(found.first { $0["name"]?.stringValue == "#garden" }?["containerName"]?.stringValue, row.container, row.locale)
            let items = client.request("textDocument/completion", fixture.at("#gar$0den", in: "index.md"))?.value?["items"]?.arrayValue ?? []
            XCTAssertEqual(items.first { $0["label"]?.stringValue == "garden" }?["detail"]?.stringValue, row.detail, row.locale)
        }
    }
}
