// What one completion request reads besides the context: the indexed workspace (shared between
// requests) and the current note's fresh symbols. Note bodies are not among them: previews are
// made per item on `completionItem/resolve` (see `CompletionTarget`).

import NotebookIndex

/// The inputs of `CompletionEngine.complete`.
public struct CompletionSources: Sendable {
    /// The notebook, indexed once per change.
    public var workspace: CompletionWorkspace
    /// The symbols of the note being edited, as of this request; nil uses the catalog's copy.
    public var currentNote: NoteSymbols?
    /// At most this many items; more set `isIncomplete`.
    public var limit: Int

    public init(workspace: CompletionWorkspace, currentNote: NoteSymbols? = nil, limit: Int = 200) {
        self.workspace = workspace
        self.currentNote = currentNote
        self.limit = limit
    }
}
