import MarkdownSyntax
import TextCore

/// A heading of a note: what an outline, a `#heading` link and a rename need.
public struct HeadingSymbol: Sendable, Equatable {
    /// 1...6.
    public var level: Int
    /// The plain text a reader sees (the renderer's own extraction).
    public var text: String
    /// The GitHub-style id the renderer gives the heading (`hello-world`, repeats `-1`, `-2`).
    public var slug: String
    /// Source bytes of the whole heading, markers and underline included.
    public var range: ByteSpan
    /// Source bytes of the heading's inline text (without `#`s or setext underline).
    public var textRange: ByteSpan

    public init(level: Int, text: String, slug: String, range: ByteSpan, textRange: ByteSpan) {
        self.level = level
        self.text = text
        self.slug = slug
        self.range = range
        self.textRange = textRange
    }

    /// What the link graph compares: the heading's identity, not its place.
    public var key: Key { Key(level: level, text: text, slug: slug) }

    /// A heading without its ranges.
    public struct Key: Sendable, Hashable {
        public var level: Int
        public var text: String
        public var slug: String
    }
}
