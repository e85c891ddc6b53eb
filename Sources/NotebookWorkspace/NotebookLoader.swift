// Builds a `Notebook` from a scan: reads and parses every note on all cores.
//
// Invariants: the result does not depend on the number of threads or the order they finish in
// (a `Notebook` is equal whatever order notes are added in); a note that cannot be read is left
// out with a log line, never a failure, and so is one over the size limit (the reader's fstat
// checks it, as a scan without `inspectsFiles` has not). Trees are dropped as soon as their
// symbols are taken, so memory holds symbols, not syntax trees.

import Dispatch
import Localization
import MarkdownSyntax
import NotebookIndex
import Locks

public enum NotebookLoader {
    /// What `load` learnt besides the notes.
    public struct Report: Sendable {
        /// The notes read, in the scan's order, each with the size and modification time of the
        /// `fstat` done when it was opened (a scan without `inspectsFiles` knows neither).
        public var files: [ScannedFile] = []
        /// Notes over the scan's size limit (`ScanResult.maxFileSize`), not read, with the
        /// scanner's reason; sorted by path.
        public var skipped: [ScanSkip] = []
        /// One line per note that could not be read (`skipped PATH: cannot read …`), sorted by
        /// their English.
        public var failures: [LocalizedText] = []

        /// The `skipped PATH: reason` lines of `skipped` and `failures`, sorted by their English.
        public var logTexts: [LocalizedText] {
            (skipped.map(\.logText) + failures).sorted { $0.english < $1.english }
        }

        /// `logTexts` in English, for the server's log.
        public var logLines: [String] { logTexts.map(\.english) }
    }

    /// Reads and indexes `scan`'s notes (paths relative to `scan.resolvedRoot`) on all cores,
    /// handing the symbols to `deliver` in batches as they are ready (each note with its file's
    /// size and time, in the same order) (from worker threads, one
    /// delivery at a time, never two at once), with the number of files done so far and the
    /// total. A worker that finishes a chunk while a delivery runs leaves its batch for that
    /// delivery to take and goes on parsing: no core waits for another's delivery. Files in `skipping` are
    /// left out. A note over `scan.maxFileSize` is left out too (by the `fstat` of its open, so
    /// a scan that did not inspect files needs no `stat`), and so is one that cannot be read.
    public static func load(_ scan: ScanResult, skipping: Set<String> = [], noteExtensions: [String] = ["md", "markdown"],
                            deliver: @Sendable ([Notebook.PreparedNote], [ScannedFile], _ done: Int, _ total: Int) -> Void) -> Report {
        let extensions = noteExtensions.map { $0.lowercased() }
        let files = skipping.isEmpty ? scan.files : scan.files.filter { !skipping.contains($0.path) }
        let root = scan.resolvedRoot
        let limit = scan.maxFileSize
        let chunkSize = 64
        let chunks = (files.count + chunkSize - 1) / chunkSize
        // Each chunk's files go into its own slot, so `Report.files` keeps the scan's order
        // whatever order the threads finish in.
        let results = Locked<(report: Report, slots: [[ScannedFile]], done: Int, waiting: [([Notebook.PreparedNote], [ScannedFile])], delivering: Bool)>(
            (Report(), Array(repeating: [], count: chunks), 0, [], false))
        /// Delivers the waiting batches unless a delivery runs (which then takes them itself).
        @Sendable func deliverWaiting() {
            while true {
                let work = results.withLock { results -> (notes: [Notebook.PreparedNote], files: [ScannedFile], done: Int)? in
                    guard !results.delivering, !results.waiting.isEmpty else { return nil }
                    results.delivering = true
                    let batch = results.waiting.count == 1 ? results.waiting[0]
                        : (Array(results.waiting.map(\.0).joined()), Array(results.waiting.map(\.1).joined()))
                    results.waiting.removeAll()
                    return (batch.0, batch.1, results.done)
                }
                guard let work else { return }
                deliver(work.notes, work.files, work.done, files.count)
                // Batches left meanwhile are taken on the next turn of the loop.
                results.withLock { $0.delivering = false }
            }
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var notes: [Notebook.PreparedNote] = []
            var read: [ScannedFile] = []
            var skipped: [ScanSkip] = []
            var failures: [LocalizedText] = []
            // The chunk's notes are parsed one after the other in the same arrays.
            var scratch = NoteSymbols.Scratch()
            for file in files[(chunk * chunkSize)..<min(files.count, (chunk + 1) * chunkSize)] {
                switch FileReader.snapshot(of: root + "/" + file.path, maxSize: limit) {
                case .read(let snapshot):
                    let symbols = NoteSymbols.parsing(snapshot.bytes, path: file.path, options: scan.parseOptions, scratch: &scratch)
                    notes.append(Notebook.prepare(symbols, noteExtensions: extensions))
                    read.append(ScannedFile(path: file.path, size: snapshot.size, modificationTimeNanoseconds: snapshot.modificationTimeNanoseconds))
                case .tooLarge(let size):
                    skipped.append(ScanSkip(path: file.path, reason: .tooLarge(size: size, limit: limit)))
                case .failed(let error):
                    failures.append(LocalizedText("scan.log.skipped", .string(file.path), .text(error.text)))
                }
            }
            results.withLock { results in
                results.report.skipped += skipped
                results.report.failures += failures
                results.slots[chunk] = read
                results.done += notes.count + skipped.count + failures.count
                results.waiting.append((notes, read))
            }
            deliverWaiting()
        }
        deliverWaiting()
        return results.withLock { results in
            var report = results.report
            report.files = results.slots.flatMap { $0 }
            report.skipped.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            report.failures.sort { $0.english < $1.english }
            return report
        }
    }
}
