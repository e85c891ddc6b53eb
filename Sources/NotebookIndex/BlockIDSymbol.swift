import MarkdownSyntax
import TextCore

/// A block id `^id` and the block it names.
public struct BlockIDSymbol: Sendable, Equatable {
    /// The id without `^`.
    public var id: String
    /// Source bytes of `^id`.
    public var range: ByteSpan
    /// Source bytes of the block it names: the paragraph, or the list item holding it.
    public var blockRange: ByteSpan

    public init(id: String, range: ByteSpan, blockRange: ByteSpan) {
        self.id = id
        self.range = range
        self.blockRange = blockRange
    }
}
