// A hover's Markdown as plain text, for an editor that shows hovers as they come (one that lists
// only `plaintext` in `textDocument.hover.contentFormat`: Vim's ALE): what a reader would see of
// the rendered Markdown, without its markup.
//
// Rules: one block a paragraph, blank lines between; headings and paragraphs as their text (a
// soft line break a space); list items after `• ` (or their number), nested two spaces deeper;
// quotes after `│ `; code as written; a thematic break a line of `─`; table rows their cells
// joined by ` │ `.
//
// Invariant: walks the block tree iteratively (bounded by the arena); never traps.

import MarkdownSyntax

public enum PlainHover {
    /// `markdown` as plain text.
    public static func text(of markdown: String) -> String {
        let tree = MarkdownParser.parse(Array(markdown.utf8), options: .notebook)
        var blocks: [String] = []
        // (node, prefix of its lines) for each block, in document order.
        var stack: [(NodeID, String)] = []
        var child = tree.nodes[Int(SyntaxTree.root)].lastChild
        while child != .none { stack.append((child, "")); child = tree.nodes[Int(child)].previous }
        var visited = 0
        while let (id, prefix) = stack.popLast(), visited < tree.nodes.count {
            visited += 1
            let node = tree.nodes[Int(id)]
            var children: [(NodeID, String)] = []
            switch node.kind {
            case .heading, .paragraph:
                let text = String(tree.plainText(of: id).map { $0 == "\n" ? " " : $0 })
                blocks.append(prefix + text)
            case .codeBlock, .mathBlock, .htmlBlock:
                let code = String(decoding: tree.contentBytes(of: node), as: UTF8.self)
                let lines = code.split(separator: "\n", omittingEmptySubsequences: false).dropLast(code.hasSuffix("\n") ? 1 : 0)
                blocks.append(lines.map { prefix + $0 }.joined(separator: "\n"))
            case .thematicBreak:
                blocks.append(prefix + String(repeating: "─", count: 20))
            case .blockQuote:
                children = childBlocks(of: id, in: tree).map { ($0, prefix + "│ ") }
            case .list:
                let ordered = node.flags & Node.listOrdered != 0
                var number = Int(node.data)
                for item in childBlocks(of: id, in: tree) {
                    let marker = ordered ? "\(number). " : "• "
                    number += 1
                    let inner = childBlocks(of: item, in: tree)
                    for (index, block) in inner.enumerated() {
                        children.append((block, index == 0 ? prefix + marker : prefix + String(repeating: " ", count: marker.count)))
                    }
                }
            case .table:
                let rows = childBlocks(of: id, in: tree).map { row in
                    prefix + childBlocks(of: row, in: tree).map { tree.plainText(of: $0) }.joined(separator: " │ ")
                }
                blocks.append(rows.joined(separator: "\n"))
            default:
                children = childBlocks(of: id, in: tree).map { ($0, prefix) }
            }
            stack += children.reversed()
        }
        return blocks.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    static func childBlocks(of id: NodeID, in tree: SyntaxTree) -> [NodeID] {
        var result: [NodeID] = []
        var child = tree.nodes[Int(id)].firstChild
        while child != .none, result.count < tree.nodes.count {
            result.append(child)
            child = tree.nodes[Int(child)].next
        }
        return result
    }
}
