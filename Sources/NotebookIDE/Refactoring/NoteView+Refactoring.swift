// Refactoring a notebook from one note: rename what is under the cursor, the edits that keep
// links true when files move, and the code actions (create the note a broken link names, insert
// or update the table of contents, link unlinked mentions: NoteView+Mentions.swift).
//
// Invariants: pure functions of the snapshot; a refused rename says why (`RenameError`) before
// any edit is made; every edit is a `WorkspaceChange`.

import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A code action: its title, its kind and its edits.
public struct CodeActionResult: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case quickFix, refactorRewrite }
    public var title: LocalizedText
    public var kind: Kind
    public var change: WorkspaceChange
    /// For a mention action (NoteView+Mentions.swift): what makes it again, and the
    /// fingerprint of the texts its edit was made from.
    public var mention: MentionAction? = nil
}

extension NoteView {
    /// The range a rename at `offset` replaces and the text it holds now, or why nothing there
    /// can be renamed (said before the editor asks for a new name).
    public func prepareRename(at offset: Int) throws(RenameError) -> (span: ByteSpan, placeholder: String) {
        let (range, text) = try notebook.prepareRename(symbols.target(at: offset), in: symbols)
        return (range, text)
    }

    /// The edits that rename the symbol at `offset` to `newName` everywhere, then the file
    /// rename a note's new name implies. A tag renamed onto a tag already used merges the two:
    /// the change then carries a `confirmation`, unless the new name ends in `!` (the yes said
    /// ahead, for an editor that cannot ask).
    public func rename(at offset: Int, to requestedName: String) throws(RenameError) -> WorkspaceChange {
        guard let target = symbols.target(at: offset) else { throw RenameError("rename.nothingHere") }
        var newName = requestedName
        var confirmed = false
        if case .tag = target, newName.hasSuffix("!") {
            newName.removeLast()
            confirmed = true
        }
        let (edits, fileRename) = try notebook.rename(target, in: symbols, to: newName)
        var change = WorkspaceChange(folder: note.folder, edits: edits)
        if let (old, new) = fileRename { change.steps.append(.rename(from: ref(old), to: ref(new))) }
        if case .tag(let tag) = target, !edits.isEmpty {
            let newTag = (try? RenameName.tag(newName)) ?? newName
            let merged = notebook.tagMerge(renaming: tag.name, to: newTag)
            if !merged.isEmpty, !confirmed {
                change.confirmation = ChangeConfirmation(
                    question: LocalizedText("rename.tag.mergeConfirmation", .integer(merged.count), .string(newTag), .string(tag.name)),
                    yes: LocalizedText("rename.tag.mergeLabel"), no: LocalizedText("rename.cancel"), confirmingName: newTag + "!")
            }
        }
        return change
    }

    /// The code actions for the byte range `start...end`: create the note each broken link in it
    /// names (only when the editor can create files), insert or update the table of contents,
    /// and link unlinked mentions (`mentionActions`) unless `mentions` is false.
    public func codeActions(start: Int, end: Int, canCreateFiles: Bool, mentions: Bool = true) -> [CodeActionResult] {
        var actions: [CodeActionResult] = []
        if canCreateFiles {
            for link in symbols.links where Int(link.range.start) <= end && start <= Int(link.range.end) {
                guard case .brokenNote(let target) = notebook.catalog.resolve(link, from: note.path), !target.isEmpty else { continue }
                actions.append(createNote(for: link, target: target))
            }
        }
        if let toc = TableOfContents.edit(tree: analysis.tree, note: symbols) {
            actions.append(CodeActionResult(title: LocalizedText(toc.isInsertion ? "codeAction.toc.insert" : "codeAction.toc.update"),
                                            kind: .refactorRewrite,
                                            change: WorkspaceChange(steps: [.edit(note, [TextReplacement(span: toc.range, newText: toc.newText)])])))
        }
        if mentions { actions += mentionActions(start: start, end: end) }
        return actions
    }

    /// Creates the note a broken link names, titled after it: `[[Greenhouse]]` becomes
    /// `Greenhouse.md` beside the linking note (`[[a/b]]` keeps its folder); a Markdown link's
    /// path is the note's, with `.md` added when it has no extension.
    func createNote(for link: LinkSymbol, target: String) -> CodeActionResult {
        var path = target
        if link.form.isWiki {
            let folder = target.contains("/") ? "" : NotebookPath.folder(of: note.path)
            path = folder.isEmpty ? target : folder + "/" + target
        }
        if NotebookPath.pathExtension(path) == nil { path += ".md" }
        let created = ref(path)
        return CodeActionResult(title: LocalizedText("codeAction.link.createNote", .string(path)), kind: .quickFix, change: WorkspaceChange(steps: [
            .create(created),
            .edit(created, [TextReplacement(span: .empty, newText: "# \(NotebookPath.fileStem(of: path))\n\n")]),
        ]))
    }
}

extension AnalysisSnapshot {
    /// The link edits that keep the notebooks true when the files at the absolute paths `old`
    /// move to `new` (`workspace/willRenameFiles`): a note or file, or a folder and everything
    /// in it. Moves across notebooks, or of paths no notebook holds, change nothing.
    public func moveEdits(_ moves: [(old: String, new: String)]) -> WorkspaceChange {
        var byFolder: [String: [(old: String, new: String)]] = [:]
        for (oldFile, newFile) in moves {
            guard let old = workspace.locate(file: oldFile), let new = workspace.locate(file: newFile),
                  old.folder == new.folder, let folder = workspace.folder(old.folder) else { continue }
            let notebook = folder.notebook
            if notebook.notes[old.path] != nil || notebook.assets.contains(old.path) {
                byFolder[old.folder, default: []].append((old.path, new.path))
            } else {
                // A folder: everything under it moves.
                let prefix = old.path + "/"
                for path in Array(notebook.notes.keys) + Array(notebook.assets) where path.hasPrefix(prefix) {
                    byFolder[old.folder, default: []].append((path, new.path + "/" + (String(path.utf8.dropFirst(prefix.utf8.count)) ?? "")))
                }
            }
        }
        var change = WorkspaceChange()
        for (folderPath, list) in byFolder.sorted(by: { $0.key < $1.key }) {
            guard let folder = workspace.folder(folderPath) else { continue }
            change.steps += WorkspaceChange(folder: folderPath, edits: folder.notebook.moveEdits(list)).steps
        }
        return change
    }
}
