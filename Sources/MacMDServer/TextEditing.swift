// `textDocument/didChange`'s edits applied to a buffer's UTF-8 bytes, in the order they arrive.
// Positions are converted with the negotiated encoding and clamped, so a wrong position never
// traps and never loses text outside the edited range.

import LSPTypes
import TextCore

enum TextEditing {
    /// Applies `changes` in order to `text`. A change without a range replaces everything.
    static func apply(_ changes: [TextDocumentContentChangeEvent], to text: [UInt8], encoding: PositionEncoding) -> [UInt8] {
        var text = text
        for change in changes {
            guard let range = change.range else {
                text = Array(change.text.utf8)
                continue
            }
            let lines = LineIndex(utf8: text)
            var start = lines.utf8Offset(of: range.start, encoding: encoding)
            var end = lines.utf8Offset(of: range.end, encoding: encoding)
            start = max(0, min(start, text.count))
            end = max(0, min(end, text.count))
            // A reversed range is a client bug; inserting at its start loses nothing.
            if end < start { end = start }
            text.replaceSubrange(start..<end, with: change.text.utf8)
        }
        return text
    }
}
