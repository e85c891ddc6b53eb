import Foundation
import JSON
import TestSupport
import XCTest

/// `macmd stats` as a writer runs it: a table of the notes of a notebook (or of notes named),
/// the total, JSON for tools, and what the options leave out.
final class StatsCommandTests: XCTestCase {
    static let notebook: [String: String] = [
        "soil.md": "# Soil tests\n\nDon't dig before it's dry.\n",
        "journal/day.md": "---\ntitle: Day\n---\n今日は晴れ。Run `make all`.\n",
        "notes.txt": "not a note\n",
    ]

    func testATableOfTheNotebooksNotesAndTheTotal() throws {
        let folder = NotebookFixture(StatsCommandTests.notebook)
        defer { folder.destroy() }
        let result = try TestProcess.macmd(["stats"], in: URL(fileURLWithPath: folder.root))
        XCTAssertEqual(result.status, 0, result.stderr)
        // soil.md: "Soil tests" and "Don't dig before it's dry." (6 words); day.md: five
        // characters a word each, then Run, make, all.
        XCTAssertEqual(result.stdout, """
            note            words  characters  no spaces  paragraphs  reading
            journal/day.md      8          19         17           1    1 min
            soil.md             7          36         31           2    1 min
            total, 2 notes     15          55         48           3    1 min

            """)
    }

    func testJSONAndTheOptions() throws {
        let folder = NotebookFixture(StatsCommandTests.notebook)
        defer { folder.destroy() }
        let note = folder.root + "/journal/day.md"
        let result = try TestProcess.macmd(["stats", note, "--format", "json", "--no-code", "--front-matter"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSON.parse(Array(result.stdout.utf8))
        XCTAssertEqual(json["notes"]?[0]?["path"]?.stringValue, note)
        // title, Day, and the five characters; `make all` left out.
        XCTAssertEqual(json["total"]?["words"], 8)
        XCTAssertEqual(json["total"]?["paragraphs"], 1)
        XCTAssertNotNil(json["total"]?["readingSeconds"]?.intValue)
    }

    func testAPathThatCannotBeReadOrAnUnknownOption() throws {
        let missing = try TestProcess.macmd(["stats", "/nonexistent/note.md"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "macmd stats: cannot read /nonexistent/note.md: No such file or directory\n")
        let option = try TestProcess.macmd(["stats", "--words-only"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.hasPrefix("macmd stats: "), option.stderr)
        let help = try TestProcess.macmd(["stats", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--no-code"), help.stdout)
    }
}
