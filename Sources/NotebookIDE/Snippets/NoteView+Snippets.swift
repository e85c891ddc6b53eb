// Snippets in one note of a snapshot: the variables its place gives (file, notebook, title) and
// the completion items at a cursor; with a note view, or from an open document's text alone.
//
// Invariant: the text-only path (`AnalysisSnapshot.snippetCompletion(in:…)`) never parses the
// note unless a matching snippet uses `NOTE_TITLE`; it offers what the view path offers.

import Localization
import NotebookIndex
import NotebookWorkspace

extension NoteView {
    /// The snippet variables of this note: its path as the editor names it, its notebook's
    /// folder (none for a note outside every notebook), its title; the clock, language and
    /// random source come from the server.
    public func snippetVariables(clock: SnippetClock, languageCode: String = "en",
                                 random: @escaping @Sendable () -> UInt64) -> SnippetVariables {
        // A buffer that is not a file is a standalone note in a folder without a path.
        let filePath = folder.path.isEmpty ? nil : folder.clientPath(note.path)
        let title = symbols.title
        return SnippetVariables(filePath: filePath, workspaceFolder: isStandalone ? nil : folder.path,
                                noteTitle: title, clock: clock, languageCode: languageCode, random: random)
    }

    /// The snippet items at `offset` (see `SnippetCompletion.complete`), described in `locale`.
    public func snippetCompletion(at offset: Int, snippets: [Snippet], variables: SnippetVariables, snippetSupport: Bool,
                                  invoked: Bool, locale: SupportedLocale = .en) -> [CompletionCandidate] {
        let candidates = SnippetCompletion.complete(text: text, cursor: offset, snippets: snippets, variables: variables,
                                                    snippetSupport: snippetSupport, invoked: invoked, locale: locale)
        // Indented code is found by the parser alone (the lines tell fences, not indentation).
        return candidates.isEmpty || !analysis.tree.isInCodeBlock(offset) ? candidates : []
    }
}

extension AnalysisSnapshot {
    /// The snippet items at `offset` of an open document, from its text alone: for a keystroke
    /// where nothing but snippets completes (`CompletionContext.detect` finds no link, heading,
    /// tag or path there), so a large note is not parsed again for it. The snippets and
    /// variables are those of the document's notebook, as `NoteView.snippetVariables` gives them.
    public func snippetCompletion(in document: OpenDocument, at offset: Int, clock: SnippetClock, languageCode: String = "en",
                                  random: @escaping @Sendable () -> UInt64, snippetSupport: Bool,
                                  invoked: Bool, locale: SupportedLocale = .en) -> [CompletionCandidate] {
        var note: NoteRef?
        var notebook: NotebookFolder?
        if let file = document.file, let located = workspace.locate(file: file), let folder = folder(of: located) {
            note = located
            notebook = folder
        }
        let filePath = note.flatMap { notebook?.clientPath($0.path) } ?? document.file
        let analysis = document.analysis
        let path = note?.path ?? document.file.map(SnippetVariables.lastComponent) ?? "untitled.md"
        let variables = SnippetVariables(filePath: filePath, workspaceFolder: notebook?.path,
                                         title: { analysis.symbols(path: path).title }, clock: clock,
                                         languageCode: languageCode, random: random)
        return SnippetCompletion.complete(text: analysis.text, cursor: offset,
                                          snippets: snippets.snippets(forFolder: note?.folder),
                                          variables: variables, snippetSupport: snippetSupport, invoked: invoked, locale: locale)
    }
}
