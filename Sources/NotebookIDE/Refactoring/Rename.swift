// Renaming what is under the cursor everywhere it is used: headings (and the links to them),
// tags, reference labels, notes (their file and every link to them).
//
// Invariants:
// - Pure functions of a `Notebook` and a note's symbols; edits never overlap (a reference
//   definition shared by several links is edited once) and are sorted.
// - A name the rewritten files or links could not hold is refused with a `RenameError` that says
//   what is wrong (`RenameName` has the rules) before any edit is made.

import Localization
import MarkdownSyntax
import NotebookIndex
import TextCore

/// Why a rename cannot be done.
public struct RenameError: Error, Sendable, Equatable {
    /// Why, for the writer (the server shows it in the writer's language).
    public var message: LocalizedText
    public init(_ message: LocalizedText) { self.message = message }
    /// The error of catalog key `key` with `arguments`.
    init(_ key: String, _ arguments: CatalogArgument...) { self.message = LocalizedText(key, arguments: arguments) }
}

extension Notebook {
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
            return (link.target.range, NotebookPath.fileStem(of: path))
        case .blockID?:
            throw RenameError("rename.blockID.unsupported")
        case nil:
            throw RenameError("rename.nothingHere")
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
        case .note(let found, _, _, _), .brokenHeading(let found, _), .brokenBlock(let found, _):
            path = found
        case .file(let file):
            throw RenameError("rename.link.toFile", .string(written), .string(file))
        case .external:
            throw RenameError("rename.link.external", .string(written))
        case .outside(let path):
            throw RenameError("rename.link.outside", .string(written), .string(path))
        case .brokenNote(let missing):
            throw missing.isEmpty ? RenameError("rename.link.noNote") : RenameError("rename.link.brokenNote", .string(written), .string(missing))
        case .ambiguous(let candidates):
            throw RenameError("rename.link.ambiguous", .string(written), .string(candidates.joined(separator: ", ")))
        }
        guard path != note.path, !link.target.text.isEmpty else {
            throw RenameError("rename.link.toItself")
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
            if newTag == tag.name { return ([], nil) }
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
            if NotebookPath.pathExtension(fileName).map({ catalog.noteExtensions.contains($0.folded) }) != true {
                fileName += "." + (NotebookPath.pathExtension(path) ?? "md")
            }
            guard fileName.utf8.count <= RenameName.maxFileNameBytes else {
                throw RenameError("rename.note.fileNameTooLong", .string(fileName), .integer(RenameName.maxFileNameBytes))
            }
            let folder = NotebookPath.folder(of: path)
            let newPath = folder.isEmpty ? fileName : folder + "/" + fileName
            if newPath == path { return ([], nil) }
            // Case-insensitive file systems (macOS, Windows) hold one of `Dirt.md` and `dirt.md`.
            let folded = newPath.folded
            if let taken = catalog.notes(named: NotebookPath.fileStem(of: newPath)).first(where: { $0 != path && $0.folded == folded }) {
                throw RenameError("rename.note.exists", .string(taken))
            }
            return (moveEdits([(path, newPath)]), (path, newPath))
        case .blockID:
            throw RenameError("rename.blockID.unsupported")
        }
    }

    /// What renaming the tag `old` to `new` merges it with: the notes that already use `new` (or
    /// a tag nested in it) by another name than `old` (`#garden/beds` renamed `#garden` merges
    /// with the notes tagged `#garden` itself, not with its own uses). Empty when `new` is free.
    public func tagMerge(renaming old: String, to new: String) -> [String] {
        var notes: Set<String> = []
        for (name, users) in tagUses where TagSymbol.name(name, matches: new) && !TagSymbol.name(name, matches: old) {
            notes.formUnion(users)
        }
        return notes.sorted()
    }

    private func renameHeading(_ heading: HeadingSymbol, in note: NoteSymbols, to newName: String) throws(RenameError) -> [NoteEdit] {
        let new = try RenameName.heading(newName, level: heading.level)
        // Two headings with one id would send links to the first, and shift the other's id.
        for other in note.headings where other.range != heading.range {
            if other.slug == new.slug || Slugger.slug(for: other.text) == new.slug {
                throw RenameError("rename.heading.sameID", .string(note.path), .string(other.text), .string(new.slug))
            }
        }
        var edits = [NoteEdit(path: note.path, range: heading.textRange, newText: new.source)]
        let oldSlug = heading.slug
        // The links into the note, found once and filed by the heading they reach: looked for
        // again for every heading below whose id moves, ten thousand equal headings made the
        // rename grow with the square of the note.
        var backlinksByHeading: [HeadingSymbol.Key: [Backlink]] = [:]
        for backlink in backlinks(to: note.path) {
            if let key = backlink.heading?.key { backlinksByHeading[key, default: []].append(backlink) }
        }
        for backlink in backlinksByHeading[heading.key] ?? [] {
            guard let part = backlink.link.headings.last else { continue }
            // Wiki-links name headings by text (or by slug); Markdown links by slug.
            let writtenAsText = part.text.lowercased() == heading.text.lowercased() || part.text != oldSlug
            let text: String
            if backlink.link.form.isWiki && writtenAsText {
                guard let wikiText = RenameName.wikiHeadingPart(text: new.text, slug: new.slug) else {
                    throw RenameError("rename.heading.notInWikiLink", .string(new.text))
                }
                text = wikiText
            } else {
                text = NotebookPath.markdownDestination(new.slug)
            }
            edits.append(NoteEdit(path: backlink.source, range: part.range, newText: text))
        }
        // Ids follow the text: a heading that shared the old text's id with a `-1`, `-2` suffix
        // (a second `## Setup` is `setup-1`) gets another one once the first is renamed. Links
        // that name such a heading by its id follow it.
        var slugger = Slugger()
        for other in note.headings {
            let slug = slugger.slug(for: other.range == heading.range ? new.text : other.text)
            guard other.range != heading.range, slug != other.slug else { continue }
            for backlink in backlinksByHeading[other.key] ?? [] {
                guard let part = backlink.link.headings.last, part.text.lowercased() == other.slug else { continue }
                edits.append(NoteEdit(path: backlink.source, range: part.range, newText: NotebookPath.markdownDestination(slug)))
            }
        }
        return Notebook.sorted(edits)
    }

    private func renameLabel(_ normalized: String, in note: NoteSymbols, to newName: String) throws(RenameError) -> [NoteEdit] {
        let name = try RenameName.label(newName)
        let bytes = Array(name.utf8)
        let newNormalized = bytes.withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) }
        if newNormalized != normalized, note.linkDefinitions.contains(where: { $0.normalizedLabel == newNormalized }) {
            throw RenameError("rename.label.exists", .string(name))
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

}
