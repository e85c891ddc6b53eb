// docs/editors.md's code samples are the setups' own: the Helix lines are those of
// editors/helix/languages.toml, the VS Code settings are the extension's configurationDefaults,
// each Lua sample compiles in Neovim and each Elisp sample's parentheses balance, and in a real
// Emacs the load-path sample loads macmd.el and the `.dir-locals.el` sample reads as one.

import Foundation
import TestSupport
import XCTest

final class EditorsDocTests: XCTestCase {
    static let doc = TestPaths.packageRoot.appendingPathComponent("docs/editors.md")

    /// The fenced code blocks of a Markdown text with the info string `language`.
    static func blocks(_ language: String, in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" { current = [] }
            else if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n")); current = nil }
            else if current != nil { current!.append(line) }
        }
        return blocks
    }

    func testHelixSampleIsTheSetupsLines() throws {
        let text = try String(contentsOf: Self.doc, encoding: .utf8)
        let sample = try XCTUnwrap(Self.blocks("toml", in: text).first)
        let setup = try EditorFilesTests.read("helix/languages.toml")
        let lines = setup.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        XCTAssertEqual(sample.split(separator: "\n").joined(separator: "\n"), lines)
        XCTAssertFalse(sample.contains("marksman\""), "no marksman in the default list")
    }

    func testVSCodeSampleIsTheExtensionsDefaults() throws {
        let text = try String(contentsOf: Self.doc, encoding: .utf8)
        let sample = try XCTUnwrap(Self.blocks("json", in: text).first)
        let documented = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sample.utf8)) as? [String: Any])
        let data = try Data(contentsOf: EditorFilesTests.editors.appendingPathComponent("vscode/package.json"))
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defaults = try XCTUnwrap((manifest["contributes"] as? [String: Any])?["configurationDefaults"] as? [String: Any])
        XCTAssertEqual(documented.count, 4)
        for (key, value) in documented {
            XCTAssertEqual("\(defaults[key] ?? "missing")", "\(value)", key)
        }
    }

    func testElispSamplesBalance() throws {
        let text = try String(contentsOf: Self.doc, encoding: .utf8)
        let samples = Self.blocks("elisp", in: text)
        XCTAssertEqual(samples.count, 3)
        for sample in samples { XCTAssertEqual(try EditorFilesTests.parenthesisBalance(sample), 0, sample) }
    }

    /// In `emacs --batch -Q`: the load-path sample (its placeholder path made this checkout's)
    /// loads macmd.el and hooks eglot to markdown-mode; the lsp-mode sample sets lsp-mode's
    /// variables and hooks `lsp`; the `.dir-locals.el` sample reads as an alist for markdown-mode
    /// whose eglot configuration is a `:macmd` plist.
    func testElispSamplesLoadInEmacs() throws {
        let emacs = try Clients.require("emacs", install: EmacsTests.install)
        let text = try String(contentsOf: Self.doc, encoding: .utf8)
        let samples = Self.blocks("elisp", in: text)
        XCTAssertEqual(samples.count, 3)
        guard samples.count == 3 else { return }
        let plugin = TestPaths.packageRoot.appendingPathComponent("editors/emacs").path
        let load = samples[0].replacingOccurrences(of: "/path/to/macmd/editors/emacs", with: plugin)
        XCTAssertNotEqual(load, samples[0], "the load-path sample names /path/to/macmd/editors/emacs")
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let script = """
        (require 'package)
        ;; What a user's Emacs has without -Q: Debian's elpa-eglot and elpa-markdown-mode.
        (unless (and (require 'eglot nil t) (require 'markdown-mode nil t))
          (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
          (package-initialize))
        (condition-case err
            (progn
              \(load)
              (unless (featurep 'macmd) (error "macmd is not loaded"))
              (unless (memq #'eglot-ensure markdown-mode-hook) (error "eglot-ensure is not on markdown-mode-hook"))
              (eval (car (read-from-string (concat "(progn " \(quoted(samples[1])) "\\n)"))) t)
              (unless (and (memq #'lsp markdown-mode-hook) (boundp 'lsp-auto-guess-root) lsp-auto-guess-root)
                (error "the lsp-mode sample does not hook lsp"))
              (let* ((locals (car (read-from-string \(quoted(samples[2])))))
                     (entry (assq 'markdown-mode locals))
                     (configuration (cdr (assq 'eglot-workspace-configuration (cdr entry)))))
                (unless (and entry (plist-get configuration :macmd)) (error "dir-locals sample: %S" locals)))
              (princ "samples ok\n"))
          (error (princ (format "sample failed: %S\n" err)) (kill-emacs 1)))
        """
        let work = try Neovim.workFolder("doc-elisp")
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("samples.el")
        try Data(script.utf8).write(to: file)
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [emacs, "--batch", "-Q", "-l", file.path],
                                         environment: ["HOME": work.path], in: work, timeout: Neovim.timeout)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("samples ok"), result.stdout + result.stderr)
    }

    /// The Lua samples of docs/editors.md and the plugin's README compile (`loadfile`) in
    /// Debian's Neovim.
    func testLuaSamplesCompile() throws {
        let nvim = try Clients.require("nvim", what: "Debian's Neovim", install: "apt-get install -y neovim")
        let work = try Neovim.workFolder("doc-lua")
        defer { try? FileManager.default.removeItem(at: work) }
        var files: [String] = []
        for source in [Self.doc, EditorFilesTests.editors.appendingPathComponent("nvim/README.md")] {
            for sample in Self.blocks("lua", in: try String(contentsOf: source, encoding: .utf8)) {
                let file = work.appendingPathComponent("sample\(files.count).lua")
                // The lazy.nvim spec is a table expression, not a chunk.
                let chunk = sample.hasPrefix("{") ? "return " + sample : sample
                try chunk.write(to: file, atomically: true, encoding: .utf8)
                files.append(file.path)
            }
        }
        XCTAssertGreaterThanOrEqual(files.count, 5)
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
            nvim, "--headless", "-u", "NONE", "-i", "NONE",
            "-c", "lua for _, f in ipairs(vim.split(os.getenv('MACMD_TEST_FILES'), ':')) do local ok, err = loadfile(f); if not ok then io.stderr:write(err .. '\\n'); vim.cmd('cq') end end",
            "-c", "qall!",
        ], environment: ["MACMD_TEST_FILES": files.joined(separator: ":")], in: work, timeout: 60)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }
}
