import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// What decides the notebook a server keeps, seen from the editor: the workspace folders (and
/// `rootUri` without them), the editor's settings and `.macmd.json`; and how problems follow a
/// writer who types fast.
final class WorkspaceSettingsServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home

        [[soil]] [[Missing]] [[soil#pH]]
        //- /garden/soil.md
        # Soil
        //- /garden/beds.md
        # Beds

        [up](../index.md) [gone](nowhere.md)

        """)


    /// The names `workspace/symbol` finds for `query`.
    func symbols(_ client: LSPTestClient, _ query: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let found = client.request("workspace/symbol", ["query": .string(query)], file: file, line: line)?.value?.arrayValue
        XCTAssertNotNil(found, "workspace/symbol \(query) was not answered with a list", file: file, line: line)
        return (found ?? []).compactMap { $0["name"]?.stringValue }
    }

    /// A server on the notebook, scanned, with index.md open and its two problems pushed.
    func startWithIndexOpen(file: StaticString = #filePath, line: UInt = #line) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(Self.notebook)
        let client = LSPTestClient.started(on: fixture, file: file, line: line)
        client.open(fixture, "index.md")
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md"), file: file, line: line) { $0 == ["broken-wikilink", "broken-heading"] })
        return (fixture, client)
    }

    func testRemovingAWorkspaceFolderTakesItsNotesAway() {
        let (fixture, client) = startWithIndexOpen()
        defer { client.close(); fixture.destroy() }
        XCTAssertTrue(symbols(client, "Beds").contains("Beds"))
        let folder: JSONValue = [["uri": .string("file://" + fixture.root), "name": "notes"]]
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": [], "removed": folder]])
        // The open note is left in a notebook of its own folder: garden/soil.md is no longer a
        // note it can link to, and the notes of garden/ are no longer listed.
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-wikilink", "broken-wikilink"] },
                        "without the folder, [[soil]] reaches nothing")
        XCTAssertFalse(symbols(client, "Beds").contains("Beds"), "the removed folder's notes are gone")
        // Added back, the folder is a notebook of all its notes again: the open note's links
        // resolve as before the removal, and its notes are listed.
        client.received.removeAll()
        client.notify("workspace/didChangeWorkspaceFolders", ["event": ["added": folder, "removed": []]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-heading"] },
                        "added back, the folder's notes resolve again")
        client.waitForScanEnd()
        XCTAssertTrue(symbols(client, "Beds").contains("Beds"), "the folder's notes are listed again")
    }

    /// An open document that is not a note by its name (`scratch.txt` in Markdown mode) counts
    /// while it is open; closed, it leaves the notebook, as a fresh scan would leave it out.
    func testAnOpenFileThatIsNoNoteLeavesTheNotebookWhenClosed() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }
        fixture.write("scratch.txt", "# Scratchpad\n")
        let client = LSPTestClient.started(on: fixture)
        defer { client.close() }
        XCTAssertFalse(symbols(client, "Scratchpad").contains("Scratchpad"), "not a note on disk")
        client.open(fixture, "scratch.txt")
        // Its problems are pushed once its text is filed into the notebook.
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("scratch.txt")))
        XCTAssertTrue(symbols(client, "Scratchpad").contains("Scratchpad"), "open, its text is in the notebook")
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(fixture.uri("scratch.txt"))]])
        _ = symbols(client, "zzz")
        client.server.settle()
        XCTAssertFalse(symbols(client, "Scratchpad").contains("Scratchpad"), "closed, it is gone again")
    }

    func testRootURIIsTheNotebookWithoutWorkspaceFolders() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: ["window": ["workDoneProgress": true]], rootURI: "file://" + fixture.root)
        client.waitForScanEnd()
        client.open(fixture, "garden/beds.md")
        // `../index.md` is in the notebook (the root's), so only the really broken link is left.
        let items = client.diagnostics(for: fixture.uri("garden/beds.md")) { $0 == ["broken-link"] }
        XCTAssertEqual(items?.first?["message"]?.stringValue, "No note `garden/nowhere.md` for `nowhere.md`")
        XCTAssertEqual(items?.first?["range"], fixture.range("[gone]($0nowhere.md$0)", in: "garden/beds.md"))
        XCTAssertTrue(symbols(client, "Home").contains("Home"), "notes outside the open note's folder are indexed")
    }

    func testChangedSettingsChangeTheProblemsAtOnce() {
        let (fixture, client) = startWithIndexOpen()
        defer { client.close(); fixture.destroy() }
        // A code switched off is no longer pushed.
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": ["diagnostics": ["broken-wikilink": "off"]]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-heading"] }, "broken-wikilink off")
        // New settings replace the old: the code is back, and an `ignore` glob drops soil.md, so
        // both links to it break.
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": ["ignore": ["garden/soil.md"]]]])
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-wikilink", "broken-wikilink"] }
        XCTAssertEqual(items?.compactMap { $0["message"]?.stringValue },
                       ["No note `soil` for `[[soil]]`", "No note `Missing` for `[[Missing]]`", "No note `soil` for `[[soil#pH]]`"])
        XCTAssertFalse(symbols(client, "Soil").contains("Soil"), "the ignored note is not indexed")
        // Settings back to none: every default in force again.
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": [:]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-heading"] })
    }

    func testABadConfigurationValueIsLoggedWithItsReasonAndTheDefaultStays() {
        var files = Self.notebook.texts
        files[".macmd.json"] = #"{"diagnostics": {"broken-wikilink": "loud"}, "ignore": "garden", "maxFileSize": -1}"#
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let log = LogFile()
        let client = LSPTestClient.started(on: fixture, logger: log.logger(.warn))
        defer { client.close() }
        let file = fixture.root + "/.macmd.json"
        log.waitFor(line: "[macmd warn] configuration: \(file): `diagnostics.broken-wikilink`: expected error, warning, information, hint or off, got `loud`")
        log.waitFor(line: "[macmd warn] configuration: \(file): `ignore` must be a list of glob strings")
        log.waitFor(line: "[macmd warn] configuration: \(file): `maxFileSize` must be a positive number of bytes")
        // The defaults stay: broken wiki-links are errors, and garden/ is indexed (its heading
        // is missing, not its note).
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-heading"] }
        XCTAssertEqual(items?.first?["severity"], 1)
        XCTAssertEqual(items?.last?["message"]?.stringValue, "No heading `pH` in `garden/soil.md`")
    }

    /// Typing fast: each change supersedes the one before, so problems are pushed for the
    /// latest version only — never an older version after a newer one, and the last push is
    /// for the last version, with that version's problems.
    func testSeveralChangesInARowPushOnlyTheLatestVersionsProblems() throws {
        let (fixture, client) = startWithIndexOpen()
        defer { client.close(); fixture.destroy() }
        let uri = fixture.uri("index.md")
        // Thirty changes in one write, as fast as the server can read them.
        let last = 31
        var frames: [UInt8] = []
        for version in 2...last {
            frames += Framing.frame(.notification(method: "textDocument/didChange", params: [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": [["text": .string("[[soil]] [[Missing \(version)]]\n")]],
            ]))
        }
        client.received.removeAll()
        client.writeRaw(frames)
        var pushed: [(version: Int, messages: [String])] = []
        while pushed.last?.version != last {
            guard let params = client.notification("textDocument/publishDiagnostics", where: { $0?["uri"]?.stringValue == uri }) else { break }
            let version = try XCTUnwrap(params["version"]?.intValue, "a push without the version it was computed from")
            pushed.append((version, params["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []))
        }
        // Anything still on its way: the indexer's queue done (`settle`), then whatever it pushed
        // arrives before the answer to a later request (the writer is serial).
        client.server.settle()
        _ = client.request("workspace/symbol", ["query": "zzz"])
        for message in client.received {
            if case .notification("textDocument/publishDiagnostics", let params?) = message, params["uri"]?.stringValue == uri,
               let version = params["version"]?.intValue {
                pushed.append((version, params["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []))
            }
        }
        let versions = pushed.map(\.version)
        XCTAssertEqual(versions, versions.sorted(), "no push for an older version after a newer one: \(versions)")
        XCTAssertEqual(Set(versions).count, versions.count, "each version pushed once at most: \(versions)")
        XCTAssertEqual(versions.last, last, "the last push is for the last version")
        for push in pushed where push.version > 1 {
            XCTAssertEqual(push.messages, ["No note `Missing \(push.version)` for `[[Missing \(push.version)]]`"],
                           "the problems pushed with version \(push.version) are that version's")
        }
        print("WorkspaceSettingsServerTests: \(last - 1) changes, pushes for versions \(versions)")
    }
}
