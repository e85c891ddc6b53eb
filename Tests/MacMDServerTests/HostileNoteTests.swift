import Foundation
import TestSupport
import XCTest

/// Notes written to do harm, through the server as an editor meets them: the preview (safe by
/// default) runs no script and loads nothing dangerous, and neither the preview, hovers nor the
/// index read a file outside the notebook, by `..` or through a symlink. The preview's HTML is
/// kept in `Fixtures/hostile/preview.html` for review (`MACMD_BLESS=1` rewrites it).
final class HostileNoteTests: XCTestCase {
    static let hostile = """
        # Hostile

        <script>alert(1)</script>
        <img src="x" onerror="alert(2)">
        <iframe src="https://evil.example/"></iframe>
        <a href="javascript:alert(3)">raw link</a>

        [js](javascript:alert(4)) [JS](JaVaScRiPt:alert(5)) [entity](&#106;avascript:alert(6))
        [vb](vbscript:msgbox(7)) [file](file:///etc/passwd) [html](data:text/html;base64,PHNjcmlwdD4=)
        ![ok](data:image/png;base64,iVBORw0KGgo=) ![svg](data:image/svg+xml;base64,PHN2Zz4=)
        <javascript:alert(8)> [ws](  javascript:alert(9)) [tab](java\tscript:alert(10))

        ![[../outside-secret.md]] ![[../../../../../../etc/hostname]] ![[/etc/hostname]]
        ![up](../outside-image.png) [[link-to-secret]] ![[link-to-secret]]

        $\\href{javascript:alert(11)}{x}$ $\\htmlData{x=1}{y}$

        Embeds alone in their paragraphs are shown in place: never what lies outside, never forever.

        ![[link-to-secret]]

        ![[../outside-secret]]

        ![[hostile]]
        ![[safe]]

        """

    func testAHostileNoteCannotRunScriptsOrReadOutsideTheNotebook() throws {
        let fixture = NotebookFixture(["hostile.md": Self.hostile, "safe.md": "# Safe\n\n[[hostile]]\n\n![[hostile]]\n"])
        defer { fixture.destroy() }
        // A secret beside the notebook, and a link inside it that leads there.
        let outside = URL(fileURLWithPath: fixture.root).deletingLastPathComponent()
        let secretPath = outside.appendingPathComponent("outside-secret.md").path
        try "# TOP-SECRET\n\nTOP-SECRET content\n".write(toFile: secretPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secretPath) }
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/link-to-secret.md", withDestinationPath: secretPath)

        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.open(fixture, "hostile.md")
        _ = client.diagnostics(for: fixture.uri("hostile.md"))

        let result = client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("hostile.md"))],
                                                      "options": ["fullPage": true, "sourceLines": false]])?.value
        let html = result?["html"]?.stringValue ?? ""
        XCTAssertFalse(html.isEmpty)
        let lowered = html.lowercased()
        for forbidden in ["<script>alert", "onerror=", "<iframe", "top-secret"] {
            XCTAssertFalse(lowered.contains(forbidden), "the preview holds \(forbidden)")
        }
        // Every URL the page may follow or load is inert: no script, no local file, no page in a
        // data: URL (the words may stay as text, where they do nothing).
        let urls = Self.attributeValues(["href", "src"], in: lowered)
        XCTAssertGreaterThan(urls.count, 5)
        for url in urls {
            let trimmed = url.trimmingCharacters(in: .whitespaces)
            for scheme in ["javascript:", "vbscript:", "file:", "data:text"] {
                XCTAssertFalse(trimmed.hasPrefix(scheme), "a URL the page follows: \(url)")
            }
        }
        XCTAssertTrue(html.contains("data:image/png;base64,iVBORw0KGgo="), "an image data: URL stays")
        // The page's only script is the one its CSP names by nonce (none without one).
        XCTAssertFalse(lowered.contains("<script"), "a page without a nonce has no script")
        XCTAssertTrue(html.contains("Content-Security-Policy"), "the full page carries a CSP")
        for resource in result?["resources"]?.arrayValue ?? [] {
            let uri = resource.stringValue ?? ""
            XCTAssertTrue(uri.hasPrefix(fixture.uri("")) || !uri.hasPrefix("file:"), "a resource outside the notebook: \(uri)")
        }
        Golden.assertMatches(html.replacingOccurrences(of: fixture.root, with: "$ROOT"), "hostile/preview.html")

        // Hovers over the links that lead out show no word of what is there.
        for marked in [") [[link-to$0-secret]]", "![[../outside$0-secret.md]]", "![[/etc/host$0name]]"] {
            let hover = client.request("textDocument/hover", fixture.at(marked, in: "hostile.md"))?.value
            let text = hover?["contents"]?["value"]?.stringValue ?? ""
            XCTAssertFalse(text.uppercased().contains("TOP-SECRET"), "\(marked): \(text)")
            XCTAssertFalse(text.contains("localhost") || text.contains(ProcessInfo.processInfo.hostName), "\(marked): \(text)")
        }
        // Nor does the index: completion offers no heading of the secret.
        let items = client.request("textDocument/completion", fixture.at(") [[link-to$0-secret]]", in: "hostile.md"))?.value?["items"]?.arrayValue ?? []
        XCTAssertFalse(items.contains { ($0["label"]?.stringValue ?? "").uppercased().contains("TOP-SECRET") }, "\(items)")
    }

    /// The values of the attributes `names` in `html` (double-quoted, as the renderer writes them).
    static func attributeValues(_ names: [String], in html: String) -> [String] {
        var values: [String] = []
        for name in names {
            var rest = html[...]
            while let found = rest.range(of: " \(name)=\"") {
                let after = rest[found.upperBound...]
                guard let close = after.firstIndex(of: "\"") else { break }
                values.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return values
    }

    /// Nesting built to exhaust a stack or the time: answered, bounded, quickly.
    func testNestingBombsAreAnsweredAndBounded() {
        let bombs = [
            String(repeating: "> ", count: 50_000) + "deep\n",
            String(repeating: "[", count: 100_000) + "x" + String(repeating: "](u)", count: 100_000) + "\n",
            String(repeating: "- ", count: 30_000) + "item\n",
            String(repeating: "*a ", count: 50_000) + String(repeating: "a* ", count: 50_000) + "\n",
            "$" + String(repeating: "{", count: 100_000) + "$\n",
            String(repeating: "[[", count: 100_000) + "\n",
        ]
        let fixture = NotebookFixture(["bomb.md": "# Bomb\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        for (index, bomb) in bombs.enumerated() {
            let uri = fixture.uri("bomb\(index).md")
            client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown", "version": 1,
                                                                    "text": .string(bomb)]])
            let html = client.request("macmd/preview", ["textDocument": ["uri": .string(uri)], "options": ["sourceLines": false]])?.value?["html"]?.stringValue
            XCTAssertNotNil(html, "bomb \(index) is previewed")
            XCTAssertLessThan(html?.utf8.count ?? 0, bomb.utf8.count * 40, "bomb \(index): output bounded by its input")
        }
    }

    /// No lost text: a rename computed against a version the client no longer holds is refused
    /// with ContentModified (-32801), and asked again it applies to the new text.
    func testARenameAgainstAnOldVersionIsRefused() {
        let fixture = NotebookFixture(["index.md": "# Home\n\nSee [[other#Part]].\n", "other.md": "# Other\n\n## Part\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient(holdWork: true)
        defer { client.close() }
        _ = client.initialize(workspaceFolders: [fixture.root])
        client.open(fixture, "other.md")
        _ = client.diagnostics(for: fixture.uri("other.md"))
        // Requests wait at the gate: ask for the rename, then type before it runs.
        let id = client.sendRequest("textDocument/rename", fixture.at("## Pa$0rt", in: "other.md").adding(["newName": "Section"]))
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("other.md")), "version": 2],
                                                 "contentChanges": [["text": "# Other\n\nNew first line.\n\n## Part\n"]]])
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601, "the change was read before the work runs")
        client.releaseWork()
        XCTAssertEqual(client.response(to: id)?.errorCode, -32801)
        let again = client.request("textDocument/rename", ["textDocument": ["uri": .string(fixture.uri("other.md"))],
                                                           "position": ["line": 4, "character": 4], "newName": "Section"])
        XCTAssertNotNil(again?.value, "asked again, the rename is made against the text the client holds")
    }
}
