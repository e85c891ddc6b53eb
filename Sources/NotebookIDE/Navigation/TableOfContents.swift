// A note's table of contents: a nested list of links to its headings, kept between
// `<!-- toc -->` and `<!-- /toc -->` so it can be found and refreshed.
//
// Invariants:
// - Idempotent: applying the edit and asking again gives nil (nothing to change). The text
//   inserted and the text that replaces an existing block are built by the same function.
// - Markers are found only as top-level HTML blocks, so a `<!-- toc -->` shown inside a code
//   block or a quote is never touched. Spaces inside a marker and letter case do not matter.
// - Nesting follows heading levels with a stack (as `DocumentOutline` does), so skipped levels
//   (H2 then H4) nest one step and never indent a line into an indented code block.
// - Link texts are escaped so a heading's text shows as written; link targets are the slugs
//   the renderer gives the headings (`HeadingSymbol.slug`).
// - The edit's range is UTF-8 bytes of the source; the text uses the note's own line ending.

import MarkdownSyntax
import NotebookIndex
import TextCore

/// Builds and updates a note's table of contents.
public enum TableOfContents {
    /// The comment that opens a table of contents.
    public static let startMarker = "<!-- toc -->"
    /// The comment that closes it.
    public static let endMarker = "<!-- /toc -->"

    /// A change to the note: replace `range` (source bytes) by `newText`. An empty range is an
    /// insertion at `range.start`.
    public struct Edit: Sendable, Equatable {
        public var range: ByteSpan
        public var newText: String
        public init(range: ByteSpan, newText: String) {
            self.range = range
            self.newText = newText
        }
        /// True when the edit inserts a new table (the note had none).
        public var isInsertion: Bool { range.isEmpty }
    }

    /// The edit that creates or refreshes the table of contents of the note parsed as `tree`
    /// with headings `note.headings`; nil when the table is already up to date.
    public static func edit(tree: SyntaxTree, note: NoteSymbols) -> Edit? {
        edit(tree: tree, headings: Array(note.headings))
    }

    /// The edit that creates or refreshes the table of contents of `tree`, whose headings are
    /// `headings` (`NoteSymbols.headings`); nil when the table is already up to date.
    ///
    /// - An existing block (from `<!-- toc -->` to the next `<!-- /toc -->`) is replaced; a start
    ///   marker without an end marker is replaced by a whole block. Headings inside the old
    ///   block are not listed, since the edit removes them.
    /// - Otherwise the block is inserted after the note's title heading (an H1 that is the first
    ///   block after the front matter), else after the front matter, else at the start, with a
    ///   blank line on each side.
    /// - Left out of the list: the heading that introduces the table (the heading right before
    ///   the start marker, such as `## Contents`, unless it is the title heading), and the title
    ///   heading when the note has only one H1 and it comes first (every entry would nest
    ///   under it).
    public static func edit(tree: SyntaxTree, headings: [HeadingSymbol]) -> Edit? {
        let source = tree.source
        let eol = NavigationText.lineEnding(of: source)
        let layout = Layout(tree)

        // Headings inside the block being replaced go away with it.
        let replaced = layout.startMarker.map { ByteSpan($0.start, layout.endMarker?.end ?? $0.end) }
        var remaining = headings.filter { heading in
            guard let replaced else { return true }
            return heading.range.end <= replaced.start || heading.range.start >= replaced.end
        }
        if remaining.count != headings.count {
            // Removing headings renumbers repeated slugs (`a-1` becomes `a`): give the links the
            // slugs the note will have after the edit, as the renderer's slugger will.
            var slugger = Slugger()
            for index in remaining.indices { remaining[index].slug = slugger.slug(for: remaining[index].text) }
        }
        var excluded = Set<Int32>()
        if let title = layout.titleHeading, remaining.filter({ $0.level == 1 }).count == 1 {
            excluded.insert(title.start)
        }
        if let start = layout.startMarker {
            // The heading whose end is followed only by blank bytes up to the marker.
            // The title heading is never the table's own heading: the table is inserted right
            // after it, and the next update must list the same headings.
            for heading in remaining where Int(heading.range.end) <= Int(start.start) && heading.range.start != layout.titleHeading?.start {
                let between = NavigationText.trimmedEnd(source, end: Int(start.start), floor: Int(heading.range.end))
                if between == Int(heading.range.end) { excluded.insert(heading.range.start) }
            }
        }
        let included = remaining.filter { !excluded.contains($0.range.start) }
        let block = blockText(headings: included, lineEnding: eol)

        if let range = replaced {
            let current = String(decoding: source[range.range.clamped(to: 0..<source.count)], as: UTF8.self)
            return current == block ? nil : Edit(range: range, newText: block)
        }

        let offset = layout.insertionOffset
        var text = ""
        if offset > 0 {
            let last = source[offset - 1]
            if last != 0x0A && last != 0x0D { text += eol }
            text += eol
        }
        text += block + eol
        let nextLineEnd = NavigationText.nextLineStart(source, after: offset)
        let nextLineIsBlank = NavigationText.trimmedEnd(source, end: nextLineEnd, floor: offset) == offset
        if offset < source.count && !nextLineIsBlank { text += eol }
        return Edit(range: ByteSpan(offset, offset), newText: text)
    }

    /// The whole block: the start marker, the list, the end marker (no final line ending).
    public static func blockText(headings: [HeadingSymbol], lineEnding: String = "\n") -> String {
        let list = listText(headings: headings, lineEnding: lineEnding)
        return startMarker + lineEnding + (list.isEmpty ? "" : list + lineEnding) + endMarker
    }

    /// The nested bullet list of links to `headings`, one line each (no final line ending).
    /// Headings without text are left out. Nesting is relative to the highest level present:
    /// two spaces per step.
    public static func listText(headings: [HeadingSymbol], lineEnding: String = "\n") -> String {
        var lines: [String] = []
        var open: [Int] = []
        for heading in headings where !heading.text.isEmpty {
            let level = min(max(heading.level, 1), 6)
            while let top = open.last, top >= level { open.removeLast() }
            let indent = String(repeating: "  ", count: open.count)
            open.append(level)
            let slug = heading.slug.isEmpty ? Slugger.slug(for: heading.text) : heading.slug
            lines.append(indent + "- [" + NavigationText.escapedMarkdown(heading.text) + "](" + destination(slug) + ")")
        }
        return lines.joined(separator: lineEnding)
    }

    /// `#slug`, in `<…>` when the slug holds a character a bare destination cannot.
    private static func destination(_ slug: String) -> String {
        var needsBrackets = false
        for byte in slug.utf8 where byte <= 0x20 || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\\") {
            needsBrackets = true
            break
        }
        if !needsBrackets { return "#" + slug }
        var escaped = ""
        for scalar in slug.unicodeScalars {
            if scalar == "<" || scalar == ">" || scalar == "\\" { escaped.append("\\") }
            // Line endings cannot appear in a destination at all.
            escaped.unicodeScalars.append(scalar == "\n" || scalar == "\r" ? " " : scalar)
        }
        return "<#" + escaped + ">"
    }

    /// Where the markers, the front matter and the title heading are: one pass over the
    /// top-level blocks.
    private struct Layout {
        var startMarker: ByteSpan?
        var endMarker: ByteSpan?
        var titleHeading: ByteSpan?
        var insertionOffset = 0

        init(_ tree: SyntaxTree) {
            let count = tree.nodes.count
            guard count > 0 else { return }
            var current = tree.nodes[0].firstChild
            var afterFrontMatter = 0
            var isFirstBlock = true
            var steps = 0
            while current > 0, Int(current) < count, steps < count {
                steps += 1
                let node = tree.nodes[Int(current)]
                let span = ByteSpan(node.sourceStart, max(node.sourceStart, node.sourceEnd))
                switch node.kind {
                case .frontMatter:
                    afterFrontMatter = NavigationText.nextLineStart(tree.source, after: Int(span.end))
                    current = node.next
                    continue
                case .heading where isFirstBlock && node.data == 1:
                    titleHeading = span
                case .htmlBlock:
                    let marker = Layout.marker(tree.contentBytes(of: current))
                    if marker == 1, startMarker == nil { startMarker = span }
                    if marker == 2, startMarker != nil, endMarker == nil { endMarker = span }
                default:
                    break
                }
                isFirstBlock = false
                current = node.next
            }
            if let title = titleHeading {
                insertionOffset = NavigationText.nextLineStart(tree.source, after: Int(title.end))
            } else {
                insertionOffset = min(afterFrontMatter, tree.source.count)
            }
        }

        /// 1 for a start marker, 2 for an end marker, 0 otherwise; spaces and case ignored.
        static func marker(_ html: ArraySlice<UInt8>) -> Int {
            var compact: [UInt8] = []
            for byte in html where !NavigationText.isBlank(byte) {
                if compact.count > 12 { return 0 }
                compact.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
            }
            if compact.elementsEqual("<!--toc-->".utf8) { return 1 }
            if compact.elementsEqual("<!--/toc-->".utf8) { return 2 }
            return 0
        }
    }
}
