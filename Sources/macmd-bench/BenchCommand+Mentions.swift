// `macmd-bench mentions DIR`: what unlinked mentions cost, on a notebook such as
// `macmd-bench generate --notes 10000 --seed 1 DIR` writes.
//
//   - the cold index in process, and the part of it that reads each note's prose for its
//     words (`ProseWords`): the index with and without unlinked mentions;
//   - the automaton of every name, made when mentions are first asked for;
//   - one note's mentions, for N notes spread over the notebook (every N-th path): in process
//     through NotebookIDE (the candidates from the prose words, then their texts read, parsed
//     and matched on both cores), and through a `macmd lsp` child (`macmd/unlinkedMentions`, the
//     round trip, the first request apart: it may build the automaton); median, p95, max, and
//     how many candidates and mentions the notes had.
//
// `bench notes` gives the per-note cost of the prose words on one core, phase by phase.

import CommandLineIO
import JSON
import JSONRPC
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension BenchCommand {
    static func mentions(_ arguments: [String]) -> Int32 {
        let (arguments, serverPath) = takingServer(arguments)
        guard let (folder, counts) = folderAndCounts(arguments, ["--notes": 100, "--rounds": 3],
                                                     usage: "usage: macmd-bench mentions DIR [--notes N] [--rounds N] [--server PATH]\n") else {
            return 2
        }
        let sampleCount = counts["--notes"] ?? 100
        let rounds = counts["--rounds"] ?? 3
        let anywhere = [ConfigurationLayer(source: "bench", value: ["allowHomeOrRoot": true])]

        // 1. The cold index in process, best of `rounds`.
        var indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
        var coldTimes: [Double] = []
        for _ in 0..<rounds {
            let start = now()
            indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
            coldTimes.append(now() - start)
        }
        let paths = indexed.notebook.notes.keys.sorted()
        guard !paths.isEmpty else {
            StandardStreams.writeError("macmd-bench mentions: no notes in \(folder)\n")
            return 2
        }
        let proseBytes = paths.reduce(0) { $0 + (indexed.notebook.notes[$1]?.proseWords.keys.count ?? 0) } * 2
        var report = "notebook \(folder): \(paths.count) notes\n"
        report += "cold index in process (as `macmd check` does), best of \(rounds): \(format((coldTimes.min() ?? 0) * 1000, 0)) ms "
        report += "(the prose words: `macmd-bench notes DIR`); prose words kept: \(format(Double(proseBytes) / 1e6, 2)) MB\n"

        // 2. The automaton.
        let start = now()
        let names = indexed.notebook.mentionMatcher.nameCount
        report += "automaton of every name (\(names) names), made on first use: \(format((now() - start) * 1000, 1)) ms\n"

        // 3. One note's mentions, in process through NotebookIDE.
        let step = max(1, paths.count / max(1, sampleCount))
        let sample = stride(from: 0, to: paths.count, by: step).prefix(sampleCount).map { paths[$0] }
        var host = AnalysisHost()
        host.addFolder(indexed.path)
        host.updateFolder(indexed.path) { $0 = indexed }
        let snapshot = host.snapshot()
        var inProcess: [Double] = []
        var candidates: [Int] = []
        var found: [Int] = []
        var filtering: [Double] = []
        for path in sample {
            guard let view = snapshot.view(ofFile: indexed.absolutePath(path)) else { continue }
            let start = now()
            let mentions = view.unlinkedMentions()
            inProcess.append(now() - start)
            found.append(mentions.reduce(0) { $0 + $1.mentions.count })
            let filterStart = now()
            candidates.append(view.notebook.mentionCandidates(of: path).count)
            filtering.append(now() - filterStart)
        }
        report += "one note's mentions in process, \(inProcess.count) notes: \(distribution(inProcess)) "
        report += "(\(inProcess.filter { $0 <= 0.02 }.count) within 20 ms)"
        report += "; of which choosing the candidates from every note's prose words: \(distribution(filtering))"
        report += "; candidates a note: median \(median(candidates)), max \(candidates.max() ?? 0); mentions: median \(median(found)), max \(found.max() ?? 0)\n"

        // 4. The same through a server.
        let executable = serverPath ?? macmdPath()
        guard var server = ServerProcess.afterScan(executable, root: indexed.resolvedPath) else {
            StandardStreams.writeError("macmd-bench mentions: cannot start \(executable) lsp\n")
            return 1
        }
        var served: [Double] = []
        var first: Double?
        for (index, path) in sample.enumerated() {
            let id = RequestID.string("m\(index)")
            let start = now()
            server.send(.request(id: id, method: "macmd/unlinkedMentions", params: [
                "textDocument": ["uri": .string(fileURI(indexed.absolutePath(path)))]]))
            guard case .success = server.response(to: id) else { break }
            if first == nil {
                first = now() - start
            } else {
                served.append(now() - start)
            }
        }
        server.stop()
        report += "one note's mentions through the server (`macmd/unlinkedMentions`), \(served.count) notes: \(distribution(served)) "
        report += "(\(served.filter { $0 <= 0.02 }.count) within 20 ms); "
        report += "the first request (the automaton made) \(format((first ?? 0) * 1000, 1)) ms (target 20 ms)\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// `median m ms, p95 p ms, max x ms` of `seconds`.
    static func distribution(_ seconds: [Double]) -> String {
        let sorted = seconds.sorted()
        guard let last = sorted.last else { return "none" }
        return "median \(format(sorted[sorted.count / 2] * 1000, 2)) ms, p95 \(format(sorted[sorted.count * 95 / 100] * 1000, 2)) ms, "
            + "max \(format(last * 1000, 2)) ms"
    }

    static func median(_ values: [Int]) -> Int {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
