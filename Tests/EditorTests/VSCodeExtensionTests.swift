// The VS Code extension runs in Node with a fake `vscode` module (editors/vscode/test): there is
// no VS Code on the machines that run the tests, but the extension's code, its webview script
// and its talk with the real `macmd lsp` are checked all the same.
//
// Invariants: a missing `node` is a skip that says how to install it (a failure under
// `MACMD_REQUIRE_CLIENTS=1`, which `.ci/run` sets after installing Debian's nodejs). Node runs
// with a 120 s limit and is killed after it.

import Foundation
import TestSupport
import XCTest

final class VSCodeExtensionTests: XCTestCase {
    func testExtensionInNodeWithAFakeVSCode() throws {
        guard let node = Clients.which("node") ?? Clients.which("nodejs") else {
            throw Clients.missing("Node (the VS Code extension's tests run in it)", install: "apt-get install -y nodejs")
        }
        let work = try Neovim.workFolder("vscode")
        defer { try? FileManager.default.removeItem(at: work) }
        // The sample notebook in a folder with a space and an accent, with a theme of its own
        // (the extension must let it apply when the user set none).
        let notebook = try PreviewPage.copyNotebook(into: work)
        let settings = notebook.appendingPathComponent(".macmd.json")
        let original = try String(contentsOf: settings, encoding: .utf8)
        XCTAssertTrue(original.contains(#""theme": "light""#))
        try original.replacingOccurrences(of: #""theme": "light""#, with: #""theme": "ocean""#).write(to: settings, atomically: true, encoding: .utf8)

        let folder = TestPaths.packageRoot.appendingPathComponent("editors/vscode")
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [node, "test/extension.test.js"], environment: [
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_NOTEBOOK": notebook.path,
        ], in: folder, timeout: 120)
        let output = result.stdout + result.stderr
        XCTAssertEqual(result.status, 0, "node test/extension.test.js failed:\n\(output)")
        XCTAssertTrue(output.contains("# fail 0") && output.contains("# skipped 0"), output)
        let passed = output.split(separator: "\n").first { $0.hasPrefix("# pass ") }?.dropFirst("# pass ".count) ?? "?"
        print("EditorTests: the VS Code extension in Node (\(node)): \(passed) node tests passed")
    }
}
