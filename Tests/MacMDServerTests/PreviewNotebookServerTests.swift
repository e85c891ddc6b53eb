import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer
import NotebookWorkspace
import Themes

/// `macmd/preview` of a note in a notebook: its wiki-links point where the notebook resolves them,
/// and its theme comes from the notebook's configuration.
final class PreviewNotebookServerTests: XCTestCase {
    func preview(_ client: LSPTestClient, _ fixture: NotebookFixture, _ path: String, _ options: JSONValue = [:]) -> String {
        client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri(path))], "options": options])?.value?["html"]?.stringValue ?? ""
    }

    func testPreviewLinksWhereTheNotebookResolves() {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        // garden/beds.md is not open: the preview reads it from disk, in the notebook it belongs to.
        let html = preview(client, fixture, "garden/beds.md", ["sourceLines": false])
        XCTAssertEqual(html, "<h1 id=\"beds\">Beds</h1>\n<p>"
            + #"<a class="wikilink" href="soil.md">soil</a> "#
            + #"<a class="wikilink" href="soil.md#texture">soil &gt; Texture</a> "#
            + #"<img class="wikilink-embed" src="../img/plot.png" alt="The plot" /> "#
            + #"<a class="wikilink broken">Missing</a> "#
            + #"<a class="wikilink ambiguous" href="../a/dup.md">dup</a> "#
            + ##"<a class="wikilink" href="#beds">Beds</a> "##
            + #"<a class="wikilink" href="../Seed%20list.md">Seed list</a>"#
            + "</p>\n")
        // An open note's unsaved text is previewed, and links follow the notebook as it changes.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": "[[Missing]] ![[garden/soil]]\n"]]])
        fixture.write("Missing.md", "# Found\n")
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri("Missing.md")), "type": 1]]])
        _ = client.diagnostics(for: fixture.uri("index.md")) { $0.isEmpty }
        XCTAssertEqual(preview(client, fixture, "index.md", ["sourceLines": false]),
                       #"<p><a class="wikilink" href="Missing.md">Missing</a> <a class="wikilink embed" href="garden/soil.md">garden/soil</a></p>"# + "\n")
    }

    /// With `tagPages`, tag chips lead to the client's page of each tag; `tag` asks for that
    /// page: the notes of the notebook that carry the tag, by title, nested tags in sections of
    /// their own, every title escaped, every link under `baseUri`.
    func testTagChipsLeadToTagPages() throws {
        let fixture = NotebookFixture([
            "index.md": "# Home\n\nSee #garden and #garden/beds.\n",
            "a.md": "---\ntags: [garden]\ntitle: \"*Alpha* <b>[x]</b> \\\\(y\\\\)\"\n---\n",
            "sub/b.md": "# Beta\n\n#garden/beds\n",
            "c.md": "# Gamma\n\n#gardening\n",
        ])
        let client = LSPTestClient.started(on: fixture)
        defer { client.close(); fixture.destroy() }
        let base = "http://127.0.0.1:8/t0k/1/"
        let options: JSONValue = ["sourceLines": false, "baseUri": .string(base + "n/"), "tagPages": .string(base + "t/")]
        let note = preview(client, fixture, "index.md", options)
        XCTAssertTrue(note.contains(#"<a class="tag" href="http://127.0.0.1:8/t0k/1/t/garden">#garden</a>"#), note)
        XCTAssertTrue(note.contains(#"<a class="tag" href="http://127.0.0.1:8/t0k/1/t/garden/beds">#garden/beds</a>"#), note)
        XCTAssertTrue(preview(client, fixture, "index.md", ["sourceLines": false]).contains(##"<a class="tag" href="#garden">"##),
                      "without tagPages a chip keeps its anchor")
        let answer = try XCTUnwrap(client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                   "tag": "#garden", "options": options])?.value)
        XCTAssertEqual(answer["title"]?.stringValue, "#garden")
        XCTAssertEqual(answer["html"]?.stringValue, """
            <h1 id="garden">#garden</h1>
            <ul>
            <li><a href="http://127.0.0.1:8/t0k/1/n/a.md">*Alpha* &lt;b&gt;[x]&lt;/b&gt; \\(y\\)</a></li>
            <li><a href="http://127.0.0.1:8/t0k/1/n/index.md">Home</a></li>
            </ul>
            <h2 id="gardenbeds">#garden/beds</h2>
            <ul>
            <li><a href="http://127.0.0.1:8/t0k/1/n/sub/b.md">Beta</a></li>
            <li><a href="http://127.0.0.1:8/t0k/1/n/index.md">Home</a></li>
            </ul>

            """)
        // A tagPages that is no URI is refused, naming the option.
        let refused = client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                      "options": ["tagPages": "tags/"]])
        guard case .failure(let error)? = refused else { return XCTFail("tagPages `tags/` was taken: \(String(describing: refused))") }
        XCTAssertEqual(error.code, -32602)
        XCTAssertTrue(error.message.contains("params.options.tagPages"), error.message)
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
        client.server.settle()
        XCTAssertEqual(theme(client, fixture), "ocean")
        // `previewTheme` is not a key (it was never documented): ignored with a log line.
        fixture.write(".macmd.json", #"{"previewTheme": "grass"}"#)
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri(".macmd.json")), "type": 2]]])
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.settle()
        XCTAssertEqual(theme(client, fixture), "ocean")
        let configuration = NotebookConfiguration(layers: [ConfigurationLayer(source: "a", value: ["previewTheme": "grass", "preview": ["theme": "neon", "font": 1]])])
        XCTAssertEqual(configuration.previewTheme, .light)
        XCTAssertEqual(configuration.problems.map(\.description), [
            "a: unknown key `preview.font` ignored",
            "a: `preview.theme`: expected one of light, dark, basic, grass, homebrew, man-page, novel, ocean, pro, red-sands, silver-aerogel, solid-colors, got \"neon\"",
            "a: unknown key `previewTheme` ignored",
        ])
    }
}
