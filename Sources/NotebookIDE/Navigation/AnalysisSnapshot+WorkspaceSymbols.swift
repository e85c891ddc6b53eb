// `workspace/symbol`: notes (by title and path), headings and tags of every notebook, ranked by
// fuzzy subsequence match.
//
// Invariants: pure; at most `limit` results, best first; ties keep the notebooks' order.

import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A symbol found in the workspace.
public struct WorkspaceSymbolResult: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case note, heading, tag }
    public var name: String
    public var kind: Kind
    /// What the symbol is in: a note's path, a heading's note title (both verbatim), a tag's
    /// number of uses (from the catalog).
    public var containerName: LocalizedText
    /// Where it is: the note (a tag's first note by path); `span` for a heading only.
    public var note: NoteRef
    public var span: ByteSpan?
}

extension AnalysisSnapshot {
    /// The notes, headings and tags matching `query` (fuzzy; all when it is empty).
    public func workspaceSymbols(matching query: String, limit: Int = 200) -> [WorkspaceSymbolResult] {
        var entries: [WorkspaceSymbolResult] = []
        var candidates = FuzzyCandidates()
        for folder in workspace.folders {
            for (path, note) in folder.notebook.notes {
                let ref = NoteRef(folder: folder.path, path: path)
                entries.append(WorkspaceSymbolResult(name: note.title, kind: .note, containerName: .verbatim(path), note: ref))
                candidates.append(note.title == NotebookPath.fileStem(of: path) ? path : note.title + " " + path)
                for heading in note.headings {
                    entries.append(WorkspaceSymbolResult(name: heading.text, kind: .heading, containerName: .verbatim(note.title), note: ref, span: heading.range))
                    candidates.append(heading.text)
                }
            }
            for (tag, uses) in folder.notebook.tagUses {
                entries.append(WorkspaceSymbolResult(name: "#" + tag, kind: .tag, containerName: LocalizedText("symbol.tag.uses", .integer(uses.count)),
                                                     note: NoteRef(folder: folder.path, path: uses.min() ?? "")))
                candidates.append("#" + tag)
            }
        }
        return FuzzyMatcher(query: query).rank(candidates, limit: limit).compactMap { match in
            entries.indices.contains(match.index) ? entries[match.index] : nil
        }
    }
}
