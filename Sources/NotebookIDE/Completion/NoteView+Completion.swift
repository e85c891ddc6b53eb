// Completion in one note, and the previews `completionItem/resolve` adds to its items.
//
// Invariants:
// - The notebook's completion index is shared by every request and rebuilt only when names
//   change (`CompletionIndexes`); the note's own headings, blocks and labels come from its text
//   at the request's version.
// - A preview reads the target's text as it is now (the open buffer, else the file) and its
//   symbols from that very text, so a section or block range always fits the text shown.

import Localization
import NotebookIndex
import NotebookWorkspace

extension NoteView {
    /// The completion items at `offset`, at most `limit`, best first; MacMD's own words in
    /// `locale`.
    public func completion(at offset: Int, locale: SupportedLocale, limit: Int = 200) -> CompletionList {
        guard let context = CompletionContext.detect(text: text, cursor: offset),
              !analysis.tree.isInCodeBlock(offset) else { return CompletionList() }
        // The shared index is the notebook's as the snapshot holds it; this note's own symbols
        // (maybe newer) come from the request's text.
        let index = snapshot.folder(of: note).map(snapshot.completionIndex(of:)) ?? CompletionWorkspace(notebook: notebook)
        let sources = CompletionSources(workspace: index, currentNote: symbols, limit: limit, locale: locale,
                                        templateFolder: isStandalone ? nil : folder.configuration.snippetsFolder)
        return CompletionEngine.complete(context: context, in: note.path, sources: sources)
    }
}

extension AnalysisSnapshot {
    /// The preview of what a completion item links to: the note, heading or block `target` in
    /// the notebook at `folder`; `document` names the open document to read when the target is
    /// in the note the item was offered in (a buffer that is not a file has no notebook path).
    /// Nil when the target can be found nowhere.
    public func completionDocumentation(_ target: CompletionTarget, folder: String, document: String?) -> String? {
        var source = document.flatMap { documents[$0]?.analysis }
        let indexed = workspace.folder(folder)?.notebook.notes[target.path]
        if source == nil, indexed != nil { source = self.source(of: NoteRef(folder: folder, path: target.path)) }
        guard let note = source.map({ $0.symbols(path: target.path) }) ?? indexed else { return nil }
        return target.documentation(note: note, source: source?.text ?? [])
    }
}
