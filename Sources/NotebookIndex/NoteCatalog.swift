// The notes and files of a notebook, indexed by the names links use: paths, stems, titles,
// aliases, and the file names of the files that are not notes.
//
// Invariants:
// - A `NoteCatalog` is a plain value built from `[NoteSymbols]` (and the paths of the other files,
//   the assets); its lookup tables are kept by `insert`/`remove` and `insertAsset`/`removeAsset`,
//   so resolution (`NoteCatalog+Resolution.swift`) never scans the notebook.
// - Each note has a number (`number(of:)`, `path(ofNumber:)`) while it is in the catalog; the
//   tables of names file notes by number and keep no name (`NameTable`): a look-up compares each
//   candidate's name, worked out from the note, with the name asked for, and answers the paths
//   sorted, so candidate lists do not depend on the order notes were added in.

import TextCore

/// The notes of a notebook, indexed for link resolution.
///
/// Resolution rules (`resolve(_:from:)`, in `NoteCatalog+Resolution.swift`; docs/notebook.md's "Link
/// resolution" gives each with an example):
///
/// - **External.** Autolinks, and destinations with a URL scheme (`https:`, `mailto:`; a scheme
///   of two or more letters, so `C:` is not one) or starting with `//`, are `.external`.
/// - **Markdown links** (inline, reference, images): the destination is percent-decoded
///   (`%20` is a space; invalid escapes stay as written). A path starting with `/` is relative to
///   the workspace root, any other path to the linking note's folder; `.` and `..` are
///   normalised, and a path that climbs above the root is `.outside` (a book's link to the books
///   published beside it). In a book (`sourceFolder`), for a note inside the source folder, `/`
///   is that folder and a path that leaves it is `.outside` too. The path matches a note as written, or with its `.md`/`.markdown`
///   extension added or swapped, else an asset of that path, else (`chapter.html`, `.htm`) the
///   note a static site publishes there (`chapter.md`). With `markdownResolution` `.obsidian`, a
///   path that reaches none of these is then looked up by name as a wiki-link target. An empty
///   path with an anchor (`#heading`, `#^id`) or an empty inline destination means this note; an
///   undefined reference (no destination at all) is `.brokenNote("")`. A path that matches
///   nothing is `.file` when it names a file that is not a note (another extension, a trailing
///   `/`, or any image), else `.brokenNote`.
/// - **Wiki-links and embeds** (`[[target#H^id|label]]`) resolve, first match wins:
///   1. by path relative to the root, with or without the extension (exactly, then ignoring
///      case);
///   2. by file stem, ignoring case: the candidate in the linking note's own folder, else the
///      one with the shortest path (UTF-16 units, as Obsidian compares), a tie being
///      `.ambiguous`; a target with folders (`[[b/note]]`) only matches notes whose path ends
///      with it;
///   3. by title, ignoring case;
///   4. by alias, ignoring case.
///   Several notes with the same title (or alias) are `.ambiguous`. An empty target
///   (`[[#Heading]]`, `[[#^id]]`) means this note; `[[./x]]` and `[[../x]]` are relative paths.
///   A target that finds nothing is tried percent-decoded (`[[C%23 notes]]`), and a link the
///   parser split at `#`, `|` or `^` is tried whole (`[[C# notes]]` for `C# notes.md`).
/// - **Wiki-links to files** (any file that is not a note: an image, a recording, `LICENSE`): a
///   target with a non-note extension looks among the assets first, any other among the notes
///   first: by path relative to the root, else by file name ignoring case, with the own-folder
///   and shortest-path rules (a target with folders only matches files whose path ends with
///   it). Found, it is `.file` with the asset's path, whatever fragment follows
///   (`![[clip.mp4#t=10]]`). Otherwise a target with a non-note extension is `.file` with the
///   target as written (no leading `/`), for the caller to check on disk.
/// - **Headings**: a heading part matches a heading whose GitHub slug is the part (`#my-heading`,
///   also compared lowercased), or whose text is the part ignoring case (`[[note#My Heading]]`).
///   Markdown anchors are percent-decoded first. Nested parts (`[[note#H#Sub]]`) match the last
///   part inside the section of the earlier ones: each later heading must come after the
///   earlier one, have a deeper level, and precede the next heading of the earlier one's level
///   or above. The first match in document order wins. Failing that, a single part may name an
///   HTML id of the note (`<a id="…">`), and then parts are compared as Obsidian compares
///   headings (`NotebookPath.looseHeadingKey`: punctuation and formatting ignored); none is
///   `.brokenHeading`.
/// - **Block ids** (`#^id`) match a block id of the note exactly; none is `.brokenBlock`.
public struct NoteCatalog: Sendable, Equatable {
    /// The notes by their exact path.
    public private(set) var notes = ShardedDictionary<String, NoteSymbols>()
    /// The extensions (lowercased, without `.`) that make a file a note.
    public let noteExtensions: [String]
    /// The number of each note, by path; the numbers of removed notes are used again. (Which
    /// note has which number depends on the order notes came in: equality ignores them.)
    private var numbers: [String: Int32] = [:]
    /// The path of each number; empty for a number not in use.
    private var numberedPaths: [String] = []
    private var freeNumbers: [Int32] = []
    // Each table files the notes under a name (folded): `paths(_:_:)` looks a name up, the
    // paths sorted, so that `note.markdown` and `note.md` pick the same one every time. `insert`
    // and `remove` keep them: the cost of one change is that note's names, not the notebook's
    // size. (A path without its extension is looked up exactly by filtering the
    // case-insensitive table: one table instead of two.)
    var byLowercasedPathWithoutExtension = NameTable()
    var byStem = NameTable()
    var byTitle = NameTable()
    var byAlias = NameTable()
    /// Notes whose stem holds `#`, `|` or `^`, by `splitNameKey` of the stem: a wiki-link
    /// written with the name as it is (`[[C# notes]]`, as Obsidian writes it) splits there, and
    /// finds the note by its parts put back together. Few notes have such names.
    var bySplitName = NameTable()
    /// The anchors (headings, block ids, HTML ids) of the notes that have many, by path: links
    /// into them are resolved by look-up (`NoteAnchors`). Kept with `notes`.
    var anchors: [String: NoteAnchors] = [:]
    /// How Markdown links that reach nothing by their path are read (`links.markdownResolution`).
    public var markdownResolution = MarkdownResolution.relative
    /// The folder holding a published book's notes (`sourceFolder`), when the notebook is one:
    /// for a note inside it, `/` means that folder (the site's root), and a path that leaves it
    /// is `.outside` (a page of the site beside the book).
    public var sourceFolder: String? = nil
    /// The assets (files that are not notes) by file name, lowercased: a wiki-link to a file
    /// finds it by name wherever it is. Sorted like the other tables.
    var assetsByName: [String: PathList] = [:]

    /// Indexes `notes` (each `path` workspace-relative with `/`). A later note with the same path
    /// as an earlier one replaces it.
    public init(_ notes: [NoteSymbols] = [], noteExtensions: [String] = ["md", "markdown"]) {
        self.noteExtensions = noteExtensions.map { $0.folded }
        for note in notes { insert(note) }
    }

    /// Adds `note`, replacing the note with the same path.
    /// Returns the note's number.
    @discardableResult
    public mutating func insert(_ note: NoteSymbols) -> Int32 {
        insert(note, keys: keys(of: note))
    }

    /// `insert` with the note's table keys worked out beforehand (`keys(of:)`, on another thread).
    /// A note replacing one at its path keeps its number; returns the number.
    @discardableResult
    mutating func insert(_ note: NoteSymbols, keys: [(Table, UInt32)]) -> Int32 {
        let number: Int32
        if let old = notes[note.path], let existing = numbers[note.path] {
            for (table, hash) in self.keys(of: old) { self[table].remove(existing, hash: hash) }
            number = existing
        } else {
            number = newNumber(for: note.path)
        }
        notes[note.path] = note
        anchors[note.path] = NoteAnchors(note)
        for (table, hash) in keys { self[table].insert(number, hash: hash) }
        return number
    }

    /// Adds `note` with its keys unless a note has its path already; nil then (nothing
    /// changed), else the note's number. One look-up of the path, for scans.
    mutating func insertNew(_ note: NoteSymbols, keys: [(Table, UInt32)]) -> Int32? {
        if let existing = notes.updateValue(note, forKey: note.path) {
            notes[note.path] = existing
            return nil
        }
        let number = newNumber(for: note.path)
        anchors[note.path] = NoteAnchors(note)
        for (table, hash) in keys { self[table].insert(number, hash: hash) }
        return number
    }

    /// Makes room for `count` more notes in every table.
    mutating func reserveCapacity(_ count: Int) {
        notes.reserveCapacity(notes.count + count)
        numbers.reserveCapacity(numbers.count + count)
        numberedPaths.reserveCapacity(numberedPaths.count + count)
        byLowercasedPathWithoutExtension.reserveCapacity(byLowercasedPathWithoutExtension.count + count)
        byStem.reserveCapacity(byStem.count + count)
        byTitle.reserveCapacity(byTitle.count + count)
    }

    /// The number of the note at `path`; nil when there is none.
    public func number(of path: String) -> Int32? { numbers[path] }

    /// The path of the note numbered `number` (empty for a number not in use).
    public func path(ofNumber number: Int32) -> String {
        numberedPaths.indices.contains(Int(number)) ? numberedPaths[Int(number)] : ""
    }

    /// Gives the note at `path`, which has no number, one.
    private mutating func newNumber(for path: String) -> Int32 {
        let number: Int32
        if let free = freeNumbers.popLast() {
            number = free
            numberedPaths[Int(free)] = path
        } else {
            number = Int32(clamping: numberedPaths.count)
            numberedPaths.append(path)
        }
        numbers[path] = number
        return number
    }

    /// Replaces the symbols of a note already in the catalog whose title and aliases are
    /// unchanged (the tables keep their keys); returns the note's number.
    @discardableResult
    public mutating func replaceSymbols(_ note: NoteSymbols) -> Int32 {
        guard let old = notes[note.path], let number = numbers[note.path], old.title == note.title, old.aliases == note.aliases else {
            return insert(note)
        }
        notes[note.path] = note
        anchors[note.path] = NoteAnchors(note)
        return number
    }

    /// Removes the note at `path`; returns it, or nil when there was none. Its number is free
    /// for the next note added.
    @discardableResult
    public mutating func remove(path: String) -> NoteSymbols? {
        guard let old = notes.removeValue(forKey: path) else { return nil }
        anchors[path] = nil
        if let number = numbers.removeValue(forKey: path) {
            for (table, hash) in keys(of: old) { self[table].remove(number, hash: hash) }
            numberedPaths[Int(number)] = ""
            freeNumbers.append(number)
        }
        return old
    }

    /// Records an asset (a file that is not a note, workspace-relative) for wiki-links by name.
    public mutating func insertAsset(_ path: String) {
        NoteCatalog.add(path, to: &assetsByName, key: NotebookPath.lastComponent(of: path).folded)
    }

    /// Forgets the asset at `path`.
    public mutating func removeAsset(_ path: String) {
        NoteCatalog.drop(path, from: &assetsByName, key: NotebookPath.lastComponent(of: path).folded)
    }

    /// The assets whose file name is `name` (ignoring case), sorted by path.
    public func assets(named name: String) -> [String] {
        assetsByName[name.folded].map(Array.init) ?? []
    }

    /// The notes whose stem, title or one of whose aliases is `name` (ignoring case): the notes a
    /// wiki-link `[[name]]` may reach, sorted by path.
    public func notes(named name: String) -> [String] {
        let key = name.folded
        var result = paths(.stem, key) ?? []
        for list in [paths(.title, key), paths(.alias, key)] {
            for path in list ?? [] where !result.contains(path) { result.append(path) }
        }
        return result.sorted()
    }

    enum Table: Sendable { case lowercasedPath, stem, title, alias, splitName }

    /// The paths of the notes filed under the name `key` (folded, as `keys(of:)` makes them) in
    /// `table`, sorted; nil when there are none.
    func paths(_ table: Table, _ key: String) -> [String]? {
        var result: [String] = []
        self[table].forEachCandidate(hash: NameTable.hash(key)) { number in
            let path = numberedPaths[Int(number)]
            if has(table, key, path) { result.append(path) }
        }
        guard !result.isEmpty else { return nil }
        if result.count > 1 { result.sort() }
        return result
    }

    /// Whether the note at `path` has the name `key` in `table` (what `keys(of:)` files it under).
    private func has(_ table: Table, _ key: String, _ path: String) -> Bool {
        switch table {
        case .lowercasedPath: return NotebookPath.removingExtension(path, noteExtensions).folded == key
        case .stem: return NotebookPath.fileStem(of: path).folded == key
        case .splitName: return NoteCatalog.splitNameKey(NotebookPath.fileStem(of: path)) == key
        case .title: return notes[path].map { !$0.title.isEmpty && $0.title.folded == key } ?? false
        case .alias: return notes[path]?.aliases.contains { !$0.isEmpty && $0.folded == key } ?? false
        }
    }

    /// The paths of the notes whose name in `table` another note has too, in groups.
    func pathsSharingNames(in table: Table) -> [[String]] {
        var groups: [[String]] = []
        for candidates in self[table].entriesSharingHashes() {
            var byName: [String: [String]] = [:]
            for number in candidates {
                let path = numberedPaths[Int(number)]
                guard let note = notes[path] else { continue }
                for (kind, name) in NoteCatalog.names(of: note, extensions: noteExtensions) where kind == table {
                    byName[name, default: []].append(path)
                }
            }
            groups += byName.values.filter { $0.count > 1 }
        }
        return groups
    }

    private subscript(table: Table) -> NameTable {
        get {
            switch table {
            case .lowercasedPath: return byLowercasedPathWithoutExtension
            case .stem: return byStem
            case .title: return byTitle
            case .alias: return byAlias
            case .splitName: return bySplitName
            }
        }
        _modify {
            switch table {
            case .lowercasedPath: yield &byLowercasedPathWithoutExtension
            case .stem: yield &byStem
            case .title: yield &byTitle
            case .alias: yield &byAlias
            case .splitName: yield &bySplitName
            }
        }
    }

    /// Every (table, hash of the name) the note is filed under.
    func keys(of note: NoteSymbols) -> [(Table, UInt32)] { NoteCatalog.keys(of: note, extensions: noteExtensions) }

    /// Every (table, hash of the name) the note is filed under (`names(of:extensions:)` hashed).
    static func keys(of note: NoteSymbols, extensions noteExtensions: [String]) -> [(Table, UInt32)] {
        // Most notes: the path, stem and title hashed from their bytes, folded on the way, with
        // no String made (`NameTable.hashOfFolded`); the rest as `names(of:)` has them.
        var path = note.path
        let pathKeys = note.aliases.isEmpty ? path.withUTF8 { bytes -> (UInt32, UInt32)? in
            let stem = NotebookPath.stemRange(of: bytes)
            guard !bytes[stem].contains(where: NoteCatalog.splitsWikiTarget),
                  let bare = NameTable.hashOfFolded(UnsafeBufferPointer(rebasing: bytes[..<(NotebookPath.noteExtensionDot(bytes, noteExtensions) ?? bytes.count)])),
                  let stemKey = NameTable.hashOfFolded(UnsafeBufferPointer(rebasing: bytes[stem])) else { return nil }
            return (bare, stemKey)
        } : nil
        guard let pathKeys else { return names(of: note, extensions: noteExtensions).map { ($0.0, NameTable.hash($0.1)) } }
        var result: [(Table, UInt32)] = [(.lowercasedPath, pathKeys.0), (.stem, pathKeys.1)]
        if !note.title.isEmpty {
            var title = note.title
            result.append((.title, title.withUTF8 { NameTable.hashOfFolded($0) } ?? NameTable.hash(title.folded)))
        }
        return result
    }

    /// Every (table, name) the note is filed under, names folded.
    static func names(of note: NoteSymbols, extensions noteExtensions: [String]) -> [(Table, String)] {
        let bare = NotebookPath.removingExtension(note.path, noteExtensions)
        var result: [(Table, String)] = []
        result.reserveCapacity(3 + note.aliases.count)
        result.append((.lowercasedPath, bare.folded))
        let stem = NotebookPath.fileStem(of: note.path)
        result.append((.stem, stem.folded))
        if stem.utf8.contains(where: NoteCatalog.splitsWikiTarget) { result.append((.splitName, NoteCatalog.splitNameKey(stem))) }
        if !note.title.isEmpty { result.append((.title, note.title.folded)) }
        // A set finds repeats: a scan of the keys made a note with 128,000 aliases quadratic.
        var seenAliases: Set<String> = []
        for alias in note.aliases where !alias.isEmpty {
            let key = alias.folded
            if seenAliases.insert(key).inserted { result.append((.alias, key)) }
        }
        return result
    }

    private static func add(_ path: String, to table: inout [String: PathList], key: String) {
        table[key, default: PathList()].insertSorted(path)
    }

    private static func drop(_ path: String, from table: inout [String: PathList], key: String) {
        if table[key]?.remove(path) == false { table[key] = nil }
    }

    /// Equal catalogs hold the same notes, assets and settings; the tables follow from them, and
    /// which note has which number depends on the order notes came in.
    public static func == (a: NoteCatalog, b: NoteCatalog) -> Bool {
        a.notes == b.notes && a.noteExtensions == b.noteExtensions && a.markdownResolution == b.markdownResolution
            && a.assetsByName == b.assetsByName
    }

    /// `#`, `|` and `^`: where a wiki-link's target ends (a heading, a label, a block id).
    static func splitsWikiTarget(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "#") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "^")
    }

    /// A name with `#`, `|` or `^` as a wiki-link split into parts compares with it: ignoring
    /// case and the blanks next to those bytes (the parts are trimmed), so `C# notes` and the
    /// parts `C`, `notes` of `[[C# notes]]` meet at `c#notes`.
    static func splitNameKey(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        var skipBlanks = false
        for byte in name.utf8 {
            let isBlank = byte == 0x20 || byte == 0x09
            if isBlank && skipBlanks { continue }
            if splitsWikiTarget(byte) {
                while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
                skipBlanks = true
            } else if !isBlank {
                skipBlanks = false
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).folded
    }

    /// The note whose path without its note extension is exactly `bare`, the first by path.
    func note(withoutExtension bare: String) -> String? {
        paths(.lowercasedPath, bare.folded)?.first { NotebookPath.removingExtension($0, noteExtensions) == bare }
    }
}
