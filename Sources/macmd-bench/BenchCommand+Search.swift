// `macmd-bench search DIR`: what full-text search costs, on a notebook such as
// `macmd-bench generate --notes 10000 --seed 1 DIR` writes.
//
//   - the cold index in process, best of N (search terms are part of every note's symbols; the
//     index without them is the build before search: `macmd-bench index` with `--server` gives
//     both servers' times and memory), and what the search index holds (terms, postings, bytes);
//   - query latency in process through NotebookIDE (`AnalysisSnapshot.search`, limit 20: the
//     ranking, the texts of the hits read, phrases checked, excerpts cut), p50, p99 and max over
//     `--queries` queries (a third one word, a third two words, a third a two-word phrase, their
//     words taken from the prose of notes spread over the notebook), each asked `--rounds` times;
//   - the same through a `macmd lsp` child (`macmd/search`, the round trip), unless `--no-server`;
//   - with `--export DIR`: `tokens.jsonl` (each note's path and its terms as hashes, each repeated
//     as often as its weight in halves of a prose word: what a reference BM25 is given) and
//     `queries.json` (each query, its terms, and the paths MacMD ranks first), for
//     `Scripts/search_compare.py`, which compares with Tantivy and rank-bm25.

import CommandLineIO
import JSON
import JSONRPC
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension BenchCommand {
    static let searchUsage = "usage: macmd-bench search DIR [--queries N] [--rounds N] [--query Q] [--export DIR] [--no-server] [--server PATH]\n"

    static func search(_ arguments: [String]) -> Int32 {
        var (arguments, serverPath) = takingServer(arguments)
        var exportFolder: String?
        if let flag = arguments.firstIndex(of: "--export"), flag + 1 < arguments.count {
            exportFolder = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        // One query asked again and again (`--query`), for a profile of it.
        var onlyQuery: String?
        if let flag = arguments.firstIndex(of: "--query"), flag + 1 < arguments.count {
            onlyQuery = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        let withServer = !arguments.contains("--no-server")
        arguments.removeAll { $0 == "--no-server" }
        guard let (folder, counts) = folderAndCounts(arguments, ["--queries": 60, "--rounds": 5], usage: searchUsage) else { return 2 }
        let queryCount = counts["--queries"] ?? 60
        let rounds = counts["--rounds"] ?? 5
        let anywhere = [ConfigurationLayer(source: "bench", value: ["allowHomeOrRoot": true])]

        // 1. The cold index in process, best of three.
        var indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
        var coldTimes: [Double] = []
        for _ in 0..<3 {
            let start = now()
            indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
            coldTimes.append(now() - start)
        }
        let notebook = indexed.notebook
        let paths = notebook.notes.keys.sorted()
        guard !paths.isEmpty else {
            StandardStreams.writeError("macmd-bench search: no notes in \(folder)\n")
            return 2
        }
        let exported = notebook.searchTermsForExport()
        let termCount = exported.reduce(0) { $0 + $1.terms.count }
        let vocabulary = Set(exported.lazy.flatMap { $0.terms.map(\.hash) }).count
        var report = "notebook \(folder): \(paths.count) notes\n"
        report += "cold index in process (as `macmd check` does), best of 3: \(format((coldTimes.min() ?? 0) * 1000, 0)) ms; "
        report += "search index: \(vocabulary) terms, \(termCount) postings, about \(format(Double(termCount * 9 + paths.count * 256) / 1e6, 1)) MB "
        report += "(five bytes a note's term, four a posting, 256 bytes a note's filter of pairs)\n"

        // 2. The queries, from the prose of notes spread over the notebook.
        let queries = onlyQuery.map { [$0] } ?? searchQueries(indexed, paths: paths, count: queryCount)
        var host = AnalysisHost()
        host.addFolder(indexed.path)
        host.updateFolder(indexed.path) { $0 = indexed }
        let snapshot = host.snapshot()
        var times: [Double] = []
        var hitCounts: [Int] = []
        var tops: [[String]] = []
        var slowest = (query: "", seconds: 0.0)
        // Each query's median: a query slow every time, not one round a busy machine delayed.
        var medians: [(query: String, seconds: Double)] = []
        for query in queries {
            var top: [String] = []
            var own: [Double] = []
            for round in 0..<rounds {
                let start = now()
                let hits = snapshot.search(query, limit: 20)
                times.append(now() - start)
                own.append(now() - start)
                if let last = times.last, last > slowest.seconds { slowest = (query, last) }
                if round == 0 {
                    hitCounts.append(hits.count)
                    top = hits.prefix(10).map(\.note.path)
                }
            }
            tops.append(top)
            if !own.isEmpty { medians.append((query, own.sorted()[own.count / 2])) }
        }
        report += "query in process (limit 20), \(queries.count) queries x \(rounds): \(percentiles(times)) (target p99 5 ms); "
        report += "hits a query: median \(median(hitCounts)), max \(hitCounts.max() ?? 0); "
        report += "the slowest: \(slowest.query) (\(format(slowest.seconds * 1000, 2)) ms); by median: "
        report += medians.sorted { $0.seconds > $1.seconds }.prefix(3).map { "\($0.query) \(format($0.seconds * 1000, 2)) ms" }.joined(separator: ", ") + "\n"

        // 3. Through a server.
        if withServer {
            let executable = serverPath ?? macmdPath()
            guard var server = ServerProcess.afterScan(executable, root: indexed.resolvedPath) else {
                StandardStreams.writeError("macmd-bench search: cannot start \(executable) lsp\n")
                return 1
            }
            var served: [Double] = []
            for round in 0..<rounds {
                for (index, query) in queries.enumerated() {
                    let id = RequestID.string("s\(round)-\(index)")
                    let start = now()
                    server.send(.request(id: id, method: "macmd/search", params: ["query": .string(query), "limit": 20]))
                    guard case .success = server.response(to: id) else { break }
                    served.append(now() - start)
                }
            }
            server.stop()
            report += "query through the server (`macmd/search`, limit 20, the round trip), \(served.count) requests: \(percentiles(served))\n"
        }

        // 4. What the comparison script reads.
        if let exportFolder {
            var tokens: [UInt8] = []
            for (path, terms) in exported {
                var repeated: [JSONValue] = []
                for term in terms { repeated += repeatElement(.string(String(term.hash)), count: Int(term.weight)) }
                JSON.serialize(["path": .string(path), "terms": .array(repeated)], into: &tokens)
                tokens.append(0x0A)
            }
            var list: [JSONValue] = []
            for (index, query) in queries.enumerated() {
                let terms = SearchQuery(query).terms.map { JSONValue.string(String($0)) }
                list.append(["query": .string(query), "terms": .array(terms), "macmd": .array(tops[index].map { .string($0) })])
            }
            var queryBytes: [UInt8] = []
            JSON.serialize(["folder": .string(indexed.resolvedPath), "queries": .array(list)], into: &queryBytes)
            guard writeFile(exportFolder + "/tokens.jsonl", tokens), writeFile(exportFolder + "/queries.json", queryBytes) else {
                StandardStreams.writeError("macmd-bench search: cannot write into \(exportFolder)\n")
                return 1
            }
            report += "exported \(exported.count) notes' terms and \(queries.count) queries to \(exportFolder)\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// `count` queries made of the prose words of notes spread over the notebook: one word, two
    /// words, a phrase of two words that follow one another, in turn.
    static func searchQueries(_ folder: NotebookFolder, paths: [String], count: Int) -> [String] {
        var queries: [String] = []
        let step = max(1, paths.count / max(1, count))
        var index = 0
        while queries.count < count, index < paths.count * 2 {
            let path = paths[(index * step + index / paths.count) % paths.count]
            index += 1
            guard case .success(let bytes) = FileReader.contents(of: folder.absolutePath(path)) else { continue }
            let words = proseWords(bytes)
            guard words.count >= 4 else { continue }
            let middle = words.count / 2
            switch queries.count % 3 {
            case 0: queries.append(words[middle])
            case 1: queries.append(words[1] + " " + words[words.count - 2])
            default: queries.append("\"" + words[middle] + " " + words[middle + 1] + "\"")
            }
        }
        return queries
    }

    /// The words of the paragraphs of a note (lines that start with a letter, outside front
    /// matter and code), lowercased, at least three letters of a to z.
    static func proseWords(_ bytes: [UInt8]) -> [String] {
        var words: [String] = []
        var inCode = false
        var inFrontMatter = false
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if line.starts(with: Array("---".utf8)), number == 0 || inFrontMatter {
                inFrontMatter = number == 0
                continue
            }
            if line.starts(with: Array("```".utf8)) { inCode.toggle() }
            guard !inCode, !inFrontMatter, let first = line.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { continue }
            var previousSeparated = true
            for piece in line.split(separator: 0x20) {
                let letters = piece.filter { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
                // A word whole (no markup in it), after a space.
                if letters.count == piece.count, letters.count >= 3, previousSeparated {
                    words.append(String(decoding: letters.map { $0 | 0x20 }, as: UTF8.self))
                }
                previousSeparated = letters.count == piece.count
            }
        }
        return words
    }

    /// `p50 a ms, p99 b ms, max c ms` of `seconds`.
    static func percentiles(_ seconds: [Double]) -> String {
        let sorted = seconds.sorted()
        guard let last = sorted.last else { return "none" }
        return "p50 \(format(sorted[sorted.count / 2] * 1000, 2)) ms, p99 \(format(sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000, 2)) ms, "
            + "max \(format(last * 1000, 2)) ms"
    }
}
