// Reference counts shown above a note's title and its headings (`textDocument/codeLens`): how
// many links from other notes reach each, and, above the title, how many places name the note
// without a link. A lens is listed cheaply; what it counts is found only when the editor shows
// it (`codeLens/resolve`), so a long note costs nothing until then.
//
// Invariants:
// - The title's lens is always there; a heading's only when a link from another note reaches
//   it. Lenses are in the note's order, one per place.
// - What a lens counts is what the backlinks tree lists (`incoming(to:)`): links from other
//   notes, each link once; a heading's are the links that name that heading.

import NotebookIndex
import TextCore

/// A lens: where it stands, and what it counts.
public struct ReferenceLens: Sendable, Equatable {
    /// The title heading (the note's start when it has none), or the heading.
    public var span: ByteSpan
    /// The heading's text; nil for the note itself.
    public var heading: String?
}

/// What a lens counts, each place once, in the other notes.
public struct LensReferences: Sendable, Equatable {
    /// The links that reach the note or heading, by note path, then place.
    public var backlinks: [NoteSpan]
    /// The places that name the note without linking to it (the title's lens only).
    public var unlinkedMentions: [NoteSpan]
}

extension NoteView {
    /// The lenses of this note: its title's, then each heading's that a link from another note
    /// reaches.
    public func referenceLenses() -> [ReferenceLens] {
        guard let title = graphNode(note.path, heading: nil) else { return [] }
        var lenses = [ReferenceLens(span: title.span, heading: nil)]
        var reached = Set<HeadingSymbol.Key>()
        // Only links that name a heading can reach one: the others are not even resolved.
        for backlink in notebook.backlinks(to: note.path, including: { !$0.headings.isEmpty }) where backlink.source != note.path {
            if let heading = backlink.heading { reached.insert(heading.key) }
        }
        let titleHeading = symbols.titleHeading
        var seen = Set<String>()
        for heading in symbols.headings where heading != titleHeading && reached.contains(heading.key) {
            // Headings are named by their text: two with one text share their links (and one lens).
            guard seen.insert(heading.text).inserted else { continue }
            lenses.append(ReferenceLens(span: heading.range, heading: heading.text))
        }
        return lenses
    }

    /// What the lens of `heading` (nil: the title) counts; nothing when the note has no such
    /// heading now. The title's lens counts the note's unlinked mentions too, unless
    /// `mentions` is false (the feature switched off).
    public func lensReferences(heading: String?, mentions: Bool = true) -> LensReferences {
        guard let node = graphNode(note.path, heading: heading) else { return LensReferences(backlinks: [], unlinkedMentions: []) }
        let backlinks = incoming(to: node).flatMap { edge in edge.spans.map { NoteSpan(note: edge.node.note, span: $0) } }
        guard heading == nil, mentions else { return LensReferences(backlinks: backlinks, unlinkedMentions: []) }
        let unlinked = unlinkedMentions().flatMap { found in found.mentions.map { NoteSpan(note: found.note, span: $0.range) } }
        return LensReferences(backlinks: backlinks, unlinkedMentions: unlinked)
    }
}
