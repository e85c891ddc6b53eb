// The notebooks an editor has open: one per workspace folder, plus one for the folder of each
// note opened outside every workspace folder, and the editor's settings that every notebook's
// configuration starts from.
//
// Invariants:
// - A plain value with no IO: folders are added as `NotebookFolder(path:singleFolder:)` (not
//   yet opened) and opened, scanned and updated by the caller through `update(_:_:)`.
// - A file belongs to the folder that holds it at the shortest relative path (the innermost
//   notebook), so nested workspace folders each keep their own notes.
// - A single-folder notebook inside a workspace folder is dropped when that folder is added:
//   its notes are the workspace folder's now.
// - Each notebook added gets a new `generation`: work that read the disk for a notebook applies
//   its result with `update(_ folder:_:)`, which finds that very notebook or nothing, never one
//   added later at the same path.

/// A note (or any file) in a notebook: the notebook's folder (`NotebookFolder.path`) and the
/// path inside it, `/`-separated.
public struct NoteRef: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var folder: String
    public var path: String

    public init(folder: String, path: String) {
        self.folder = folder
        self.path = path
    }

    public static func < (a: NoteRef, b: NoteRef) -> Bool { (a.folder, a.path) < (b.folder, b.path) }

    public var description: String { folder + " : " + path }
}

/// The notebooks of an editor session.
public struct Workspace: Sendable {
    /// The notebooks, in the order they were added.
    public private(set) var folders: [NotebookFolder] = []
    /// The editor's settings layers (`initializationOptions`, then the workspace settings),
    /// under every notebook's own `.macmd.json`.
    public var editorLayers: [ConfigurationLayer] = []
    /// The next folder's `generation`.
    private var nextGeneration = 1

    public init() {}

    /// The settings of a note in no notebook: the editor's alone.
    public var editorConfiguration: NotebookConfiguration { NotebookConfiguration(layers: editorLayers) }

    /// The settings of the note at `file` (absolute): its notebook's, else the editor's (also
    /// for a buffer that is not a file, nil).
    public func configuration(forFile file: String?) -> NotebookConfiguration {
        if let note = file.flatMap(locate(file:)), let folder = folder(note.folder) { return folder.configuration }
        return editorConfiguration
    }

    /// The notebook at `path` (its `NotebookFolder.path`).
    public func folder(_ path: String) -> NotebookFolder? {
        folders.first { $0.path == path }
    }

    /// Changes the notebook at `path`; nil when there is none.
    @discardableResult
    public mutating func update<Result>(_ path: String, _ body: (inout NotebookFolder) throws -> Result) rethrows -> Result? {
        guard let index = folders.firstIndex(where: { $0.path == path }) else { return nil }
        return try body(&folders[index])
    }

    /// Changes the notebook `folder` was read from, when it is still there (not removed, and
    /// not replaced by another notebook at its path since): what work that read the disk for a
    /// notebook applies its result with. Nil otherwise.
    @discardableResult
    public mutating func update<Result>(_ folder: NotebookFolder, _ body: (inout NotebookFolder) throws -> Result) rethrows -> Result? {
        guard let index = folders.firstIndex(where: { $0.path == folder.path && $0.generation == folder.generation }) else { return nil }
        return try body(&folders[index])
    }

    /// Adds a notebook for `path` unless there is one; true when it was added. A workspace
    /// folder takes the place of single-folder notebooks at or inside it: their notes are its
    /// notes now.
    @discardableResult
    public mutating func addFolder(_ path: String, singleFolder: Bool = false) -> Bool {
        var folder = NotebookFolder(path: path, singleFolder: singleFolder, configuration: editorConfiguration)
        if !singleFolder {
            folders.removeAll { $0.isSingleFolder && ($0.path.hasPrefix(folder.path + "/") || $0.path == folder.path) }
        }
        guard !folders.contains(where: { $0.path == folder.path }) else { return false }
        folder.generation = nextGeneration
        nextGeneration += 1
        folders.append(folder)
        return true
    }

    /// Removes the notebooks at these paths (given as the client named them; a trailing `/` is
    /// ignored).
    public mutating func removeFolders(_ paths: [String]) {
        let removed = Set(paths.map { NotebookFolder(path: $0, singleFolder: false).path })
        folders.removeAll { removed.contains($0.path) }
    }

    /// The notebook and path of an absolute file path: the innermost notebook holding it.
    public func locate(file: String) -> NoteRef? {
        var best: NoteRef?
        for folder in folders {
            guard let relative = folder.relativePath(ofFile: file) else { continue }
            if let current = best, current.path.utf8.count <= relative.utf8.count { continue }
            best = NoteRef(folder: folder.path, path: relative)
        }
        return best
    }

    /// The folder a single-folder notebook for `file` would have, when `file` is in no notebook.
    public func singleFolder(for file: String) -> String? {
        guard locate(file: file) == nil, let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folder = String(file[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The absolute path of a note, as the client names the folder (for URIs).
    public func clientPath(of note: NoteRef) -> String {
        (folder(note.folder)?.clientPath(note.path)) ?? note.folder + "/" + note.path
    }
}
