import Foundation
import TestSupport
import XCTest

/// Whether a notebook's root is known or guessed decides how a link that finds nothing is
/// reported: an error in a folder with a root marker (`.macmd.json`, `.obsidian`, `.git`,
/// `.marksman.toml`, `.moxide.toml`, `book.toml`, `mkdocs.yml`) or one the user names (`macmd check DIR`), a hint where the
/// root is a guess (the target may be outside it). Problems with notes that are there (a
/// missing heading) are errors either way.
final class RootDetectionTests: XCTestCase {
    static let notes = ["index.md": "# Home\n\n[[elsewhere]] and [[zeta#Nope]]\n", "zeta.md": "# Zeta\n"]

    /// Severity (1 error … 4 hint) by code of what the server pushes for index.md.
    func pushed(marker: String?, file: StaticString = #filePath, line: UInt = #line) -> [String: Int] {
        let fixture = NotebookFixture(Self.notes, rootMarker: false)
        defer { fixture.destroy() }
        if let marker {
            if marker.hasSuffix("/") {
                try? FileManager.default.createDirectory(atPath: fixture.root + "/" + marker, withIntermediateDirectories: true)
            } else {
                fixture.write(marker, marker.hasSuffix(".json") ? "{}\n" : "")
            }
        }
        let client = LSPTestClient.started(on: fixture, file: file, line: line)
        defer { client.close() }
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md"), file: file, line: line) { $0.contains("broken-heading") } ?? []
        var result: [String: Int] = [:]
        for item in items { result[item["code"]?.stringValue ?? "?"] = item["severity"]?.intValue.map { Int($0) } }
        if marker == nil {
            let message = items.first { $0["code"] == "broken-wikilink" }?["message"]?.stringValue ?? ""
            XCTAssertTrue(message.contains("the notebook's root is a guess"), message, file: file, line: line)
        }
        return result
    }

    func testALinkThatFindsNothingIsAnErrorOnlyUnderAKnownRoot() {
        XCTAssertEqual(pushed(marker: nil), ["broken-wikilink": 4, "broken-heading": 1], "no marker: a guessed root")
        for marker in [".macmd.json", ".obsidian/", ".git/", ".marksman.toml", ".moxide.toml", "book.toml", "mkdocs.yml"] {
            XCTAssertEqual(pushed(marker: marker), ["broken-wikilink": 1, "broken-heading": 1], marker)
        }
    }

    func testANoteOpenedOutsideEveryWorkspaceFolderHasAGuessedRoot() {
        let fixture = NotebookFixture(Self.notes, rootMarker: false)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true]])
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0.contains("broken-heading") } ?? []
        XCTAssertEqual(items.first { $0["code"] == "broken-wikilink" }?["severity"], 4, "\(items)")
    }

    func testAFolderNamedToMacmdCheckIsNoGuess() throws {
        let fixture = NotebookFixture(Self.notes, rootMarker: false)
        defer { fixture.destroy() }
        let result = try TestProcess.macmd(["check", fixture.root])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("error: No note `elsewhere`"), result.stdout)
    }
}
