// The prose of a note: the text where an unlinked mention can be, as runs of source bytes.
//
// Invariants:
// - Prose is the text nodes of paragraphs, headings and table cells (in quotes, lists and
//   footnotes too), outside links, images, wiki-links and autolinks (bare URLs included) and
//   outside the raw HTML elements that are links or code (`<a>…</a>`, `<code>`, `<kbd>`,
//   `<pre>`, `<samp>`, `<var>`, `<script>`, `<style>`, `<textarea>`, `<math>`, `<svg>`). Code,
//   maths, tags, block ids, footnote references, HTML blocks, link definitions and front
//   matter are never text nodes, so never prose.
// - A run is text nodes that follow one another in the source with nothing between them (the
//   parser splits text at bytes that might have started something): a name is never matched
//   across a line break, a code span or emphasis markers, so a mention is always text that a
//   link can replace as it stands.
// - Runs are source bytes as written: escapes and character references are not decoded.
// - One walk per leaf block, iterative, linear in the tree (the nodes read in place); every
//   node id is checked.

import MarkdownSyntax

enum ProseText {
    /// Calls `body` with the source byte range (`start`, `end`) of each run of prose in `tree`,
    /// block by block. (Inlined, so the index's reading of every note calls no closure a run.)
    @inline(__always)
    static func forEachRun(in tree: SyntaxTree, _ body: (Int, Int) -> Void) {
        let sourceCount = tree.source.count
        tree.nodes.withUnsafeBufferPointer { nodes in
            @inline(__always) func isNode(_ id: NodeID) -> Bool { id >= 0 && Int(id) < nodes.count }
            for index in nodes.indices {
                let block = nodes[index]
                guard block.kind.hasInlineContent, block.parent != .none else { continue }
                let root = NodeID(index)
                var runStart = -1
                var runEnd = -1
                /// How many raw HTML elements that hold no prose are open.
                var closedElements = 0
                var current = block.firstChild
                while isNode(current) {
                    let node = nodes[Int(current)]
                    var entersChildren = false
                    switch node.kind {
                    case .text:
                        let start = min(Int(node.sourceStart), sourceCount)
                        let end = min(max(start, Int(node.sourceEnd)), sourceCount)
                        if closedElements > 0 || end <= start { break }
                        if runEnd == start {
                            runEnd = end
                        } else {
                            if runStart >= 0 { body(runStart, runEnd) }
                            runStart = start
                            runEnd = end
                        }
                    case .emphasis, .strong, .strikethrough:
                        entersChildren = true
                    case .inlineHTML:
                        closedElements = max(0, closedElements + elementChange(tree.contentBytes(of: node)))
                    default:
                        // Links, images, wiki-links and autolinks are not entered; code, maths,
                        // tags and breaks end the run.
                        break
                    }
                    if node.kind != .text, runStart >= 0 {
                        body(runStart, runEnd)
                        runStart = -1
                        runEnd = -1
                    }
                    // The next node in document order inside the block (`nextInPreorder`).
                    if entersChildren, isNode(node.firstChild) {
                        current = node.firstChild
                        continue
                    }
                    var climb = current
                    current = .none
                    while isNode(climb), climb != root {
                        let climbed = nodes[Int(climb)]
                        if isNode(climbed.next) {
                            current = climbed.next
                            break
                        }
                        climb = climbed.parent
                    }
                }
                if runStart >= 0 { body(runStart, runEnd) }
            }
        }
    }

    /// The raw HTML elements whose text is no prose: links and code.
    private static let elementsWithoutProse: Set<[UInt8]> = Set(
        ["a", "code", "kbd", "pre", "samp", "var", "script", "style", "textarea", "math", "svg"].map { Array($0.utf8) })

    /// +1 for an opening tag of such an element, -1 for its closing tag, 0 for anything else
    /// (other tags, comments, a self-closing tag).
    static func elementChange(_ html: ArraySlice<UInt8>) -> Int {
        var index = html.startIndex
        guard index < html.endIndex, html[index] == UInt8(ascii: "<") else { return 0 }
        index += 1
        var closing = false
        if index < html.endIndex, html[index] == UInt8(ascii: "/") {
            closing = true
            index += 1
        }
        var name: [UInt8] = []
        while index < html.endIndex, name.count < 9 {
            let byte = html[index] | 0x20
            guard byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { break }
            name.append(byte)
            index += 1
        }
        guard elementsWithoutProse.contains(name) else { return 0 }
        // The name must end there (`<abbr>` is not `<a>`).
        if index < html.endIndex {
            let next = html[index]
            guard next == 0x20 || next == 0x09 || next == 0x0A || next == UInt8(ascii: ">") || next == UInt8(ascii: "/") else { return 0 }
        }
        if closing { return -1 }
        // `<a name="x"/>` opens nothing.
        if let end = html.lastIndex(of: UInt8(ascii: ">")), end > html.startIndex, html[end - 1] == UInt8(ascii: "/") { return 0 }
        return 1
    }
}
