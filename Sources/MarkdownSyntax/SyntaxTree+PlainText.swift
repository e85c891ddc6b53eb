// The text a reader sees in a node's inline content, without its markup: heading ids and texts
// (the renderer, the outline, the index), page titles, and the alt text of images.
//
// Invariants:
// - One rule says what each inline kind reads as (`plainTextPiece`); the two uses differ only
//   where the HTML they stand for differs (see `PlainTextUse`).
// - No output option changes plain text: a heading's text and id are the same for every caller.
// - Walks are iterative and stay inside the subtree they start from; every side-table index and
//   content span is checked, so nothing here traps on any tree.
// - `plainText(of:)` is valid UTF-8: NUL and ill-formed sequences become U+FFFD the way cmark
//   repairs output (`UTF8Repair`), over the whole text at once (a sequence cut by a code span
//   still reads as one character, as it did when the renderer owned this code).

import TextCore

/// A heading as a reader sees it: its plain text and the `id` the HTML gives it.
public struct HeadingAnchor: Sendable, Equatable {
    public var node: NodeID
    public var level: Int
    public var text: String
    public var id: String

    public init(node: NodeID, level: Int, text: String, id: String) {
        self.node = node
        self.level = level
        self.text = text
        self.id = id
    }
}

/// What plain text is made for: the rules differ where the HTML the text stands for differs.
public enum PlainTextUse: Sendable {
    /// The text a reader sees (heading ids and texts, titles). GitHub makes ids from rendered
    /// text, in which images, raw HTML, footnote references and block ids show no text.
    case visibleText
    /// An image's description, written as its `alt` (cmark's "plain" mode): raw HTML is written
    /// as it stands and nested images give their own descriptions.
    case imageDescription
}

/// What one node gives to plain text.
public enum PlainTextPiece {
    /// These bytes (not yet repaired: NUL or ill-formed UTF-8 may remain).
    case text(ArraySlice<UInt8>)
    /// The plain text of the node's children, in order.
    case children
    /// Nothing, children included.
    case nothing
}

extension SyntaxTree {
    /// Every heading in document order with its plain text and its GitHub-style id (repeats
    /// numbered by one `Slugger`): the ids the renderer writes and the index and outline use.
    public func headingAnchors() -> [HeadingAnchor] {
        var slugs = Slugger()
        var anchors: [HeadingAnchor] = []
        for index in nodes.indices where nodes[index].kind == .heading {
            // Detached nodes (none are headings today) have no parent; skip them defensively.
            guard nodes[index].parent != .none else { continue }
            let id = NodeID(index)
            let text = plainText(of: id)
            anchors.append(HeadingAnchor(node: id, level: Int(nodes[index].data), text: text, id: slugs.slug(for: text)))
        }
        return anchors
    }

    /// The plain text of a node's inline content as a reader sees it (`PlainTextUse.visibleText`):
    /// a heading's text, from which its id is made.
    public func plainText(of root: NodeID) -> String {
        guard isNode(root) else { return "" }
        let rootNode = nodes[Int(root)]
        // Most headings are one run of text with nothing to decode: their String is made
        // straight from the content, with no buffer in between.
        if isNode(rootNode.firstChild), rootNode.firstChild == rootNode.lastChild {
            let only = nodes[Int(rootNode.firstChild)]
            if only.kind == .text, only.flags & Node.textNeedsDecoding == 0, rootNode.kind != .autolink {
                return String(decoding: UTF8Repair.repaired(contentBytes(of: only)), as: UTF8.self)
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, rootNode.contentEnd - rootNode.contentStart)))
        var current = rootNode.firstChild
        while isNode(current) {
            var entersChildren = false
            switch plainTextPiece(of: nodes[Int(current)], for: .visibleText) {
            case .text(let piece): bytes.append(contentsOf: piece)
            case .children: entersChildren = true
            case .nothing: break
            }
            current = nextInPreorder(current, within: root, enteringChildren: entersChildren)
        }
        return String(decoding: UTF8Repair.repaired(bytes[...]), as: UTF8.self)
    }

    /// What `node` gives to plain text made for `use`.
    public func plainTextPiece(of node: Node, for use: PlainTextUse) -> PlainTextPiece {
        switch node.kind {
        case .text:
            return .text(decodedText(of: node))
        case .code:
            return .text(codeSpanText(of: node))
        case .inlineMath, .displayMath, .tag:
            return .text(contentBytes(of: node))
        case .inlineHTML:
            return use == .imageDescription ? .text(contentBytes(of: node)) : .nothing
        case .softBreak, .hardBreak:
            return .text(SyntaxTree.plainTextSpace[...])
        case .wikiLink:
            return .text(wikiLinkLabel(of: node)[...])
        case .image:
            return use == .imageDescription ? .children : .nothing
        case .footnoteReference, .blockID:
            return .nothing
        default:
            return use == .imageDescription && node.kind.isBlock ? .nothing : .children
        }
    }

    /// A line break in plain text.
    static let plainTextSpace: [UInt8] = [0x20]

    // MARK: Inline text

    /// The text of a text node as it reads: escapes and character references decoded, except
    /// in autolinks (`<…>` autolinks decode references only, extended autolinks nothing).
    @inlinable
    public func decodedText(of node: Node) -> ArraySlice<UInt8> {
        let parent = node.parent
        let inAutolink = parent >= 0 && Int(parent) < nodes.count && nodes[Int(parent)].kind == .autolink
        if node.flags & Node.textNeedsDecoding == 0 && !inAutolink { return contentBytes(of: node) }
        return decodedText(of: node, inAutolink: inAutolink)
    }

    /// `decodedText(of:)` for text that may need decoding.
    @usableFromInline
    func decodedText(of node: Node, inAutolink: Bool) -> ArraySlice<UInt8> {
        let bytes = contentBytes(of: node)
        var form: LinkForm? = nil
        if inAutolink {
            let autolink = nodes[Int(node.parent)]
            if autolink.data >= 0, Int(autolink.data) < links.count { form = links[Int(autolink.data)].form }
        }
        // The text of `<…>` autolinks is entity-decoded whether or not the parser flagged it.
        let isPointyAutolink = form == .some(.uriAutolink) || form == .some(.emailAutolink)
        guard node.flags & Node.textNeedsDecoding != 0 || isPointyAutolink else { return bytes }
        // Most autolinks hold no reference to decode.
        if isPointyAutolink && !bytes.withUnsafeBufferPointer({ $0.contains(0x26) }) { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        switch form {
        case .none:
            CharacterReferences.decode(bytes, into: &result)
        case .some(.uriAutolink), .some(.emailAutolink):
            CharacterReferences.decodeEntities(bytes, into: &result)
        default:
            return bytes
        }
        return result[...]
    }

    /// A code span's text: line endings become spaces, and one space is stripped from each end
    /// when both ends have one and the text is not all spaces.
    public func codeSpanText(of node: Node) -> ArraySlice<UInt8> {
        let text = contentBytes(of: node)
        if let range = text.withUnsafeBufferPointer({ Self.codeSpanRange(in: $0) }) {
            return text[(text.startIndex + range.lowerBound)..<(text.startIndex + range.upperBound)]
        }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(text.count)
        text.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let value = buffer[i]
                if value == 0x0D {
                    normalized.append(0x20)
                    if i + 1 < buffer.count, buffer[i + 1] == 0x0A { i += 1 }
                } else if value == 0x0A {
                    normalized.append(0x20)
                } else {
                    normalized.append(value)
                }
                i += 1
            }
        }
        let range = normalized.withUnsafeBufferPointer { Self.codeSpanRange(in: $0) } ?? 0..<normalized.count
        return normalized[range]
    }

    /// The part of a code span's content that is its text, when the content has no line ending
    /// (nil: it has one, and needs `codeSpanText`'s copy): all of it, or one space less at each
    /// end when both ends have one and it is not all spaces. A word-at-a-time search for the
    /// line ending, as the renderer asks for every code span: a generic `contains` per byte and
    /// a pass for a non-space made it one of rendering's costly steps.
    @inlinable
    public static func codeSpanRange(in text: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = text.baseAddress else { return 0..<0 }
        let count = text.count
        // Content has only "\n" for line endings: a search for one byte.
        guard ByteSearch.firstIndex(of: 0x0A, in: base, from: 0, end: count) == count else { return nil }
        guard count >= 2, base[0] == 0x20, base[count - 1] == 0x20, text.contains(where: { $0 != 0x20 }) else { return 0..<count }
        return 1..<(count - 1)
    }

    /// The side-table entry of a `wikiLink` node, when its index is valid.
    public func wikiLinkInfo(of node: Node) -> WikiLinkInfo? {
        guard node.data >= 0, Int(node.data) < wikiLinks.count else { return nil }
        return wikiLinks[Int(node.data)]
    }

    /// A wiki-link's visible text: the label after `|`, else `target > Heading > ^block`.
    public func wikiLinkLabel(of node: Node) -> [UInt8] {
        guard let info = wikiLinkInfo(of: node) else { return Array(contentBytes(of: node)) }
        if info.hasLabel { return Array(contentBytes(in: info.label)) }
        var parts: [ArraySlice<UInt8>] = []
        if !info.target.isEmpty { parts.append(contentBytes(in: info.target)) }
        for heading in info.headings { parts.append(contentBytes(in: heading)) }
        var result: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(contentsOf: " > ".utf8) }
            result.append(contentsOf: part)
        }
        if info.hasBlockID {
            if !result.isEmpty { result.append(contentsOf: " > ".utf8) }
            result.append(0x5E)
            result.append(contentsOf: contentBytes(in: info.blockID))
        }
        return result
    }

    // MARK: Reading safely

    /// The content bytes of `span`, clamped to `content` (never traps).
    @inlinable
    public func contentBytes(in span: ByteSpan) -> ArraySlice<UInt8> {
        let start = max(0, min(Int(span.start), content.count))
        let end = max(start, min(Int(span.end), content.count))
        return content[start..<end]
    }

    /// The content bytes of `node`, clamped to `content` (never traps, unlike
    /// `contentBytes(of:)` with an id, which trusts a node the parser made).
    @inlinable
    public func contentBytes(of node: Node) -> ArraySlice<UInt8> {
        let start = max(0, min(Int(node.contentStart), content.count))
        let end = max(start, min(Int(node.contentEnd), content.count))
        return content[start..<end]
    }

    /// True when `id` names a node of the arena.
    @inlinable
    public func isNode(_ id: NodeID) -> Bool { id >= 0 && Int(id) < nodes.count }

    /// The node after `id` in document order that is still inside `root`'s subtree (`.none`
    /// after its last): `id`'s first child when `enteringChildren` and it has one, else the next
    /// sibling of `id` or of its nearest ancestor below `root` that has one. Never recurses.
    public func nextInPreorder(_ id: NodeID, within root: NodeID, enteringChildren: Bool = true) -> NodeID {
        guard isNode(id) else { return .none }
        if enteringChildren, isNode(nodes[Int(id)].firstChild) { return nodes[Int(id)].firstChild }
        var climb = id
        while isNode(climb), climb != root {
            let climbed = nodes[Int(climb)]
            if isNode(climbed.next) { return climbed.next }
            climb = climbed.parent
        }
        return .none
    }
}
