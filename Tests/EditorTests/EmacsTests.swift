// A real Emacs drives the built server: `emacs --batch` loads our macmd.el (editors/emacs),
// eglot starts `macmd lsp`, flymake shows its diagnostics, eglot's completion-at-point completes
// a wiki-link, and `macmd-preview` writes its page; `package-install-file` installs macmd.el as
// a package. The scripts Emacs runs live in Fixtures/editors/*.el and write JSON reports that
// these tests check.
//
// Invariants: never skips: a missing Emacs (or eglot, markdown-mode) is a failure that says how
// to get it (`.ci/run` installs Debian's emacs-nox, elpa-eglot and elpa-markdown-mode). Emacs
// runs with `-Q` (no user or site configuration), HOME and XDG_CACHE_HOME in the test's folder,
// and is killed after 60 s.

import Foundation
import TestSupport
import XCTest

final class EmacsTests: XCTestCase {
    static let install = "apt-get install -y emacs-nox elpa-eglot elpa-markdown-mode"

    /// Runs `emacs --batch -Q -l Fixtures/editors/<script>` in `work` with the plugin and the
    /// built `macmd` in its environment, and returns the script's JSON report.
    static func run(_ script: String, in work: URL, environment: [String: String]) throws -> (json: [String: Any], context: String) {
        guard let emacs = Neovim.which("emacs") else {
            throw TestSupportError("emacs is not installed: the editor tests drive the server through a real Emacs and eglot. "
                                   + "`.ci/run` installs it; or run `\(install)`.")
        }
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
        if let error = json["error"] as? String, error.contains("eglot") || error.contains("markdown-mode") {
            XCTFail("eglot and markdown-mode come with Emacs 29+ (markdown-mode from ELPA), or from `\(install)`")
        }
        return (json, context)
    }

    /// eglot on a note with deliberate problems (Fixtures/notebook/open-questions.md): flymake
    /// shows the server's diagnostics, cross-note ones included, with their codes; eglot's
    /// completion-at-point offers the note `soil-tests.md` after `[[Soil`, and accepting it
    /// leaves the wiki-link the server's textEdit writes.
    func testEglotShowsDiagnosticsAndCompletesAWikiLink() throws {
        let work = try Neovim.workFolder("eglot")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try Neovim.copyNotebook(into: work)
        let (json, context) = try Self.run("eglot-notebook.el", in: work, environment: [
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("open-questions.md").path,
        ])
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
        XCTAssertEqual(json["server"] as? String, "macmd", context)
        XCTAssertEqual(json["flymake"] as? Bool, true, "eglot turns flymake on in the note")
        let diagnostics = (json["diagnostics"] as? [[Any]] ?? []).map { row in
            "\(row[0]) \(row[1]) \(row[2])"
        }
        XCTAssertEqual(diagnostics, [
            "12 eglot-error macmd [broken-wikilink]: No note `greenhouse` for `[[greenhouse]]`",
            "13 eglot-error macmd [broken-heading]: No heading `Hot composting` in `compost.md`",
            "14 eglot-warning macmd [undefined-reference]: No link definition for `[soil-ph]`",
            "17 eglot-note macmd [unused-definition]: `[soil]` is never used",
        ], context)
        XCTAssertEqual(json["candidates"] as? [String], ["Soil tests"], "the note's title is the label\n\(context)")
        XCTAssertEqual(json["completed"] as? String, "Read [[soil-tests]]", "the item's textEdit\n\(context)")
        print("EditorTests: Emacs \(json["emacs"] ?? "?") showed \(diagnostics.count) flymake diagnostics and completed a wiki-link through eglot")
    }

    /// `package-install-file` accepts macmd.el (its headers: version, dependencies on eglot and
    /// markdown-mode, which Debian's elpa packages satisfy) into a fresh package folder, and the
    /// installed package loads and autoloads `macmd-preview`.
    func testPackageInstallFileAcceptsMacmdEl() throws {
        let work = try Neovim.workFolder("package")
        defer { try? FileManager.default.removeItem(at: work) }
        let (json, context) = try Self.run("package-install.el", in: work, environment: [
            "MACMD_TEST_PACKAGES": work.appendingPathComponent("elpa").path,
        ])
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
        XCTAssertEqual(json["name"] as? String, "macmd")
        XCTAssertEqual(json["version"] as? String, "0.1.0")
        XCTAssertEqual(json["requires"] as? [String], ["emacs", "eglot", "markdown-mode"])
        XCTAssertEqual(json["installed"] as? Bool, true, "package-install-file installed it\n\(context)")
        XCTAssertEqual(json["autoloaded"] as? Bool, true, "macmd-preview is autoloaded\n\(context)")
        XCTAssertEqual(json["loaded"] as? Bool, true, "the installed package loads\n\(context)")
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
        print("EditorTests: Emacs \(json["emacs"] ?? "?") wrote the preview to \(pagePath) with \(urls.count) absolute URLs")
    }
}
