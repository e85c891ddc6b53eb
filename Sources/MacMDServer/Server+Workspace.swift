// The notebooks and the disk: opening notebooks, cold indexes with progress, watched-file events,
// file operations, workspace folders and re-reading the disk for editors that cannot watch it.
// The work is NotebookWorkspace's; this file runs it on the `disk` queue and publishes what
// changed.
//
// Invariants (on top of Server.swift's contract):
// - Every job here runs on `disk`, one at a time, in arrival order: each reads outside the lock
//   (NotebookWorkspace does the IO) and applies the result in one short critical section.
// - Open documents win over the disk: updates skip the notes open at the time they are applied.
// - After any change, the diagnostics of the open notes it may affect go out.

import Dispatch
import LSPTypes
import Localization
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Server {
    // MARK: Opening and scanning (on `disk`)

    /// Reads the settings of every notebook not opened yet.
    func openFolders() {
        let (pending, layers) = state.withLock { state in
            (state.host.workspace.folders.filter { !$0.isOpened }, state.host.workspace.editorLayers)
        }
        adopt(pending, layers)
    }

    /// Reads and takes the settings of `folders`; open documents of a notebook whose index
    /// started again (other note extensions) are filed again.
    func adopt(_ folders: [NotebookFolder], _ layers: [ConfigurationLayer]) {
        var reset = false
        for folder in folders {
            let settings = folder.readSettings(editor: layers)
            // Shown when they change (a reload with the same mistakes does not show them again).
            if settings.configuration.problems != folder.configuration.problems || !folder.isOpened {
                report(settings.configuration.problems)
            }
            let adopted = state.withLock { state in state.host.updateFolder(folder) { folder -> (Bool, NotebookFolder) in
                (folder.adopt(settings), folder)
            } }
            guard let (changed, opened) = adopted else { continue }
            reset = reset || changed
            // The snippets folder may be another one now.
            loadSnippets(of: opened)
        }
        if reset { refileDocuments() }
    }

    // MARK: Snippets (on `disk`)

    /// Reads a notebook's snippets again: its `.macmd/snippets/*.json` and its snippets folder's
    /// notes. A broken file is logged (file, line, why) and its other snippets still load.
    func loadSnippets(of folder: NotebookFolder) {
        let files = SnippetFiles.folders(of: folder).flatMap {
            SnippetFiles.read(folder: $0.path, kind: $0.kind, noteExtensions: folder.configuration.extensions)
        }
        let source = SnippetLibrary.Source(files: files)
        for problem in source.problems { logger.warn("snippets: \(problem)") }
        let stored = state.withLock { state -> Bool in
            guard state.host.workspace.folder(folder.path)?.generation == folder.generation else { return false }
            state.host.setSnippets(source, forFolder: folder.path)
            return true
        }
        // Open snippet files show their problems.
        if stored && !files.isEmpty { publishDiagnostics(forOpenNotesIn: [folder.path]) }
    }

    /// Has the user's snippet folder read again when it changed, at most every
    /// `userSnippetsCheckSeconds` (two by default; a didOpen and each completion ask: the folder
    /// is outside every notebook, so no watcher reports it).
    func checkUserSnippets() {
        let now = Server.monotonicSeconds()
        let interval = configuration.userSnippetsCheckSeconds
        let due = state.withLock { state -> Bool in
            guard now - state.userSnippetsChecked >= interval else { return false }
            state.userSnippetsChecked = now
            return true
        }
        if due { disk.async { [self] in loadUserSnippets() } }
    }

    /// Reads the user's snippet folder (`$XDG_CONFIG_HOME/macmd/snippets`) when it changed.
    func loadUserSnippets() {
        guard let folder = SnippetFiles.userFolder() else { return }
        let stamp = SnippetFiles.stamp(of: folder)
        guard state.withLock({ $0.userSnippetsStamp }) != stamp else { return }
        let source = SnippetLibrary.Source(files: SnippetFiles.read(folder: folder, kind: .vscode))
        for problem in source.problems { logger.warn("snippets: \(problem)") }
        state.withLock { state in
            state.userSnippetsStamp = stamp
            state.host.setSnippets(source, forFolder: nil)
        }
        if stamp != nil { logger.info("read \(source.snippets.count) snippets from \(folder)") } // l10n-exempt: developer log
    }

    /// Cold-indexes every notebook that has not been scanned.
    func scanFolders() {
        let pending = state.withLock { state -> [NotebookFolder] in
            var folders: [NotebookFolder] = []
            for folder in state.host.workspace.folders where folder.scan == .pending {
                folders += state.host.updateFolder(folder) { folder -> NotebookFolder in
                    folder.scan = .running
                    return folder
                }.map { [$0] } ?? []
            }
            return folders
        }
        for folder in pending { coldIndex(folder) }
    }

    /// The cold index of one notebook, with `$/progress` when the client shows it. Requests made
    /// meanwhile answer from the notes indexed so far. A notebook removed (or replaced) meanwhile
    /// takes none of it.
    func coldIndex(_ folder: NotebookFolder) {
        let path = folder.path
        // However the scan ends, the requests that waited for it are answered.
        defer { answerRequestsAwaitingScan(path) }
        let progress = ProgressReporter(server: self, title: LocalizedText("server.progress.indexing.title"), token: "macmd-index-\(path)")
        let started = Server.monotonicSeconds()
        let walk = folder.walkForColdIndex()
        let walked = Server.monotonicSeconds()
        for line in walk.logLines { logger.info(line) }
        if walk.refusal != nil {
            state.withLock { state in _ = state.host.updateFolder(folder) { $0.refuseScan() } }
            progress.end(LocalizedText("server.progress.indexing.refused"))
            return
        }
        progress.begin(LocalizedText("server.progress.indexing.begin", .integer(walk.files.count)))
        let open = state.withLock { state -> Set<String>? in
            state.host.updateFolder(folder) { $0.reserveCapacity(notes: walk.files.count) }.map { state.host.openPaths(in: path) }
        }
        guard let open else {
            progress.end(LocalizedText("server.progress.indexing.closed"))
            return
        }
        let report = folder.loadColdIndex(walk, open: open) { [self] batch, files, done, total in
            // Notes opened meanwhile win over the disk (their paths once a batch, not a note).
            state.withLock { state in
                let openNow = state.host.openPaths(in: path)
                state.host.updateFolder(folder) { $0.insertScanned(batch, files: files, open: openNow) }
            }
            progress.report(done: done, total: total)
        }
        let loaded = Server.monotonicSeconds()
        for line in report.skipped { logger.info(line.english) }
        for line in report.failures { logger.warn(line.english) }
        if let scanGate {
            scanGate.wait()
            scanGate.signal()
        }
        let nested = state.withLock { state -> [ConfigurationProblem] in
            guard let finished = state.host.updateFolder(folder, { folder -> NotebookFolder in
                folder.finishScan(walk, report)
                return folder
            }) else { return [] }
            return walk.nestedSettings.filter { !Self.isNotebook(nestedSettings: $0, of: finished, in: state) }.map(finished.nestedSettingsProblem)
        }
        self.report(nested)
        // Link completion's index is part of the scan: built now, on both cores, so the first
        // `[[` typed when the scan ends is answered as fast as the next ones.
        let finished = Server.monotonicSeconds()
        makeCompletionIndex(path)
        let seconds = Server.monotonicSeconds() - started
        let phases = [walked - started, loaded - walked, finished - loaded, started + seconds - finished].map { Int($0 * 1000) }
        // l10n-exempt: developer log
        logger.debug("cold index of \(path): walk, reads and parses, end of the scan, completion index: \(phases.map(String.init).joined(separator: ", ")) ms")
        #if os(Linux)
        // The parse left freed memory in every thread's malloc arena; give it back.
        _ = glibcMallocTrim(0)
        #endif
        logger.info("indexed \(report.files.count) notes of \(path) in \(Int(seconds * 1000)) ms (memory trimmed in \(Int((Server.monotonicSeconds() - started - seconds) * 1000)) ms)") // l10n-exempt: developer log
        progress.end(LocalizedText("server.progress.indexing.done", .integer(report.files.count)))
        // The index is complete: the notes' problems with other notes are reported from now on.
        publishDiagnostics(forOpenNotesIn: [path], refreshing: true)
        refreshCodeLenses()
        refreshSemanticTokens(openNotes(in: [path]))
        warmCompletionLists(path)
        warmMentionMatcher(path)
    }

    /// Makes the automaton of the notebook's names for unlinked mentions a moment after the
    /// scan (it is made again when names change), unless the feature is off: the first request
    /// for a note's mentions then finds it made, and the scan does not wait for it.
    func warmMentionMatcher(_ path: String) {
        guard state.withLock({ !$0.disabledFeatures.contains(.unlinkedMentions) }) else { return }
        disk.asyncAfter(deadline: .now() + .milliseconds(150)) { [self] in
            let snapshot = state.withLock { $0.host.snapshot() }
            if let folder = snapshot.workspace.folder(path) { _ = folder.notebook.mentionMatcher }
        }
    }

    /// Builds link completion's index ahead of the first `[[` (it is rebuilt when names change),
    /// and a moment later what other completions read of it (the folder tree, tags by use), so
    /// that does not take a core from the first requests after a scan.
    func warmCompletion(_ path: String) {
        buildCompletionIndex(path, on: disk)
        warmCompletionLists(path)
    }

    /// Builds link completion's index of the notebook at `path` on `queue` (a request that
    /// needs it meanwhile waits for this build rather than making its own).
    func buildCompletionIndex(_ path: String, on queue: DispatchQueue) {
        queue.async { [self] in makeCompletionIndex(path) }
    }

    /// Builds (or brings up to date) link completion's index of the notebook at `path` now, on
    /// this thread and the cores it spreads over; the snapshot it reads is let go when it returns.
    func makeCompletionIndex(_ path: String) {
        let snapshot = state.withLock { $0.host.snapshot() }
        if let folder = snapshot.workspace.folder(path) { _ = snapshot.completionIndex(of: folder) }
    }

    /// What other completions read of the index (the folder tree, tags by use), a moment after
    /// it is built, so that does not take a core from the first requests.
    func warmCompletionLists(_ path: String) {
        disk.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            let snapshot = state.withLock { $0.host.snapshot() }
            if let folder = snapshot.workspace.folder(path) { snapshot.warmCompletionLists(of: folder) }
        }
    }

    /// Settings problems go to the log, and the first to the user (`window/showMessage`): a
    /// setting that is not applied must not go unnoticed.
    func report(_ problems: [ConfigurationProblem]) {
        guard let first = problems.first else { return }
        for problem in problems { logger.warn("configuration: \(problem)") }
        let shown = first.string(in: locale)
        let message = problems.count > 1
            ? LocalizedText("server.settings.problemAndMore", .integer(problems.count - 1), .string(shown))
            : LocalizedText("server.settings.problem", .string(shown))
        send(ShowMessageNotification.self, ShowMessageParams(type: .warning, message: message.string(in: locale)))
    }

    /// Records nested `.macmd.json` files that came or went, and says that a new one is not read.
    func noteNestedSettings(_ changes: [(path: String, present: Bool)], of folder: NotebookFolder) {
        let problems = state.withLock { state -> [ConfigurationProblem] in
            guard let updated = state.host.updateFolder(folder, { folder -> NotebookFolder in
                for change in changes { folder.noteNestedSettings(change.path, present: change.present) }
                return folder
            }) else { return [] }
            return changes.filter { $0.present && !Self.isNotebook(nestedSettings: $0.path, of: updated, in: state) }
                .map { updated.nestedSettingsProblem($0.path) }
        }
        report(problems)
    }

    /// Whether the folder of a nested `.macmd.json` is a notebook of its own (a workspace
    /// folder inside another): its settings are read there.
    static func isNotebook(nestedSettings relative: String, of folder: NotebookFolder, in state: State) -> Bool {
        state.host.workspace.folder(folder.path + "/" + NotebookPath.folder(of: relative)) != nil
    }

    /// Reads every notebook's settings again (the editor's or a `.macmd.json` changed), then
    /// compares each with the disk: new ignore globs or size limits change which files belong.
    func reloadSettings() {
        let (folders, layers) = state.withLock { ($0.host.workspace.folders, $0.host.workspace.editorLayers) }
        adopt(folders, layers)
        publishDiagnostics(forOpenNotesIn: Set(folders.map(\.path)))
        refreshSemanticTokens(openNotes(in: Set(folders.map(\.path))))
        // A notebook whose note extensions changed is indexed again from scratch.
        scanFolders()
        for folder in folders { refresh(folder.path) }
    }

    /// Re-reads the notes whose modification time changed, and the files that came or went.
    func refresh(_ path: String) {
        guard let folder = state.withLock({ $0.host.workspace.folder(path) }) else { return }
        let open = state.withLock { $0.host.openPaths(in: path) }
        guard let updates = folder.changesOnDisk(open: open) else { return }
        apply(updates, to: folder)
        if !updates.isEmpty { logger.info("refreshed \(updates.count) changed files of \(path) from disk") } // l10n-exempt: developer log
    }

    /// Applies updates read from the disk for `folder` to it (skipping the notes open now) and
    /// publishes the diagnostics they change; nothing when the notebook has gone since.
    func apply(_ updates: [FileUpdate], to folder: NotebookFolder) {
        guard !updates.isEmpty else { return }
        let affected = state.withLock { state -> Set<String> in
            let open = state.host.openPaths(in: folder.path)
            return state.host.updateFolder(folder) { $0.apply(updates, open: open) } ?? []
        }
        publishDiagnostics(affected.map { NoteRef(folder: folder.path, path: $0) })
        refreshCodeLenses()
        refreshSemanticTokens(affected.map { NoteRef(folder: folder.path, path: $0) })
        warmCompletion(folder.path)
    }

    // MARK: Events

    /// `workspace/didChangeWatchedFiles` and the `did…Files` file operations: each path goes
    /// through the scan's rules in its notebook (`NotebookFolder.read`).
    func fileEvents(_ events: [(uri: String, kind: FileEvent.Kind)]) {
        disk.async { [self] in
            var byFolder: [String: [DiskEvent]] = [:]
            var order: [String] = []
            for (uri, kind) in events {
                guard let file = FileURI.path(of: uri),
                      let note = state.withLock({ $0.host.workspace.locate(file: file) }) else { continue }
                if byFolder[note.folder] == nil { order.append(note.folder) }
                byFolder[note.folder, default: []].append(DiskEvent(path: note.path, kind: FromLSP.diskEventKind(kind)))
            }
            var settingsChanged = false
            for path in order {
                guard let folder = state.withLock({ $0.host.workspace.folder(path) }) else { continue }
                let outcome = folder.read(byFolder[path] ?? [], open: state.withLock { $0.host.openPaths(in: path) })
                for line in outcome.logLines { logger.info(line) }
                apply(outcome.updates, to: folder)
                if outcome.snippetsChanged && !outcome.settingsChanged { loadSnippets(of: folder) }
                if !outcome.nestedSettings.isEmpty { noteNestedSettings(outcome.nestedSettings, of: folder) }
                settingsChanged = settingsChanged || outcome.settingsChanged
                if outcome.needsRefresh && !outcome.settingsChanged { refresh(path) }
            }
            // A changed `.macmd.json` reloads every notebook's settings, and compares each with
            // the disk.
            if settingsChanged { reloadSettings() }
        }
    }

    /// `workspace/didChangeWorkspaceFolders`.
    func changeWorkspaceFolders(added: [String], removed: [String]) {
        let addedPaths = added.compactMap(FileURI.path(of:))
        let removedPaths = removed.compactMap(FileURI.path(of:))
        state.withLock { state in
            state.host.removeFolders(removedPaths)
            for path in addedPaths { state.host.addFolder(path) }
        }
        // Requests waiting for a removed notebook's first scan go on now: one whose scan had
        // not started yet would never see it end. (They find their notes' notebooks again.)
        for path in removedPaths { answerRequestsAwaitingScan(path) }
        logger.info("workspace folders: +\(addedPaths.count) -\(removedPaths.count)") // l10n-exempt: developer log
        // An open note left outside every notebook gets its own folder's.
        let homeless = state.withLock { state in
            state.host.documents.values.compactMap(\.file).filter { state.host.workspace.locate(file: $0) == nil }
        }
        for file in homeless { openFolder(forNoteAt: file) }
        // Notes may be in another notebook now.
        refileDocuments()
        disk.async { [self] in
            openFolders()
            scanFolders()
        }
    }

    /// Files every open document again (the notebooks they belong to changed).
    func refileDocuments() {
        let open = state.withLock { state -> [String] in
            // A new nesting bound parses them otherwise.
            state.host.reparseForSettings()
            state.host.documentsMoved()
            return Array(state.host.documents.keys)
        }
        for id in open { scheduleFiling(of: id) }
    }

    /// A single-folder notebook for a note opened outside every notebook: its folder's files.
    func openFolder(forNoteAt file: String) {
        let folder = state.withLock { state -> String? in
            guard let folder = state.host.workspace.singleFolder(for: file), state.host.addFolder(folder, singleFolder: true) else { return nil }
            return folder
        }
        guard let folder else { return }
        logger.info("\(file) is outside every workspace folder: indexing its folder \(folder) alone") // l10n-exempt: developer log
        disk.async { [self] in
            openFolders()
            scanFolders()
        }
    }
}

#if os(Linux)
/// glibc's `malloc_trim`, which the Glibc module does not import.
@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: Int) -> Int32
#endif
