import Foundation
import JSONRPC
import XCTest
@testable import MacMDServer

/// Links as an editor shows them: document links, and the problems of links to files and of
/// ambiguous wiki-links.
final class NotebookLinksServerTests: XCTestCase {
    func range(_ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        ["start": ["line": .int(Int64(line)), "character": .int(Int64(start))], "end": ["line": .int(Int64(line)), "character": .int(Int64(end))]]
    }

    func testDocumentLinksCoverTheTargetsThatExist() {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let links = client.request("textDocument/documentLink", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])?.value?.arrayValue ?? []
        let shown = links.map { link -> String in
            let target = String((link["target"]?.stringValue ?? "").dropFirst(fixture.uri("").count))
            let start = link["range"]?["start"], end = link["range"]?["end"]
            return "\(start?["line"]?.intValue ?? -1):\(start?["character"]?.intValue ?? -1)-\(end?["character"]?.intValue ?? -1) \(target)"
        }
        // The range is the destination as written (the whole link for a reference link); broken
        // and ambiguous links and links to missing files have none.
        XCTAssertEqual(shown, [
            "2:7-21 garden/soil.md",   // [soil](garden/soil.md#texture)
            "2:33-37 garden/soil.md",  // [[soil]]
            "2:43-51 img/plot.png",    // ![[plot.png]], found by its name
            "2:66-74 garden/beds.md",  // [ref][r]
            "3:47-61 docs/guide.pdf",  // [guide](docs/guide.pdf)
        ])
    }

    func testAmbiguousWikiLinksNameEveryCandidateAndMissingFilesAreBrokenFiles() {
        let (fixture, client) = LinkedNotebook.start()
        defer { client.close(); fixture.destroy() }
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0.count == 4 } ?? []
        XCTAssertEqual(items.compactMap { $0["code"]?.stringValue }, ["broken-wikilink", "ambiguous-wikilink", "broken-file", "broken-image"])
        let ambiguous = items[1]
        XCTAssertEqual(ambiguous["severity"], 2)
        XCTAssertEqual(ambiguous["range"], range(2, 77, 80))
        XCTAssertEqual(ambiguous["relatedInformation"], [
            ["location": ["uri": .string(fixture.uri("a/dup.md")), "range": range(0, 0, 0)], "message": "candidate: a/dup.md"],
            ["location": ["uri": .string(fixture.uri("b/dup.md")), "range": range(0, 0, 0)], "message": "candidate: b/dup.md"],
        ])
        XCTAssertEqual(items[2]["message"], "No file `report.pdf` for `report.pdf`")
        XCTAssertEqual(items[2]["severity"], 1)
        XCTAssertEqual(items[2]["range"], range(3, 9, 19))
        XCTAssertEqual(items[3]["message"], "No image `gone.png` for `gone.png`")
    }
}
