// `macmd check [DIR]`: reports a notebook's problems the way a linter does, with the same
// index, rules and `.macmd.json` as the language server.
//
//   path:line:col: severity: message [code]      (1-based line and byte column)
//
// `--unlinked` adds the unlinked mentions (`unlinked-mention`, as hints unless the notebook's
// settings give that code a severity): each note is read and parsed again for them.
//
// Exit status: 0 without errors (warnings allowed), 1 with errors, 2 for usage errors or a
// folder that cannot be scanned. A folder without notes exits 0 and says so on stderr.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
import TextCore

enum CheckCommand {
    /// `macmd check --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis is typed as shown
        HelpText.usage(["macmd check [DIR] [--format text|json] [--unlinked]"]) + "\n" + HelpText.paragraph(LocalizedText("cli.check.help"))
            + "\n" + HelpText.paragraph(LocalizedText("cli.check.help.unlinked"))
    }

    static func run(_ arguments: [String]) -> Int32 {
        var folder = "."
        var json = false
        var unlinked = false
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--format":
                guard i + 1 < arguments.count, ["text", "json"].contains(arguments[i + 1]) else {
                    return MacMDCommandLine.usageError("check", LocalizedText("cli.check.error.format"))
                }
                json = arguments[i + 1] == "json"
                i += 1
            case "--unlinked":
                unlinked = true
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            case let argument where argument.hasPrefix("-"):
                return MacMDCommandLine.usageError("check", LocalizedText("cli.error.unknownOption", .string(argument)))
            default:
                folder = arguments[i]
            }
            i += 1
        }
        // The same path as the language server's: the notebook's `.macmd.json`, the scan's
        // rules, the index, and the diagnostics an editor shows.
        let (notebook, log, refusal) = NotebookFolder.indexed(path: folder)
        for problem in notebook.settingsProblems {
            MacMDCommandLine.writeError("check", LocalizedText("cli.error.configuration", .string(problem.string(in: MacMDCommandLine.locale))))
        }
        if let refusal {
            MacMDCommandLine.writeError("check", LocalizedText("cli.check.error.cannotCheck", .string(folder), .text(refusal.text)))
            return 2
        }
        // An empty report from a folder without notes is not a clean notebook: say so.
        if notebook.notebook.notes.isEmpty {
            MacMDCommandLine.writeError("check", LocalizedText("cli.check.noNotes", .string(folder)))
        }
        var configuration = notebook.configuration
        if unlinked, configuration.severity(of: .unlinkedMention) == nil {
            configuration.diagnostics[DiagnosticCode.unlinkedMention.rawValue] = .severity(.hint)
        }
        var diagnostics: [(path: String, diagnostic: DiagnosticResult)] = []
        var lines: [String: LineIndex] = [:]
        for (path, symbols) in notebook.notebook.notes.sorted(by: { $0.key < $1.key }) {
            // The note is parsed again only for `math-error` (when it is on and the note has
            // maths) and `unlinked-mention` (when it is on).
            let found = DiagnosticResult.list(for: symbols, in: notebook, configuration: configuration, tree: {
                guard case .success(let bytes) = FileReader.contents(of: notebook.absolutePath(path)) else { return nil }
                return MarkdownParser.parse(bytes, options: notebook.configuration.parseOptions)
            }) {
                FileReader.exists(notebook.absolutePath($0))
            }
            if !found.isEmpty, case .success(let bytes) = FileReader.contents(of: notebook.absolutePath(path)) {
                lines[path] = LineIndex(utf8: bytes)
            }
            diagnostics += found.map { (path, $0) }
        }
        var output: [UInt8] = []
        var items: [JSONValue] = []
        for (path, diagnostic) in diagnostics {
            let position = lines[path]?.position(ofUTF8Offset: Int(diagnostic.span.start))
            let line = (position?.line ?? 0) + 1
            let column = (position?.utf8Column ?? 0) + 1
            if json {
                items.append([
                    "path": .string(path), "line": .int(Int64(line)), "column": .int(Int64(column)),
                    "severity": .string(diagnostic.severity.rawValue), "code": .string(diagnostic.code.rawValue),
                    "message": .string(MacMDCommandLine.text(diagnostic.message)),
                ])
            } else {
                output += Array("\(path):\(line):\(column): \(diagnostic.severity.rawValue): \(MacMDCommandLine.text(diagnostic.message)) [\(diagnostic.code.rawValue)]\n".utf8)
            }
        }
        if json {
            JSON.serialize(.array(items), into: &output)
            output.append(0x0A)
        }
        StandardStreams.writeOutput(output)
        // The scan's log: paths left out, and why.
        for line in log { MacMDCommandLine.writeError("check", line) }
        return diagnostics.contains { $0.diagnostic.severity == .error } ? 1 : 0
    }
}
