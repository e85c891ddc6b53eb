// `macmd-bench completion DIR`: link completion on a notebook, the first `[[` after the scan as
// much as the ones after it.
//
//   - in process: the notebook indexed as `macmd check` indexes it; how many notes
//     share their stem with another (the shape that once made the first completion grow with the
//     square of such notes); the completion index (what the server builds when a scan ends and
//     when names change) built `--builds` times (the first, median, min), on both cores as the
//     server builds it; the tables that give the link
//     texts of notes sharing a name (a request makes those it needs), all of them; a `[[` with
//     nothing typed ranked on the index;
//   - over LSP, as an editor meets it: `--servers` fresh `macmd lsp` children each index the
//     notebook; as soon as the end of its `$/progress` arrives, the note the other notebook
//     benchmarks edit (the one closest to 5 KB) is opened, `[[` typed on a new last line, and
//     completion asked there: the first `[[` after the scan, from the `didChange` sent to the
//     answer's last byte (median, min, max over the servers). `--pause MS` waits that long after
//     the end of the scan first, as a user would (the server warms the index meanwhile); without
//     it the `[[` comes as soon as the client can send it. The last server then answers
//     `--rounds` more: the next ones (p50, p99).
//
// `--builds 0 --servers 0` indexes the notebook only, so two runs under
// `valgrind --tool=callgrind` (`--builds 0` and `--builds 1`) give the instructions of one build
// by difference. `--server PATH` measures another build's `macmd lsp` with this client.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension BenchCommand {
    static let completionUsage = "usage: macmd-bench completion DIR [--builds N] [--servers N] [--rounds N] [--pause MS] [--server PATH]\n"

    static func completion(_ arguments: [String]) -> Int32 {
        let (rest, serverPath) = takingServer(arguments)
        guard let (folder, counts) = folderAndCounts(rest, ["--builds": 5, "--servers": 5, "--rounds": 200, "--pause": 0], minimum: 0,
                                                     usage: completionUsage) else {
            return 2
        }
        let builds = counts["--builds"] ?? 5
        let servers = counts["--servers"] ?? 5
        let rounds = max(counts["--rounds"] ?? 200, 1)
        let pause = counts["--pause"] ?? 0

        // In process.
        let anywhere = [ConfigurationLayer(source: "bench", value: ["allowHomeOrRoot": true])]
        var start = now()
        let notebook = NotebookFolder.indexed(path: folder, editor: anywhere).folder.notebook
        let indexTime = now() - start
        guard !notebook.notes.isEmpty else {
            StandardStreams.writeError("macmd-bench completion: no notes in \(folder)\n")
            return 2
        }
        var stems: [String: Int] = [:]
        for path in notebook.notes.keys { stems[NotebookPath.fileStem(of: path).folded, default: 0] += 1 }
        let shared = stems.values.filter { $0 > 1 }
        var report = "notebook \(folder): \(notebook.notes.count) notes, indexed in process in \(format(indexTime * 1000, 0)) ms\n"
        report += "names: \(stems.count) stems, \(shared.count) of them shared by \(shared.reduce(0, +)) notes (at most \(shared.max() ?? 1) notes one stem)\n"
        if builds > 0 {
            var times: [Double] = []
            // Kept until the end, so that no round frees the one before.
            var built: [CompletionWorkspace] = []
            for _ in 0..<builds {
                start = now()
                built.append(CompletionWorkspace(notebook: notebook))
                times.append(now() - start)
            }
            var index = built[built.count - 1]
            let first = times[0]
            times.sort()
            report += "completion index built in process (\(builds)x): the first \(format(first * 1000, 1)) ms, median \(format(times[times.count / 2] * 1000, 1)) ms, min \(format(times[0] * 1000, 1)) ms\n"
            times = []
            for _ in 0..<builds {
                start = now()
                index = index.updating(from: notebook)
                times.append(now() - start)
            }
            times.sort()
            report += "completion index refreshed after an edit that keeps names (\(builds)x): median \(format(times[times.count / 2] * 1000, 2)) ms\n"
            // The tables that give the link texts of notes sharing a name, each made when a
            // request first shows one of its notes: all of them here.
            let stems = Set(notebook.catalog.pathsSharingStems().map(NoteCatalog.stemKey(of:)))
            start = now()
            let tables = stems.compactMap { notebook.catalog.stemTable($0) }.count
            report += "stem tables of the \(tables) shared names, all made: \(format((now() - start) * 1000, 1)) ms\n"
            let text = Array("[[".utf8)
            if let context = CompletionContext.detect(text: text, cursor: text.count) {
                let from = notebook.notes.keys.min() ?? ""
                start = now()
                let items = CompletionEngine.complete(context: context, in: from, sources: CompletionSources(workspace: index)).items
                report += "`[[` ranked on it in process: \(format((now() - start) * 1000, 2)) ms, \(items.count) items\n"
            }
        }
        guard servers > 0 else {
            StandardStreams.writeOutput(Array(report.utf8))
            return 0
        }

        // Over LSP: the note the other notebook benchmarks edit.
        var options = ScanOptions()
        options.allowHomeOrRoot = true
        let scan = WorkspaceScanner.scan(root: folder, options: options)
        guard let note = scan.files.min(by: { abs(($0.size ?? 0) - 5000) < abs(($1.size ?? 0) - 5000) }),
              case .success(let noteBytes) = FileReader.contents(of: scan.resolvedRoot + "/" + note.path) else {
            StandardStreams.writeError("macmd-bench completion: cannot read a note of \(folder)\n")
            return 1
        }
        let uri = fileURI(scan.resolvedRoot + "/" + note.path)
        let text = String(decoding: noteBytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let end = TextPosition(lines.count - 1, lines.last?.utf16.count ?? 0)
        let cursor = end.after("\n[[")
        let executable = serverPath ?? macmdPath()
        var firsts: [Double] = []
        var nexts: [Double] = []
        /// The server's RSS (MB) once it answered the first `[[`.
        var residents: [Double] = []
        var items = 0
        for run in 0..<servers {
            guard let server = ServerProcess.afterScan(executable, root: scan.resolvedRoot) else {
                StandardStreams.writeError("macmd-bench completion: cannot start \(executable) lsp\n")
                return 1
            }
            if pause > 0 {
                var delay = timespec(tv_sec: pause / 1000, tv_nsec: (pause % 1000) * 1_000_000)
                var left = timespec()
                while nanosleep(&delay, &left) != 0 && errno == EINTR { delay = left }
            }
            var session = EditingSession(server: server)
            session.open(uri, text)
            start = now()
            session.change(uri, end, end, "\n[[")
            let params: JSONValue = ["textDocument": ["uri": .string(uri)], "position": cursor.json]
            guard let first = session.request("textDocument/completion", params) else {
                return session.failed(report, "no answer to the first completion")
            }
            firsts.append(now() - start)
            if let bytes = session.server.residentBytes() { residents.append(Double(bytes) / 1_048_576) }
            items = first["items"]?.arrayValue?.count ?? first.arrayValue?.count ?? 0
            if run == servers - 1 {
                for _ in 0..<rounds {
                    start = now()
                    guard session.request("textDocument/completion", params) != nil else { break }
                    nexts.append(now() - start)
                }
            }
            session.server.stop()
        }
        firsts.sort()
        nexts.sort()
        let when = pause > 0 ? "\(pause) ms after the scan" : "at once after the scan"
        report += "over LSP (\(note.path), \(items) items): the first `[[` typed \(when) (\(servers) fresh servers): "
        report += "median \(format(firsts[firsts.count / 2] * 1000, 2)) ms, min \(format(firsts[0] * 1000, 2)) ms, max \(format((firsts.last ?? 0) * 1000, 2)) ms (target 10 ms)"
        if let most = residents.max() { report += "; RSS after it \(format(most, 1)) MB at most" }
        if !nexts.isEmpty {
            report += "; the next ones (\(nexts.count)x): p50 \(format(nexts[nexts.count / 2] * 1000, 2)) ms, p99 \(format(nexts[min(nexts.count - 1, nexts.count * 99 / 100)] * 1000, 2)) ms"
        }
        report += "\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}
