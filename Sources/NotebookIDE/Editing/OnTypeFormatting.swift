// `textDocument/onTypeFormatting`: what a keystroke adds around the cursor.
//
// Triggers and rules:
// - `\n` (the editor has inserted the line break; the cursor is on the new line, maybe after
//   indentation the editor added): in a table body or after the delimiter row, a new row's
//   leading pipe (`| `, with the row's containers), the cursor after it: the writer types the
//   cells and their pipes, and the pipe that ends the row aligns the table. Nothing is written
//   after the cursor, so a writer who types every pipe gets no pipe twice. After an empty body
//   row, the row goes and the table ends (as an empty list item ends a list). Otherwise list and
//   quote continuation (`ListContinuation`).
// - `` ` ``: the third backtick of a line that opens a fence (after its containers and up to
//   three spaces, nothing after the cursor) inserts the closing fence on a new line below, with
//   the line's containers, the cursor staying after the opening fence (for the language). Not on
//   a closing fence (a line inside an open block), and not when the fence closes a block that
//   was left open below: when the lines below, read without this fence, end inside code.
// - `[` (wiki-links on): when the text before the cursor ends with `[[` (not `[[[`, not escaped,
//   in prose), the `]]` that closes the wiki-link, or the `]` missing when one follows; nothing
//   when `]]` follows.
// - `|` at the end of a table row (nothing but spaces after it): the table is aligned
//   (`TableFormatting`); the cursor's row keeps its number of cells, so that a row being typed is
//   not filled, and the cursor stays after its last pipe. Not the first pipe of a row (nothing but
//   containers before it): that is the row's leading pipe, and a row has no cells yet. A pipe
//   typed just after the `| ` that a line break started (the row reads `| |`) is the writer typing
//   the leading pipe themselves: the two become one `|`, the cursor after it (the writer types
//   the space next), as typing a closing bracket steps over the one an editor inserted.
// - Nothing in fenced code, `$$` math or the front matter; nothing for other characters.
//
// Invariant: each answer reads the cursor's line, the lines of the list or table around it, and
// `LineRegions` (line starts from the top of the note; a fence trigger also reads the line starts
// below); never the whole note's syntax.

import MarkdownSyntax
import TextCore

public enum OnTypeFormatting {
    /// The trigger LSP calls first.
    public static let firstTriggerCharacter = "\n"
    /// The other triggers.
    public static let moreTriggerCharacters = ["`", "[", "|"]

    /// The edits after `character` was typed, with the cursor now at the UTF-8 offset `offset` of
    /// `text` (the text after the keystroke), for the syntax of `extensions`.
    public static func edits(typed character: String, at offset: Int, in text: [UInt8],
                             extensions: ParseOptions.Extensions = .notebook) -> TypingEdits {
        EditorText.reading(text) { text in
            let cursor = max(0, min(offset, text.count))
            switch character {
            case "\n", "\r\n", "\r":
                return TableTyping.newRow(text, cursor: cursor) ?? ListContinuation.edits(text, cursor: cursor) ?? .none
            case "`":
                return closingFence(text, cursor: cursor) ?? .none
            case "[":
                return extensions.contains(.wikiLinks) ? (closingWikiLink(text, cursor: cursor, extensions: extensions) ?? .none) : .none
            case "|":
                return TableTyping.realign(text, cursor: cursor) ?? .none
            default:
                return .none
            }
        }
    }

    /// The closing fence after a third backtick that opens a fence.
    static func closingFence(_ text: EditorText, cursor: Int) -> TypingEdits? {
        guard cursor >= 3, text.bytes[(cursor - 3)..<cursor].allSatisfy({ $0 == UInt8(ascii: "`") }) else { return nil }
        let lineStart = text.lineStart(of: cursor)
        let lineEnd = text.lineEnd(from: cursor)
        guard text.isBlank(cursor, lineEnd) else { return nil }
        let containers = LineContainers(text, lineStart, cursor)
        let fenceStart = text.skipSpaces(containers.textStart, cursor)
        guard fenceStart == cursor - 3, text.columns(containers.textStart, fenceStart) <= 3 else { return nil }
        guard LineRegions.line(at: lineStart, in: text.bytes).kind == .codeOpening else { return nil }
        let below = text.nextLineStart(after: lineEnd)
        guard !LineRegions.endsInsideCode(from: below, in: text.bytes) else { return nil }
        let lineBreak = lineEnd < text.count ? text.string(lineEnd, text.scalarEnd(at: lineEnd)) : "\n"
        let prefix = containers.continuation(text, depth: containers.containers.count) + Array(text.bytes[containers.textStart..<fenceStart])
        return TypingEdits.around(cursor, before: "", after: lineBreak + String(decoding: prefix, as: UTF8.self) + "```", in: text)
    }

    /// The `]]` (or `]`) that closes a wiki-link after a second `[`.
    static func closingWikiLink(_ text: EditorText, cursor: Int, extensions: ParseOptions.Extensions) -> TypingEdits? {
        guard cursor >= 2, text[cursor - 1] == UInt8(ascii: "["), text[cursor - 2] == UInt8(ascii: "[") else { return nil }
        if cursor >= 3, text[cursor - 3] == UInt8(ascii: "[") || text[cursor - 3] == UInt8(ascii: "\\") { return nil }
        guard AutoPairing.context(at: cursor - 2, in: text, extensions: extensions).context == .text else { return nil }
        var closing = 0
        while closing < 2, cursor + closing < text.count, text[cursor + closing] == UInt8(ascii: "]") { closing += 1 }
        guard closing < 2 else { return nil }
        return TypingEdits.around(cursor, before: "", after: String(repeating: "]", count: 2 - closing), in: text)
    }
}

/// Keystrokes in table rows.
enum TableTyping {
    /// A new row after a line break typed at the end of a body row or the delimiter row; the end
    /// of the table after an empty body row.
    static func newRow(_ text: EditorText, cursor: Int) -> TypingEdits? {
        let lineStart = text.lineStart(of: cursor)
        guard text.isBlank(lineStart, cursor), text.isBlank(cursor, text.lineEnd(from: cursor)),
              let left = text.previousLine(before: lineStart),
              text.bytes[left.start..<left.end].contains(UInt8(ascii: "|")),
              let table = TableLines.table(around: left.start, in: text),
              let index = table.rows.firstIndex(where: { $0.lineStart == left.start }), index >= 1 else { return nil }
        let row = table.rows[index]
        let prefix = text.string(row.lineStart, row.cellsStart)
        let cells = TableFormatting.RowCells(row, text)
        if index >= 2, cells.cells.allSatisfy(\.isEmpty) {
            // An empty row ends the table: it goes, and the new line keeps the row's containers.
            let kept = text.trimmedEnd(row.lineStart, row.cellsStart)
            return TypingEdits([
                TextReplacement(span: ByteSpan(kept, row.lineEnd), newText: ""),
            ] + (text.string(lineStart, cursor) == prefix ? [] : [TextReplacement(span: ByteSpan(lineStart, cursor), newText: prefix)]))
        }
        return TypingEdits.around(cursor, replacing: lineStart, before: prefix + "| ", after: "", in: text)
    }

    /// The table aligned after a `|` typed at the end of a row; the leading pipe a line break
    /// wrote and the one the writer typed after it made one.
    static func realign(_ text: EditorText, cursor: Int) -> TypingEdits? {
        guard cursor >= 1, text[cursor - 1] == UInt8(ascii: "|"), cursor < 2 || text[cursor - 2] != UInt8(ascii: "\\"),
              text.isBlank(cursor, text.lineEnd(from: cursor)) else { return nil }
        let lineStart = text.lineStart(of: cursor)
        let cellsStart = LineRegions.contentStart(text.bytes, lineStart, text.lineEnd(from: lineStart))
        // The row's first pipe: no cell yet, nothing to align.
        if cellsStart >= cursor - 1 { return nil }
        if text.bytes[cellsStart..<cursor].elementsEqual("| |".utf8) {
            guard let above = text.previousLine(before: lineStart),
                  TableLines.table(around: above.start, in: text) != nil else { return nil }
            return TypingEdits([TextReplacement(span: ByteSpan(cellsStart, cursor), newText: "|")])
        }
        guard let table = TableLines.table(around: lineStart, in: text) else { return nil }
        return TypingEdits(TableFormatting.align(table, in: text, cursor: cursor))
    }
}
