import Foundation
import JSONRPC
import XCTest

/// `macmd check` as a user runs it on a folder: one line per problem, an exit status for CI.
final class CheckCommandTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func testReportsProblemsAsPathLineColumnAndFailsOnErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "# Home\n\nSee [[Other]] and [[Nowhere]].\n".write(to: folder.appendingPathComponent("index.md"), atomically: true, encoding: .utf8)
        try "# Other\n".write(to: folder.appendingPathComponent("sub/other.md"), atomically: true, encoding: .utf8)

        let text = try run(["check", folder.path])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.out, "index.md:3:21: error: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")

        let json = try run(["check", folder.path, "--format", "json"])
        XCTAssertEqual(json.status, 1)
        let value = try JSON.parse(Array(json.out.utf8))
        XCTAssertEqual(value[0]?["code"], "broken-wikilink")
        XCTAssertEqual(value[0]?["line"], 3)

        try "# Home\n\nSee [[Other]].\n".write(to: folder.appendingPathComponent("index.md"), atomically: true, encoding: .utf8)
        let clean = try run(["check", folder.path])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.out, "")

        XCTAssertEqual(try run(["check", folder.appendingPathComponent("missing").path]).status, 2)
        XCTAssertEqual(try run(["check", "--format", "xml"]).status, 2)
    }
}
