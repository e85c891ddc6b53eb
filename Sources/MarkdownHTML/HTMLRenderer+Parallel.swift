import Dispatch
import MarkdownSyntax
import TextCore

// Rendering a large document on all cores: the top-level blocks are cut into pieces of about
// `pieceSourceBytes` of Markdown each, every piece is rendered by its own state, and the pieces'
// bytes, in order, are the document's HTML. Heading ids come from `SyntaxTree.headingAnchors` first, so
// every piece numbers repeated slugs as one walk would; the source's line index is built once
// and shared. Documents with footnote references render in one piece (their numbering runs
// through the document). The concatenation is byte-for-byte the output of `render(_:)`.
//
// Why pieces rather than halves: the caller's other work (`alongside`: outline and counts) runs
// in the same `concurrentPerform`, first; with many small pieces the cores share out the rest
// evenly, where two halves plus that work left one core idle for a third of the time.

extension HTMLRenderer {
    /// Below this size one core is faster than several (splitting and joining cost more).
    public static let parallelThreshold = 128 << 10

    /// About how much Markdown each piece of a parallel rendering covers.
    public static let pieceSourceBytes = 96 << 10

    /// The same bytes as `render(tree)`, made on all cores when the document is large.
    /// `anchors` are the document's heading anchors when the caller already has them.
    /// `alongside`, when given, runs at the same time as the pieces (other read-only work on
    /// the same tree, such as an outline or word counts).
    public func renderInParallel(_ tree: SyntaxTree, anchors: [HeadingAnchor]? = nil,
                                 alongside: (@Sendable () -> Void)? = nil) -> [UInt8] {
        let pieces = renderPieces(tree, anchors: anchors, alongside: alongside)
        guard pieces.count > 1 else { return pieces.first ?? [] }
        var result: [UInt8] = []
        result.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { result.append(contentsOf: piece) }
        return result
    }

    /// The HTML of `tree` as consecutive pieces whose concatenation is `render(tree)`, rendered
    /// on all cores when the document is large (one piece otherwise).
    ///
    /// - `anchors`: the document's heading anchors, when the caller already has them.
    /// - `lines`: the source's line index, when the caller already has it.
    /// - `alongside`: other read-only work on the same tree, run at the same time (started first).
    /// - `finishPiece`: applied to each piece on the core that rendered it (for example escaping
    ///   it for a JSON string); the result holds what it returns.
    public func renderPieces(_ tree: SyntaxTree, anchors: [HeadingAnchor]? = nil, lines: LineIndex? = nil,
                             alongside: (@Sendable () -> Void)? = nil,
                             finishPiece: (@Sendable ([UInt8]) -> [UInt8])? = nil) -> [[UInt8]] {
        let finish: @Sendable ([UInt8]) -> [UInt8] = finishPiece ?? { $0 }
        let sourceCount = tree.source.count
        var starts: [Int] = []
        if sourceCount >= HTMLRenderer.parallelThreshold, tree.footnoteReferences.isEmpty, !tree.nodes.isEmpty {
            starts = pieceStarts(tree)
        }
        guard starts.count > 1 else {
            // One walk, with the other work beside it.
            let outputs = PieceOutputs(count: 1)
            let options = self.options
            let renderWhole: @Sendable () -> Void = {
                var state = HTMLRenderState(tree: tree, options: options, lines: lines)
                state.renderDocument()
                outputs.set(0, finish(state.out.bytes))
            }
            if let alongside {
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    if part == 0 { alongside() } else { renderWhole() }
                }
            } else {
                renderWhole()
            }
            return outputs.values
        }
        var table: [NodeID: String]?
        if options.headingIDs {
            var ids: [NodeID: String] = [:]
            for anchor in anchors ?? tree.headingAnchors() { ids[anchor.node] = anchor.id }
            table = ids
        }
        let headingIDs = table
        let options = self.options
        let sharedLines = options.sourceLines ? (lines ?? LineIndex(utf8: tree.source)) : nil
        var blocks: [NodeID] = []
        var child = tree.nodes[0].firstChild
        while child != .none {
            blocks.append(child)
            child = tree.nodes[Int(child)].next
        }
        let pieceBlocks = (0..<starts.count).map { index in
            Array(blocks[starts[index]..<(index + 1 < starts.count ? starts[index + 1] : blocks.count)])
        }
        let pieceCount = pieceBlocks.count
        let outputs = PieceOutputs(count: pieceCount)
        let extra = alongside == nil ? 0 : 1
        DispatchQueue.concurrentPerform(iterations: pieceCount + extra) { iteration in
            // The other work goes first: it is the longest single task.
            if iteration < extra {
                alongside?()
                return
            }
            let part = iteration - extra
            let blocksOfPiece = pieceBlocks[part]
            let first = Int(tree.nodes[Int(blocksOfPiece[0])].sourceStart)
            let end = part + 1 < pieceCount ? Int(tree.nodes[Int(pieceBlocks[part + 1][0])].sourceStart) : sourceCount
            var state = HTMLRenderState(tree: tree, options: options,
                                        outputCapacity: max(0, end - first) * 2 + 256, lines: sharedLines)
            state.headingIDTable = headingIDs
            if part == 0, options.fullPage { state.writePageHeader() }
            for block in blocksOfPiece { state.walk(from: block) }
            if part == pieceCount - 1, options.fullPage { state.writePageFooter() }
            outputs.set(part, finish(state.out.bytes))
        }
        return outputs.values
    }

    /// Indices into the document's top-level blocks where pieces start: the first block, then
    /// the first block at or past each further `pieceSourceBytes` of source. Fewer than two
    /// entries means one piece.
    private func pieceStarts(_ tree: SyntaxTree) -> [Int] {
        let pieces = max(2, tree.source.count / HTMLRenderer.pieceSourceBytes)
        let stride = tree.source.count / pieces
        var starts: [Int] = [0]
        var next = stride
        var index = 0
        var child = tree.nodes[0].firstChild
        while child != .none {
            let node = tree.nodes[Int(child)]
            if index > 0, Int(node.sourceStart) >= next {
                starts.append(index)
                while next <= Int(node.sourceStart) { next += stride }
            }
            index += 1
            child = node.next
        }
        return starts
    }
}

/// The pieces, each written by one `concurrentPerform` iteration into its own slot and read
/// after the join (the join orders every write before the read, so no lock is needed). The slots
/// are raw memory so that writers of different slots never touch a shared array's header.
private final class PieceOutputs: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<[UInt8]>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: [])
    }
    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }
    func set(_ part: Int, _ bytes: [UInt8]) {
        slots[part] = bytes
    }
    var values: [[UInt8]] { Array(slots) }
}
