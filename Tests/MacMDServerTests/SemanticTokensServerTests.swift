import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer

/// `textDocument/semanticTokens/full` and `/range` as an editor reads them: five relative
/// integers a token in the negotiated encoding, one token a line; and
/// `workspace/semanticTokens/refresh` when a note a link names appears or goes.
final class SemanticTokensServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home 🌱

        See [[soil#pH]] and [[gone]]. #garden
        Ünï 𝔸 [[soil]]
        $$
        x
        $$
        //- /soil.md
        # Soil

        ## pH
        """)

    /// The legend's indices: types link 0, heading 1, tag 3, math 5; modifiers resolved 1,
    /// unresolved 2.
    func testFullTokensAreRelativeAndSplitPerLine() throws {
        for (encoding, column) in [("utf-16", 9), ("utf-8", 13), ("utf-32", 8)] {
            let fixture = NotebookFixture(SemanticTokensServerTests.notebook)
            let client = LSPTestClient.started(on: fixture, capabilities: ["general": ["positionEncodings": [.string(encoding)]]])
            defer { client.close(); fixture.destroy() }
            let legend = client.initializeResult?["capabilities"]?["semanticTokensProvider"]?["legend"]
            XCTAssertEqual(legend?["tokenTypes"], ["link", "heading", "blockId", "tag", "property", "math"])
            XCTAssertEqual(legend?["tokenModifiers"], ["resolved", "unresolved", "ambiguous", "embed", "declaration"])
            client.open(fixture, "index.md")
            let document: JSONValue = ["textDocument": ["uri": .string(fixture.uri("index.md"))]]
            let full = try XCTUnwrap(client.request("textDocument/semanticTokens/full", document)?.value)
            XCTAssertEqual(full["data"], .array([
                2, 6, 4, 0, 1, //          [[soil          resolved link
                0, 5, 2, 1, 1, //          #pH             resolved heading
                0, 11, 4, 0, 2, //         [[gone          unresolved link
                0, 8, 7, 3, 0, //          #garden         tag
                1, .int(Int64(column)), 4, 0, 1, // Ünï 𝔸 [[soil    after four or two-byte letters
                1, 0, 2, 5, 0, //          $$              maths over three lines: one token a line
                1, 0, 1, 5, 0, //          x
                1, 0, 2, 5, 0, //          $$
            ]), encoding)
            // The range of the line with [[soil]]: that token alone, relative to the start.
            let range = try XCTUnwrap(client.request("textDocument/semanticTokens/range", document.adding([
                "range": ["start": ["line": 3, "character": 0], "end": ["line": 4, "character": 0]],
            ]))?.value)
            XCTAssertEqual(range["data"], .array([3, .int(Int64(column)), 4, 0, 1]), encoding)
        }
    }

    static let refreshing: JSONValue = [
        "workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true], "semanticTokens": ["refreshSupport": true]],
    ]

    /// A server that can ask for tokens again, on a notebook whose `index.md` (open) links to
    /// `later.md`, which is not there: the link is unresolved.
    func startWithALinkToLater(file: StaticString = #filePath, line: UInt = #line) -> (NotebookFixture, LSPTestClient, JSONValue) {
        let fixture = NotebookFixture(Fixture("""
            //- /index.md
            See [[later]].
            """))
        let client = LSPTestClient.started(on: fixture, capabilities: SemanticTokensServerTests.refreshing)
        client.open(fixture, "index.md")
        let document: JSONValue = ["textDocument": ["uri": .string(fixture.uri("index.md"))]]
        XCTAssertEqual(client.request("textDocument/semanticTokens/full", document)?.value?["data"], [0, 6, 5, 0, 2], file: file, line: line)
        return (fixture, client, document)
    }

    /// A link to a note that does not exist yet: unresolved, then resolved once the note is
    /// written (the watcher reports it) and the server asked the editor to ask again.
    func testALinkResolvesWhenItsNoteIsCreatedOnDisk() throws {
        let (fixture, client, document) = startWithALinkToLater()
        defer { client.close(); fixture.destroy() }
        fixture.write("later.md", "# Later\n")
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri("later.md")), "type": 1]]])
        client.serverRequest("workspace/semanticTokens/refresh")
        XCTAssertEqual(client.request("textDocument/semanticTokens/full", document)?.value?["data"], [0, 6, 5, 0, 1])
    }

    /// The same for a note opened in the editor before it is saved, and closed unsaved again.
    func testALinkFollowsANoteOpenedAndClosedUnsaved() throws {
        let (fixture, client, document) = startWithALinkToLater()
        defer { client.close(); fixture.destroy() }
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(fixture.uri("later.md")), "languageId": "markdown",
                                                                "version": 1, "text": "# Later\n"]])
        client.serverRequest("workspace/semanticTokens/refresh")
        XCTAssertEqual(client.request("textDocument/semanticTokens/full", document)?.value?["data"], [0, 6, 5, 0, 1])
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(fixture.uri("later.md"))]])
        client.serverRequest("workspace/semanticTokens/refresh")
        XCTAssertEqual(client.request("textDocument/semanticTokens/full", document)?.value?["data"], [0, 6, 5, 0, 2])
    }
}
