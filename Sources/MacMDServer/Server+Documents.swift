// Open documents: the text synchronisation notifications, and filing each document version into
// its notebook so diagnostics, completion and navigation see the editor's text.
//
// Invariants (on top of Server.swift's contract):
// - The reader thread only stores text and versions; parsing and filing happen on `indexer` (one
//   job per version, in arrival order) or in a request that needs its note current
//   (`fileDocument`), whichever comes first, once.
// - A job for a version that is no longer current does nothing: the newer version's job follows,
//   so fast typing files only the latest text. That is the debounce, and it adds no delay. A
//   note over 256 KB waits 250 ms first: a burst of edits to it (or a preview of it, which wants
//   both cores) then costs one parse, not one per keystroke.
// - Diagnostics go out after each job, for the note and for the open notes the version changed
//   (`NotebookChange.affected`), with the version they were computed from.

import Dispatch
import JSONRPC
import LSPTypes
import Localization
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension Server {
    // MARK: Notifications (reader thread)

    func didOpen(_ params: DidOpenTextDocumentParams) {
        let opened = Server.monotonicSeconds()
        let item = params.textDocument
        let file = FileURI.path(of: item.uri)
        state.withLock { state in
            state.host.open(OpenDocument(id: item.uri, file: file, languageID: item.languageID, version: item.version,
                                         text: Array(item.text.utf8)))
        }
        // A note outside every notebook gets its folder's (read and scanned on `disk`).
        if let file { openFolder(forNoteAt: file) }
        checkUserSnippets()
        scheduleFiling(of: item.uri)
        logger.debug("didOpen applied in \(Int((Server.monotonicSeconds() - opened) * 1e6)) µs") // l10n-exempt: developer log
    }

    func didChange(_ params: DidChangeTextDocumentParams) {
        let uri = params.textDocument.uri
        let (applied, trim) = state.withLock { state -> (Bool, Bool) in
            guard let document = state.host.documents[uri] else { return (false, false) }
            let lines = FromLSP.applying(params.contentChanges, to: document.analysis.lines, encoding: state.client.encoding)
            let applied = state.host.change(uri, version: params.textDocument.version ?? document.version + 1, lines: lines)
            return (applied, Server.noteActivity(&state))
        }
        if trim { trimWhenIdle(after: Server.trimPause) }
        if applied {
            scheduleFiling(of: uri)
        } else {
            logger.warn("didChange for a document that is not open: \(uri)") // l10n-exempt: developer log
        }
    }

    /// Once the server has had nothing to do for a second after edits or requests, the memory
    /// their texts, trees, line indexes and answers freed is handed back to the system
    /// (`MemoryTrim`): without it, the allocator keeps the high-water mark of a burst, little of
    /// it live. One job per pause,
    /// on `indexer` after the filing jobs queued before it; no timer runs while the server idles.
    /// Called under the `state` lock the caller holds anyway (a keystroke takes no second lock);
    /// true when the caller must start the wait (`trimWhenIdle`).
    static func noteActivity(_ state: inout State) -> Bool {
        state.lastActivity = monotonicSeconds()
        guard !state.trimScheduled else { return false }
        state.trimScheduled = true
        return true
    }

    static let trimPause = 1.0

    func trimWhenIdle(after seconds: Double) {
        indexer.asyncAfter(deadline: .now() + .milliseconds(Int(seconds * 1000))) { [self] in
            let wait = state.withLock { state -> Double? in
                let idle = Server.monotonicSeconds() - state.lastActivity
                if idle < Server.trimPause { return Server.trimPause - idle }
                state.trimScheduled = false
                return nil
            }
            if let wait { return trimWhenIdle(after: wait) }
            MemoryTrim.release()
        }
    }

    func didClose(_ params: DidCloseTextDocumentParams) {
        let uri = params.textDocument.uri
        let (note, pushes) = state.withLock { state in
            state.lastPushes[uri] = nil
            return (state.host.close(uri), !state.client.supportsPullDiagnostics)
        }
        // Push clients keep what was published until it is cleared.
        if pushes { send(PublishDiagnosticsNotification.self, PublishDiagnosticsParams(uri: uri, diagnostics: [])) }
        // The file on disk is the truth again (the buffer may have been discarded unsaved).
        if let note { reread(note) }
    }

    func didSave(_ params: DidSaveTextDocumentParams) {
        let uri = params.textDocument.uri
        if let text = params.text {
            let changed = state.withLock { state -> Bool in
                guard let document = state.host.documents[uri] else { return false }
                return state.host.change(uri, version: document.version, text: Array(text.utf8))
            }
            if changed { scheduleFiling(of: uri) }
        }
        // Without a file watcher, a save is when other files' changes are looked for; a saved
        // snippet file is read again either way.
        let (watches, note, folder) = state.withLock { state in
            let note = state.host.location(of: uri)
            return (state.client.supportsWatchedFilesRegistration, note, note.flatMap { state.host.workspace.folder($0.folder) })
        }
        if !watches, let note { disk.async { [self] in refresh(note.folder) } }
        if let note, let folder, SnippetFiles.isSnippetPath(note.path, in: folder) { disk.async { [self] in loadSnippets(of: folder) } }
    }

    // MARK: Filing

    /// Queues the filing of an open document's current version on `indexer`.
    func scheduleFiling(of id: String) {
        guard let (version, size) = state.withLock({ state in state.host.documents[id].map { ($0.version, $0.text.count) } }) else { return }
        if size > 256 * 1024 {
            indexer.asyncAfter(deadline: .now() + .milliseconds(250)) { [self] in fileAndPublish(id, version: version) }
        } else {
            indexer.async { [self] in fileAndPublish(id, version: version) }
        }
    }

    /// The index job of one document version: files it (unless a request did), then publishes
    /// the diagnostics of the note and of the notes the version changed.
    func fileAndPublish(_ id: String, version: Int) {
        guard state.withLock({ $0.host.documents[id]?.version == version }) else { return }
        fileDocument(id, version: version)
        // A newer version arrived meanwhile: its job publishes, and takes what this one changed.
        let (change, note) = state.withLock { state -> (NotebookChange?, NoteRef?) in
            guard state.host.documents[id]?.version == version else { return (nil, nil) }
            return (state.host.takeChange(id), state.host.location(of: id))
        }
        guard let note else { return }
        let affected = (change?.affected ?? []).map { NoteRef(folder: note.folder, path: $0) }
        publishDiagnostics([note] + affected)
        // The client asks for the edited note's tokens itself; the others' links may reach
        // something else now.
        refreshSemanticTokens(affected.filter { $0 != note })
        // Other notes' code lenses count the links this version added or removed.
        if let change, change.linksChanged || change.catalogChanged || !change.affected.isEmpty { refreshCodeLenses() }
        if change?.catalogChanged == true { warmCompletion(note.folder) }
    }

    /// Makes the notebook of document `id` hold its version `version`: parses outside the lock
    /// (once per version, shared with every request) and files the symbols inside it.
    func fileDocument(_ id: String, version: Int) {
        guard let (note, analysis) = state.withLock({ $0.host.needsFiling(id, version: version) }) else { return }
        let symbols = analysis.symbols(path: note.path)
        state.withLock { $0.host.bringUpToDate(id, version: version, symbols: symbols) }
    }

    /// Reads a note of a notebook from disk again (a closed document), on `disk`.
    func reread(_ note: NoteRef) {
        disk.async { [self] in
            guard let folder = state.withLock({ $0.host.workspace.folder(note.folder) }) else { return }
            let outcome = folder.read([DiskEvent(path: note.path, kind: .changed)], open: state.withLock { $0.host.openPaths(in: note.folder) })
            apply(outcome.updates, to: folder)
        }
    }

    // MARK: Requests on one document

    /// Runs a request about the document `uri` on `workers` with its view: the document as the
    /// reader thread has it now (captured here, so the request sees every earlier edit of it and
    /// none after), filed into its notebook; or the file, when it is not open.
    func onDocument<Request: ClientRequest>(_ id: RequestID, _ uri: String, _ request: Request.Type,
                                            _ work: @escaping @Sendable (NoteView) -> Result<Request.Response, ResponseError>) {
        let document = state.withLock { $0.host.documents[uri] }
        schedule(id, request) { [self] in view(of: uri, document).flatMap(work) }
    }

    /// The view of a request's document (see `onDocument`).
    func view(of uri: String, _ document: OpenDocument?) -> Result<NoteView, ResponseError> {
        if let document {
            fileDocument(document.id, version: document.version)
            return .success(state.withLock { $0.host.snapshot() }.view(of: document))
        }
        guard let file = FileURI.path(of: uri) else {
            return .failure(ResponseError(code: ResponseError.invalidParams,
                                          text: LocalizedText("server.document.notFileNorOpen", "params.textDocument.uri", .string(uri))))
        }
        guard let view = state.withLock({ $0.host.snapshot() }).view(ofFile: file) else {
            return .failure(ResponseError(code: ResponseError.invalidParams, text: LocalizedText("server.document.unreadable", .string(uri))))
        }
        return .success(view)
    }
}
