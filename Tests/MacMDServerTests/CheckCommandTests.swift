import Foundation
import JSONRPC
import TestSupport
import XCTest

/// `macmd check` as a user runs it on a folder: one line per problem, an exit status for CI.
final class CheckCommandTests: XCTestCase {
    func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> TestProcess.Result {
        try TestProcess.macmd(arguments, file: file, line: line)
    }

    func testReportsProblemsAsPathLineColumnAndFailsOnErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "# Home\n\nSee [[Other]] and [[Nowhere]].\n".write(to: folder.appendingPathComponent("index.md"), atomically: true, encoding: .utf8)
        try "# Other\n".write(to: folder.appendingPathComponent("sub/other.md"), atomically: true, encoding: .utf8)

        let text = try run(["check", folder.path])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stdout, "index.md:3:21: error: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")

        let json = try run(["check", folder.path, "--format", "json"])
        XCTAssertEqual(json.status, 1)
        let value = try JSON.parse(Array(json.stdout.utf8))
        XCTAssertEqual(value[0]?["code"], "broken-wikilink")
        XCTAssertEqual(value[0]?["line"], 3)

        try "# Home\n\nSee [[Other]].\n".write(to: folder.appendingPathComponent("index.md"), atomically: true, encoding: .utf8)
        let clean = try run(["check", folder.path])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stdout, "")

        XCTAssertEqual(try run(["check", folder.appendingPathComponent("missing").path]).status, 2)
        XCTAssertEqual(try run(["check", "--format", "xml"]).status, 2)
    }
}

/// The sample notebook's deliberate problems, as `macmd check` reports them (golden files in
/// Fixtures/check, compared with the real output; only MACMD_BLESS=1 rewrites them).
final class CheckSampleNotebookTests: XCTestCase {
    func testSampleNotebookReportsItsDeliberateProblems() throws {
        let notebook = TestPaths.fixture("notebook").path
        for (format, golden) in [("text", "check/notebook.txt"), ("json", "check/notebook.json")] {
            let result = try TestProcess.macmd(["check", notebook, "--format", format])
            XCTAssertEqual(result.status, 1, "the sample notebook has deliberate errors")
            XCTAssertEqual(result.stderr, "", format)
            Golden.assertMatches(result.stdout, golden)
        }
    }

    func testSeveritiesFromTheNotebooksConfiguration() throws {
        let fixture = NotebookFixture(["a.md": "[[Nowhere]] [x][missing]\n",
                                       ".macmd.json": #"{"diagnostics": {"broken-wikilink": "warning", "undefined-reference": "off"}}"#])
        defer { fixture.destroy() }
        let result = try TestProcess.macmd(["check", fixture.root])
        XCTAssertEqual(result.status, 0, "no errors once broken wiki-links are warnings")
        XCTAssertEqual(result.stdout, "a.md:1:3: warning: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")
    }
}
