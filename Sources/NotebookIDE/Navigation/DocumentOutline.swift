// The outline of a note (LSP document symbols): its headings as a tree of sections.
//
// Invariants:
// - A heading's section runs from the heading to the next heading of the same or a higher level
//   (a smaller number), or to the end of the note, with trailing blank lines left out. So a
//   section always contains the sections nested in it, and siblings never overlap.
// - Nesting follows levels with a stack, never recursion: a heading is the child of the nearest
//   earlier heading with a lower level still open. Skipped levels (H1 then H3) nest directly;
//   a note that starts with H3 has that H3 at the top level, and a later H2 is its sibling.
// - `selectionRange` lies inside `range`, and both lie inside the source; every name is
//   non-empty (LSP clients reject empty names).
// - Ranges are UTF-8 byte ranges of the source; the server converts them to LSP positions.

import Localization
import MarkdownSyntax
import NotebookIndex
import TextCore

/// One entry of a note's outline: a heading with the sections nested in it, or the front matter.
public struct OutlineSymbol: Sendable, Equatable {
    /// What the entry stands for (the server picks an LSP `SymbolKind` from it).
    public enum Kind: UInt8, Sendable, Equatable {
        case heading
        case frontMatter
    }

    public var kind: Kind
    /// The heading's plain text (verbatim: user content), or our own name for a heading without
    /// text (`(empty heading)`) or for the front matter (`front matter`), from the catalog.
    public var name: LocalizedText
    /// `H1` … `H6`, or `YAML` for the front matter.
    public var detail: String
    /// 1...6 for headings, 0 for the front matter.
    public var level: Int
    /// The whole section (source bytes): the heading and everything under it.
    public var range: ByteSpan
    /// What an editor selects and reveals: the heading's text (or the whole heading when it has
    /// no text, or the front matter block).
    public var selectionRange: ByteSpan
    /// The sections nested in this one, in document order.
    public var children: [OutlineSymbol]

    public init(kind: Kind, name: LocalizedText, detail: String, level: Int, range: ByteSpan, selectionRange: ByteSpan,
                children: [OutlineSymbol] = []) {
        self.kind = kind
        self.name = name
        self.detail = detail
        self.level = level
        self.range = range
        self.selectionRange = selectionRange
        self.children = children
    }
}

/// Builds a note's outline from its headings.
public enum DocumentOutline {
    /// The name given to a heading with no text (`#` alone).
    public static let emptyHeadingName = LocalizedText("outline.emptyHeading")
    /// The name of the front matter's entry.
    public static let frontMatterName = LocalizedText("outline.frontMatter")

    /// The outline of a note from its symbols and source bytes.
    ///
    /// The front matter, when the note has one, comes first as a top-level entry of its own: it
    /// is the part of a note an outline is most often used to jump to and back from (title, tags,
    /// aliases), and it is never inside a heading's section. Pass `includeFrontMatter: false`
    /// to leave it out.
    public static func symbols(for note: NoteSymbols, source: [UInt8], includeFrontMatter: Bool = true) -> [OutlineSymbol] {
        symbols(headings: Array(note.headings), source: source,
                frontMatter: includeFrontMatter ? note.frontMatter?.range : nil)
    }

    /// The outline of `headings` (in document order, as `NoteSymbols.headings`) in `source`, with
    /// an entry for `frontMatter` (its source range) when it is given.
    public static func symbols(headings: [HeadingSymbol], source: [UInt8], frontMatter: ByteSpan? = nil) -> [OutlineSymbol] {
        let sections = sectionRanges(headings: headings, source: source)
        var flat: [OutlineSymbol] = []
        var parents: [Int] = []
        flat.reserveCapacity(headings.count + 1)
        parents.reserveCapacity(headings.count + 1)

        if let span = frontMatter {
            let range = clamped(span, to: source.count)
            flat.append(OutlineSymbol(kind: .frontMatter, name: frontMatterName, detail: "YAML", level: 0,
                                      range: range, selectionRange: range))
            parents.append(-1)
        }

        // Open headings: (index in `flat`, level). A new heading closes every open one of its
        // level or deeper; what stays on top is its parent.
        var open: [(index: Int, level: Int)] = []
        for (position, heading) in headings.enumerated() {
            let level = min(max(heading.level, 1), 6)
            while let top = open.last, top.level >= level { open.removeLast() }
            let range = sections[position]
            var selection = clamped(heading.textRange, to: source.count)
            if selection.isEmpty || selection.start < range.start || selection.end > range.end {
                selection = ByteSpan(range.start, min(range.end, max(range.start, clamped(heading.range, to: source.count).end)))
            }
            let name = heading.text.isEmpty ? emptyHeadingName : LocalizedText.verbatim(heading.text)
            flat.append(OutlineSymbol(kind: .heading, name: name, detail: "H\(level)", level: level,
                                      range: range, selectionRange: selection))
            parents.append(open.last?.index ?? -1)
            open.append((flat.count - 1, level))
        }
        return assemble(flat, parents: parents)
    }

    /// The section range of each heading (source bytes), in the order of `headings`.
    ///
    /// A section starts at its heading and ends at the next heading whose level is the same or
    /// higher (or at the end of `source`), moved back over blank lines but never before the end
    /// of its own heading.
    public static func sectionRanges(headings: [HeadingSymbol], source: [UInt8]) -> [ByteSpan] {
        var ends = [Int](repeating: source.count, count: headings.count)
        var open: [(index: Int, level: Int)] = []
        for (position, heading) in headings.enumerated() {
            let level = min(max(heading.level, 1), 6)
            let start = max(0, min(Int(heading.range.start), source.count))
            while let top = open.last, top.level >= level {
                ends[top.index] = start
                open.removeLast()
            }
            open.append((position, level))
        }
        var result: [ByteSpan] = []
        result.reserveCapacity(headings.count)
        for (position, heading) in headings.enumerated() {
            let range = clamped(heading.range, to: source.count)
            // A heading out of order (bad input) must not give an end before its start.
            let end = NavigationText.trimmedEnd(source, end: max(ends[position], Int(range.end)), floor: Int(range.end))
            result.append(ByteSpan(Int(range.start), max(Int(range.start), end)))
        }
        return result
    }

    /// Turns the flat list with parent indices into a tree, without recursion: children always
    /// come after their parent, so walking backwards finishes every child before its parent.
    private static func assemble(_ flat: [OutlineSymbol], parents: [Int]) -> [OutlineSymbol] {
        var pending = [[OutlineSymbol]](repeating: [], count: flat.count)
        var roots: [OutlineSymbol] = []
        for index in flat.indices.reversed() {
            var symbol = flat[index]
            symbol.children = pending[index].reversed()
            pending[index] = []
            let parent = parents[index]
            if parent >= 0, parent < index {
                pending[parent].append(symbol)
            } else {
                roots.append(symbol)
            }
        }
        return roots.reversed()
    }

    private static func clamped(_ span: ByteSpan, to count: Int) -> ByteSpan {
        let start = max(0, min(Int(span.start), count))
        return ByteSpan(start, max(start, min(Int(span.end), count)))
    }
}
