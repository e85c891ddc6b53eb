// What a request reads: the notebooks and the open documents as they were when it was taken,
// immutable, shared by requests that run side by side, and never waiting for anything.
//
// Invariants:
// - Plain values and shared immutable analyses; taking one copies no table (copy-on-write).
// - The text of a note is its open document's when it is open, else the disk's, read through
//   `files` (the only IO an analysis does, and the caller chooses it).
// - Results are in notebook terms: `NoteRef`s and UTF-8 byte ranges (`NoteSpan`); the server
//   turns them into URIs and positions.
// - What is kept across snapshots (link completion's indexes, where notes' links led for
//   their semantic tokens) is stamped with the notebook state it was made in (its folder's
//   generation and revisions) and read only by a snapshot of that state.

import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A range in a note of a notebook.
public struct NoteSpan: Sendable, Hashable {
    public var note: NoteRef
    public var span: ByteSpan

    public init(note: NoteRef, span: ByteSpan) {
        self.note = note
        self.span = span
    }
}

public struct AnalysisSnapshot: Sendable {
    public let workspace: Workspace
    /// The open documents by id.
    public let documents: [String: OpenDocument]
    /// The open documents' ids by where they are in a notebook.
    public let openNotes: [NoteRef: String]
    /// Where files that are not open are read.
    public let files: any NotebookFiles
    let completionIndexes: CompletionIndexes
    /// Where notes' links led, for their semantic tokens (kept across snapshots).
    let resolvedLinks: ResolvedLinksCache
    /// The snippets notes can use.
    public let snippets: SnippetLibrary

    init(workspace: Workspace, documents: [String: OpenDocument], files: any NotebookFiles, completionIndexes: CompletionIndexes,
         resolvedLinks: ResolvedLinksCache, snippets: SnippetLibrary) {
        self.workspace = workspace
        self.documents = documents
        self.files = files
        self.completionIndexes = completionIndexes
        self.resolvedLinks = resolvedLinks
        self.snippets = snippets
        var openNotes: [NoteRef: String] = [:]
        for (id, document) in documents {
            if let note = document.file.flatMap(workspace.locate(file:)) { openNotes[note] = id }
        }
        self.openNotes = openNotes
    }

    /// The notebook a note is in.
    public func folder(of note: NoteRef) -> NotebookFolder? { workspace.folder(note.folder) }

    /// The open document of a note, when it is open.
    public func openDocument(_ note: NoteRef) -> OpenDocument? {
        openNotes[note].flatMap { documents[$0] }
    }

    /// A note's text as it is now (the open buffer, else the file), with its version when open.
    public func source(of note: NoteRef) -> DocumentAnalysis? {
        if let document = openDocument(note) { return document.analysis }
        guard let folder = folder(of: note), let bytes = files.contents(of: folder.absolutePath(note.path)) else { return nil }
        return DocumentAnalysis(version: nil, text: bytes, options: folder.configuration.parseOptions)
    }

    /// Link completion's index of a notebook (built or refreshed when its revision moved on).
    public func completionIndex(of folder: NotebookFolder) -> CompletionWorkspace {
        completionIndexes.index(of: folder)
    }

    /// Makes what other completions read of a notebook's completion index, ahead of them: the
    /// folder tree (path completion), tags and front-matter values by use. (`completionIndex`
    /// makes the rest, what `[[` reads.)
    public func warmCompletionLists(of folder: NotebookFolder) {
        let index = completionIndexes.index(of: folder)
        _ = index.folders
        _ = index.tags
        _ = index.frontMatterKeys
    }

    // MARK: Views

    /// The view of an open document: in its notebook when it is in one, else a notebook of its
    /// own (a buffer that is not a file, or a file whose folder is not indexed yet).
    public func view(of document: OpenDocument) -> NoteView {
        if let file = document.file, let note = workspace.locate(file: file), let folder = folder(of: note) {
            return NoteView(snapshot: self, note: note, folder: folder, analysis: document.analysis)
        }
        return NoteView.standalone(snapshot: self, file: document.file, analysis: document.analysis)
    }

    /// The view of a file that is not open, read from disk; nil when it cannot be read.
    public func view(ofFile file: String) -> NoteView? {
        guard let bytes = files.contents(of: file) else { return nil }
        let analysis = DocumentAnalysis(version: nil, text: bytes, options: workspace.configuration(forFile: file).parseOptions)
        if let note = workspace.locate(file: file), let folder = folder(of: note) {
            return NoteView(snapshot: self, note: note, folder: folder, analysis: analysis)
        }
        return NoteView.standalone(snapshot: self, file: file, analysis: analysis)
    }
}

/// One note as a request sees it: its notebook, and its text, line index and symbols at the
/// version the request is about.
public struct NoteView: Sendable {
    public let snapshot: AnalysisSnapshot
    public let note: NoteRef
    /// The note's notebook (for a standalone note, a notebook of that note alone).
    public let folder: NotebookFolder
    public let analysis: DocumentAnalysis
    /// The note's symbols for this text.
    public let symbols: NoteSymbols
    /// Whether the notebook held these symbols as it was (not filed into this view's copy of it
    /// alone, whose revisions then part from the notebook's).
    let holdsFiledVersion: Bool

    init(snapshot: AnalysisSnapshot, note: NoteRef, folder: NotebookFolder, analysis: DocumentAnalysis) {
        self.snapshot = snapshot
        self.note = note
        self.analysis = analysis
        let symbols = analysis.symbols(path: note.path)
        self.symbols = symbols
        var folder = folder
        // The notebook holds this version unless a large note's filing is still to come (or the
        // request is about an older version): then this text wins, in the request's copy alone.
        holdsFiledVersion = folder.notebook.notes[note.path] == symbols
        if !holdsFiledVersion { folder.update(document: symbols) }
        self.folder = folder
    }

    /// A note in no notebook: a notebook of its own (its folder, so its relative links reach
    /// files beside it; `untitled.md` for a buffer that is not a file).
    static func standalone(snapshot: AnalysisSnapshot, file: String?, analysis: DocumentAnalysis) -> NoteView {
        var folderPath = ""
        var name = "untitled.md"
        if let file, let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) {
            folderPath = String(file[..<slash])
            name = String(file[file.utf8.index(after: slash)...])
        }
        let folder = NotebookFolder(path: folderPath, singleFolder: true)
        return NoteView(snapshot: snapshot, note: NoteRef(folder: folder.path, path: name), folder: folder, analysis: analysis)
    }

    public var notebook: Notebook { folder.notebook }
    public var text: [UInt8] { analysis.text }
    public var lines: LineIndex { analysis.lines }
    /// True for a note in no notebook of the workspace.
    public var isStandalone: Bool { snapshot.workspace.folder(note.folder) == nil }

    /// Another note of this notebook (or this one).
    public func ref(_ path: String) -> NoteRef { NoteRef(folder: note.folder, path: path) }

    /// The text of a note of this notebook as it is now: this view's own text for its note.
    public func source(of path: String) -> DocumentAnalysis? {
        path == note.path ? analysis : snapshot.source(of: ref(path))
    }

    /// Whether a file of this notebook that is not a note is there.
    public func fileExists(_ path: String) -> Bool {
        notebook.assets.contains(path) || snapshot.files.exists(folder.absolutePath(path))
    }
}
