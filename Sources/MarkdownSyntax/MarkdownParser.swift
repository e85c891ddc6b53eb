/// Entry point of the Markdown parser: blocks first (`BlockParser`), then inlines (`InlineParser`).

import Localization
public enum MarkdownParser {
    /// Parses UTF-8 bytes. Never fails; problems are reported in `SyntaxTree.problems`.
    /// The largest document the tree can address (offsets are 32-bit); longer input is cut here
    /// and the cut reported as a problem.
    public static let maximumDocumentSize = Int(Int32.max) - 1

    public static func parse(_ source: [UInt8], options: ParseOptions = .notebook) -> SyntaxTree {
        guard source.count <= maximumDocumentSize else {
            var tree = parse(Array(source[0..<maximumDocumentSize]), options: options)
            tree.problems.append(SyntaxProblem(code: .documentTooLarge,
                                               message: LocalizedText("document.tooLarge"),
                                               range: ByteSpan(Int32(maximumDocumentSize), Int32(maximumDocumentSize))))
            return tree
        }
        var tree = SyntaxTree(source: source, options: options)
        if let limit = options.maximumSize, source.count > limit {
            tree.problems.append(SyntaxProblem(code: .noteTooLarge, message: LocalizedText("document.overLimit", .string(String(source.count)), .string(String(limit))),
                                               range: ByteSpan(0, 0)))
            return tree
        }
        var blocks = BlockParser(options: options)
        blocks.parse(into: &tree)
        if options.extensions.contains(.frontMatter) {
            var problems = tree.problems
            tree.frontMatter = FrontMatterParser.parse(tree, problems: &problems)
            tree.problems = problems
        }
        var inlines = InlineParser(options: options)
        for index in tree.nodes.indices where tree.nodes[index].kind.hasInlineContent {
            inlines.parse(block: NodeID(index), in: &tree)
        }
        return tree
    }

    /// Parses a string (its UTF-8 bytes).
    public static func parse(_ text: String, options: ParseOptions = .notebook) -> SyntaxTree {
        parse(Array(text.utf8), options: options)
    }
}
