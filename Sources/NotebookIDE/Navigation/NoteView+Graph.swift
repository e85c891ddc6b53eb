// The notebook as a graph, for an editor's call hierarchy (`textDocument/prepareCallHierarchy`,
// `callHierarchy/incomingCalls`, `callHierarchy/outgoingCalls`): a note, or a heading of one, is
// a node, and a link is an edge. A node's incoming edges are the notes that link to it, each
// with the ranges of its links; its outgoing edges are the notes its text links to (a heading's
// text: its section), each with the ranges of those links in it. A tree of backlinks, unfolded
// one level at a time by the editor.
//
// Invariants:
// - Plain values: nodes name their note by `NoteRef` and a heading by its text; ranges are
//   byte spans, in the note the edge's links are written in.
// - Edges are sorted by the other note's path; a note appears once per list, with every link;
//   a note's links to itself are no edges.
// - Links that reach no note (files, URLs, broken links) are no edges.

import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A node of the graph: a note, or one of its headings.
public struct GraphNode: Sendable, Equatable {
    public var note: NoteRef
    /// The text of the heading the node stands for; nil for the whole note.
    public var heading: String?
    /// What an editor lists: the note's title, or the heading's text.
    public var name: String
    /// The note's folder in the notebook (empty at its root), shown beside the name.
    public var folder: String
    /// The node in its note: the heading, or the note's title heading (its start when it has
    /// none).
    public var span: ByteSpan
}

/// An edge of the graph, seen from one node: the node at its other end, and its links' ranges.
public struct GraphEdge: Sendable, Equatable {
    public var node: GraphNode
    /// The ranges of the links: in `node`'s note for incoming edges, in the asking node's note
    /// for outgoing ones.
    public var spans: [ByteSpan]
}

extension NoteView {
    /// The node at `offset`: the heading there (the title heading stands for the note), the
    /// note or heading a link there reaches, else the note itself. Nil on a link that reaches no
    /// note.
    public func graphNode(at offset: Int) -> GraphNode? {
        switch symbols.target(at: offset) {
        case .heading(let heading)? where heading != symbols.titleHeading:
            return graphNode(note.path, heading: heading.text)
        case .link(let link)?:
            guard case .note(let path, let heading, _, _) = notebook.catalog.resolve(link, from: note.path) else { return nil }
            let named = heading.flatMap { $0 == notebook.notes[path]?.titleHeading ? nil : $0.text }
            return graphNode(path, heading: named)
        default:
            return graphNode(note.path, heading: nil)
        }
    }

    /// The node for the note at `path` of this notebook (and its heading `heading`), when the
    /// note (and the heading) are there.
    public func graphNode(_ path: String, heading: String?) -> GraphNode? {
        guard let target = notebook.notes[path] else { return nil }
        let folder = NotebookPath.folder(of: path)
        guard let heading else {
            return GraphNode(note: ref(path), heading: nil, name: target.title, folder: folder,
                             span: target.titleHeading?.range ?? ByteSpan(0, 0))
        }
        guard let found = target.headings.first(where: { $0.text == heading }) else { return nil }
        return GraphNode(note: ref(path), heading: heading, name: found.text, folder: folder, span: found.range)
    }

    /// The notes that link to `node`: to the note (any part of it), or to the heading.
    public func incoming(to node: GraphNode) -> [GraphEdge] {
        guard let target = notebook.notes[node.note.path] else { return [] }
        let heading = node.heading.flatMap { text in target.headings.first { $0.text == text } }
        if node.heading != nil && heading == nil { return [] }
        var bySource: [String: [ByteSpan]] = [:]
        for backlink in notebook.backlinks(to: node.note.path) where backlink.source != node.note.path {
            if let heading, backlink.heading?.key != heading.key { continue }
            bySource[backlink.source, default: []].append(backlink.link.range)
        }
        return edges(bySource)
    }

    /// The notes that `node`'s text links to: the note's links, or those of the heading's section.
    public func outgoing(from node: GraphNode) -> [GraphEdge] {
        guard let source = notebook.notes[node.note.path] else { return [] }
        var section = ByteSpan(0, Int32.max)
        if let text = node.heading {
            guard let index = source.headings.firstIndex(where: { $0.text == text }) else { return [] }
            let heading = source.headings[index]
            let end = source.headings[(index + 1)...].first { $0.level <= heading.level }?.range.start ?? Int32.max
            section = ByteSpan(heading.range.start, end)
        }
        var byTarget: [String: [ByteSpan]] = [:]
        for link in source.links where link.range.start >= section.start && link.range.start < section.end {
            guard case .note(let path, _, _, _) = notebook.catalog.resolve(link, from: source.path), path != source.path else { continue }
            byTarget[path, default: []].append(link.range)
        }
        return edges(byTarget)
    }

    /// Edges to the whole notes of `links` (path → ranges), by path.
    private func edges(_ links: [String: [ByteSpan]]) -> [GraphEdge] {
        links.keys.sorted().compactMap { path in
            graphNode(path, heading: nil).map { GraphEdge(node: $0, spans: links[path] ?? []) }
        }
    }
}

// MARK: Highlights

/// A place `textDocument/documentHighlight` marks: a use of the symbol, or where it is declared
/// (a heading, a link reference definition, a block id).
public struct SymbolHighlight: Sendable, Equatable {
    public var span: ByteSpan
    public var isDeclaration: Bool
}

extension NoteView {
    /// Every place in this note of the symbol at `offset`: on a link, the links to the same note
    /// and heading (or block), and that heading when it is in this note; on a heading, the links
    /// here to it (to the note, for its title heading); on a tag, its uses here; on a reference
    /// link or definition, the links with its label and its definition. Sorted by place; nil off
    /// a symbol.
    public func highlights(at offset: Int) -> [SymbolHighlight]? {
        guard let target = symbols.target(at: offset) else { return nil }
        var found: [SymbolHighlight] = []
        func links(to path: String, heading: HeadingSymbol?, block: BlockIDSymbol?) {
            for link in symbols.links {
                guard case .note(let reached, let linkHeading, let linkBlock, _) = notebook.catalog.resolve(link, from: note.path),
                      reached == path, linkBlock?.id == block?.id, linkHeading?.key == heading?.key else { continue }
                found.append(SymbolHighlight(span: link.range, isDeclaration: false))
            }
        }
        func uses(ofLabel label: String) {
            found += symbols.links.filter { $0.referenceLabel?.text == label }.map { SymbolHighlight(span: $0.range, isDeclaration: false) }
            found += symbols.linkDefinitions.filter { $0.normalizedLabel == label }.map { SymbolHighlight(span: $0.range, isDeclaration: true) }
        }
        switch target {
        case .link(let link) where link.referenceLabel != nil:
            // A reference link: the links with its label, and its definition.
            uses(ofLabel: link.referenceLabel?.text ?? "")
        case .link(let link):
            guard case .note(let path, let heading, let block, _) = notebook.catalog.resolve(link, from: note.path) else {
                return [SymbolHighlight(span: link.range, isDeclaration: false)]
            }
            let named = heading == notebook.notes[path]?.titleHeading && block == nil ? nil : heading
            links(to: path, heading: named, block: block)
            if path == note.path, let declared = named ?? heading { found.append(SymbolHighlight(span: declared.range, isDeclaration: true)) }
            if path == note.path, let block { found.append(SymbolHighlight(span: block.range, isDeclaration: true)) }
        case .heading(let heading):
            links(to: note.path, heading: heading == symbols.titleHeading ? nil : heading, block: nil)
            found.append(SymbolHighlight(span: heading.range, isDeclaration: true))
        case .tag(let tag):
            found = symbols.tags.filter { $0.name == tag.name }.map { SymbolHighlight(span: $0.range, isDeclaration: false) }
        case .definition(let definition):
            uses(ofLabel: definition.normalizedLabel)
        case .blockID(let block):
            links(to: note.path, heading: nil, block: block)
            found.append(SymbolHighlight(span: block.range, isDeclaration: true))
        }
        var seen = Set<Int32>()
        return found.sorted { $0.span.start < $1.span.start }.filter { seen.insert($0.span.start).inserted }
    }
}

// MARK: Selection ranges

extension NoteView {
    /// What "expand selection" grows through at `offset`, innermost first: the word, the inline
    /// spans around it (a link, emphasis, a code span), the blocks (paragraph, list item, list,
    /// quote), the sections of the headings above it (innermost first), the whole note. Each span
    /// holds the one before it; equal spans appear once.
    public func selectionRanges(at offset: Int) -> [ByteSpan] {
        let text = analysis.text
        let offset = max(0, min(offset, text.count))
        var chain: [ByteSpan] = []
        func add(_ start: Int, _ end: Int) {
            var end = min(end, text.count)
            // Blocks end with their line break; the selection stops before it.
            while end > start, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
            guard start <= offset, offset <= end else { return }
            if let last = chain.last {
                guard start <= Int(last.start), end >= Int(last.end), start < Int(last.start) || end > Int(last.end) else { return }
            }
            chain.append(ByteSpan(start, end))
        }
        // The word: letters, digits and the joiners of names.
        func isWord(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
        }
        var start = offset, end = offset
        while start > 0, isWord(text[start - 1]) { start -= 1 }
        while end < text.count, isWord(text[end]) { end += 1 }
        if start < end { add(start, end) }
        // The nodes of the tree that hold the offset, innermost first.
        let tree = analysis.tree
        var path: [NodeID] = []
        var current = SyntaxTree.root
        descent: while true {
            for child in tree.children(of: current) {
                let node = tree[child]
                if Int(node.sourceStart) <= offset && offset <= Int(node.sourceEnd) && node.sourceStart < node.sourceEnd {
                    path.append(child)
                    current = child
                    continue descent
                }
            }
            break
        }
        for id in path.reversed() {
            let node = tree[id]
            if node.kind == .text || node.kind == .softBreak { continue }
            add(Int(node.sourceStart), Int(node.sourceEnd))
        }
        // The sections: from a heading to the next of the same or a higher level.
        let headings = symbols.headings
        var sections: [ByteSpan] = []
        for (index, heading) in headings.enumerated() where Int(heading.range.start) <= offset {
            let next = headings[(index + 1)...].first { $0.level <= heading.level }.map { Int($0.range.start) } ?? text.count
            if offset <= next { sections.append(ByteSpan(Int(heading.range.start), next)) }
        }
        for section in sections.sorted(by: { $0.count < $1.count }) { add(Int(section.start), Int(section.end)) }
        add(0, text.count)
        return chain
    }
}
