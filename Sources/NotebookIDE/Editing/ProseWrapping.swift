// Rewrapping prose to a width: what `gq` asks for (`textDocument/rangeFormatting` with MacMD's
// option `macmd.textWidth`), done where the syntax is known.
//
// Rules:
// - Only paragraphs are wrapped (in quotes and list items too); headings, code, maths, HTML,
//   tables, front matter and link definitions are left as they are. Of a paragraph, the lines
//   the range holds are joined and filled, as Vim's `gq` does with the lines it is given.
// - Filling is greedy: words (runs of non-blank text) separated by one space, as many on a line
//   as fit in `width` display columns (CJK and emoji count two) with the line's prefix; a word
//   longer than the width stands on a line of its own.
// - A line keeps its containers: the first line its own prefix (quote markers, a list marker, a
//   task box), new lines the continuation of it (quote markers as written, a list marker's width
//   as spaces), so a wrapped item stays in its item and a wrapped quote in its quote.
// - Nothing changes meaning: no break inside a wiki-link or a formula (they cannot span lines), a
//   hard line break (two spaces or `\` at a line's end) stays where it is, and no line starts with
//   a word that would begin another block there (`#`, `-`, `+`, `*`, `1.`, `>`, a fence, `<div>`,
//   `$$`, a setext underline or a thematic break; the parser says which): such a word stays on
//   the line before, over the width if need be.
//
// Invariant: the edits cover only the paragraph lines in the range whose text changes; linear in
// the lines wrapped.

import MarkdownSyntax
import TextCore

public enum ProseWrapping {
    /// The edits that fill the paragraph lines of `tree.source` that the lines of `range` touch
    /// to `width` display columns (a width below 8 counts as 8).
    public static func edits(for tree: SyntaxTree, in range: ByteSpan, width: Int) -> [TextReplacement] {
        EditorText.reading(tree.source) { text in
            let width = max(width, 8)
            let firstLine = text.lineStart(of: Int(range.start))
            let lastLineEnd = text.lineEnd(from: max(Int(range.start), min(Int(range.end), text.count)))
            var unbreakable: [Range<Int>] = []
            var hardBreakLines: Set<Int> = []
            var paragraphs: [Range<Int>] = []
            for index in tree.nodes.indices {
                let node = tree.nodes[index]
                let span = Int(node.sourceStart)..<Int(node.sourceEnd)
                // Nodes the parser left detached (a paragraph that became a table's header) are
                // not in the note.
                guard node.parent != .none, span.upperBound >= firstLine, span.lowerBound <= lastLineEnd else { continue }
                switch node.kind {
                case .paragraph: paragraphs.append(span)
                case .wikiLink, .inlineMath, .displayMath: unbreakable.append(span)
                case .hardBreak: hardBreakLines.insert(text.lineStart(of: span.lowerBound))
                default: break
                }
            }
            var edits: [TextReplacement] = []
            for paragraph in paragraphs {
                let start = max(text.lineStart(of: paragraph.lowerBound), firstLine)
                let end = min(text.lineEnd(from: max(paragraph.lowerBound, paragraph.upperBound - 1)), lastLineEnd)
                guard start < end else { continue }
                edits += fill(text, lines: start..<end, paragraphStart: paragraph.lowerBound, width: width,
                              unbreakable: unbreakable, hardBreakLines: hardBreakLines)
            }
            return edits.sorted { $0.span.start < $1.span.start }
        }
    }

    /// The edit that fills the lines from the one starting at `lines.lowerBound` to the one
    /// ending at `lines.upperBound`, cut into runs at hard line breaks.
    static func fill(_ text: EditorText, lines: Range<Int>, paragraphStart: Int, width: Int,
                     unbreakable: [Range<Int>], hardBreakLines: Set<Int>) -> [TextReplacement] {
        // The first line's prefix, and the continuation every new line gets.
        let firstLineStart = lines.lowerBound
        let firstLineEnd = text.lineEnd(from: firstLineStart)
        let containers = LineContainers(text, firstLineStart, firstLineEnd)
        var contentStart = max(LineRegions.contentStart(text.bytes, firstLineStart, firstLineEnd), containers.textStart)
        if paragraphStart >= firstLineStart, paragraphStart <= firstLineEnd { contentStart = max(contentStart, paragraphStart) }
        // New lines continue the containers: quote markers and tabs as written, the rest (list
        // markers, indentation) as spaces, up to the innermost item's content (a task box is
        // the item's text: continuation lines align under it).
        var continuationEnd = contentStart
        if let innermost = containers.containers.last, !innermost.isQuote { continuationEnd = min(innermost.contentStart, contentStart) }
        let continuationPrefix = text.bytes[firstLineStart..<continuationEnd].map { byte -> UInt8 in
            byte == UInt8(ascii: ">") || byte == 0x09 ? byte : 0x20
        }
        let continuationColumns = text.columns(firstLineStart, continuationEnd)

        // The words, line by line; a line with a hard break ends a run.
        var runs: [[Range<Int>]] = [[]]
        var runEnds: [[UInt8]] = []
        var lineStart = firstLineStart
        while lineStart <= lines.upperBound {
            let lineEnd = text.lineEnd(from: lineStart)
            let from = lineStart == firstLineStart ? contentStart : LineRegions.contentStart(text.bytes, lineStart, lineEnd)
            var trimmedEnd = lineEnd
            let hardBreak = hardBreakLines.contains(lineStart) && lineEnd < lines.upperBound
            if hardBreak {
                // Keep the break's own bytes (`\` or the trailing spaces) at the end of its line.
                var wordsEnd = lineEnd
                if wordsEnd > from, text[wordsEnd - 1] == UInt8(ascii: "\\") {
                    wordsEnd -= 1
                } else {
                    while wordsEnd > from, EditorText.isSpace(text[wordsEnd - 1]) { wordsEnd -= 1 }
                }
                runEnds.append(Array(text.bytes[wordsEnd..<lineEnd]))
                trimmedEnd = wordsEnd
            }
            runs[runs.count - 1] += words(text, from, trimmedEnd, unbreakable: unbreakable)
            if hardBreak { runs.append([]) }
            let next = text.nextLineStart(after: lineEnd)
            if next <= lineStart || lineEnd >= lines.upperBound { break }
            lineStart = next
        }
        runEnds.append([])

        // Filled again.
        var out: [UInt8] = []
        var column = text.columns(firstLineStart, contentStart)
        var lineHasWords = false
        for (runIndex, run) in runs.enumerated() {
            if runIndex > 0 {
                out += [0x0A] + continuationPrefix
                column = continuationColumns
                lineHasWords = false
            }
            for word in run {
                let wordColumns = DisplayWidth.columns(text.bytes, word.lowerBound, word.upperBound)
                if lineHasWords {
                    if column + 1 + wordColumns > width, mayStartLine(text, word) {
                        out += [0x0A] + continuationPrefix
                        column = continuationColumns
                    } else {
                        out.append(0x20)
                        column += 1
                    }
                }
                out += text.bytes[word]
                column += wordColumns
                lineHasWords = true
            }
            out += runEnds[runIndex]
        }
        let replaced = contentStart..<lines.upperBound
        guard !text.bytes[replaced].elementsEqual(out) else { return [] }
        return [TextReplacement(span: ByteSpan(replaced.lowerBound, replaced.upperBound), newText: String(decoding: out, as: UTF8.self))]
    }

    /// The words of `start..<end`: runs of non-blank bytes, a run that breaks into a span that
    /// cannot break running on to the span's end.
    static func words(_ text: EditorText, _ start: Int, _ end: Int, unbreakable: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = start
        while index < end {
            while index < end, EditorText.isSpace(text[index]) { index += 1 }
            guard index < end else { break }
            let wordStart = index
            while index < end {
                if EditorText.isSpace(text[index]) {
                    // A space inside a wiki-link or a formula joins the word.
                    guard let span = unbreakable.first(where: { $0.contains(index) }) else { break }
                    index = min(span.upperBound, end)
                    continue
                }
                index += 1
            }
            result.append(wordStart..<index)
        }
        return result
    }

    /// Whether the word may begin a line of a paragraph: not when the parser would read a line
    /// that starts with it (alone, or followed by more words) as the start of another block, or as
    /// a setext underline. The parser decides, so the rule cannot drift from the syntax (a `2.`
    /// cannot interrupt a paragraph, a `1.` can; `<div>` can, `<span>` cannot).
    static func mayStartLine(_ text: EditorText, _ word: Range<Int>) -> Bool {
        let first = text[word.lowerBound]
        // Letters, digits past the first and most punctuation start no block: no parse needed.
        let letter = (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A
        if letter || first >= 0x80 { return true }
        for tail in ["", " y"] {
            let line = Array("x\n".utf8) + text.bytes[word] + Array(tail.utf8)
            let tree = MarkdownParser.parse(line, options: .notebook)
            let root = tree.nodes[Int(SyntaxTree.root)]
            guard root.firstChild != .none, root.firstChild == root.lastChild,
                  tree.nodes[Int(root.firstChild)].kind == .paragraph else { return false }
        }
        return true
    }
}
