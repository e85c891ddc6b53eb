import Foundation
import JSON
import LSPTypes
import TestSupport
import XCTest
@testable import MacMDServer

/// Right-to-left notes (Arabic and Hebrew, with the bidi marks RLM U+200F, LRM U+200E and ALM
/// U+061C) keep every byte an edit or a rename was not meant to change.
final class BidiRoundTripTests: XCTestCase {
    static let note = "ملاحظات/مرحبا.md"
    static let index = "فهرس.md"
    static let notebook = Fixture(files: [
        note: "# مرحبا بالعالم\u{200F}\n\nنص عربي \u{200F}مع علامة\u{200E} و\u{061C}حرف.\n\n## القسم الأول\n\nשלום עולם\u{200F}.\n",
        index: "# فهرس\n\nانظر \u{200F}[[مرحبا#القسم الأول]]\u{200F} و[الرابط](ملاحظات/مرحبا.md#القسم-الأول)\u{061C} و[[مرحبا]].\n",
    ])

    /// The URI an editor sends for `path` in `fixture` (percent-encoded).
    func uri(_ fixture: NotebookFixture, _ path: String) -> String { FileURI.uri(ofPath: fixture.root + "/" + path) }

    func start(_ encoding: ColumnEncoding, documentChanges: Bool = false) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(BidiRoundTripTests.notebook)
        var capabilities: [String: JSONValue] = ["general": ["positionEncodings": [.string(encoding.rawValue)]]]
        if documentChanges { capabilities["workspace"] = ["workspaceEdit": ["documentChanges": true]] }
        let client = LSPTestClient.started(on: fixture, capabilities: .object(capabilities))
        for path in [BidiRoundTripTests.note, BidiRoundTripTests.index] {
            client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri(fixture, path)), "languageId": "markdown",
                                                                    "version": 1, "text": .string(fixture.fixture.text(path))]])
        }
        _ = client.diagnostics(for: uri(fixture, BidiRoundTripTests.index))
        return (fixture, client)
    }

    /// The edits of a `WorkspaceEdit` (`changes` or `documentChanges`) by path in the notebook.
    func edits(_ edit: JSONValue?, _ fixture: NotebookFixture) -> [String: [JSONValue]] {
        var result: [String: [JSONValue]] = [:]
        func add(_ uri: String, _ edits: [JSONValue]) {
            guard let path = FileURI.path(of: uri) else { return }
            result[String(path.dropFirst(fixture.root.count + 1)), default: []] += edits
        }
        for (uri, list) in edit?["changes"]?.objectValue ?? [:] { add(uri, list.arrayValue ?? []) }
        for change in edit?["documentChanges"]?.arrayValue ?? [] {
            if let uri = change["textDocument"]?["uri"]?.stringValue { add(uri, change["edits"]?.arrayValue ?? []) }
        }
        return result
    }

    func params(_ fixture: NotebookFixture, _ marked: String, in path: String, _ encoding: ColumnEncoding) -> JSONValue {
        let location = fixture.fixture.cursor(at: marked, in: path)
        return ["textDocument": ["uri": .string(uri(fixture, path))], "position": fixture.fixture.lspPosition(location, encoding)]
    }

    func testRenamingAnArabicHeadingKeepsEveryOtherByte() {
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            let request = params(fixture, "## القسم$0 الأول", in: BidiRoundTripTests.note, encoding).adding(["newName": "الفصل الثاني"])
            let byPath = edits(client.request("textDocument/rename", request)?.value, fixture)
            XCTAssertEqual(applying(edits: byPath[BidiRoundTripTests.note] ?? [], to: fixture.fixture.text(BidiRoundTripTests.note), encoding),
                           "# مرحبا بالعالم\u{200F}\n\nنص عربي \u{200F}مع علامة\u{200E} و\u{061C}حرف.\n\n## الفصل الثاني\n\nשלום עולם\u{200F}.\n",
                           encoding.rawValue)
            XCTAssertEqual(applying(edits: byPath[BidiRoundTripTests.index] ?? [], to: fixture.fixture.text(BidiRoundTripTests.index), encoding),
                           "# فهرس\n\nانظر \u{200F}[[مرحبا#الفصل الثاني]]\u{200F} و[الرابط](ملاحظات/مرحبا.md#الفصل-الثاني)\u{061C} و[[مرحبا]].\n",
                           encoding.rawValue)
        }
    }

    func testRenamingANoteLinkedInArabicKeepsEveryOtherByte() {
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client) = start(encoding, documentChanges: true)
            defer { client.close(); fixture.destroy() }
            let request = params(fixture, "و[[مر$0حبا]]", in: BidiRoundTripTests.index, encoding).adding(["newName": "تحية"])
            let result = client.request("textDocument/rename", request)?.value
            let renames = (result?["documentChanges"]?.arrayValue ?? []).filter { $0["kind"] == "rename" }
            XCTAssertEqual(renames.compactMap { $0["newUri"]?.stringValue }, [uri(fixture, "ملاحظات/تحية.md")], encoding.rawValue)
            let byPath = edits(result, fixture)
            XCTAssertEqual(applying(edits: byPath[BidiRoundTripTests.index] ?? [], to: fixture.fixture.text(BidiRoundTripTests.index), encoding),
                           "# فهرس\n\nانظر \u{200F}[[تحية#القسم الأول]]\u{200F} و[الرابط](ملاحظات/تحية.md#القسم-الأول)\u{061C} و[[تحية]].\n",
                           encoding.rawValue)
            XCTAssertEqual(byPath[BidiRoundTripTests.note]?.isEmpty ?? true, true, "the renamed note's own text is untouched")
        }
    }

    /// Edits next to the bidi marks change what they replace and nothing else: the server's
    /// buffer afterwards is exactly the text an editor holds (a rename computed on it applies
    /// to that text cleanly).
    func testEditsBesideBidiMarksKeepThem() {
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            let path = BidiRoundTripTests.note
            var text = fixture.fixture.text(path)
            // (the text as it is with `$0…$0` around the part replaced, the new text)
            let steps: [(marked: String, newText: String)] = [
                ("نص عربي \u{200F}$0$0مع", "جدا "),
                ("و\u{061C}$0حرف$0.", "كلمة"),
                ("علامة$0\u{200E}$0 و", "\u{200E}\u{200F}"),
                ("שלום $0עולם$0\u{200F}.", "חבר"),
                ("# مرحبا بالعالم\u{200F}$0$0\n", " ١٢"),
            ]
            for (index, step) in steps.enumerated() {
                let marked = Fixture(files: [path: text.replacingOccurrences(of: step.marked.replacingOccurrences(of: "$0", with: ""), with: step.marked)])
                client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri(fixture, path)), "version": .int(Int64(index + 2))],
                                                         "contentChanges": [["range": marked.lspRange(marked.range, encoding), "text": .string(step.newText)]]])
                let span = marked.range?.utf8Range ?? 0..<0
                var bytes = Array(marked.text(path).utf8)
                bytes.replaceSubrange(span, with: Array(step.newText.utf8))
                text = String(decoding: bytes, as: UTF8.self)
            }
            XCTAssertEqual(text, "# مرحبا بالعالم\u{200F} ١٢\n\nنص عربي \u{200F}جدا مع علامة\u{200E}\u{200F} و\u{061C}كلمة.\n\n## القسم الأول\n\nשלום חבר\u{200F}.\n")
            let html = client.request("macmd/preview", ["textDocument": ["uri": .string(uri(fixture, path))]])?.value?["html"]?.stringValue ?? ""
            XCTAssertTrue(html.contains(">نص عربي \u{200F}جدا مع علامة\u{200E}\u{200F} و\u{061C}كلمة.</p>"), "\(encoding.rawValue): \(html)")
            XCTAssertTrue(html.contains(">שלום חבר\u{200F}.</p>"), "\(encoding.rawValue): \(html)")
            // Positions are those of the edited text, which the fixture no longer holds.
            let edited = Fixture(files: [path: text.replacingOccurrences(of: "## القسم الأول", with: "## القسم$0 الأول")])
            let live: JSONValue = ["textDocument": ["uri": .string(uri(fixture, path))], "position": edited.lspPosition(edited.cursor, encoding),
                                   "newName": "الفصل"]
            let byPath = edits(client.request("textDocument/rename", live)?.value, fixture)
            XCTAssertEqual(applying(edits: byPath[path] ?? [], to: text, encoding),
                           text.replacingOccurrences(of: "## القسم الأول", with: "## الفصل"), encoding.rawValue)
        }
    }
}
