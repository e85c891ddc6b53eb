// A notebook and its disk: the cold index, watched-file events, and re-reading the folder for
// editors that cannot watch files. Each reads and parses outside the folder value (IO) and
// returns what to apply; `NotebookFolder.apply` and `finishScan` change the folder.
//
// Invariants:
// - The index stays what a fresh scan would build: every created or changed path goes through
//   the scan's own rules first (`ScanMembership`: hidden folders, `node_modules`, `.gitignore`
//   files, the `ignore` globs, `maxFileSize`), and a path the scan would leave out is taken as
//   deleted (a note renamed into an ignored folder leaves the index; one that grew over the
//   limit too).
// - A changed `.gitignore` changes which files belong anywhere below it, and a changed
//   `.macmd.json` at the folder's root changes the settings: those are not read as notes but
//   reported (`DiskEventsOutcome.needsRefresh`, `.settingsChanged`) for the caller to re-read the
//   settings or compare with a fresh walk (`changesOnDisk`).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Localization
import NotebookIndex
import Locks

/// A file created, changed or deleted in a notebook's folder.
public struct DiskEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case created, changed, deleted }
    /// Relative to the notebook's folder.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}

/// What a batch of disk events amounts to.
public struct DiskEventsOutcome: Sendable {
    /// The notes and files to apply (`NotebookFolder.apply`).
    public var updates: [FileUpdate] = []
    /// A `.gitignore` changed: compare the index with a fresh walk (`changesOnDisk`).
    public var needsRefresh = false
    /// The notebook's `.macmd.json` changed: read the settings again.
    public var settingsChanged = false
    /// A file user snippets come from changed (`SnippetFiles.isSnippetPath`): read them again.
    public var snippetsChanged = false
    /// `.macmd.json` files below the root that came (true) or went (false): they are not read
    /// (`NotebookFolder.nestedSettings`).
    public var nestedSettings: [(path: String, present: Bool)] = []
    /// Why paths were left out, for the log.
    public var logLines: [String] = []
}

/// What the reads of a cold index learnt besides the notes.
public struct ColdIndexReport: Sendable {
    /// The notes indexed with their sizes and modification times (open notes included, last:
    /// their times come from a `stat` each, so a refresh does not take them for changed).
    public var files: [ScannedFile] = []
    /// How many of `files`, at its end, are open notes (the others were delivered with their
    /// batches).
    public var openFiles = 0
    /// Notes over the size limit and notes that could not be read, one line each (sorted by
    /// their English).
    public var skipped: [LocalizedText] = []
    public var failures: [LocalizedText] = []
}

extension NotebookFolder {
    // MARK: The cold index

    /// The walk of a cold index (IO). It does not inspect notes (no `stat` or `access` per
    /// note): the reads learn sizes and times from their `fstat` and apply the size limit.
    public func walkForColdIndex() -> ScanResult {
        var options = scanOptions
        options.inspectsFiles = false
        return WorkspaceScanner.scan(root: resolvedPath, options: options)
    }

    /// Reads and parses the notes `walk` found, except those in `open`, on all cores (IO),
    /// handing them to `deliver` in batches (from worker threads, one delivery at a time) with
    /// the number of notes done and the total; apply each batch (its notes, and their files'
    /// sizes and times) with `insertScanned`.
    public func loadColdIndex(_ walk: ScanResult, open: Set<String>,
                              deliver: @Sendable ([Notebook.PreparedNote], [ScannedFile], _ done: Int, _ total: Int) -> Void) -> ColdIndexReport {
        let report = NotebookLoader.load(walk, skipping: open, noteExtensions: configuration.extensions, deliver: deliver)
        var times = report.files
        for path in open.sorted() where walk.files.contains(where: { $0.path == path }) {
            var info = stat()
            if stat(absolutePath(path), &info) == 0 {
                times.append(ScannedFile(path: path, size: Int64(info.st_size), modificationTimeNanoseconds: FileReader.modificationTime(info)))
            }
        }
        return ColdIndexReport(files: times, openFiles: times.count - report.files.count, skipped: report.skipped.map(\.logText), failures: report.failures)
    }

    /// Makes room for a scan's notes in the index.
    public mutating func reserveCapacity(notes count: Int) {
        notebook.reserveCapacity(notes: count)
    }

    /// Files a batch of a cold index, except the notes in `open` (opened meanwhile: they win),
    /// and the times of all its files (one batch at a time, while other notes are parsed, rather
    /// than all at the scan's end).
    public mutating func insertScanned(_ batch: [Notebook.PreparedNote], files: [ScannedFile], open: Set<String>) {
        notebook.insert(open.isEmpty ? batch : batch.filter { !open.contains($0.symbols.path) })
        modificationTimes.reserveCapacity(modificationTimes.count + files.count)
        for file in files { modificationTimes[file.path] = file.modificationTimeNanoseconds }
        changed(catalog: true)
    }

    /// Ends a cold index: the files that are not notes, the times of the notes read.
    public mutating func finishScan(_ walk: ScanResult, _ report: ColdIndexReport) {
        for asset in walk.assets { notebook.addAsset(asset) }
        // The files read were filed with their batches; the open notes' times come last.
        for file in report.files.suffix(report.openFiles) { modificationTimes[file.path] = file.modificationTimeNanoseconds }
        nestedSettings = Set(walk.nestedSettings)
        scan = .done
        changed(catalog: true)
    }

    /// Records that the `.macmd.json` at `relative` (below the root) came or went.
    public mutating func noteNestedSettings(_ relative: String, present: Bool) {
        if present { nestedSettings.insert(relative) } else { nestedSettings.remove(relative) }
    }

    /// Ends a cold index that could not run (the folder was refused).
    public mutating func refuseScan() {
        scan = .refused
    }

    // MARK: Events

    /// Reads what `events` did to the notebook (IO): the notes as they are now, files and
    /// folders that came or went, paths that the scan's rules leave out. Notes in `open` are
    /// not read (the open document wins).
    public func read(_ events: [DiskEvent], open: Set<String>) -> DiskEventsOutcome {
        var outcome = DiskEventsOutcome()
        var membership = self.membership()
        for event in events {
            if ScanMembership.isIgnoreFile(event.path) {
                outcome.needsRefresh = true
                continue
            }
            if event.path == NotebookConfiguration.fileName {
                outcome.settingsChanged = true
                continue
            }
            if event.path.hasSuffix("/" + NotebookConfiguration.fileName) {
                // One in a folder the scan does not enter (hidden, ignored) is nobody's business.
                let entered = membership.verdict(of: NotebookPath.folder(of: event.path), isDirectory: true) == .folder
                let present = entered && event.kind != .deleted && FileReader.exists(absolutePath(event.path))
                if present != nestedSettings.contains(event.path) { outcome.nestedSettings.append((event.path, present)) }
                continue
            }
            if SnippetFiles.isSnippetPath(event.path, in: self) {
                outcome.snippetsChanged = true
                // `.macmd/snippets/*.json` are no notes; a snippets folder's notes are.
                if event.path.hasPrefix(".macmd/") { continue }
            }
            var info = stat()
            let isFolder = event.kind != .deleted && stat(absolutePath(event.path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            if event.kind != .deleted, case .excluded(let reason) = membership.verdict(of: event.path, isDirectory: isFolder) {
                outcome.logLines.append(LocalizedText("scan.log.notIndexing", .string(event.path), .text(reason)).english)
                // What was indexed there before (a note renamed or grown out of the notebook) goes.
                outcome.updates += updates(for: event.path, .deleted, open: open)
            } else if isFolder {
                outcome.updates += contents(ofNewFolder: event.path, open: open)
            } else {
                outcome.updates += updates(for: event.path, event.kind, open: open)
            }
        }
        return outcome
    }

    /// The updates for one path: a note read again (or gone), a file that came or went, or
    /// everything under a deleted folder.
    func updates(for path: String, _ kind: DiskEvent.Kind, open: Set<String>) -> [FileUpdate] {
        if open.contains(path) { return [] }
        if isNote(path) {
            // The time comes from the read's own fstat: no second syscall, and it is the time of
            // the bytes read (a write after the open changes it again, so a refresh reads again).
            if kind != .deleted, case .read(let read) = FileReader.snapshot(of: absolutePath(path)) {
                return [FileUpdate(path: path, change: .note(NoteSymbols.parsing(read.bytes, path: path, options: configuration.parseOptions),
                                                            modificationTime: read.modificationTimeNanoseconds))]
            }
            return [FileUpdate(path: path, change: .noteRemoved)]
        }
        // A file that is not a note by its name but is indexed (an open document's text, filed
        // while it was open) leaves the index: a scan would not list it.
        if notebook.notes[path] != nil { return [FileUpdate(path: path, change: .noteRemoved)] }
        if kind == .deleted, !notebook.assets.contains(path) {
            // A deleted folder: everything under it goes.
            let prefix = path + "/"
            var result: [FileUpdate] = []
            for note in notebook.notes.keys.sorted() where note.hasPrefix(prefix) && !open.contains(note) {
                result.append(FileUpdate(path: note, change: .noteRemoved))
            }
            for asset in notebook.assets.sorted() where asset.hasPrefix(prefix) {
                result.append(FileUpdate(path: asset, change: .assetRemoved))
            }
            return result
        }
        switch kind {
        case .created: return [FileUpdate(path: path, change: .assetAdded)]
        case .deleted: return [FileUpdate(path: path, change: .assetRemoved)]
        case .changed: return []
        }
    }

    /// What a created or renamed folder holds now. The walk inspects every note (the default),
    /// so the size limit and unreadable files are handled as in a refresh.
    func contents(ofNewFolder folder: String, open: Set<String>) -> [FileUpdate] {
        // The caller has admitted the folder itself; this decides its contents.
        var membership = self.membership()
        var options = scanOptions
        // The configured globs are written from the notebook's root, not from this folder, and
        // the `.gitignore` files above it are not read by a walk that starts here: the walk lists
        // a superset, and `membership` applies every rule from the root to each path found.
        options.ignoreGlobs = []
        let result = WorkspaceScanner.scan(root: absolutePath(folder), options: options)
        var updates: [FileUpdate] = []
        for file in result.files.map(\.path) + result.assets {
            let path = folder + "/" + file
            switch membership.verdict(of: path) {
            case .note, .asset: updates += self.updates(for: path, .created, open: open)
            case .folder, .excluded: continue
            }
        }
        return updates
    }

    // MARK: Refresh

    /// The changes since the index was built, found by a fresh walk that compares modification
    /// times (for editors that cannot watch files, after a `.gitignore` or settings change).
    /// Nil before the cold index has run (it will read everything anyway) or when the folder
    /// is refused.
    public func changesOnDisk(open: Set<String>) -> [FileUpdate]? {
        guard scan == .done else { return nil }
        let result = WorkspaceScanner.scan(root: resolvedPath, options: scanOptions)
        guard result.refusal == nil else { return nil }
        var updates: [FileUpdate] = []
        for file in result.files where modificationTimes[file.path] != file.modificationTimeNanoseconds {
            updates += self.updates(for: file.path, .changed, open: open)
        }
        let present = Set(result.files.map(\.path))
        for path in notebook.notes.keys.sorted() where !present.contains(path) && !open.contains(path) {
            updates.append(FileUpdate(path: path, change: .noteRemoved))
        }
        let assets = Set(result.assets)
        for path in assets.subtracting(notebook.assets).sorted() { updates.append(FileUpdate(path: path, change: .assetAdded)) }
        for path in notebook.assets.subtracting(assets).sorted() { updates.append(FileUpdate(path: path, change: .assetRemoved)) }
        return updates
    }

    // MARK: A whole notebook at once

    /// Opens the folder at `path` as a notebook and indexes it, in the calling thread's time
    /// (the reads use every core): what `macmd check` and `macmd render --notebook` use, the
    /// same path as the language server's. `log` holds the paths left out (the settings'
    /// problems are in `folder.configuration.problems`); `refusal` says why nothing was indexed.
    public static func indexed(path: String, editor layers: [ConfigurationLayer] = [])
        -> (folder: NotebookFolder, log: [LocalizedText], refusal: ScanRefusal?) {
        var folder = NotebookFolder(path: path, singleFolder: false)
        folder.isNamedByUser = true
        folder.adopt(folder.readSettings(editor: layers))
        let walk = folder.walkForColdIndex()
        if let refusal = walk.refusal {
            folder.refuseScan()
            return (folder, [], refusal)
        }
        folder.reserveCapacity(notes: walk.files.count)
        // Batches are filed as they are parsed, so the tables fill while the other core parses.
        let shared = SharedFolder(folder)
        let report = folder.loadColdIndex(walk, open: []) { batch, files, _, _ in shared.insert(batch, files) }
        folder = shared.take()
        folder.finishScan(walk, report)
        return (folder, walk.logTexts + (report.skipped + report.failures).sorted { $0.english < $1.english }, nil)
    }
}

/// A folder that loader threads file batches into, one at a time.
private final class SharedFolder: Sendable {
    private let folder: Locked<NotebookFolder>
    init(_ folder: NotebookFolder) { self.folder = Locked(folder) }
    func insert(_ batch: [Notebook.PreparedNote], _ files: [ScannedFile]) { folder.withLock { $0.insertScanned(batch, files: files, open: []) } }
    func take() -> NotebookFolder { folder.withLock { $0 } }
}
