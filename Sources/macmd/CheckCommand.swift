// `macmd check [DIR]`: reports a notebook's problems the way a linter does, with the same
// index, rules and `.macmd.json` as the language server.
//
//   path:line:col: severity: message [code]      (1-based line and byte column)
//
// Exit status: 0 without errors (warnings allowed), 1 with errors, 2 for usage errors or a
// folder that cannot be scanned.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONRPC
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
import TextCore

enum CheckCommand {
    static let usage = """
        usage: macmd check [DIR] [--format text|json]

        Indexes the notebook in DIR (default: the current folder) and prints its problems:
        broken links, wiki-links, headings, blocks and images, ambiguous wiki-links,
        undefined, duplicate and unused reference definitions, duplicate heading targets and
        malformed front matter, as path:line:col: severity: message [code].
        DIR/.macmd.json may set severities per code and ignore globs; maths the MathML
        converter does not understand is reported only when it gives `math-error` a
        severity ("diagnostics": {"math-error": "warning"}). Exits 1 on errors.

        """

    static func run(_ arguments: [String]) -> Int32 {
        var folder = "."
        var json = false
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--format":
                guard i + 1 < arguments.count, ["text", "json"].contains(arguments[i + 1]) else {
                    return MacMDCommandLine.usageError("check", "--format takes text or json")
                }
                json = arguments[i + 1] == "json"
                i += 1
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            case let argument where argument.hasPrefix("-"):
                return MacMDCommandLine.usageError("check", "unknown option '\(argument)'")
            default:
                folder = arguments[i]
            }
            i += 1
        }
        // The same path as the language server's: the notebook's `.macmd.json`, the scan's
        // rules, the index, and the diagnostics an editor shows.
        let (notebook, log, refusal) = NotebookFolder.indexed(path: folder)
        for problem in notebook.settingsProblems { StandardStreams.writeError("macmd check: configuration: \(problem.string(in: MacMDCommandLine.locale))\n") }
        if let refusal {
            StandardStreams.writeError("macmd check: cannot check \(folder): \(MacMDCommandLine.text(refusal.text))\n")
            return 2
        }
        var diagnostics: [(path: String, diagnostic: DiagnosticResult)] = []
        var lines: [String: LineIndex] = [:]
        for (path, symbols) in notebook.notebook.notes.sorted(by: { $0.key < $1.key }) {
            // The note is parsed again only for `math-error`, when it is on and the note has maths.
            let found = DiagnosticResult.list(for: symbols, in: notebook, configuration: notebook.configuration, tree: {
                guard case .success(let bytes) = FileReader.contents(of: notebook.absolutePath(path)) else { return nil }
                return MarkdownParser.parse(bytes, options: .notebook)
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
                    "severity": .string(diagnostic.severity.rawValue), "code": .string(diagnostic.code),
                    "message": .string(MacMDCommandLine.text(diagnostic.message)),
                ])
            } else {
                output += Array("\(path):\(line):\(column): \(diagnostic.severity.rawValue): \(MacMDCommandLine.text(diagnostic.message)) [\(diagnostic.code)]\n".utf8)
            }
        }
        if json {
            JSON.serialize(.array(items), into: &output)
            output.append(0x0A)
        }
        StandardStreams.writeOutput(output)
        for line in log { StandardStreams.writeError("macmd check: \(MacMDCommandLine.text(line))\n") }
        return diagnostics.contains { $0.diagnostic.severity == .error } ? 1 : 0
    }
}
