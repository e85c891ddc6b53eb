// Diagnostics: pushed (`textDocument/publishDiagnostics`) for open notes, or pulled
// (`textDocument/diagnostic`, `workspace/diagnostic`) by clients that ask. NotebookIDE decides
// what is shown (severities from the configuration, related places); this file converts.
//
// Invariants: a pushed set is computed from the very version it names, and only the latest
// version's set goes out (a newer job publishes its own); every diagnostic has `source: macmd`
// and a stable `code`.

import Dispatch
import JSONRPC
import LSPTypes
import Locks
import NotebookIDE
import NotebookWorkspace

extension Server {
    /// Sends fresh diagnostics for those of `notes` that are open (push clients), or asks a pull
    /// client to pull again.
    func publishDiagnostics(_ notes: [NoteRef], refreshing: Bool = false) {
        // Switched off by the editor (`features.diagnostics`): the notes are filed, nothing is
        // pushed or refreshed.
        let off = state.withLock { $0.disabledFeatures.contains(.diagnostics) }
        let client = client
        if client.supportsPullDiagnostics, !off {
            if client.supportsDiagnosticRefresh && (refreshing || !notes.isEmpty) { send(DiagnosticRefreshRequest.self, NoParams()) { _ in } }
            return
        }
        var seen: Set<NoteRef> = []
        for note in notes where seen.insert(note).inserted {
            guard let document = state.withLock({ $0.host.document(at: note) }) else { continue }
            fileDocument(document.id, version: document.version)
            if !off { pushing.withLock { push(document, client: client) } }
        }
    }

    /// Computes and sends `document`'s diagnostics from the current snapshot (under `pushing`).
    private func push(_ document: OpenDocument, client: ClientInfo) {
        let view = state.withLock { $0.host.snapshot() }.view(of: document)
        let convert = ToLSP(view, uri: document.id, client: client)
        let items = view.diagnostics().map { convert.diagnostic($0, view.lines) }
        let push = PublishDiagnosticsParams(uri: document.id, version: document.version, diagnostics: items)
        // Only the latest version's diagnostics go out (a newer job publishes its own), and
        // the same set for the same version goes out once.
        let sends = state.withLock { state -> Bool in
            guard state.host.documents[document.id]?.version == document.version,
                  state.lastPushes[document.id] != push else { return false }
            state.lastPushes[document.id] = push
            return true
        }
        if sends { send(PublishDiagnosticsNotification.self, push) }
    }

    /// Publishes for every open note of the given notebooks; `refreshing` asks a pulling client
    /// to pull again even when none is open (a notebook's index became complete: its
    /// workspace-wide report changed).
    func publishDiagnostics(forOpenNotesIn folders: Set<String>, refreshing: Bool = false) {
        publishDiagnostics(openNotes(in: folders), refreshing: refreshing)
    }

    /// The open notes of the given notebooks, sorted.
    func openNotes(in folders: Set<String>) -> [NoteRef] {
        state.withLock { state in folders.flatMap { folder in state.host.openPaths(in: folder).map { NoteRef(folder: folder, path: $0) } } }.sorted()
    }

    /// `textDocument/diagnostic`: the full report for one note.
    func pullDiagnostics(_ id: RequestID, _ params: DocumentDiagnosticParams) {
        let uri = params.textDocument.uri
        // A pulling client that cannot be asked to pull again would keep a report made before the
        // scan's end (the note's own problems only) until the next edit: it gets its answer at the
        // end. (A client that is pushed to gets the full set pushed then.)
        let waits = state.withLock { $0.client.supportsPullDiagnostics && !$0.client.supportsDiagnosticRefresh }
        if waits && answerAfterScan(id, of: uri, { [self] in pullDiagnostics(id, params) }) { return }
        let document = state.withLock { $0.host.documents[uri] }
        schedule(id, DocumentDiagnosticRequest.self) { [self] in
            guard case .success(let view) = view(of: uri, document) else { return .success(FullDocumentDiagnosticReport(items: [])) }
            let convert = ToLSP(view, uri: uri, client: client)
            return .success(FullDocumentDiagnosticReport(items: view.diagnostics().map { convert.diagnostic($0, view.lines) }))
        }
    }

    /// When the document at `uri` is a note of a notebook whose first scan has not ended, keeps
    /// `answer` (to request `id`) for the scan's end and says true; else false (answer now). The
    /// request counts as in flight meanwhile, so the client can cancel it.
    func answerAfterScan(_ id: RequestID, of uri: String, _ answer: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state -> Bool in
            guard let note = state.host.location(of: uri) ?? FileURI.path(of: uri).flatMap(state.host.workspace.locate(file:)),
                  let scan = state.host.workspace.folder(note.folder)?.scan, scan == .pending || scan == .running else { return false }
            state.awaitingScan[note.folder, default: []].append(answer)
            state.inFlight.insert(id)
            return true
        }
    }

    /// `answerAfterScan`, waiting at most `seconds`: `answer` runs once, at the scan's end or when
    /// the time is up, whichever comes first (told which by its argument: true when the scan had
    /// ended). For requests that can answer from part of the notebook but are better answered
    /// whole: a completion asked in the first moments after start-up.
    func answerAfterScan(_ id: RequestID, of uri: String, atMost seconds: Double,
                         _ answer: @escaping @Sendable (_ scanEnded: Bool) -> Void) -> Bool {
        let once = Locked(false)
        let runOnce: @Sendable (Bool) -> Void = { ended in
            if once.withLock({ ran in defer { ran = true }; return !ran }) { answer(ended) }
        }
        guard answerAfterScan(id, of: uri, { runOnce(true) }) else { return false }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { runOnce(false) }
        return true
    }

    /// Answers the requests that waited for the end of `folder`'s scan (it ended, was refused, or
    /// the notebook was closed).
    func answerRequestsAwaitingScan(_ folder: String) {
        let answers = state.withLock { $0.awaitingScan.removeValue(forKey: folder) } ?? []
        for answer in answers { answer() }
    }

    /// `workspace/diagnostic`: every note with problems, and empty reports for notes whose
    /// problems went away since the last pull.
    func pullWorkspaceDiagnostics(_ id: RequestID) {
        schedule(id, WorkspaceDiagnosticRequest.self) { [self] in
            var convert = ToLSP(state.withLock { $0.host.snapshot() }, client: client)
            var reports: [WorkspaceFullDocumentDiagnosticReport] = []
            var reported: Set<String> = []
            for folder in convert.snapshot.workspace.folders {
                for path in folder.notebook.notes.keys.sorted() {
                    let note = NoteRef(folder: folder.path, path: path)
                    guard let found = convert.snapshot.diagnostics(of: note), !found.isEmpty,
                          let lines = convert.source(note)?.lines else { continue }
                    let uri = convert.uri(note)
                    reported.insert(uri)
                    reports.append(WorkspaceFullDocumentDiagnosticReport(uri: uri, version: convert.version(note),
                                                                         report: FullDocumentDiagnosticReport(items: found.map { convert.diagnostic($0, lines) })))
                }
            }
            let cleared = state.withLock { state -> Set<String> in
                let previous = state.workspaceDiagnosticURIs
                state.workspaceDiagnosticURIs = reported
                return previous.subtracting(reported)
            }
            for uri in cleared.sorted() {
                reports.append(WorkspaceFullDocumentDiagnosticReport(uri: uri, version: nil, report: FullDocumentDiagnosticReport(items: [])))
            }
            return .success(WorkspaceDiagnosticReport(items: reports))
        }
    }
}
