import Foundation
import JSON
import JSONRPC
import XCTest
@testable import MacMDServer
import LSPTypes
import TestSupport

/// Document sync and `macmd/preview`: what the user sees is always the buffer as it is now.
final class TextSyncAndPreviewTests: XCTestCase {
    let uri = "file:///notes/Soil%20tests.md"

    func open(_ client: LSPTestClient, _ text: String, version: Int = 1) {
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown",
                                                               "version": .int(Int64(version)), "text": .string(text)]])
    }

    func change(_ client: LSPTestClient, version: Int, _ changes: [JSONValue]) {
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                                                  "contentChanges": .array(changes)])
    }

    /// A change replacing the range `$0…$0` marks in `marked` (the document's text as it is
    /// when the change applies) by `text`, its positions in `encoding`.
    func edit(_ marked: String, _ encoding: ColumnEncoding, _ text: String) -> JSONValue {
        ["range": Fixture(marked).lspRange(encoding), "text": .string(text)]
    }

    func preview(_ client: LSPTestClient, options: JSONValue? = nil, uri: String? = nil) -> Result<JSONValue, ResponseError>? {
        var params: [String: JSONValue] = ["textDocument": ["uri": .string(uri ?? self.uri)]]
        if let options { params["options"] = options }
        return client.request("macmd/preview", .object(params))
    }

    func testIncrementalEditsApplyInOrderInEachEncoding() {
        let text = "# Tëst 😀 x\n\nBody\n"
        // One UTF-16 unit into 😀: between its surrogates, where no marker can stand.
        let beforeEmoji = Fixture("# Tëst $0😀 x\n\nBody\n")
        let insidePair = ["line": .int(Int64(beforeEmoji.cursorPosition?.line ?? 0)),
                          "character": .int(Int64((beforeEmoji.cursorPosition?.utf16Character ?? 0) + 1))] as JSONValue
        let bodyRange = Fixture("# Tëst 😀 x\n\n$0Body$0\n").lspRange()
        // Each case: encoding, edits on `text`, expected HTML fragment.
        let cases: [(ColumnEncoding, [JSONValue], String)] = [
            (.utf16, [edit("# Tëst 😀 $0x$0\n\nBody\n", .utf16, "y")], "Tëst 😀 y</h1>"),   // 😀 is two UTF-16 units
            (.utf8, [edit("# Tëst 😀 $0x$0\n\nBody\n", .utf8, "y")], "Tëst 😀 y</h1>"),     // ë is two bytes, 😀 four
            (.utf32, [edit("# Tëst 😀 $0x$0\n\nBody\n", .utf32, "y")], "Tëst 😀 y</h1>"),
            (.utf16, [["range": ["start": insidePair, "end": insidePair], "text": "!"]], "Tëst !😀 x</h1>"),  // inside the pair: its start
            (.utf16, [edit("# Tëst 😀 x\n\n$0Body$0\n", .utf16, "New"), edit("# Tëst 😀 x\n\nNew$0$0\n", .utf16, " text")], ">New text</p>"),
            (.utf16, [["range": ["start": Fixture("$0" + text).lspPosition(Fixture("$0" + text).cursor),
                                 "end": ["line": 99, "character": 99]], "text": "# Replaced"]],
             ">Replaced</h1>"),  // an end past the document's (no marker can stand there): clamped
            (.utf16, [["text": "# Full text\n"]], ">Full text</h1>"),
            (.utf16, [["range": ["start": bodyRange["end"] ?? .null, "end": bodyRange["start"] ?? .null], "text": ""]],
             ">Body</p>"),  // reversed range: nothing lost
        ]
        for (encoding, edits, expected) in cases {
            let client = LSPTestClient()
            client.initialize(capabilities: ["general": ["positionEncodings": [.string(encoding.rawValue)]]])
            open(client, text)
            change(client, version: 2, edits)
            let html = preview(client)?.value?["html"]?.stringValue ?? ""
            XCTAssertTrue(html.contains(expected), "\(encoding) \(edits): \(html)")
            XCTAssertEqual(preview(client)?.value?["version"], 2)
            client.close()
        }
    }

    func testPreviewResultHasEverythingAnEditorShows() throws {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let note = Fixture("---\ntitle: Soil\n---\n$0# Heading one\n\nSome *words* here.\n\n## Two\n")
        let headingLine = try XCTUnwrap(note.cursorPosition).line
        open(client, note.text, version: 3)
        let result = try XCTUnwrap(preview(client)?.value)
        XCTAssertEqual(result["uri"], .string(uri))
        XCTAssertEqual(result["version"], 3)
        XCTAssertEqual(result["title"], "Soil")
        XCTAssertEqual(result["wordCount"], 6)
        XCTAssertEqual(result["readingTimeMinutes"], 1)
        XCTAssertNotNil(result["characterCount"]?.intValue)
        XCTAssertEqual(result["headings"]?[0]?["id"], "heading-one")
        XCTAssertEqual(result["headings"]?[0]?["line"], .int(Int64(headingLine)))
        XCTAssertEqual(result["headings"]?[1]?["level"], 2)
        let html = try XCTUnwrap(result["html"]?.stringValue)
        XCTAssertTrue(html.contains("<h1 id=\"heading-one\" data-source-line=\"\(headingLine + 1)\">Heading one</h1>"), html)
        XCTAssertTrue(html.contains("<em>words</em>"))
    }

    func testPreviewOptionsAndSafeMode() throws {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        open(client, "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n")
        let safe = try XCTUnwrap(preview(client)?.value?["html"]?.stringValue)
        XCTAssertFalse(safe.contains("<script>"))
        XCTAssertFalse(safe.contains("javascript:"))
        let unsafe = try XCTUnwrap(preview(client, options: ["safe": false, "sourceLines": false])?.value?["html"]?.stringValue)
        XCTAssertTrue(unsafe.contains("href=\"javascript:alert(1)\""), unsafe)
        XCTAssertTrue(unsafe.contains("&lt;script>"), "the notebook profile's tag filter still applies")
        let page = try XCTUnwrap(preview(client, options: ["fullPage": true, "theme": "dark"])?.value?["html"]?.stringValue)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("http://") || page.contains("https://"), "a preview must not need the network")
        XCTAssertTrue(page.contains("data-theme=\"dark\""), "the chosen theme's stylesheet")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 2],
                                                  "contentChanges": [["text": "```swift\nlet x = 1\n```\n"]]])
        let code = try XCTUnwrap(preview(client)?.value?["html"]?.stringValue)
        XCTAssertTrue(code.contains("class=\"language-swift\""), code)
        XCTAssertTrue(code.contains("<span class=\"hl-keyword\">let</span>"), "code is highlighted offline: \(code)")
        let bad = preview(client, options: ["theme": "neon"])
        XCTAssertEqual(bad?.errorCode, -32602)
        XCTAssertTrue(bad?.errorMessage?.contains("params.options.theme") ?? false)
        XCTAssertEqual(preview(client, options: ["profile": "asciidoc"])?.errorCode, -32602)
        XCTAssertEqual(preview(client, options: ["fullPage": "yes"])?.errorMessage?.contains("params.options.fullPage") ?? false, true)
    }

    /// The `math` option: MathML by default (the preview is a browser), TeX for a client that
    /// typesets it; anything else is refused, naming the field.
    func testPreviewMathOptionChoosesMathMLOrTeX() throws {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        open(client, "Area $\\pi r^2$, a typo $\\fracc{1}{2}$.\n")
        let mathML = try XCTUnwrap(preview(client)?.value?["html"]?.stringValue)
        XCTAssertTrue(mathML.contains(#"<span class="math math-inline"><math display="inline"><semantics><mrow><mi>π</mi>"#), mathML)
        XCTAssertTrue(mathML.contains(#"<span class="math math-inline"><code class="math-error" title="unknown command \fracc">\fracc{1}{2}</code></span>"#),
                      mathML)
        XCTAssertEqual(try XCTUnwrap(preview(client, options: ["math": "mathml"])?.value?["html"]?.stringValue), mathML)
        let tex = try XCTUnwrap(preview(client, options: ["math": "tex", "sourceLines": false])?.value?["html"]?.stringValue)
        XCTAssertEqual(tex, #"<p>Area <span class="math math-inline">\(\pi r^2\)</span>, a typo "#
                       + #"<span class="math math-inline">\(\fracc{1}{2}\)</span>.</p>"# + "\n")
        let page = try XCTUnwrap(preview(client, options: ["fullPage": true])?.value?["html"]?.stringValue)
        XCTAssertTrue(page.contains("<math display=\"inline\">"), "a full page is MathML too")
        XCTAssertFalse(page.lowercased().contains("<script"), "and runs no script")
        for bad: JSONValue in ["katex", "MathML", ""] {
            let refused = preview(client, options: ["math": bad])
            XCTAssertEqual(refused?.errorCode, -32602, "\(bad)")
            XCTAssertTrue(refused?.errorMessage?.hasPrefix("params.options.math: expected mathml or tex") ?? false, refused?.errorMessage ?? "")
        }
        XCTAssertTrue(preview(client, options: ["math": 1])?.errorMessage?.hasPrefix("params.options.math") ?? false, "not a string")
    }

    func testPreviewReadsTheFileOnDiskWhenTheNoteIsNotOpen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("On disk.md")
        try "# From disk\n".write(to: file, atomically: true, encoding: .utf8)
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let result = try XCTUnwrap(preview(client, uri: FileURI.uri(ofPath: file.path))?.value)
        XCTAssertEqual(result["title"], "From disk")
        XCTAssertEqual(result["version"], .null)
        let missing = preview(client, uri: FileURI.uri(ofPath: directory.appendingPathComponent("missing.md").path))
        XCTAssertEqual(missing?.errorCode, -32602)
        XCTAssertTrue(missing?.errorMessage?.contains("missing.md") ?? false)
        XCTAssertEqual(preview(client, uri: "untitled:Untitled-1")?.errorCode, -32602)
        XCTAssertEqual(preview(client, uri: FileURI.uri(ofPath: directory.path))?.errorCode, -32602, "a directory")
    }

    func testWrongParamsNameTheField() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let cases: [(JSONValue?, String)] = [
            (nil, "params"),
            (["textDocument": 42], "params.textDocument"),
            (["textDocument": ["uri": 42]], "params.textDocument.uri"),
            (["textDocument": ["uri": "file:///a.md"], "options": "x"], "params.options"),
        ]
        for (params, field) in cases {
            let result = client.request("macmd/preview", params)
            XCTAssertEqual(result?.errorCode, -32602, "\(String(describing: params))")
            XCTAssertTrue(result?.errorMessage?.hasPrefix(field + ":") ?? false, "\(result?.errorMessage ?? "") should name \(field)")
        }
        // Malformed notifications are logged, never fatal.
        client.notify("textDocument/didChange", ["textDocument": "nope"])
        client.notify("textDocument/didOpen", ["textDocument": ["uri": 1]])
        XCTAssertEqual(client.request("unknown")?.errorCode, -32601)
    }

    func testCancellationOvertakesQueuedWork() {
        let client = LSPTestClient(holdWork: true)
        defer { client.close() }
        client.initialize()
        open(client, "# Note\n")
        let id = client.sendRequest("macmd/preview", ["textDocument": ["uri": .string(uri)]])
        client.notify("$/cancelRequest", ["id": id.json])
        // Make sure the cancel was read before the work runs.
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601)
        client.releaseWork()
        XCTAssertEqual(client.response(to: id)?.errorCode, -32800)
    }

    func testAResultForAnOlderVersionIsReportedStale() {
        let client = LSPTestClient(holdWork: true)
        defer { client.close() }
        client.initialize()
        open(client, "# Note\n")
        let id = client.sendRequest("macmd/preview", ["textDocument": ["uri": .string(uri)]])
        change(client, version: 2, [["text": "# Changed\n"]])
        XCTAssertEqual(client.request("nothing/here")?.errorCode, -32601)
        client.releaseWork()
        XCTAssertEqual(client.response(to: id)?.errorCode, -32801)
        XCTAssertEqual(preview(client)?.value?["title"], "Changed")
    }

    func testRepeatedPreviewsNeverShowAStaleTree() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        open(client, "# One\n\n~~struck~~\n")
        XCTAssertEqual(preview(client)?.value?["title"], "One")
        XCTAssertEqual(preview(client)?.value?["title"], "One", "the same version again")
        let plain = preview(client, options: ["profile": "commonmark"])?.value?["html"]?.stringValue ?? ""
        XCTAssertFalse(plain.contains("<del>"), "another profile is parsed anew: \(plain)")
        XCTAssertTrue(preview(client)?.value?["html"]?.stringValue?.contains("<del>") ?? false)
        // Closed and reopened with other text under the same version number.
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
        open(client, "# Two\n", version: 1)
        XCTAssertEqual(preview(client)?.value?["title"], "Two")
        client.notify("textDocument/didSave", ["textDocument": ["uri": .string(uri)], "text": "# Three\n"])
        XCTAssertEqual(preview(client)?.value?["title"], "Three", "didSave with text replaces the buffer")
    }

    func testClosedDocumentsFallBackToDisk() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        open(client, "# Buffer\n")
        XCTAssertEqual(preview(client)?.value?["title"], "Buffer")
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
        XCTAssertEqual(preview(client)?.errorCode, -32602, "the file does not exist on disk")
    }
}
