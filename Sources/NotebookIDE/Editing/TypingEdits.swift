// The answer to a keystroke: edits to the note, and which of them, if any, must leave the cursor
// before its text.
//
// How editors place the cursor after `textDocument/onTypeFormatting` edits (LSP cannot move it):
// VS Code applies them with markers moving, and Neovim moves the cursor the same way, so an edit
// that ends at or before the cursor shifts it by what the edit added (an insertion at the cursor
// leaves it after the inserted text), and an edit that starts at the cursor and replaces at least
// one byte leaves it where it is. The edits here are built on that rule: text meant before the
// cursor is written by an edit that ends at it, text meant after it by an edit that replaces the
// next scalar (or line break) together with the text put before it. (VS Code applies touching
// edits one by one, from the last, so an insertion at the cursor and a replacement that starts
// there leave the cursor between them; it merges edits into one only past a thousand of them,
// which only the renumbering of a list that long below the cursor reaches.)
//
// At the very end of a note (an editor whose buffer has no final line break: Emacs, a file
// without one) no byte follows the cursor to carry the text meant after it: that text is an
// insertion at the cursor marked `cursorBefore`, which the server sends as the extension field
// `macmd.cursorBefore` and MacMD's editor setups honour (an editor that ignores it leaves the
// cursor after the text).
//
// Invariants: replacements are sorted, never overlap, and none starts before the cursor and ends
// after it; the one marked `cursorBefore`, if any, is an insertion at the cursor and the last.

import MarkdownSyntax
import TextCore

/// Edits that answer a keystroke.
public struct TypingEdits: Sendable, Equatable {
    /// The edits, in the text the editor has after the keystroke; sorted, not overlapping.
    public var replacements: [TextReplacement]
    /// The index in `replacements` of an insertion at the cursor whose text goes after the
    /// cursor (the cursor stays before it); nil when every edit follows the rule above.
    public var cursorBefore: Int?

    public init(_ replacements: [TextReplacement], cursorBefore: Int? = nil) {
        self.replacements = replacements
        self.cursorBefore = cursorBefore
    }

    /// No edits.
    public static let none = TypingEdits([])

    public var isEmpty: Bool { replacements.isEmpty }

    /// The edits that write `before` in place of `start..<cursor` (white space the editor put there)
    /// and `after` just after the cursor, so that the cursor ends up between them: `after` is
    /// written with the scalar (or line break) that follows the cursor, so that its edit starts at
    /// the cursor and replaces a byte. At the end of the text `after` is an insertion at the
    /// cursor marked `cursorBefore`.
    static func around(_ cursor: Int, replacing start: Int? = nil, before: String, after: String, in text: EditorText) -> TypingEdits {
        let start = start ?? cursor
        var edits: [TextReplacement] = []
        if !before.isEmpty || start < cursor { edits.append(TextReplacement(span: ByteSpan(start, cursor), newText: before)) }
        guard !after.isEmpty else { return TypingEdits(edits) }
        let carriedEnd = text.scalarEnd(at: cursor)
        guard cursor < text.count,
              let carried = String(validating: text.bytes[cursor..<carriedEnd], as: UTF8.self) else {
            // Nothing (or no well-formed scalar) to carry `after`: an insertion that says so.
            edits.append(TextReplacement(span: ByteSpan(cursor, cursor), newText: after))
            return TypingEdits(edits, cursorBefore: edits.count - 1)
        }
        edits.append(TextReplacement(span: ByteSpan(cursor, carriedEnd), newText: after + carried))
        return TypingEdits(edits)
    }
}
