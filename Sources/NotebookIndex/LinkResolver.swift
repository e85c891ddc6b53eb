// Where a link points: a note (and a heading or block in it), a file, a URL, or nowhere.
//
// Invariants:
// - A `NoteCatalog` is a plain value built from `[NoteSymbols]` (and the paths of the other files,
//   the assets); its lookup tables are kept by `insert`/`remove` and `insertAsset`/`removeAsset`,
//   so `resolve` never scans the notebook (only the target note's headings and block ids).
// - Paths are workspace-relative with `/`; a resolved path is always one of the catalog's own
//   paths (`.note`, or `.file` for an asset a wiki-link found by name) or a normalised path that
//   never climbs above the root (`.file`).
// - Resolution never traps, whatever the link holds: bad percent escapes stay as written, and
//   `..` above the root is a broken link, not an error.
// - Candidate lists (`.ambiguous`) are sorted, so results do not depend on the order of `notes`.

/// What a link resolves to.
public enum Resolution: Sendable, Equatable {
    /// A note of the catalog, with the heading and block the link names (nil when it names none).
    case note(String, heading: HeadingSymbol?, blockID: BlockIDSymbol?)
    /// A path that is not a note (an image, a PDF, a folder): the caller may check it on disk.
    case file(String)
    /// A URL with a scheme (`https:`, `mailto:`) or an autolink.
    case external
    /// No note matches; the text is the normalised path or wiki target that was looked for.
    case brokenNote(String)
    /// The note exists but has no such heading (`heading` is the heading path joined with `#`).
    case brokenHeading(note: String, heading: String)
    /// The note exists but has no block with that id.
    case brokenBlock(note: String, id: String)
    /// A wiki-link that several notes (or, for a target with a file extension, several files)
    /// match equally well; the candidates' paths, sorted.
    case ambiguous([String])
}

/// The notes of a notebook, indexed for link resolution.
///
/// Resolution rules (`resolve(_:from:)`):
///
/// - **External.** Autolinks, and destinations with a URL scheme (`https:`, `mailto:`; a scheme
///   of two or more letters, so `C:` is not one) or starting with `//`, are `.external`.
/// - **Markdown links** (inline, reference, images): the destination is percent-decoded
///   (`%20` is a space; invalid escapes stay as written). A path starting with `/` is relative to
///   the workspace root, any other path to the linking note's folder. `.` and `..` segments are
///   normalised; a `..` that would climb above the root makes the link `.brokenNote`. The path
///   matches a note as written, or with its `.md`/`.markdown` extension added or swapped. An
///   empty path with an anchor (`#heading`, `#^id`) or an empty inline destination means this
///   note; an undefined reference (no destination at all) is `.brokenNote("")`.
///   A path that matches no note is `.file` when it names a file that is not a note (another
///   extension, a trailing `/`, or any image), else `.brokenNote`.
/// - **Wiki-links and embeds** (`[[target#H^id|label]]`) resolve, first match wins:
///   1. by path relative to the root, with or without the extension (exactly, then ignoring
///      case);
///   2. by file stem, ignoring case: the candidate with the fewest folders wins, as in Obsidian,
///      and a tie at that depth is `.ambiguous`; a target with folders (`[[b/note]]`) only
///      matches notes whose path ends with it;
///   3. by title, ignoring case;
///   4. by alias, ignoring case.
///   Several notes with the same title (or alias) are `.ambiguous`. An empty target
///   (`[[#Heading]]`, `[[#^id]]`) means this note.
/// - **Wiki-links to files** (`![[photo.png]]`, `[[report.pdf]]`: a target with a non-note
///   extension) first look among the assets, as Obsidian does with attachments: by path relative
///   to the root, else by file name ignoring case, the file with the fewest folders winning and a
///   tie at that depth `.ambiguous` (a target with folders, `[[img/photo.png]]`, only matches
///   files whose path ends with it). Found, it is `.file` with the asset's path. Otherwise the
///   target is looked up as a note (rules above), and when no note matches either it is `.file`
///   with the target as written (no leading `/`), for the caller to check on disk.
/// - **Headings**: a heading part matches a heading whose GitHub slug is the part (`#my-heading`,
///   also compared lowercased), or whose text is the part ignoring case (`[[note#My Heading]]`).
///   Markdown anchors are percent-decoded first. Nested parts (`[[note#H#Sub]]`) match the last
///   part inside the section of the earlier ones: each later heading must come after the
///   earlier one, have a deeper level, and precede the next heading of the earlier one's level
///   or above. The first match in document order wins; none is `.brokenHeading`.
/// - **Block ids** (`#^id`) match a block id of the note exactly; none is `.brokenBlock`.
public struct NoteCatalog: Sendable, Equatable {
    /// The notes by their exact path.
    public private(set) var notes: [String: NoteSymbols] = [:]
    /// The extensions (lowercased, without `.`) that make a file a note.
    public let noteExtensions: [String]
    // Each table maps a key to the paths having it, sorted by path, so that `note.markdown` and
    // `note.md` pick the same one every time and candidate lists come out sorted. `insert` and
    // `remove` keep them so: the cost of one change is that note's keys, not the notebook's size.
    // (A path without its extension is looked up exactly by filtering the case-insensitive
    // table: one table instead of two, and most keys hold one path, kept without an array.)
    private var byLowercasedPathWithoutExtension: [String: PathList] = [:]
    private var byStem: [String: PathList] = [:]
    private var byTitle: [String: PathList] = [:]
    private var byAlias: [String: PathList] = [:]
    /// The assets (files that are not notes) by file name, lowercased: a wiki-link to a file
    /// finds it by name wherever it is. Sorted like the other tables.
    private var assetsByName: [String: PathList] = [:]

    /// Indexes `notes` (each `path` workspace-relative with `/`). A later note with the same path
    /// as an earlier one replaces it.
    public init(_ notes: [NoteSymbols] = [], noteExtensions: [String] = ["md", "markdown"]) {
        self.noteExtensions = noteExtensions.map { $0.folded }
        for note in notes { insert(note) }
    }

    /// Adds `note`, replacing the note with the same path.
    public mutating func insert(_ note: NoteSymbols) {
        insert(note, keys: keys(of: note))
    }

    /// `insert` with the note's table keys worked out beforehand (`keys(of:)`, on another thread).
    mutating func insert(_ note: NoteSymbols, keys: [(Table, String)]) {
        remove(path: note.path)
        notes[note.path] = note
        for (table, key) in keys { NoteCatalog.add(note.path, to: &self[table], key: key) }
    }

    /// Adds `note` with its keys unless a note has its path already; false then (nothing
    /// changed). One look-up of the path, for scans.
    mutating func insertNew(_ note: NoteSymbols, keys: [(Table, String)]) -> Bool {
        if let existing = notes.updateValue(note, forKey: note.path) {
            notes[note.path] = existing
            return false
        }
        for (table, key) in keys { NoteCatalog.add(note.path, to: &self[table], key: key) }
        return true
    }

    /// Makes room for `count` more notes in every table.
    mutating func reserveCapacity(_ count: Int) {
        notes.reserveCapacity(notes.count + count)
        byLowercasedPathWithoutExtension.reserveCapacity(byLowercasedPathWithoutExtension.count + count)
        byStem.reserveCapacity(byStem.count + count)
        byTitle.reserveCapacity(byTitle.count + count)
    }

    /// Replaces the symbols of a note already in the catalog whose title and aliases are
    /// unchanged (the tables keep their keys).
    public mutating func replaceSymbols(_ note: NoteSymbols) {
        guard let old = notes[note.path], old.title == note.title, old.aliases == note.aliases else { return insert(note) }
        notes[note.path] = note
    }

    /// Removes the note at `path`; returns it, or nil when there was none.
    @discardableResult
    public mutating func remove(path: String) -> NoteSymbols? {
        guard let old = notes.removeValue(forKey: path) else { return nil }
        for (table, key) in keys(of: old) { NoteCatalog.drop(path, from: &self[table], key: key) }
        return old
    }

    /// Records an asset (a file that is not a note, workspace-relative) for wiki-links by name.
    public mutating func insertAsset(_ path: String) {
        NoteCatalog.add(path, to: &assetsByName, key: NoteCatalog.lastComponent(of: path).folded)
    }

    /// Forgets the asset at `path`.
    public mutating func removeAsset(_ path: String) {
        NoteCatalog.drop(path, from: &assetsByName, key: NoteCatalog.lastComponent(of: path).folded)
    }

    /// The assets whose file name is `name` (ignoring case), sorted by path.
    public func assets(named name: String) -> [String] {
        assetsByName[name.folded].map(Array.init) ?? []
    }

    /// The notes whose stem, title or one of whose aliases is `name` (ignoring case): the notes a
    /// wiki-link `[[name]]` may reach, sorted by path.
    public func notes(named name: String) -> [String] {
        let key = name.folded
        var result = byStem[key].map(Array.init) ?? []
        for list in [byTitle[key], byAlias[key]] {
            for path in list ?? PathList() where !result.contains(path) { result.append(path) }
        }
        return result.sorted()
    }

    enum Table: Sendable { case lowercasedPath, stem, title, alias }

    private subscript(table: Table) -> [String: PathList] {
        get {
            switch table {
            case .lowercasedPath: return byLowercasedPathWithoutExtension
            case .stem: return byStem
            case .title: return byTitle
            case .alias: return byAlias
            }
        }
        _modify {
            switch table {
            case .lowercasedPath: yield &byLowercasedPathWithoutExtension
            case .stem: yield &byStem
            case .title: yield &byTitle
            case .alias: yield &byAlias
            }
        }
    }

    /// Every (table, key) the note is listed under.
    func keys(of note: NoteSymbols) -> [(Table, String)] { NoteCatalog.keys(of: note, extensions: noteExtensions) }

    static func keys(of note: NoteSymbols, extensions noteExtensions: [String]) -> [(Table, String)] {
        let bare = NoteCatalog.removingExtension(note.path, noteExtensions)
        var result: [(Table, String)] = []
        result.reserveCapacity(3 + note.aliases.count)
        result.append((.lowercasedPath, bare.folded))
        result.append((.stem, NoteSymbols.fileStem(of: note.path).folded))
        if !note.title.isEmpty { result.append((.title, note.title.folded)) }
        // A note has a handful of aliases: a scan finds repeats more cheaply than a set.
        for alias in note.aliases where !alias.isEmpty {
            let key = alias.folded
            if !result.contains(where: { $0.0 == .alias && $0.1 == key }) { result.append((.alias, key)) }
        }
        return result
    }

    private static func add(_ path: String, to table: inout [String: PathList], key: String) {
        table[key, default: PathList()].insertSorted(path)
    }

    private static func drop(_ path: String, from table: inout [String: PathList], key: String) {
        if table[key]?.remove(path) == false { table[key] = nil }
    }

    /// The note whose path without its note extension is exactly `bare`, the first by path.
    private func note(withoutExtension bare: String) -> String? {
        byLowercasedPathWithoutExtension[bare.folded]?.first { NoteCatalog.removingExtension($0, noteExtensions) == bare }
    }

    /// Where `link`, written in the note at `sourcePath`, points (rules in the type's doc).
    public func resolve(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        if link.form == .autolink { return .external }
        if link.form.isWiki { return resolveWiki(link, from: sourcePath) }
        return resolveMarkdown(link, from: sourcePath)
    }

    // MARK: Markdown links

    private func resolveMarkdown(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        let raw = link.target.text
        if NoteCatalog.isExternal(raw) { return .external }
        let headings = link.headings.map { NoteCatalog.percentDecoded($0.text) }
        let blockID = link.blockID.map { NoteCatalog.percentDecoded($0.text) }
        if raw.isEmpty {
            let isReference = link.form != .inline
            if isReference && headings.isEmpty && blockID == nil && link.destination.isEmpty {
                return .brokenNote("")
            }
            return anchors(in: sourcePath, headings: headings, blockID: blockID)
        }
        let decoded = NoteCatalog.percentDecoded(raw)
        let base: String
        if decoded.utf8.first == UInt8(ascii: "/") {
            base = ""
        } else {
            base = NoteCatalog.folder(of: sourcePath)
        }
        guard let path = NoteCatalog.normalized(base.isEmpty ? decoded : base + "/" + decoded) else {
            return .brokenNote(decoded)
        }
        if let note = notePath(forMarkdownPath: path) {
            return anchors(in: note, headings: headings, blockID: blockID)
        }
        let isFolder = decoded.utf8.last == UInt8(ascii: "/")
        if link.isImage || isFolder { return .file(path) }
        if let ext = NoteCatalog.pathExtension(path), !noteExtensions.contains(ext.folded) {
            return .file(path)
        }
        return .brokenNote(path)
    }

    /// The note at `path` as written, else with a note extension added or swapped.
    private func notePath(forMarkdownPath path: String) -> String? {
        if notes[path] != nil { return path }
        return note(withoutExtension: NoteCatalog.removingExtension(path, noteExtensions))
    }

    // MARK: Wiki-links

    private func resolveWiki(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        let headings = link.headings.map(\.text)
        let blockID = link.blockID?.text
        var target = NoteCatalog.trimmed(link.target.text)
        if target.isEmpty { return anchors(in: sourcePath, headings: headings, blockID: blockID) }
        while target.utf8.first == UInt8(ascii: "/") { target.removeFirst() }
        if NoteCatalog.isExternal(target) { return .external }
        // Most targets are note names without a dot: they skip the asset look-up at once.
        if !assetsByName.isEmpty, target.utf8.contains(UInt8(ascii: ".")),
           let ext = NoteCatalog.pathExtension(target), !noteExtensions.contains(ext.folded) {
            switch wikiAsset(target) {
            case .found(let path): return .file(path)
            case .ambiguous(let paths): return .ambiguous(paths)
            case .missing: break
            }
        }
        switch wikiNote(target) {
        case .found(let path): return anchors(in: path, headings: headings, blockID: blockID)
        case .ambiguous(let paths): return .ambiguous(paths)
        case .missing:
            if let ext = NoteCatalog.pathExtension(target), !noteExtensions.contains(ext.folded) {
                return .file(NoteCatalog.normalized(target) ?? target)
            }
            return .brokenNote(target)
        }
    }

    private enum Lookup {
        case found(String), ambiguous([String]), missing
    }

    private func wikiNote(_ target: String) -> Lookup {
        // 1. By path, with or without the extension.
        if let path = NoteCatalog.normalized(target) {
            if notes[path] != nil { return .found(path) }
            let bare = NoteCatalog.removingExtension(path, noteExtensions)
            if let found = note(withoutExtension: bare) { return .found(found) }
            if let found = byLowercasedPathWithoutExtension[bare.folded] { return NoteCatalog.single(Array(found)) }
        }
        // 2. By file stem, the fewest folders winning; `b/note` needs a path ending in it.
        let bareTarget = NoteCatalog.removingExtension(target, noteExtensions).folded
        let stem = NoteCatalog.lastComponent(of: bareTarget)
        if var candidates = byStem[stem].map(Array.init) {
            if stem.utf8.count != bareTarget.utf8.count {
                let suffix = "/" + bareTarget
                candidates = candidates.filter {
                    NoteCatalog.removingExtension($0, noteExtensions).folded.hasSuffix(suffix)
                }
            }
            if !candidates.isEmpty { return NoteCatalog.single(NoteCatalog.shallowest(candidates)) }
        }
        // 3. By title, 4. by alias.
        let key = target.folded
        if let found = byTitle[key] { return NoteCatalog.single(Array(found)) }
        if let found = byAlias[key] { return NoteCatalog.single(Array(found)) }
        return .missing
    }

    /// The asset a wiki target names: by path, else by file name, the fewest folders winning.
    private func wikiAsset(_ target: String) -> Lookup {
        guard let path = NoteCatalog.normalized(target), !path.isEmpty,
              let candidates = assetsByName[NoteCatalog.lastComponent(of: path).folded].map(Array.init) else { return .missing }
        if candidates.contains(path) { return .found(path) }
        var matching = candidates
        if path.utf8.contains(UInt8(ascii: "/")) {
            let folded = path.folded
            let suffix = "/" + folded
            matching = candidates.filter { let candidate = $0.folded; return candidate == folded || candidate.hasSuffix(suffix) }
        }
        return NoteCatalog.single(NoteCatalog.shallowest(matching))
    }

    private static func single(_ paths: [String]) -> Lookup {
        if paths.count == 1, let path = paths.first { return .found(path) }
        return paths.isEmpty ? .missing : .ambiguous(paths.sorted())
    }

    // MARK: Headings and blocks

    /// The note at `path` with the heading path and block id matched, or what is missing.
    private func anchors(in path: String, headings: [String], blockID: String?) -> Resolution {
        guard let note = notes[path] else { return .brokenNote(path) }
        var heading: HeadingSymbol? = nil
        let parts = headings.filter { !$0.isEmpty }
        if !parts.isEmpty {
            guard let index = NoteCatalog.headingIndex(parts, in: note.headings) else {
                return .brokenHeading(note: path, heading: parts.joined(separator: "#"))
            }
            heading = note.headings[index]
        }
        var block: BlockIDSymbol? = nil
        if let id = blockID, !id.isEmpty {
            guard let found = note.blockIDs.first(where: { $0.id == id }) else {
                return .brokenBlock(note: path, id: id)
            }
            block = found
        }
        return .note(path, heading: heading, blockID: block)
    }

    /// The first heading matching the last of `parts` inside the sections of the earlier ones.
    static func headingIndex(_ parts: [String], in headings: [HeadingSymbol]) -> Int? {
        guard !parts.isEmpty else { return nil }
        let keys = parts.map { $0.folded }
        var candidates = headings.indices.filter { matches(headings[$0], part: parts[0], lowercased: keys[0]) }
        for partIndex in parts.indices.dropFirst() {
            var next: [Int] = []
            for parent in candidates {
                let level = headings[parent].level
                var index = parent + 1
                while index < headings.count, headings[index].level > level {
                    if matches(headings[index], part: parts[partIndex], lowercased: keys[partIndex]) {
                        next.append(index)
                    }
                    index += 1
                }
            }
            // Nested candidates can repeat (a Sub under two matching parents): keep order, once.
            candidates = Array(Set(next)).sorted()
            if candidates.isEmpty { return nil }
        }
        return candidates.first
    }

    private static func matches(_ heading: HeadingSymbol, part: String, lowercased: String) -> Bool {
        if !heading.slug.isEmpty && (heading.slug == part || heading.slug == lowercased) { return true }
        return heading.text.folded == lowercased
    }

    // MARK: Paths

    /// True for `scheme:…` (two or more characters: letter, then letters, digits, `+`, `-`, `.`)
    /// and for `//host/…`.
    public static func isExternal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isExternal($0) }
    }

    /// `isExternal` of UTF-8 bytes.
    static func isExternal(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.count >= 2 && utf8[0] == UInt8(ascii: "/") && utf8[1] == UInt8(ascii: "/") { return true }
        var count = 0
        for byte in utf8 {
            let isLetter = (byte | 0x20) &- 0x61 < 26
            if byte == UInt8(ascii: ":") { return count >= 2 }
            if count == 0 ? !isLetter
                : !(isLetter || byte &- 0x30 < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")) {
                return false
            }
            count += 1
        }
        return false
    }

    /// A path as a Markdown link destination writes it: spaces, control bytes and the bytes that
    /// would end or split the destination (`(`, `)`, `<`, `>`, `#`, `%`) percent-encoded; other
    /// bytes, non-ASCII included, as they are. `percentDecoded` reads it back.
    public static func markdownDestination(_ text: String) -> String {
        let needs: (UInt8) -> Bool = {
            $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: "<")
                || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
        }
        return percentEncoded(text, where: needs)
    }

    /// `text` with the bytes `needs` picks written `%XX` (upper-case hex), the others as they are.
    public static func percentEncoded(_ text: String, where needs: (UInt8) -> Bool) -> String {
        guard text.utf8.contains(where: needs) else { return text }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if needs(byte) {
                result.append(UInt8(ascii: "%"))
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `%XX` escapes decoded; the text unchanged when it has none or they do not make UTF-8.
    public static func percentDecoded(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.contains(UInt8(ascii: "%")) else { return nil }
            // Decoding only shortens the text.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out -> String? in
                var length = 0
                var index = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                       let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                        out[length] = high << 4 | low
                        index += 3
                    } else {
                        out[length] = byte
                        index += 1
                    }
                    length += 1
                }
                return String(validating: UnsafeBufferPointer(rebasing: out[0..<length]), as: UTF8.self)
            }
        } ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `path` with empty and `.` segments dropped and `..` applied; nil when `..` climbs above
    /// the root.
    public static func normalized(_ path: String) -> String? {
        // Most paths are already normal: no empty, `.` or `..` segment. Check that on bytes.
        if path.isEmpty { return path }
        var length = 0
        var dots = 0
        var clean = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) {
                    clean = false
                    break
                }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if clean && length > 0 && !(dots == length && length <= 2) { return path }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if segments.popLast() == nil { return nil }
                continue
            }
            segments.append(segment)
        }
        return segments.joined(separator: "/")
    }

    /// The folder of `path` (`a/b` for `a/b/c.md`), empty at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The paths with the fewest folders among `candidates`, in their order: a wiki-link by
    /// short name reaches these (one of them alone, or ambiguously several).
    static func shallowest(_ candidates: [String]) -> [String] {
        let depths = candidates.map(NoteCatalog.depth(of:))
        let least = depths.min() ?? 0
        return zip(candidates, depths).filter { $0.1 == least }.map(\.0)
    }

    static func depth(of path: String) -> Int {
        path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
    }

    /// The last extension of the file name, without `.`; nil when there is none (a leading dot
    /// starts a hidden name, not an extension).
    public static func pathExtension(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes in
            guard let dot = extensionDot(bytes), dot + 1 < bytes.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), as: UTF8.self)
        }
    }

    /// The index of the `.` that starts the last extension of the file name in `bytes`.
    private static func extensionDot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count
        while index > 0 {
            index -= 1
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") { return nil }
            if byte == UInt8(ascii: ".") {
                // A dot that opens the name is a hidden name, not an extension.
                return index == 0 || bytes[index - 1] == UInt8(ascii: "/") ? nil : index
            }
        }
        return nil
    }

    /// `path` without its last extension when that is a note extension (any case).
    public static func removingExtension(_ path: String, _ extensions: [String]) -> String {
        var text = path
        return text.withUTF8 { bytes -> String? in
            guard let dot = extensionDot(bytes), dot + 1 < bytes.count else { return nil }
            let suffix = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
            // Note extensions are folded: compare an ASCII suffix ignoring ASCII case, any other
            // suffix folded.
            let isNote: Bool
            if suffix.allSatisfy({ $0 < 0x80 }) {
                isNote = extensions.contains { wanted in
                    wanted.utf8.count == suffix.count
                        && zip(wanted.utf8, suffix).allSatisfy { $0 == ($1 &- 0x41 < 26 ? $1 | 0x20 : $1) }
                }
            } else {
                isNote = extensions.contains(String(decoding: suffix, as: UTF8.self).folded)
            }
            guard isNote else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<dot]), as: UTF8.self)
        } ?? path
    }

    public static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        func blank(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard blank(utf8.first) || blank(utf8.last) else { return text }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, blank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, blank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(text[start..<end])
    }
}

/// The paths listed under one key of a catalog table, in byte order, once each. The first is
/// kept inline: most keys (a path, a stem, a title) belong to one note, and an array of one
/// costs an allocation and 48 bytes per key. (Paths are never empty: an empty `head` is the
/// empty list.)
struct PathList: RandomAccessCollection, Sendable, Equatable {
    private var head: String
    private var tail: [String] = []

    init(_ path: String = "") { head = path }

    var startIndex: Int { 0 }
    var endIndex: Int { head.isEmpty && tail.isEmpty ? 0 : tail.count + 1 }
    subscript(position: Int) -> String { position == 0 ? head : tail[position - 1] }

    /// Inserts `path` in order, unless it is there already.
    mutating func insertSorted(_ path: String) {
        if isEmpty {
            head = path
            return
        }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < path { low = middle + 1 } else { high = middle }
        }
        if low < count && self[low] == path { return }
        if low == 0 {
            tail.insert(head, at: 0)
            head = path
        } else {
            tail.insert(path, at: low - 1)
        }
    }

    /// Removes `path`; false when nothing would be left (the caller drops the key).
    mutating func remove(_ path: String) -> Bool {
        guard let index = firstIndex(of: path) else { return true }
        if index > 0 {
            tail.remove(at: index - 1)
            return true
        }
        guard !tail.isEmpty else { return false }
        head = tail.removeFirst()
        return true
    }
}
