// Snippets in one note of a snapshot: the variables its place gives (file, notebook, title) and
// the completion items at a cursor.

extension NoteView {
    /// The snippet variables of this note: its path as the editor names it, its notebook's
    /// folder (none for a note outside every notebook), its title; the clock, language and
    /// random source come from the server.
    public func snippetVariables(clock: SnippetClock, languageCode: String = "en",
                                 random: @escaping @Sendable () -> UInt64) -> SnippetVariables {
        // A buffer that is not a file is a standalone note in a folder without a path.
        let filePath = folder.path.isEmpty ? nil : folder.clientPath(note.path)
        return SnippetVariables(filePath: filePath, workspaceFolder: isStandalone ? nil : folder.path,
                                noteTitle: symbols.title, clock: clock, languageCode: languageCode, random: random)
    }

    /// The snippet items at `offset` (see `SnippetCompletion.complete`).
    public func snippetCompletion(at offset: Int, snippets: [Snippet], variables: SnippetVariables, snippetSupport: Bool,
                                  invoked: Bool) -> [CompletionCandidate] {
        SnippetCompletion.complete(text: text, cursor: offset, snippets: snippets, variables: variables,
                                   snippetSupport: snippetSupport, invoked: invoked)
    }
}
