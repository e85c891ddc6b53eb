// `macmd-bench graph DIR`: what the notebook-as-a-graph requests cost over LSP on a notebook,
// as an editor asks for them after the scan: the code lenses of a note (the list, then every
// lens resolved, as Neovim and VS Code do when they show a note) and the backlinks tree of the
// note most linked to (`textDocument/prepareCallHierarchy`, then `callHierarchy/incomingCalls`).
//
// Two notes: the longest note of the notebook (its headings make the most lenses) and the note
// with the most backlinks (its title's lens counts them all). Each request is timed from the
// request to the answer's last byte, `--rounds` times (p50, p99). `--server PATH` measures
// another build's `macmd lsp` with this client.

import CommandLineIO
import JSON
import NotebookIndex
import NotebookWorkspace

extension BenchCommand {
    static let graphUsage = "usage: macmd-bench graph DIR [--rounds N] [--server PATH]\n"

    static func graph(_ arguments: [String]) -> Int32 {
        let (rest, serverPath) = takingServer(arguments)
        guard let (folder, counts) = folderAndCounts(rest, ["--rounds": 200], usage: graphUsage) else { return 2 }
        let rounds = counts["--rounds"] ?? 200
        // The two notes, from the notebook indexed in process.
        let anywhere = [ConfigurationLayer(source: "bench", value: ["allowHomeOrRoot": true])]
        let indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
        let notebook = indexed.notebook
        var options = ScanOptions()
        options.allowHomeOrRoot = true
        let scan = WorkspaceScanner.scan(root: folder, options: options)
        // Links into each note, counted in one pass over every link.
        var incoming: [String: Int] = [:]
        for (path, note) in notebook.notes {
            for link in note.links {
                if case .note(let reached, _, _, _) = notebook.catalog.resolve(link, from: path), reached != path { incoming[reached, default: 0] += 1 }
            }
        }
        guard let longest = scan.files.max(by: { ($0.size ?? 0) < ($1.size ?? 0) }),
              let linked = incoming.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key else {
            StandardStreams.writeError("macmd-bench graph: no notes in \(folder)\n")
            return 2
        }
        let executable = serverPath ?? macmdPath()
        guard let server = ServerProcess.afterScan(executable, root: scan.resolvedRoot) else {
            StandardStreams.writeError("macmd-bench graph: cannot start \(executable) lsp\n")
            return 1
        }
        var session = EditingSession(server: server)
        var report = "notebook \(folder): \(notebook.notes.count) notes\n"
        func percentiles(_ times: [Double]) -> String {
            let sorted = times.sorted()
            guard !sorted.isEmpty else { return "no answers" }
            return "p50 \(format(sorted[sorted.count / 2] * 1000, 3)) ms, p99 \(format(sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000, 3)) ms"
        }
        for (label, path) in [("the longest note", longest.path), ("the note most linked to", linked)] {
            guard case .success(let bytes) = FileReader.contents(of: scan.resolvedRoot + "/" + path) else { continue }
            let uri = fileURI(scan.resolvedRoot + "/" + path)
            session.open(uri, String(decoding: bytes, as: UTF8.self))
            let document: JSONValue = ["textDocument": ["uri": .string(uri)]]
            var lists: [Double] = []
            var resolves: [Double] = []
            var lenses: [JSONValue] = []
            var title = ""
            for _ in 0..<rounds {
                var start = now()
                guard let listed = session.request("textDocument/codeLens", document)?.arrayValue else {
                    return session.failed(report, "no answer to textDocument/codeLens")
                }
                lists.append(now() - start)
                lenses = listed
                start = now()
                for (index, lens) in listed.enumerated() {
                    let resolved = session.request("codeLens/resolve", lens)
                    if index == 0 { title = resolved?["command"]?["title"]?.stringValue ?? "" }
                }
                resolves.append(now() - start)
            }
            report += "\(label), \(path) (\(bytes.count) bytes, \(incoming[path] ?? 0) links from other notes): "
            report += "textDocument/codeLens (\(lenses.count) lenses) \(percentiles(lists)); all \(lenses.count) resolved \(percentiles(resolves)) (the title's: \"\(title)\")\n"
            if label == "the note most linked to" {
                var trees: [Double] = []
                var callers = 0
                for _ in 0..<rounds {
                    let start = now()
                    guard let item = session.request("textDocument/prepareCallHierarchy",
                                                     ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 0]])?[0],
                          let incoming = session.request("callHierarchy/incomingCalls", ["item": item])?.arrayValue else { break }
                    trees.append(now() - start)
                    callers = incoming.count
                }
                report += "\(label): the backlinks tree's first level (\(callers) notes), prepare + incomingCalls \(percentiles(trees))\n"
            }
        }
        session.server.stop()
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}
