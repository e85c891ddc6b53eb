import MarkdownSyntax
import TextCore

/// A heading as a reader sees it: its plain text and the `id` the renderer gives it.
public struct HeadingAnchor: Sendable, Equatable {
    public var node: NodeID
    public var level: Int
    public var text: String
    public var id: String
}

extension HTMLRenderer {
    /// Every heading in document order with the exact text and id `render` uses (one code path:
    /// the renderer's own plain-text extraction and slugger), so an outline and the HTML agree.
    public func headingAnchors(_ tree: SyntaxTree) -> [HeadingAnchor] {
        var plain = options
        plain.sourceLines = false
        plain.fullPage = false
        // A note without headings needs no render state.
        guard tree.nodes.contains(where: { $0.kind == .heading }) else { return [] }
        let state = HTMLRenderState(tree: tree, options: plain, outputCapacity: 0)
        var slugs = Slugger()
        var anchors: [HeadingAnchor] = []
        for index in tree.nodes.indices where tree.nodes[index].kind == .heading {
            let id = NodeID(index)
            // Detached nodes (none are headings today) have no parent; skip them defensively.
            guard tree.nodes[index].parent != .none else { continue }
            let text = state.plainText(of: id)
            anchors.append(HeadingAnchor(node: id, level: Int(tree.nodes[index].data), text: text, id: slugs.slug(for: text)))
        }
        return anchors
    }

    /// The plain text of a node's inline content, as the renderer computes it for ids and alt text.
    public func plainText(of node: NodeID, in tree: SyntaxTree) -> String {
        var plain = options
        plain.sourceLines = false
        return HTMLRenderState(tree: tree, options: plain, outputCapacity: 0).plainText(of: node)
    }
}
