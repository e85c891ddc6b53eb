// The hook through which a caller that knows the notebook (the language server's preview)
// decides where wiki-links and wiki embeds point: a table of destinations, one per wiki-link of
// the tree. MarkdownHTML knows no notebook (the layers point the other way): without a table,
// `[[note]]` points at `note` plus `HTMLOptions.wikiLinkExtension`, relative to the rendered note.
//
// Invariant: a table is made for one tree (its entries follow `SyntaxTree.wikiLinks`); the
// renderer only reads it, on any number of cores, and takes an index it lacks as "no decision".

import MarkdownSyntax
import TextCore

/// A wiki-link or embed as written, handed to the resolver of `WikiLinkDestinations.resolving`.
public struct WikiLinkReference: Sendable, Equatable {
    /// `![[…]]` rather than `[[…]]`.
    public var isEmbed: Bool
    /// The note or file as written (`soil`, `img/pic.png`); empty for `[[#Heading]]`.
    public var target: String
    /// Each `#Heading` part, outermost first, without `#`.
    public var headings: [String]
    /// The block id without `^`, when there is one.
    public var blockID: String?

    public init(isEmbed: Bool, target: String, headings: [String] = [], blockID: String? = nil) {
        self.isEmbed = isEmbed
        self.target = target
        self.headings = headings
        self.blockID = blockID
    }

    /// The wiki-link `info` of `tree` as written.
    public init(_ info: WikiLinkInfo, of tree: SyntaxTree) {
        func text(_ span: ByteSpan) -> String { String(decoding: tree.contentBytes(in: span), as: UTF8.self) }
        self.init(isEmbed: info.isEmbed, target: text(info.target), headings: info.headings.map(text),
                  blockID: info.hasBlockID ? text(info.blockID) : nil)
    }
}

/// Where a wiki-link points, as the caller decided.
public enum WikiLinkDestination: Sendable, Equatable {
    /// The `href` (or an image embed's `src`): a URL relative to the rendered note, already
    /// percent-encoded, with its `#fragment`. Written through the renderer's URL escaping.
    case url(String)
    /// Nothing matches (no such note, file, heading or block): written with the class `broken`
    /// and no `href`, so a reader sees it is broken and no click goes astray.
    case broken
    /// Several notes or files match equally well: the class `ambiguous`, and the URL of the
    /// first candidate (as `url`) when the caller has one, else no `href`.
    case ambiguous(String?)
    /// A note that is left out of the pages being made (a published site leaves out notes
    /// marked `publish: false`): its label written as text, in `<span class="unpublished">`,
    /// so neither a link nor its target's content reaches the page.
    case unpublished
    /// A note, section or block shown in place (`![[note#Heading]]`), rendered by the caller
    /// (which knows the notebook, the depth and what is already being shown).
    case embed(EmbeddedNote)
}

/// A note, a section or a block shown where a wiki embed names it. Written as
/// `<div class="embed" data-source="…">` holding a link to its source and its HTML when the
/// embed is alone in its paragraph (a paragraph of embeds); inside a sentence, and when `html`
/// is nil (a cycle, too deep, too much), it is a link to the source, marked `embed`.
public struct EmbeddedNote: Sendable, Equatable {
    /// The source's URL (relative like `WikiLinkDestination.url`, with its `#fragment`).
    public var url: String
    /// The source as the notebook names it (`garden/compost.md#ingredients`): `data-source`.
    public var source: String
    /// The name shown above the content (`compost › Ingredients`).
    public var title: String
    /// The HTML of the content, rendered by the caller; nil when it is not shown.
    public var html: [UInt8]?
    /// Why the content is not shown (the link's `title`), in the writer's language.
    public var reason: String?

    public init(url: String, source: String, title: String, html: [UInt8]?, reason: String? = nil) {
        self.url = url
        self.source = source
        self.title = title
        self.html = html
        self.reason = reason
    }
}

/// Where each wiki-link of one tree points, decided once per distinct link by a caller that knows
/// the notebook: a table the renderer reads by the link's index in `SyntaxTree.wikiLinks`, so
/// rendering (on several cores) does no look-up and builds no string per link.
public struct WikiLinkDestinations: Sendable, Equatable {
    /// One entry per element of the tree's `wikiLinks`; nil keeps the renderer's default.
    public var byIndex: [WikiLinkDestination?]

    public init(byIndex: [WikiLinkDestination?]) {
        self.byIndex = byIndex
    }

    /// The destinations of `tree`'s wiki-links: `resolve` is called once per distinct link text
    /// (a note links to the same few targets again and again), with the link's parts.
    public static func resolving(_ tree: SyntaxTree, _ resolve: (WikiLinkReference) -> WikiLinkDestination?) -> WikiLinkDestinations {
        struct Key: Hashable {
            var isEmbed: Bool
            var inner: ArraySlice<UInt8>
        }
        var known: [Key: WikiLinkDestination?] = [:]
        var result: [WikiLinkDestination?] = []
        result.reserveCapacity(tree.wikiLinks.count)
        for info in tree.wikiLinks {
            // The text between the brackets decides the destination (a label changes nothing,
            // but keying on all of it is cheaper than splitting it off).
            let key = Key(isEmbed: info.isEmbed, inner: tree.contentBytes(in: info.inner))
            if let destination = known[key] {
                result.append(destination)
                continue
            }
            let destination = resolve(WikiLinkReference(info, of: tree))
            known[key] = .some(destination)
            result.append(destination)
        }
        return WikiLinkDestinations(byIndex: result)
    }

    /// The destination of the wiki-link at `index` of the tree this table was made for; nil for
    /// the default (also for an index the table does not have).
    func destination(at index: Int32) -> WikiLinkDestination? {
        guard index >= 0, Int(index) < byIndex.count else { return nil }
        return byIndex[Int(index)]
    }
}

extension SyntaxTree {
    /// The wiki embeds of `paragraph` when it holds nothing else but the spaces and line breaks
    /// between them; nil for any other paragraph (and any other node). Where those embeds show a
    /// note, the paragraph is written as their blocks (`WikiLinkDestination.embed`).
    public func embedsAlone(in paragraph: NodeID) -> [NodeID]? {
        guard isNode(paragraph), nodes[Int(paragraph)].kind == .paragraph else { return nil }
        var links: [NodeID] = []
        var child = nodes[Int(paragraph)].firstChild
        while isNode(child) {
            let node = nodes[Int(child)]
            switch node.kind {
            case .wikiLink:
                guard let info = wikiLinkInfo(of: node), info.isEmbed else { return nil }
                links.append(child)
            case .softBreak, .hardBreak:
                break
            case .text:
                guard contentBytes(of: node).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
            default:
                return nil
            }
            child = node.next
        }
        return links.isEmpty ? nil : links
    }

    /// For each wiki-link of the tree (`wikiLinks`' order), whether it is an embed alone in its
    /// paragraph (`embedsAlone`): the embeds a page can show in place, and the only ones worth
    /// rendering for it.
    public func standaloneEmbeds() -> [Bool] {
        var result = [Bool](repeating: false, count: wikiLinks.count)
        for index in nodes.indices where nodes[index].kind == .paragraph {
            for link in embedsAlone(in: NodeID(index)) ?? [] {
                let data = Int(nodes[Int(link)].data)
                if data >= 0, data < result.count { result[data] = true }
            }
        }
        return result
    }
}
