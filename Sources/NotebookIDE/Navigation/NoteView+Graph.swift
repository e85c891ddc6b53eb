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
