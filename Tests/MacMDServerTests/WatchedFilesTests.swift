import Foundation
import JSON
import NotebookIndex
import TestSupport
import XCTest
@testable import MacMDServer
import NotebookWorkspace

/// Files that change outside the editor (a watcher, file operations, saves) keep the index what
/// a fresh scan of the folder would build: the scan's rules (`.gitignore`, `ignore` globs, hidden
/// folders, `node_modules`, `maxFileSize`) apply to every event, and a changed `.gitignore` or
/// `.macmd.json` re-applies them to the whole notebook.
final class WatchedFilesTests: XCTestCase {
    static let watching: JSONValue = [
        "workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]],
        "window": ["workDoneProgress": true],
    ]

    /// Starts a server on `fixture` and waits for the end of its scan.
    func start(_ fixture: NotebookFixture, capabilities: JSONValue = WatchedFilesTests.watching) -> LSPTestClient {
        LSPTestClient.started(on: fixture, capabilities: capabilities)
    }

    func watched(_ client: LSPTestClient, _ fixture: NotebookFixture, _ changes: [(String, Int)]) {
        client.notify("workspace/didChangeWatchedFiles", ["changes": .array(changes.map { ["uri": .string(fixture.uri($0.0)), "type": .int(Int64($0.1))] })])
    }

    /// Waits until the server has applied everything sent so far: a request answered means the
    /// reader thread handled the notifications before it (queuing their jobs); then the index
    /// queue is drained, twice, for the jobs those jobs queued (a configuration reload's rescan).
    func settle(_ client: LSPTestClient) {
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.settle()
    }

    /// The notebook a fresh scan of the folder builds, with its `.macmd.json`, as `macmd check` does.
    func freshScan(_ fixture: NotebookFixture) -> Notebook {
        NotebookFolder.indexed(path: fixture.root).folder.notebook
    }

    /// What a user sees of the whole notebook: every problem `workspace/diagnostic` reports, as
    /// `path: code: message`.
    func serverProblems(_ client: LSPTestClient, _ fixture: NotebookFixture) -> [String] {
        let reports = client.request("workspace/diagnostic", ["previousResultIds": []])?.value?["items"]?.arrayValue ?? []
        return reports.flatMap { report -> [String] in
            let path = String((report["uri"]?.stringValue ?? "").dropFirst(fixture.uri("").count))
            return (report["items"]?.arrayValue ?? []).map { "\(path): \($0["code"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")" }
        }.sorted()
    }

    /// The same problems from a fresh scan (severities as configured; none switched off here).
    func freshProblems(_ notebook: Notebook, _ fixture: NotebookFixture) -> [String] {
        notebook.notes.keys.flatMap { path in
            notebook.diagnostics(for: path) { FileReader.exists(fixture.root + "/" + $0) }.map { "\(path): \($0.code): \($0.message)" }
        }.sorted()
    }

    /// The server's index and problems equal a fresh scan's.
    func assertMatchesFreshScan(_ client: LSPTestClient, _ fixture: NotebookFixture, _ step: String, line: UInt = #line) {
        settle(client)
        let fresh = freshScan(fixture)
        guard let kept = client.server.state.withLock({ $0.host.workspace.folders.first?.notebook }) else { return XCTFail("no notebook", line: line) }
        XCTAssertEqual(kept.notes.keys.sorted(), fresh.notes.keys.sorted(), "\(step): the notes", line: line)
        XCTAssertEqual(kept.assets.sorted(), fresh.assets.sorted(), "\(step): the other files", line: line)
        XCTAssertTrue(kept == fresh, "\(step): the incrementally kept index equals a fresh scan", line: line)
        XCTAssertEqual(serverProblems(client, fixture), freshProblems(fresh, fixture), "\(step): the problems", line: line)
    }

    func testWatchedEventsFollowTheScansRulesAndTheIndexEqualsAFreshScan() throws {
        let fixture = NotebookFixture([
            ".gitignore": "private/\n",
            ".macmd.json": #"{"ignore": ["drafts/**"], "maxFileSize": 400}"#,
            "index.md": "# Home\n\n[[secret]] [[dep]] [[hid]] [[draft]] [[big]] [[moved]] [[back]] [[kept]] [[other]] [[keep]] [[inner]]\n",
            "notes/moved.md": "# Moved\n",
            "notes/kept.md": "# Kept\n",
            "notes/other.md": "# Other\n",
            "private/back.md": "# Back\n",
        ])
        defer { fixture.destroy() }
        let client = start(fixture)
        defer { client.close() }
        client.open(fixture, "index.md")
        assertMatchesFreshScan(client, fixture, "after the scan")

        // Notes appear where the scan never looks: they stay out, and the links to them broken.
        fixture.write("private/secret.md", "# Secret\n")
        fixture.write("node_modules/dep.md", "# Dep\n")
        fixture.write(".hidden/hid.md", "# Hid\n")
        fixture.write("drafts/draft.md", "# Draft\n")
        fixture.write("big.md", "# Big\n\n" + String(repeating: "words ", count: 100))
        watched(client, fixture, [("private/secret.md", 1), ("node_modules/dep.md", 1), (".hidden/hid.md", 1),
                                  ("drafts/draft.md", 1), ("big.md", 1)])
        assertMatchesFreshScan(client, fixture, "ignored, hidden, excluded and large notes created")
        let report = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])
        let messages = report?.value?["items"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        for name in ["secret", "dep", "hid", "draft", "big"] {
            XCTAssertTrue(messages.contains("No note `\(name)` for `[[\(name)]]`"), "\(name) is still missing: \(messages)")
        }

        // A note renamed into an ignored folder leaves the index; one renamed out of it joins.
        try FileManager.default.moveItem(atPath: fixture.root + "/notes/moved.md", toPath: fixture.root + "/private/moved.md")
        try FileManager.default.moveItem(atPath: fixture.root + "/private/back.md", toPath: fixture.root + "/back.md")
        client.notify("workspace/didRenameFiles", ["files": [
            ["oldUri": .string(fixture.uri("notes/moved.md")), "newUri": .string(fixture.uri("private/moved.md"))],
            ["oldUri": .string(fixture.uri("private/back.md")), "newUri": .string(fixture.uri("back.md"))],
        ]])
        assertMatchesFreshScan(client, fixture, "renames into and out of an ignored folder")

        // New folders: one with its own `.gitignore` (only keep.md of it belongs), one inside an
        // ignored folder, one in `node_modules`.
        fixture.write("sub/.gitignore", "*.md\n!keep.md\n")
        fixture.write("sub/a.md", "# A\n")
        fixture.write("sub/keep.md", "# Keep\n")
        fixture.write("private/inner/inner.md", "# Inner\n")
        fixture.write("lib/node_modules/pkg/readme.md", "# Readme\n")
        watched(client, fixture, [("sub", 1), ("private/inner", 1), ("lib", 1)])
        assertMatchesFreshScan(client, fixture, "folders created")

        // A note that grows over `maxFileSize` leaves the index.
        fixture.write("notes/kept.md", "# Kept\n\n" + String(repeating: "grown ", count: 100))
        watched(client, fixture, [("notes/kept.md", 2)])
        assertMatchesFreshScan(client, fixture, "a note grown over the size limit")

        // `.gitignore` files change which notes belong: emptied at the root, created in a folder.
        fixture.write(".gitignore", "")
        watched(client, fixture, [(".gitignore", 2)])
        assertMatchesFreshScan(client, fixture, "the root .gitignore emptied")
        XCTAssertNotNil(client.server.state.withLock { $0.host.workspace.folders.first?.notebook.notes["private/secret.md"] })
        fixture.write("notes/.gitignore", "other.md\n")
        watched(client, fixture, [("notes/.gitignore", 1)])
        assertMatchesFreshScan(client, fixture, "a .gitignore created in a folder")
        fixture.remove("notes/.gitignore")
        client.notify("workspace/didDeleteFiles", ["files": [["uri": .string(fixture.uri("notes/.gitignore"))]]])
        assertMatchesFreshScan(client, fixture, "a .gitignore deleted")

        // So does the notebook's `.macmd.json`: without the `drafts/**` glob and the size limit,
        // the draft and the large notes join.
        fixture.write(".macmd.json", "{}")
        watched(client, fixture, [(".macmd.json", 2)])
        assertMatchesFreshScan(client, fixture, ".macmd.json changed")
        XCTAssertNotNil(client.server.state.withLock { $0.host.workspace.folders.first?.notebook.notes["drafts/draft.md"] })
        XCTAssertNotNil(client.server.state.withLock { $0.host.workspace.folders.first?.notebook.notes["big.md"] })
    }

    /// A `.gitignore` written while the first scan is still running counts: the scan is held
    /// before its end, the note it read is ignored meanwhile, and once the scan ends the index
    /// is what a fresh scan builds (the note gone, the link to it broken).
    func testAGitignoreChangedDuringTheFirstScanIsHonoured() {
        let fixture = NotebookFixture(["index.md": "# Home\n\n[[secret]] [[open]]\n", "private/secret.md": "# Secret\n", "open.md": "# Open\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient(holdScan: true)
        defer { client.close() }
        client.initialize(capabilities: WatchedFilesTests.watching, workspaceFolders: [fixture.root])
        _ = client.notification("$/progress") { $0?["value"]?["percentage"]?.intValue == 100 }
        fixture.write(".gitignore", "private/\n")
        watched(client, fixture, [(".gitignore", 1)])
        client.releaseScan()
        client.waitForScanEnd()
        client.open(fixture, "index.md")
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] }
        XCTAssertEqual(items?.first?["message"]?.stringValue, "No note `secret` for `[[secret]]`")
        assertMatchesFreshScan(client, fixture, "a .gitignore written during the first scan")
    }

    /// Note extensions changed at run time (the notebook's `.macmd.json`, then the editor's
    /// settings) take effect without a restart: the notebook is indexed again with them (the
    /// file watchers report every file, so new extensions need no new registration).
    func testChangingNoteExtensionsTakesEffectWithoutARestart() {
        let fixture = NotebookFixture([".macmd.json": #"{"extensions": ["md"]}"#, "index.md": "# Home\n\n[[long]] [[mdx]]\n",
                                       "long.markdown": "# Long\n", "mdx.mdx": "# Mdx\n"])
        defer { fixture.destroy() }
        let client = start(fixture)
        defer { client.close() }
        client.open(fixture, "index.md")
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink", "broken-wikilink"] })
        assertMatchesFreshScan(client, fixture, "md notes only")

        fixture.write(".macmd.json", #"{"extensions": ["md", "markdown"]}"#)
        watched(client, fixture, [(".macmd.json", 2)])
        let items = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] }
        XCTAssertEqual(items?.first?["message"]?.stringValue, "No note `mdx` for `[[mdx]]`", "long.markdown is a note now")
        assertMatchesFreshScan(client, fixture, ".markdown notes added by .macmd.json")
        // The editor's settings do the same (the notebook's file no longer names extensions).
        fixture.write(".macmd.json", "{}")
        watched(client, fixture, [(".macmd.json", 2)])
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": ["extensions": ["md", "mdx"]]]])
        let after = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] }
        XCTAssertEqual(after?.first?["message"]?.stringValue, "No note `long` for `[[long]]`", "mdx.mdx is a note, long.markdown no more")
        settle(client)
        let notes = client.server.state.withLock { $0.host.workspace.folders.first?.notebook.notes.keys.sorted() }
        XCTAssertEqual(notes, ["index.md", "mdx.mdx"])
    }

    /// A `.macmd.json` below a notebook's root is not read: the writer is told so (in the log
    /// and in a message), when the scan finds one and when one is created; one inside an
    /// ignored folder, or in a folder that is a notebook of its own, is no news.
    func testNestedSettingsFilesAreReportedAsNotRead() {
        let fixture = NotebookFixture([".macmd.json": #"{"diagnostics": {"broken-wikilink": "warning"}}"#,
                                       ".gitignore": "private/\n", "index.md": "# Home\n\n[[nowhere]]\n",
                                       "journal/.macmd.json": #"{"diagnostics": {"broken-wikilink": "off"}}"#,
                                       "journal/day.md": "# Day\n\n[[nowhere]]\n", "private/.macmd.json": "{}"])
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: WatchedFilesTests.watching, workspaceFolders: [fixture.root])
        let expected = "MacMD: journal/.macmd.json: not read: a notebook takes its settings from the .macmd.json at its root "
            + "(\(fixture.root)/.macmd.json); move these keys there, or open journal as a notebook of its own"
        let shown = client.notification("window/showMessage")
        XCTAssertEqual(shown?["message"]?.stringValue, expected)
        XCTAssertEqual(shown?["type"], 2, "a warning")
        // The root's settings apply to journal/ too: its broken link is a warning, not off.
        client.open(fixture, "journal/day.md")
        let items = client.diagnostics(for: fixture.uri("journal/day.md")) { $0 == ["broken-wikilink"] }
        XCTAssertEqual(items?.first?["severity"], 2)

        fixture.write("drafts/.macmd.json", "{}")
        fixture.write("private/more/.macmd.json", "{}")
        watched(client, fixture, [("private/more/.macmd.json", 1), ("drafts/.macmd.json", 1)])
        let created = client.notification("window/showMessage")
        XCTAssertEqual(created?["message"]?.stringValue?.hasPrefix("MacMD: drafts/.macmd.json: not read"), true, "\(created ?? .null)")
        settle(client)
        XCTAssertFalse(client.received.contains { if case .notification("window/showMessage", _) = $0 { return true } else { return false } },
                       "nothing about the ignored folder's file")
        XCTAssertEqual(client.server.state.withLock { $0.host.workspace.folders.first?.nestedSettings }, ["journal/.macmd.json", "drafts/.macmd.json"])
        fixture.remove("drafts/.macmd.json")
        watched(client, fixture, [("drafts/.macmd.json", 3)])
        settle(client)
        XCTAssertEqual(client.server.state.withLock { $0.host.workspace.folders.first?.nestedSettings }, ["journal/.macmd.json"])
    }

    /// The server registers watchers for the files that decide which notes belong.
    func testWatchersCoverGitignoreAndTheConfigurationFile() {
        let fixture = NotebookFixture(["a.md": "# A\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        let result = client.initialize(capabilities: WatchedFilesTests.watching, workspaceFolders: [fixture.root])
        let filters = result?["capabilities"]?["workspace"]?["fileOperations"]?["didCreate"]?["filters"]?.arrayValue ?? []
        XCTAssertTrue(filters.contains { $0["pattern"]?["glob"] == "**/{.gitignore,.macmd.json}" })
        var registration: JSONValue?
        while registration == nil, let message = client.nextMessage(timeout: 5) {
            if case .request(let id, "client/registerCapability", let params) = message {
                client.send(.response(id: id, result: .success(.null)))
                registration = params?["registrations"]?[0]
            }
        }
        let globs = registration?["registerOptions"]?["watchers"]?.arrayValue?.compactMap { $0["globPattern"]?.stringValue } ?? []
        XCTAssertTrue(globs.contains("**/*"), "every file, since a link may name a file of any kind: \(globs)")
        XCTAssertTrue(globs.contains("**/.gitignore"), "\(globs)")
        XCTAssertTrue(globs.contains("**/.macmd.json"), "\(globs)")
    }

    /// Without a watcher, a save is when the disk is looked at again: a note created and one
    /// deleted since are picked up, by their modification times.
    func testSaveRefreshesFromDiskForClientsThatCannotWatch() {
        let fixture = NotebookFixture(["index.md": "# Home\n\n[[new]] [[old]]\n", "old.md": "# Old\n"])
        defer { fixture.destroy() }
        let client = start(fixture, capabilities: ["window": ["workDoneProgress": true]])
        defer { client.close() }
        client.open(fixture, "index.md")
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] })
        fixture.write("new.md", "# New\n")
        fixture.remove("old.md")
        client.notify("textDocument/didSave", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])
        // Earlier publications name `new`; wait for the one that names `old` alone.
        let published = client.notification("textDocument/publishDiagnostics") { params in
            params?["uri"]?.stringValue == fixture.uri("index.md")
                && params?["diagnostics"]?.arrayValue?.compactMap({ $0["message"]?.stringValue }) == ["No note `old` for `[[old]]`"]
        }
        XCTAssertNotNil(published, "on the save, new.md was found and old.md missed")
        assertMatchesFreshScan(client, fixture, "after the save")
    }

    /// `workspace/didCreateFiles` (the editor created a note) indexes the note at once.
    func testDidCreateFilesIndexesTheNewNote() {
        let fixture = NotebookFixture(["index.md": "# Home\n\n[[fresh]]\n"])
        defer { fixture.destroy() }
        let client = start(fixture)
        defer { client.close() }
        client.open(fixture, "index.md")
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] })
        fixture.write("fresh.md", "# Fresh\n")
        client.notify("workspace/didCreateFiles", ["files": [["uri": .string(fixture.uri("fresh.md"))]]])
        XCTAssertNotNil(client.diagnostics(for: fixture.uri("index.md")) { $0.isEmpty }, "the link to the created note works")
        assertMatchesFreshScan(client, fixture, "after didCreateFiles")
    }

    /// Pull clients get no pushed diagnostics: the server asks them to pull again
    /// (`workspace/diagnostic/refresh`) when a note is created, and the next pull shows it.
    func testPullClientsAreAskedToRefreshWhenANoteIsCreated() {
        let fixture = NotebookFixture(["index.md": "# Home\n\n[[fresh]]\n"])
        defer { fixture.destroy() }
        let capabilities: JSONValue = ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true], "diagnostics": ["refreshSupport": true]],
                        "window": ["workDoneProgress": true], "textDocument": ["diagnostic": ["dynamicRegistration": false]]]
        let client = start(fixture, capabilities: capabilities)
        defer { client.close() }
        client.open(fixture, "index.md")
        settle(client)
        // Whatever the server sent before now (refresh requests of the open note's own
        // indexing) arrives before this answer: the writer is serial.
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.received.removeAll()
        fixture.write("fresh.md", "# Fresh\n")
        watched(client, fixture, [("fresh.md", 1)])
        var refreshed = false
        while !refreshed, let message = client.nextMessage(timeout: 5) {
            if case .request(let id, "workspace/diagnostic/refresh", _) = message {
                refreshed = true
                client.send(.response(id: id, result: .success(.null)))
            }
        }
        XCTAssertTrue(refreshed, "the server asks the client to pull again")
        let report = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])
        XCTAssertEqual(report?.value?["items"], [], "the pulled report no longer has the broken link")
    }
}

/// `ScanMembership` answers for single paths what a scan decides for a tree: checked on a tree of
/// cases against a scan of it.
final class ScanMembershipTests: XCTestCase {
    func testVerdictsAgreeWithAScan() {
        let fixture = NotebookFixture([
            ".gitignore": "private/\n*.tmp.md\n!keep.tmp.md\n",
            "a.md": "# A\n", "b.MARKDOWN": "# B\n", "c.txt": "c", ".hidden.md": "# hidden file, listed\n",
            "x.tmp.md": "# tmp\n", "keep.tmp.md": "# kept\n",
            "img/pic.PNG": "png", "img/big.pdf": String(repeating: "p", count: 300),
            "private/p.md": "# P\n", "private/pic.png": "png",
            "node_modules/n.md": "# N\n", "deep/node_modules/n.md": "# N\n",
            ".git/g.md": "# G\n", "notes/.obsidian/o.md": "# O\n",
            "notes/n.md": "# N\n", "notes/large.md": String(repeating: "large ", count: 60),
            "notes/.gitignore": "/local.md\nsub/\n", "notes/local.md": "# L\n", "local.md": "# root L\n",
            "notes/sub/s.md": "# S\n", "notes/other/sub/s.md": "# S\n",
            "drafts/d.md": "# D\n", "drafts/keep/k.md": "# K\n",
            "one/two/three/deep.md": "# Deep\n",
        ])
        defer { fixture.destroy() }
        var options = ScanOptions()
        options.ignoreGlobs = ["drafts/*", "!drafts/keep"]
        options.maxFileSize = 200
        options.maxDepth = 2
        let scan = WorkspaceScanner.scan(root: fixture.root, options: options)
        var membership = ScanMembership(root: scan.resolvedRoot, options: options)
        let allFiles = (FileManager.default.enumerator(atPath: fixture.root)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: fixture.root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        var notes: [String] = [], assets: [String] = []
        for path in allFiles {
            switch membership.verdict(of: path) {
            case .note: notes.append(path)
            case .asset: assets.append(path)
            case .folder, .excluded: break
            }
        }
        XCTAssertEqual(notes.sorted(), scan.files.map(\.path).sorted())
        XCTAssertEqual(assets.sorted(), scan.assets.sorted())
        // The expectations spelled out, so a scan that changes its rules is noticed here too.
        XCTAssertEqual(notes.sorted(), [".hidden.md", "a.md", "b.MARKDOWN", "drafts/keep/k.md", "keep.tmp.md", "local.md", "notes/n.md"])
        XCTAssertEqual(assets.sorted(), ["c.txt", "img/big.pdf", "img/pic.PNG"], "every file not hidden is an asset: a link may name a file of any kind")
        /// Why a path is left out, in English; nil when it is not.
        func excluded(_ verdict: ScanMembership.Verdict) -> String? {
            if case .excluded(let reason) = verdict { return reason.english }
            return nil
        }
        XCTAssertEqual(excluded(membership.verdict(of: "notes/large.md")), "file is 360 bytes, over the 200-byte limit")
        XCTAssertEqual(excluded(membership.verdict(of: "private", isDirectory: true)), "`private/` is ignored")
        XCTAssertEqual(membership.verdict(of: "notes", isDirectory: true), .folder)
        XCTAssertEqual(excluded(membership.verdict(of: "deep/node_modules/n.md")), "inside `node_modules`")
        XCTAssertEqual(excluded(membership.verdict(of: "one/two/three/deep.md")), "more than 2 folders deep")
    }
}
