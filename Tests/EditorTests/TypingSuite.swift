// The typing suite: the cases of Fixtures/editors/typing.json, typed one key at a time into
// real clients, each in a terminal of its own (Fixtures/editors/typing/README.md has the
// protocol the clients' harnesses follow).
//
// Invariants:
// - Keys go through the terminal, one `tmux send-keys` each, `TypingSuite.pause` apart: the
//   server's answer to a key lands before the next, as it does for a writer; a whole string fed
//   at once would hide every bug of that kind.
// - A case a client cannot support is listed in typing.json for that client with the reason; it
//   is not typed there, and it says so in the docs' table. Every other case must pass.
// - A missing client is a skip that says how to install it (a failure under
//   `MACMD_REQUIRE_CLIENTS=1`); a harness that stops answering fails its case within seconds.

import Foundation
import TestSupport
import XCTest

/// One case of typing.json.
struct TypingCase: Sendable {
    var name: String
    var text: String
    var keys: String
    var expect: String
    var width: Int?
    /// Client id to its own expectation, or to the reason it cannot run the case.
    var expectations: [String: String]
    var unsupported: [String: String]

    static let file = TestPaths.fixtures.appendingPathComponent("editors/typing.json")

    static func all() throws -> [TypingCase] {
        let data = try Data(contentsOf: file)
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw TestSupportError("typing.json is not an array of objects")
        }
        return try list.map { item in
            guard let name = item["name"] as? String, let text = item["text"] as? String,
                  let keys = item["keys"] as? String, let expect = item["expect"] as? String else {
                throw TestSupportError("a case of typing.json lacks name, text, keys or expect: \(item)")
            }
            var expectations: [String: String] = [:]
            var unsupported: [String: String] = [:]
            for (client, value) in item["clients"] as? [String: [String: String]] ?? [:] {
                guard TypingClient(rawValue: client) != nil else { throw TestSupportError("\(name): no client `\(client)`") }
                if let reason = value["unsupported"] { unsupported[client] = reason }
                if let other = value["expect"] { expectations[client] = other }
            }
            return TypingCase(name: name, text: text, keys: keys, expect: expect, width: item["width"] as? Int,
                              expectations: expectations, unsupported: unsupported)
        }
    }

    func expected(for client: TypingClient) -> String { expectations[client.rawValue] ?? expect }

    /// The keys as tokens: `<Name>` or one character.
    var tokens: [String] {
        var result: [String] = []
        var rest = Substring(keys)
        while let first = rest.first {
            if first == "<", let close = rest.firstIndex(of: ">"), rest[rest.index(after: rest.startIndex)..<close].allSatisfy({ $0.isLetter || $0 == "-" }),
               close > rest.index(after: rest.startIndex) {
                result.append(String(rest[...close]))
                rest = rest[rest.index(after: close)...]
            } else {
                result.append(String(first))
                rest = rest.dropFirst()
            }
        }
        return result
    }
}

/// The clients the suite types into.
enum TypingClient: String, CaseIterable, Sendable {
    case neovim07 = "nvim-0.7"
    case neovim = "nvim"
    case vimALE = "vim-ale"
    case emacsEglot = "emacs-eglot"
    case emacsLSPMode = "emacs-lsp-mode"

    /// The name in the docs' table.
    var title: String {
        switch self {
        case .neovim07: "Neovim 0.7"
        case .neovim: "Neovim 0.12"
        case .vimALE: "Vim + ALE"
        case .emacsEglot: "Emacs + eglot"
        case .emacsLSPMode: "Emacs + lsp-mode"
        }
    }

    var isVim: Bool { self == .neovim07 || self == .neovim || self == .vimALE }

    /// The command that runs the client on the harness, or a skip saying how to get it.
    func command() throws -> [String] {
        let harness = TestPaths.fixtures.appendingPathComponent("editors/typing").path
        switch self {
        case .neovim07:
            let nvim = try Clients.require("nvim", what: "Debian's Neovim", install: "apt-get install -y neovim")
            return [nvim, "-u", harness + "/nvim.lua", "-i", "NONE", "--noplugin"]
        case .neovim:
            let nvim = Neovim.currentPath
            guard FileManager.default.isExecutableFile(atPath: nvim) else {
                throw Clients.missing("a current Neovim (\(nvim))", install: Neovim.currentInstall)
            }
            return [nvim, "-u", harness + "/nvim.lua", "-i", "NONE", "--noplugin"]
        case .vimALE:
            let vim = try Clients.require("vim", install: "apt-get install -y vim vim-ale")
            guard FileManager.default.fileExists(atPath: TypingClient.ale + "/autoload/ale.vim") else {
                throw Clients.missing("ALE (\(TypingClient.ale))", install: "apt-get install -y vim-ale")
            }
            return [vim, "-N", "-u", harness + "/vim.vim", "-i", "NONE", "--noplugin"]
        case .emacsEglot, .emacsLSPMode:
            let emacs = try Clients.require("emacs", install: "apt-get install -y emacs-nox")
            let package = self == .emacsEglot ? "eglot" : "lsp-mode"
            guard EmacsPackages.has(package, emacs: emacs), EmacsPackages.has("markdown-mode", emacs: emacs) else {
                throw Clients.missing("Emacs's \(package) or markdown-mode",
                                      install: "apt-get install -y elpa-\(package) elpa-markdown-mode")
            }
            return [emacs, "-nw", "-Q", "-l", harness + "/emacs.el"]
        }
    }

    /// ALE: `MACMD_ALE`, else Debian's vim-ale.
    static var ale: String {
        ProcessInfo.processInfo.environment["MACMD_ALE"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/vim-ale"
    }

    /// The setup folder in `editors/`.
    var plugin: String {
        let editors = TestPaths.packageRoot.appendingPathComponent("editors").path
        switch self {
        case .neovim07, .neovim: return editors + "/nvim"
        case .vimALE: return editors + "/vim"
        case .emacsEglot, .emacsLSPMode: return editors + "/emacs"
        }
    }

    /// What typing one token is: characters typed, keys pressed, and pauses.
    enum Action {
        case type(String)
        case press(String)
        case wait(TimeInterval)
    }

    func actions(for token: String) -> [Action] {
        switch token {
        case "<CR>": return [.press("Enter")]
        case "<BS>": return [.press("BSpace")]
        case "<Tab>": return [.press("Tab")]
        case "<S-Tab>": return [.press("BTab")]
        case "<Esc>": return [.press("Escape")]
        case "<End>", "<Home>", "<Left>", "<Right>", "<Up>", "<Down>": return [.press(String(token.dropFirst().dropLast()))]
        case "<lt>": return [.type("<")]
        case "<Complete>":
            if isVim { return [.press("C-x"), .press("C-o"), .wait(0.5), .press("C-y"), .wait(0.3)] }
            return [.press("C-M-i"), .wait(0.5)]
        case "<Wrap>":
            if isVim { return [.press("C-o"), .type("gqap"), .wait(0.3)] }
            return [.press("M-q"), .wait(0.3)]
        default: return [.type(token)]
        }
    }
}

/// Whether an Emacs package loads in `emacs -Q` (built in, or from Debian's elpa folder).
enum EmacsPackages {
    static func has(_ package: String, emacs: String) -> Bool {
        let form = "(unless (require '\(package) nil t) (setq package-directory-list '(\"/usr/share/emacs/site-lisp/elpa\")) "
            + "(package-initialize) (require '\(package)))"
        let result = try? TestProcess.run(URL(fileURLWithPath: emacs), ["--batch", "-Q", "--eval", form], timeout: 30)
        return result?.status == 0
    }
}

/// Types the suite into one client and reports what each case's buffer read.
enum TypingSuite {
    /// The pause between two keys: a fast writer's.
    static let pause: TimeInterval = 0.04

    struct Outcome {
        var client: TypingClient
        /// Case name to what the buffer read after its keys; nil for a case that never finished.
        var results: [String: String?]
        /// Case name to the screen just before its end.
        var screens: [String: String]
        var log: String
    }

    /// The cases `client` runs (those it does not declare unsupported).
    static func cases(for client: TypingClient) throws -> [TypingCase] {
        try TypingCase.all().filter { $0.unsupported[client.rawValue] == nil }
    }

    /// Runs every case `client` supports, key by key.
    static func run(_ client: TypingClient) throws -> Outcome {
        let command = try client.command()
        let cases = try self.cases(for: client)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-typing-\(client.rawValue)-\(UUID().uuidString.prefix(8))")
        let notebook = work.appendingPathComponent("notebook", isDirectory: true)
        let out = work.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("notebook"), to: notebook)
        try "{}\n".write(to: notebook.appendingPathComponent(".macmd.json"), atomically: true, encoding: .utf8)
        let note = notebook.appendingPathComponent("typing.md")
        try "".write(to: note, atomically: true, encoding: .utf8)
        let casesFile = work.appendingPathComponent("cases.json")
        let list: [[String: Any]] = cases.map { item in
            var entry: [String: Any] = ["name": item.name, "text": item.text]
            if let width = item.width { entry["width"] = width }
            return entry
        }
        try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted]).write(to: casesFile)
        let serverLog = work.appendingPathComponent("server.log")
        let terminal = try Terminal(command, environment: TestProcess.isolatedHome(in: work).merging([
            "MACMD_TEST_BIN": try MacmdBinary.url().path,
            "MACMD_TEST_PLUGIN": client.plugin,
            "MACMD_TEST_CLIENT": client.rawValue,
            "MACMD_TEST_NOTE": note.path,
            "MACMD_TEST_CASES": casesFile.path,
            "MACMD_TEST_OUT": out.path,
            "MACMD_TEST_SERVER_LOG": serverLog.path,
            "MACMD_ALE": TypingClient.ale,
        ]) { $1 }, in: work)
        defer { terminal.close() }

        var outcome = Outcome(client: client, results: [:], screens: [:], log: "")
        func file(_ name: String) -> URL { out.appendingPathComponent(name) }
        func harnessError() -> String? { try? String(contentsOf: file("error.txt"), encoding: .utf8) }
        for (index, item) in cases.enumerated() {
            let number = index + 1
            // The first case waits for the editor and the server to start.
            let ready = Terminal.wait(timeout: number == 1 ? 60 : 15) {
                FileManager.default.fileExists(atPath: file("ready-\(number)").path) || harnessError() != nil
            }
            if let error = harnessError() { throw TestSupportError("\(client.rawValue): the harness stopped: \(error)\n\(terminal.screen())") }
            guard ready else {
                outcome.results[item.name] = .some(nil)
                outcome.log = "case \(number) never became ready; the screen:\n\(terminal.screen())"
                break
            }
            for token in item.tokens {
                for action in client.actions(for: token) {
                    switch action {
                    case .type(let text): try terminal.type(text, pause: pause)
                    case .press(let key): try terminal.press([key], pause: pause)
                    case .wait(let seconds): Thread.sleep(forTimeInterval: seconds)
                    }
                }
            }
            // What the writer sees, once the last key's answer has had time to land.
            Thread.sleep(forTimeInterval: 0.2)
            outcome.screens[item.name] = terminal.screen()
            try terminal.press(["F12"], pause: 0)
            let recorded = Terminal.wait(timeout: 15) { FileManager.default.fileExists(atPath: file("result-\(number).txt").path) }
            outcome.results[item.name] = recorded ? .some(try? String(contentsOf: file("result-\(number).txt"), encoding: .utf8)) : .some(nil)
        }
        _ = Terminal.wait(timeout: 10) { FileManager.default.fileExists(atPath: file("done").path) }
        let log = (try? String(contentsOf: serverLog, encoding: .utf8)) ?? ""
        outcome.log += "\nserver log (end):\n" + String(log.suffix(3000))
        return outcome
    }

    /// Where the screens of the last run are kept for a person to look at:
    /// `.build/typing-screens/<client>/<NN> <case>.txt`.
    static func keep(_ outcome: Outcome, cases: [TypingCase]) {
        let folder = TestPaths.packageRoot.appendingPathComponent(".build/typing-screens/\(outcome.client.rawValue)")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, item) in cases.enumerated() {
            guard let screen = outcome.screens[item.name] else { continue }
            let name = String(format: "%02d ", index + 1) + item.name.replacingOccurrences(of: "/", with: "-")
            try? screen.write(to: folder.appendingPathComponent(name + ".txt"), atomically: true, encoding: .utf8)
        }
    }

    // MARK: The docs' table

    static let tableBegin = "<!-- typing suite: begin (generated by TypingSuiteTests, MACMD_BLESS=1 rewrites it) -->"
    static let tableEnd = "<!-- typing suite: end -->"

    /// The table of cases × clients that docs/editors.md shows: ✓ for a case the client must
    /// pass (the suite fails otherwise), a numbered note with the reason for one it cannot run.
    static func table(_ cases: [TypingCase]) -> String {
        var reasons: [String] = []
        var lines = ["| Case | " + TypingClient.allCases.map(\.title).joined(separator: " | ") + " |",
                     "|---|" + TypingClient.allCases.map { _ in ":-:|" }.joined()]
        for item in cases {
            let cells = TypingClient.allCases.map { client -> String in
                guard let reason = item.unsupported[client.rawValue] else { return "✓" }
                let number = (reasons.firstIndex(of: reason) ?? reasons.count) + 1
                if number > reasons.count { reasons.append(reason) }
                return "— (\(number))"
            }
            lines.append("| " + item.name.replacingOccurrences(of: "|", with: "\\|") + " | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        for (index, reason) in reasons.enumerated() { lines.append("\(index + 1). \(reason).") }
        return lines.joined(separator: "\n")
    }
}
