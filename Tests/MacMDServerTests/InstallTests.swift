import Foundation
import TestSupport
import XCTest

/// `macmd --version`, and the scripts that install and pack the binary: `Scripts/install.sh`
/// and `Scripts/package.sh`, run on the test build's binary (neither builds in a test).
final class InstallTests: XCTestCase {
    /// A fresh folder, removed when the test ends.
    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The commit in `macmd X.Y.Z (commit C)`, nil when the line has another shape.
    func commit(inVersionLine line: String) throws -> Substring? {
        let pattern = try Regex(#"macmd [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7,40}|unknown)\)\n"#)
        return try pattern.wholeMatch(in: line)?.output[1].substring
    }

    func testVersionNamesTheCommit() throws {
        let result = try TestProcess.macmd(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let commit = try XCTUnwrap(try commit(inVersionLine: result.stdout), "not `macmd X.Y.Z (commit C)`: \(result.stdout)")
        XCTAssertEqual(try TestProcess.macmd(["-V"]).stdout, result.stdout)
        // Built from this checkout (not a binary named by MACMD_BIN): the commit is its HEAD.
        let root = TestPaths.packageRoot
        guard ProcessInfo.processInfo.environment["MACMD_BIN"] ?? "" == "",
              FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path),
              let head = try? TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["git", "rev-parse", "HEAD"], in: root, timeout: 30),
              head.status == 0 else { return }
        XCTAssertTrue(head.stdout.hasPrefix(commit), "the binary says commit \(commit); HEAD is \(head.stdout)")
    }

    func testInstallScriptInstallsTheBinaryAndTheNeovimPlugin() throws {
        let folder = try temporaryFolder()
        let prefix = folder.appendingPathComponent("prefix"), data = folder.appendingPathComponent("data")
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/install.sh")
        let environment = ["MACMD_BIN": try MacmdBinary.url().path, "XDG_DATA_HOME": data.path]
        for run in 1...2 {  // A second run installs over the first.
            let result = try TestProcess.run(script, ["--no-build", "--nvim", prefix.path], environment: environment, timeout: 60)
            XCTAssertEqual(result.status, 0, "run \(run): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains("Installed \(prefix.path)/bin/macmd (macmd "), result.stdout)
            XCTAssertTrue(result.stdout.contains("\(prefix.path)/bin is not on PATH"), "the hint: \(result.stdout)")
        }
        let installed = try TestProcess.run(prefix.appendingPathComponent("bin/macmd"), ["--version"])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        XCTAssertNotNil(try commit(inVersionLine: installed.stdout), installed.stdout)
        let plugin = data.appendingPathComponent("nvim/site/pack/macmd/start/macmd")
        for file in ["lua/macmd/init.lua", "lsp/macmd.lua", "README.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: plugin.appendingPathComponent(file).path), "no \(file) in \(plugin.path)")
        }

        let help = try TestProcess.run(script, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("usage: Scripts/install.sh"), help.stdout)
        let wrong = try TestProcess.run(script, ["--bogus"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("unknown option '--bogus'"), wrong.stderr)
    }

    func testPackageScriptPacksTheRelease() throws {
        let folder = try temporaryFolder()
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/package.sh")
        let result = try TestProcess.run(script, ["--binary", try MacmdBinary.url().path, "--output", folder.path], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let archives = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tar.gz") }
        XCTAssertEqual(archives.count, 1, "\(archives)")
        let archive = try XCTUnwrap(archives.first)
        let name = String(archive.dropLast(".tar.gz".count))
        XCTAssertNotNil(try Regex(#"macmd-[0-9]+\.[0-9]+\.[0-9]+-(linux|macos)-(x86_64|arm64)"#).wholeMatch(in: name), name)
        let listing = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["tar", "-tzf", folder.appendingPathComponent(archive).path])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let entries = Set(listing.stdout.split(separator: "\n").map { String($0) })
        for entry in ["bin/macmd", "Scripts/install.sh", "LICENSE", "README.md", "docs/syntax.md",
                      "editors/nvim/lua/macmd/init.lua", "editors/emacs/macmd.el", "editors/helix/languages.toml",
                      "editors/vscode/package.json"] {
            XCTAssertTrue(entries.contains("\(name)/\(entry)"), "no \(name)/\(entry) in the archive")
        }
        XCTAssertTrue(entries.allSatisfy { $0.hasPrefix(name + "/") }, "everything in one folder")
    }
}
