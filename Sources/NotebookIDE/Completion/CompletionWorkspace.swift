// The workspace side of completion, indexed once per change of the notebook and reused for every
// request: notes with lowercased match keys and the link text that reaches each one, the folder
// tree, tags and front-matter values by use.
//
// Invariants:
// - Built from plain values (`NoteCatalog`, paths, counts); no IO.
// - Each note's link text (`linkTarget(of:from:)`) is the shortest text that `NoteCatalog.resolve`
//   takes back to that very note from the linking note: the stem when no other note has it, else
//   the shortest path suffix that does (checked with the resolver itself, from the linking note's
//   path, so completion and resolution cannot disagree), written as a wiki target
//   (`NotebookPath.wikiTarget`: percent-encoded when the name holds `#`, `|`, `^` or brackets).
// - Lists are sorted at build time (notes by path, tags and values by use), so requests only
//   filter and rank.

import NotebookIndex

/// The notebook as completion reads it. Build it when the notebook changes, not per request.
public struct CompletionWorkspace: Sendable {
    struct Note: Sendable {
        var path: String
        var title: String
        var stem: String
        var aliases: [String]
        /// What a wiki-link writes to reach this note when no other note has its stem.
        var linkTarget: String
        /// Another note has the same stem: the link text depends on where the link is written.
        var sharesStem: Bool
    }

    /// A slice of `keyArena`.
    struct Slice: Sendable {
        var start: Int32
        var count: Int32
    }

    /// A note's match keys as slices of one byte arena, so ranking 10,000 notes touches no
    /// reference counts: lowercased title, stem and path without extension, the folder as
    /// written (for closeness), and the aliases' slices in `aliasKeys`.
    struct NoteKeys: Sendable {
        var mask: UInt64
        var title: Slice
        var stem: Slice
        var path: Slice
        var folder: Slice
        var aliasStart: Int32
        var aliasCount: Int32
        var depth: Int32
        var pathLength: Int32
    }

    struct File: Sendable {
        var path: String
        var key: [UInt8]
        var mask: UInt64
        var folder: [UInt8]
        var depth: Int
        var isImage: Bool
    }

    enum EntryKind: UInt8, Sendable {
        case note, folder, file
    }

    struct FolderEntry: Sendable {
        var name: String
        var path: String
        var kind: EntryKind
        var key: [UInt8]
        var isImage: Bool
    }

    struct Counted: Sendable {
        var text: String
        var count: Int
        var key: [UInt8]
    }

    struct Key: Sendable {
        var key: Counted
        var values: [Counted]
    }

    /// The notes, as the resolver sees them (headings and block ids are read from here).
    public private(set) var catalog: NoteCatalog
    let notes: [Note]
    /// `notes[i]`'s keys.
    let noteKeys: [NoteKeys]
    /// The bytes of every `Slice`.
    let keyArena: [UInt8]
    /// Alias key slices, `NoteKeys.aliasStart`-indexed.
    let aliasKeys: [Slice]
    let files: [File]
    /// Folder path (`""` for the root) to its entries, sorted by name.
    let folders: [String: [FolderEntry]]
    /// Most used first.
    private(set) var tags: [Counted]
    /// Most used first.
    private(set) var frontMatterKeys: [Key]

    /// Indexes the notebook.
    ///
    /// - Parameters:
    ///   - catalog: the notes.
    ///   - files: workspace-relative paths of files that are not notes (images, PDFs).
    ///   - tagCounts: tag name (without `#`) to number of uses; nil counts the catalog's tags.
    ///     The counts are taken to include the current note as the request sees it: the engine
    ///     subtracts the one use that is the half-typed tag at the cursor.
    ///   - frontMatterValues: key to value to number of uses; nil counts the catalog's front
    ///     matter (scalars and list items).
    public init(catalog: NoteCatalog, files: [String] = [], tagCounts: [String: Int]? = nil,
                frontMatterValues: [String: [String: Int]]? = nil) {
        self.catalog = catalog
        let extensions = catalog.noteExtensions
        let sortedNotes = catalog.notes.values.sorted { $0.path < $1.path }

        // Notes sharing a stem need a longer link text, found with the resolver itself when a
        // link is written (it depends on the linking note's folder).
        var stemCounts: [String: Int] = [:]
        for note in sortedNotes { stemCounts[NotebookPath.fileStem(of: note.path).folded, default: 0] += 1 }
        var notes: [Note] = []
        var noteKeys: [NoteKeys] = []
        var arena: [UInt8] = []
        var aliasSlices: [Slice] = []
        notes.reserveCapacity(sortedNotes.count)
        noteKeys.reserveCapacity(sortedNotes.count)
        func store(_ bytes: [UInt8]) -> Slice {
            let slice = Slice(start: Int32(clamping: arena.count), count: Int32(clamping: bytes.count))
            arena += bytes
            return slice
        }
        for note in sortedNotes {
            let stem = NotebookPath.fileStem(of: note.path)
            let bare = CompletionPath.removingExtension(note.path, extensions)
            let folder = CompletionPath.folder(of: note.path)
            let titleKey = CompletionMatcher.key(note.title)
            let stemKey = CompletionMatcher.key(stem)
            let pathKey = CompletionMatcher.key(bare)
            var mask = CompletionMatcher.mask(titleKey) | CompletionMatcher.mask(stemKey) | CompletionMatcher.mask(pathKey)
            let aliasStart = Int32(clamping: aliasSlices.count)
            for alias in note.aliases {
                let key = CompletionMatcher.key(alias)
                mask |= CompletionMatcher.mask(key)
                aliasSlices.append(store(key))
            }
            notes.append(Note(path: note.path, title: note.title, stem: stem, aliases: note.aliases,
                              linkTarget: NotebookPath.wikiTarget(stem), sharesStem: stemCounts[stem.folded, default: 0] > 1))
            noteKeys.append(NoteKeys(mask: mask, title: store(titleKey), stem: store(stemKey), path: store(pathKey),
                                     folder: store(Array(folder.utf8)), aliasStart: aliasStart,
                                     aliasCount: Int32(clamping: note.aliases.count),
                                     depth: Int32(clamping: folder.isEmpty ? 0 : folder.utf8.count(where: { $0 == 0x2F }) + 1),
                                     pathLength: Int32(clamping: note.path.utf8.count)))
        }
        self.noteKeys = noteKeys
        self.keyArena = arena
        self.aliasKeys = aliasSlices
        self.notes = notes

        var fileEntries: [File] = []
        var seenFiles: Set<String> = []
        for raw in files {
            let path = CompletionPath.normalized(raw) ?? raw
            guard !path.isEmpty, catalog.notes[path] == nil, seenFiles.insert(path).inserted else { continue }
            let folder = CompletionPath.folder(of: path)
            let key = CompletionMatcher.key(path)
            fileEntries.append(File(path: path, key: key, mask: CompletionMatcher.mask(key), folder: Array(folder.utf8),
                                    depth: folder.isEmpty ? 0 : folder.utf8.count(where: { $0 == 0x2F }) + 1,
                                    isImage: CompletionPath.isImage(path)))
        }
        fileEntries.sort { $0.path < $1.path }
        self.files = fileEntries

        // The folder tree: every note and file, and every folder above them.
        var folders: [String: [FolderEntry]] = [:]
        var knownFolders: Set<String> = [""]
        // A loop up the folders rather than recursion, so a deep path is no deep stack.
        func add(_ path: String, kind: EntryKind, isImage: Bool) {
            var path = path
            var kind = kind
            var isImage = isImage
            while true {
                let folder = CompletionPath.folder(of: path)
                let name = CompletionPath.name(of: path)
                folders[folder, default: []].append(FolderEntry(name: name, path: path, kind: kind,
                                                                key: CompletionMatcher.key(name), isImage: isImage))
                guard knownFolders.insert(folder).inserted else { return }
                path = folder
                kind = .folder
                isImage = false
            }
        }
        for note in notes { add(note.path, kind: .note, isImage: false) }
        for file in fileEntries { add(file.path, kind: .file, isImage: file.isImage) }
        for key in folders.keys { folders[key]?.sort { $0.name < $1.name } }
        self.folders = folders

        self.tags = CompletionWorkspace.byUse(tagCounts ?? CompletionWorkspace.tagCounts(of: sortedNotes))
        self.frontMatterKeys = CompletionWorkspace.keysByUse(frontMatterValues
            ?? CompletionWorkspace.frontMatterValues(of: sortedNotes))
    }

    /// Indexes a `Notebook`: its catalog, assets, tag counts and front-matter values.
    public init(notebook: Notebook) {
        self.init(catalog: notebook.catalog, files: Array(notebook.assets), tagCounts: notebook.tagCounts,
                  frontMatterValues: notebook.frontMatterValues)
    }

    /// This index with a newer catalog and counts, keeping the note and folder tables.
    ///
    /// Cheap (no pass over the notes): use it after an edit that changed no note's path, title or
    /// aliases, and no file; rebuild with `init` after one that did, since the tables and each
    /// note's link text depend on them. A nil argument keeps what the index has.
    public func updating(catalog: NoteCatalog? = nil, tagCounts: [String: Int]? = nil,
                         frontMatterValues: [String: [String: Int]]? = nil) -> CompletionWorkspace {
        var copy = self
        if let catalog { copy.catalog = catalog }
        if let tagCounts { copy.tags = CompletionWorkspace.byUse(tagCounts) }
        if let frontMatterValues { copy.frontMatterKeys = CompletionWorkspace.keysByUse(frontMatterValues) }
        return copy
    }

    /// `updating(catalog:tagCounts:frontMatterValues:)` from a `Notebook`.
    public func updating(from notebook: Notebook) -> CompletionWorkspace {
        updating(catalog: notebook.catalog, tagCounts: notebook.tagCounts, frontMatterValues: notebook.frontMatterValues)
    }

    private static func keysByUse(_ values: [String: [String: Int]]) -> [Key] {
        var keys: [Key] = []
        for (key, valueCounts) in values where !key.isEmpty {
            let total = valueCounts.values.reduce(0) { $0 &+ max($1, 0) }
            keys.append(Key(key: Counted(text: key, count: total, key: CompletionMatcher.key(key)),
                            values: CompletionWorkspace.byUse(valueCounts)))
        }
        keys.sort { $0.key.count != $1.key.count ? $0.key.count > $1.key.count : $0.key.text < $1.key.text }
        return keys
    }

    /// Indexes `notes` (a convenience for `init(catalog:…)`).
    public init(notes: [NoteSymbols], files: [String] = [], tagCounts: [String: Int]? = nil,
                frontMatterValues: [String: [String: Int]]? = nil) {
        self.init(catalog: NoteCatalog(notes), files: files, tagCounts: tagCounts, frontMatterValues: frontMatterValues)
    }

    /// Tag name to uses over `notes` (inline and front matter).
    public static func tagCounts<Notes: Sequence>(of notes: Notes) -> [String: Int] where Notes.Element == NoteSymbols {
        var counts: [String: Int] = [:]
        for note in notes {
            for tag in note.tags where !tag.name.isEmpty { counts[tag.name, default: 0] += 1 }
        }
        return counts
    }

    /// Front-matter key to value to uses over `notes`: scalars and list items; raw values count
    /// only towards the key.
    public static func frontMatterValues<Notes: Sequence>(of notes: Notes) -> [String: [String: Int]]
    where Notes.Element == NoteSymbols {
        var values: [String: [String: Int]] = [:]
        for note in notes {
            guard let frontMatter = note.frontMatter else { continue }
            for entry in frontMatter.entries where !entry.key.isEmpty {
                var forKey = values[entry.key] ?? [:]
                for item in entry.value.items where !item.isEmpty { forKey[item, default: 0] += 1 }
                values[entry.key] = forKey
            }
        }
        return values
    }

    private static func byUse(_ counts: [String: Int]) -> [Counted] {
        counts.filter { !$0.key.isEmpty }
            .map { Counted(text: $0.key, count: $0.value, key: CompletionMatcher.key($0.key)) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.text < $1.text }
    }

    /// What a wiki-link written in the note at `source` writes to reach `note`.
    func linkTarget(of note: Note, from source: String) -> String {
        guard note.sharesStem else { return note.linkTarget }
        return CompletionWorkspace.shortestTarget(for: note.path, from: source, catalog: catalog)
    }

    /// The shortest path suffix (stem, `folder/stem`, …) that a wiki-link written in the note at
    /// `source` resolves to `path` with; the path without its extension when none does.
    static func shortestTarget(for path: String, from source: String, catalog: NoteCatalog) -> String {
        let bare = CompletionPath.removingExtension(path, catalog.noteExtensions)
        let components = bare.split(separator: "/", omittingEmptySubsequences: true)
        var count = 1
        while count <= components.count {
            let target = NotebookPath.wikiTarget(components.suffix(count).joined(separator: "/"))
            let link = LinkSymbol(form: .wikiLink, target: LinkSymbol.Part(text: target, range: .empty), range: .empty)
            if case .note(let found, _, _, _) = catalog.resolve(link, from: source), found == path { return target }
            count += 1
        }
        return NotebookPath.wikiTarget(bare)
    }
}
