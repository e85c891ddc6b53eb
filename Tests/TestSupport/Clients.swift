// The programs some tests drive (editors, a browser, Node, tmux) and what a test does when one
// is missing.
//
// Invariant: a test whose program is absent is skipped (XCTSkip) with the command that installs
// it, so `swift test` on a machine with only the Swift toolchain passes and says what it skipped;
// with `MACMD_REQUIRE_CLIENTS=1` (which `.ci/run` sets after installing them) an absent program
// fails the test instead, so CI never passes by skipping.

import Foundation
import XCTest

public enum Clients {
    /// Whether absent programs fail the tests that need them (`MACMD_REQUIRE_CLIENTS=1`).
    public static var areRequired: Bool {
        ["1", "yes", "true"].contains(ProcessInfo.processInfo.environment["MACMD_REQUIRE_CLIENTS"]?.lowercased() ?? "")
    }

    /// The error for a missing program: a skip saying `what` and how to install it, or, when
    /// clients are required, a failure saying the same.
    public static func missing(_ what: String, install: String) -> Error {
        let text = "\(what) is not installed; install it with `\(install)` (`.ci/run` does)"
        if areRequired { return TestSupportError(text + " — MACMD_REQUIRE_CLIENTS=1, so this fails") }
        return XCTSkip("skipped: " + text)
    }

    /// The executable `command` on `PATH`, or nil.
    public static func which(_ command: String) -> String? {
        if command.contains("/") { return FileManager.default.isExecutableFile(atPath: command) ? command : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(command)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The executable `command` on `PATH`; when it is not there, throws `missing(…)`.
    public static func require(_ command: String, what: String? = nil, install: String) throws -> String {
        guard let found = which(command) else { throw missing(what ?? command, install: install) }
        return found
    }
}
