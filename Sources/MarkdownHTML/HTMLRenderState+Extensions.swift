// GFM footnotes and the notebook constructs (wiki-links, tags) of the HTML renderer.
//
// Invariants:
// - Footnotes are numbered in the order of their first reference in a document-order walk of
//   the whole tree (definitions still in place), as cmark-gfm's `process_footnotes` does;
//   unreferenced definitions are not written; the others follow the document in number order,
//   each once: a definition nested in another is written as its own entry, not inside the
//   other's (cmark-gfm unlinks every definition from its container), so the section is linear
//   in the definitions however deep they nest.
// - Every side-table index is checked; a reference without a definition is written as its text.

import MarkdownSyntax
import TextCore

extension HTMLRenderState {
    // MARK: Footnotes

    /// Assigns footnote numbers and per-definition reference ordinals.
    ///
    /// The references are read in arena order, not by walking the tree: the inline pass visits
    /// the leaf blocks in document order (blocks are made in source order) and makes each
    /// block's inlines left to right, so the arena holds footnote references in the tree's
    /// preorder. One that is not in the tree (in a block the parser unlinked) is passed over.
    /// A scan of the arena costs a few instructions a node, far fewer than a walk of the tree.
    mutating func numberFootnotes() {
        guard !tree.footnoteReferences.isEmpty, !tree.footnoteDefinitions.isEmpty else { return }
        footnoteNumbers = [Int32](repeating: 0, count: tree.footnoteDefinitions.count)
        footnoteReferenceCounts = [Int32](repeating: 0, count: tree.footnoteDefinitions.count)
        footnoteReferenceOrdinals = [Int32](repeating: 0, count: tree.footnoteReferences.count)
        var nextNumber: Int32 = 0
        // The references in the order of their nodes: the parser's list says where they are;
        // for a tree that does not, the arena is scanned (every node of a large document read
        // for a few references was a cache miss a node).
        let count = tree.nodes.count
        let referenceNodes = tree.footnoteReferences.map(\.node)
        let listed = referenceNodes.allSatisfy { $0 >= 0 && Int($0) < count }
        tree.nodes.withUnsafeBufferPointer { nodes in
            let candidates = listed ? referenceNodes.map(Int.init) : Array(nodes.indices)
            for index in candidates where nodes[index].kind == .footnoteReference {
                let node = nodes[index]
                guard isAttached(NodeID(index), in: nodes), let definition = footnoteDefinitionIndex(of: node) else { continue }
                if footnoteNumbers[definition] == 0 {
                    nextNumber += 1
                    footnoteNumbers[definition] = nextNumber
                }
                footnoteReferenceCounts[definition] += 1
                footnoteReferenceOrdinals[Int(node.data)] = footnoteReferenceCounts[definition]
            }
        }
    }

    /// True when `id`'s chain of parents reaches the root (an unlinked node's parent is none).
    private func isAttached(_ id: NodeID, in nodes: UnsafeBufferPointer<Node>) -> Bool {
        var current = id
        var steps = 0
        while current != SyntaxTree.root {
            guard current >= 0, Int(current) < nodes.count, steps < nodes.count else { return false }
            let parent = nodes[Int(current)].parent
            if parent == .none { return false }
            current = parent
            steps += 1
        }
        return true
    }

    /// The definition a reference node points to, when it exists.
    func footnoteDefinitionIndex(of node: Node) -> Int? {
        guard node.data >= 0, Int(node.data) < tree.footnoteReferences.count else { return nil }
        let definition = Int(tree.footnoteReferences[Int(node.data)].definition)
        guard definition >= 0, definition < tree.footnoteDefinitions.count else { return nil }
        return definition
    }

    /// The label of a definition as written in the source (ids are made from it).
    func footnoteLabel(definitionOf node: Node) -> ArraySlice<UInt8> {
        guard node.data >= 0, Int(node.data) < tree.footnoteDefinitions.count else { return [] }
        return sourceBytes(tree.footnoteDefinitions[Int(node.data)].label)
    }

    mutating func writeFootnoteReference(_ node: Node) {
        guard let definition = footnoteDefinitionIndex(of: node), definition < footnoteNumbers.count,
              footnoteNumbers[definition] > 0 else {
            // No definition: the reference reads as the text it was written as.
            out.literal("[^")
            if node.data >= 0, Int(node.data) < tree.footnoteReferences.count {
                out.text(contentBytes(tree.footnoteReferences[Int(node.data)].label))
            }
            out.literal("]")
            return
        }
        let label = sourceBytes(tree.footnoteDefinitions[definition].label)
        out.literal("<sup class=\"footnote-ref\"><a href=\"#")
        writeIDPrefix()
        out.literal("fn-")
        out.href(label)
        out.literal("\" id=\"")
        writeIDPrefix()
        out.literal("fnref-")
        out.href(label)
        let ordinal = footnoteReferenceOrdinals[Int(node.data)]
        if ordinal > 1 {
            out.byte(0x2D)
            out.number(Int(ordinal))
        }
        out.literal("\" data-footnote-ref>")
        out.number(Int(footnoteNumbers[definition]))
        out.literal("</a></sup>")
    }

    /// Writes the referenced definitions after the document, in number order.
    mutating func renderFootnoteSection() {
        var order: [(number: Int32, node: NodeID)] = []
        for (index, number) in footnoteNumbers.enumerated() where number > 0 {
            let node = tree.footnoteDefinitions[index].node
            if isValid(node), tree.nodes[Int(node)].kind == .footnoteDefinition { order.append((number, node)) }
        }
        guard !order.isEmpty else { return }
        order.sort { $0.number < $1.number }
        out.cr()
        out.literal("<section class=\"footnotes\" data-footnotes>\n<ol>\n")
        renderingFootnotes = true
        for entry in order {
            footnoteIndex += 1
            footnoteBeingWritten = entry.node
            walk(from: entry.node)
        }
        renderingFootnotes = false
        footnoteBeingWritten = .none
        out.literal("</ol>\n</section>\n")
    }

    /// True when no sibling after `node` is written: none, or only footnote definitions (each
    /// written as an entry of its own). Each call reads only the definitions right after `node`,
    /// so the calls for a definition's children read each sibling once.
    func isLastWritten(_ node: Node) -> Bool {
        var next = node.next
        while isValid(next) {
            if tree.nodes[Int(next)].kind != .footnoteDefinition { return false }
            next = tree.nodes[Int(next)].next
        }
        return true
    }

    /// cmark-gfm's `S_put_footnote_backref`: the links back to each reference, written once per
    /// definition (after its last paragraph, or before `</li>`).
    mutating func writeFootnoteBackReference(_ definitionNode: Node) -> Bool {
        guard writtenFootnoteIndex < footnoteIndex else { return false }
        writtenFootnoteIndex = footnoteIndex
        let label = footnoteLabel(definitionOf: definitionNode)
        let number = String(writtenFootnoteIndex)
        out.literal("<a href=\"#")
        writeIDPrefix()
        out.literal("fnref-")
        out.href(label)
        out.literal("\" class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"")
        out.literal(number)
        out.literal("\" aria-label=\"Back to reference ")
        out.literal(number)
        out.literal("\">\u{21A9}</a>")
        var count: Int32 = 0
        if definitionNode.data >= 0, Int(definitionNode.data) < footnoteReferenceCounts.count {
            count = footnoteReferenceCounts[Int(definitionNode.data)]
        }
        if count > 1 {
            for ordinal in 2...Int(count) {
                out.literal(" <a href=\"#")
                writeIDPrefix()
                out.literal("fnref-")
                out.href(label)
                out.byte(0x2D)
                out.number(ordinal)
                out.literal("\" class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"")
                out.literal("\(number)-\(ordinal)")
                out.literal("\" aria-label=\"Back to reference ")
                out.literal("\(number)-\(ordinal)")
                out.literal("\">\u{21A9}<sup class=\"footnote-ref\">")
                out.number(ordinal)
                out.literal("</sup></a>")
            }
        }
        return true
    }

    /// `HTMLOptions.idPrefix`, where an id or an in-page link to one starts.
    mutating func writeIDPrefix() {
        if !options.idPrefix.isEmpty { out.text(Array(options.idPrefix.utf8)[...]) }
    }

    // MARK: Wiki-links

    /// `note` -> `note.md`, `#Heading` -> `#heading`, `^id` -> `#^id`.
    func wikiLinkHref(_ info: WikiLinkInfo) -> [UInt8] {
        var href: [UInt8] = []
        let target = contentBytes(info.target)
        if !target.isEmpty {
            href.append(contentsOf: target)
            if WikiLinkInfo.fileExtension(of: target) == nil { href.append(contentsOf: options.wikiLinkExtension.utf8) }
        }
        // A place in this same page carries the page's id prefix; one in another page does not.
        let prefix = target.isEmpty ? options.idPrefix.utf8 : "".utf8
        if info.hasBlockID {
            href.append(0x23)
            href.append(contentsOf: prefix)
            href.append(0x5E)
            href.append(contentsOf: contentBytes(info.blockID))
        } else if let heading = info.headings.last {
            let text = String(decoding: UTF8Repair.repaired(contentBytes(heading)), as: UTF8.self)
            href.append(0x23)
            href.append(contentsOf: prefix)
            href.append(contentsOf: Slugger.slug(for: text).utf8)
        }
        return href
    }

    mutating func writeWikiLink(_ node: Node) {
        guard let info = tree.wikiLinkInfo(of: node) else {
            out.text(contentBytes(node))
            return
        }
        let label = tree.wikiLinkLabel(of: node)
        let unresolved = node.flags & Node.unresolved != 0
        let destination = options.wikiLinkDestinations?.destination(at: node.data)
        let url: [UInt8]
        var ambiguous = false
        var stoppedReason: String?
        switch destination {
        case .broken, .ambiguous(nil):
            // No href: the link reaches nothing, or nothing in particular.
            out.literal("<a class=\"wikilink")
            if info.isEmbed { out.literal(" embed") }
            out.literal(destination == .broken ? " broken\">" : " ambiguous\">")
            out.text(label[...])
            out.literal("</a>")
            return
        case .unpublished:
            out.literal("<span class=\"unpublished\">")
            out.text(label[...])
            out.literal("</span>")
            return
        case .ambiguous(let first?):
            // One of several: the first candidate, marked so a reader knows it is a guess.
            url = Array(first.utf8)
            ambiguous = true
        case .url(let resolved):
            url = Array(resolved.utf8)
        case .embed(let embedded):
            // Here, inside a sentence (a paragraph of embeds is written by `writeEmbeds`), or
            // not shown: a link to the source.
            url = Array(embedded.url.utf8)
            stoppedReason = embedded.html == nil ? embedded.reason ?? "" : nil
        case nil:
            url = []
        }
        let target = contentBytes(info.target)
        // The parser asks the same question (an image embed may sit in a link's text, a link may not).
        let isImage = WikiLinkInfo.isImageEmbed(isEmbed: info.isEmbed, target: target)
        let href = destination != nil ? url : isImage ? Array(target) : wikiLinkHref(info)
        if isImage {
            out.literal(ambiguous ? "<img class=\"wikilink-embed ambiguous\" src=\"" : "<img class=\"wikilink-embed\" src=\"")
            writeURL(href[...])
            out.literal("\" alt=\"")
            if let size = WikiLinkInfo.pictureSize(in: label, requiringPipe: false) {
                out.text(size.altLength == 0 ? target : label[..<size.altLength])
                out.byte(0x22)
                writePictureSize(width: size.width, height: size.height)
                out.literal(" />")
            } else {
                out.text(label[...])
                out.literal("\" />")
            }
            return
        }
        if info.isEmbed, !ambiguous, let ext = WikiLinkInfo.fileExtension(of: target) {
            let audio = WikiLinkInfo.audioExtensions.contains(ext)
            if audio || WikiLinkInfo.videoExtensions.contains(ext) {
                // Played in place; the link inside is what a browser without the format shows.
                out.literal(audio ? "<audio class=\"wikilink-embed\" controls=\"\" src=\"" : "<video class=\"wikilink-embed\" controls=\"\" src=\"")
                writeURL(href[...])
                out.literal("\"><a class=\"wikilink embed\" href=\"")
                writeURL(href[...])
                out.literal("\">")
                out.text(label[...])
                out.literal(audio ? "</a></audio>" : "</a></video>")
                return
            }
        }
        out.literal("<a class=\"wikilink")
        if info.isEmbed { out.literal(" embed") }
        if unresolved { out.literal(" unresolved") }
        if ambiguous { out.literal(" ambiguous") }
        if stoppedReason != nil { out.literal(" stopped") }
        out.literal("\" href=\"")
        writeURL(href[...])
        if let stoppedReason, !stoppedReason.isEmpty {
            out.literal("\" title=\"")
            out.text(Array(stoppedReason.utf8)[...])
        }
        out.literal("\">")
        out.text(label[...])
        out.literal("</a>")
    }

    /// ` width="300" height="200"` of a picture whose label or alt text gives its size.
    mutating func writePictureSize(width: Int, height: Int?) {
        out.literal(" width=\"")
        out.number(width)
        out.byte(0x22)
        if let height {
            out.literal(" height=\"")
            out.number(height)
            out.byte(0x22)
        }
    }

    /// The embeds of a paragraph that holds nothing but embeds (and the spaces and line breaks
    /// between them), each with what it shows (nil: not shown, a link), when one of them at
    /// least shows a note; nil for any other paragraph. Such a paragraph is written as its
    /// embeds' blocks instead of `<p>`: a block inside `<p>` is not HTML.
    func shownEmbeds(of paragraph: NodeID) -> [(link: NodeID, shown: EmbeddedNote?)]? {
        guard let table = options.wikiLinkDestinations, let links = tree.embedsAlone(in: paragraph) else { return nil }
        var embeds: [(link: NodeID, shown: EmbeddedNote?)] = []
        var any = false
        for link in links {
            if case .embed(let embedded)? = table.destination(at: tree.nodes[Int(link)].data), embedded.html != nil {
                embeds.append((link, embedded))
                any = true
            } else {
                embeds.append((link, nil))
            }
        }
        return any ? embeds : nil
    }

    /// Each embed shown as `<div class="embed" data-source="…">` (a link to its source, then
    /// its HTML), each other one as a link in a paragraph of its own.
    mutating func writeEmbeds(_ embeds: [(link: NodeID, shown: EmbeddedNote?)], paragraph: Node) {
        for (link, shown) in embeds {
            out.cr()
            guard let embedded = shown else {
                out.literal("<p")
                sourceLine(paragraph)
                out.byte(0x3E)
                writeWikiLink(tree.nodes[Int(link)])
                out.literal("</p>\n")
                continue
            }
            out.literal("<div class=\"embed\" data-source=\"")
            out.text(Array(embedded.source.utf8)[...])
            out.byte(0x22)
            sourceLine(paragraph)
            out.literal(">\n<p class=\"embed-source\"><a href=\"")
            writeURL(Array(embedded.url.utf8)[...])
            out.literal("\">")
            out.text(Array(embedded.title.utf8)[...])
            out.literal("</a></p>\n")
            out.raw((embedded.html ?? [])[...])
            out.cr()
            out.literal("</div>\n")
        }
    }

    // MARK: Tags

    /// `#tag` as a link to the tag (or a span when `tagLinks` is off).
    mutating func writeTag(_ tag: ArraySlice<UInt8>) {
        if options.tagLinks {
            out.literal("<a class=\"tag\" href=\"")
            if let base = options.tagPageBase { out.text(Array(base.utf8)[...]) } else { out.literal("#") }
            out.href(tag.first == 0x23 ? tag.dropFirst() : tag)
            if options.tagPageBase != nil, !options.tagPageSuffix.isEmpty { out.text(Array(options.tagPageSuffix.utf8)[...]) }
            out.literal("\">")
            out.text(tag)
            out.literal("</a>")
        } else {
            out.literal("<span class=\"tag\">")
            out.text(tag)
            out.literal("</span>")
        }
    }
}
