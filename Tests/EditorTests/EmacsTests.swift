// A real Emacs drives the built server: `emacs --batch` loads our macmd.el (editors/emacs),
// eglot starts `macmd lsp`, and `macmd-preview` writes its page. The script Emacs runs lives in
// Fixtures/editors/preview-resources.el and writes a JSON report that this test checks.
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

    /// `macmd-preview` on a note of a notebook whose folder has a space and an accent: the page is
    /// written to the XDG cache folder, opens at the heading above point, and its image and link
    /// URLs are absolute `file:` URLs of files that exist.
    func testMacmdPreviewWritesTheCacheAndAbsoluteURLs() throws {
        guard let emacs = Neovim.which("emacs") else {
            throw TestSupportError("emacs is not installed: the editor tests drive the server through a real Emacs and eglot. "
                                   + "`.ci/run` installs it; or run `\(Self.install)`.")
        }
        let work = try Neovim.workFolder("emacs")
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = try PreviewPage.copyNotebook(into: work)
        let report = work.appendingPathComponent("report.json")
        let script = TestPaths.fixtures.appendingPathComponent("editors/preview-resources.el").path
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [emacs, "--batch", "-Q", "-l", script], environment: [
            "MACMD_TEST_PLUGIN": TestPaths.packageRoot.appendingPathComponent("editors/emacs").path,
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("journal/2026-04-12.md").path,
            "MACMD_TEST_REPORT": report.path,
            "HOME": work.path,
            "XDG_CACHE_HOME": work.appendingPathComponent("cache").path,
        ], in: work, timeout: Neovim.timeout)
        let context = "\(emacs) preview-resources.el; output:\n\(result.stdout)\(result.stderr)"
        XCTAssertNotNil(result.status, "emacs did not finish within \(Int(Neovim.timeout)) s and was killed\n\(context)")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: report.path), "emacs wrote no report\n\(context)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        XCTAssertNil(json["error"], "\(json["error"] ?? "")\n\(context)")
        if (json["error"] as? String)?.contains("eglot") == true || (json["error"] as? String)?.contains("markdown-mode") == true {
            XCTFail("eglot and markdown-mode come with Emacs 29+, or from `\(Self.install)`")
        }

        let cache = work.appendingPathComponent("cache/macmd/preview").path
        XCTAssertEqual(json["cache"] as? String, cache + "/")
        XCTAssertEqual(json["root"] as? String, notebook.path + "/", "the notebook's .macmd.json marks its root")
        let pagePath = try XCTUnwrap(json["pagePath"] as? String, context)
        XCTAssertTrue(pagePath.hasPrefix(cache + "/2026-04-12-") && pagePath.hasSuffix(".html"), pagePath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pagePath), "the page outlives Emacs")
        let page = URL(fileURLWithPath: pagePath).absoluteString
        XCTAssertEqual(json["opened"] as? [String], [page + "#also-today", page, page + "#saturday-12-april-2026-soil-day"], context)
        let html = try XCTUnwrap(json["page"] as? String)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"), html)
        let urls = try PreviewPage.checkURLs(of: html, notebook: notebook, context: context)
        print("EditorTests: Emacs \(json["emacs"] ?? "?") wrote the preview to \(pagePath) with \(urls.count) absolute URLs")
    }
}
