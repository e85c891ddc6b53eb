// Where a link points: a note (and a heading or block in it), a file, a URL, or nowhere. The
// rules are written on `NoteCatalog`.
//
// Invariants:
// - Paths are workspace-relative with `/`; a resolved path is always one of the catalog's own
//   paths (`.note`, or `.file` for an asset a wiki-link found by name) or a normalised path that
//   never climbs above the root (`.file`).
// - Resolution never traps, whatever the link holds: bad percent escapes stay as written, and
//   `..` above the root is a broken link, not an error.
// - Only the target note's headings and block ids are scanned; everything else is a table look-up.
// - Candidate lists (`.ambiguous`) are sorted, so results do not depend on the order of `notes`.

/// What a link resolves to.
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

extension NoteCatalog {
    /// Where `link`, written in the note at `sourcePath`, points (rules in the type's doc).
    public func resolve(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        if link.form == .autolink { return .external }
        if link.form.isWiki { return resolveWiki(link, from: sourcePath) }
        return resolveMarkdown(link, from: sourcePath)
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
        let base: String
        if decoded.utf8.first == UInt8(ascii: "/") {
            base = ""
        } else {
            base = NotebookPath.folder(of: sourcePath)
        }
        guard let path = NotebookPath.normalized(base.isEmpty ? decoded : base + "/" + decoded) else {
            return .brokenNote(decoded)
        }
        if let note = notePath(forMarkdownPath: path) {
            return anchors(in: note, headings: headings, blockID: blockID)
        }
        let isFolder = decoded.utf8.last == UInt8(ascii: "/")
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

    // MARK: Wiki-links

    private func resolveWiki(_ link: LinkSymbol, from sourcePath: String) -> Resolution {
        let headings = link.headings.map(\.text)
        let blockID = link.blockID?.text
        var target = NotebookPath.trimmed(link.target.text)
        if target.isEmpty { return anchors(in: sourcePath, headings: headings, blockID: blockID) }
        while target.utf8.first == UInt8(ascii: "/") { target.removeFirst() }
        if NotebookPath.isExternal(target) { return .external }
        // Most targets are note names without a dot: they skip the asset look-up at once.
        if !assetsByName.isEmpty, target.utf8.contains(UInt8(ascii: ".")),
           let ext = NotebookPath.pathExtension(target), !noteExtensions.contains(ext.folded) {
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
            if let ext = NotebookPath.pathExtension(target), !noteExtensions.contains(ext.folded) {
                return .file(NotebookPath.normalized(target) ?? target)
            }
            return .brokenNote(target)
        }
    }

    private enum Lookup {
        case found(String), ambiguous([String]), missing
    }

    private func wikiNote(_ target: String) -> Lookup {
        // 1. By path, with or without the extension.
        if let path = NotebookPath.normalized(target) {
            if notes[path] != nil { return .found(path) }
            let bare = NotebookPath.removingExtension(path, noteExtensions)
            if let found = note(withoutExtension: bare) { return .found(found) }
            if let found = byLowercasedPathWithoutExtension[bare.folded] { return NoteCatalog.single(Array(found)) }
        }
        // 2. By file stem, the fewest folders winning; `b/note` needs a path ending in it.
        let bareTarget = NotebookPath.removingExtension(target, noteExtensions).folded
        let stem = NotebookPath.lastComponent(of: bareTarget)
        if var candidates = byStem[stem].map(Array.init) {
            if stem.utf8.count != bareTarget.utf8.count {
                let suffix = "/" + bareTarget
                candidates = candidates.filter {
                    NotebookPath.removingExtension($0, noteExtensions).folded.hasSuffix(suffix)
                }
            }
            if !candidates.isEmpty { return NoteCatalog.single(NotebookPath.shallowest(candidates)) }
        }
        // 3. By title, 4. by alias.
        let key = target.folded
        if let found = byTitle[key] { return NoteCatalog.single(Array(found)) }
        if let found = byAlias[key] { return NoteCatalog.single(Array(found)) }
        return .missing
    }

    /// The asset a wiki target names: by path, else by file name, the fewest folders winning.
    private func wikiAsset(_ target: String) -> Lookup {
        guard let path = NotebookPath.normalized(target), !path.isEmpty,
              let candidates = assetsByName[NotebookPath.lastComponent(of: path).folded].map(Array.init) else { return .missing }
        if candidates.contains(path) { return .found(path) }
        var matching = candidates
        if path.utf8.contains(UInt8(ascii: "/")) {
            let folded = path.folded
            let suffix = "/" + folded
            matching = candidates.filter { let candidate = $0.folded; return candidate == folded || candidate.hasSuffix(suffix) }
        }
        return NoteCatalog.single(NotebookPath.shallowest(matching))
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
}
