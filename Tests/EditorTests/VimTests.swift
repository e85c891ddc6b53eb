// Vim with ALE drives the built server through our Vim setup (editors/vim): in a terminal of its
// own (tmux), Vim runs Fixtures/editors/vim-features.vim on a copy of the sample notebook, which
// uses the features as a writer does (ALE's diagnostics, hover, go to definition, references and
// rename; the setup's completion, :MacMDCreateNote, :MacMDFormat and :MacMDPreview) and writes a
// JSON report that this test checks. The typing help is TypingSuiteTests' (client `vim-ale`).
//
// Invariants: a missing Vim, ALE or tmux is a skip that says how to install it (a failure with
// `MACMD_REQUIRE_CLIENTS=1`); Vim sees no user configuration (`-u` the script, `--noplugin`,
// `-i NONE`, HOME and the XDG folders in the test's folder); every wait in the script has a
// deadline and the test waits for the report at most 180 s.

import Foundation
import TestSupport
import XCTest

final class VimTests: XCTestCase {
    static let install = "apt-get install -y vim vim-ale tmux"

    /// How long the test waits for the report (the script gives up after 150 s on its own).
    static let timeout: TimeInterval = 180

    /// Vim and ALE, or a skip saying how to get them.
    static func vim() throws -> String {
        let vim = try Clients.require("vim", install: install)
        guard FileManager.default.fileExists(atPath: TypingClient.ale + "/autoload/ale.vim") else {
            throw Clients.missing("ALE (\(TypingClient.ale))", install: install)
        }
        _ = try Terminal.tmux()
        return vim
    }

    /// The 1-based number of the first line of a fixture note equal to `text`.
    static func line(_ text: String, of note: String) throws -> Int {
        let source = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("notebook/\(note)"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try XCTUnwrap(lines.firstIndex { $0 == text }, "\(note) has a line `\(text)`")
        return index + 1
    }


    func testVimWithALEUsesTheServersFeatures() throws {
        let vim = try Self.vim()
        let work = try Neovim.workFolder("vim")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try Neovim.copyNotebook(into: work)
        let report = work.appendingPathComponent("report.json")
        let serverLog = work.appendingPathComponent("server.log")
        let cache = work.appendingPathComponent("cache")
        let script = TestPaths.fixtures.appendingPathComponent("editors/vim-features.vim").path
        let terminal = try Terminal([vim, "-N", "-u", script, "-i", "NONE", "--noplugin"], environment: TestProcess.isolatedHome(in: work).merging([
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/vim").path,
            "MACMD_TEST_NOTEBOOK": notebook.path,
            "MACMD_TEST_REPORT": report.path,
            "MACMD_TEST_SERVER_LOG": serverLog.path,
            "MACMD_ALE": TypingClient.ale,
        ]) { $1 }, in: work)
        defer { terminal.close() }

        let finished = Terminal.wait(timeout: Self.timeout, every: 0.2) {
            FileManager.default.fileExists(atPath: report.path)
        }
        let screen = terminal.screen()
        let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? "(no server log)"
        let context = "screen:\n\(screen)\nserver log (end):\n\(log.suffix(3000))"
        XCTAssertTrue(finished, "vim-features.vim wrote no report within \(Int(Self.timeout)) s\n\(context)")
        guard finished else { return }
        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                 "the report is not a JSON object: \(String(decoding: data, as: UTF8.self))")
        let messages = (json["messages"] as? [String] ?? []).joined(separator: "\n")
        let details = "\(context)\nVim's messages:\n\(messages)"
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(details)")
        XCTAssertEqual(json["errors"] as? [String: String] ?? ["report": "no errors"], [:], details)
        XCTAssertEqual(json["steps"] as? [String], ["diagnostics", "completion", "definition", "references", "hover",
                                                    "rename", "createNote", "format", "preview"], details)
        // Vim printed no error (E123: …) and stopped at no prompt.
        XCTAssertNil(messages.range(of: #"(^|\n)(E\d+:|Error detected)"#, options: .regularExpression), details)

        // The setup: ALE's `macmd` linter runs the server, the buffer completes with macmd#Complete
        // and the typing keys are mapped.
        XCTAssertEqual(json["server"] as? String, "macmd", details)
        XCTAssertEqual(json["omnifunc"] as? String, "macmd#Complete", "Markdown's HTML completion is replaced")
        XCTAssertEqual(json["typingMaps"] as? Bool, true, "<CR> is the setup's in Insert mode")

        // Diagnostics: what `macmd check` reports for the note, cross-note ones included, in ALE's
        // loclist (ALE 3.3 shows hints as warnings).
        let diagnostics = (json["diagnostics"] as? [[Any]] ?? []).map { row in row.map { "\($0)" }.joined(separator: " ") }
        XCTAssertEqual(diagnostics, [
            "12 E broken-wikilink No note `greenhouse` for `[[greenhouse]]`",
            "13 E broken-heading No heading `Hot composting` in `compost.md`",
            "14 W undefined-reference No link definition for `[soil-ph]`",
            "17 W unused-definition `[soil]` is never used",
        ], details)

        // Completion: the note's title is the first item after `[[Soil`; accepting it writes the
        // item's textEdit.
        XCTAssertEqual((json["candidates"] as? [String])?.first, "Soil tests", details)
        XCTAssertEqual(json["completed"] as? String, "Read [[soil-tests]]", details)

        // Go to definition lands on the note's title heading.
        let definition = try XCTUnwrap(json["definition"] as? [String: Any], details)
        XCTAssertEqual(definition["file"] as? String, "soil-tests.md")
        XCTAssertEqual(definition["line"] as? Int, try Self.line("# Soil tests", of: "soil-tests.md"))
        XCTAssertEqual(definition["text"] as? String, "# Soil tests")

        // References to the note include every note that links to it.
        let referencing = Set((json["references"] as? [String] ?? []).compactMap { $0.split(separator: ":").first.map(String.init) })
        let linking = SampleNotebook.notes(containing: "[[soil-tests")
        XCTAssertFalse(linking.isEmpty)
        for note in linking { XCTAssertTrue(referencing.contains(note), "no reference in \(note): \(referencing.sorted())\n\(details)") }

        // Hover on a wiki-link shows the target's opening lines.
        let hover = (json["hover"] as? [String] ?? []).joined(separator: "\n")
        XCTAssertTrue(hover.contains("Tomato varieties"), hover)
        XCTAssertTrue(hover.contains("Eight varieties in bed D"), "the target's first paragraph: \(hover)")

        // Rename of a heading other notes link to: the heading and every link, on disk after :wall.
        let linkingHeading = SampleNotebook.notes(containing: "soil-tests#Lime calculation")
        XCTAssertEqual(json["renameFrom"] as? String, "## Lime calculation")
        XCTAssertEqual(json["renameLinking"] as? [String], linkingHeading)
        XCTAssertEqual(json["renamedOnDisk"] as? [String], (linkingHeading + ["soil-tests.md"]).sorted(), details)
        XCTAssertEqual(json["renameLeftover"] as? [String], [], "no link to the old heading is left")
        for note in linkingHeading {
            let text = try String(contentsOf: notebook.appendingPathComponent(note), encoding: .utf8)
            XCTAssertTrue(text.contains("[[soil-tests#Liming"), "\(note) links to the new heading")
        }

        // :MacMDCreateNote writes the note the broken link names, opens it, and the link is no
        // longer broken.
        XCTAssertEqual(json["createExistedBefore"] as? Bool, false)
        XCTAssertEqual(json["createdBuffer"] as? String, "greenhouse.md", details)
        XCTAssertEqual(json["createdText"] as? [String], ["# greenhouse", "", ""], "`# greenhouse` and an empty line")
        XCTAssertEqual(try String(contentsOf: notebook.appendingPathComponent("greenhouse.md"), encoding: .utf8), "# greenhouse\n\n")
        XCTAssertEqual(json["createResolved"] as? Bool, true, "the broken-wikilink diagnostic went\n\(details)")

        // :MacMDFormat aligns the table by display width.
        XCTAssertEqual(json["formatted"] as? [String], ["Intro", "", "| a         |   b |", "| :-------- | --: |", "| long cell |   x |"])

        // :MacMDPreview writes the page to the XDG cache, opens it once at the heading above the
        // cursor, and a write renders it again without opening it again.
        let pagePath = try XCTUnwrap(json["pagePath"] as? String, details)
        XCTAssertTrue(pagePath.hasPrefix(cache.path + "/macmd/preview/open-questions-") && pagePath.hasSuffix(".html"), pagePath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pagePath), "the page outlives Vim")
        XCTAssertEqual(json["opened"] as? [String], [URL(fileURLWithPath: pagePath).absoluteString + "#open-questions"], details)
        XCTAssertTrue((json["pageStart"] as? String ?? "").hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(json["rerendered"] as? Bool, true, "BufWritePost rendered the page again\n\(details)")
        XCTAssertEqual(json["openedAfterWrite"] as? Int, 1, "a write does not open the browser again")

        print("EditorTests: Vim \(json["vim"] ?? "?") with ALE showed \(diagnostics.count) diagnostics, completed, hovered, "
              + "went to a definition, found \(referencing.count) referencing notes, renamed a heading in "
              + "\(linkingHeading.count + 1) notes, created a note, aligned a table and previewed through macmd")
    }
}
