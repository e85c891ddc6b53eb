// What one completion request reads besides the context: the indexed workspace (shared between
// requests) and the current note's fresh symbols. Note bodies are not among them: previews are
// made per item on `completionItem/resolve` (see `CompletionTarget`).

import Localization
import NotebookIndex

/// The inputs of `CompletionEngine.complete`.
public struct CompletionSources: Sendable {
    /// The notebook, indexed once per change.
    public var workspace: CompletionWorkspace
    /// The symbols of the note being edited, as of this request; nil uses the catalog's copy.
    public var currentNote: NoteSymbols?
    /// At most this many items; more set `isIncomplete`.
    public var limit: Int
    /// The language of the items' details and documentation that MacMD writes itself (a folder's
    /// contents, a tag's uses); names and paths stay as they are.
    public var locale: SupportedLocale
    /// A folder (notebook-relative, no trailing `/`) whose notes are no link targets: the snippets
    /// folder (`snippets.folder`), whose notes are templates.
    public var templateFolder: String?

    public init(workspace: CompletionWorkspace, currentNote: NoteSymbols? = nil, limit: Int = 200, locale: SupportedLocale = .en,
                templateFolder: String? = nil) {
        self.workspace = workspace
        self.currentNote = currentNote
        self.limit = limit
        self.locale = locale
        self.templateFolder = templateFolder
    }
}
