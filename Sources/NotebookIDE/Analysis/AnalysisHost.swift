// The mutable state of an editing session, as rust-analyzer's `AnalysisHost` keeps it: the
// notebooks (`Workspace`) and the open documents, changed by the caller one event at a time;
// requests read immutable `AnalysisSnapshot`s taken from it.
//
// Invariants:
// - A plain value; no IO, no locks (the server keeps it behind its one lock and does IO and
//   analysis outside it).
// - Open documents win over the disk: a notebook holds an open note's symbols from the editor's
//   text, and disk updates skip it (`openPaths`).
// - Each document version is filed into its notebook once (`bringUpToDate`), by whichever comes
//   first: the document's index job or a request that needs its notebook current. What filing
//   it changed for other notes is kept until the index job takes it (`takeChange`), so the
//   diagnostics of every affected note go out whoever filed it.

import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import Locks
import TextCore

/// An open document: the editor's buffer at one version.
public struct OpenDocument: Sendable {
    /// The client's name for the buffer (its URI).
    public var id: String
    /// The file it is, when it is one (absolute path); nil for a buffer that is not a file.
    public var file: String?
    public var languageID: String
    /// The text and what is derived from it, for this version.
    public var analysis: DocumentAnalysis

    public var version: Int { analysis.version ?? 0 }
    public var text: [UInt8] { analysis.text }

    public init(id: String, file: String?, languageID: String, version: Int, text: [UInt8]) {
        self.id = id
        self.file = file
        self.languageID = languageID
        analysis = DocumentAnalysis(version: version, text: text)
    }
}

public struct AnalysisHost: Sendable {
    /// The notebooks (changed through `addFolder`, `removeFolders`, `updateFolder`).
    public private(set) var workspace = Workspace()
    /// The open documents by id.
    public private(set) var documents: [String: OpenDocument] = [:]
    /// The version of each open document its notebook holds the symbols of.
    private var indexedVersions: [String: Int] = [:]
    /// What filing documents changed for other notes, not yet published (`takeChange`).
    private var pendingChanges: [String: NotebookChange] = [:]
    /// Link completion's indexes, one per notebook, shared by every snapshot.
    private let completionIndexes = CompletionIndexes()
    /// Where notes' links led, for their semantic tokens, shared by every snapshot.
    private let resolvedLinks = ResolvedLinksCache()
    /// Where files that are not open are read.
    public let files: any NotebookFiles
    /// The snippets notes can use (changed with `setSnippets`).
    public private(set) var snippets = SnippetLibrary()

    public init(files: any NotebookFiles = DiskFiles()) {
        self.files = files
    }

    // MARK: Notebooks

    /// Adds a notebook for the folder at `path` unless there is one (see `Workspace.addFolder`).
    @discardableResult
    public mutating func addFolder(_ path: String, singleFolder: Bool = false) -> Bool {
        let added = workspace.addFolder(path, singleFolder: singleFolder)
        completionIndexes.keep(only: workspace.folders)
        return added
    }

    /// Removes the notebooks at these paths.
    public mutating func removeFolders(_ paths: [String]) {
        workspace.removeFolders(paths)
        completionIndexes.keep(only: workspace.folders)
        let kept = Set(workspace.folders.map(\.path))
        snippets.notebooks = snippets.notebooks.filter { kept.contains($0.key) }
    }

    /// Changes the notebook at `path`; nil when there is none.
    @discardableResult
    public mutating func updateFolder<Result>(_ path: String, _ body: (inout NotebookFolder) -> Result) -> Result? {
        workspace.update(path, body)
    }

    /// Changes the notebook `folder` was read from, when it is still there (see
    /// `Workspace.update(_:_:)`): how work that read the disk applies its result.
    @discardableResult
    public mutating func updateFolder<Result>(_ folder: NotebookFolder, _ body: (inout NotebookFolder) -> Result) -> Result? {
        workspace.update(folder, body)
    }

    /// Replaces the snippets of one source: a notebook's (by its folder's path), or the user's
    /// own (nil).
    public mutating func setSnippets(_ source: SnippetLibrary.Source, forFolder folder: String?) {
        if let folder { snippets.notebooks[folder] = source } else { snippets.user = source }
    }

    /// Sets the editor's settings layers (`initializationOptions`, then the workspace settings).
    public mutating func setEditorLayers(_ layers: [ConfigurationLayer]) {
        workspace.editorLayers = layers
    }

    // MARK: Documents

    /// Opens (or reopens) a document, parsed as its notebook's settings say.
    public mutating func open(_ document: OpenDocument) {
        var document = document
        let options = parseOptions(forFile: document.file)
        if document.analysis.options != options {
            document.analysis = DocumentAnalysis(version: document.analysis.version, text: document.text, options: options)
        }
        documents[document.id] = document
        indexedVersions[document.id] = nil
    }

    /// Replaces an open document's text (a save with its text keeps the version); false when it
    /// is not open.
    @discardableResult
    public mutating func change(_ id: String, version: Int, text: [UInt8]) -> Bool {
        change(id, to: DocumentAnalysis(version: version, text: text, options: currentOptions(id)))
    }

    /// Changes a document to the text of `lines`, whose index it keeps (made from the last
    /// version's by the edit, see `LineIndex.replacing`).
    public mutating func change(_ id: String, version: Int, lines: LineIndex) -> Bool {
        change(id, to: DocumentAnalysis(version: version, lines: lines, options: currentOptions(id)))
    }

    /// The options an open document is parsed with now: `open` chose them and
    /// `reparseForSettings` changes them, so a keystroke reads no settings.
    private func currentOptions(_ id: String) -> ParseOptions {
        documents[id]?.analysis.options ?? .notebook
    }

    /// How a note at `file` is parsed: as its notebook's settings say, or the editor's for a
    /// note in no notebook (and a buffer that is not a file).
    public func parseOptions(forFile file: String?) -> ParseOptions {
        workspace.configuration(forFile: file).parseOptions
    }

    /// Parses open documents again whose notebook's settings now parse them otherwise (a new
    /// `maxNestingDepth`); true when one was.
    @discardableResult
    public mutating func reparseForSettings() -> Bool {
        var changed = false
        for (id, document) in documents {
            let options = parseOptions(forFile: document.file)
            guard document.analysis.options != options else { continue }
            _ = change(id, to: DocumentAnalysis(version: document.analysis.version, lines: document.analysis.lines, options: options))
            changed = true
        }
        return changed
    }

    private mutating func change(_ id: String, to analysis: DocumentAnalysis) -> Bool {
        guard var document = documents[id] else { return false }
        document.analysis = analysis
        documents[id] = document
        indexedVersions[id] = nil
        return true
    }

    /// Closes a document; returns where it is in a notebook (its text is the disk's again).
    @discardableResult
    public mutating func close(_ id: String) -> NoteRef? {
        guard let document = documents.removeValue(forKey: id) else { return nil }
        indexedVersions[id] = nil
        pendingChanges[id] = nil
        return document.file.flatMap(workspace.locate(file:))
    }

    /// The open document of a note, when it is open.
    public func document(at note: NoteRef) -> OpenDocument? {
        documents.values.first { $0.file.flatMap(workspace.locate(file:)) == note }
    }

    /// Where an open document is in a notebook.
    public func location(of id: String) -> NoteRef? {
        documents[id]?.file.flatMap(workspace.locate(file:))
    }

    /// The open documents' paths in the notebook at `folder`.
    public func openPaths(in folder: String) -> Set<String> {
        var result: Set<String> = []
        for document in documents.values {
            if let note = document.file.flatMap(workspace.locate(file:)), note.folder == folder { result.insert(note.path) }
        }
        return result
    }

    /// Forgets which versions the notebooks hold, after the notebooks themselves changed (a
    /// workspace folder came or went): every open document is filed again.
    public mutating func documentsMoved() {
        indexedVersions = [:]
    }

    // MARK: Filing documents into their notebooks

    /// The document `id` at `version` when its notebook does not hold that version yet, with
    /// where it goes: the caller makes its symbols (`analysis.symbols(path:)`, outside any lock)
    /// and files them with `bringUpToDate`.
    public func needsFiling(_ id: String, version: Int) -> (note: NoteRef, analysis: DocumentAnalysis)? {
        guard let document = documents[id], document.version == version, indexedVersions[id] != version,
              let note = location(of: id), workspace.folder(note.folder) != nil else { return nil }
        return (note, document.analysis)
    }

    /// Files the symbols of document `id` at `version` (made by `needsFiling`'s caller) into its
    /// notebook, unless the document has moved on or that version is filed already.
    public mutating func bringUpToDate(_ id: String, version: Int, symbols: NoteSymbols) {
        guard let document = documents[id], document.version == version, indexedVersions[id] != version,
              let note = location(of: id), note.path == symbols.path,
              let change = workspace.update(note.folder, { $0.update(document: symbols) }) else { return }
        indexedVersions[id] = version
        var pending = pendingChanges[id] ?? NotebookChange(catalogChanged: false, affected: [], linkTargetsChanged: false, linksChanged: false)
        pending.catalogChanged = pending.catalogChanged || change.catalogChanged
        pending.linksChanged = pending.linksChanged || change.linksChanged
        pending.linkTargetsChanged = pending.linkTargetsChanged || change.linkTargetsChanged
        pending.affected.formUnion(change.affected)
        pendingChanges[id] = pending
    }

    /// What filing document `id` changed for other notes since this was last asked.
    public mutating func takeChange(_ id: String) -> NotebookChange? {
        pendingChanges.removeValue(forKey: id)
    }

    // MARK: Snapshots

    /// What requests read: the notebooks and open documents as they are now.
    public func snapshot() -> AnalysisSnapshot {
        AnalysisSnapshot(workspace: workspace, documents: documents, files: files, completionIndexes: completionIndexes,
                         resolvedLinks: resolvedLinks, snippets: snippets)
    }
}

/// Link completion's index of each notebook, kept across snapshots: built when names change,
/// refreshed cheaply after other edits (see `CompletionWorkspace`).
///
/// Concurrency: `entries` is held only to read or swap an entry (an index replaced is freed
/// after it is released: freeing a large one takes milliseconds). `building` is held for the
/// whole of a build from scratch, so one who needs an index while another builds it (the first
/// `[[` right after a scan, while the server warms the index) waits for that build and takes its
/// result, rather than making a second one beside it.
final class CompletionIndexes: Sendable {
    /// What is kept of an index between requests: everything but its catalog. The catalog is the
    /// notebook's own (the one the folder holds, at the same names); kept here too, it would be
    /// shared with the folder, and the next edit would copy the whole catalog (every note) to
    /// change one. Each request puts its snapshot's catalog back.
    private struct Entry {
        var workspace: CompletionWorkspace
        var catalogRevision: Int
        var revision: Int
    }

    /// A notebook: its path and its generation (another notebook at the same path has its own).
    private struct Key: Hashable {
        var path: String
        var generation: Int
    }

    private let entries = Locked<[Key: Entry]>([:])
    private let building = Lock()

    /// The index of `folder` at its current revision.
    func index(of folder: NotebookFolder) -> CompletionWorkspace {
        let key = Key(path: folder.path, generation: folder.generation)
        if let made = refreshed(key, folder) { return made }
        return building.withLock {
            // Built meanwhile by the one who held the lock?
            if let made = refreshed(key, folder) { return made }
            let made = CompletionWorkspace(notebook: folder.notebook)
            store(made, key, folder)
            return made
        }
    }

    /// The index kept for `key` brought to `folder`'s revision, when its names are `folder`'s;
    /// nil when it must be built from scratch.
    private func refreshed(_ key: Key, _ folder: NotebookFolder) -> CompletionWorkspace? {
        guard let cached = entries.withLock({ $0[key] }), cached.catalogRevision == folder.catalogRevision else { return nil }
        if cached.revision == folder.revision { return cached.workspace.updating(catalog: folder.notebook.catalog) }
        let made = cached.workspace.updating(from: folder.notebook)
        store(made, key, folder)
        return made
    }

    private func store(_ workspace: CompletionWorkspace, _ key: Key, _ folder: NotebookFolder) {
        let replaced = entries.withLock { entries -> Entry? in
            // Keep the newest: a request on an older snapshot may finish last.
            if let current = entries[key], current.revision > folder.revision { return nil }
            let kept = workspace.updating(catalog: NoteCatalog(noteExtensions: workspace.catalog.noteExtensions))
            return entries.updateValue(Entry(workspace: kept, catalogRevision: folder.catalogRevision,
                                             revision: folder.revision), forKey: key)
        }
        _ = replaced
    }

    /// Drops the indexes of notebooks that are gone.
    func keep(only folders: [NotebookFolder]) {
        let kept = Set(folders.map { Key(path: $0.path, generation: $0.generation) })
        entries.withLock { entries in entries = entries.filter { kept.contains($0.key) } }
    }
}
