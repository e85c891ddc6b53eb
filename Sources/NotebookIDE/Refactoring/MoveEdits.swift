// The edits that keep every link true when notes, files or folders move.
//
// Invariants:
// - Pure functions of a `Notebook`; edits never overlap and are sorted.
// - A move keeps each link's style: a wiki-link written with the stem gets the new stem while
//   that still reaches the note alone, one written with a path gets the new path, one written
//   with a title or alias is left alone (a move does not change those); a Markdown link gets the
//   new relative path, keeping or leaving out the extension as it did.

import MarkdownSyntax
import NotebookIndex
import TextCore

extension Notebook {
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
                case .note(let path, _, _, _), .file(let path), .brokenHeading(let path, _), .brokenBlock(let path, _):
                    resolved = path
                case .brokenNote(let path) where !link.form.isWiki && sourceAfter != source && !path.isEmpty
                    && NotebookPath.normalized(path) == path:
                    // A relative link to a note nobody wrote yet keeps pointing at the same place.
                    resolved = path
                default:
                    continue
                }
                let targetAfter = newPathOf[resolved] ?? resolved
                let folderAfter = NotebookPath.folder(of: sourceAfter)
                if link.form.isWiki {
                    // Wiki-links are not relative to their note: the target's move matters, and
                    // the note's own folder for a link by short name.
                    if let text = movedWikiTarget(link.target.text, resolved: resolved, after: targetAfter, names: after,
                                                  from: folderAfter),
                       text != link.target.text {
                        edits.insert(NoteEdit(path: source, range: link.target.range, newText: text))
                    }
                    continue
                }
                // Nothing moved for this link: neither its note nor its target.
                if targetAfter == resolved && sourceAfter == source { continue }
                let written = NotebookPath.percentDecoded(link.target.text)
                if isByName(link, reaching: resolved, from: source) {
                    // A Markdown link by name (`links.markdownResolution: obsidian`): a name it stays.
                    if let text = movedWikiTarget(written, resolved: resolved, after: targetAfter, names: after, from: folderAfter) {
                        edits.insert(NoteEdit(path: source, range: link.target.range, newText: NotebookPath.markdownDestination(text)))
                    }
                    continue
                }
                if written.hasPrefix("/") {
                    guard targetAfter != resolved else { continue }
                    edits.insert(NoteEdit(path: source, range: link.target.range,
                                          newText: "/" + NotebookPath.markdownDestination(published(targetAfter, as: written, note: resolved))))
                    continue
                }
                var relative = NotebookPath.relativePath(from: folderAfter, to: targetAfter)
                let hadExtension = NotebookPath.pathExtension(written) != nil
                if !hadExtension, notes[resolved] != nil {
                    relative = NotebookPath.removingExtension(relative, catalog.noteExtensions)
                }
                let text = NotebookPath.markdownDestination(published(relative, as: written, note: resolved))
                if text != link.target.text { edits.insert(NoteEdit(path: source, range: link.target.range, newText: text)) }
            }
        }
        return Notebook.sorted(Array(edits))
    }

    /// The short names (note stems, file names of assets) after a move, to tell whether a
    /// wiki-link by short name reaches a given path from a folder: it does when that path is the
    /// only one `NotebookPath.preferred` keeps (the folder's own, else the shortest paths), as
    /// `NoteCatalog` resolves.
    struct ShortNames {
        var stems: [String: [String]] = [:]
        var fileNames: [String: [String]] = [:]

        init(_ notebook: Notebook, newPathOf: [String: String]) {
            for path in notebook.notes.keys {
                let moved = newPathOf[path] ?? path
                stems[NotebookPath.fileStem(of: moved).folded, default: []].append(moved)
            }
            for path in notebook.assets {
                let moved = newPathOf[path] ?? path
                fileNames[NotebookPath.lastComponent(of: moved).folded, default: []].append(moved)
            }
        }

        /// True when `name` (a stem for a note, a file name for a file), written in a note in
        /// `folder`, reaches `path` alone.
        func reach(_ name: String, _ path: String, isNote: Bool, from folder: String) -> Bool {
            guard let candidates = (isNote ? stems : fileNames)[name.folded] else { return false }
            return NotebookPath.preferred(candidates, from: folder) == [path]
        }
    }

    /// The new target text of a wiki-link written `writtenTarget` that reached `resolved`, which
    /// is at `targetAfter` after the move; nil when the link stays as it is. A link by short
    /// name keeps a short name while that still reaches the target alone, else gets the path; a
    /// link by path (whole, or the end of it) gets the new path; a link by title or alias is
    /// left alone (a move does not change those).
    private func movedWikiTarget(_ writtenTarget: String, resolved: String, after targetAfter: String,
                                 names: ShortNames, from folder: String) -> String? {
        var written = NotebookPath.trimmed(writtenTarget)
        var rooted = ""
        while written.hasPrefix("/") {
            written.removeFirst()
            rooted = "/"
        }
        let isNote = notes[resolved] != nil
        let extensions = catalog.noteExtensions
        // Notes are named with or without their extension; files always with it.
        let writtenBare = isNote ? NotebookPath.removingExtension(written, extensions) : written
        let keepsExtension = isNote && writtenBare != written
        let oldBare = isNote ? NotebookPath.removingExtension(resolved, extensions) : resolved
        let newBare = isNote ? NotebookPath.removingExtension(targetAfter, extensions) : targetAfter
        let oldShort = isNote ? NotebookPath.fileStem(of: resolved) : NotebookPath.lastComponent(of: resolved)
        let newShort = isNote ? NotebookPath.fileStem(of: targetAfter) : NotebookPath.lastComponent(of: targetAfter)
        let newPath = keepsExtension ? targetAfter : newBare
        if rooted.isEmpty, !written.contains("/"), writtenBare.folded == oldShort.folded {
            let sameName = NotebookPath.lastComponent(of: resolved) == NotebookPath.lastComponent(of: targetAfter)
            if names.reach(newShort, targetAfter, isNote: isNote, from: folder) {
                if sameName { return nil }   // as written, case included
                return keepsExtension ? NotebookPath.lastComponent(of: targetAfter) : newShort
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

    /// True when the Markdown `link` reaches `resolved` by name, not by its path (a path that
    /// reaches nothing, read by name as `links.markdownResolution: obsidian` does).
    private func isByName(_ link: LinkSymbol, reaching resolved: String, from source: String) -> Bool {
        guard catalog.markdownResolution == .obsidian else { return false }
        var relative = catalog
        relative.markdownResolution = .relative
        switch relative.resolve(link, from: source) {
        case .note(let path, _, _, _), .brokenHeading(let path, _), .brokenBlock(let path, _): return path != resolved
        case .file(let path): return path != resolved
        default: return true
        }
    }

    /// `path` (a note's new path, or a relative path to it) with the extension a link written as
    /// `written` uses for notes: a link to `chapter.html` (a static site's page for `chapter.md`)
    /// stays a link to an `.html` page.
    private func published(_ path: String, as written: String, note: String) -> String {
        guard notes[note] != nil, let ext = NotebookPath.pathExtension(written),
              ext.folded == "html" || ext.folded == "htm" else { return path }
        return NotebookPath.removingExtension(path, catalog.noteExtensions) + "." + ext
    }

    static func sorted(_ edits: [NoteEdit]) -> [NoteEdit] {
        Array(Set(edits)).sorted { ($0.path, $0.range.start, $0.range.end) < ($1.path, $1.range.start, $1.range.end) }
    }
}
