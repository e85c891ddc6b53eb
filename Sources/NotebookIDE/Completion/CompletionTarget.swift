// What a completion item points at, kept so its preview can be made later: a list of 200 notes
// would otherwise read 200 files before the editor shows anything. The server sends the target
// as the item's `data` and turns it into documentation in `completionItem/resolve`.
//
// Invariants:
// - A target names a note by its workspace-relative path and a heading or block inside it by
//   what identifies it in the note's symbols; the note may have changed by the time it is
//   resolved, so a heading that moved is looked up by its text, and one that is gone leaves the
//   note's preview.
// - Pure: the caller passes the note's symbols and source bytes (the open buffer or the file).

import MarkdownSyntax
import NotebookIndex

/// The note, heading or block a completion item inserts a link to.
public enum CompletionTarget: Sendable, Equatable {
    /// A note: previewed by its title, path and opening lines.
    case note(path: String)
    /// The heading `headingIndex` (in the note's `headings`) with the text `text`: previewed by
    /// the note's title, the heading and the opening lines of its section.
    case heading(path: String, headingIndex: Int, text: String)
    /// The block with the id `id` (without `^`): previewed by the block's text.
    case block(path: String, id: String)

    /// The workspace-relative path of the note the target is in.
    public var path: String {
        switch self {
        case .note(let path), .heading(let path, _, _), .block(let path, _): return path
        }
    }

    /// The Markdown preview of the target in `note`, whose source is `source` (pass `[]` when
    /// the text cannot be read: the preview is then the title and path).
    public func documentation(note: NoteSymbols, source: [UInt8]) -> String {
        switch self {
        case .note:
            return HoverText.note(note, source: source)
        case .heading(_, let headingIndex, let text):
            let headings = note.headings
            let heading = headings.indices.contains(headingIndex) && headings[headingIndex].text == text
                ? headings[headingIndex] : headings.first { $0.text == text }
            return HoverText.note(note, source: source, heading: heading)
        case .block(_, let id):
            return HoverText.note(note, source: source, block: note.blockIDs.first { $0.id == id })
        }
    }
}
