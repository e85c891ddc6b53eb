// Whether a place of a note is inside a code block, as the parser read it: fenced or indented,
// in lists and quotes too. Completion offers nothing there (a `[[` or `#` in code is code).
//
// Invariant: walks down one path of the block tree (the blocks that hold the offset), never the
// whole note.

import MarkdownSyntax

extension SyntaxTree {
    /// True when `offset` lies in a code block (its fences and its last line's end included).
    public func isInCodeBlock(_ offset: Int) -> Bool {
        var current = SyntaxTree.root
        while isNode(current) {
            let node = nodes[Int(current)]
            if node.kind == .codeBlock { return true }
            var child = node.firstChild
            var next: NodeID = -1
            while isNode(child) {
                let candidate = nodes[Int(child)]
                if Int(candidate.sourceStart) > offset { break }
                if candidate.kind.isBlock, offset <= Int(candidate.sourceEnd) { next = child; break }
                child = candidate.next
            }
            current = next
        }
        return false
    }
}
