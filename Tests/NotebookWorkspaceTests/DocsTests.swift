import Foundation
import NotebookIDE
import NotebookIndex
import TestSupport
import TextCore
import XCTest

/// The docs say what the code does: every CLI flag of `macmd render`, `check` and `lsp` is
/// documented and every documented one exists; the README's tour prints what the README shows; the Quick-start
/// commands are the ones `.ci/run` relies on; every relative link of the docs reaches a file,
/// and its `#anchor` a heading; Fixtures/README.md lists every note of the sample notebook.
/// (Configuration keys: ConfigurationSchemaTests; diagnostic codes: DiagnosticCodeDocsTests.)
final class DocsTests: XCTestCase {
    static let root = TestPaths.packageRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// README.md, CONTRIBUTING.md, docs/*.md and Fixtures/README.md.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md", "Fixtures/README.md"] + docs
    }

    /// The lines of `path` from the heading `heading` to the next heading of its level or above.
    static func section(_ path: String, _ heading: String) throws -> [Substring] {
        let lines = try text(path).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else {
            throw TestSupportError("\(path) has no heading `\(heading)`")
        }
        let level = heading.prefix { $0 == "#" }.count
        var end = start + 1
        var inFence = false
        while end < lines.count {
            let line = lines[end]
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix("#") {
                let hashes = line.prefix { $0 == "#" }.count
                if hashes <= level, line.dropFirst(hashes).hasPrefix(" ") { break }
            }
            end += 1
        }
        return Array(lines[start..<end])
    }

    /// Every `--flag` in `text`.
    static func flags<S: StringProtocol>(in text: S) -> Set<String> {
        var result: Set<String> = []
        let chars = Array(text)
        var i = 0
        while i + 2 < chars.count {
            if chars[i] == "-", chars[i + 1] == "-", chars[i + 2].isLetter, chars[i + 2].isLowercase,
               i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber || chars[i - 1] == "-") {
                var j = i + 2
                while j < chars.count, chars[j].isLowercase || chars[j].isNumber || chars[j] == "-" { j += 1 }
                result.insert(String(chars[i..<j]))
                i = j
            } else {
                i += 1
            }
        }
        return result
    }

    // MARK: CLI flags

    static let commandSections = [
        "render": ("docs/syntax.md", "### `macmd render`"),
        "check": ("docs/notebook.md", "## `macmd check`"),
        "lsp": ("docs/lsp.md", "## Command line"),
    ]

    /// The flags `macmd COMMAND --help` names, `--help` aside.
    static func helpFlags(_ command: String) throws -> Set<String> {
        let result = try TestProcess.run(try MacmdBinary.url(), [command, "--help"])
        XCTAssertEqual(result.status, 0, "macmd \(command) --help: \(result.stderr)")
        return flags(in: result.stdout).subtracting(["--help"])
    }

    func testEveryFlagIsDocumentedAndEveryDocumentedFlagExists() throws {
        var known: [String: Set<String>] = [:]
        for (command, (path, heading)) in Self.commandSections {
            let help = try Self.helpFlags(command)
            XCTAssertFalse(help.isEmpty, "macmd \(command) --help names no flag")
            known[command] = help
            let documented = Self.flags(in: try Self.section(path, heading).joined(separator: "\n")).subtracting(["--help"])
            XCTAssertEqual(documented.sorted(), help.sorted(), "the flags of `macmd \(command)` in \(path), \(heading)")
        }
        // Anywhere in the docs, a flag written after `macmd COMMAND` (in the same code span or
        // line) is one of that command's.
        for path in try Self.documents() {
            for line in try Self.text(path).split(separator: "\n") {
                var rest = line[...]
                while let found = rest.range(of: "macmd ") {
                    let after = rest[found.upperBound...]
                    guard let command = known.keys.first(where: { after.hasPrefix($0 + " ") || after.hasPrefix($0 + "`") }) else {
                        rest = after
                        continue
                    }
                    let invocation = after.prefix { $0 != "`" && $0 != "|" && $0 != ";" && $0 != ")" }
                    let unknown = Self.flags(in: invocation).subtracting(known[command]!).subtracting(["--help"])
                    XCTAssertTrue(unknown.isEmpty, "\(path): `macmd \(invocation)` has flags `macmd \(command)` does not take: \(unknown.sorted())")
                    rest = after
                }
            }
        }
    }

    // MARK: Helix

    /// The README's Helix lines are docs/editors.md's, which are editors/helix/languages.toml's
    /// (without its comments).
    func testTheHelixLinesAreTheSameEverywhere() throws {
        func block(_ text: String) throws -> String {
            let start = try XCTUnwrap(text.range(of: "```toml\n[language-server.macmd]"), "a ```toml block with the Helix lines")
            let end = try XCTUnwrap(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
            return String(text[text.index(start.lowerBound, offsetBy: 8)..<end.lowerBound])
        }
        let editors = try block(Self.text("docs/editors.md"))
        XCTAssertEqual(try block(Self.text("README.md")), editors, "README.md's Helix lines are docs/editors.md's")
        let file = try Self.text("editors/helix/languages.toml").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#") }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(file, editors, "editors/helix/languages.toml holds the same lines")
    }

    // MARK: The README's commands

    func testQuickStartCommandsAreTheOnesCIRuns() throws {
        let readme = try Self.text("README.md")
        let test = "swift test --disable-swift-testing"
        XCTAssertTrue(readme.contains("```sh\nswift build -c release && .build/release/macmd check Fixtures/notebook\n\(test)\n```\n"),
                      "the README's Quick start shows the two commands")
        let ci = try Self.text(".ci/run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(ci.contains { $0.hasPrefix(test + " 2>&1") }, ".ci/run runs the README's test command as it is written")
    }

    /// Each `$ macmd …` line of the tour's console blocks, with the output shown under it.
    static func tourCommands() throws -> [(arguments: [String], output: String)] {
        var result: [(arguments: [String], output: String)] = []
        var inConsole = false
        for line in try section("README.md", "## A 30-second tour") {
            if line == "```console" { inConsole = true; continue }
            if line == "```" { inConsole = false; continue }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                let words = line.dropFirst(2).split(separator: " ").map(String.init)
                XCTAssertEqual(words.first, "macmd", "a tour command runs macmd: \(line)")
                XCTAssertFalse(line.contains { "|<>'\"*".contains($0) }, "a tour command needs no shell: \(line)")
                result.append((Array(words.dropFirst()), ""))
            } else if !result.isEmpty {
                result[result.count - 1].output += line + "\n"
            }
        }
        return result
    }

    func testTheTourPrintsWhatTheReadmeShows() throws {
        let commands = try Self.tourCommands()
        XCTAssertGreaterThanOrEqual(commands.count, 2, "the tour shows commands")
        let binary = try MacmdBinary.url()
        for (arguments, output) in commands {
            let run = try TestProcess.run(binary, arguments, in: Self.root)
            XCTAssertFalse(run.timedOut, "macmd \(arguments.joined(separator: " "))")
            XCTAssertEqual(run.stdout, output, "the output of `macmd \(arguments.joined(separator: " "))`, as the README shows it")
        }
        // The check the tour shows is the golden file's.
        let check = try XCTUnwrap(commands.first { $0.arguments == ["check", "Fixtures/notebook"] })
        XCTAssertEqual(check.output, try Self.text("Fixtures/check/notebook.txt"))
    }

    // MARK: Links

    /// The ids of the headings of a Markdown file, as GitHub and `macmd render` make them.
    static func anchors(_ path: String) throws -> Set<String> {
        var slugger = Slugger()
        var result: Set<String> = []
        var inFence = false
        for line in try text(path).split(separator: "\n") {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes <= 6, line.dropFirst(hashes).hasPrefix(" ") else { continue }
            let heading = line.dropFirst(hashes + 1).replacingOccurrences(of: "`", with: "")
            result.insert(slugger.slug(for: heading))
        }
        return result
    }

    /// The relative link destinations of a Markdown file, outside code.
    static func links(_ path: String) throws -> [String] {
        var result: [String] = []
        var inFence = false
        for line in try text(path).split(separator: "\n") {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
            guard !inFence else { continue }
            // Drop code spans.
            var prose = ""
            var inCode = false
            for char in line {
                if char == "`" { inCode.toggle(); continue }
                if !inCode { prose.append(char) }
            }
            var rest = prose[...]
            while let found = rest.range(of: "](") {
                let destination = rest[found.upperBound...].prefix { $0 != ")" && $0 != " " }
                rest = rest[found.upperBound...]
                if destination.contains(":") || destination.isEmpty { continue }
                result.append(String(destination))
            }
        }
        return result
    }

    func testRelativeLinksReachTheirFilesAndHeadings() throws {
        for path in try Self.documents() {
            let folder = (path as NSString).deletingLastPathComponent
            for link in try Self.links(path) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let target = parts[0].isEmpty ? path
                    : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
                let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path)
                XCTAssertTrue(exists,
                              "\(path): the link `\(link)` names no file (\(target))")
                if parts.count == 2, target.hasSuffix(".md") {
                    let anchors = (try? Self.anchors(target)) ?? []
                    XCTAssertTrue(anchors.contains(String(parts[1])), "\(path): `\(link)`: \(target) has no heading `#\(parts[1])`")
                }
            }
        }
    }

    // MARK: The fixtures' README

    func testFixturesReadmeListsEveryNoteOfTheSampleNotebook() throws {
        let readme = try Self.text("Fixtures/README.md")
        let folder = Self.root.appendingPathComponent("Fixtures/notebook")
        var notes: [String] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in files where url.pathExtension == "md" {
            notes.append(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)))
        }
        XCTAssertEqual(notes.count, 16, "the sample notebook's notes: \(notes.sorted())")
        XCTAssertTrue(readme.contains("Sixteen notes"), "Fixtures/README.md gives the count")
        for note in notes {
            XCTAssertTrue(readme.contains("| `\(note)` |"), "Fixtures/README.md lists \(note)")
        }
    }

    // MARK: Code samples

    /// Every `macmd-bench SUB` the docs run names a subcommand `macmd-bench --help` lists, with
    /// only the flags its usage lines give.
    func testEveryBenchCommandOfTheDocsExists() throws {
        let usage = try TestProcess.run(try MacmdBinary.benchURL(), ["--help"])
        var known: [String: Set<String>] = [:]
        for line in (usage.stdout + usage.stderr).split(separator: "\n") {
            guard let found = line.range(of: "macmd-bench ") else { continue }
            let words = line[found.upperBound...].split(separator: " ")
            guard let name = words.first else { continue }
            known[String(name), default: []].formUnion(Self.flags(in: line))
        }
        XCTAssertGreaterThan(known.count, 8, "macmd-bench --help lists its subcommands: \(usage.stdout + usage.stderr)")
        var checked = 0
        for path in try Self.documents() {
            for line in try Self.text(path).split(separator: "\n") {
                var rest = line[...]
                while let found = rest.range(of: "macmd-bench ") {
                    let after = rest[found.upperBound...]
                    rest = after
                    let invocation = after.prefix { $0 != "`" && $0 != "|" && $0 != ";" && $0 != ")" && $0 != "#" }
                    // A run of spaces after the name is a table or a diagram, not a command.
                    guard after.first != " ", let name = invocation.split(separator: " ").first.map(String.init),
                          !name.hasPrefix("[") else { continue }
                    guard let flags = known[name] else {
                        XCTFail("\(path): `macmd-bench \(name)` is no subcommand of macmd-bench (\(known.keys.sorted()))")
                        continue
                    }
                    let unknown = Self.flags(in: invocation).subtracting(flags)
                    XCTAssertTrue(unknown.isEmpty, "\(path): `macmd-bench \(invocation)` has flags its usage does not give: \(unknown.sorted())")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 20, "the docs' bench commands")
    }

    /// The `jsonc` samples (LSP messages) are JSON once their `//` comments and `…` elisions
    /// are taken out, and the JSON output `docs/notebook.md` shows for `macmd check --format
    /// json` is the check's own.
    func testJSONSamplesParseAndTheCheckOutputIsTheChecks() throws {
        var samples = 0
        for path in try Self.documents() {
            let lines = try Self.text(path).split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index < lines.count {
                guard lines[index].hasPrefix("```json") else { index += 1; continue }
                var block: [String] = []
                index += 1
                while index < lines.count, !lines[index].hasPrefix("```") {
                    block.append(String(lines[index]))
                    index += 1
                }
                // One JSON value per `// params` / `// result` part: split where a comment
                // line starts a new part, strip comments after code, drop elisions.
                var parts: [[String]] = [[]]
                for line in block {
                    if line.hasPrefix("//") {
                        if !(parts.last?.isEmpty ?? true) { parts.append([]) }
                        continue
                    }
                    var code = line
                    if let comment = Self.commentStart(line) { code = String(line[..<comment]) }
                    code = code.replacingOccurrences(of: ", …", with: "").replacingOccurrences(of: "…", with: "")
                    parts[parts.count - 1].append(code)
                }
                for part in parts where !part.joined().trimmingCharacters(in: .whitespaces).isEmpty {
                    let text = part.joined(separator: "\n")
                    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), "\(path): a JSON sample does not parse:\n\(text)")
                    samples += 1
                }
            }
        }
        XCTAssertGreaterThan(samples, 3)
        // `$ macmd check Fixtures/notebook --format json | jq '.[4:6]'` and the array shown.
        let lines = try Self.text("docs/notebook.md").split(separator: "\n", omittingEmptySubsequences: false)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("$ macmd check Fixtures/notebook --format json | jq '.[4:6]'") })
        let end = try XCTUnwrap(lines[start...].firstIndex { $0.hasPrefix("```") })
        let shown = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[(start + 1)..<end].joined(separator: "\n").utf8)) as? [[String: Any]])
        let run = try TestProcess.run(try MacmdBinary.url(), ["check", "Fixtures/notebook", "--format", "json"], in: Self.root)
        let all = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(all.count, 6)
        XCTAssertEqual(all.count >= 6 ? NSArray(array: Array(all[4..<6])) : NSArray(), NSArray(array: shown),
                       "docs/notebook.md shows what `macmd check --format json` prints")
    }

    /// Where a `//` comment starts in a line of JSON, outside strings; nil when there is none.
    static func commentStart(_ line: String) -> String.Index? {
        var inString = false
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/", line[line.index(after: index)...].hasPrefix("/") {
                return index
            }
            index = line.index(after: index)
        }
        return nil
    }
}
