// Folding ranges of a note (LSP `textDocument/foldingRange`), in 0-based lines.
//
// Invariants:
// - Every range has `endLine > startLine`; `endLine` is the last line that folds away (a code
//   fence's closing line, a section's last non-blank line).
// - Trailing blank lines never fold: ranges end at the block's last non-blank byte.
// - The walk follows child and sibling links from the root, iteratively (no recursion, whatever
//   the nesting), so nodes the inline pass left detached in the arena are never seen; every id
//   is checked against the arena before use, and the walk is bounded by the arena's size.
// - Sections come from top-level headings only: a heading inside a quote or a list item would
//   make a section that crosses its container's end, which editors reject as badly nested.
// - The result is sorted by start line, then by end line descending (outer before inner), with
//   exact duplicates (a list of one item) removed.

import MarkdownSyntax
import TextCore

/// A range of lines an editor can fold.
public struct FoldingRange: Sendable, Equatable, Hashable {
    /// What folds (the server picks an LSP `FoldingRangeKind` from it).
    public enum Kind: UInt8, Sendable, Equatable, Hashable {
        /// Sections, lists, code, math, tables, quotes, HTML, `<!-- #region -->` blocks.
        case region
        /// HTML comment blocks (`<!-- … -->`).
        case comment
        /// The front matter. LSP's `imports` is the kind of "header material at the top of a
        /// file", and clients that fold imports by default (VS Code's
        /// `editor.foldingImportsByDefault`) then fold the metadata of a note on opening it.
        case imports
    }

    /// 0-based line where the fold starts (stays visible).
    public var startLine: Int
    /// 0-based last line that folds away; always greater than `startLine`.
    public var endLine: Int
    public var kind: Kind

    public init(startLine: Int, endLine: Int, kind: Kind = .region) {
        self.startLine = startLine
        self.endLine = endLine
        self.kind = kind
    }
}

/// Computes the folding ranges of a parsed note.
public enum FoldingRanges {
    /// The folding ranges of `tree` (see the file comment for what folds).
    ///
    /// Folds: heading sections (to the line before the next top-level heading of the same or a
    /// higher level), lists and list items, block quotes, fenced and indented code, math blocks,
    /// tables, HTML blocks, footnote definitions, the front matter, and regions between
    /// `<!-- #region … -->` and `<!-- #endregion -->` comments. Paragraphs do not fold.
    public static func compute(_ tree: SyntaxTree) -> [FoldingRange] {
        let source = tree.source
        let lines = LineIndex(utf8: source)
        let nodeCount = tree.nodes.count
        var ranges: [FoldingRange] = []
        var headings: [(start: Int, headingEnd: Int, level: Int)] = []
        var regionStarts: [Int] = []

        func add(start: Int, end: Int, kind: FoldingRange.Kind) {
            let last = NavigationText.trimmedEnd(source, end: end, floor: start)
            guard last > start else { return }
            let startLine = lines.line(containingUTF8Offset: start)
            let endLine = lines.line(containingUTF8Offset: last - 1)
            if endLine > startLine { ranges.append(FoldingRange(startLine: startLine, endLine: endLine, kind: kind)) }
        }

        func valid(_ id: NodeID) -> Bool { id > 0 && Int(id) < nodeCount }

        guard nodeCount > 0 else { return [] }
        var current = tree.nodes[0].firstChild
        var steps = 0
        while valid(current), steps <= nodeCount {
            steps += 1
            let node = tree.nodes[Int(current)]
            let start = Int(node.sourceStart), end = Int(node.sourceEnd)
            var descend = false
            switch node.kind {
            case .blockQuote, .list, .item, .footnoteDefinition:
                add(start: start, end: end, kind: .region)
                descend = true
            case .codeBlock, .mathBlock, .table:
                add(start: start, end: end, kind: .region)
            case .frontMatter:
                add(start: start, end: end, kind: .imports)
            case .htmlBlock:
                switch commentKind(tree.contentBytes(of: current)) {
                case .regionStart:
                    regionStarts.append(start)
                case .regionEnd:
                    if let open = regionStarts.popLast() { add(start: open, end: end, kind: .region) }
                case .comment:
                    add(start: start, end: end, kind: .comment)
                case .none:
                    add(start: start, end: end, kind: .region)
                }
            case .heading:
                if node.parent == SyntaxTree.root {
                    headings.append((start, end, min(max(Int(node.data), 1), 6)))
                }
            default:
                break
            }
            if descend, valid(node.firstChild) {
                current = node.firstChild
                continue
            }
            // Next sibling, else the next sibling of the nearest ancestor that has one.
            var climb = current
            current = .none
            var depth = 0
            while valid(climb), depth <= nodeCount {
                depth += 1
                let here = tree.nodes[Int(climb)]
                if valid(here.next) {
                    current = here.next
                    break
                }
                climb = here.parent
            }
        }

        // Sections: each top-level heading to the next one of the same or a higher level.
        var open: [Int] = []
        var sectionEnds = [Int](repeating: source.count, count: headings.count)
        for (index, heading) in headings.enumerated() {
            while let top = open.last, headings[top].level >= heading.level {
                sectionEnds[top] = heading.start
                open.removeLast()
            }
            open.append(index)
        }
        for (index, heading) in headings.enumerated() {
            let end = NavigationText.trimmedEnd(source, end: sectionEnds[index], floor: heading.headingEnd)
            add(start: heading.start, end: end, kind: .region)
        }

        ranges.sort {
            if $0.startLine != $1.startLine { return $0.startLine < $1.startLine }
            if $0.endLine != $1.endLine { return $0.endLine > $1.endLine }
            return $0.kind.rawValue < $1.kind.rawValue
        }
        var result: [FoldingRange] = []
        result.reserveCapacity(ranges.count)
        for range in ranges {
            if let last = result.last, last.startLine == range.startLine, last.endLine == range.endLine { continue }
            result.append(range)
        }
        return result
    }

    private enum CommentKind {
        case none, comment, regionStart, regionEnd
    }

    /// Whether an HTML block is a comment, and whether that comment is a region marker
    /// (`<!-- #region name -->`, `<!-- #endregion -->`, as VS Code's Markdown folding reads them).
    private static func commentKind(_ html: ArraySlice<UInt8>) -> CommentKind {
        var index = html.startIndex
        while index < html.endIndex, html[index] == 0x20 || html[index] == 0x09 { index += 1 }
        guard html[index...].starts(with: "<!--".utf8) else { return .none }
        index += 4
        while index < html.endIndex, html[index] == 0x20 || html[index] == 0x09 { index += 1 }
        let rest = html[index...]
        // A marker is a one-line comment; a longer comment that merely starts with `#region`
        // is still just a comment.
        let isOneLine = !(rest.dropLast().contains(0x0A))
        if isOneLine && rest.starts(with: "#region".utf8) { return .regionStart }
        if isOneLine && rest.starts(with: "#endregion".utf8) { return .regionEnd }
        return .comment
    }
}
