// Where a link points: a note (and a heading, block or HTML id in it), a file, a URL, a place
// outside the notebook, or nowhere. The rules are written on `NoteCatalog` (and, rule by rule
// with an example each, in docs/notebook.md, "Link resolution").
//
// Invariants:
// - Paths are workspace-relative with `/`; a resolved path is always one of the catalog's own
//   paths (`.note`, or `.file` for an asset found by path or name) or a normalised path that
//   never climbs above the root (`.file`, `.brokenNote`).
// - Resolution never traps, whatever the link holds: bad percent escapes stay as written, and
//   `..` above the root is `.outside`, not an error.
// - Only the target note's headings, block ids and HTML ids are scanned, and only when it has
//   few (`NoteAnchors` has those of notes with many); everything else is a table look-up (a name
//   shared by several files filters that name's candidates only).
// - Candidate lists (`.ambiguous`) are sorted, so results do not depend on the order of `notes`.
// - The result depends on the linking note's path (relative paths, the own-folder rule), the
//   catalog's notes and assets, `markdownResolution` and `sourceFolder`; nothing else.

/// What a link resolves to.
public enum Resolution: Sendable, Equatable {
    /// A note of the catalog, with the heading, block or HTML id the link names (nil when it
    /// names none).
    case note(String, heading: HeadingSymbol?, blockID: BlockIDSymbol?, htmlID: HTMLIDSymbol? = nil)
    /// A path that is not a note (an image, a PDF, a folder): the caller may check it on disk.
    case file(String)
    /// A URL with a scheme (`https:`, `mailto:`) or an autolink.
    case external
    /// A relative path that climbs above the notebook's root (`../std/index.html`, as a book
    /// published beside other books links them): it cannot be checked. The text is the path as
    /// written, percent-decoded.
    case outside(String)
    /// No note matches; the text is the normalised path or wiki target that was looked for.
    case brokenNote(String)
    /// The note exists but has no such heading (`heading` is the heading path joined with `#`).
    case brokenHeading(note: String, heading: String)
    /// The note exists but has no block with that id.
    case brokenBlock(note: String, id: String)
    /// A link by name that several notes (or, for a target with a file extension, several files)
    /// match equally well; the candidates' paths, sorted.
    case ambiguous([String])
}

extension NoteCatalog {
    /// Where `link`, written in the note at `sourcePath`, points (rules in the type's doc).
    public func resolve(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        if link.form == .autolink { return .external }
        if link.form.isWiki { return resolveWiki(link, from: sourcePath) }
        return resolveMarkdown(link, from: sourcePath)
    }

    /// True when `path` is a file of the notebook that is not a note (an asset).
    public func hasAsset(_ path: String) -> Bool {
        assetsByName[NotebookPath.lastComponent(of: path).folded]?.contains(path) ?? false
    }

    // MARK: Markdown links

    private func resolveMarkdown(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        let raw = link.target.text
        if NotebookPath.isExternal(raw) { return .external }
        let headings = link.headings.map { NotebookPath.percentDecoded($0.text) }
        let blockID = link.blockID.map { NotebookPath.percentDecoded($0.text) }
        if raw.isEmpty {
            let isReference = link.form != .inline
            if isReference && headings.isEmpty && blockID == nil && link.destination.isEmpty {
                return .brokenNote("")
            }
            return anchors(in: sourcePath, headings: headings, blockID: blockID)
        }
        let decoded = NotebookPath.percentDecoded(raw)
        // In a book, a note of the source folder is a page of a site whose root is that folder.
        let book = sourceFolder.flatMap { folder in sourcePath.hasPrefix(folder + "/") ? folder : nil }
        let base = decoded.utf8.first == UInt8(ascii: "/") ? (book ?? "") : NotebookPath.folder(of: sourcePath)
        let isFolder = decoded.utf8.last == UInt8(ascii: "/")
        let normalized = NotebookPath.normalized(base.isEmpty ? decoded : base + "/" + decoded)
        if let book, let normalized, !normalized.hasPrefix(book + "/") {
            // Out of the book: a page of the site it is published in (`../std/index.html`).
            return .outside(decoded)
        }
        guard let path = normalized else {
            // Above the root: a published book's link to a sibling book. Obsidian still looks
            // the name up.
            if markdownResolution == .obsidian, !isFolder,
               let found = byName(decoded, from: sourcePath, headings: headings, blockID: blockID) { return found }
            return .outside(decoded)
        }
        if let note = notePath(forMarkdownPath: path) {
            return anchors(in: note, headings: headings, blockID: blockID)
        }
        if hasAsset(path) { return .file(path) }
        // A static-site generator publishes `chapter.md` as `chapter.html`.
        if !isFolder, let note = notePath(forPublishedPath: path) {
            return anchors(in: note, headings: headings, blockID: blockID)
        }
        if markdownResolution == .obsidian, !isFolder,
           let found = byName(decoded, from: sourcePath, headings: headings, blockID: blockID) { return found }
        if link.isImage || isFolder { return .file(path) }
        if let ext = NotebookPath.pathExtension(path), !noteExtensions.contains(ext.folded) {
            return .file(path)
        }
        return .brokenNote(path)
    }

    /// The note at `path` as written, else with a note extension added or swapped.
    private func notePath(forMarkdownPath path: String) -> String? {
        if notes[path] != nil { return path }
        return note(withoutExtension: NotebookPath.removingExtension(path, noteExtensions))
    }

    /// The note a static site publishes at `path`: `chapter.md` for `chapter.html` or
    /// `chapter.htm` (any case).
    private func notePath(forPublishedPath path: String) -> String? {
        guard let ext = NotebookPath.pathExtension(path), ext.utf8.count <= 4 else { return nil }
        let folded = ext.folded
        guard folded == "html" || folded == "htm" else { return nil }
        let bare = String(path.utf8.dropLast(ext.utf8.count + 1)) ?? path
        return note(withoutExtension: bare)
    }

    /// A Markdown path that reached nothing, looked up by name as a wiki-link target (leading
    /// `./` and `../` dropped); nil when nothing has that name.
    private func byName(_ decoded: String, from sourcePath: String, headings: [String], blockID: String?) -> Resolution? {
        var target = Substring(decoded)
        while true {
            if target.hasPrefix("./") {
                target = target.dropFirst(2)
            } else if target.hasPrefix("../") {
                target = target.dropFirst(3)
            } else if target.hasPrefix("/") {
                target = target.dropFirst()
            } else {
                break
            }
        }
        guard !target.isEmpty else { return nil }
        switch lookUp(String(target), from: sourcePath) {
        case .note(let path): return anchors(in: path, headings: headings, blockID: blockID)
        case .file(let path): return .file(path)
        case .ambiguous(let paths): return .ambiguous(paths)
        case .missing: return nil
        }
    }

    // MARK: Wiki-links

    private func resolveWiki(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        let headings = link.headings.map(\.text)
        let blockID = link.blockID?.text
        var target = NotebookPath.trimmed(link.target.text)
        if target.isEmpty { return anchors(in: sourcePath, headings: headings, blockID: blockID) }
        if target.hasPrefix("./") || target.hasPrefix("../") {
            return relativeWiki(target, from: sourcePath, headings: headings, blockID: blockID)
        }
        while target.utf8.first == UInt8(ascii: "/") { target.removeFirst() }
        if NotebookPath.isExternal(target) { return .external }
        var found = lookUp(target, from: sourcePath)
        // `[[C%23 notes]]`: a name with bytes that would split the link, percent-encoded.
        if case .missing = found, target.utf8.contains(UInt8(ascii: "%")) {
            let decoded = NotebookPath.percentDecoded(target)
            if decoded != target { found = lookUp(decoded, from: sourcePath) }
        }
        // `[[C# notes]]`: the name as it is, split by the parser; put back together.
        if case .missing = found, !bySplitName.isEmpty, !headings.isEmpty || blockID != nil || link.label != nil {
            found = splitName(link, from: sourcePath)
            if case .note(let path) = found { return .note(path, heading: nil, blockID: nil) }
        }
        switch found {
        case .note(let path): return anchors(in: path, headings: headings, blockID: blockID)
        case .file(let path): return .file(path)
        case .ambiguous(let paths): return .ambiguous(paths)
        case .missing:
            if let ext = NotebookPath.pathExtension(target), !noteExtensions.contains(ext.folded) {
                return .file(NotebookPath.normalized(target) ?? target)
            }
            return .brokenNote(target)
        }
    }

    /// `[[./note]]`, `[[../folder/note]]`: relative to the linking note's folder, by path only.
    private func relativeWiki(_ target: String, from sourcePath: String, headings: [String], blockID: String?) -> Resolution {
        let folder = NotebookPath.folder(of: sourcePath)
        guard let path = NotebookPath.normalized(folder.isEmpty ? target : folder + "/" + target) else {
            return .outside(target)
        }
        if let note = notePath(forMarkdownPath: path) { return anchors(in: note, headings: headings, blockID: blockID) }
        if hasAsset(path) { return .file(path) }
        if let ext = NotebookPath.pathExtension(path), !noteExtensions.contains(ext.folded) { return .file(path) }
        return .brokenNote(path)
    }

    private enum Lookup {
        case note(String), file(String), ambiguous([String]), missing
    }

    /// A name or path among the notes and the other files: a target with a file extension that
    /// is not a note's looks among the files first, any other among the notes first (so
    /// `[[LICENSE]]` finds the file `LICENSE` when no note has that name).
    private func lookUp(_ target: String, from sourcePath: String) -> Lookup {
        let fileFirst = target.utf8.contains(UInt8(ascii: ".")) && NotebookPath.pathExtension(target).map { !noteExtensions.contains($0.folded) } == true
        if fileFirst, !assetsByName.isEmpty {
            let asset = wikiAsset(target, from: sourcePath)
            if case .missing = asset {} else { return asset }
        }
        let note = wikiNote(target, from: sourcePath)
        if case .missing = note, !fileFirst, !assetsByName.isEmpty { return wikiAsset(target, from: sourcePath) }
        return note
    }

    private func wikiNote(_ target: String, from sourcePath: String) -> Lookup {
        // 1. By path, with or without the extension.
        if let path = NotebookPath.normalized(target) {
            if notes[path] != nil { return .note(path) }
            let bare = NotebookPath.removingExtension(path, noteExtensions)
            if let found = note(withoutExtension: bare) { return .note(found) }
            if let found = paths(.lowercasedPath, bare.folded) { return NoteCatalog.single(found, isNote: true) }
        }
        // 2. By file stem: the linking note's own folder, else the shortest path;
        // `b/note` needs a path ending in it.
        let bareTarget = NotebookPath.removingExtension(target, noteExtensions).folded
        let stem = NotebookPath.lastComponent(of: bareTarget)
        if var candidates = paths(.stem, stem) {
            if stem.utf8.count != bareTarget.utf8.count {
                let suffix = "/" + bareTarget
                candidates = candidates.filter {
                    NotebookPath.removingExtension($0, noteExtensions).folded.hasSuffix(suffix)
                }
            }
            if !candidates.isEmpty {
                return NoteCatalog.single(NotebookPath.preferred(candidates, from: NotebookPath.folder(of: sourcePath)), isNote: true)
            }
        }
        // 3. By title, 4. by alias.
        let key = target.folded
        if let found = paths(.title, key) { return NoteCatalog.single(found, isNote: true) }
        if let found = paths(.alias, key) { return NoteCatalog.single(found, isNote: true) }
        return .missing
    }

    /// The asset a wiki target names: by path, else by file name, the linking note's own
    /// folder winning, else the shortest path.
    private func wikiAsset(_ target: String, from sourcePath: String) -> Lookup {
        guard let path = NotebookPath.normalized(target), !path.isEmpty,
              let candidates = assetsByName[NotebookPath.lastComponent(of: path).folded].map(Array.init) else { return .missing }
        if candidates.contains(path) { return .file(path) }
        var matching = candidates
        if path.utf8.contains(UInt8(ascii: "/")) {
            let folded = path.folded
            let suffix = "/" + folded
            matching = candidates.filter { let candidate = $0.folded; return candidate == folded || candidate.hasSuffix(suffix) }
        }
        return NoteCatalog.single(NotebookPath.preferred(matching, from: NotebookPath.folder(of: sourcePath)), isNote: false)
    }

    /// The note whose name holds `#`, `|` or `^` that `link` writes as it is (split into its
    /// target, headings, block id and label).
    private func splitName(_ link: LinkSymbol, from sourcePath: String) -> Lookup {
        var joined = link.target.text
        for heading in link.headings { joined += "#" + heading.text }
        var keys: [String] = []
        if let block = link.blockID?.text {
            // `[[a^b]]` and `[[a#^b]]` both give the block `b`: try both spellings.
            keys.append(joined + "^" + block)
            keys.append(joined + "#^" + block)
        } else {
            keys.append(joined)
        }
        if let label = link.label?.text { keys = keys.map { $0 + "|" + label } }
        for key in keys {
            if let found = paths(.splitName, NoteCatalog.splitNameKey(key)) {
                return NoteCatalog.single(NotebookPath.preferred(found, from: NotebookPath.folder(of: sourcePath)), isNote: true)
            }
        }
        return .missing
    }

    private static func single(_ paths: [String], isNote: Bool) -> Lookup {
        if paths.count == 1, let path = paths.first { return isNote ? .note(path) : .file(path) }
        return paths.isEmpty ? .missing : .ambiguous(paths.sorted())
    }

    // MARK: Headings and blocks

    /// The note at `path` with the heading path and block id matched, or what is missing.
    private func anchors(in path: String, headings: [String], blockID: String?) -> Resolution {
        guard let note = notes[path] else { return .brokenNote(path) }
        var heading: HeadingSymbol? = nil
        var htmlID: HTMLIDSymbol? = nil
        let parts = headings.filter { !$0.isEmpty }
        // A note with many anchors has them in tables; the others are scanned.
        let table = anchors[path]
        func headingIndex(loose: Bool) -> Int? {
            if let table { return table.headingIndex(parts, loose: loose) }
            return NoteCatalog.headingIndex(parts, in: note.headings, loose: loose)
        }
        if !parts.isEmpty {
            if let index = headingIndex(loose: false) {
                heading = note.headings[index]
            } else if parts.count == 1,
                      let found = table.map({ $0.htmlID(parts[0]).map { note.htmlIDs[$0] } }) ?? NoteCatalog.htmlID(parts[0], in: note.htmlIDs) {
                htmlID = found
            } else if let index = headingIndex(loose: true) {
                heading = note.headings[index]
            } else {
                return .brokenHeading(note: path, heading: parts.joined(separator: "#"))
            }
        }
        var block: BlockIDSymbol? = nil
        if let id = blockID, !id.isEmpty {
            let index = table.map { $0.block(id) } ?? note.blockIDs.firstIndex(where: { $0.id == id })
            guard let index else { return .brokenBlock(note: path, id: id) }
            block = note.blockIDs[index]
        }
        return .note(path, heading: heading, blockID: block, htmlID: htmlID)
    }

    /// The HTML id `fragment` names: exactly, else ignoring case.
    static func htmlID(_ fragment: String, in ids: [HTMLIDSymbol]) -> HTMLIDSymbol? {
        guard !ids.isEmpty else { return nil }
        if let exact = ids.first(where: { $0.id == fragment }) { return exact }
        let folded = fragment.folded
        return ids.first { $0.id.folded == folded }
    }

    /// The first heading matching the last of `parts` inside the sections of the earlier ones.
    /// Exactly: by slug or by text ignoring case; `loose`: by `NotebookPath.looseHeadingKey`
    /// (punctuation and formatting ignored, as Obsidian compares headings).
    /// (`headings` is a `HeadingList` or an array: a packed heading is made when looked at.)
    static func headingIndex<Headings: RandomAccessCollection>(_ parts: [String], in headings: Headings, loose: Bool = false) -> Int?
    where Headings.Element == HeadingSymbol, Headings.Index == Int {
        guard !parts.isEmpty, !headings.isEmpty else { return nil }
        let keys = parts.map { loose ? NotebookPath.looseHeadingKey($0) : $0.folded }
        let looseKeys = loose ? headings.map { NotebookPath.looseHeadingKey($0.text) } : []
        func matches(_ index: Int, _ partIndex: Int) -> Bool {
            if loose { return !keys[partIndex].isEmpty && looseKeys[index] == keys[partIndex] }
            return NoteCatalog.matches(headings[index], part: parts[partIndex], lowercased: keys[partIndex])
        }
        var candidates = headings.indices.filter { matches($0, 0) }
        for partIndex in parts.indices.dropFirst() {
            var next: [Int] = []
            for parent in candidates {
                let level = headings[parent].level
                var index = parent + 1
                while index < headings.count, headings[index].level > level {
                    if matches(index, partIndex) { next.append(index) }
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
}
