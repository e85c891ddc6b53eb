// The server's notebooks: one per workspace folder (or the folder of a note opened outside every
// folder), scanned in the background and kept true note by note.
//
// Concurrency contract (on top of Server.swift's):
// - Scans run on `scanner` (all cores through `NotebookLoader`); they add notes to the state in
//   batches, so requests made during a scan answer from what is indexed so far.
// - Re-indexing after an edit, a watched-file event or a file operation runs on `indexer`, a
//   serial queue, one job per event. A job for a document version that is no longer current does
//   nothing (the newer version's job follows), so fast typing re-indexes only the latest text:
//   that is the debounce, and it adds no delay.
// - Open documents win over the disk: a scan or a watcher never replaces an open note's symbols.
// - Diagnostics go out after each job, for the note and for the open notes the change affects
//   (`NotebookChange.affected`), pushed with the document version they were computed from.

import Dispatch
import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import Synchronization
import TextCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One notebook the server keeps.
struct NotebookRoot: Sendable {
    enum ScanState: Sendable { case pending, running, done }

    /// The folder as the client named it, and with symlinks resolved.
    var path: String
    var resolvedPath: String
    /// A folder holding a note opened outside every workspace folder: only its own files count.
    var isSingleFolder: Bool
    var configuration: NotebookConfiguration
    var notebook: Notebook
    var scan = ScanState.pending
    /// Modification times of the notes read from disk, for clients that cannot watch files.
    var modificationTimes: [String: Int64] = [:]
    /// Bumped when notes or files come or go or a title or alias changes (`catalogRevision`),
    /// and on any change (`revision`): when link completion's index must be rebuilt or refreshed.
    var catalogRevision = 0
    var revision = 0
    /// Link completion's index and the revisions it was built at.
    var completion: (workspace: CompletionWorkspace, catalogRevision: Int, revision: Int)?

    /// Records a change to the notebook.
    mutating func changed(catalog: Bool) {
        revision &+= 1
        if catalog { catalogRevision &+= 1 }
    }

    /// `path` relative to this folder, when it lies inside it.
    func relativePath(ofFile file: String) -> String? {
        for base in [path, resolvedPath] where !base.isEmpty {
            let prefix = base.hasSuffix("/") ? base : base + "/"
            if file.hasPrefix(prefix) {
                let relative = String(file.utf8.dropFirst(prefix.utf8.count)) ?? ""
                if isSingleFolder && relative.utf8.contains(UInt8(ascii: "/")) { return nil }
                return relative.isEmpty ? nil : relative
            }
        }
        return nil
    }

    func absolutePath(_ relative: String) -> String { resolvedPath + "/" + relative }

    /// What decides, path by path, whether a file belongs to this notebook: the scan's own rules
    /// (a single folder holds only the files directly in it).
    func membership() -> ScanMembership {
        var options = configuration.scanOptions
        if isSingleFolder { options.maxDepth = 0 }
        return ScanMembership(root: resolvedPath, options: options)
    }

    /// True when `relative` names a note by its extension.
    func isNote(_ relative: String) -> Bool {
        guard let dot = relative.utf8.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let ext = String(relative[relative.utf8.index(after: dot)...]).lowercased()
        return configuration.extensions.contains { $0.lowercased() == ext }
    }
}

/// Where a document lives: its notebook (by the root's `path`) and its path inside it.
struct NoteLocation: Sendable, Hashable {
    var root: String
    var path: String
}

extension Server {
    // MARK: Roots

    /// The notebooks named by `initialize`: its workspace folders, else its root URI.
    func setUpRoots(_ params: InitializeParams) {
        var folders = params.workspaceFolders.compactMap(FileURI.path(of:))
        if folders.isEmpty, let root = params.rootURI.flatMap(FileURI.path(of:)) { folders = [root] }
        let roots = folders.map { makeRoot(path: $0, singleFolder: false) }
        state.withLock { $0.roots = roots }
        if folders.isEmpty { logger.info("no workspace folder: single-file mode (each note's own folder)") }
    }

    func makeRoot(path: String, singleFolder: Bool) -> NotebookRoot {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let resolved = WorkspaceScanner.realPath(trimmed) ?? trimmed
        let configuration = loadConfiguration(root: resolved)
        return NotebookRoot(path: trimmed, resolvedPath: resolved, isSingleFolder: singleFolder,
                            configuration: configuration, notebook: Notebook(noteExtensions: configuration.extensions))
    }

    /// The editor's settings, then the notebook's `.macmd.json`.
    func loadConfiguration(root: String) -> NotebookConfiguration {
        var layers: [(name: String, value: JSONValue)] = []
        let editor = state.withLock { ($0.initializationOptions, $0.editorSettings) }
        if let options = editor.0 { layers.append(("initializationOptions", options)) }
        if let settings = editor.1 { layers.append(("workspace settings", settings)) }
        let file = root + "/.macmd.json"
        if case .success(let bytes) = FileReader.contents(of: file, limit: 1 << 20) {
            do { layers.append((file, try JSON.parse(bytes))) } catch {
                layers.append((file, .string("not JSON")))
                logger.warn("\(file) is not valid JSON (\(error.message)); using the defaults")
            }
        }
        let configuration = NotebookConfiguration.merged(layers)
        for problem in configuration.problems { logger.warn("configuration: \(problem)") }
        return configuration
    }

    /// The notebook and path of a document URI, creating a single-folder notebook for a note
    /// outside every root (and scanning it).
    func locate(_ uri: String, creating: Bool = true) -> NoteLocation? {
        guard let file = FileURI.path(of: uri) else { return nil }
        if let found = state.withLock({ Server.locate(file: file, in: $0.roots) }) { return found }
        guard creating, let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folder = String(file[..<slash])
        let root = makeRoot(path: folder.isEmpty ? "/" : folder, singleFolder: true)
        let added = state.withLock { state -> Bool in
            guard !state.roots.contains(where: { $0.path == root.path }) else { return false }
            state.roots.append(root)
            return true
        }
        if added {
            logger.info("\(file) is outside every workspace folder: indexing its folder \(root.path) alone")
            startScans()
        }
        return state.withLock { Server.locate(file: file, in: $0.roots) }
    }

    static func locate(file: String, in roots: [NotebookRoot]) -> NoteLocation? {
        var best: (root: NotebookRoot, path: String)?
        for root in roots {
            guard let relative = root.relativePath(ofFile: file) else { continue }
            if let current = best, current.path.utf8.count <= relative.utf8.count { continue }
            best = (root, relative)
        }
        return best.map { NoteLocation(root: $0.root.path, path: $0.path) }
    }

    /// The URI the client uses for a note: its open document's, else a `file:` URI.
    static func uri(of location: NoteLocation, state: State) -> String {
        for (uri, _) in state.documents {
            if let file = FileURI.path(of: uri), let found = locate(file: file, in: state.roots), found == location { return uri }
        }
        let root = state.roots.first { $0.path == location.root }
        return FileURI.uri(ofPath: (root?.path ?? location.root) + "/" + location.path)
    }

    // MARK: Scanning

    /// Starts scanning every notebook not scanned yet, with progress when the client shows it.
    func startScans() {
        let pending = state.withLock { state -> [String] in
            var names: [String] = []
            for index in state.roots.indices where state.roots[index].scan == .pending {
                state.roots[index].scan = .running
                names.append(state.roots[index].path)
            }
            return names
        }
        for root in pending { scanner.async { [self] in scan(root) } }
    }

    /// The cold index of one notebook. The walk does not inspect notes (no `stat` or `access`
    /// per note on this one thread): the loader's reads learn sizes and times from their
    /// `fstat`, apply the size limit and report what they could not read.
    func scan(_ rootPath: String) {
        guard let root = state.withLock({ $0.roots.first { $0.path == rootPath } }) else { return }
        let progress = ProgressReporter(server: self, title: "Indexing notes", token: "macmd-index-\(rootPath)")
        var options = root.configuration.scanOptions
        if root.isSingleFolder { options.maxDepth = 0 }
        options.inspectsFiles = false
        let started = Server.monotonicSeconds()
        let result = WorkspaceScanner.scan(root: root.resolvedPath, options: options)
        for line in result.logLines { logger.info(line) }
        if result.refusal != nil {
            state.withLock { state in
                if let index = state.roots.firstIndex(where: { $0.path == rootPath }) { state.roots[index].scan = .done }
            }
            progress.end("not indexed")
            return
        }
        let open = state.withLock { Server.openPaths(in: rootPath, $0) }
        progress.begin("\(result.files.count) notes")
        state.withLock { state in
            if let index = state.roots.firstIndex(where: { $0.path == rootPath }) {
                state.roots[index].notebook.reserveCapacity(notes: result.files.count)
            }
        }
        let report = NotebookLoader.load(result, skipping: open, noteExtensions: root.configuration.extensions) { [self] notes, done, total in
            state.withLock { state in
                guard let index = state.roots.firstIndex(where: { $0.path == rootPath }) else { return }
                // Notes opened meanwhile win over the disk (their paths once a batch, not a note).
                let openNow = Server.openPaths(in: rootPath, state)
                state.roots[index].notebook.insert(openNow.isEmpty ? notes : notes.filter { !openNow.contains($0.symbols.path) })
                state.roots[index].changed(catalog: true)
            }
            progress.report(done: done, total: total)
        }
        for skip in report.skipped { logger.info("skipped \(skip.path): \(skip.reason)") }
        for line in report.failures { logger.warn(line) }
        // The loader did not read the open notes; their times come from a stat each (a few), so
        // a rescan does not take them all for changed.
        var times = report.files
        for path in open.sorted() where result.files.contains(where: { $0.path == path }) {
            var info = stat()
            if stat(root.absolutePath(path), &info) == 0 {
                times.append(ScannedFile(path: path, size: Int64(info.st_size), modificationTimeNanoseconds: FileReader.modificationTime(info)))
            }
        }
        state.withLock { state in
            guard let index = state.roots.firstIndex(where: { $0.path == rootPath }) else { return }
            for asset in result.assets { state.roots[index].notebook.addAsset(asset) }
            state.roots[index].changed(catalog: true)
            for file in times { state.roots[index].modificationTimes[file.path] = file.modificationTimeNanoseconds }
            state.roots[index].scan = .done
        }
        let seconds = Server.monotonicSeconds() - started
        #if os(Linux)
        // The parse left freed memory in every thread's malloc arena; give it back.
        _ = glibcMallocTrim(0)
        #endif
        logger.info("indexed \(times.count) notes of \(rootPath) in \(Int(seconds * 1000)) ms (memory trimmed in \(Int((Server.monotonicSeconds() - started - seconds) * 1000)) ms)")
        progress.end("\(times.count) notes indexed")
        publishDiagnostics(forOpenNotesIn: [rootPath])
        warmCompletion(rootPath)
    }

    /// Builds link completion's index ahead of the first `[[` (it is rebuilt when names change).
    func warmCompletion(_ rootPath: String) {
        scanner.async { [self] in
            guard let root = state.withLock({ $0.roots.first { $0.path == rootPath } }),
                  root.completion?.catalogRevision != root.catalogRevision else { return }
            let workspace = CompletionWorkspace(notebook: root.notebook)
            state.withLock { state in
                guard let index = state.roots.firstIndex(where: { $0.path == rootPath }),
                      state.roots[index].catalogRevision == root.catalogRevision else { return }
                state.roots[index].completion = (workspace, root.catalogRevision, root.revision)
            }
        }
    }

    /// The notebook-relative paths of the open documents in the notebook at `rootPath`.
    static func openPaths(in rootPath: String, _ state: State) -> Set<String> {
        Set(state.documents.keys.compactMap { uri in
            FileURI.path(of: uri).flatMap { locate(file: $0, in: state.roots) }
        }.filter { $0.root == rootPath }.map(\.path))
    }

    static func isOpen(_ location: NoteLocation, _ state: State) -> Bool {
        state.documents.keys.contains { uri in
            FileURI.path(of: uri).flatMap { locate(file: $0, in: state.roots) } == location
        }
    }

    /// Re-reads notes whose modification time changed (for clients that cannot watch files).
    /// The walk inspects every note (the default): the times are what it compares.
    func refreshFromDisk(_ rootPath: String) {
        guard let root = state.withLock({ $0.roots.first { $0.path == rootPath && $0.scan == .done } }) else { return }
        var options = root.configuration.scanOptions
        if root.isSingleFolder { options.maxDepth = 0 }
        let result = WorkspaceScanner.scan(root: root.resolvedPath, options: options)
        guard result.refusal == nil else { return }
        var changed: [ScannedFile] = []
        for file in result.files where root.modificationTimes[file.path] != file.modificationTimeNanoseconds { changed.append(file) }
        let present = Set(result.files.map(\.path))
        let vanished = root.notebook.notes.keys.filter { !present.contains($0) }
        var events: [(String, FileEvent.Kind)] = changed.map { ($0.path, .changed) } + vanished.map { ($0, .deleted) }
        let assets = Set(result.assets)
        events += assets.subtracting(root.notebook.assets).map { ($0, .created) }
        events += root.notebook.assets.subtracting(assets).map { ($0, .deleted) }
        for (path, kind) in events { fileEvent(NoteLocation(root: rootPath, path: path), kind) }
        if !events.isEmpty { logger.info("refreshed \(events.count) changed files of \(rootPath) from disk") }
    }

    // MARK: Keeping notes true

    /// Re-indexes an open document's text (or the disk's, once it is closed), on `indexer`.
    /// A note over 256 KB waits 250 ms first: a burst of edits to it (or a preview of it, which
    /// wants both cores) then costs one re-index, not one per keystroke.
    func scheduleIndexing(of uri: String) {
        let (version, size) = state.withLock { ($0.documents[uri]?.version, $0.documents[uri]?.text.count ?? 0) }
        if size > 256 * 1024 {
            indexer.asyncAfter(deadline: .now() + .milliseconds(250)) { [self] in index(uri, version: version) }
        } else {
            indexer.async { [self] in index(uri, version: version) }
        }
    }

    func index(_ uri: String, version: Int?) {
        guard let location = locate(uri) else { return }
        let text: [UInt8]?
        if let version {
            guard let document = state.withLock({ $0.documents[uri] }), document.version == version else { return }
            text = document.text
        } else {
            // Closed: the file on disk is the truth again (it may have been discarded unsaved).
            if state.withLock({ $0.documents[uri] != nil }) { return }
            text = try? FileReader.contents(of: state.withLock { state in
                state.roots.first { $0.path == location.root }?.absolutePath(location.path) ?? ""
            }).get()
        }
        let symbols = text.map { NotebookLoader.symbols(of: $0, path: location.path) }
        let change = state.withLock { state -> NotebookChange? in
            if let version, state.documents[uri]?.version != version { return nil }
            guard let index = state.roots.firstIndex(where: { $0.path == location.root }) else { return nil }
            state.indexedVersions[uri] = version
            let change = symbols.map { state.roots[index].notebook.update($0) } ?? state.roots[index].notebook.remove(path: location.path)
            state.roots[index].changed(catalog: change?.catalogChanged ?? false)
            return change
        }
        guard let change else { return }
        publishDiagnostics([location] + change.affected.map { NoteLocation(root: location.root, path: $0) })
        if change.catalogChanged { warmCompletion(location.root) }
    }

    /// A file created, changed or deleted outside the editor (a watcher or a file operation).
    func fileEvent(_ location: NoteLocation, _ kind: FileEvent.Kind) {
        guard let root = state.withLock({ $0.roots.first { $0.path == location.root } }) else { return }
        if state.withLock({ Server.isOpen(location, $0) }) { return }
        var affected: Set<String> = []
        if root.isNote(location.path) {
            // The time comes from the read's own fstat: no second syscall, and it is the time of
            // the bytes read (a write after the open changes it again, so a rescan reads again).
            var snapshot: FileSnapshot?
            if kind != .deleted, case .read(let read) = FileReader.snapshot(of: root.absolutePath(location.path)) { snapshot = read }
            let mtime = snapshot?.modificationTimeNanoseconds
            let symbols = snapshot.map { NotebookLoader.symbols(of: $0.bytes, path: location.path) }
            affected = state.withLock { state -> Set<String> in
                guard let index = state.roots.firstIndex(where: { $0.path == location.root }) else { return [] }
                state.roots[index].modificationTimes[location.path] = mtime
                if let symbols {
                    let change = state.roots[index].notebook.update(symbols)
                    state.roots[index].changed(catalog: change.catalogChanged)
                    return change.affected.union([location.path])
                }
                let change = state.roots[index].notebook.remove(path: location.path)
                state.roots[index].changed(catalog: change != nil)
                return change?.affected ?? []
            }
        } else if kind == .deleted, !root.notebook.assets.contains(location.path) {
            // A deleted folder: everything under it goes.
            let prefix = location.path + "/"
            for path in root.notebook.notes.keys where path.hasPrefix(prefix) {
                fileEvent(NoteLocation(root: location.root, path: path), .deleted)
            }
            for path in root.notebook.assets where path.hasPrefix(prefix) {
                fileEvent(NoteLocation(root: location.root, path: path), .deleted)
            }
            return
        } else if kind != .changed {
            affected = state.withLock { state -> Set<String> in
                guard let index = state.roots.firstIndex(where: { $0.path == location.root }) else { return [] }
                state.roots[index].changed(catalog: true)
                return kind == .created ? state.roots[index].notebook.addAsset(location.path)
                    : state.roots[index].notebook.removeAsset(location.path)
            }
        }
        publishDiagnostics(affected.map { NoteLocation(root: location.root, path: $0) })
    }

    /// A created or renamed folder: index what is in it now. The walk inspects every note (the
    /// default), so the size limit and unreadable files are handled as in a rescan.
    func folderAppeared(_ location: NoteLocation) {
        guard let root = state.withLock({ $0.roots.first { $0.path == location.root } }) else { return }
        // The caller has admitted the folder itself (`ScanMembership`); this decides its contents.
        var membership = root.membership()
        var options = root.configuration.scanOptions
        options.maxDepth = root.isSingleFolder ? 0 : options.maxDepth
        // The configured globs are written from the notebook's root, not from this folder, and
        // the `.gitignore` files above it are not read by a walk that starts here: the walk lists
        // a superset, and `membership` applies every rule from the root to each path found.
        options.ignoreGlobs = []
        let result = WorkspaceScanner.scan(root: root.absolutePath(location.path), options: options)
        for file in result.files.map(\.path) + result.assets {
            let path = location.path + "/" + file
            switch membership.verdict(of: path) {
            case .note, .asset: fileEvent(NoteLocation(root: location.root, path: path), .created)
            case .folder, .excluded: continue
            }
        }
    }

    /// `workspace/didChangeWatchedFiles` and the `did…Files` file operations.
    ///
    /// The index must stay what a fresh scan would build, so each created or changed path goes
    /// through the scan's own rules first (`ScanMembership`: hidden folders, `node_modules`,
    /// `.gitignore` files, the `ignore` globs, `maxFileSize`): a path the scan would leave out is
    /// taken as deleted (a note renamed into an ignored folder leaves the index; one that grew
    /// over the limit too). A changed `.gitignore` changes which files belong anywhere below it,
    /// so its notebook is compared with a fresh walk instead (`refreshFromDisk`, which keeps open
    /// documents), once per batch; a changed `.macmd.json` at a notebook's root reloads the
    /// configuration, which does the same for every notebook.
    func handleFileEvents(_ events: [FileEvent]) {
        indexer.async { [self] in
            var memberships: [String: ScanMembership] = [:]
            var rescans: [String] = []
            var reloadsConfiguration = false
            for event in events {
                guard let file = FileURI.path(of: event.uri),
                      let (location, root) = state.withLock({ state -> (NoteLocation, NotebookRoot)? in
                          guard let location = Server.locate(file: file, in: state.roots),
                                let root = state.roots.first(where: { $0.path == location.root }) else { return nil }
                          return (location, root)
                      }) else { continue }
                if ScanMembership.isIgnoreFile(location.path) {
                    if !rescans.contains(location.root) { rescans.append(location.root) }
                    continue
                }
                if location.path == ".macmd.json" {
                    reloadsConfiguration = true
                    continue
                }
                var info = stat()
                let isFolder = event.kind != .deleted && stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                var membership = memberships[location.root] ?? root.membership()
                defer { memberships[location.root] = membership }
                if event.kind != .deleted, case .excluded(let reason) = membership.verdict(of: location.path, isDirectory: isFolder) {
                    logger.info("not indexing \(location.path): \(reason)")
                    // What was indexed there before (a note renamed or grown out of the notebook) goes.
                    fileEvent(location, .deleted)
                } else if isFolder {
                    folderAppeared(location)
                } else {
                    fileEvent(location, event.kind)
                }
            }
            if reloadsConfiguration {
                reloadConfigurations()
            } else {
                for root in rescans { refreshFromDisk(root) }
            }
        }
    }

    /// `workspace/didChangeWorkspaceFolders`.
    func changeWorkspaceFolders(added: [String], removed: [String]) {
        let removedPaths = Set(removed.compactMap(FileURI.path(of:)).map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        let newRoots = added.compactMap(FileURI.path(of:)).map { makeRoot(path: $0, singleFolder: false) }
        state.withLock { state in
            state.roots.removeAll { removedPaths.contains($0.path) }
            for root in newRoots where !state.roots.contains(where: { $0.path == root.path }) { state.roots.append(root) }
            // Single-folder notebooks inside a new workspace folder are now part of it.
            state.roots.removeAll { root in
                root.isSingleFolder && newRoots.contains { root.path.hasPrefix($0.path + "/") || root.path == $0.path }
            }
        }
        logger.info("workspace folders: +\(newRoots.count) -\(removedPaths.count)")
        startScans()
        let open = state.withLock { Array($0.documents.keys) }
        for uri in open { scheduleIndexing(of: uri) }
    }
}

/// `$/progress` for one long job, when the client shows progress; silent otherwise.
final class ProgressReporter: Sendable {
    let server: Server
    let token: JSONValue?
    let title: String
    let lastPercent = Mutex(-1)

    init(server: Server, title: String, token: String) {
        self.server = server
        self.title = title
        guard server.state.withLock({ $0.client.supportsWorkDoneProgress }) else {
            self.token = nil
            return
        }
        let token = JSONValue.string(token)
        self.token = token
        // The token may be used once the client has answered; wait for that, briefly.
        let answered = DispatchSemaphore(value: 0)
        server.sendRequest("window/workDoneProgress/create", params: ["token": token]) { _ in answered.signal() }
        _ = answered.wait(timeout: .now() + .seconds(2))
    }

    func begin(_ message: String) {
        send(["kind": "begin", "title": .string(title), "message": .string(message), "percentage": 0, "cancellable": false])
    }

    func report(done: Int, total: Int) {
        guard total > 0 else { return }
        let percent = done * 100 / total
        let changed = lastPercent.withLock { last -> Bool in
            guard percent >= last + 5 || (percent == 100 && last != 100) else { return false }
            last = percent
            return true
        }
        if changed { send(["kind": "report", "message": .string("\(done)/\(total) notes"), "percentage": .int(Int64(percent))]) }
    }

    func end(_ message: String) {
        send(["kind": "end", "message": .string(message)])
    }

    private func send(_ value: JSONValue) {
        guard let token else { return }
        server.connection.send(.notification(method: "$/progress", params: ["token": token, "value": value]))
    }
}

#if os(Linux)
/// glibc's `malloc_trim`, which the Glibc module does not import.
@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: Int) -> Int32
#endif
