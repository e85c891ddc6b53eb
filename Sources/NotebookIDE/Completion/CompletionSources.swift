// What one completion request reads besides the context: the indexed workspace (shared between
// requests), the current note's fresh symbols, and an optional preview of note bodies.

import NotebookIndex

/// The inputs of `CompletionEngine.complete`.
public struct CompletionSources: Sendable {
    /// The notebook, indexed once per change.
    public var workspace: CompletionWorkspace
    /// The symbols of the note being edited, as of this request; nil uses the catalog's copy.
    public var currentNote: NoteSymbols?
    /// The first lines of a note's body (Markdown) by workspace-relative path, for items'
    /// documentation; called only for the items returned. Nil: no body previews.
    public var preview: (@Sendable (String) -> String?)?
    /// At most this many items; more set `isIncomplete`.
    public var limit: Int

    public init(workspace: CompletionWorkspace, currentNote: NoteSymbols? = nil,
                preview: (@Sendable (String) -> String?)? = nil, limit: Int = 200) {
        self.workspace = workspace
        self.currentNote = currentNote
        self.preview = preview
        self.limit = limit
    }
}
