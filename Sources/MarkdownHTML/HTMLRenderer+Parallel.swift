import Dispatch
import MarkdownSyntax

// Rendering a large document on two cores: the top-level blocks are split where the source is
// halved, each half is rendered by its own state, and the halves are joined. Heading ids come
// from `headingAnchors` first, so both halves number repeated slugs as one walk would; documents
// with footnote references render in one piece (their numbering runs through the document).
// The output is byte-for-byte the output of `render(_:)`.

extension HTMLRenderer {
    /// Below this size one core is faster than two (splitting and joining cost more).
    public static let parallelThreshold = 128 << 10

    /// The same bytes as `render(tree)`, made on two cores when the document is large.
    /// `anchors` are the document's heading anchors when the caller already has them.
    /// `alongside`, when given, runs at the same time as the two halves (other read-only work on
    /// the same tree, such as an outline or word counts).
    public func renderInParallel(_ tree: SyntaxTree, anchors: [HeadingAnchor]? = nil,
                                 alongside: (@Sendable () -> Void)? = nil) -> [UInt8] {
        func oneWalk() -> [UInt8] {
            guard let alongside else { return render(tree) }
            let output = HalfOutputs()
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 { output.set(0, render(tree)) } else { alongside() }
            }
            return output.first
        }
        guard tree.source.count >= HTMLRenderer.parallelThreshold, tree.footnoteReferences.isEmpty else {
            return oneWalk()
        }
        var blocks: [NodeID] = []
        var child = tree.nodes[0].firstChild
        while child != .none {
            blocks.append(child)
            child = tree.nodes[Int(child)].next
        }
        let middle = Int32(clamping: tree.source.count / 2)
        guard let split = blocks.firstIndex(where: { tree.nodes[Int($0)].sourceStart >= middle }),
              split > 0 else {
            return oneWalk()
        }
        var table: [NodeID: String]?
        if options.headingIDs {
            var ids: [NodeID: String] = [:]
            for anchor in anchors ?? headingAnchors(tree) { ids[anchor.node] = anchor.id }
            table = ids
        }
        let headingIDs = table
        let halves = [Array(blocks[..<split]), Array(blocks[split...])]
        let outputs = HalfOutputs()
        let options = self.options
        DispatchQueue.concurrentPerform(iterations: alongside == nil ? 2 : 3) { part in
            if part == 2 {
                alongside?()
                return
            }
            var state = HTMLRenderState(tree: tree, options: options,
                                        outputCapacity: tree.source.count * 3 / 4 + 64)
            state.headingIDTable = headingIDs
            if part == 0, options.fullPage { state.writePageHeader() }
            for block in halves[part] { state.walk(from: block) }
            if part == 1, options.fullPage { state.writePageFooter() }
            outputs.set(part, state.out.bytes)
        }
        var result = outputs.first
        result.append(contentsOf: outputs.second)
        return result
    }
}

/// The two halves, each written by one `concurrentPerform` iteration and read after the join.
private final class HalfOutputs: @unchecked Sendable {
    var first: [UInt8] = []
    var second: [UInt8] = []
    func set(_ part: Int, _ bytes: [UInt8]) {
        if part == 0 { first = bytes } else { second = bytes }
    }
}
