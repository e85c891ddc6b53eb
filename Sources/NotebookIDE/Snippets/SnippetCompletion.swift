// Snippets offered as completion items, where the writer types a snippet's prefix.
//
// Rules:
// - The typed word runs from the line start, or from the last space or tab before the cursor,
//   to the cursor; an item replaces exactly it (so `- ta` keeps its `- `, and `(ta` offers
//   nothing: a snippet starts at the line start or after white space).
// - A snippet is offered when one of its prefixes starts with the typed word (ASCII letters
//   compared without case); items whose prefix is the typed word come first, then the order
//   of `snippets`. Invoked by the writer (Ctrl-Space) with nothing typed, on an empty line or
//   after white space, every snippet is offered; typing offers nothing until a byte is typed.
// - Never in fenced code, `$$` math, the front matter or an inline code span. The front-matter
//   snippets (`Snippet.Placement.noteStart`) are offered on the first line of a note without
//   front matter, typed from its first byte, and nowhere else.
// - Cheap: reads the cursor's line and the line starts above it (`LineRegions`), never parses
//   the note; the region is looked up only when some snippet matches.

import Localization
import MarkdownSyntax
import TextCore

/// Snippet completion.
public enum SnippetCompletion {
    /// The snippet items at `cursor` (a UTF-8 offset of `text`), best first. `snippetSupport`:
    /// the editor takes snippet syntax (else items insert plain text); `invoked`: the writer
    /// asked for completion (else it was triggered by typing); `locale`: the writer's language,
    /// for the descriptions beside the items (the server's choice).
    public static func complete(text: [UInt8], cursor: Int, snippets: [Snippet], variables: SnippetVariables,
                                snippetSupport: Bool, invoked: Bool, locale: SupportedLocale = .en) -> [CompletionCandidate] {
        let cursor = max(0, min(cursor, text.count))
        var wordStart = cursor
        while wordStart > 0, !isBlankOrLineBreak(text[wordStart - 1]) { wordStart -= 1 }
        let typed = text[wordStart..<cursor]
        guard invoked || !typed.isEmpty else { return [] }
        let atNoteStart = wordStart == 0

        // Matching first: most keystrokes match nothing and cost no more than this.
        var exact: [(Snippet, String)] = []
        var others: [(Snippet, String)] = []
        for snippet in snippets {
            if snippet.placement == .noteStart && !atNoteStart { continue }
            guard let prefix = snippet.prefixes.first(where: { startsWithIgnoringCase($0, typed) }) else { continue }
            if prefix.utf8.count == typed.count { exact.append((snippet, prefix)) } else { others.append((snippet, prefix)) }
        }
        guard !exact.isEmpty || !others.isEmpty else { return [] }
        guard LineRegions.region(at: cursor, in: text) == .body else { return [] }
        let inCode = text.withUnsafeBufferPointer { SpanScanner.hidesMarkdown(at: cursor, in: $0) }
        guard !inCode else { return [] }

        let replace = ByteSpan(wordStart, cursor)
        let count = exact.count + others.count
        return (exact + others).enumerated().map { index, match in
            let (snippet, prefix) = match
            let plain = snippet.template.plainText(variables: variables)
            let newText = snippetSupport ? snippet.template.snippetText(variables: variables) : plain
            let preview = SnippetTemplate.preview(of: plain, maxLines: SnippetTemplate.previewLines)
            return CompletionCandidate(label: prefix, kind: .snippet, newText: newText, replace: replace, filterText: prefix,
                                       sortText: CompletionEngine.sortText(index, limit: count), detail: snippet.detail.string(in: locale),
                                       documentation: Snippet.codeBlock(preview))
        }
    }

    /// Whether the line holding `cursor` is indented four columns or more: it may be indented
    /// code, which only the syntax tree tells (a line continuing a list item is not). Completion
    /// from the text alone does not answer there.
    public static func needsSyntax(text: [UInt8], cursor: Int) -> Bool {
        var start = max(0, min(cursor, text.count))
        while start > 0, !ContextScanner.isLineBreak(text[start - 1]) { start -= 1 }
        var columns = 0
        var index = start
        while index < text.count, columns < 4 {
            switch text[index] {
            case 0x20: columns += 1
            case 0x09: columns += 4 - columns % 4
            default: return false
            }
            index += 1
        }
        return columns >= 4
    }

    static func isBlankOrLineBreak(_ byte: UInt8) -> Bool {
        ContextScanner.isSpace(byte) || ContextScanner.isLineBreak(byte)
    }

    /// True when `prefix` starts with `typed`, ASCII letters compared without case.
    static func startsWithIgnoringCase(_ prefix: String, _ typed: ArraySlice<UInt8>) -> Bool {
        var index = typed.startIndex
        for byte in prefix.utf8 {
            guard index < typed.endIndex else { return true }
            let other = typed[index]
            guard byte == other || (byte | 0x20 == other | 0x20 && (byte | 0x20) &- UInt8(ascii: "a") < 26) else { return false }
            index += 1
        }
        return index == typed.endIndex
    }
}
