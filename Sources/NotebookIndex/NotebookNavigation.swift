// Navigation and refactoring over a notebook: what is under the cursor, where it is defined, where
// it is used, and the edits that rename it everywhere.
//
// Invariants:
// - Pure functions of a `Notebook` and a note's symbols; results are byte ranges in notes'
//   sources (`SourceRange`), which the server turns into LSP locations.
// - Results are sorted (by path, then position) and edits never overlap: a reference
//   definition shared by several links is edited once.
// - A rename keeps each link's style: a wiki-link written with the stem gets the new stem, one
//   written with a path gets the new path, one written with a title or alias is left alone (a
//   file rename does not change those); a Markdown link gets the new relative path, keeping or
//   leaving out the extension as it did.

import MarkdownSyntax
import TextCore

/// A range in one note.
public struct SourceRange: Sendable, Equatable, Hashable {
    public var path: String
    public var range: ByteSpan
    public init(path: String, range: ByteSpan) {
        self.path = path
        self.range = range
    }
}

/// A text edit in one note.
public struct NoteEdit: Sendable, Equatable, Hashable {
    public var path: String
    public var range: ByteSpan
    public var newText: String
    public init(path: String, range: ByteSpan, newText: String) {
        self.path = path
        self.range = range
        self.newText = newText
    }
}

/// What the cursor is on.
public enum CursorTarget: Sendable, Equatable {
    case link(LinkSymbol)
    case heading(HeadingSymbol)
    case tag(TagSymbol)
    case definition(LinkDefinitionSymbol)
    case blockID(BlockIDSymbol)
}

extension NoteSymbols {
    /// The innermost symbol at `offset` (a link inside a heading is the link). The end of a
    /// range counts, so a cursor just after `]]` or a tag is still on it.
    public func target(at offset: Int) -> CursorTarget? {
        func contains(_ span: ByteSpan) -> Bool { Int(span.start) <= offset && offset <= Int(span.end) }
        if let link = links.first(where: { contains($0.range) }) { return .link(link) }
        if let tag = tags.first(where: { contains($0.range) }) { return .tag(tag) }
        if let block = blockIDs.first(where: { contains($0.range) }) { return .blockID(block) }
        if let definition = linkDefinitions.first(where: { contains($0.range) }) { return .definition(definition) }
        if let heading = headings.first(where: { contains($0.range) }) { return .heading(heading) }
        return nil
    }
}

/// Why a rename cannot be done.
public struct RenameError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension Notebook {
    // MARK: Definition

    /// Where the symbol at the cursor leads: a link's note, heading or block (a reference link's
    /// definition first); a definition's target.
    public func definition(of target: CursorTarget, in note: NoteSymbols) -> [SourceRange] {
        switch target {
        case .link(let link):
            var result: [SourceRange] = []
            if let label = link.referenceLabel,
               let definition = note.linkDefinitions.first(where: { $0.normalizedLabel == label.text }) {
                result.append(SourceRange(path: note.path, range: definition.range))
            }
            result += destination(of: link, from: note.path)
            return result
        case .definition(let definition):
            guard let link = note.links.first(where: { $0.referenceLabel?.text == definition.normalizedLabel }) else { return [] }
            return destination(of: link, from: note.path)
        case .heading, .tag, .blockID:
            return []
        }
    }

    /// The place a link reaches, when it reaches one in the notebook.
    public func destination(of link: LinkSymbol, from path: String) -> [SourceRange] {
        switch catalog.resolve(link, from: path) {
        case .note(let target, let heading, let block):
            let range = block?.blockRange ?? heading?.range ?? ByteSpan(Int32(0), Int32(0))
            return [SourceRange(path: target, range: range)]
        case .file(let file) where assets.contains(file):
            return [SourceRange(path: file, range: .empty)]
        case .ambiguous(let candidates):
            return candidates.map { SourceRange(path: $0, range: .empty) }
        default:
            return []
        }
    }

    // MARK: References

    /// Every use of the symbol at the cursor; with no symbol, the backlinks of the note itself.
    public func references(of target: CursorTarget?, in note: NoteSymbols) -> [SourceRange] {
        var result: [SourceRange] = []
        switch target {
        case .link(let link)?:
            guard case .note(let path, let heading, let block) = catalog.resolve(link, from: note.path) else { return [] }
            result = backlinks(to: path).filter { backlink in
                if let block { return backlink.blockID?.id == block.id }
                if let heading { return backlink.heading?.key == heading.key }
                return true
            }.map { SourceRange(path: $0.source, range: $0.link.range) }
        case .heading(let heading)?:
            result = backlinks(to: note.path).filter { $0.heading?.key == heading.key }
                .map { SourceRange(path: $0.source, range: $0.link.range) }
        case .blockID(let block)?:
            result = backlinks(to: note.path).filter { $0.blockID?.id == block.id }
                .map { SourceRange(path: $0.source, range: $0.link.range) }
        case .tag(let tag)?:
            for (path, _) in uses(ofTag: tag.name) {
                guard let user = notes[path] else { continue }
                for use in user.tags where use.matches(tag.name) { result.append(SourceRange(path: path, range: use.range)) }
            }
        case .definition(let definition)?:
            result = note.links.filter { $0.referenceLabel?.text == definition.normalizedLabel }
                .map { SourceRange(path: note.path, range: $0.range) }
        case nil:
            result = backlinks(to: note.path).map { SourceRange(path: $0.source, range: $0.link.range) }
        }
        return result.sorted { ($0.path, $0.range.start) < ($1.path, $1.range.start) }
    }

    // MARK: Rename

    /// The range a rename at the cursor replaces in this note and the text it holds now; nil
    /// when nothing there can be renamed (`prepareRename(_:in:)` says why).
    public func renameRange(of target: CursorTarget, in note: NoteSymbols) -> (range: ByteSpan, text: String)? {
        try? prepareRename(target, in: note)
    }

    /// The range a rename at the cursor replaces in this note and the text it holds now, or an
    /// error that says why the symbol there cannot be renamed.
    public func prepareRename(_ target: CursorTarget?, in note: NoteSymbols) throws(RenameError) -> (range: ByteSpan, text: String) {
        switch target {
        case .heading(let heading)?:
            return (heading.textRange, heading.text)
        case .tag(let tag)?:
            return (tag.nameRange, tag.name)
        case .definition(let definition)?:
            return (definition.labelRange, definition.label)
        case .link(let link)?:
            if let label = definedLabel(of: link, in: note) { return (label.range, label.text) }
            let path = try renamableNote(of: link, in: note)
            return (link.target.range, NoteSymbols.fileStem(of: path))
        case .blockID?:
            throw RenameError("block ids cannot be renamed yet")
        case nil:
            throw RenameError("nothing to rename here: put the cursor on a heading, a tag, a link to a note or a reference label")
        }
    }

    /// The label of a reference link whose definition is in `note`.
    private func definedLabel(of link: LinkSymbol, in note: NoteSymbols) -> LinkSymbol.Part? {
        guard let label = link.referenceLabel, link.form != .inline,
              note.linkDefinitions.contains(where: { $0.normalizedLabel == label.text }) else { return nil }
        return label
    }

    /// The note a rename from `link` renames: the one its note part reaches (whether or not the
    /// note has the heading or block it names), never the note the link is in.
    private func renamableNote(of link: LinkSymbol, in note: NoteSymbols) throws(RenameError) -> String {
        let written = link.form.isWiki ? (link.form == .wikiEmbed ? "![[" : "[[") + link.destination + "]]" : link.destination
        let path: String
        switch catalog.resolve(link, from: note.path) {
        case .note(let found, _, _), .brokenHeading(let found, _), .brokenBlock(let found, _):
            path = found
        case .file(let file):
            throw RenameError("`\(written)` leads to the file `\(file)`, not a note: rename the file in the editor's file explorer (its links follow)")
        case .external:
            throw RenameError("`\(written)` is a URL, not a note")
        case .brokenNote(let missing):
            throw RenameError(missing.isEmpty ? "this link leads to no note" : "`\(written)` leads to no note (`\(missing)` does not exist): there is nothing to rename")
        case .ambiguous(let candidates):
            throw RenameError("`\(written)` matches several notes (\(candidates.joined(separator: ", "))): link by path to say which one")
        }
        guard path != note.path, !link.target.text.isEmpty else {
            throw RenameError("this link leads to the note it is in: rename the file itself, or the heading")
        }
        return path
    }

    /// The edits that rename the symbol at the cursor to `newName` everywhere, and for a link
    /// to a note the file rename it implies (old path, new path). A name that the rewritten
    /// files or links could not hold is refused with a `RenameError` naming what is wrong
    /// (`RenameName` has the rules).
    public func rename(_ target: CursorTarget, in note: NoteSymbols, to newName: String) throws(RenameError)
        -> (edits: [NoteEdit], fileRename: (old: String, new: String)?) {
        switch target {
        case .heading(let heading):
            return (try renameHeading(heading, in: note, to: newName), nil)
        case .tag(let tag):
            let newTag = try RenameName.tag(newName)
            var edits: [NoteEdit] = []
            for (path, _) in uses(ofTag: tag.name) {
                guard let user = notes[path] else { continue }
                for use in user.tags where use.matches(tag.name) {
                    let rest = String(use.name.utf8.dropFirst(tag.name.utf8.count)) ?? ""
                    edits.append(NoteEdit(path: path, range: use.nameRange, newText: newTag + rest))
                }
            }
            return (Notebook.sorted(edits), nil)
        case .definition(let definition):
            return (try renameLabel(definition.normalizedLabel, in: note, to: newName), nil)
        case .link(let link):
            if let label = definedLabel(of: link, in: note) {
                return (try renameLabel(label.text, in: note, to: newName), nil)
            }
            let path = try renamableNote(of: link, in: note)
            let name = try RenameName.note(newName)
            var fileName = name
            if NoteCatalog.pathExtension(fileName).map({ catalog.noteExtensions.contains($0.folded) }) != true {
                fileName += "." + (NoteCatalog.pathExtension(path) ?? "md")
            }
            guard fileName.utf8.count <= RenameName.maxFileNameBytes else {
                throw RenameError("`\(fileName)` is longer than \(RenameName.maxFileNameBytes) bytes, the longest file name most file systems allow")
            }
            let folder = NoteCatalog.folder(of: path)
            let newPath = folder.isEmpty ? fileName : folder + "/" + fileName
            if newPath == path { return ([], nil) }
            // Case-insensitive file systems (macOS, Windows) hold one of `Dirt.md` and `dirt.md`.
            let folded = newPath.folded
            if let taken = catalog.notes(named: NoteSymbols.fileStem(of: newPath)).first(where: { $0 != path && $0.folded == folded }) {
                throw RenameError("`\(taken)` already exists")
            }
            return (moveEdits([(path, newPath)]), (path, newPath))
        case .blockID:
            throw RenameError("block ids cannot be renamed yet")
        }
    }

    private func renameHeading(_ heading: HeadingSymbol, in note: NoteSymbols, to newName: String) throws(RenameError) -> [NoteEdit] {
        let new = try RenameName.heading(newName, level: heading.level)
        // Two headings with one id would send links to the first, and shift the other's id.
        for other in note.headings where other.range != heading.range {
            if other.slug == new.slug || Slugger.slug(for: other.text) == new.slug {
                throw RenameError("`\(note.path)` already has a heading `\(other.text)` with the id `\(new.slug)`: links could not tell them apart")
            }
        }
        var edits = [NoteEdit(path: note.path, range: heading.textRange, newText: new.source)]
        let oldSlug = heading.slug
        for backlink in backlinks(to: note.path) where backlink.heading?.key == heading.key {
            guard let part = backlink.link.headings.last else { continue }
            // Wiki-links name headings by text (or by slug); Markdown links by slug.
            let writtenAsText = part.text.lowercased() == heading.text.lowercased() || part.text != oldSlug
            let text: String
            if backlink.link.form.isWiki && writtenAsText {
                guard let wikiText = RenameName.wikiHeadingPart(text: new.text, slug: new.slug) else {
                    throw RenameError("`\(new.text)` cannot be written in a wiki-link (`[`, `]`, `|`, `#` and `^` split it) and has no id to write instead")
                }
                text = wikiText
            } else {
                text = NoteCatalog.markdownDestination(new.slug)
            }
            edits.append(NoteEdit(path: backlink.source, range: part.range, newText: text))
        }
        return Notebook.sorted(edits)
    }

    private func renameLabel(_ normalized: String, in note: NoteSymbols, to newName: String) throws(RenameError) -> [NoteEdit] {
        let name = try RenameName.label(newName)
        let bytes = Array(name.utf8)
        let newNormalized = bytes.withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) }
        if newNormalized != normalized, note.linkDefinitions.contains(where: { $0.normalizedLabel == newNormalized }) {
            throw RenameError("`[\(name)]` is already defined in this note")
        }
        var edits: [NoteEdit] = []
        for definition in note.linkDefinitions where definition.normalizedLabel == normalized {
            edits.append(NoteEdit(path: note.path, range: definition.labelRange, newText: name))
        }
        for link in note.links where link.referenceLabel?.text == normalized {
            guard let label = link.referenceLabel, !label.range.isEmpty else { continue }
            edits.append(NoteEdit(path: note.path, range: label.range, newText: name))
        }
        return Notebook.sorted(edits)
    }

    // MARK: Moving notes and files

    /// The edits that keep every link true when the notes or files `moves` (old, new paths,
    /// workspace-relative) are renamed: links to them from anywhere (those naming a heading or
    /// block the note lacks included: their note part still reaches it), relative links inside
    /// moved notes, and wiki-links by short name that the move would make reach another note or
    /// file (they get the path of the one they reach now).
    public func moveEdits(_ moves: [(old: String, new: String)]) -> [NoteEdit] {
        var newPathOf: [String: String] = [:]
        for (old, new) in moves { newPathOf[old] = new }
        let after = ShortNames(self, newPathOf: newPathOf)
        var edits: Set<NoteEdit> = []
        var sources: Set<String> = []
        for (old, new) in moves {
            sources.formUnion(linkers(of: old))
            // Links by the new name may now reach the moved note or file instead of another.
            sources.formUnion(linkers(of: new))
            if notes[old] != nil { sources.insert(old) }
        }
        for source in sources {
            guard let note = notes[source] else { continue }
            let sourceAfter = newPathOf[source] ?? source
            for link in note.links where !link.target.text.isEmpty && link.form != .autolink {
                let resolved: String
                switch catalog.resolve(link, from: source) {
                case .note(let path, _, _), .file(let path), .brokenHeading(let path, _), .brokenBlock(let path, _):
                    resolved = path
                case .brokenNote(let path) where !link.form.isWiki && sourceAfter != source && !path.isEmpty
                    && NoteCatalog.normalized(path) == path:
                    // A relative link to a note nobody wrote yet keeps pointing at the same place.
                    resolved = path
                default:
                    continue
                }
                let targetAfter = newPathOf[resolved] ?? resolved
                if link.form.isWiki {
                    // Wiki-links are not relative to their note: only the target's move matters.
                    if let text = movedWikiTarget(link.target.text, resolved: resolved, after: targetAfter, names: after),
                       text != link.target.text {
                        edits.insert(NoteEdit(path: source, range: link.target.range, newText: text))
                    }
                    continue
                }
                // Nothing moved for this link: neither its note nor its target.
                if targetAfter == resolved && sourceAfter == source { continue }
                let written = NoteCatalog.percentDecoded(link.target.text)
                if written.hasPrefix("/") {
                    guard targetAfter != resolved else { continue }
                    edits.insert(NoteEdit(path: source, range: link.target.range, newText: "/" + NoteCatalog.markdownDestination(targetAfter)))
                    continue
                }
                var relative = Notebook.relativePath(from: NoteCatalog.folder(of: sourceAfter), to: targetAfter)
                let hadExtension = NoteCatalog.pathExtension(written) != nil
                if !hadExtension, notes[resolved] != nil {
                    relative = NoteCatalog.removingExtension(relative, catalog.noteExtensions)
                }
                let text = NoteCatalog.markdownDestination(relative)
                if text != link.target.text { edits.insert(NoteEdit(path: source, range: link.target.range, newText: text)) }
            }
        }
        return Notebook.sorted(Array(edits))
    }

    /// The short names (note stems, file names of assets) after a move, to tell whether a
    /// wiki-link by short name reaches a given path: it does when that path is the only one with
    /// the name at the fewest folders (as `NoteCatalog` resolves).
    struct ShortNames {
        var stems: [String: [String]] = [:]
        var fileNames: [String: [String]] = [:]

        init(_ notebook: Notebook, newPathOf: [String: String]) {
            for path in notebook.notes.keys {
                let moved = newPathOf[path] ?? path
                stems[NoteSymbols.fileStem(of: moved).folded, default: []].append(moved)
            }
            for path in notebook.assets {
                let moved = newPathOf[path] ?? path
                fileNames[NoteCatalog.lastComponent(of: moved).folded, default: []].append(moved)
            }
        }

        /// True when `name` (a stem for a note, a file name for a file) reaches `path` alone.
        func reach(_ name: String, _ path: String, isNote: Bool) -> Bool {
            guard let candidates = (isNote ? stems : fileNames)[name.folded] else { return false }
            return NoteCatalog.shallowest(candidates) == [path]
        }
    }

    /// The new target text of a wiki-link written `writtenTarget` that reached `resolved`, which
    /// is at `targetAfter` after the move; nil when the link stays as it is. A link by short
    /// name keeps a short name while that still reaches the target alone, else gets the path; a
    /// link by path (whole, or the end of it) gets the new path; a link by title or alias is
    /// left alone (a move does not change those).
    private func movedWikiTarget(_ writtenTarget: String, resolved: String, after targetAfter: String,
                                 names: ShortNames) -> String? {
        var written = NoteCatalog.trimmed(writtenTarget)
        var rooted = ""
        while written.hasPrefix("/") {
            written.removeFirst()
            rooted = "/"
        }
        let isNote = notes[resolved] != nil
        let extensions = catalog.noteExtensions
        // Notes are named with or without their extension; files always with it.
        let writtenBare = isNote ? NoteCatalog.removingExtension(written, extensions) : written
        let keepsExtension = isNote && writtenBare != written
        let oldBare = isNote ? NoteCatalog.removingExtension(resolved, extensions) : resolved
        let newBare = isNote ? NoteCatalog.removingExtension(targetAfter, extensions) : targetAfter
        let oldShort = isNote ? NoteSymbols.fileStem(of: resolved) : NoteCatalog.lastComponent(of: resolved)
        let newShort = isNote ? NoteSymbols.fileStem(of: targetAfter) : NoteCatalog.lastComponent(of: targetAfter)
        let newPath = keepsExtension ? targetAfter : newBare
        if rooted.isEmpty, !written.contains("/"), writtenBare.folded == oldShort.folded {
            let sameName = NoteCatalog.lastComponent(of: resolved) == NoteCatalog.lastComponent(of: targetAfter)
            if names.reach(newShort, targetAfter, isNote: isNote) {
                if sameName { return nil }   // as written, case included
                return keepsExtension ? NoteCatalog.lastComponent(of: targetAfter) : newShort
            }
            return newPath
        }
        guard targetAfter != resolved else { return nil }
        // By path from the root, or by the end of the path (`[[plants/tomato]]`).
        let foldedWritten = writtenBare.folded
        let foldedOld = oldBare.folded
        if foldedWritten == foldedOld || (rooted.isEmpty && foldedOld.hasSuffix("/" + foldedWritten)) {
            return rooted + newPath
        }
        return nil
    }

    /// `to` relative to the folder `from` (both workspace-relative), with `../` as needed.
    public static func relativePath(from folder: String, to path: String) -> String {
        let base = folder.split(separator: "/").map(String.init)
        let target = path.split(separator: "/").map(String.init)
        var common = 0
        while common < base.count, common < target.count - 1, base[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }

    static func sorted(_ edits: [NoteEdit]) -> [NoteEdit] {
        Array(Set(edits)).sorted { ($0.path, $0.range.start, $0.range.end) < ($1.path, $1.range.start, $1.range.end) }
    }
}
