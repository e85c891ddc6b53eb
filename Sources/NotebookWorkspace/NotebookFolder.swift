// One notebook of a workspace: a folder, its settings, its index, and what it knows of the disk.
//
// Invariants:
// - A plain value. Everything that reads the disk is a separate step that returns a value
//   (`FolderSettings`, `ColdScan`, `[FileUpdate]`), and `apply`/`adopt`/`finishScan` change the
//   folder from such a value without IO. So whoever keeps folders behind a lock does the IO
//   outside it and holds the lock only to apply the result.
// - The index equals what a fresh scan of the disk would build, except for the notes named as
//   open: an open document wins over the disk (its text is the editor's), so updates never
//   touch those paths; the document's own text is indexed instead (`Notebook.update`).
// - `revision` grows with every change of the index; `catalogRevision` only when notes or files
//   come or go or a title or alias changes (what completion by name lists);
//   `linkTargetsRevision` with every change but a note's edit that leaves its names, headings,
//   block ids and HTML ids (what link resolution reads), so links resolve alike while it stays.

import Localization
import MarkdownSyntax
import NotebookIndex

/// A notebook: a folder of notes indexed as one.
public struct NotebookFolder: Sendable {
    /// The cold index: to do, under way, done, or refused (a home folder or `/` without
    /// `allowHomeOrRoot`: no notes are indexed).
    public enum ScanState: Sendable, Equatable { case pending, running, done, refused }

    /// The folder as the client named it, without a trailing `/`: the notebook's identity.
    public let path: String
    /// The folder with symlinks resolved (the same as `path` until the folder is opened).
    public private(set) var resolvedPath: String
    /// A folder holding a note opened outside every workspace folder: only the files directly
    /// in it belong to the notebook.
    public let isSingleFolder: Bool
    /// The merged settings (see `NotebookConfiguration`).
    public private(set) var configuration: NotebookConfiguration
    /// The index of the notes and files.
    public internal(set) var notebook: Notebook
    /// Whether the cold index has run.
    public var scan = ScanState.pending
    /// Whether the index holds every note of the folder: its first scan ended (and a rescan
    /// after the note extensions changed too). Until then a link to a note may only be
    /// unindexed yet, so cross-note problems are not reported.
    public var isIndexComplete: Bool { scan == .done }
    /// Whether the settings have been read (`adopt`).
    public private(set) var isOpened = false
    /// The root marker the folder holds (`rootMarkers`), when it has one.
    public private(set) var rootMarker: String?
    /// Set for a folder the user named as a notebook (`macmd check DIR`): its root is no guess.
    public var isNamedByUser = false
    /// Whether this folder being the notebook's root is a guess: no root marker, and not named
    /// by the user (an editor's fallback to a note's own folder, or a folder opened as it is).
    /// Notes outside it may be what its links mean, so a link that finds nothing is no error.
    public var isRootGuessed: Bool { rootMarker == nil && !isNamedByUser }
    /// Tells this notebook from an earlier one at the same path (a folder removed and added
    /// again, a single folder that became a workspace folder): work begun on the earlier one
    /// must not land in this one. Set by `Workspace` when the folder is added.
    public internal(set) var generation = 0
    /// The `.macmd.json` files in folders below the root (found by the scan, kept by events):
    /// they are not read, and `settingsProblems` says so.
    public internal(set) var nestedSettings: Set<String> = []
    /// Modification times of the notes read from disk, for clients that cannot watch files.
    public internal(set) var modificationTimes: [String: Int64] = [:]
    /// See the invariants above.
    public private(set) var revision = 0
    public private(set) var catalogRevision = 0
    /// Moves on with every change to what links can reach (`NotebookChange.linkTargetsChanged`;
    /// any other change to the index but a note's edit that leaves its names and anchors):
    /// while it stays, every link of the notebook resolves as it did (`SemanticToken`'s
    /// resolutions are kept across a note's edits by it).
    public private(set) var linkTargetsRevision = 0

    /// A folder not yet opened: the editor's settings alone until its own are read (`adopt`),
    /// nothing indexed, no IO done.
    public init(path: String, singleFolder: Bool, configuration: NotebookConfiguration = NotebookConfiguration()) {
        let trimmed = path.utf8.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.path = trimmed
        resolvedPath = trimmed
        isSingleFolder = singleFolder
        self.configuration = configuration
        notebook = Notebook(noteExtensions: configuration.extensions)
        notebook.markdownResolution = configuration.markdownResolution
        notebook.sourceFolder = configuration.sourceFolder
    }

    // MARK: Paths

    /// `file` (absolute) relative to this folder, when it lies inside it.
    public func relativePath(ofFile file: String) -> String? {
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

    /// The absolute path of a notebook-relative path, on the resolved folder.
    public func absolutePath(_ relative: String) -> String { resolvedPath + "/" + relative }

    /// The path as the client names it (the folder as it was given), for URIs.
    public func clientPath(_ relative: String) -> String { (path == "/" ? "" : path) + "/" + relative }

    /// The scan's options for this folder (a single folder is not entered below its top).
    public var scanOptions: ScanOptions {
        var options = configuration.scanOptions
        if isSingleFolder { options.maxDepth = 0 }
        return options
    }

    /// What decides, path by path, whether a file belongs to this notebook: the scan's own rules.
    public func membership() -> ScanMembership {
        ScanMembership(root: resolvedPath, options: scanOptions)
    }

    /// True when `relative` names a note by its extension, by the walk's rule.
    public func isNote(_ relative: String) -> Bool {
        ScanMembership.hasExtension(NotebookPath.lastComponent(of: relative), in: configuration.extensions)
    }

    // MARK: Settings

    /// Reads what opening the folder needs: its real path and its settings (`.macmd.json` over
    /// the editor's `layers`). IO; `adopt` applies it.
    public func readSettings(editor layers: [ConfigurationLayer]) -> FolderSettings {
        let resolved = WorkspaceScanner.realPath(path) ?? path
        return FolderSettings(resolvedPath: resolved, configuration: NotebookConfiguration.load(folder: resolved, editor: layers),
                              rootMarker: NotebookFolder.rootMarkers.first { FileReader.exists(resolved + "/" + $0) })
    }

    /// What is wrong with the settings: the configuration's problems, then one per nested
    /// `.macmd.json` (a notebook reads the one at its root only).
    public var settingsProblems: [ConfigurationProblem] {
        configuration.problems + nestedSettings.sorted().map(nestedSettingsProblem)
    }

    /// Why the `.macmd.json` at `relative` (below the root) is not read.
    public func nestedSettingsProblem(_ relative: String) -> ConfigurationProblem {
        let folder = NotebookPath.folder(of: relative)
        return ConfigurationProblem(source: relative, reason: LocalizedText("settings.problem.nestedFile", .string(NotebookConfiguration.fileName),
                                                                            .string(clientPath(NotebookConfiguration.fileName)), .string(folder)))
    }

    /// What marks a folder as a notebook's root, as the editor setups look for it: MacMD's
    /// settings, an Obsidian vault, a git repository, marksman's and markdown-oxide's settings,
    /// a book's (mdBook's `book.toml`, MkDocs' `mkdocs.yml`).
    public static let rootMarkers = [".macmd.json", ".obsidian", ".git", ".marksman.toml", ".moxide.toml", "book.toml", "mkdocs.yml"]

    /// Takes settings read by `readSettings`. Different note extensions, nesting bound or source
    /// folder make a
    /// different index: the index starts empty again and a folder already scanned is scanned
    /// again (`scan` goes back to `.pending`); true then (open documents must be filed again).
    @discardableResult
    public mutating func adopt(_ settings: FolderSettings) -> Bool {
        resolvedPath = settings.resolvedPath
        let extensionsChanged = settings.configuration.extensions != configuration.extensions
            || settings.configuration.parseOptions != configuration.parseOptions
            || settings.configuration.sourceFolder != configuration.sourceFolder
        let nowAllowed = scan == .refused && settings.configuration.allowHomeOrRoot && !configuration.allowHomeOrRoot
        configuration = settings.configuration
        rootMarker = settings.rootMarker
        isOpened = true
        // A folder refused for being the home folder or `/` is scanned once that is allowed.
        if nowAllowed { scan = .pending }
        if extensionsChanged {
            notebook = Notebook(noteExtensions: configuration.extensions)
            modificationTimes = [:]
            if scan == .done { scan = .pending }
            changed(catalog: true)
        }
        if notebook.markdownResolution != configuration.markdownResolution {
            // Every Markdown link may now resolve differently; the tables stay as they are.
            notebook.markdownResolution = configuration.markdownResolution
            changed(catalog: true)
        }
        if notebook.sourceFolder != configuration.sourceFolder {
            notebook.sourceFolder = configuration.sourceFolder
            changed(catalog: true)
        }
        return extensionsChanged
    }

    // MARK: Changes

    /// Records a change to the index; `linkTargets` false for a change that leaves what links
    /// reach (`NotebookChange.linkTargetsChanged`).
    mutating func changed(catalog: Bool, linkTargets: Bool = true) {
        revision &+= 1
        if catalog { catalogRevision &+= 1 }
        if linkTargets { linkTargetsRevision &+= 1 }
    }

    /// Indexes an open document's text (it wins over the disk until it is closed).
    @discardableResult
    public mutating func update(document symbols: NoteSymbols) -> NotebookChange {
        let change = notebook.update(symbols)
        changed(catalog: change.catalogChanged, linkTargets: change.linkTargetsChanged)
        return change
    }

    /// Applies updates read from the disk, except to the notes in `open`; returns the notes
    /// whose diagnostics may have changed (the updated notes themselves included).
    @discardableResult
    public mutating func apply(_ updates: [FileUpdate], open: Set<String> = []) -> Set<String> {
        var affected: Set<String> = []
        for update in updates where !open.contains(update.path) {
            switch update.change {
            case .note(let symbols, let modificationTime):
                modificationTimes[update.path] = modificationTime
                let change = notebook.update(symbols)
                changed(catalog: change.catalogChanged, linkTargets: change.linkTargetsChanged)
                affected.formUnion(change.affected)
                affected.insert(update.path)
            case .noteRemoved:
                modificationTimes[update.path] = nil
                if let change = notebook.remove(path: update.path) {
                    changed(catalog: true)
                    affected.formUnion(change.affected)
                }
            case .assetAdded:
                guard !notebook.assets.contains(update.path) else { continue }
                changed(catalog: true)
                affected.formUnion(notebook.addAsset(update.path))
            case .assetRemoved:
                guard notebook.assets.contains(update.path) else { continue }
                changed(catalog: true)
                affected.formUnion(notebook.removeAsset(update.path))
            }
        }
        return affected
    }
}

/// What opening a folder read from the disk.
public struct FolderSettings: Sendable, Equatable {
    public var resolvedPath: String
    public var configuration: NotebookConfiguration
    /// The first root marker the folder holds (`NotebookFolder.rootMarkers`), if any.
    public var rootMarker: String? = nil
}

/// One change the disk made to a notebook, read and parsed, ready to apply.
public struct FileUpdate: Sendable {
    public enum Change: Sendable {
        /// A note as it is on disk now, with the modification time of the bytes read.
        case note(NoteSymbols, modificationTime: Int64?)
        case noteRemoved
        case assetAdded
        case assetRemoved
    }

    /// Relative to the notebook's folder.
    public var path: String
    public var change: Change

    public init(path: String, change: Change) {
        self.path = path
        self.change = change
    }
}
