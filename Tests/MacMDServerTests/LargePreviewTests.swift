import MarkdownHTML
import MarkdownSyntax
import TestSupport
import XCTest
@testable import MacMDServer

/// A preview large enough to be rendered in pieces and sent as an escaped frame in parts must
/// carry exactly the HTML one walk renders.
final class LargePreviewTests: XCTestCase {
    func testLargePreviewEqualsOneWalk() throws {
        var text = "---\ntitle: Large\n---\n# Large \"note\"\n\n"
        var section = 0
        while text.utf8.count < 3 * HTMLRenderer.parallelThreshold {
            section += 1
            text += "## Part \(section)\n\nSome *soil* \"notes\" with a [[Wiki]] link, #tag and `code` \\ é🎉.\n\n"
            text += "```swift\nlet x = \"\(section)\"\t// tab\n```\n\n| a | b |\n|---|---|\n| \(section) | <b> |\n\n"
        }
        // A notebook whose scan has ended (links are called broken only then) and has no note `Wiki`.
        let fixture = NotebookFixture(["index.md": "# Home\n"])
        defer { fixture.destroy() }
        let uri = fixture.uri("large.md")
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown",
                                                               "version": 4, "text": .string(text)]])
        let result = try XCTUnwrap(client.request("macmd/preview", ["textDocument": ["uri": .string(uri)]])?.value)
        var options = HTMLOptions(safe: true, sourceLines: true, headingIDs: true, collapseNestedStrong: true)
        options.theme = .light
        options.highlightCode = true
        let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
        options.wikiLinkDestinations = WikiLinkDestinations.resolving(tree) { _ in .broken }
        let expected = String(decoding: HTMLRenderer(options: options).render(tree), as: UTF8.self)
        let html = try XCTUnwrap(result["html"]?.stringValue)
        XCTAssertEqual(html.utf8.count, expected.utf8.count)
        XCTAssertTrue(html == expected, "the pieced preview differs from one walk")
        XCTAssertTrue(html.contains("<a class=\"wikilink broken\">Wiki</a>"), "the notebook's resolution, in every piece")
        XCTAssertEqual(result["title"], "Large")
        XCTAssertEqual(result["version"], 4)
        XCTAssertEqual(result["headings"]?.arrayValue?.count, section + 1)
        let lastHeading = try XCTUnwrap(text.range(of: "## Part \(section)\n"))
        let lineOfLast = text[..<lastHeading.lowerBound].filter { $0 == "\n" }.count
        XCTAssertEqual(result["headings"]?[section]?["line"], .int(Int64(lineOfLast)))
    }
}
