// The text a wiki-link written in one note writes to reach a note whose stem other notes share
// (`journal/daily`, `2024/daily`): what completion inserts.
//
// Invariants:
// - Agrees with `resolve` (NoteCatalog+Resolution.swift): the target is the shortest path suffix
//   of the note (stem, `folder/stem`, …) that `resolve` takes back to that very note from the
//   linking note, else its path without extension; written as a wiki target
//   (`NotebookPath.wikiTarget`). The stem rule (the linking note's own folder first, else the
//   shortest path) is answered from a `StemTable` of the stem's notes, made of the keys `resolve`
//   compares (the folded path without extension, the folder, the path's length); a target that
//   an earlier rule could send elsewhere (blanks at its ends, a scheme, an attachment of that
//   name, a byte that would split the link, a path that is not normal) is put to `resolve`
//   itself. Tests compare both.
// - Linear: a `StemTable` costs its notes' path suffixes (one table entry per folder of each
//   path), and a target then costs a look-up per folder of its note's path, never the number of
//   notes that share the stem. (`resolve` filters every note of the stem for each target: asking
//   it for each note of a stem shared by N notes costs N².)

extension NoteCatalog {
    /// The notes of one stem as the stem rule compares them: all of them, and by each path suffix
    /// of two or more parts (folded, without extension), the ones with the shortest path; and by
    /// folder, the ones there.
    public struct StemTable: Sendable {
        /// The folded stem.
        let stem: String
        var all = Shortest()
        var bySuffix: [String: Shortest] = [:]
        /// The stem's notes by folder, each with its folded path without extension.
        var byFolder: [String: [(path: String, key: String)]] = [:]
        /// Whether every `/` of the paths is a character of its own, so that the suffixes cut
        /// at its bytes are those `hasSuffix` compares; when a neighbour joins one (a combining
        /// mark after it, a prepended sign before it), the resolver is asked instead.
        var isPlain = true
        /// The path suffixes filed, for tests that check how the work grows.
        var work = 0
    }

    /// The candidates with the shortest path: how many there are, and the first of them.
    struct Shortest: Sendable {
        var length = Int.max
        var count = 0
        var first: String?

        mutating func add(_ path: String, length: Int) {
            if length < self.length {
                self.length = length
                count = 1
                first = path
            } else if length == self.length {
                count += 1
            }
        }
    }

    /// The notes whose stem (ignoring case) another note has too: those whose link text depends
    /// on where the link is written (`wikiTarget(to:from:table:)`).
    public func pathsSharingStems() -> Set<String> {
        var paths: Set<String> = []
        for group in pathsSharingNames(in: .stem) { paths.formUnion(group) }
        return paths
    }

    /// The key of the stem table `path` belongs to (its folded stem).
    public static func stemKey(of path: String) -> String {
        NotebookPath.fileStem(of: path).folded
    }

    /// The table of the notes whose stem is `stem` (a `stemKey`); nil when there is none.
    public func stemTable(_ stem: String) -> StemTable? {
        guard let paths = paths(.stem, stem) else { return nil }
        var table = StemTable(stem: stem)
        for path in paths {
            let length = path.utf16.count
            table.all.add(path, length: length)
            let folded = NotebookPath.removingExtension(path, noteExtensions).folded
            table.byFolder[NotebookPath.folder(of: path), default: []].append((path, folded))
            let utf8 = folded.utf8
            // Every suffix after a `/` that still holds a `/`: what `hasSuffix("/" + target)`
            // matches for a target with folders.
            let slashes = utf8.indices.filter { utf8[$0] == UInt8(ascii: "/") }
            if !utf8.allSatisfy({ $0 < 0x80 }), !slashes.allSatisfy({ NoteCatalog.standsAlone(folded, slash: $0) }) {
                table.isPlain = false
            }
            for slash in slashes.dropLast() {
                table.work += 1
                table.bySuffix[String(folded[utf8.index(after: slash)...]), default: Shortest()].add(path, length: length)
            }
        }
        return table
    }

    /// What a wiki-link written in the note at `sourcePath` writes to reach the note at `path`
    /// (see the invariants above); `table` is the table of `path`'s stem.
    public func wikiTarget(to path: String, from sourcePath: String, table: StemTable) -> String {
        var work = 0
        return wikiTarget(to: path, from: sourcePath, table: table, work: &work)
    }

    /// `wikiTarget(to:from:table:)`, adding to `work` the suffixes it tries and the candidates it
    /// has `resolve` compare.
    func wikiTarget(to path: String, from sourcePath: String, table: StemTable, work: inout Int) -> String {
        let bare = NotebookPath.removingExtension(path, noteExtensions)
        let sourceFolder = NotebookPath.folder(of: sourcePath)
        // Where each suffix starts: after each `/`, last first (paths are cut at bytes, as the
        // resolver's folders are), then the whole path.
        var starts: [String.Index] = []
        var index = bare.utf8.endIndex
        while index > bare.utf8.startIndex {
            bare.utf8.formIndex(before: &index)
            if bare.utf8[index] == UInt8(ascii: "/") { starts.append(bare.utf8.index(after: index)) }
        }
        // A path that is not normal (`a//b`, `./a`) has suffixes the resolver reads otherwise.
        let isPlain = table.isPlain && NotebookPath.normalized(bare) == bare
        for start in starts {
            let target = String(bare[start...])
            guard !target.isEmpty else { continue }
            work += 1
            let quick = isPlain ? wikiTarget(target, quicklyReaches: path, from: sourceFolder, table: table) : nil
            if let quick {
                if quick { return target }
                continue
            }
            let text = NotebookPath.wikiTarget(target)
            let link = LinkSymbol(form: .wikiLink, target: LinkSymbol.Part(text: text, range: .empty), range: .empty)
            work += paths(.stem, NoteCatalog.stemKey(of: target))?.count ?? 1
            if case .note(let found, _, _, _) = resolve(link, from: sourcePath), found == path { return text }
        }
        return NotebookPath.wikiTarget(bare)
    }

    /// Whether the wiki-link `[[target]]` written in a note of the folder `sourceFolder`, where
    /// `target` is a normal path suffix of `path` short of its whole path, resolves to `path` by
    /// the resolver's rules, with the stem rule answered from `table`; nil when a rule other
    /// than the path and stem rules might decide (then ask `resolve`).
    private func wikiTarget(_ target: String, quicklyReaches path: String, from sourceFolder: String,
                            table: StemTable) -> Bool? {
        // What `resolve` does before looking for a note: trimming blanks, relative paths, a
        // scheme, attachments by name (a target with a dot); and a name with bytes that would
        // split the link is written percent-encoded.
        let utf8 = target.utf8
        func blank(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard !utf8.isEmpty, !blank(utf8.first), !blank(utf8.last), utf8.first != UInt8(ascii: "."),
              !NotebookPath.isExternal(target), NotebookPath.wikiTarget(target) == target,
              !utf8.contains(UInt8(ascii: "%")) else { return nil }
        if !assetsByName.isEmpty, utf8.contains(UInt8(ascii: ".")),
           assetsByName[NotebookPath.lastComponent(of: target).folded] != nil { return nil }
        let bare = NotebookPath.removingExtension(target, noteExtensions)
        guard bare.utf8.count == utf8.count else { return nil }
        let key = bare.folded
        // 2. By stem: the notes whose path ends with the target (all of the stem for the stem
        // alone); those in the linking note's folder, else the shortest path.
        let stem = NotebookPath.lastComponent(of: key)
        guard stem == table.stem, let candidates = stem.utf8.count == key.utf8.count ? table.all : table.bySuffix[key] else {
            // Another stem's notes (a name with a backslash), or none: ask the resolver.
            return nil
        }
        let suffix = "/" + key
        let local = (table.byFolder[sourceFolder] ?? []).filter { stem.utf8.count == key.utf8.count || $0.key.hasSuffix(suffix) }
        if !local.isEmpty {
            guard local.count == 1, local.first?.path == path else { return false }
        } else {
            guard candidates.count == 1, candidates.first == path else { return false }
        }
        // 1. By path, which comes first: a note whose path (without extension, ignoring case) is
        // the target. It cannot be `path`, whose path is longer.
        return notes[target] == nil && paths(.lowercasedPath, key) == nil
    }

    /// Whether the `/` at `slash` in `text` is a character of its own. Only the scalars beside it
    /// can join it (a combining mark after it, a prepended sign before it: rules GB9, GB9a and
    /// GB9b), so those three are asked.
    static func standsAlone(_ text: String, slash: String.Index) -> Bool {
        let scalars = text.unicodeScalars
        var three = String.UnicodeScalarView()
        if slash > scalars.startIndex { three.append(scalars[scalars.index(before: slash)]) }
        three.append("/")
        let after = scalars.index(after: slash)
        if after < scalars.endIndex { three.append(scalars[after]) }
        return three.allSatisfy(\.isASCII) || String(three).count == three.count
    }
}

extension NoteCatalog {
    /// What a wiki-link or embed written in the note at `sourcePath` writes to reach the file
    /// (not a note) at `path`: the shortest path suffix that `resolve` takes back to that file, as
    /// Obsidian writes its "shortest" links (`![[lucide-x.svg]]` for
    /// `Attachments/icons/lucide-x.svg` when no other file has that name), else the whole path.
    /// A few `resolve` calls, one per folder of the path.
    public func wikiFileTarget(to path: String, from sourcePath: String) -> String {
        let utf8 = path.utf8
        var starts = utf8.indices.filter { $0 > utf8.startIndex && utf8[utf8.index(before: $0)] == UInt8(ascii: "/") }
        starts.reverse()
        for start in starts {
            let text = NotebookPath.wikiTarget(String(path[start...]))
            let link = LinkSymbol(form: .wikiLink, target: LinkSymbol.Part(text: text, range: .empty), range: .empty)
            if case .file(let found) = resolve(link, from: sourcePath), found == path { return text }
        }
        return NotebookPath.wikiTarget(path)
    }
}
