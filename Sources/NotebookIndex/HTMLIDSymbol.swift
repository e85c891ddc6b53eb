import MarkdownSyntax
import TextCore

/// An id a note's raw HTML gives a place: `<a id="old-heading"></a>`, `<a name="top">`, any
/// element's `id="…"`. A link's `#fragment` may name one, as a browser follows it on a published
/// page (mdBook keeps such anchors so that links to renamed headings still work).
public struct HTMLIDSymbol: Sendable, Equatable {
    /// The id as written in the attribute (character references not decoded).
    public var id: String
    /// Source bytes of the attribute's value.
    public var range: ByteSpan

    public init(id: String, range: ByteSpan) {
        self.id = id
        self.range = range
    }
}
