import Foundation
import JSON
import JSONRPC
import LSPTypes
import TestSupport
import XCTest
@testable import MacMDServer

/// How `macmd/preview`'s page reaches the notebook's files: `resources` (`relative`, the default,
/// or `absolute` `file:` URLs), `baseUri` (a URL standing for the notebook's root), `baseHref`
/// (a `<base>` in a full page), and the `resources` of the result (the local files it shows).
final class PreviewResourcesServerTests: XCTestCase {
    func preview(_ client: LSPTestClient, _ uri: String, _ options: JSONValue) -> Result<JSONValue, ResponseError>? {
        client.request("macmd/preview", ["textDocument": ["uri": .string(uri)], "options": options])
    }

    /// The `href`s and `src`s of `html`, in order.
    func urls(_ html: String) -> [String] {
        guard let pattern = try? NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#) else { return [] }
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    func testResourcesRelativeAbsoluteAndBaseURI() throws {
        let (fixture, client) = LinkedNotebook.start(["garden/notes/deep.md": "![p](../../img/plot.png) [s](/garden/soil.md) [x](#top)\n"])
        defer { client.close(); fixture.destroy() }
        let root = FileURI.uri(ofPath: fixture.root)
        // Relative (the default, and asked for by name): URLs as written, relative to the note.
        for options: JSONValue in [["sourceLines": false], ["sourceLines": false, "resources": "relative"]] {
            let result = try XCTUnwrap(preview(client, fixture.uri("index.md"), options)?.value)
            XCTAssertEqual(urls(result["html"]?.stringValue ?? ""), [
                "garden/soil.md#texture", "garden/soil.md", "img/plot.png", "garden/beds.md", "a/dup.md", "report.pdf",
                "gone.png", "docs/guide.pdf",
            ])
            // Only files on disk: not the missing gone.png, nor report.pdf (no image, no embed).
            XCTAssertEqual(result["resources"], [.string(root + "/img/plot.png")])
        }
        // Absolute: `file:` URLs of the files they name.
        let absolute = try XCTUnwrap(preview(client, fixture.uri("index.md"), ["resources": "absolute", "sourceLines": false])?.value)
        XCTAssertEqual(urls(absolute["html"]?.stringValue ?? ""), [
            "garden/soil.md#texture", "garden/soil.md", "img/plot.png", "garden/beds.md", "a/dup.md", "report.pdf",
            "gone.png", "docs/guide.pdf",
        ].map { root + "/" + $0 })
        XCTAssertEqual(absolute["resources"], [.string(root + "/img/plot.png")])
        // From a note two folders down: `..` and `/x` (the notebook's root); fragments stay.
        let deep = try XCTUnwrap(preview(client, fixture.uri("garden/notes/deep.md"), ["resources": "absolute"])?.value)
        XCTAssertEqual(urls(deep["html"]?.stringValue ?? ""), [root + "/img/plot.png", root + "/garden/soil.md", "#top"])
        // baseUri: the client's URL for the root (VS Code's webview URL), its escapes kept.
        let base = "https://file%2B.vscode-resource.vscode-cdn.net" + fixture.root
        let webview = try XCTUnwrap(preview(client, fixture.uri("garden/notes/deep.md"), ["baseUri": .string(base)])?.value)
        XCTAssertEqual(urls(webview["html"]?.stringValue ?? ""), [base + "/img/plot.png", base + "/garden/soil.md", "#top"])
        XCTAssertEqual(webview["resources"], [.string(root + "/img/plot.png")], "resources are files, whatever the URLs")
        // In beds.md, wiki-links where the notebook resolves them, under the base.
        let beds = try XCTUnwrap(preview(client, fixture.uri("garden/beds.md"), ["baseUri": .string(base + "/")])?.value)
        XCTAssertEqual(urls(beds["html"]?.stringValue ?? ""), [
            base + "/garden/soil.md", base + "/garden/soil.md#texture", base + "/img/plot.png", base + "/a/dup.md", "#beds",
            base + "/Seed%20list.md",
        ])
    }

    /// An embedded section is in the page, its links lead from the page, and `resources` names
    /// the embedded note and the picture it shows: a client refreshes the page when either
    /// changes, and the next preview shows the note's text as the editor has it.
    func testEmbedsAreShownAndListedAsResources() throws {
        let (fixture, client) = LinkedNotebook.start([
            "journal/day.md": "# Day\n\n![[beds#Beds]]\n",
        ])
        defer { client.close(); fixture.destroy() }
        let root = FileURI.uri(ofPath: fixture.root)
        client.open(fixture, "journal/day.md")
        let page = try XCTUnwrap(preview(client, fixture.uri("journal/day.md"), ["sourceLines": false])?.value)
        let html = page["html"]?.stringValue ?? ""
        XCTAssertTrue(html.contains(#"<div class="embed" data-source="garden/beds.md#beds">"#), html)
        XCTAssertEqual(urls(html), [
            "../garden/beds.md#beds", "../garden/soil.md", "../garden/soil.md#texture", "../img/plot.png", "../a/dup.md",
            "#embed1-beds", "../Seed%20list.md",
        ])
        XCTAssertEqual(page["resources"], [.string(root + "/garden/beds.md"), .string(root + "/img/plot.png")])
        // The embedded note changes in the editor: the next preview shows its new text.
        client.open(fixture, "garden/beds.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("garden/beds.md")), "version": 2],
                                                 "contentChanges": [["text": "# Beds\n\nRaised beds, four of them.\n"]]])
        let after = try XCTUnwrap(preview(client, fixture.uri("journal/day.md"), ["sourceLines": false])?.value?["html"]?.stringValue)
        XCTAssertTrue(after.contains("<p>Raised beds, four of them.</p>"), after)
    }

    func testBaseHrefInAFullPage() throws {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let root = FileURI.uri(ofPath: fixture.root)
        let page = try XCTUnwrap(preview(client, fixture.uri("garden/beds.md"), ["fullPage": true, "baseHref": true])?.value?["html"]?.stringValue)
        XCTAssertTrue(page.contains("<base href=\"\(root)/garden/\">"), page)
        XCTAssertTrue(page.contains(##"<a class="wikilink" href="#beds">"##), "in-page links stay fragments: \(page)")
        let webview = try XCTUnwrap(preview(client, fixture.uri("garden/beds.md"),
                                            ["fullPage": true, "baseHref": true, "baseUri": "vscode-webview://x/root"])?.value?["html"]?.stringValue)
        XCTAssertTrue(webview.contains("<base href=\"vscode-webview://x/root/garden/\">"), webview)
        let without = try XCTUnwrap(preview(client, fixture.uri("garden/beds.md"), ["fullPage": true])?.value?["html"]?.stringValue)
        XCTAssertFalse(without.contains("<base"))
    }

    /// A note outside every notebook: its own folder is the root (spaces and non-ASCII encoded).
    func testAStandaloneNoteUsesItsOwnFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-\(UUID().uuidString)/My Notes/Bé")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("img"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        try "![a](<img/a b.png>) ![[img/a b.png]] ![m](missing.png) ![up](../up.png)\n".write(to: folder.appendingPathComponent("note.md"), atomically: true, encoding: .utf8)
        try "png".write(to: folder.appendingPathComponent("img/a b.png"), atomically: true, encoding: .utf8)
        try "png".write(to: folder.deletingLastPathComponent().appendingPathComponent("up.png"), atomically: true, encoding: .utf8)
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let result = try XCTUnwrap(preview(client, FileURI.uri(ofPath: folder.appendingPathComponent("note.md").path), ["resources": "absolute"])?.value)
        let folderURI = FileURI.uri(ofPath: folder.path)
        XCTAssertTrue(folderURI.hasSuffix("/My%20Notes/B%C3%A9"), folderURI)
        XCTAssertEqual(urls(result["html"]?.stringValue ?? ""), [
            folderURI + "/img/a%20b.png", folderURI + "/img/a%20b.png", folderURI + "/missing.png", folderURI + "/../up.png",
        ])
        // Inside its folder and on disk only: not missing.png, not ../up.png.
        XCTAssertEqual(result["resources"], [.string(folderURI + "/img/a%20b.png")])
    }

    func testBadValuesNameTheField() {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let cases: [(JSONValue, String)] = [
            (["resources": "inline"], "params.options.resources: expected relative or absolute"),
            (["resources": 3], "params.options.resources"),
            (["baseUri": "notes/"], "params.options.baseUri: expected an absolute URI"),
            (["baseUri": "C:/notes"], "params.options.baseUri"),
            (["baseUri": true], "params.options.baseUri"),
            (["baseUri": "https://x/", "resources": "absolute"], "params.options: resources and baseUri exclude each other"),
            (["baseHref": true], "params.options.baseHref: a <base> is written in a full page only"),
            (["baseHref": "yes", "fullPage": true], "params.options.baseHref"),
            (["scriptNonce": "abc"], "params.options.scriptNonce: a script is allowed in a full page only"),
            (["scriptNonce": "a'; script-src *", "fullPage": true], "params.options.scriptNonce: expected 1 to 128 letters"),
            (["scriptNonce": "", "fullPage": true], "params.options.scriptNonce: expected 1 to 128 letters"),
            (["scriptNonce": 7, "fullPage": true], "params.options.scriptNonce"),
        ]
        for (options, message) in cases {
            let answer = preview(client, fixture.uri("index.md"), options)
            XCTAssertEqual(answer?.errorCode, -32602, "\(options)")
            XCTAssertTrue(answer?.errorMessage?.hasPrefix(message) ?? false, "\(answer?.errorMessage ?? "no error") should start with \(message)")
        }
    }

    /// A full page allows no script but the one whose nonce the client gives (an editor's
    /// webview script); the policy is the first thing the page's head holds after its charset.
    func testTheFullPageAllowsNoScriptButTheClients() throws {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let policy = #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src * data: blob: file:; "#
            + #"media-src * data: blob: file:; font-src * data: file:; style-src 'unsafe-inline'; form-action 'none'"#
        let page = try XCTUnwrap(preview(client, fixture.uri("index.md"), ["fullPage": true])?.value?["html"]?.stringValue)
        XCTAssertTrue(page.contains(policy + #"">"#), page)
        let withScript = try XCTUnwrap(preview(client, fixture.uri("index.md"), ["fullPage": true, "scriptNonce": "Ab0+/=_-"])?.value?["html"]?.stringValue)
        XCTAssertTrue(withScript.contains(policy + #"; script-src 'nonce-Ab0+/=_-'">"#), withScript)
        // A fragment has no head, so no policy.
        let fragment = try XCTUnwrap(preview(client, fixture.uri("index.md"), [:])?.value?["html"]?.stringValue)
        XCTAssertFalse(fragment.contains("Content-Security-Policy"), fragment)
    }
}
