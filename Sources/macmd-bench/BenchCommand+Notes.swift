// `macmd-bench notes DIR`: what indexing one note costs, phase by phase, on one core.
//
// The cold index (`bench index`) runs on every core and through the file system, so its time
// moves with the machine's load and the scheduler. This benchmark reads every note into memory
// first and then, on the calling thread only, parses each one, extracts its symbols, works out
// its table keys and files it in a fresh notebook, timing each phase: the per-note figures that
// add up to the cold index, repeatable under `valgrind --tool=callgrind` (one thread, no IO in
// the measured part), so each optimisation can be judged by instruction counts.

import CommandLineIO
import NotebookWorkspace
import MarkdownSyntax
import NotebookIndex

extension BenchCommand {
    static func notes(_ arguments: [String]) -> Int32 {
        guard let (folder, counts) = folderAndCounts(arguments, ["--rounds": 3], usage: "usage: macmd-bench notes DIR [--rounds N]\n") else {
            return 2
        }
        let rounds = counts["--rounds"] ?? 3
        var options = ScanOptions()
        options.allowHomeOrRoot = true
        let scan = WorkspaceScanner.scan(root: folder, options: options)
        var sources: [(path: String, bytes: [UInt8])] = []
        sources.reserveCapacity(scan.files.count)
        for file in scan.files {
            if case .success(let bytes) = FileReader.contents(of: scan.resolvedRoot + "/" + file.path) {
                sources.append((file.path, bytes))
            }
        }
        guard !sources.isEmpty else {
            StandardStreams.writeError("macmd-bench notes: no notes in \(folder)\n")
            return 2
        }
        let megabytes = Double(sources.reduce(0) { $0 + $1.bytes.count }) / 1e6

        // Best of `rounds` for each phase (the first round also warms the allocator). The words
        // of the notes' prose for unlinked mentions (`ProseWords`, part of the symbols the index
        // makes) and the automaton of every name (made when mentions are first asked for) are
        // phases of their own: the cost of the index with and without unlinked mentions.
        var best = (parse: Double.infinity, symbols: Double.infinity, prose: Double.infinity, search: Double.infinity,
                    keys: Double.infinity, tables: Double.infinity, matcher: Double.infinity)
        for _ in 0..<rounds {
            var parse = 0.0
            var symbols = 0.0
            var prose = 0.0
            var search = 0.0
            var keys = 0.0
            var prepared: [Notebook.PreparedNote] = []
            prepared.reserveCapacity(sources.count)
            // As a cold index's threads do: each parse reuses the arrays of the one before.
            var scratch = MarkdownParser.ParseScratch()
            var proseScratch = ProseWords.Scratch()
            var searchScratch = SearchTerms.Scratch()
            for source in sources {
                var start = now()
                let tree = MarkdownParser.parse(source.bytes, options: .notebook, scratch: &scratch)
                parse += now() - start
                start = now()
                var note = NoteSymbols.extract(from: tree, path: source.path, proseWords: false)
                symbols += now() - start
                start = now()
                note.proseWords = ProseWords(tree: tree, scratch: &proseScratch)
                prose += now() - start
                start = now()
                note.searchTerms = SearchTerms(tree: tree, title: note.title, scratch: &searchScratch)
                search += now() - start
                scratch.recycle(tree)
                start = now()
                prepared.append(Notebook.prepare(note))
                keys += now() - start
            }
            var start = now()
            var notebook = Notebook()
            notebook.reserveCapacity(notes: prepared.count)
            notebook.insert(prepared)
            let tables = now() - start
            start = now()
            let names = notebook.mentionMatcher.nameCount
            let matcher = now() - start
            guard names >= 0 else { return 2 }
            best = (min(best.parse, parse), min(best.symbols, symbols), min(best.prose, prose), min(best.search, search),
                    min(best.keys, keys), min(best.tables, tables), min(best.matcher, matcher))
        }
        let count = Double(sources.count)
        func line(_ name: String, _ seconds: Double) -> String {
            "  \(name): \(format(seconds * 1000, 1)) ms, \(format(seconds / count * 1e6, 1)) µs a note\n"
        }
        var report = "\(sources.count) notes, \(format(megabytes, 2)) MB; one core, best of \(rounds):\n"
        let without = best.parse + best.symbols + best.keys + best.tables
        report += line("parse          ", best.parse)
        report += line("symbols        ", best.symbols)
        report += line("prose words    ", best.prose)
        report += line("search terms   ", best.search)
        report += line("table keys     ", best.keys)
        report += line("tables (filing)", best.tables)
        report += line("total          ", without + best.prose + best.search)
        report += line("  without prose words", without)
        report += "  prose words: +\(format(best.prose / without * 100, 1)) %, search terms: +\(format(best.search / without * 100, 1)) % "
        report += "(with their postings in the tables)\n"
        report += "name automaton (unlinked mentions, made on first use): \(format(best.matcher * 1000, 1)) ms\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}
