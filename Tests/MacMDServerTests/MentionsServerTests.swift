import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// Unlinked mentions over LSP: `macmd/unlinkedMentions`, and the code actions that link them,
/// made when the editor resolves them and refused when a note they edit changed meanwhile.
final class MentionsServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /garden/soil.md
        ---
        title: Soil Tests
        ---
        # Soil Tests

        What the soil tests say.
        //- /beds.md
        # Beds

        Raised beds need soil tests.
        //- /index.md
        # Home

        See [[soil]]. Soil tests, and `soil tests` in code.
        """)

    /// A client that resolves code actions' edits and takes versioned document changes.
    static let resolving: JSONValue = [
        "textDocument": ["codeAction": ["resolveSupport": ["properties": ["edit"]]]],
        "workspace": ["workspaceEdit": ["documentChanges": true]],
    ]

    func start(_ capabilities: JSONValue = [:], options: JSONValue? = nil) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(MentionsServerTests.notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: capabilities, initializationOptions: options)
        return (fixture, client)
    }

    /// The code actions at the place `marked` marks with `$0` in the note at `path`.
    func actions(_ client: LSPTestClient, _ fixture: NotebookFixture, at marked: String, in path: String) -> [JSONValue] {
        let at = fixture.at(marked, in: path)
        return client.request("textDocument/codeAction", [
            "textDocument": at["textDocument"] ?? .null, "range": ["start": at["position"] ?? .null, "end": at["position"] ?? .null],
            "context": ["diagnostics": []]])?.value?.arrayValue ?? []
    }

    func testTheMentionsOfANoteByPathThenPositionWithTheirLines() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let found = try XCTUnwrap(client.request("macmd/unlinkedMentions", ["textDocument": ["uri": .string(fixture.uri("garden/soil.md"))]])?
            .value?.arrayValue)
        XCTAssertEqual(found.map { $0["uri"]?.stringValue }, [fixture.uri("beds.md"), fixture.uri("index.md")])
        XCTAssertEqual(found.map { $0["range"] }, [fixture.range("need $0soil tests$0.", in: "beds.md"),
                                                   fixture.range("[[soil]]. $0Soil tests$0, and", in: "index.md")])
        XCTAssertEqual(found.map { $0["text"]?.stringValue }, ["Raised beds need soil tests.", "See [[soil]]. Soil tests, and `soil tests` in code."])
    }

    /// A client that resolves actions gets them without their edit; the edit comes with
    /// `codeAction/resolve`, as versioned document changes, and is refused (ContentModified)
    /// once the note changed.
    func testALinkActionIsResolvedAndRefusedOnceTheNoteChanged() throws {
        let (fixture, client) = start(MentionsServerTests.resolving)
        defer { client.close(); fixture.destroy() }
        client.open(fixture, "beds.md")
        let actions = actions(client, fixture, at: "need soil te$0sts", in: "beds.md")
        let link = try XCTUnwrap(actions.first { $0["title"]?.stringValue == "Link to [[soil tests]]" }, "\(actions)")
        XCTAssertNil(link["edit"])
        let resolved = try XCTUnwrap(client.request("codeAction/resolve", link)?.value)
        let change = try XCTUnwrap(resolved["edit"]?["documentChanges"]?[0])
        XCTAssertEqual(change["textDocument"], ["uri": .string(fixture.uri("beds.md")), "version": 1])
        XCTAssertEqual(change["edits"]?[0]?["newText"], "[[soil tests]]")
        XCTAssertEqual(change["edits"]?[0]?["range"], fixture.range("need $0soil tests$0.", in: "beds.md"))
        XCTAssertEqual(resolved["title"], link["title"])

        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("beds.md")), "version": 2],
                                                 "contentChanges": [["text": "# Beds\n\nRaised beds need soil tests!\n"]]])
        XCTAssertEqual(client.request("codeAction/resolve", link)?.errorCode, -32801)
    }

    /// A client that does not resolve actions gets "Link all" with its edit at once; an action
    /// MacMD did not make comes back from `codeAction/resolve` as it was.
    func testLinkAllComesWithItsEditWithoutResolveSupport() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        client.open(fixture, "garden/soil.md")
        let actions = actions(client, fixture, at: "# Soil Te$0sts", in: "garden/soil.md")
        let all = try XCTUnwrap(actions.first { $0["title"]?.stringValue == "Link all 2 mentions" }, "\(actions)")
        XCTAssertEqual(all["edit"]?["changes"]?[fixture.uri("beds.md")]?[0]?["newText"], "[[soil tests]]")
        XCTAssertEqual(all["edit"]?["changes"]?[fixture.uri("index.md")]?[0]?["newText"], "[[Soil tests]]")
        XCTAssertEqual(client.request("codeAction/resolve", ["title": "Someone else's"])?.value, ["title": "Someone else's"])
    }

    /// The title's code lens counts the mentions after the backlinks, and lists their places
    /// after the links'; switched off, the lens counts links alone.
    func testTheTitleLensCountsMentions() throws {
        for (options, title, places) in [(nil, "1 backlink · 2 unlinked mentions", 3),
                                         (["features": ["unlinkedMentions": false]] as JSONValue, "1 backlink", 1)] {
            let (fixture, client) = start(options: options)
            defer { client.close(); fixture.destroy() }
            let uri = fixture.uri("garden/soil.md")
            let lens = try XCTUnwrap(client.request("textDocument/codeLens", ["textDocument": ["uri": .string(uri)]])?.value?[0])
            let command = try XCTUnwrap(client.request("codeLens/resolve", lens)?.value?["command"])
            XCTAssertEqual(command["title"]?.stringValue, title)
            let listed = try XCTUnwrap(command["arguments"]?[2]?.arrayValue)
            XCTAssertEqual(listed.count, places)
            if places == 3 {
                XCTAssertEqual(listed.map { $0["range"] }, [fixture.range("$0[[soil]]$0.", in: "index.md"),
                                                            fixture.range("need $0soil tests$0.", in: "beds.md"),
                                                            fixture.range("[[soil]]. $0Soil tests$0, and", in: "index.md")])
            }
        }
    }

    /// `features.unlinkedMentions: false`: the request is refused and no action links mentions.
    func testTheSwitchTurnsMentionsOff() throws {
        let (fixture, client) = start(options: ["features": ["unlinkedMentions": false]])
        defer { client.close(); fixture.destroy() }
        XCTAssertEqual(client.request("macmd/unlinkedMentions", ["textDocument": ["uri": .string(fixture.uri("garden/soil.md"))]])?.errorCode,
                       -32601)
        client.open(fixture, "beds.md")
        let actions = actions(client, fixture, at: "need soil te$0sts", in: "beds.md")
        XCTAssertFalse(actions.contains { $0["title"]?.stringValue?.hasPrefix("Link") == true }, "\(actions)")
    }
}
