import Foundation
import TestSupport
import XCTest
@testable import MacMDServer

/// The server writes rename errors, code action titles and built-in snippet descriptions in the
/// writer's language (`initializationOptions.locale`).
final class LocalizedRefactoringServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home

        See [[Greenhouse]] and #garden.

        """)

    func testRenameErrorsCodeActionsAndSnippetsSpeakGerman() {
        let fixture = NotebookFixture(Self.notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: [
            "workspace": ["workspaceEdit": ["documentChanges": true]],
        ], initializationOptions: ["locale": "de-DE"])
        defer { client.close(); fixture.destroy() }
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md"))

        let nothing = client.request("textDocument/prepareRename", fixture.at("and$0 #garden", in: "index.md"))
        XCTAssertEqual(nothing?.errorMessage,
                       "hier gibt es nichts umzubenennen: den Cursor auf eine Überschrift, einen Tag, einen Link zu einer Notiz oder eine Referenzbezeichnung setzen")
        let refused = client.request("textDocument/rename", fixture.at("#gar$0den", in: "index.md").adding(["newName": "rich soil"]))
        XCTAssertEqual(refused?.errorMessage, "ein Tag darf keine Leerzeichen enthalten: Tags bestehen aus Buchstaben, Ziffern, `_`, `-` und `/`")

        let link = fixture.at("[[Green$0house]]", in: "index.md")
        let actions = client.request("textDocument/codeAction", ["textDocument": link["textDocument"] ?? .null,
                                                                "range": ["start": link["position"] ?? .null, "end": link["position"] ?? .null],
                                                                "context": ["diagnostics": []]])?.value?.arrayValue ?? []
        XCTAssertEqual(actions.compactMap { $0["title"]?.stringValue }, ["Notiz `Greenhouse.md` anlegen", "Inhaltsverzeichnis einfügen"])

        let typed = Fixture("# Home\n\ntab$0", defaultPath: "index.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": .string(typed.text)]]])
        let items = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                              "position": typed.lspPosition(typed.cursor),
                                                              "context": ["triggerKind": 3]])?.value?["items"]?.arrayValue ?? []
        let table = items.first { $0["label"]?.stringValue == "table" && $0["kind"]?.intValue == 15 }
        XCTAssertEqual(table?["detail"]?.stringValue, "Eine Tabelle mit zwei Spalten: Die Zellen sind Tabstopps")
    }
}
