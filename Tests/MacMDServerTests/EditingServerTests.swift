import Foundation
import JSON
import TestSupport
import TextCore
import XCTest
@testable import MacMDServer

/// The editing features over LSP, as an editor applies them: the buffer after the keystroke's
/// edits (`textDocument/onTypeFormatting`), the pairs `macmd/pairs` answers, and the buffer after
/// `textDocument/formatting` and `rangeFormatting` (tables aligned, nothing else touched).
final class EditingServerTests: XCTestCase {
    func start() -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(["index.md": "# Home\n"])
        let client = LSPTestClient.started(on: fixture)
        client.open(fixture, "index.md")
        return (fixture, client)
    }

    /// Sets `index.md` to `marked` and returns the text without the marker and the marked place.
    func type(_ client: LSPTestClient, _ fixture: NotebookFixture, _ marked: String, version: Int,
              file: StaticString = #filePath, line: UInt = #line) -> Fixture {
        let typed = Fixture(marked, defaultPath: "index.md", file: file, line: line)
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["text": .string(typed.text)]]])
        return typed
    }

    /// The server's edits for `key` typed at the cursor of `typed` in `index.md`.
    func onTypeEdits(_ client: LSPTestClient, _ fixture: NotebookFixture, _ typed: Fixture, _ key: String) -> [JSONValue]? {
        client.request("textDocument/onTypeFormatting", [
            "textDocument": ["uri": .string(fixture.uri("index.md"))], "position": typed.lspPosition(typed.cursor),
            "ch": .string(key), "options": ["tabSize": 4, "insertSpaces": true],
        ])?.value?.arrayValue
    }

    func testKeystrokesContinueListsCloseFencesAndWikiLinks() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        // The text after the keystroke (`$0`: the cursor), the key, the text after the edits.
        let cases: [(String, String, String)] = [
            ("- item\n$0", "\n", "- item\n- "),
            ("1. one\n$0\n2. two\n", "\n", "1. one\n2. \n3. two\n"),
            ("- [x] done\n$0", "\n", "- [x] done\n- [ ] "),
            ("> quoted\n$0", "\n", "> quoted\n> "),
            ("- \n$0", "\n", "\n"),
            ("```\n- item\n$0", "\n", "```\n- item\n"),
            ("```$0", "`", "```\n```"),
            ("See [[$0", "[", "See [[]]"),
            ("| a | b |\n| --- | --- |\n| 1 | 2 |\n$0", "\n", "| a | b |\n| --- | --- |\n| 1 | 2 |\n| "),
            ("| a | b |\n| --- | --- |\n| 1 | 2 |\n| |$0", "|", "| a | b |\n| --- | --- |\n| 1 | 2 |\n|"),
        ]
        var version = 1
        for (marked, key, expected) in cases {
            version += 1
            let typed = type(client, fixture, marked, version: version)
            let edits = try XCTUnwrap(onTypeEdits(client, fixture, typed, key), marked)
            XCTAssertEqual(applying(edits: edits, to: typed.text), expected, marked.debugDescription)
        }
    }

    /// At the very end of a note (no final line break) nothing follows the cursor to carry the
    /// text meant after it: that insertion says `macmd.cursorBefore`; elsewhere no edit does.
    func testTextAfterTheCursorAtTheEndOfANoteIsMarked() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        var version = 1
        for (marked, key, flagged) in [("See [[$0", "[", [false, true]), ("See [[$0\n", "[", [false]), ("```$0", "`", [false, true]),
                                       ("- a\n$0", "\n", [false])] {
            version += 1
            let typed = type(client, fixture, marked, version: version)
            let edits = try XCTUnwrap(onTypeEdits(client, fixture, typed, key), marked)
            let marks = edits.map { $0["macmd.cursorBefore"]?.boolValue ?? false }
            XCTAssertEqual(marks.filter { $0 }.count, flagged.filter { $0 }.count, "\(marked): \(edits)")
            if let index = marks.firstIndex(of: true) {
                XCTAssertEqual(edits[index]["range"]?["start"], typed.lspPosition(typed.cursor), "an insertion at the cursor")
                XCTAssertEqual(edits[index]["range"]?["start"], edits[index]["range"]?["end"])
            }
        }
    }

    func testPairsFollowTheSyntax() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let cases: [(String, String, open: String, pairs: Bool)] = [
            ("Some $0", "text", "[[", true),
            ("Some `co$0de`", "codeSpan", "*", false),
            ("```\nco$0de\n```\n", "fencedCode", "(", false),
            ("snake$0", "text", "_", false),
            ("Cost $0", "text", "$", true),
        ]
        var version = 1
        for (marked, context, open, pairs) in cases {
            version += 1
            let typed = type(client, fixture, marked, version: version)
            let answer = try XCTUnwrap(client.request("macmd/pairs", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                     "position": typed.lspPosition(typed.cursor)])?.value, marked)
            XCTAssertEqual(answer["context"]?.stringValue, context, marked)
            let opens = answer["pairs"]?.arrayValue?.compactMap { $0["open"]?.stringValue } ?? []
            XCTAssertEqual(opens.contains(open), pairs, "\(marked): \(opens)")
            // Only the single `$` says what takes its close back; the others carry no such field.
            for pair in answer["pairs"]?.arrayValue ?? [] {
                XCTAssertEqual(pair["withdrawOn"]?.stringValue, pair["open"]?.stringValue == "$" ? "0123456789 \t" : nil, "\(marked): \(pair)")
            }
        }
    }

    func testFormattingAlignsTablesAndNothingElse() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let text = "# Notes  \n\n| name | 名前 |\n|:-|-:|\n| ab | 一 |\n\nText   with  spaces.\n\n| x |\n|---|\n| long cell |\n"
        _ = type(client, fixture, text, version: 2)
        let edits = try XCTUnwrap(client.request("textDocument/formatting", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                             "options": ["tabSize": 4, "insertSpaces": true]])?.value?.arrayValue)
        XCTAssertEqual(applying(edits: edits, to: text),
                       "# Notes  \n\n| name | 名前 |\n| :--- | ---: |\n| ab   |   一 |\n\nText   with  spaces.\n\n| x         |\n| --------- |\n| long cell |\n")
        // Only the table the range touches.
        let range = Fixture("# Notes  \n\n| name | 名前 |\n|:-|-:|\n| ab | 一 |\n\nText   with  spaces.\n\n$0| x |\n|---|\n| long cell |$0\n", defaultPath: "index.md")
        let ranged = try XCTUnwrap(client.request("textDocument/rangeFormatting", [
            "textDocument": ["uri": .string(fixture.uri("index.md"))], "range": range.lspRange(), "options": ["tabSize": 4, "insertSpaces": true],
        ])?.value?.arrayValue)
        XCTAssertEqual(applying(edits: ranged, to: text),
                       "# Notes  \n\n| name | 名前 |\n|:-|-:|\n| ab | 一 |\n\nText   with  spaces.\n\n| x         |\n| --------- |\n| long cell |\n")
        // Aligned tables and notes without tables get no edits.
        _ = type(client, fixture, "# Notes\n\nNo table here.\n", version: 3)
        XCTAssertEqual(client.request("textDocument/formatting", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                 "options": ["tabSize": 4, "insertSpaces": true]])?.value?.arrayValue?.count, 0)
    }

    /// A keystroke in a large note is answered from its lines: list continuation, pairs and
    /// snippet completion leave the new version unparsed (a note over 256 KB is filed 250 ms
    /// after its last change, so nothing else parses it before these answers), and the line
    /// index the edit made is the index of the new text.
    func testKeystrokesInALargeNoteDoNotParseIt() throws {
        let (fixture, client) = start()
        defer { client.close(); fixture.destroy() }
        let paragraph = String(repeating: "Words *and* [links](x.md) and #tags go on. ", count: 20) + "\n\n"
        let large = String(repeating: paragraph, count: 400) + "- item"
        XCTAssertGreaterThan(large.utf8.count, 300_000)
        _ = type(client, fixture, large + "$0", version: 2)
        let uri = fixture.uri("index.md")
        let lastLine = large.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        // Enter after the item, as an editor sends it: an incremental change, then the key.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 3],
                                                 "contentChanges": [["range": ["start": ["line": .int(Int64(lastLine)), "character": 6],
                                                                               "end": ["line": .int(Int64(lastLine)), "character": 6]],
                                                                     "text": "\n"]]])
        let edits = client.request("textDocument/onTypeFormatting", [
            "textDocument": ["uri": .string(uri)], "position": ["line": .int(Int64(lastLine + 1)), "character": 0],
            "ch": "\n", "options": ["tabSize": 4, "insertSpaces": true]])?.value?.arrayValue ?? []
        XCTAssertEqual(edits.first?["newText"]?.stringValue, "- ", "the list goes on")
        let pairs = client.request("macmd/pairs", ["textDocument": ["uri": .string(uri)], "position": ["line": 2, "character": 10]])
        XCTAssertEqual(pairs?.value?["context"]?.stringValue, "text")
        let completion = client.request("textDocument/completion", ["textDocument": ["uri": .string(uri)],
                                                                    "position": ["line": .int(Int64(lastLine + 1)), "character": 0],
                                                                    "context": ["triggerKind": 1]])
        XCTAssertTrue(completion?.value?["items"]?.arrayValue?.contains { $0["label"] == "table" } ?? false, "snippets offered")
        let document = try XCTUnwrap(client.server.state.withLock { $0.host.documents[uri] })
        XCTAssertEqual(document.version, 3)
        XCTAssertFalse(document.analysis.hasTree, "a keystroke's answers read lines, not the syntax tree")
        XCTAssertEqual(document.analysis.lines.lineStarts, LineIndex(utf8: document.text).lineStarts)
        XCTAssertEqual(document.text, Array((large + "\n").utf8))
    }
}
