// What an editor shows for navigation in one note: definition, references, hover, document
// links, the outline and folding ranges. Each is a function of a `NoteView` and a UTF-8 offset.
//
// Invariants: pure apart from reading other notes' text through the snapshot (a hover's
// excerpt); results are `NoteSpan`s and byte ranges, never positions or URIs.

import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A hover: Markdown (our words through the catalog, a note's excerpt verbatim), and the range
/// of the link or tag it is about.
public struct HoverResult: Sendable, Equatable {
    public var markdown: LocalizedText
    public var span: ByteSpan
}

/// A link of the note that leads to a note or a file of the notebook.
public struct DocumentLinkResult: Sendable, Equatable {
    public var span: ByteSpan
    public var target: NoteRef
}

extension NoteView {
    /// Where the symbol at `offset` leads (see `Notebook.definition(of:in:)`); nil when the
    /// cursor is on no symbol.
    public func definition(at offset: Int) -> [NoteSpan]? {
        guard let target = symbols.target(at: offset) else { return nil }
        return notebook.definition(of: target, in: symbols).map { NoteSpan(note: ref($0.path), span: $0.range) }
    }

    /// Every use of the symbol at `offset` (the note's backlinks on no symbol), with the symbol
    /// itself first when `includeDeclaration` and it is declared here (a heading, a reference
    /// definition, a block).
    public func references(at offset: Int, includeDeclaration: Bool) -> [NoteSpan] {
        let target = symbols.target(at: offset)
        var found = notebook.references(of: target, in: symbols)
        if includeDeclaration {
            switch target {
            case .heading(let heading)?: found.insert(SourceRange(path: note.path, range: heading.range), at: 0)
            case .definition(let definition)?: found.insert(SourceRange(path: note.path, range: definition.range), at: 0)
            case .blockID(let block)?: found.insert(SourceRange(path: note.path, range: block.blockRange), at: 0)
            default: break
            }
        }
        return found.map { NoteSpan(note: ref($0.path), span: $0.range) }
    }

    /// The hover of the link or tag at `offset`: a link's target (title, path and the opening
    /// lines of the note, section or block) or why it leads nowhere; a tag's uses. Nil elsewhere
    /// and on URLs (the editor shows those itself).
    public func hover(at offset: Int) -> HoverResult? {
        switch symbols.target(at: offset) {
        case .link(let link)?:
            let markdown: LocalizedText?
            switch notebook.catalog.resolve(link, from: note.path) {
            case .note(let path, let heading, let block, _):
                guard let target = notebook.notes[path] else { return nil }
                // An embed shows its section or block in the page: its hover shows as much of it
                // as a hover holds; a link's, the opening lines.
                let embed = link.form == .wikiEmbed
                markdown = .verbatim(HoverText.note(target, source: source(of: path)?.text ?? [], heading: heading, block: block,
                                                    maximumLines: embed ? HoverText.embedMaximumLines : HoverText.defaultMaximumLines,
                                                    maximumBytes: embed ? HoverText.embedMaximumBytes : HoverText.defaultMaximumBytes))
            case .file(let path):
                markdown = HoverText.file(path, exists: fileExists(path))
            case let resolution:
                markdown = HoverText.unresolved(resolution)
            }
            return markdown.map { HoverResult(markdown: $0, span: link.range) }
        case .tag(let tag)?:
            let uses = notebook.uses(ofTag: tag.name)
            return HoverResult(markdown: HoverText.tag(tag.name, uses: uses.values.reduce(0, +), notes: uses.count), span: tag.range)
        default:
            return nil
        }
    }

    /// The links that lead to a note or an existing file of the notebook: on the destination as
    /// written (the whole link for reference links and links without one). A link into the same
    /// note by its anchor alone, and a link to a file that is not there, lead nowhere.
    public func documentLinks() -> [DocumentLinkResult] {
        var result: [DocumentLinkResult] = []
        for link in symbols.links where link.form != .autolink {
            let target: String
            switch notebook.catalog.resolve(link, from: note.path) {
            case .note(let path, _, _, _):
                if path == note.path && link.target.text.isEmpty { continue }
                target = path
            case .file(let path):
                guard fileExists(path) else { continue }
                target = path
            default:
                continue
            }
            let span = link.target.range.isEmpty || link.referenceLabel != nil ? link.range : link.target.range
            result.append(DocumentLinkResult(span: span, target: ref(target)))
        }
        return result
    }

    /// The outline: front matter, then the headings nested by level.
    public func outline() -> [OutlineSymbol] {
        DocumentOutline.symbols(for: symbols, source: text)
    }

    /// The folding ranges of the note.
    public func foldingRanges() -> [FoldingRange] {
        FoldingRanges.compute(analysis.tree)
    }
}
