// The workspace side of completion, indexed once per change of the notebook and reused for every
// request: notes with lowercased match keys and the link text that reaches each one, the folder
// tree, tags and front-matter values by use.
//
// Invariants:
// - Built from plain values (`NoteCatalog`, paths, counts); no IO.
// - Each note's link text (`linkTarget(of:from:)`) is the shortest text that `NoteCatalog.resolve`
//   takes back to that very note from the linking note: the stem when no other note has it, else
//   the shortest path suffix that does (`NoteCatalog.wikiTarget(to:from:table:)`, from the
//   resolver's own tables and rules, in time that grows with the folders of the note's path, not
//   with the notes sharing its stem), written as a wiki target (`NotebookPath.wikiTarget`:
//   percent-encoded when the name holds `#`, `|`, `^` or brackets).
// - Building costs time linear in the notebook (plus sorting it by path), whatever names notes
//   share (CompletionWorkspace+Build.swift): the server builds it when a scan ends and when
//   names change, off the request path.
// - Lists are sorted at build time (notes by path, tags and values by use), so requests only
//   filter and rank.

import NotebookIndex

/// The notebook as completion reads it. Build it when the notebook changes, not per request.
public struct CompletionWorkspace: Sendable {
    struct Note: Sendable {
        var path: String
        var title: String
        var aliases: [String]
        /// Another note has the same stem: the link text depends on where the link is written.
        var sharesStem: Bool

        // Made for the items a request shows, not for every note when the index is built.
        var stem: String { NotebookPath.fileStem(of: path) }
        /// What a wiki-link writes to reach this note when no other note has its stem.
        var linkTarget: String { NotebookPath.wikiTarget(stem) }
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
    public internal(set) var catalog: NoteCatalog
    let notes: [Note]
    /// `notes[i]`'s keys.
    let noteKeys: [NoteKeys]
    /// The bytes of every `Slice`.
    let keyArena: [UInt8]
    /// Alias key slices, `NoteKeys.aliasStart`-indexed.
    let aliasKeys: [Slice]
    let files: [File]
    /// Folder path (`""` for the root) to its entries, sorted by name.
    var folders: [String: [FolderEntry]] { folderTree.value }
    /// Most used first.
    var tags: [Counted] { tagsByUse.value }
    /// Most used first.
    var frontMatterKeys: [Key] { frontMatterKeysByUse.value }
    // Made when first read (or when the server warms the index), not with the rest: a `[[`
    // reads none of them, and an edit that keeps every name only gives new counts.
    let folderTree: LazyValue<[String: [FolderEntry]]>
    /// The tables of the stems notes share, made when a request first shows one of their notes.
    let stemTables = StemTables()
    var tagsByUse: LazyValue<[Counted]>
    var frontMatterKeysByUse: LazyValue<[Key]>

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
        self.init(catalog: catalog, files: files, tagCounts: tagCounts, frontMatterValues: frontMatterValues,
                  sideBySide: catalog.notes.count >= CompletionWorkspace.sideBySideThreshold)
    }

    /// Indexes a `Notebook`: its catalog, assets, tag counts and front-matter values.
    public init(notebook: Notebook) {
        self.init(catalog: notebook.catalog, files: Array(notebook.assets), tagCounts: notebook.tagCounts,
                  frontMatterValues: notebook.frontMatterValues)
    }

    /// This index with a newer catalog and counts, keeping the note and folder tables.
    ///
    /// Cheap (no pass over the notes, and the counts are sorted by use only when a tag or
    /// front-matter completion reads them): use it after an edit that changed no note's path,
    /// title or aliases, and no file; rebuild with `init` after one that did, since the tables
    /// and each note's link text depend on them. A nil argument keeps what the index has.
    public func updating(catalog: NoteCatalog? = nil, tagCounts: [String: Int]? = nil,
                         frontMatterValues: [String: [String: Int]]? = nil) -> CompletionWorkspace {
        var copy = self
        if let catalog { copy.catalog = catalog }
        if let tagCounts {
            let ignoringCase = CompletionWorkspace.tagsIgnoreCase(copy.catalog)
            copy.tagsByUse = LazyValue { CompletionWorkspace.tagsByUse(tagCounts, ignoringCase: ignoringCase) }
        }
        if let frontMatterValues { copy.frontMatterKeysByUse = LazyValue { CompletionWorkspace.keysByUse(frontMatterValues) } }
        return copy
    }

    /// `updating(catalog:tagCounts:frontMatterValues:)` from a `Notebook`.
    public func updating(from notebook: Notebook) -> CompletionWorkspace {
        updating(catalog: notebook.catalog, tagCounts: notebook.tagCounts, frontMatterValues: notebook.frontMatterValues)
    }

    static func keysByUse(_ values: [String: [String: Int]]) -> [Key] {
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

    /// Whether tags that differ only in case are one tag: in an Obsidian vault (a catalog that
    /// resolves Markdown links as Obsidian does), where `#Garden` and `#garden` are the same tag.
    static func tagsIgnoreCase(_ catalog: NoteCatalog) -> Bool { catalog.markdownResolution == .obsidian }

    /// Tags by use; `ignoringCase`, the spellings of one tag merged into one entry, written as
    /// its most used spelling, with their uses added up.
    static func tagsByUse(_ counts: [String: Int], ignoringCase: Bool) -> [Counted] {
        guard ignoringCase else { return byUse(counts) }
        var merged: [String: (spelling: String, uses: Int, total: Int)] = [:]
        for (tag, uses) in counts where !tag.isEmpty {
            let key = tag.folded
            if var entry = merged[key] {
                entry.total += uses
                if uses > entry.uses || (uses == entry.uses && tag < entry.spelling) { (entry.spelling, entry.uses) = (tag, uses) }
                merged[key] = entry
            } else {
                merged[key] = (tag, uses, uses)
            }
        }
        return byUse(Dictionary(uniqueKeysWithValues: merged.values.map { ($0.spelling, $0.total) }))
    }

    static func byUse(_ counts: [String: Int]) -> [Counted] {
        counts.filter { !$0.key.isEmpty }
            .map { Counted(text: $0.key, count: $0.value, key: CompletionMatcher.key($0.key)) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.text < $1.text }
    }

    /// What a wiki-link written in the note at `source` writes to reach `note`.
    func linkTarget(of note: Note, from source: String) -> String {
        guard note.sharesStem, let table = stemTables.table(NoteCatalog.stemKey(of: note.path), in: catalog) else {
            return note.linkTarget
        }
        return catalog.wikiTarget(to: note.path, from: source, table: table)
    }
}
