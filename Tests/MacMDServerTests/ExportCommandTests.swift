import Foundation
import TestSupport
import XCTest

/// `macmd export … --pdf` as a writer runs it, checked with poppler's tools as a reader would
/// see the PDF: its pages and their size (`pdfinfo`), its text (`pdftotext`): headings, a
/// formula, notes in order, each from a new page. Needs Chromium and poppler-utils (`.ci/run`
/// installs both).
final class ExportCommandTests: XCTestCase {
    /// The output of a poppler tool, or a failure saying it is missing.
    func poppler(_ tool: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = "/usr/bin/" + tool
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(tool) is missing: install poppler-utils (.ci/run does)", file: file, line: line)
            return ""
        }
        return try TestProcess.run(URL(fileURLWithPath: path), arguments).stdout
    }

    func testANoteBecomesAnA4PDFWithItsHeadingsAndMaths() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("soil.pdf").path
        let note = TestPaths.fixtures.appendingPathComponent("notebook/soil-tests.md").path
        let result = try TestProcess.macmd(["export", note, "--pdf", "--out", out], timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        let info = try poppler("pdfinfo", [out])
        XCTAssertTrue(info.contains("(A4)"), info)
        let text = try poppler("pdftotext", [out, "-"])
        for heading in ["Soil tests", "Method", "pH readings", "Texture"] {
            XCTAssertTrue(text.contains(heading + "\n"), "\(heading) in\n\(text)")
        }
        XCTAssertTrue(text.contains("log"), "the formula pH = −log₁₀ a is drawn as text:\n\(text)")
        XCTAssertFalse(text.contains("words ·"), "no statistics footer in print")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + ".part"))
    }

    func testALongNoteSpansPagesAndANotebookPrintsEveryNoteInOrder() throws {
        let folder = NotebookFixture([
            "index.md": "# Home\n\nStart here.\n",
            "b/long.md": "# Long\n\n" + (1...120).map { "Paragraph \($0) of a note long enough to need several pages.\n" }.joined(separator: "\n"),
            "a/short.md": "# Short\n\nA short note.\n",
        ])
        defer { folder.destroy() }
        let long = folder.root + "/long.pdf"
        let single = try TestProcess.macmd(["export", folder.root + "/b/long.md", "--pdf", "--out", long, "--page-size", "Letter"], timeout: 120)
        XCTAssertEqual(single.status, 0, single.stderr)
        let pages = try poppler("pdfinfo", [long]).split(separator: "\n").first { $0.hasPrefix("Pages:") }
        XCTAssertGreaterThan(Int(pages?.split(separator: " ").last ?? "") ?? 0, 1, "\(pages ?? "")")
        XCTAssertTrue(try poppler("pdfinfo", [long]).contains("(letter)"))

        let book = folder.root + "/notebook.pdf"
        let all = try TestProcess.macmd(["export", folder.root, "--pdf", "--out", book, "--margin", "1in"], timeout: 120)
        XCTAssertEqual(all.status, 0, all.stderr)
        // The home note first, then by folder and name; each note from a new page.
        XCTAssertTrue(try poppler("pdftotext", ["-f", "1", "-l", "1", book, "-"]).hasPrefix("Home"))
        XCTAssertTrue(try poppler("pdftotext", ["-f", "2", "-l", "2", book, "-"]).hasPrefix("Short"))
        XCTAssertTrue(try poppler("pdftotext", ["-f", "3", "-l", "3", book, "-"]).hasPrefix("Long"))
    }

    func testWithoutABrowserOrWithABadOutTheWriterIsTold() throws {
        let note = TestPaths.fixtures.appendingPathComponent("notebook/compost.md").path
        let noBrowser = try TestProcess.run(try MacmdBinary.url(), ["export", note, "--pdf", "--out", "/tmp/macmd-never.pdf"],
                                            environment: ["MACMD_CHROMIUM": "/nonexistent/chromium", "LANG": "C"])
        XCTAssertEqual(noBrowser.status, 2)
        XCTAssertTrue(noBrowser.stderr.contains("apt install chromium"), noBrowser.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/macmd-never.pdf"))
        // A browser that fails: exit status 1, why, and no file left behind.
        let failing = try TestProcess.run(try MacmdBinary.url(), ["export", note, "--pdf", "--out", "/tmp/macmd-never.pdf"],
                                          environment: ["MACMD_CHROMIUM": "/bin/false", "LANG": "C"])
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stderr, "macmd export: /bin/false could not print the PDF: it exited with status 1\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/macmd-never.pdf"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/macmd-never.pdf.part"))
        let badOut = try TestProcess.macmd(["export", note, "--pdf", "--out", "/nonexistent/folder/x.pdf"])
        XCTAssertEqual(badOut.status, 2)
        XCTAssertEqual(badOut.stderr, "macmd export: cannot write /nonexistent/folder/x.pdf: its folder is missing or not writable, or it is a folder\n")
        let badMargin = try TestProcess.macmd(["export", note, "--pdf", "--out", "/tmp/x.pdf", "--margin", "1cm}body{"])
        XCTAssertEqual(badMargin.status, 2)
        let noOut = try TestProcess.macmd(["export", note, "--pdf"])
        XCTAssertEqual(noOut.status, 2)
        XCTAssertTrue(noOut.stderr.hasPrefix("macmd export: export needs a notebook and --out FOLDER, or a note or notebook, --pdf and --out FILE.pdf"),
                      noOut.stderr)
    }
}
