import MarkdownSyntax
import TextCore

/// A link reference definition `[label]: destination "title"`.
public struct LinkDefinitionSymbol: Sendable, Equatable {
    /// The label as written, without brackets.
    public var label: String
    /// The label as links match it (case-folded, whitespace collapsed).
    public var normalizedLabel: String
    /// The destination, decoded (escapes and character references), without `<>`.
    public var destination: String
    /// The title without its quotes, decoded; nil when there is none.
    public var title: String?
    /// Source bytes of the whole definition.
    public var range: ByteSpan
    public var labelRange: ByteSpan
    public var destinationRange: ByteSpan
    /// Empty when there is no title.
    public var titleRange: ByteSpan

    public init(label: String, normalizedLabel: String, destination: String, title: String?, range: ByteSpan,
                labelRange: ByteSpan, destinationRange: ByteSpan, titleRange: ByteSpan) {
        self.label = label
        self.normalizedLabel = normalizedLabel
        self.destination = destination
        self.title = title
        self.range = range
        self.labelRange = labelRange
        self.destinationRange = destinationRange
        self.titleRange = titleRange
    }
}
