import Foundation
import TestSupport
import XCTest
@testable import MacMDServer
import NotebookWorkspace

/// The server indexes the workspace in the background and keeps every open note's problems
/// current as notes are edited, created and deleted, pushed or pulled.
final class NotebookServerTests: XCTestCase {
    static let files = [
        "index.md": "# Home\n\n[[soil]] [[Missing]] [[soil#pH]]\n",
        "garden/soil.md": "---\ntitle: Soil\n---\n# Soil\n\n## Texture\n",
        "garden/beds.md": "# Beds\n\n[up](../index.md) [gone](nowhere.md)\n",
    ]

    func testScanReportsProgressAndOpenNotesGetTheirProblems() {
        let fixture = NotebookFixture(NotebookServerTests.files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true]], workspaceFolders: [fixture.root])
        var kinds: [String] = []
        while kinds.last != "end", let params = client.notification("$/progress") {
            kinds.append(params["value"]?["kind"]?.stringValue ?? "?")
        }
        XCTAssertEqual(kinds.first, "begin")
        XCTAssertEqual(kinds.last, "end")
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md")) { !$0.isEmpty }
        XCTAssertEqual(items?.compactMap { $0["code"]?.stringValue }, ["broken-wikilink", "broken-heading"])
        XCTAssertEqual(items?.first?["message"]?.stringValue, "No note `Missing` for `[[Missing]]`")
        XCTAssertEqual(items?.first?["source"]?.stringValue, "macmd")
        XCTAssertEqual(items?.first?["range"], fixture.range("[[$0Missing$0]]", in: "index.md"))
        XCTAssertEqual(items?.last?["message"]?.stringValue, "No heading `pH` in `garden/soil.md`")
    }

    func testEditsFixAndBreakLinksAsTheWriterTypes() {
        let fixture = NotebookFixture(NotebookServerTests.files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(workspaceFolders: [fixture.root])
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md")) { $0.count == 2 }
        // Replace "[[Missing]]" by "[[beds]]": one problem left.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["range": fixture.range("$0[[Missing]]$0", in: "index.md"),
                                                                     "text": "[[beds]]"]]])
        let after = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-heading"] }
        XCTAssertNotNil(after, "fixing a link takes its problem away")
        // Adding the heading to soil.md (open in the editor, unsaved) fixes the last one.
        client.open(fixture, "garden/soil.md")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("garden/soil.md")), "version": 2],
                                                 "contentChanges": [["text": "# Soil\n\n## pH\n"]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0.isEmpty }, "a heading added in another note fixes the link to it")
    }

    func testNotesCreatedAndDeletedOnDiskChangeTheProblemsOfNotesLinkingToThem() {
        let fixture = NotebookFixture(NotebookServerTests.files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]],
                          workspaceFolders: [fixture.root])
        client.open(fixture, "index.md")
        _ = client.diagnostics(for: fixture.uri("index.md")) { $0.count == 2 }
        fixture.write("missing.md", "# Missing\n")
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri("missing.md")), "type": 1]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-heading"] })
        fixture.remove("garden/soil.md")
        client.notify("workspace/didDeleteFiles", ["files": [["uri": .string(fixture.uri("garden/soil.md"))]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-wikilink"] },
                        "deleting a note breaks the links to it")
        // A renamed folder moves its notes.
        try? FileManager.default.moveItem(atPath: fixture.root + "/garden", toPath: fixture.root + "/yard")
        fixture.write("yard/soil.md", "# Soil\n\n## pH\n")
        client.notify("workspace/didRenameFiles", ["files": [["oldUri": .string(fixture.uri("garden")), "newUri": .string(fixture.uri("yard"))]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0.isEmpty }, "notes in a renamed folder are found again")
    }

    func testPullClientsGetDocumentAndWorkspaceReports() {
        let fixture = NotebookFixture(NotebookServerTests.files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        let result = client.initialize(capabilities: ["textDocument": ["diagnostic": ["dynamicRegistration": false]]],
                                       workspaceFolders: [fixture.root])
        XCTAssertEqual(result?["capabilities"]?["diagnosticProvider"]?["workspaceDiagnostics"], true)
        client.open(fixture, "index.md")
        // During the scan the answer comes from what is indexed so far (never an error); it
        // settles when the scan ends.
        var codes: [String] = []
        for _ in 0..<250 where codes != ["broken-wikilink", "broken-heading"] {
            let report = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])
            guard case .success(let value)? = report, let items = value["items"]?.arrayValue else {
                return XCTFail("a pull during the scan must be answered with a report, not \(String(describing: report))")
            }
            codes = items.compactMap { $0["code"]?.stringValue }
            if codes != ["broken-wikilink", "broken-heading"] { usleep(20_000) }
        }
        XCTAssertEqual(codes, ["broken-wikilink", "broken-heading"])
        let workspace = client.request("workspace/diagnostic", ["previousResultIds": []])
        let reports = workspace?.value?["items"]?.arrayValue ?? []
        XCTAssertEqual(Set(reports.compactMap { $0["uri"]?.stringValue }), [fixture.uri("index.md"), fixture.uri("garden/beds.md")])
        let beds = reports.first { $0["uri"]?.stringValue == fixture.uri("garden/beds.md") }
        XCTAssertEqual(beds?["items"]?[0]?["message"]?.stringValue, "No note `garden/nowhere.md` for `nowhere.md`")
    }

    /// `math-error` is off until the configuration gives it a severity; then an open note's
    /// formulas the converter rejects are pushed at their range with the converter's message,
    /// and a closed note's are in the workspace report.
    func testMathErrorsAreReportedOnlyWhenTheConfigurationAsksForThem() {
        let files = [
            "index.md": "# Home\n\nArea $\\pi r^2$, a typo $\\fracc{1}{2}$ and [[Missing]].\n",
            "closed.md": "# Closed\n\n$$\n\\left( x\n$$\n",
        ]
        for asked in [false, true] {
            let fixture = NotebookFixture(asked ? files.merging([".macmd.json": #"{"diagnostics": {"math-error": "warning"}}"#]) { $1 } : files)
            defer { fixture.destroy() }
            let client = LSPTestClient.started(on: fixture)
            defer { client.close() }
            client.open(fixture, "index.md")
            let expected = asked ? ["math-error", "broken-wikilink"] : ["broken-wikilink"]
            let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == expected }
            XCTAssertNotNil(items, "asked: \(asked)")
            if asked {
                XCTAssertEqual(items?.first?["message"]?.stringValue, "unknown command \\fracc")
                XCTAssertEqual(items?.first?["severity"], 2)
                XCTAssertEqual(items?.first?["range"], fixture.range("a typo $0$\\fracc{1}{2}$$0 and", in: "index.md"))
            }
            let reports = client.request("workspace/diagnostic", ["previousResultIds": []])?.value?["items"]?.arrayValue ?? []
            let closed = reports.first { $0["uri"]?.stringValue == fixture.uri("closed.md") }?["items"]?.arrayValue ?? []
            XCTAssertEqual(closed.compactMap { $0["code"]?.stringValue }, asked ? ["math-error"] : [], "asked: \(asked)")
            if asked {
                XCTAssertEqual(closed.first?["message"]?.stringValue, "missing \\right for \\left")
                XCTAssertEqual(closed.first?["range"], fixture.range("# Closed\n\n$0$$\n\\left( x\n$$$0\n", in: "closed.md"))
            }
        }
    }

    func testConfigurationSetsSeveritiesAndBadConfigurationFallsBack() {
        var files = NotebookServerTests.files
        files[".macmd.json"] = #"{"diagnostics": {"broken-wikilink": "off", "broken-heading": "hint"}, "ignore": ["garden/beds.md"], "colour": 1}"#
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(workspaceFolders: [fixture.root])
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-heading"] }
        XCTAssertEqual(items?.first?["severity"], 4)
        // Ignored notes are not indexed: a link to them is broken.
        fixture.write("index.md", "[b](garden/beds.md)\n")
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 2],
                                                 "contentChanges": [["text": "[b](garden/beds.md)\n"]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-link"] })
        // A configuration that is not JSON leaves the defaults in force: every code is on again,
        // and the note the old `ignore` glob left out is indexed (its link is no longer broken).
        fixture.write(".macmd.json", "{ nope")
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": [:]]])
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": 3],
                                                 "contentChanges": [["text": "[[Missing]] [b](garden/beds.md)\n"]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] })
    }

    func testColdIndexRecordsModificationTimesAndLogsNotesItLeftOut() {
        var files = NotebookServerTests.files
        files[".macmd.json"] = "{\"maxFileSize\": 1000}"
        files["big.md"] = String(repeating: "x", count: 2000)
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let log = LogFile()
        let client = LSPTestClient.started(on: fixture, logger: log.logger())
        defer { client.close() }
        let root = client.server.state.withLock { $0.host.workspace.folders.first }
        let notes = ["garden/beds.md", "garden/soil.md", "index.md"]
        XCTAssertEqual(root?.notebook.notes.keys.sorted(), notes)
        // Every note read has the time of its file (learnt from the read), the big one none.
        var expected: [String: Int64] = [:]
        for path in notes {
            var info = stat()
            XCTAssertEqual(stat(fixture.root + "/" + path, &info), 0)
            expected[path] = FileReader.modificationTime(info)
        }
        XCTAssertEqual(root?.modificationTimes, expected)
        let text = log.waitFor(line: "[macmd info] skipped big.md: file is 2000 bytes, over the 1000-byte limit")
        XCTAssertTrue(text.contains("indexed 3 notes of "), text)
    }

    func testSingleFileModeIndexesTheNotesFolderAndNewWorkspaceFolders() {
        let fixture = NotebookFixture(NotebookServerTests.files)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        client.open(fixture, "garden/beds.md")
        // Only the note's own folder: `../index.md` is outside it, not checked.
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("garden/beds.md")) { $0 == ["link-outside-notebook", "broken-link"] })
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": [["uri": .string("file://" + fixture.root), "name": "n"]], "removed": []]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("garden/beds.md")) { $0 == ["broken-link"] },
                        "with the whole folder indexed, only the really broken link is left")
    }
}
