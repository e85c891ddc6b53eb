import Foundation
import TestSupport
import XCTest
@testable import MacMDServer

/// Tags in any script over LSP: completed where a tag may start (not inside a word), and renamed
/// in every note, front matter included, with nothing else in the text touched.
final class UnicodeTagServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home

        #日本語 #café #Привет/мир #عربي #한국어
        //- /b.md
        ---
        tags: [日本語, café]
        ---
        # B

        \u{200F}#عربي\u{200F} and #한국어/문법 and 「#日本語」 and #Привет/мир.

        """)

    func start(_ encoding: ColumnEncoding = .utf16) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(UnicodeTagServerTests.notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: ["general": ["positionEncodings": [.string(encoding.rawValue)]]])
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md"))
        return (fixture, client)
    }

    func testTagsOfEveryScriptAreCompleted() {
        // (typed line with `$0`, the item picked, the line after it; nil: no tag is offered).
        let cases: [(typed: String, pick: String, gives: String?)] = [
            ("x #日$0", "日本語", "x #日本語"),
            ("x #caf$0", "café", "x #café"),
            ("x #При$0", "Привет/мир", "x #Привет/мир"),
            ("x #عر$0", "عربي", "x #عربي"),
            ("x #한$0", "한국어/문법", "x #한국어/문법"),
            ("x 「#日$0」", "日本語", "x 「#日本語」"),
            ("x \u{200F}#عر$0\u{200F}", "عربي", "x \u{200F}#عربي\u{200F}"),
            ("😀 #한$0 😀", "한국어/문법", "😀 #한국어/문법 😀"),
            ("😀#한$0😀", "한국어/문법", "😀#한국어/문법😀"),
            ("x #日$0、y", "日本語", "x #日本語、y"),
            ("x #日$0本 y", "日本語", "x #日本語 y"),
            // Inside a word of any script, a `#` starts no tag.
            ("日本#日$0", "日本語", nil),
            ("كلمة#عر$0", "عربي", nil),
            ("слово#При$0", "Привет/мир", nil),
        ]
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            for (index, c) in cases.enumerated() {
                let typed = Fixture("# Home\n\n" + c.typed + "\n", defaultPath: "index.md")
                client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(index + 2))],
                                                         "contentChanges": [["text": .string(typed.text)]]])
                let result = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                        "position": typed.lspPosition(typed.cursor, encoding)])?.value
                let items = result?["items"]?.arrayValue ?? result?.arrayValue ?? []
                let item = items.first { $0["label"]?.stringValue == c.pick }
                if let gives = c.gives {
                    XCTAssertEqual(applying(item, to: typed.text, encoding), "# Home\n\n" + gives + "\n", "\(encoding.rawValue): \(c.typed)")
                } else {
                    XCTAssertNil(item, "\(encoding.rawValue): \(c.typed) is inside a word")
                }
            }
        }
    }

    /// Each rename, from a use of the tag, edits every use in every note (front matter and nested
    /// tags included) and nothing else: each note reads as before with the listed replacements.
    func testTagsOfEveryScriptAreRenamedEverywhere() {
        let cases: [(marked: String, path: String, newName: String, replacements: [(String, String)])] = [
            ("#日$0本語 #café", "index.md", "日本", [("#日本語", "#日本"), ("[日本語,", "[日本,")]),
            ("#caf$0é", "index.md", "кафе", [("café", "кафе")]),
            ("\u{200F}#عر$0بي\u{200F}", "b.md", "العربية", [("#عربي", "#العربية")]),
            ("#한$0국어\n", "index.md", "조선어", [("#한국어", "#조선어")]),
            ("#Привет/м$0ир #ع", "index.md", "Привет/свет", [("#Привет/мир", "#Привет/свет")]),
        ]
        for encoding in [ColumnEncoding.utf16, .utf8] {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            for c in cases {
                let location = fixture.fixture.cursor(at: c.marked, in: c.path)
                let params = fixture.at(location, encoding).adding(["newName": .string(c.newName)])
                let changes = client.request("textDocument/rename", params)?.value?["changes"]?.objectValue ?? [:]
                for path in ["index.md", "b.md"] {
                    let text = fixture.fixture.text(path)
                    let expected = c.replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
                    XCTAssertNotEqual(expected, text, "every case renames a tag in both notes")
                    let edits = changes[fixture.uri(path)]?.arrayValue ?? []
                    XCTAssertEqual(applying(edits: edits, to: text, encoding), expected, "\(encoding.rawValue): \(c.marked) → \(c.newName) in \(path)")
                }
            }
        }
    }
}
