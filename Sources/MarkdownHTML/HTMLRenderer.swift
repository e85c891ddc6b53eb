// HTML renderer over the syntax tree.
//
// Invariants:
// - Output is byte-identical to cmark (CommonMark) and cmark-gfm 0.29.0.gfm.13 (GFM extensions)
//   with `--unsafe` for the spec suites; everything beyond them (alerts, notebook syntax, heading
//   ids, source lines, safe mode) is opt-in through the tree's extensions or `HTMLOptions`.
// - The walk is iterative (enter/exit events over parent/firstChild/next links): nesting depth
//   never becomes recursion depth. Only the footnote section starts a second walk, one level deep.
// - Rendering never traps: every side-table index is checked before use.
// - Output is valid UTF-8 (`HTMLWriter` repairs NUL and invalid sequences as U+FFFD).

import Localization
import MarkdownSyntax
import TextCore

/// Renders a `SyntaxTree` to HTML.
public struct HTMLRenderer: Sendable {
    /// How to render.
    public var options: HTMLOptions

    public init(options: HTMLOptions = HTMLOptions()) {
        self.options = options
    }

    /// The HTML of `tree` as UTF-8 bytes.
    public func render(_ tree: SyntaxTree) -> [UInt8] {
        var state = HTMLRenderState(tree: tree, options: options)
        state.renderDocument()
        return state.out.bytes
    }

    /// Streams the HTML of `tree` to `sink` in chunks of about `chunkSize` bytes, so output
    /// never has to fit in memory at once (`macmd render` writes each chunk to stdout).
    public func render(_ tree: SyntaxTree, chunkSize: Int = 1 << 16,
                       to sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        var state = HTMLRenderState(tree: tree, options: options, outputCapacity: chunkSize + chunkSize / 2)
        state.out.sink = sink
        state.out.chunkSize = max(1, chunkSize)
        state.renderDocument()
        state.out.flush()
    }

    /// The HTML of `tree` as a string.
    public func renderString(_ tree: SyntaxTree) -> String {
        String(decoding: render(tree), as: UTF8.self)
    }
}

/// What to do after entering a node.
enum EnterAction {
    /// Visit the children, then call `exit`.
    case descend
    /// Do not visit the children, but call `exit`.
    case leaf
    /// Do not visit the children and do not call `exit` (the node rendered completely or not at all).
    case skip
}

/// The mutable state of one rendering. Non-copyable, as its writer is.
struct HTMLRenderState: ~Copyable {
    let tree: SyntaxTree
    let options: HTMLOptions
    let extensions: ParseOptions.Extensions
    var out: HTMLWriter

    /// The image whose alt text is being written: inside it only plain text is written.
    var plainRoot: NodeID = .none
    /// True between entering and leaving an autolink (its one child, the visible text, is
    /// written decoded).
    var insideAutolink = false
    /// True between `<tbody>` and `</table>` (tables do not nest: cells hold inlines only).
    var needsClosingTableBody = false
    /// `tree.content` while a walk runs (empty outside one).
    var contentBuffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// Footnote numbers by definition index (0: never referenced), in reference order.
    var footnoteNumbers: [Int32] = []
    /// References per definition.
    var footnoteReferenceCounts: [Int32] = []
    /// For each footnote reference, which reference to its definition it is (1-based).
    var footnoteReferenceOrdinals: [Int32] = []
    /// True while writing the footnote section (definitions are skipped in the main walk).
    var renderingFootnotes = false
    /// The definition the footnote section is writing: a definition nested in it is skipped
    /// there (it has its own entry), as cmark-gfm moves every definition out of its container.
    var footnoteBeingWritten: NodeID = .none
    /// cmark-gfm's `footnote_ix` and `written_footnote_ix`.
    var footnoteIndex: Int32 = 0
    var writtenFootnoteIndex: Int32 = 0
    var slugs = Slugger()
    /// Heading ids worked out beforehand (parallel rendering: each half cannot know how many
    /// times the other half used a slug); nil to slug while walking.
    var headingIDTable: [NodeID: String]?
    /// Line starts of the source (built only for `sourceLines`): TextCore's one line splitter.
    var lines: LineIndex?
    /// The size written at the end of the alt text of the image being written (notebook
    /// profile): the text node it ends, how much of that node is alt text, width and height.
    var pictureSize: (textNode: NodeID, altLength: Int, width: Int, height: Int?)?
    /// Where each formula's MathML is made before it is copied into `out` (`HTMLOptions.math`),
    /// reused for every formula.
    var mathScratch: [UInt8] = []

    /// `lines`, when given, is the source's `LineIndex` (built once and shared by the pieces
    /// of a parallel rendering); otherwise it is built here when `sourceLines` needs it.
    init(tree: SyntaxTree, options: HTMLOptions, outputCapacity: Int? = nil, lines: LineIndex? = nil) {
        self.tree = tree
        self.options = options
        self.extensions = tree.options.extensions
        // HTML runs about 1.4x the size of its Markdown; reserving that avoids a doubling copy.
        self.out = HTMLWriter(capacity: outputCapacity ?? (tree.source.count + tree.source.count / 2 + 64))
        if options.sourceLines { self.lines = lines ?? LineIndex(utf8: tree.source) }
    }

    // MARK: Document

    mutating func renderDocument() {
        guard !tree.nodes.isEmpty else { return }
        if options.fullPage { writePageHeader() }
        numberFootnotes()
        walk(from: SyntaxTree.root)
        renderFootnoteSection()
        if options.fullPage { writePageFooter() }
    }

    mutating func writePageFooter() {
        if let statistics = options.pageStatistics {
            out.literal("<footer class=\"page-statistics\">")
            out.text(Array(statistics.text(in: options.locale).utf8)[...])
            out.literal("</footer>\n")
        }
        out.literal("</article>\n</body>\n</html>\n")
    }

    /// Visits the subtree of `root` in document order with enter and exit events, with the
    /// tree's content bytes at hand (`contentBuffer`) for the text that needs no decoding.
    mutating func walk(from root: NodeID) {
        guard isValid(root) else { return }
        let content = tree.content
        let nodes = tree.nodes
        content.withUnsafeBufferPointer { buffer in
            nodes.withUnsafeBufferPointer { nodes in
                let outer = contentBuffer
                contentBuffer = buffer
                defer { contentBuffer = outer }
                walkNodes(from: root, nodes)
            }
        }
    }

    /// Writes the content of `node` as text, from the tree's buffer (the writer may read the
    /// bytes around it, which lets short texts take its sixteen-byte steps).
    @inline(__always)
    mutating func writeContentText(of node: Node) {
        out.text(in: contentBuffer, from: Int(node.contentStart), to: Int(node.contentEnd))
    }

    /// The content bytes of `node` straight from the tree's buffer (no slice to retain and
    /// release for each text node), clamped as `SyntaxTree.contentBytes(of:)` clamps.
    @inline(__always)
    func contentBuffer(of node: Node) -> UnsafeBufferPointer<UInt8> {
        let start = max(0, min(Int(node.contentStart), contentBuffer.count))
        let end = max(start, min(Int(node.contentEnd), contentBuffer.count))
        return UnsafeBufferPointer(rebasing: contentBuffer[start..<end])
    }

    /// The walk of `walk(from:)` over the arena's nodes (`nodes`, the tree's).
    private mutating func walkNodes(from root: NodeID, _ nodes: UnsafeBufferPointer<Node>) {
        let count = UInt32(truncatingIfNeeded: nodes.count)
        func isValid(_ id: NodeID) -> Bool { UInt32(bitPattern: id) < count }
        var current = root
        var entering = true
        while true {
            let node = nodes[Int(current)]
            if entering && node.kind == .text && node.flags & Node.textNeedsDecoding == 0 && plainRoot < 0 && !insideAutolink {
                // Text, a node in two, written here, not through `enter`.
                writeContentText(of: node)
            } else if entering {
                switch enter(current, node) {
                case .descend:
                    if isValid(node.firstChild) {
                        current = node.firstChild
                        continue
                    }
                    exit(current, node)
                case .leaf:
                    exit(current, node)
                case .skip:
                    break
                }
            } else {
                exit(current, node)
            }
            if current == root { break }
            out.flushIfFull()
            if isValid(node.next) {
                current = node.next
                entering = true
            } else {
                current = node.parent
                entering = false
                if !isValid(current) { break }
            }
        }
    }

    @inline(__always)
    func isValid(_ id: NodeID) -> Bool { tree.isNode(id) }

    // MARK: Enter and exit

    mutating func enter(_ id: NodeID, _ node: Node) -> EnterAction {
        if isValid(plainRoot) { return enterPlain(id, node) }
        switch node.kind {
        case .document:
            return .descend
        case .blockQuote:
            let alert = AlertKind(rawValue: node.flags & Node.alertMask) ?? .none
            out.cr()
            if alert != .none {
                let name = alert.keyword.lowercased()
                out.literal("<div class=\"markdown-alert markdown-alert-")
                out.literal(name)
                out.byte(0x22)
                sourceLine(node)
                out.literal(">\n<p class=\"markdown-alert-title\">")
                out.literal(name.prefix(1).uppercased() + name.dropFirst())
                out.literal("</p>\n")
            } else {
                out.literal("<blockquote")
                sourceLine(node)
                out.literal(">\n")
            }
            return .descend
        case .list:
            out.cr()
            if node.flags & Node.listOrdered == 0 {
                out.literal("<ul")
            } else if node.data == 1 {
                out.literal("<ol")
            } else {
                out.literal("<ol start=\"")
                out.number(Int(node.data))
                out.byte(0x22)
            }
            sourceLine(node)
            out.literal(">\n")
            return .descend
        case .item:
            out.cr()
            out.literal("<li")
            sourceLine(node)
            out.byte(0x3E)
            switch TaskState(rawValue: node.flags & Node.taskMask) ?? .none {
            case .none: break
            case .unchecked: out.literal("<input type=\"checkbox\" disabled=\"\" /> ")
            case .checked: out.literal("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> ")
            }
            return .descend
        case .footnoteDefinition:
            guard renderingFootnotes, id == footnoteBeingWritten else { return .skip }
            out.literal("<li id=\"")
            writeIDPrefix()
            out.literal("fn-")
            out.href(footnoteLabel(definitionOf: node))
            out.literal("\">\n")
            return .descend
        case .heading:
            out.cr()
            out.literal("<h")
            out.byte(0x30 &+ UInt8(clamping: min(max(node.data, 1), 6)))
            if options.headingIDs {
                out.literal(" id=\"")
                writeIDPrefix()
                if let known = headingIDTable?[id] {
                    out.text(Array(known.utf8)[...])
                } else {
                    out.text(Array(slugs.slug(for: tree.plainText(of: id)).utf8)[...])
                }
                out.byte(0x22)
            }
            sourceLine(node)
            out.byte(0x3E)
            return .descend
        case .paragraph:
            if let embeds = shownEmbeds(of: id) {
                writeEmbeds(embeds, paragraph: node)
                return .skip
            }
            if !isTight(node) {
                out.cr()
                out.literal("<p")
                sourceLine(node)
                out.byte(0x3E)
            }
            return .descend
        case .thematicBreak:
            out.cr()
            out.literal("<hr")
            sourceLine(node)
            out.literal(" />\n")
            return .skip
        case .codeBlock:
            renderCodeBlock(node)
            return .skip
        case .mathBlock:
            writeMathBlock(node, tex: tree.contentBytes(of: id))
            return .skip
        case .htmlBlock:
            out.cr()
            if options.safe {
                out.literal("<!-- raw HTML omitted -->")
            } else if extensions.contains(.tagfilter) {
                writeFilteredHTML(tree.contentBytes(of: id))
            } else {
                out.raw(tree.contentBytes(of: id))
            }
            out.cr()
            return .skip
        case .frontMatter, .linkDefinition:
            return .skip
        case .table:
            out.cr()
            out.literal("<table")
            sourceLine(node)
            out.byte(0x3E)
            needsClosingTableBody = false
            return .descend
        case .tableRow:
            out.cr()
            if node.flags & Node.tableHeader != 0 {
                out.literal("<thead>")
                out.cr()
            } else if !needsClosingTableBody {
                out.literal("<tbody>")
                out.cr()
                needsClosingTableBody = true
            }
            out.literal("<tr")
            sourceLine(node)
            out.byte(0x3E)
            return .descend
        case .tableCell:
            out.cr()
            out.literal(isHeaderCell(node) ? "<th" : "<td")
            switch (TableAlignment(rawValue: node.data) ?? .none, options.alignmentClasses) {
            case (.none, _): break
            case (.left, false): out.literal(" align=\"left\"")
            case (.center, false): out.literal(" align=\"center\"")
            case (.right, false): out.literal(" align=\"right\"")
            case (.left, true): out.literal(" class=\"align-left\"")
            case (.center, true): out.literal(" class=\"align-center\"")
            case (.right, true): out.literal(" class=\"align-right\"")
            }
            sourceLine(node)
            out.byte(0x3E)
            return .descend
        case .text:
            if node.flags & Node.textNeedsDecoding == 0, !insideAutolink {
                writeContentText(of: node)
            } else {
                out.text(tree.decodedText(of: node))
            }
            return .skip
        case .softBreak:
            out.byte(0x0A)
            return .skip
        case .hardBreak:
            out.literal("<br />\n")
            return .skip
        case .code:
            out.literal("<code>")
            let content = contentBuffer(of: node)
            if let range = SyntaxTree.codeSpanRange(in: content) {
                out.text(UnsafeBufferPointer(rebasing: content[range]))
            } else {
                out.text(tree.codeSpanText(of: node))
            }
            out.literal("</code>")
            return .skip
        case .inlineHTML:
            writeInlineHTML(tree.contentBytes(of: id))
            return .skip
        case .emphasis:
            out.literal("<em>")
            return .descend
        case .strong:
            if !collapsesStrong(node) { out.literal("<strong>") }
            return .descend
        case .strikethrough:
            out.literal("<del>")
            return .descend
        case .link, .autolink:
            if node.kind == .autolink { insideAutolink = true }
            let target = linkTarget(node)
            if let mark = mark(of: node, target.destination) {
                out.literal(mark == .broken ? "<a class=\"broken\">" : "<span class=\"unpublished\">")
                return .descend
            }
            out.literal("<a href=\"")
            writeURL(rewritten(target.destination))
            if !target.title.isEmpty {
                out.literal("\" title=\"")
                out.text(target.title)
            }
            out.literal("\">")
            return .descend
        case .image:
            let target = linkTarget(node)
            out.literal("<img src=\"")
            writeURL(rewritten(target.destination))
            out.literal("\" alt=\"")
            plainRoot = id
            pictureSize = extensions.contains(.wikiLinks) ? markdownPictureSize(of: node) : nil
            return .descend
        case .footnoteReference:
            writeFootnoteReference(node)
            return .skip
        case .wikiLink:
            writeWikiLink(node)
            return .skip
        case .tag:
            writeTag(tree.contentBytes(of: id))
            return .skip
        case .blockID:
            let bytes = tree.contentBytes(of: id)
            if options.blockIDAnchors {
                out.literal("<span class=\"block-id\" id=\"")
                writeIDPrefix()
                out.text(bytes)
                out.literal("\"></span>")
            }
            return .skip
        case .inlineMath:
            writeInlineMath(tree.contentBytes(of: id), display: false)
            return .skip
        case .displayMath:
            writeInlineMath(tree.contentBytes(of: id), display: true)
            return .skip
        }
    }

    mutating func exit(_ id: NodeID, _ node: Node) {
        if isValid(plainRoot) {
            guard id == plainRoot else { return }
            plainRoot = .none
        }
        switch node.kind {
        case .blockQuote:
            out.cr()
            if node.flags & Node.alertMask != 0 {
                out.literal("</div>\n")
            } else {
                out.literal("</blockquote>\n")
            }
        case .list:
            out.literal(node.flags & Node.listOrdered == 0 ? "</ul>\n" : "</ol>\n")
        case .item:
            out.literal("</li>\n")
        case .footnoteDefinition:
            if writeFootnoteBackReference(node) { out.byte(0x0A) }
            out.literal("</li>\n")
        case .heading:
            out.literal("</h")
            out.byte(0x30 &+ UInt8(clamping: min(max(node.data, 1), 6)))
            out.literal(">\n")
        case .paragraph:
            if !isTight(node) {
                if isValid(node.parent), tree.nodes[Int(node.parent)].kind == .footnoteDefinition, isLastWritten(node) {
                    out.byte(0x20)
                    _ = writeFootnoteBackReference(tree.nodes[Int(node.parent)])
                }
                out.literal("</p>\n")
            }
        case .table:
            if needsClosingTableBody {
                out.cr()
                out.literal("</tbody>")
                out.cr()
            }
            needsClosingTableBody = false
            out.cr()
            out.literal("</table>")
            out.cr()
        case .tableRow:
            out.cr()
            out.literal("</tr>")
            if node.flags & Node.tableHeader != 0 {
                out.cr()
                out.literal("</thead>")
            }
        case .tableCell:
            out.literal(isHeaderCell(node) ? "</th>" : "</td>")
        case .emphasis:
            out.literal("</em>")
        case .strong:
            if !collapsesStrong(node) { out.literal("</strong>") }
        case .strikethrough:
            out.literal("</del>")
        case .link, .autolink:
            if node.kind == .autolink { insideAutolink = false }
            out.literal(mark(of: node, linkTarget(node).destination) == .unpublished ? "</span>" : "</a>")
        case .image:
            let target = linkTarget(node)
            if !target.title.isEmpty {
                out.literal("\" title=\"")
                out.text(target.title)
            }
            if let size = pictureSize {
                out.byte(0x22)
                writePictureSize(width: size.width, height: size.height)
                out.literal(" />")
                pictureSize = nil
            } else {
                out.literal("\" />")
            }
        default:
            break
        }
    }

    /// Inside an image description only text is written (cmark's "plain" mode), by the same
    /// rule as heading text (`SyntaxTree.plainTextPiece`).
    mutating func enterPlain(_ id: NodeID, _ node: Node) -> EnterAction {
        switch tree.plainTextPiece(of: node, for: .imageDescription) {
        case .text(let text):
            // The size at the end of the alt text (`![Map|300](map.png)`) is no text.
            if let size = pictureSize, size.textNode == id {
                out.text(text.prefix(size.altLength))
            } else {
                out.text(text)
            }
            return .skip
        case .children:
            return .descend
        case .nothing:
            return .skip
        }
    }

    /// Obsidian's size at the end of an image's alt text (`![Map|300x200](map.png)`): in its
    /// last child, a text node; nil when there is none.
    func markdownPictureSize(of image: Node) -> (textNode: NodeID, altLength: Int, width: Int, height: Int?)? {
        var last = image.firstChild
        guard isValid(last) else { return nil }
        while isValid(tree.nodes[Int(last)].next) { last = tree.nodes[Int(last)].next }
        let node = tree.nodes[Int(last)]
        guard node.kind == .text else { return nil }
        let text = contentBytes(node)
        guard let size = WikiLinkInfo.pictureSize(in: text, requiringPipe: true) else { return nil }
        return (last, size.altLength, size.width, size.height)
    }

    // MARK: Blocks

    /// Paragraphs of tight list items render without `<p>` (cmark: the grandparent is a tight list).
    @inline(__always)
    func isTight(_ node: Node) -> Bool {
        guard isValid(node.parent) else { return false }
        let grandparent = tree.nodes[Int(node.parent)].parent
        guard isValid(grandparent) else { return false }
        let list = tree.nodes[Int(grandparent)]
        return list.kind == .list && list.flags & Node.listTight != 0
    }

    func isHeaderCell(_ node: Node) -> Bool {
        isValid(node.parent) && tree.nodes[Int(node.parent)].flags & Node.tableHeader != 0
    }

    mutating func renderCodeBlock(_ node: Node) {
        let bytes = contentBytes(node)
        var language: [UInt8] = []
        if node.data >= 0, Int(node.data) < tree.codeBlocks.count {
            let info = tree.codeBlocks[Int(node.data)].info
            if !info.isEmpty, info.start >= 0, Int(info.end) <= tree.source.count {
                language = CharacterReferences.decoded(tree.source[info.range])
            }
        }
        // cmark writes `class="language-"` with the first word, even when that word is empty.
        var firstWordEnd = 0
        while firstWordEnd < language.count, !HTMLRenderState.isSpace(language[firstWordEnd]) { firstWordEnd += 1 }
        if extensions.contains(.math), language.count > 0, language[0..<firstWordEnd].elementsEqual("math".utf8) {
            writeMathBlock(node, tex: bytes)
            return
        }
        out.cr()
        out.literal("<pre")
        sourceLine(node)
        if language.isEmpty {
            out.literal("><code>")
        } else {
            // cmark (since 0.31) does not repeat a `language-` prefix the author already wrote.
            out.literal(language.starts(with: "language-".utf8) ? "><code class=\"" : "><code class=\"language-")
            out.text(language[0..<firstWordEnd])
            out.literal("\">")
        }
        if options.highlightCode, let highlighted = CodeHighlighter.Language(infoWord: language[0..<firstWordEnd]) {
            CodeHighlighter.highlight(bytes, as: highlighted, into: &out)
        } else {
            writeContentText(of: node)
        }
        out.literal("</code></pre>\n")
    }

    /// cmark-gfm's tag filter for raw HTML blocks: `<` of a disallowed tag becomes `&lt;`.
    mutating func writeFilteredHTML(_ html: ArraySlice<UInt8>) {
        var start = html.startIndex
        var i = html.startIndex
        while i < html.endIndex {
            if html[i] == 0x3C, HTMLRenderState.isFilteredTag(html[i...]) {
                out.raw(html[start..<i])
                out.literal("&lt;")
                start = i + 1
            }
            i += 1
        }
        out.raw(html[start..<html.endIndex])
    }

    mutating func writeInlineHTML(_ html: ArraySlice<UInt8>) {
        if options.safe {
            out.literal("<!-- raw HTML omitted -->")
        } else if extensions.contains(.tagfilter), HTMLRenderState.isFilteredTag(html) {
            out.literal("&lt;")
            out.raw(html.dropFirst())
        } else {
            out.raw(html)
        }
    }

    static let filteredTags: [[UInt8]] = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes",
                                          "script", "plaintext"].map { Array($0.utf8) }

    /// True when `html` starts with `<name` or `</name` of a tag GitHub filters, followed by
    /// white space, `>` or `/>` (cmark-gfm's `is_tag`).
    static func isFilteredTag(_ html: ArraySlice<UInt8>) -> Bool {
        guard html.count >= 3, html.first == 0x3C else { return false }
        var nameStart = html.startIndex + 1
        if html[nameStart] == 0x2F { nameStart += 1 }
        tags: for name in filteredTags {
            var i = nameStart
            for letter in name {
                guard i < html.endIndex else { continue tags }
                let value = html[i]
                let lower = (value >= 0x41 && value <= 0x5A) ? value | 0x20 : value
                if lower != letter { continue tags }
                i += 1
            }
            guard i < html.endIndex else { continue }
            let next = html[i]
            if isSpace(next) || next == 0x3E { return true }
            if next == 0x2F, i + 1 < html.endIndex, html[i + 1] == 0x3E { return true }
        }
        return false
    }

    /// cmark's `cmark_isspace`: space, tab, LF, VT, FF, CR.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    func trimmingFinalNewline(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.last == 0x0A ? bytes.dropLast() : bytes
    }

    // MARK: Inlines

    @inline(__always)
    func contentBytes(_ node: Node) -> ArraySlice<UInt8> { tree.contentBytes(of: node) }

    @inline(__always)
    func contentBytes(_ span: ByteSpan) -> ArraySlice<UInt8> { tree.contentBytes(in: span) }

    func sourceBytes(_ span: ByteSpan) -> ArraySlice<UInt8> {
        let start = max(0, min(Int(span.start), tree.source.count))
        let end = max(start, min(Int(span.end), tree.source.count))
        return tree.source[start..<end]
    }

    func collapsesStrong(_ node: Node) -> Bool {
        options.collapseNestedStrong && isValid(node.parent) && tree.nodes[Int(node.parent)].kind == .strong
    }

    // MARK: Links

    /// `destination`, or the URL `HTMLOptions.linkDestinations` gives for it.
    func rewritten(_ destination: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        if !options.idPrefix.isEmpty, destination.first == 0x23 {
            // A place in this page: its id carries the page's prefix.
            return ([0x23] + Array(options.idPrefix.utf8) + destination.dropFirst())[...]
        }
        guard !options.linkDestinations.isEmpty,
              let url = options.linkDestinations[String(decoding: destination, as: UTF8.self)] else { return destination }
        return Array(url.utf8)[...]
    }

    /// Why the link `node` (to `destination`) is written without its URL, if it is
    /// (`HTMLOptions.markedLinks`); nil, at the cost of one emptiness check, for most pages.
    @inline(__always)
    func mark(of node: Node, _ destination: ArraySlice<UInt8>) -> LinkMark? {
        guard !options.markedLinks.isEmpty, node.kind == .link else { return nil }
        return options.markedLinks[String(decoding: destination, as: UTF8.self)]
    }

    /// A link's decoded destination and title: slices of the content when there was nothing to
    /// decode (most links), so writing a link allocates nothing.
    struct LinkTarget {
        var destination: ArraySlice<UInt8> = []
        var title: ArraySlice<UInt8> = []
    }

    /// `bytes` with character references (and backslash escapes, with `escapes`) decoded: the
    /// bytes themselves when they hold no `&` (nor `\`).
    private func decoded(_ bytes: ArraySlice<UInt8>, escapes: Bool) -> ArraySlice<UInt8> {
        let plain = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            // Eight bytes a step: every link's URL is tested.
            let stop = escapes ? ByteSearch.firstIndex(ofAny: 0x26, 0x5C, 0x26, in: base, from: 0, end: buffer.count)
                : ByteSearch.firstIndex(of: 0x26, in: base, from: 0, end: buffer.count)
            return stop == buffer.count
        }
        if plain { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        if escapes { CharacterReferences.decode(bytes, into: &output) } else { CharacterReferences.decodeEntities(bytes, into: &output) }
        return output[...]
    }

    /// `prefix` followed by `bytes`.
    private func prefixed(_ prefix: StaticString, _ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var output: [UInt8] = []
        output.reserveCapacity(prefix.utf8CodeUnitCount + bytes.count)
        output.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        output.append(contentsOf: bytes)
        return output[...]
    }

    func linkTarget(_ node: Node) -> LinkTarget {
        var target = LinkTarget()
        guard node.data >= 0, Int(node.data) < tree.links.count else { return target }
        let info = tree.links[Int(node.data)]
        switch info.form {
        case .inline:
            target.destination = decoded(contentBytes(info.destination), escapes: true)
            if info.hasTitle { target.title = decoded(contentBytes(info.title), escapes: true) }
        case .full, .collapsed, .shortcut:
            if info.definition >= 0, Int(info.definition) < tree.linkDefinitions.count {
                let definition = tree.linkDefinitions[Int(info.definition)]
                target.destination = decoded(contentBytes(definition.destination), escapes: true)
                if definition.hasTitle { target.title = decoded(contentBytes(definition.title), escapes: true) }
            } else {
                target.destination = decoded(contentBytes(info.destination), escapes: true)
                if info.hasTitle { target.title = decoded(contentBytes(info.title), escapes: true) }
            }
        case .uriAutolink:
            target.destination = decoded(contentBytes(info.destination), escapes: false)
        case .emailAutolink:
            target.destination = prefixed("mailto:", decoded(contentBytes(info.destination), escapes: false))
        case .wwwAutolink:
            target.destination = prefixed("http://", contentBytes(info.destination))
        case .urlAutolink:
            target.destination = contentBytes(info.destination)
        case .extendedEmailAutolink:
            let bytes = contentBytes(info.destination)
            if HTMLRenderState.hasPrefix(bytes, "mailto:") || HTMLRenderState.hasPrefix(bytes, "xmpp:") {
                target.destination = bytes
            } else {
                target.destination = prefixed("mailto:", bytes)
            }
        }
        return target
    }

    /// Writes an `href`/`src` value; in safe mode a dangerous URL is written as nothing. The
    /// check reads the URL as written, before `HTMLOptions.resourceBase` makes a relative one
    /// absolute (`resolvedURL`).
    mutating func writeURL(_ url: ArraySlice<UInt8>) {
        if options.safe && HTMLRenderState.isDangerousURL(url) { return }
        out.href(resolvedURL(url))
    }

    /// cmark's `_scan_dangerous_url`: `javascript:`, `vbscript:`, `file:`, and `data:` unless it is
    /// `data:image/png|gif|jpeg|webp`.
    static func isDangerousURL(_ url: ArraySlice<UInt8>) -> Bool {
        if hasPrefix(url, "javascript:") || hasPrefix(url, "vbscript:") || hasPrefix(url, "file:") { return true }
        guard hasPrefix(url, "data:") else { return false }
        let rest = url.dropFirst(5)
        return !(hasPrefix(rest, "image/png") || hasPrefix(rest, "image/gif") || hasPrefix(rest, "image/jpeg")
                 || hasPrefix(rest, "image/webp"))
    }

    /// ASCII case-insensitive prefix test; `prefix` is lower-case ASCII (`ByteSearch.hasPrefix`).
    @inline(__always)
    static func hasPrefix(_ bytes: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { ByteSearch.hasPrefix($0, from: 0, to: $0.count, prefix, ignoringCase: true) }
    }

    // MARK: Source lines

    @inline(__always)
    mutating func sourceLine(_ node: Node) {
        if options.sourceLines { writeSourceLine(node) }
    }

    @inline(never)
    private mutating func writeSourceLine(_ node: Node) {
        out.literal(" data-source-line=\"")
        out.number(lineNumber(ofSourceOffset: Int(node.sourceStart)))
        out.byte(0x22)
    }

    /// 1-based line of a source offset.
    func lineNumber(ofSourceOffset offset: Int) -> Int {
        (lines?.line(containingUTF8Offset: offset) ?? 0) + 1
    }

    // MARK: Page

    mutating func writePageHeader() {
        var title = options.title ?? ""
        if options.title == nil {
            if let heading = tree.nodes.indices.first(where: { tree.nodes[$0].kind == .heading }) {
                title = tree.plainText(of: NodeID(heading))
            }
            if title.isEmpty { title = "Untitled" }
        }
        out.literal("<!DOCTYPE html>\n<html data-theme=\"")
        out.literal(options.theme.rawValue)
        out.literal("\">\n<head>\n<meta charset=\"utf-8\">\n")
        out.literal("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        out.literal("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        out.literal(options.contentSecurityPolicy)
        out.literal("\">\n")
        writeBaseElement()
        out.literal("<title>")
        out.text(Array(title.utf8)[...])
        out.literal("</title>\n<style>\n")
        out.literal(options.theme.stylesheet)
        out.literal("</style>\n</head>\n<body>\n<article class=\"markdown-body\">\n")
    }
}
