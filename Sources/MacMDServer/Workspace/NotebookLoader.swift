// Builds a `Notebook` from a scan: reads and parses every note on all cores.
//
// Invariants: the result does not depend on the number of threads or the order they finish in
// (a `Notebook` is equal whatever order notes are added in); a note that cannot be read is left
// out with a log line, never a failure. Trees are dropped as soon as their symbols are taken, so
// memory holds symbols, not syntax trees.

import Dispatch
import MarkdownSyntax
import NotebookIndex
import Synchronization

public enum NotebookLoader {
    /// The symbols of one note's bytes.
    public static func symbols(of bytes: [UInt8], path: String) -> NoteSymbols {
        NoteSymbols.extract(from: MarkdownParser.parse(bytes, options: .notebook), path: path)
    }

    /// Reads and indexes `scan`'s notes (paths relative to `scan.resolvedRoot`) on all cores,
    /// handing each batch of symbols to `deliver` as it is ready (from worker threads, one batch
    /// at a time), with the number of files done so far and the total. Files in `skipping` are
    /// left out. Returns one log line per file that could not be read.
    public static func load(_ scan: ScanResult, skipping: Set<String> = [], noteExtensions: [String] = ["md", "markdown"],
                            deliver: @Sendable ([Notebook.PreparedNote], _ done: Int, _ total: Int) -> Void) -> [String] {
        let extensions = noteExtensions.map { $0.lowercased() }
        let files = scan.files.filter { !skipping.contains($0.path) }
        let root = scan.resolvedRoot
        let chunkSize = 64
        let chunks = (files.count + chunkSize - 1) / chunkSize
        let results = Mutex<(log: [String], done: Int)>(([], 0))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var notes: [Notebook.PreparedNote] = []
            var log: [String] = []
            for file in files[(chunk * chunkSize)..<min(files.count, (chunk + 1) * chunkSize)] {
                switch FileReader.contents(of: root + "/" + file.path) {
                case .success(let bytes):
                    notes.append(Notebook.prepare(symbols(of: bytes, path: file.path), noteExtensions: extensions))
                case .failure(let error): log.append("skipped \(file.path): \(error)")
                }
            }
            results.withLock { results in
                results.log += log
                results.done += notes.count + log.count
                deliver(notes, results.done, files.count)
            }
        }
        return results.withLock { $0.log }.sorted()
    }

    /// The whole notebook of `scan` (notes and assets), and the files that could not be read.
    public static func build(_ scan: ScanResult, noteExtensions: [String] = ["md", "markdown"]) -> (notebook: Notebook, log: [String]) {
        // Batches go into the notebook as they are parsed, so the graph is built while the other
        // core is still parsing.
        var empty = Notebook(noteExtensions: noteExtensions)
        empty.reserveCapacity(notes: scan.files.count)
        let shared = Mutex(empty)
        let log = load(scan, noteExtensions: noteExtensions) { notes, _, _ in shared.withLock { $0.insert(notes) } }
        var notebook = shared.withLock { $0 }

        for asset in scan.assets { notebook.addAsset(asset) }
        return (notebook, log)
    }
}
