import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer

/// Links as an editor shows them: document links, and the problems of links to files and of
/// ambiguous wiki-links.
final class NotebookLinksServerTests: XCTestCase {
    func testDocumentLinksCoverTheTargetsThatExist() {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let links = client.request("textDocument/documentLink", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])?.value?.arrayValue ?? []
        func show(_ range: JSONValue?, _ target: String) -> String {
            let start = range?["start"], end = range?["end"]
            return "\(start?["line"]?.intValue ?? -1):\(start?["character"]?.intValue ?? -1)-\(end?["character"]?.intValue ?? -1) \(target)"
        }
        let shown = links.map { link in
            show(link["range"], String((link["target"]?.stringValue ?? "").dropFirst(fixture.uri("").count)))
        }
        // The range is the destination as written (the whole link for a reference link); broken
        // and ambiguous links and links to missing files have none.
        XCTAssertEqual(shown, [
            show(fixture.range("[soil]($0garden/soil.md$0#texture)", in: "index.md"), "garden/soil.md"),
            show(fixture.range("[[$0soil$0]]", in: "index.md"), "garden/soil.md"),
            show(fixture.range("![[$0plot.png$0]]", in: "index.md"), "img/plot.png"),   // found by its name
            show(fixture.range("$0[ref][r]$0", in: "index.md"), "garden/beds.md"),
            show(fixture.range("[guide]($0docs/guide.pdf$0)", in: "index.md"), "docs/guide.pdf"),
        ])
    }

    func testAmbiguousWikiLinksNameEveryCandidateAndMissingFilesAreBrokenFiles() throws {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let items = try XCTUnwrap(client.diagnostics(for: fixture.uri("index.md")) { $0.count == 4 })
        XCTAssertEqual(items.compactMap { $0["code"]?.stringValue }, ["broken-wikilink", "ambiguous-wikilink", "broken-file", "broken-image"])
        guard items.count == 4 else { return }
        let ambiguous = items[1]
        XCTAssertEqual(ambiguous["severity"], 2)
        XCTAssertEqual(ambiguous["range"], fixture.range("[[$0dup$0]]", in: "index.md"))
        XCTAssertEqual(ambiguous["relatedInformation"], [
            ["location": ["uri": .string(fixture.uri("a/dup.md")), "range": fixture.range("$0$0# Dup in a", in: "a/dup.md")],
             "message": "candidate: a/dup.md"],
            ["location": ["uri": .string(fixture.uri("b/dup.md")), "range": fixture.range("$0$0# Dup in b", in: "b/dup.md")],
             "message": "candidate: b/dup.md"],
        ])
        XCTAssertEqual(items[2]["message"], "No file `report.pdf` for `report.pdf`")
        XCTAssertEqual(items[2]["severity"], 1)
        XCTAssertEqual(items[2]["range"], fixture.range("[report]($0report.pdf$0)", in: "index.md"))
        XCTAssertEqual(items[3]["message"], "No image `gone.png` for `gone.png`")
    }
}
