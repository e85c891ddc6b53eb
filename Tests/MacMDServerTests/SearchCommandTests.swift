import Foundation
import JSON
import TestSupport
import XCTest

/// `macmd search` as a writer runs it: the notes found, best first, one a line as
/// `path:line:column: excerpt`, JSON for tools, the limit, and the errors.
final class SearchCommandTests: XCTestCase {
    static let notebook: [String: String] = [
        "garden/soil.md": "# Soil tests\n\nThe café soil is fine: see the soil tests.\n",
        "journal/day.md": "---\ntags: [garden]\n---\n今日は日本語で soil を書いた。\n",
        "code.md": "Nothing but `soil = 1` here, and a few more words of prose.\n",
        "notes.txt": "soil, but not a note\n",
    ]

    func testTheNotesFoundBestFirst() throws {
        let folder = NotebookFixture(SearchCommandTests.notebook)
        defer { folder.destroy() }
        let result = try TestProcess.macmd(["search", "soil"], in: URL(fileURLWithPath: folder.root))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            garden/soil.md:1:3: # Soil tests  The café soil is fine: see the soil tests.
            journal/day.md:4:23: 今日は日本語で soil を書いた。
            code.md:1:14: Nothing but `soil = 1` here, and a few more words of prose.

            """)
        let filtered = try TestProcess.macmd(["search", "CAFE \"soil is\"", folder.root, "--limit", "1"])
        XCTAssertEqual(filtered.stdout, folder.root + "/garden/soil.md:3:11: The café soil is fine: see the soil tests.\n")
        let japanese = try TestProcess.macmd(["search", "本語 tag:garden"], in: URL(fileURLWithPath: folder.root))
        XCTAssertEqual(japanese.stdout, "journal/day.md:4:13: 今日は日本語で soil を書いた。\n")
    }

    func testJSON() throws {
        let folder = NotebookFixture(SearchCommandTests.notebook)
        defer { folder.destroy() }
        let result = try TestProcess.macmd(["search", "café", "--format", "json"], in: URL(fileURLWithPath: folder.root))
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSON.parse(Array(result.stdout.utf8))
        XCTAssertEqual(json[0]?["path"], "garden/soil.md")
        XCTAssertEqual(json[0]?["title"], "Soil tests")
        XCTAssertEqual(json[0]?["line"], 3)
        XCTAssertEqual(json[0]?["column"], 5)
        XCTAssertEqual(json[0]?["matches"], [["start": 4, "end": 8]])
        XCTAssertNotNil(json[0]?["score"]?.doubleValue)
    }

    func testNoHitsAndUsageErrors() throws {
        let folder = NotebookFixture(SearchCommandTests.notebook)
        defer { folder.destroy() }
        let none = try TestProcess.macmd(["search", "compost"], in: URL(fileURLWithPath: folder.root))
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "macmd search: no note matches 'compost'\n")
        let noQuery = try TestProcess.macmd(["search"])
        XCTAssertEqual(noQuery.status, 2)
        XCTAssertTrue(noQuery.stderr.hasPrefix("macmd search: search needs a QUERY"), noQuery.stderr)
        let limit = try TestProcess.macmd(["search", "soil", "--limit", "zero"])
        XCTAssertEqual(limit.status, 2)
        XCTAssertTrue(limit.stderr.hasPrefix("macmd search: --limit needs a whole number above 0, not 'zero'"), limit.stderr)
        let help = try TestProcess.macmd(["search", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("tag:NAME"), help.stdout)
    }
}
