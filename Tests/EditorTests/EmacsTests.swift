// A real Emacs drives the built server through our macmd.el (editors/emacs), with either of its
// LSP clients: `emacs --batch` runs Fixtures/editors/eglot-notebook.el and lsp-mode-notebook.el,
// which walk the features as a writer uses them (flymake's diagnostics, C-M-i completion, hover,
// M-. definition, renaming a heading, the Create note code action; the preview through
// lsp-mode) and write JSON reports that these tests check; preview-resources.el runs
// `macmd-preview` through eglot, and package-install.el installs macmd.el with
// `package-install-file`. In a real terminal (tmux), tty-diagnostics.el shows flymake's errors
// underlined and eldoc's diagnostic at point. The typing help is TypingSuiteTests' (clients
// `emacs-eglot` and `emacs-lsp-mode`).
//
// Invariants: a missing Emacs, eglot, lsp-mode, markdown-mode or tmux is a skip that says how to
// install it (a failure under `MACMD_REQUIRE_CLIENTS=1`, which `.ci/run` sets after installing
// Debian's emacs-nox, elpa-eglot, elpa-lsp-mode and elpa-markdown-mode). Emacs runs with `-Q`
// (no user or site configuration), HOME and XDG_CACHE_HOME in the test's folder, and is killed
// after 60 s (batch) or left by the test after at most 60 s (terminal).

import Foundation
import TestSupport
import XCTest

final class EmacsTests: XCTestCase {
    static let install = "apt-get install -y emacs-nox elpa-eglot elpa-lsp-mode elpa-markdown-mode"

    /// Emacs with `packages` (each built in, or from Debian's elpa folder), or a skip (a failure
    /// under `MACMD_REQUIRE_CLIENTS=1`) saying how to install what is missing.
    static func emacs(with packages: [String] = ["eglot", "markdown-mode"]) throws -> String {
        let emacs = try Clients.require("emacs", install: install)
        for package in packages where !EmacsPackages.has(package, emacs: emacs) {
            throw Clients.missing("Emacs's \(package)", install: install)
        }
        return emacs
    }

    /// Runs `emacs --batch -Q -l Fixtures/editors/<script>` in `work` with the plugin and the
    /// built `macmd` in its environment, and returns the script's JSON report.
    static func run(_ script: String, in work: URL, packages: [String] = ["eglot", "markdown-mode"],
                    environment: [String: String]) throws -> (json: [String: Any], context: String) {
        let emacs = try Self.emacs(with: packages)
        let report = work.appendingPathComponent("report.json")
        let path = TestPaths.fixtures.appendingPathComponent("editors/\(script)").path
        var variables = [
            "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/emacs").path,
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_REPORT": report.path,
            "HOME": work.path,
            "XDG_CACHE_HOME": work.appendingPathComponent("cache").path,
        ]
        variables.merge(environment) { _, new in new }
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [emacs, "--batch", "-Q", "-l", path],
                                         environment: variables, in: work, timeout: Neovim.timeout)
        let context = "\(emacs) \(script); output:\n\(result.stdout)\(result.stderr)"
        XCTAssertNotNil(result.status, "emacs did not finish within \(Int(Neovim.timeout)) s and was killed\n\(context)")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path), "emacs wrote no report\n\(context)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        return (json, context)
    }


    /// The 1-based number of the first line of a fixture note equal to `text`.
    static func line(_ text: String, of note: String) throws -> Int {
        let source = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("notebook/\(note)"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try XCTUnwrap(lines.firstIndex { $0 == text }, "\(note) has a line `\(text)`")
        return index + 1
    }

    /// What both clients' feature walks must show (Fixtures/editors/macmd-test.el,
    /// `macmd-test-notebook`), on the notebook copy `notebook`.
    func checkFeatures(_ json: [String: Any], notebook: URL, client: String, context: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)", file: file, line: line)
        XCTAssertEqual(json["client"] as? String, client, "the buffer talks to macmd through \(client)\n\(context)", file: file, line: line)
        XCTAssertEqual(json["flymake"] as? Bool, true, "flymake is on in the note", file: file, line: line)
        XCTAssertEqual(json["typing"] as? Bool, true, "macmd-typing-mode turned on by itself", file: file, line: line)

        // Completion: C-M-i is completion-at-point, whose first function is MacMD's; the note's
        // title is the only candidate after `[[Soil`, and completing it writes the item's textEdit.
        XCTAssertEqual(json["completionKey"] as? String, "completion-at-point", "markdown-mode has ispell-complete-word there", file: file, line: line)
        XCTAssertEqual(json["firstCapf"] as? String, "macmd-completion-at-point", file: file, line: line)
        XCTAssertEqual(json["candidates"] as? [String], ["Soil tests"], "the note's title, matched ignoring case\n\(context)", file: file, line: line)
        XCTAssertEqual(json["completed"] as? String, "Read [[soil-tests]]", "the item's textEdit\n\(context)", file: file, line: line)

        // Hover on a wiki-link shows the target's title and opening lines.
        let hover = json["hover"] as? String ?? ""
        XCTAssertTrue(hover.contains("Tomato varieties"), "hover: \(hover)\n\(context)", file: file, line: line)
        XCTAssertTrue(hover.contains("Eight varieties in bed D"), "the target's first paragraph: \(hover)", file: file, line: line)

        // M-. on `[[soil-tests]]` lands on the note's title line.
        let definition = try XCTUnwrap(json["definition"] as? [String: Any], context, file: file, line: line)
        XCTAssertEqual(definition["file"] as? String, "soil-tests.md", context, file: file, line: line)
        XCTAssertEqual(definition["line"] as? Int, try Self.line("# Soil tests", of: "soil-tests.md"), file: file, line: line)
        XCTAssertEqual(definition["text"] as? String, "# Soil tests", file: file, line: line)

        // Renaming `## Lime calculation`: the heading and every link to it, on disk once saved.
        let linking = SampleNotebook.notes(containing: "soil-tests#Lime calculation")
        XCTAssertFalse(linking.isEmpty)
        XCTAssertEqual(json["renameFrom"] as? String, "## Lime calculation", file: file, line: line)
        XCTAssertEqual(json["renameLinking"] as? [String], linking, file: file, line: line)
        XCTAssertEqual(json["renamedHeading"] as? String, "## Liming", context, file: file, line: line)
        XCTAssertEqual(json["renamedHeadingOnDisk"] as? [String], ["soil-tests.md"], context, file: file, line: line)
        XCTAssertEqual(json["renamedOnDisk"] as? [String], linking, "every linking note links to the new heading\n\(context)", file: file, line: line)
        XCTAssertEqual(json["renameLeftover"] as? [String], [], "no link to the old heading is left", file: file, line: line)
        for note in linking {
            let text = try String(contentsOf: notebook.appendingPathComponent(note), encoding: .utf8)
            XCTAssertTrue(text.contains("[[soil-tests#Liming"), "\(note) links to the new heading", file: file, line: line)
        }

        // Create note on `[[greenhouse]]`: the code action's workspace edit creates the file and
        // writes its title; saved, the link is no longer broken.
        XCTAssertEqual(json["createExistedBefore"] as? Bool, false, file: file, line: line)
        XCTAssertEqual(json["createExists"] as? Bool, true, "the CreateFile of the workspace edit\n\(context)", file: file, line: line)
        XCTAssertEqual(json["createdText"] as? String, "# greenhouse\n\n", "the note's buffer holds its title\n\(context)", file: file, line: line)
        XCTAssertEqual(json["createdOnDisk"] as? String, "# greenhouse\n\n", "saved without a question", file: file, line: line)
        XCTAssertEqual(try String(contentsOf: notebook.appendingPathComponent("greenhouse.md"), encoding: .utf8), "# greenhouse\n\n",
                       file: file, line: line)
        XCTAssertEqual(json["createResolved"] as? Bool, true, "the broken-wikilink diagnostic went\n\(context)", file: file, line: line)
        // `macmd-unlinked-mentions` on compost.md: xref lists the four places, with their lines.
        let mentions = json["mentions"] as? String ?? ""
        for place in ["companion-planting.md", "45: - The autumn compost recipe", "index.md", "44: - [x] Build the third compost bay",
                      "pests-and-diseases.md", "13: > survive a cool heap and come back with the compost."] {
            XCTAssertTrue(mentions.contains(place), "xref lists \(place): \(mentions)\n\(context)", file: file, line: line)
        }
        // `macmd-search`: xref lists the phrase's note with its excerpt; visiting it lands on the
        // match (its UTF-16 column after `°`).
        let search = json["search"] as? String ?? ""
        XCTAssertTrue(search.contains("compost.md") && search.contains("kill most weed seeds"), "xref lists the hit: \(search)\n\(context)",
                      file: file, line: line)
        XCTAssertEqual(json["searchLanded"] as? String, "weed seeds", "the hit's place\n\(context)", file: file, line: line)
        let asked = json["asked"] as? [String] ?? []
        XCTAssertFalse(asked.contains { $0.contains("changed since visited") || $0.contains("Save anyway") },
                       "saving the created note asks nothing: \(asked)", file: file, line: line)
    }

    /// eglot on a note with deliberate problems (Fixtures/notebook/open-questions.md): flymake
    /// shows the server's diagnostics, cross-note ones included, with their codes; C-M-i
    /// completes `[[Soil`; hover, definition, `eglot-rename` and Create note work — the last
    /// because macmd.el tells the server that eglot 1.9 can create files, and creates them.
    func testEglotUsesTheServersFeatures() throws {
        let work = try Neovim.workFolder("eglot")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try Neovim.copyNotebook(into: work)
        let (json, context) = try Self.run("eglot-notebook.el", in: work, environment: [
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path,
        ])
        XCTAssertEqual(json["server"] as? String, "macmd", context)
        let diagnostics = (json["diagnostics"] as? [[Any]] ?? []).map { row in
            "\(row[0]) \(row[1]) \(row[2])"
        }
        XCTAssertEqual(diagnostics, [
            "12 eglot-error macmd [broken-wikilink]: No note `greenhouse` for `[[greenhouse]]`",
            "13 eglot-error macmd [broken-heading]: No heading `Hot composting` in `compost.md`",
            "14 eglot-warning macmd [undefined-reference]: No link definition for `[soil-ph]`",
            "17 eglot-note macmd [unused-definition]: `[soil]` is never used",
        ], context)
        XCTAssertEqual(json["capabilityResourceOperations"] as? [String], ["create", "rename", "delete"],
                       "macmd-eglot-server announces file operations in workspace edits")
        try checkFeatures(json, notebook: notebook, client: "eglot", context: context)
        print("EditorTests: Emacs \(json["emacs"] ?? "?") with eglot showed \(diagnostics.count) flymake diagnostics, completed, "
              + "hovered, went to a definition, renamed a heading and created a note through macmd")
    }

    /// lsp-mode on the same note: macmd.el's client (priority 1, utf-32 positions) is the only
    /// server lsp-mode starts (lsp-markdown's `unified` is not), at the notebook's root; flymake
    /// shows the four diagnostics; completion, hover, definition, `lsp-rename`, Create note (in
    /// order: the file, then its title) and `macmd-preview` work.
    func testLSPModeUsesTheServersFeatures() throws {
        let work = try Neovim.workFolder("lsp-mode")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try Neovim.copyNotebook(into: work)
        let (json, context) = try Self.run("lsp-mode-notebook.el", in: work, packages: ["lsp-mode", "markdown-mode"], environment: [
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path,
        ])
        XCTAssertEqual(json["workspaces"] as? [String], ["macmd"], "lsp-mode runs macmd alone\n\(context)")
        XCTAssertEqual(json["positionEncoding"] as? String, "utf-32", "lsp-mode counts code points, and says so")
        XCTAssertEqual(json["root"] as? String, notebook.path, "the notebook's .macmd.json marks its root")
        let diagnostics = (json["diagnostics"] as? [[Any]] ?? []).map { row in
            "\(row[0]) \(row[1]) \(row[2])"
        }
        XCTAssertEqual(diagnostics, [
            "12 :error No note `greenhouse` for `[[greenhouse]]`",
            "13 :error No heading `Hot composting` in `compost.md`",
            "14 :warning No link definition for `[soil-ph]`",
            "17 :note `[soil]` is never used",
        ], context)
        try checkFeatures(json, notebook: notebook, client: "lsp", context: context)

        // macmd-preview through lsp-mode: the page in the cache, opened at the heading above point.
        let page = try XCTUnwrap(json["previewPage"] as? String, context)
        XCTAssertTrue(page.hasPrefix(work.appendingPathComponent("cache/macmd/preview/open-questions-").path), page)
        XCTAssertEqual(json["previewWritten"] as? Bool, true)
        XCTAssertEqual(json["previewOpened"] as? String, URL(fileURLWithPath: page).absoluteString + "#open-questions", context)
        // A code lens, resolved and run: its count, and its places in xref's list.
        XCTAssertEqual(json["lensTitle"] as? String, "2 backlinks", context)
        let places = json["lensPlaces"] as? String ?? ""
        XCTAssertTrue(places.contains("2026-04-12.md") && places.contains("pests-and-diseases.md")
                      && places.contains("[[soil-tests#pH readings]]"), "xref lists the two links: \(places)\n\(context)")
        print("EditorTests: Emacs \(json["emacs"] ?? "?") with lsp-mode showed \(diagnostics.count) flymake diagnostics, completed, "
              + "hovered, went to a definition, renamed a heading, created a note and previewed through macmd")
    }

    /// `package-install-file` accepts macmd.el (its headers: version, dependencies on Emacs and
    /// markdown-mode, which Debian's elpa package satisfies; neither client is required) into a
    /// fresh package folder; the installed package loads, autoloads `macmd-preview` (and
    /// `macmd-unlinked-mentions`), loads no
    /// client, and registers with eglot and lsp-mode once they load.
    func testPackageInstallFileAcceptsMacmdEl() throws {
        let work = try Neovim.workFolder("package")
        defer { try? FileManager.default.removeItem(at: work) }
        let (json, context) = try Self.run("package-install.el", in: work, packages: ["markdown-mode"], environment: [
            "MACMD_TEST_PACKAGES": work.appendingPathComponent("elpa").path,
        ])
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
        XCTAssertEqual(json["name"] as? String, "macmd")
        XCTAssertEqual(json["version"] as? String, "0.1.0")
        XCTAssertEqual(json["requires"] as? [String], ["emacs", "markdown-mode"])
        XCTAssertEqual(json["installed"] as? Bool, true, "package-install-file installed it\n\(context)")
        XCTAssertEqual(json["autoloaded"] as? Bool, true, "macmd-preview is autoloaded\n\(context)")
        XCTAssertEqual(json["mentionsAutoloaded"] as? Bool, true, "macmd-unlinked-mentions is autoloaded\n\(context)")
        XCTAssertEqual(json["searchAutoloaded"] as? Bool, true, "macmd-search is autoloaded\n\(context)")
        XCTAssertEqual(json["loaded"] as? Bool, true, "the installed package loads\n\(context)")
        XCTAssertEqual(json["clientsLoadedByMacmd"] as? [String], [], "loading macmd.el loads neither eglot nor lsp-mode")
        let emacs = try Self.emacs(with: ["markdown-mode"])
        if EmacsPackages.has("eglot", emacs: emacs) {
            XCTAssertEqual(json["eglotRegistered"] as? Bool, true, "eglot finds macmd for markdown-mode and gfm-mode\n\(context)")
        }
        if EmacsPackages.has("lsp-mode", emacs: emacs) {
            XCTAssertEqual(json["lspModeRegistered"] as? Bool, true, "lsp-mode has the macmd client\n\(context)")
        }
    }

    /// `macmd-preview` serves the notebook from Emacs (`macmd-preview-server`), with either
    /// client, and a reader in a real browser (headless Chromium) follows a note link and a tag
    /// chip (`PreviewPage.browseServed` says all it checks).
    func testServedPreviewFollowsLinksAndTags() throws {
        for (client, package) in [("emacs-eglot", "eglot"), ("emacs-lsp-mode", "lsp-mode")] {
            let emacs = try Self.emacs(with: [package, "markdown-mode"])
            let work = try Neovim.workFolder("served-\(client)")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try PreviewPage.copyNotebook(into: work)
            try PreviewPage.browseServed([emacs, "--batch", "-Q", "-l", TestPaths.fixtures.appendingPathComponent("editors/preview-server.el").path],
                                         environment: ["MACMD_TEST_CLIENT": client,
                                                       "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/emacs").path],
                                         in: work, notebook: notebook)
            print("EditorTests: Emacs with \(package) served the preview; a browser followed a note link and a tag chip")
        }
    }

    /// `macmd-preview` on a note of a notebook whose folder has a space and an accent: the page is
    /// written to the XDG cache folder, opens at the heading above point, and its image and link
    /// URLs are absolute `file:` URLs of files that exist.
    func testMacmdPreviewWritesTheCacheAndAbsoluteURLs() throws {
        let work = try Neovim.workFolder("emacs")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try PreviewPage.copyNotebook(into: work)
        let (json, context) = try Self.run("preview-resources.el", in: work, environment: [
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("journal/2026-04-12.md").path,
        ])
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")

        let cache = work.appendingPathComponent("cache/macmd/preview").path
        XCTAssertEqual(json["cache"] as? String, cache + "/")
        XCTAssertEqual(json["root"] as? String, notebook.path + "/", "the notebook's .macmd.json marks its root")
        let pagePath = try XCTUnwrap(json["pagePath"] as? String, context)
        XCTAssertTrue(pagePath.hasPrefix(cache + "/2026-04-12-") && pagePath.hasSuffix(".html"), pagePath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pagePath), "the page outlives Emacs")
        let page = URL(fileURLWithPath: pagePath).absoluteString
        XCTAssertEqual(json["opened"] as? [String], [page + "#also-today", page, page + "#saturday-12-april-2026-soil-day"], context)
        XCTAssertEqual(json["returnedAtOnce"] as? Bool, true, "macmd-preview returns before the server answers (an async request)")
        let html = try XCTUnwrap(json["page"] as? String)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"), html)
        let urls = try PreviewPage.checkURLs(of: html, notebook: notebook, context: context)
        XCTAssertTrue(html.contains(#"<div class="embed" data-source="soil-tests.md#ph-readings""#), "the embedded section is shown")
        XCTAssertEqual(json["embedRefreshed"] as? Bool, true, "saving the embedded note renders the page again\n\(context)")
        print("EditorTests: Emacs \(json["emacs"] ?? "?") wrote the preview to \(pagePath) with \(urls.count) absolute URLs")
    }

    // MARK: In a terminal

    /// Emacs 28 cannot draw flymake's wavy underline in a terminal, where errors would be colored
    /// text only: in `emacs -nw` (tmux, TERM=tmux-256color) the broken link's `greenhouse` is
    /// underlined (SGR 4 in `tmux capture-pane -e`) and the rest of its line is not; with point
    /// on it, eldoc shows the diagnostic's text in the echo area, the hover text too.
    func testFlymakeErrorsAreUnderlinedInATerminalWithEglot() throws {
        try checkTerminalDiagnostics(client: "emacs-eglot", package: "eglot")
    }

    func testFlymakeErrorsAreUnderlinedInATerminalWithLSPMode() throws {
        try checkTerminalDiagnostics(client: "emacs-lsp-mode", package: "lsp-mode")
    }

    func checkTerminalDiagnostics(client: String, package: String) throws {
        let emacs = try Self.emacs(with: [package, "markdown-mode"])
        _ = try Terminal.tmux()
        let work = try Neovim.workFolder("tty-\(client)")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try Neovim.copyNotebook(into: work)
        let out = work.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let serverLog = work.appendingPathComponent("server.log")
        let script = TestPaths.fixtures.appendingPathComponent("editors/tty-diagnostics.el").path
        let terminal = try Terminal([emacs, "-nw", "-Q", "-l", script], environment: TestProcess.isolatedHome(in: work).merging([
            "MACMD_TEST_CLIENT": client,
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/emacs").path,
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path,
            "MACMD_TEST_OUT": out.path,
            "MACMD_TEST_SERVER_LOG": serverLog.path,
        ]) { _, new in new }, in: work)
        defer { terminal.close() }
        func file(_ name: String) -> URL { out.appendingPathComponent(name) }
        func context() -> String {
            let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? "(no server log)"
            let error = (try? String(contentsOf: file("error.txt"), encoding: .utf8)).map { "error.txt: \($0)\n" } ?? ""
            return "\(error)screen:\n\(terminal.screen(escapes: false))\nserver log (end):\n\(log.suffix(2000))"
        }
        let ready = Terminal.wait(timeout: 60, every: 0.1) {
            FileManager.default.fileExists(atPath: file("ready").path) || FileManager.default.fileExists(atPath: file("error.txt").path)
        }
        guard ready, let data = FileManager.default.contents(atPath: file("ready").path) else {
            return XCTFail("\(client): no diagnostics in the terminal within 60 s\n\(context())")
        }
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        XCTAssertEqual(report["waveUnderline"] as? Bool, false, "Emacs 28 draws no wavy underline in a terminal")
        XCTAssertEqual((report["diagnostics"] as? [Any])?.count, 4, "\(report)")

        // Redisplay has drawn the diagnostics once the report is written; give the terminal a moment.
        var line: [(Character, Bool)] = []
        let underlined = Terminal.wait(timeout: 5, every: 0.2) {
            line = Self.cells(of: terminal.screen(escapes: true), lineContaining: "Should the [[greenhouse]]") ?? []
            return Self.underlined("greenhouse", in: line) == true
        }
        XCTAssertTrue(underlined, "\(client): the broken link is not underlined in the terminal: "
                      + line.map { $0.1 ? "_\($0.0)" : String($0.0) }.joined() + "\n\(context())")
        XCTAssertEqual(Self.underlined("Should", in: line), false, "the rest of the line is plain")

        // Point onto the link, as a writer moves it: eldoc shows the diagnostic at point.
        try terminal.press(["F12"], pause: 0)
        let shown = Terminal.wait(timeout: 10, every: 0.2) {
            terminal.screen(escapes: false).split(separator: "\n").suffix(4)
                .contains { $0.contains("No note `greenhouse` for `[[greenhouse]]`") }
        }
        XCTAssertTrue(shown, "\(client): eldoc shows no diagnostic at point\n\(context())")
        try? terminal.press(["F11"], pause: 0)
        print("EditorTests: emacs -nw with \(package) underlines flymake's errors in a terminal and eldoc shows the diagnostic at point")
    }

    /// The characters of the first line of a `capture-pane -e` screen containing `needle` (in its
    /// text), each with whether it is underlined (SGR 4, until 0 or 24).
    static func cells(of screen: String, lineContaining needle: String) -> [(Character, Bool)]? {
        for raw in screen.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [(Character, Bool)] = []
            var underline = false
            let characters = Array(raw)
            var index = 0
            while index < characters.count {
                let character = characters[index]
                if character == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "[" {
                    var end = index + 2
                    while end < characters.count, !(characters[end].isLetter) { end += 1 }
                    if end < characters.count, characters[end] == "m" {
                        underline = Self.underline(after: String(characters[(index + 2)..<end]), was: underline)
                    }
                    index = end + 1
                    continue
                }
                cells.append((character, underline))
                index += 1
            }
            if String(cells.map(\.0)).contains(needle) { return cells }
        }
        return nil
    }

    /// The underline state after the SGR parameters `parameters` ("1;4", "0", "38;5;218").
    static func underline(after parameters: String, was: Bool) -> Bool {
        var state = was
        let codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < codes.count {
            let code = codes[index]
            let main = code.split(separator: ":").first.map(String.init) ?? ""
            switch main {
            case "", "0": state = false
            case "4": state = code != "4:0"
            case "24": state = false
            // Colors: 38/48/58;5;n or ;2;r;g;b — their numbers are no attributes.
            case "38", "48", "58":
                if !code.contains(":"), index + 1 < codes.count {
                    index += codes[index + 1] == "5" ? 2 : (codes[index + 1] == "2" ? 4 : 0)
                }
            default: break
            }
            index += 1
        }
        return state
    }

    /// Whether every character of the first `word` in `cells` is underlined; nil when absent.
    static func underlined(_ word: String, in cells: [(Character, Bool)]) -> Bool? {
        let text = Array(cells.map(\.0))
        let target = Array(word)
        guard target.count <= text.count else { return nil }
        for start in 0...(text.count - target.count) where Array(text[start..<(start + target.count)]) == target {
            return cells[start..<(start + target.count)].allSatisfy(\.1)
        }
        return nil
    }
}

