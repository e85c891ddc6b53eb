// A program in a terminal of its own, typed into key by key as a person types: a tmux session on
// a private server (`tmux -L`), so the tests never touch the developer's tmux and every key goes
// through the terminal the program reads, escape sequences and all.
//
// Invariants: every session is killed by `close()` (and its private server with it); a key is
// sent by one `tmux send-keys` and nothing waits in between but the pause the caller asks for.

import Foundation
import XCTest

public final class Terminal: @unchecked Sendable {
    /// The tmux executable, or a skip (a failure with `MACMD_REQUIRE_CLIENTS=1`) saying how to
    /// install it.
    public static func tmux() throws -> String {
        try Clients.require("tmux", install: "apt-get install -y tmux")
    }

    let tmux: String
    /// The private tmux server's socket name.
    let socket: String
    public let columns: Int
    public let rows: Int

    /// Starts `command` (its arguments, run directly) in a `columns`×`rows` terminal whose
    /// environment is the test's (in English, `TestProcess.childEnvironment`) with `TERM` for
    /// tmux and `environment` on top, in the folder `folder`.
    public init(_ command: [String], environment: [String: String] = [:], in folder: URL,
                columns: Int = 100, rows: Int = 30) throws {
        tmux = try Terminal.tmux()
        socket = "macmd-test-\(UUID().uuidString.prefix(8))"
        self.columns = columns
        self.rows = rows
        var variables = environment
        variables["TERM"] = variables["TERM"] ?? "tmux-256color"
        // `env` gives the program its environment: tmux passes its own only to the first session.
        let setting = TestProcess.childEnvironment(variables).filter { key, _ in
            // The test runner's own variables are of no use to an editor.
            !key.hasPrefix("XCTest") && !key.hasPrefix("SWIFT_")
        }.map { "\($0.key)=\($0.value)" }.sorted()
        let arguments = ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows),
                         "-c", folder.path, "--", "/usr/bin/env", "-i"] + setting + command
        let started = try TestProcess.spawn(tmux, arguments, timeout: 20)
        guard started.status == 0 else {
            throw TestSupportError("tmux did not start \(command.joined(separator: " ")): \(started.stderr)")
        }
        // Keep the pane when the program exits, so its last screen can still be read.
        _ = try? run(["set-option", "-g", "remain-on-exit", "on"])
    }

    /// Runs `tmux -L <socket> arguments…`.
    @discardableResult
    func run(_ arguments: [String]) throws -> TestProcess.Result {
        try TestProcess.spawn(tmux, ["-L", socket] + arguments, timeout: 20)
    }

    /// Types `text` as it is, each character a key of its own.
    public func type(_ text: String, pause: TimeInterval) throws {
        for character in text {
            try run(["send-keys", "-l", "--", String(character)])
            Thread.sleep(forTimeInterval: pause)
        }
    }

    /// Presses keys named as tmux names them (`Enter`, `BSpace`, `C-x`, `F12`, `M-q`).
    public func press(_ keys: [String], pause: TimeInterval) throws {
        for key in keys {
            try run(["send-keys", "--", key])
            Thread.sleep(forTimeInterval: pause)
        }
    }

    /// What the terminal shows now, a line per row (trailing blanks removed); with `escapes`,
    /// with the escape sequences of the characters' attributes (colours, bold, underline).
    public func screen(escapes: Bool = false) -> String {
        let captured = (try? run(["capture-pane", "-p"] + (escapes ? ["-e"] : [])))?.stdout ?? ""
        if escapes { return captured }
        return captured.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    /// Whether the program still runs in the terminal.
    public var isRunning: Bool {
        guard let dead = try? run(["display-message", "-p", "#{pane_dead}"]) else { return false }
        return dead.status == 0 && dead.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    /// Waits until `condition` holds or `timeout` passes; says whether it held.
    public static func wait(timeout: TimeInterval, every interval: TimeInterval = 0.02, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return condition()
    }

    /// Ends the session and its private server.
    public func close() {
        _ = try? run(["kill-server"])
    }

    deinit { close() }
}
