import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer

/// Positions right after characters that take more than one UTF-16 unit or UTF-8 byte (emoji,
/// mathematical letters, a flag of two scalars, a ZWJ family), in each position encoding the
/// client may choose: completion, definition, hover and diagnostics land where the editor
/// expects, and incremental edits next to them (or, in UTF-16, inside a surrogate pair, which is
/// clamped to the pair's start) never split a character. The notebook is the navigation tests'
/// (`garden/soil.md` titled "Soil notes", its `## pH` on line 5, `#garden` in it).
final class UnicodePositionTests: XCTestCase {
    /// What stands before the cursor, and why it matters.
    static let prefixes: [(text: String, why: String)] = [
        ("😀", "one scalar, a surrogate pair, four UTF-8 bytes"),
        ("𝒳", "a mathematical letter outside the BMP"),
        ("🇩🇪", "a flag: two regional indicators, two pairs"),
        ("👨\u{200D}👩\u{200D}👧", "a ZWJ family: three pairs and two joiners"),
        ("é日本", "two- and three-byte scalars in the BMP"),
    ]

    static let encodings: [ColumnEncoding] = [.utf16, .utf8]

    func start(_ encoding: ColumnEncoding) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(NavigationServerTests.notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: ["general": ["positionEncodings": [.string(encoding.rawValue)]]])
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md"))
        XCTAssertEqual(client.initializeResult?["capabilities"]?["positionEncoding"]?.stringValue, encoding.rawValue)
        return (fixture, client)
    }

    /// Replaces the whole of `index.md` with `text`.
    func replace(_ client: LSPTestClient, _ fixture: NotebookFixture, _ text: String, version: Int) {
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["text": .string(text)]]])
    }

    /// `textDocument` and `position` for the `$0` of `marked` (the text of `index.md`).
    func at(_ fixture: NotebookFixture, _ marked: Fixture, _ encoding: ColumnEncoding) -> JSONValue {
        ["textDocument": ["uri": .string(fixture.uri("index.md"))], "position": marked.lspPosition(marked.cursor, encoding)]
    }

    func testCompletionDefinitionAndHoverAfterWideCharacters() {
        for encoding in UnicodePositionTests.encodings {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            var version = 2
            for prefix in UnicodePositionTests.prefixes {
                let context = "\(encoding.rawValue), after \(prefix.text) (\(prefix.why))"
                // Completion of a wiki-link typed right after the character.
                let typed = Fixture("# Home\n\nA\(prefix.text)[[so$0\n", defaultPath: "index.md")
                replace(client, fixture, typed.text, version: version)
                version += 1
                let items = client.request("textDocument/completion", at(fixture, typed, encoding))?.value?["items"]?.arrayValue ?? []
                let soil = items.first { $0["label"]?.stringValue == "Soil notes" }
                XCTAssertEqual(applying(soil, to: typed.text, encoding), "# Home\n\nA\(prefix.text)[[soil]]\n", context)

                // Definition and hover of a link and a tag that follow it.
                let linked = "# Home\n\nA\(prefix.text)[[soil#pH]] \(prefix.text) #garden\n"
                replace(client, fixture, linked, version: version)
                version += 1
                let link = Fixture("# Home\n\nA\(prefix.text)[[so$0il#pH]] \(prefix.text) #garden\n", defaultPath: "index.md")
                let definition = client.request("textDocument/definition", at(fixture, link, encoding))?.value
                XCTAssertEqual(definition?[0]?["uri"]?.stringValue, fixture.uri("garden/soil.md"), context)
                XCTAssertEqual(definition?[0]?["range"]?["start"]?["line"], 5, context)
                let hover = client.request("textDocument/hover", at(fixture, link, encoding))?.value
                XCTAssertEqual(hover?["contents"]?["value"]?.stringValue?.hasPrefix("**Soil notes** › pH"), true, context)
                let tag = Fixture("# Home\n\nA\(prefix.text)[[soil#pH]] \(prefix.text) #$0garden\n", defaultPath: "index.md")
                let tagHover = client.request("textDocument/hover", at(fixture, tag, encoding))?.value
                XCTAssertEqual(tagHover?["contents"]?["value"]?.stringValue, "`#garden` — used 2 times in 2 notes", context)
            }
        }
    }

    func testDiagnosticRangesAfterWideCharacters() {
        for encoding in UnicodePositionTests.encodings {
            let (fixture, client) = start(encoding)
            defer { client.close(); fixture.destroy() }
            for (index, prefix) in UnicodePositionTests.prefixes.enumerated() {
                let marked = Fixture("# Home\n\n\(prefix.text)[[$0Nowhere \(index)$0]] \(prefix.text)\n", defaultPath: "index.md")
                replace(client, fixture, marked.text, version: index + 2)
                // The diagnostics of this version: the one whose message names this link's target.
                let published = client.notification("textDocument/publishDiagnostics") { params in
                    params?["uri"]?.stringValue == fixture.uri("index.md")
                        && params?["diagnostics"]?[0]?["message"]?.stringValue?.contains("Nowhere \(index)") == true
                }
                let diagnostics = published?["diagnostics"]?.arrayValue ?? []
                XCTAssertEqual(diagnostics.compactMap { $0["code"]?.stringValue }, ["broken-wikilink"])
                XCTAssertEqual(diagnostics.first?["range"], marked.lspRange(encoding),
                               "\(encoding.rawValue), after \(prefix.text) (\(prefix.why))")
            }
        }
    }

    /// Incremental edits right after each character, then a deletion of what they inserted; in
    /// UTF-16, edits that start or end between the two units of a surrogate pair apply at the
    /// pair's start, so no character is ever split.
    func testIncrementalEditsNextToWideCharactersKeepThemWhole() {
        for encoding in UnicodePositionTests.encodings {
            for prefix in UnicodePositionTests.prefixes {
                let client = LSPTestClient()
                defer { client.close() }
                client.initialize(capabilities: ["general": ["positionEncodings": [.string(encoding.rawValue)]]])
                let uri = "file:///notes/wide.md"
                client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown", "version": 1,
                                                                        "text": .string("A\(prefix.text)B\n")]])
                var version = 1
                func edit(_ marked: String, _ newText: String) {
                    version += 1
                    client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                                                             "contentChanges": [["range": Fixture(marked).lspRange(encoding), "text": .string(newText)]]])
                }
                func paragraph() -> String? {
                    let html = client.request("macmd/preview", ["textDocument": ["uri": .string(uri)]])?.value?["html"]?.stringValue
                    return html.flatMap { $0.components(separatedBy: "<p").dropFirst().first }.map { String($0.drop { $0 != ">" }.dropFirst()) }
                }
                let context = "\(encoding.rawValue), \(prefix.text) (\(prefix.why))"
                edit("A\(prefix.text)$0$0B\n", "xyz")
                XCTAssertEqual(paragraph(), "A\(prefix.text)xyzB</p>\n", context)
                edit("A\(prefix.text)x$0y$0zB\n", "")
                XCTAssertEqual(paragraph(), "A\(prefix.text)xzB</p>\n", context)
                edit("A\(prefix.text)$0xz$0B\n", "")
                XCTAssertEqual(paragraph(), "A\(prefix.text)B</p>\n", context)
                edit("A$0\(prefix.text)$0B\n", "\(prefix.text)\(prefix.text)")
                XCTAssertEqual(paragraph(), "A\(prefix.text)\(prefix.text)B</p>\n", context)
                guard encoding == .utf16, let first = prefix.text.unicodeScalars.first, first.value > 0xFFFF else { continue }
                // One unit into the first pair: an insertion there goes before the character, and
                // a deletion that ends there stops before it.
                // "A" is one unit: 2 is inside the first pair of `A…`, then 3 inside that of `A!…`.
                let inside: JSONValue = ["line": 0, "character": 2]
                let insideAfterBang: JSONValue = ["line": 0, "character": 3]
                version += 1
                client.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                                                         "contentChanges": [["range": ["start": inside, "end": inside], "text": "!"],
                                                                            ["range": ["start": ["line": 0, "character": 0], "end": insideAfterBang], "text": ""]]])
                XCTAssertEqual(paragraph(), "\(prefix.text)\(prefix.text)B</p>\n", context + ": `!` went before the pair, then `A!` was deleted")
            }
        }
    }
}
