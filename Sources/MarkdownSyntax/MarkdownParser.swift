/// Entry point of the Markdown parser: blocks first (`BlockParser`), then inlines (`InlineParser`).

import Localization
import TextCore
public enum MarkdownParser {
    /// Parses UTF-8 bytes. Never fails; problems are reported in `SyntaxTree.problems`.
    /// The largest document the tree can address (offsets are 32-bit); longer input is cut here
    /// and the cut reported as a problem.
    public static let maximumDocumentSize = Int(Int32.max) - 1

    public static func parse(_ source: [UInt8], options: ParseOptions = .notebook) -> SyntaxTree {
        var scratch = ParseScratch(keepingBuffers: false)
        return parse(source, options: options, scratch: &scratch)
    }

    /// What one parse leaves for the next on the same thread: the arrays of the last tree (once
    /// its reader gives it back with `recycle`) and of the parsers, emptied and reused with their
    /// capacity, so a thread parsing note after note does not grow them again for each one.
    /// Nothing of an earlier document is read: a parse with a scratch gives the tree a fresh one
    /// gives.
    public struct ParseScratch: ~Copyable {
        var tree: SyntaxTree?
        var blocks = BlockParser.Buffers()
        var inlines = InlineParser.Buffers()

        /// False for a scratch that serves one parse: its buffers are freed as soon as they are
        /// done with, so they do not add to the parse's peak memory.
        let keepsBuffers: Bool

        public init() { keepsBuffers = true }

        init(keepingBuffers: Bool) { keepsBuffers = keepingBuffers }

        /// Gives back a tree its reader is done with, for the next parse to reuse its arrays.
        public mutating func recycle(_ tree: consuming SyntaxTree) {
            self.tree = tree
        }
    }

    /// `parse(_:options:)`, reusing the arrays `scratch` holds.
    public static func parse(_ source: [UInt8], options: ParseOptions = .notebook, scratch: inout ParseScratch) -> SyntaxTree {
        guard source.count <= maximumDocumentSize else {
            var tree = parse(Array(source[0..<maximumDocumentSize]), options: options, scratch: &scratch)
            tree.problems.append(SyntaxProblem(code: .documentTooLarge,
                                               message: LocalizedText("document.tooLarge"),
                                               range: ByteSpan(Int32(maximumDocumentSize), Int32(maximumDocumentSize))))
            return tree
        }
        var tree: SyntaxTree
        if var old = scratch.tree.take() {
            tree = SyntaxTree(source: source, options: options, reusing: &old)
        } else {
            tree = SyntaxTree(source: source, options: options)
        }
        if let limit = options.maximumSize, source.count > limit {
            tree.problems.append(SyntaxProblem(code: .noteTooLarge, message: LocalizedText("document.overLimit", .string(String(source.count)), .string(String(limit))),
                                               range: ByteSpan(0, 0)))
            return tree
        }
        // The parsers write the nodes in place (`SyntaxTree.arena`): the arena must be this
        // tree's alone (a recycled tree's reader may have kept a copy).
        tree.nodes.makeUniqueForBuilding()
        var blocks = BlockParser(options: options, reusing: &scratch.blocks)
        blocks.parse(into: &tree)
        if !scratch.keepsBuffers { blocks.releaseBuffers() }
        blocks.giveBuffers(to: &scratch.blocks)
        if options.extensions.contains(.frontMatter) {
            var problems = tree.problems
            tree.frontMatter = FrontMatterParser.parse(tree, problems: &problems)
            tree.problems = problems
        }
        tree.nodes.makeUniqueForBuilding()
        var inlines = InlineParser(options: options, reusing: &scratch.inlines)
        // Only the block nodes are visited: the inline pass appends after them.
        inlines.parseBlocks(tree.nodes.count, in: &tree)
        inlines.giveBuffers(to: &scratch.inlines)
        return tree
    }

    /// Parses a string (its UTF-8 bytes).
    public static func parse(_ text: String, options: ParseOptions = .notebook) -> SyntaxTree {
        parse(Array(text.utf8), options: options)
    }
}
