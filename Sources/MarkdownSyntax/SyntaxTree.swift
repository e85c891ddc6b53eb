// The Markdown syntax tree: an arena of plain `Node` structs indexed by `NodeID`.
//
// Invariants of this module:
// - Parsing never fails and never traps on any input. It returns a tree plus `problems`.
// - Every node has a UTF-8 byte range in the *source* (`sourceStart..<sourceEnd`).
// - Leaf blocks and inline nodes also have a range in `content` (`contentStart..<contentEnd`):
//   the leaf block's text with container prefixes (`> `, list indentation) removed, tabs expanded
//   where the spec requires it, and every line ending normalised to "\n". The inline parser and
//   the renderer read `content`; editors read source ranges.
// - Nesting depth never becomes recursion depth: building, walking and rendering are iterative.
// - Offsets are UTF-8 byte offsets (`Int32` in storage, `Int` in API), 0-based.

import Localization
import TextCore

/// Index of a node in `SyntaxTree.nodes`. `NodeID.none` (-1) means "no node".
public typealias NodeID = Int32

extension NodeID {
    /// The absence of a node (no parent, no child, no sibling).
    public static let none: NodeID = -1
}

/// What a node is. Blocks first, then inlines.
public enum NodeKind: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    // MARK: Container blocks
    case document
    /// `flags`: `Node.alertMask` bits give a GitHub alert kind (`AlertKind`), 0 for a plain quote.
    case blockQuote
    /// `data`: start number (ordered lists). `flags`: see `Node.listOrdered`, `Node.listTight`,
    /// and the delimiter in `Node.listDelimiterMask` (`ListDelimiter`).
    case list
    /// `flags`: `Node.taskMask` bits give the task state (`TaskState`).
    case item
    /// A GFM footnote definition `[^label]: …`. `data`: index into `SyntaxTree.footnoteDefinitions`.
    case footnoteDefinition

    // MARK: Leaf blocks
    /// `data`: level 1...6. `flags`: `Node.headingSetext` when it is a setext heading.
    /// Content: the heading's inline text.
    case heading
    case paragraph
    case thematicBreak
    /// Indented or fenced code. `data`: index into `SyntaxTree.codeBlocks`. Content: the code text.
    case codeBlock
    /// Raw HTML block. Content: the HTML, line endings normalised.
    case htmlBlock
    /// `$$ … $$` or ```` ```math ```` block. `data`: index into `SyntaxTree.codeBlocks`
    /// (fence information). Content: the TeX source.
    case mathBlock
    /// Leading `---` … `---` front matter. Content: the YAML text between the fences.
    case frontMatter
    /// A link reference definition `[label]: dest "title"`; it renders nothing.
    /// `data`: index into `SyntaxTree.linkDefinitions`.
    case linkDefinition
    /// GFM table. Children: one `tableRow` (`Node.tableHeader` set) then body rows.
    case table
    /// `flags`: `Node.tableHeader` for the header row.
    case tableRow
    /// `data`: `TableAlignment` raw value. Content: the cell's inline text.
    case tableCell

    // MARK: Inlines
    /// Literal text. Content: the text as written. `flags`: `Node.textNeedsDecoding` when it
    /// contains backslash escapes or character references that the renderer must decode.
    case text
    case softBreak
    case hardBreak
    /// Code span. Content: the code with the backtick fences removed, *not yet* normalised
    /// (line endings to spaces, one leading+trailing space stripped): see `SyntaxTree.codeSpanText`.
    case code
    /// Raw inline HTML. Content: the HTML as written.
    case inlineHTML
    case emphasis
    case strong
    /// GFM `~~strike~~`.
    case strikethrough
    /// `data`: index into `SyntaxTree.links`. Children: the link text.
    case link
    /// `data`: index into `SyntaxTree.links`. Children: the image description.
    case image
    /// `<https://…>` / `<a@b.c>` or a GFM extended autolink. `data`: index into `SyntaxTree.links`.
    /// Children: one text node with the visible text.
    case autolink
    /// GFM footnote reference `[^label]`. `data`: index into `SyntaxTree.footnoteReferences`.
    case footnoteReference
    /// `[[target#heading^block|label]]` or `![[embed]]`. `data`: index into `SyntaxTree.wikiLinks`.
    case wikiLink
    /// `#tag` or `#nested/tag`. Content: the tag with its `#`.
    case tag
    /// `^block-id` at the end of a paragraph or list item. Content: the id with its `^`.
    case blockID
    /// `$…$`. Content: the TeX between the dollars.
    case inlineMath
    /// `$$…$$` inside a paragraph. Content: the TeX between the dollars.
    case displayMath

    /// True for every kind from `document` through `tableCell`.
    @inlinable public var isBlock: Bool { rawValue <= NodeKind.tableCell.rawValue }
    /// True for the leaf blocks whose content holds inline Markdown.
    @inlinable public var hasInlineContent: Bool {
        self == .paragraph || self == .heading || self == .tableCell
    }
}

/// One node of the arena. A plain value: 44 bytes, no references.
public struct Node: Sendable, Equatable {
    public var kind: NodeKind
    /// Kind-specific bits; see the constants below.
    public var flags: UInt8
    public var parent: NodeID
    public var firstChild: NodeID
    public var lastChild: NodeID
    public var next: NodeID
    public var previous: NodeID
    /// Byte range in the source.
    public var sourceStart: Int32
    public var sourceEnd: Int32
    /// Byte range in `SyntaxTree.content` (leaf blocks and inlines); empty for containers.
    /// Paragraph, heading and table-cell content excludes the final line ending; code, HTML,
    /// math and front-matter content includes a "\n" after every line.
    public var contentStart: Int32
    public var contentEnd: Int32
    /// Kind-specific value: a heading level, a list start, or an index into a side table.
    public var data: Int32

    public init(kind: NodeKind, flags: UInt8 = 0, sourceStart: Int32 = 0, sourceEnd: Int32 = 0,
                contentStart: Int32 = 0, contentEnd: Int32 = 0, data: Int32 = 0) {
        self.kind = kind
        self.flags = flags
        self.parent = .none
        self.firstChild = .none
        self.lastChild = .none
        self.next = .none
        self.previous = .none
        self.sourceStart = sourceStart
        self.sourceEnd = sourceEnd
        self.contentStart = contentStart
        self.contentEnd = contentEnd
        self.data = data
    }

    // MARK: flag bits
    /// `heading`: it is a setext heading.
    public static let headingSetext: UInt8 = 1
    /// `list`: ordered (`1.`), else bullet.
    public static let listOrdered: UInt8 = 1
    /// `list`: tight (no `<p>` around item paragraphs).
    public static let listTight: UInt8 = 2
    /// `list`: shift and mask of the `ListDelimiter`.
    public static let listDelimiterShift: UInt8 = 2
    public static let listDelimiterMask: UInt8 = 0b1_1100
    /// `item`: mask of the `TaskState`.
    public static let taskMask: UInt8 = 0b11
    /// `blockQuote`: mask of the `AlertKind`.
    public static let alertMask: UInt8 = 0b111
    /// `tableRow`: the header row.
    public static let tableHeader: UInt8 = 1
    /// `text`: contains backslash escapes or character references to decode.
    public static let textNeedsDecoding: UInt8 = 1
    /// `wikiLink`, `link`, `image`: the target could be parsed but not resolved (renderer hint).
    public static let unresolved: UInt8 = 2
}

/// Which character made a list: its bullet, or the delimiter after an ordered number.
public enum ListDelimiter: UInt8, Sendable, BitwiseCopyable {
    case dash = 0, plus, star, period, paren
}

/// A GFM task list item's box.
public enum TaskState: UInt8, Sendable {
    case none = 0, unchecked, checked
}

/// GitHub alert kinds (`> [!NOTE]`).
public enum AlertKind: UInt8, Sendable, CaseIterable {
    case none = 0, note, tip, important, warning, caution

    /// The word between `[!` and `]`, upper-case.
    public var keyword: String {
        switch self {
        case .none: return ""
        case .note: return "NOTE"
        case .tip: return "TIP"
        case .important: return "IMPORTANT"
        case .warning: return "WARNING"
        case .caution: return "CAUTION"
        }
    }
}

/// Column alignment of a GFM table cell.
public enum TableAlignment: Int32, Sendable {
    case none = 0, left, center, right
}

/// Fence information for a code or math block.
public struct CodeBlockInfo: Sendable, Equatable {
    /// True for fenced blocks; false for indented code (and `$$` math uses `fenceCharacter` `$`).
    public var isFenced: Bool
    /// `` ` ``, `~` or `$` as a byte; 0 for indented code.
    public var fenceCharacter: UInt8
    public var fenceLength: Int32
    /// Spaces of indentation before the opening fence (removed from content lines).
    public var fenceIndent: Int32
    /// The info string, in *source* bytes, trimmed; may contain escapes and entities.
    public var info: ByteSpan
    public init(isFenced: Bool, fenceCharacter: UInt8 = 0, fenceLength: Int32 = 0, fenceIndent: Int32 = 0,
                info: ByteSpan = .empty) {
        self.isFenced = isFenced
        self.fenceCharacter = fenceCharacter
        self.fenceLength = fenceLength
        self.fenceIndent = fenceIndent
        self.info = info
    }
}

/// How a link or image was written.
public enum LinkForm: UInt8, Sendable {
    /// `[text](dest "title")`
    case inline
    /// `[text][label]`
    case full
    /// `[label][]`
    case collapsed
    /// `[label]`
    case shortcut
    /// `<scheme:…>` autolink.
    case uriAutolink
    /// `<a@b.c>` autolink (destination gets `mailto:`).
    case emailAutolink
    /// GFM extended autolink: `www.…` (destination gets `http://`).
    case wwwAutolink
    /// GFM extended autolink: `https://…`.
    case urlAutolink
    /// GFM extended e-mail autolink `a@b.c` (destination gets `mailto:`); also `mailto:`/`xmpp:`.
    case extendedEmailAutolink
}

/// Everything about a link, image or autolink beyond its children. Ranges are in *content* bytes.
public struct LinkInfo: Sendable, Equatable {
    public var form: LinkForm
    /// The destination as written (without `<>`); for reference forms, empty: use `definition`.
    public var destination: ByteSpan
    /// The title as written, without its quotes; empty when there is none.
    public var title: ByteSpan
    public var hasTitle: Bool
    /// The link text between the brackets (content), excluding `[` and `]`.
    public var text: ByteSpan
    /// The reference label (without brackets) for `full`; for `collapsed`/`shortcut` the text.
    public var label: ByteSpan
    /// Index into `SyntaxTree.linkDefinitions` for reference forms, else -1.
    public var definition: Int32
    public init(form: LinkForm, destination: ByteSpan = .empty, title: ByteSpan = .empty, hasTitle: Bool = false,
                text: ByteSpan = .empty, label: ByteSpan = .empty, definition: Int32 = -1) {
        self.form = form
        self.destination = destination
        self.title = title
        self.hasTitle = hasTitle
        self.text = text
        self.label = label
        self.definition = definition
    }
}

/// A full or collapsed reference link whose label matches no definition. Ranges are in
/// *content* bytes.
public struct UndefinedReference: Sendable, Equatable {
    /// The label (without brackets).
    public var label: ByteSpan
    /// From the opening `[` to the closing `]` of the label.
    public var whole: ByteSpan
    public init(label: ByteSpan, whole: ByteSpan) {
        self.label = label
        self.whole = whole
    }
}

/// A link reference definition. Ranges are in *content* bytes (of the paragraph it came from).
public struct LinkDefinition: Sendable, Equatable {
    /// The label as written, without brackets.
    public var label: ByteSpan
    /// The normalised label used for matching (case-folded, whitespace collapsed).
    public var normalizedLabel: String
    public var destination: ByteSpan
    /// True when the destination was written in `<…>`.
    public var destinationIsPointy: Bool
    public var title: ByteSpan
    public var hasTitle: Bool
    /// The `linkDefinition` node.
    public var node: NodeID
    public init(label: ByteSpan, normalizedLabel: String, destination: ByteSpan, destinationIsPointy: Bool,
                title: ByteSpan, hasTitle: Bool, node: NodeID) {
        self.label = label
        self.normalizedLabel = normalizedLabel
        self.destination = destination
        self.destinationIsPointy = destinationIsPointy
        self.title = title
        self.hasTitle = hasTitle
        self.node = node
    }
}

/// A GFM footnote definition `[^label]: …`.
public struct FootnoteDefinition: Sendable, Equatable {
    /// The label as written (source bytes), without `[^` and `]`.
    public var label: ByteSpan
    public var normalizedLabel: String
    public var node: NodeID
    public init(label: ByteSpan, normalizedLabel: String, node: NodeID) {
        self.label = label
        self.normalizedLabel = normalizedLabel
        self.node = node
    }
}

/// A GFM footnote reference `[^label]`.
public struct FootnoteReference: Sendable, Equatable {
    /// The label (content bytes), without `[^` and `]`.
    public var label: ByteSpan
    /// Index into `SyntaxTree.footnoteDefinitions`.
    public var definition: Int32
    /// The `footnoteReference` node (the parser's references are in the order of their nodes);
    /// `.none` when whoever built the tree did not say.
    public var node: NodeID
    public init(label: ByteSpan, definition: Int32, node: NodeID = .none) {
        self.label = label
        self.definition = definition
        self.node = node
    }
}

/// A wiki-link `[[target#Heading#Sub^block|label]]` or embed `![[…]]`. Ranges are *content* bytes;
/// an absent part has an empty span and its `has…` flag false.
public struct WikiLinkInfo: Sendable, Equatable {
    public var isEmbed: Bool
    /// The note or file (may be empty for `[[#Heading]]`).
    public var target: ByteSpan
    /// Each `#Heading` part, outermost first, without `#`.
    public var headings: [ByteSpan]
    /// The block id without `^`, from `#^id` or `^id`.
    public var blockID: ByteSpan
    public var hasBlockID: Bool
    /// The label after `|`.
    public var label: ByteSpan
    public var hasLabel: Bool
    /// Everything between the brackets.
    public var inner: ByteSpan
    public init(isEmbed: Bool, target: ByteSpan, headings: [ByteSpan] = [], blockID: ByteSpan = .empty,
                hasBlockID: Bool = false, label: ByteSpan = .empty, hasLabel: Bool = false, inner: ByteSpan) {
        self.isEmbed = isEmbed
        self.target = target
        self.headings = headings
        self.blockID = blockID
        self.hasBlockID = hasBlockID
        self.label = label
        self.hasLabel = hasLabel
        self.inner = inner
    }
}

/// Something wrong in the input that parsing recovered from (never a failure).
public struct SyntaxProblem: Sendable, Equatable {
    public enum Code: String, Sendable {
        case malformedFrontMatter = "malformed-front-matter"
        case nestingLimit = "nesting-limit"
        case documentTooLarge = "document-too-large"
        case noteTooLarge = "note-too-large"
    }
    public var code: Code
    /// What a person reads, in their language when it is shown.
    public var message: LocalizedText
    /// Source byte range.
    public var range: ByteSpan
    public init(code: Code, message: LocalizedText, range: ByteSpan) {
        self.code = code
        self.message = message
        self.range = range
    }
}

/// A parsed Markdown document.
///
/// Value type; building it is the parser's job (`MarkdownParser.parse`). Node 0 is the document.
public struct SyntaxTree: Sendable {
    /// The source bytes exactly as given (not repaired: invalid UTF-8 and NUL are left in place and
    /// replaced by U+FFFD only on output).
    public var source: [UInt8]
    /// Leaf-block text the inline parser and renderer read (see the file comment).
    public var content: [UInt8]
    /// Pairs mapping content offsets to source offsets, sorted by content offset:
    /// content byte `c` at or after `contentToSource[i].content` (and before the next pair) came
    /// from source byte `contentToSource[i].source + (c - contentToSource[i].content)`.
    public var contentToSource: [(content: Int32, source: Int32)]
    public var nodes: NodeArena
    public var codeBlocks: [CodeBlockInfo]
    public var links: [LinkInfo]
    public var linkDefinitions: [LinkDefinition]
    /// Normalised label -> index into `linkDefinitions` (first definition wins).
    public var linkDefinitionIndex: [String: Int32]
    public var footnoteDefinitions: [FootnoteDefinition]
    public var footnoteReferences: [FootnoteReference]
    /// `[text][label]` and `[label][]` whose label has no definition (they render as text).
    public var undefinedReferences: [UndefinedReference] = []
    public var wikiLinks: [WikiLinkInfo]
    public var problems: [SyntaxProblem]
    /// The front matter, read as a YAML subset (notebook profile), when the note has one.
    public var frontMatter: FrontMatter?
    /// The options the tree was parsed with.
    public var options: ParseOptions

    public init(source: [UInt8], options: ParseOptions) {
        var nodes = NodeArena()
        SyntaxTree.prepare(&nodes, for: source)
        self.init(source: source, options: options, nodes: nodes)
    }

    /// Gives an empty arena room for the nodes of `source` and its document node: real Markdown
    /// averages one node per 16-20 source bytes (an array literal grown by the parser's reserve
    /// was two allocations). Done where the arena is a local of its own: once it was passed on
    /// (even `consuming`), a second reference made the reserve copy a reused arena's storage.
    private static func prepare(_ nodes: inout NodeArena, for source: [UInt8]) {
        nodes.reserveCapacity(source.count / 16 + 64)
        nodes.append(Node(kind: .document, sourceStart: 0, sourceEnd: Int32(clamping: source.count)))
    }

    /// A tree of `source` whose node arena is `nodes` (`prepare`d).
    private init(source: [UInt8], options: ParseOptions, nodes: NodeArena) {
        self.nodes = nodes
        self.source = source
        self.content = []
        self.contentToSource = []
        self.codeBlocks = []
        self.links = []
        self.linkDefinitions = []
        self.linkDefinitionIndex = [:]
        self.footnoteDefinitions = []
        self.footnoteReferences = []
        self.wikiLinks = []
        self.problems = []
        self.frontMatter = nil
        self.options = options
    }

    /// An empty tree for `source` with the arrays of `old` (a tree its reader is done with),
    /// emptied with their capacity kept: a thread parsing one note after another grows them once.
    init(source: [UInt8], options: ParseOptions, reusing old: inout SyntaxTree) {
        func take<Element>(_ array: inout [Element]) -> [Element] {
            var taken: [Element] = []
            swap(&taken, &array)
            taken.removeAll(keepingCapacity: true)
            return taken
        }
        var nodes = NodeArena()
        swap(&nodes, &old.nodes)
        nodes.removeAll(keepingCapacity: true)
        SyntaxTree.prepare(&nodes, for: source)
        self.init(source: source, options: options, nodes: nodes)
        content = take(&old.content)
        contentToSource = take(&old.contentToSource)
        codeBlocks = take(&old.codeBlocks)
        links = take(&old.links)
        linkDefinitions = take(&old.linkDefinitions)
        swap(&linkDefinitionIndex, &old.linkDefinitionIndex)
        linkDefinitionIndex.removeAll(keepingCapacity: true)
        footnoteDefinitions = take(&old.footnoteDefinitions)
        footnoteReferences = take(&old.footnoteReferences)
        undefinedReferences = take(&old.undefinedReferences)
        wikiLinks = take(&old.wikiLinks)
        problems = take(&old.problems)
    }

    /// The document node.
    public static let root: NodeID = 0

    @inlinable public subscript(id: NodeID) -> Node {
        get { nodes[Int(id)] }
        set { nodes[Int(id)] = newValue }
    }

    // MARK: Building

    /// Appends a new node with no links and returns its id.
    @discardableResult
    public mutating func makeNode(_ node: Node) -> NodeID {
        nodes.append(node)
        return NodeID(nodes.count - 1)
    }

    /// Appends `child` (a node with no parent) as the last child of `parent`.
    public mutating func appendChild(_ child: NodeID, to parent: NodeID) {
        // Indices are checked first, as the subscripts would; then the five links are written
        // in place.
        let count = nodes.count
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition(child >= 0 && Int(child) < count && parent >= 0 && Int(parent) < count, "appendChild: no such node")
        let last = nodes[Int(parent)].lastChild
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition(last == .none || (last >= 0 && Int(last) < count), "appendChild: a broken sibling link")
        nodes.makeUnique()
        arena.link(child, under: parent)
    }

    /// Inserts `node` (with no parent) right after `sibling`.
    public mutating func insert(_ node: NodeID, after sibling: NodeID) {
        let count = nodes.count
        func valid(_ id: NodeID) -> Bool { id >= 0 && Int(id) < count }
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition(valid(node) && valid(sibling), "insert: no such node")
        let n = nodes[Int(sibling)]
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition((n.next == .none || valid(n.next)) && (n.parent == .none || valid(n.parent)), "insert: a broken link")
        nodes.makeUnique()
        arena.insert(node, after: sibling)
    }

    /// Unlinks `node` from its parent and siblings (it stays in the arena, detached).
    public mutating func unlink(_ node: NodeID) {
        // Every index checked first; then the links are written in place.
        let count = nodes.count
        func valid(_ id: NodeID) -> Bool { id >= 0 && Int(id) < count }
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition(valid(node), "unlink: no such node")
        let n = nodes[Int(node)]
        let linksValid = (n.previous == .none || valid(n.previous)) && (n.next == .none || valid(n.next)) && (n.parent == .none || valid(n.parent))
        // l10n-exempt: an internal invariant, never shown to a writer
        precondition(linksValid, "unlink: a broken link")
        nodes.makeUnique()
        arena.unlink(node)
    }

    // MARK: Reading

    /// The children of `id`, in order.
    public func children(of id: NodeID) -> ChildSequence { ChildSequence(tree: self, first: nodes[Int(id)].firstChild) }

    /// Source byte range of a node.
    @inlinable public func sourceRange(of id: NodeID) -> Range<Int> {
        let n = nodes[Int(id)]
        return Int(n.sourceStart)..<Int(max(n.sourceStart, n.sourceEnd))
    }

    /// Content bytes of a node (leaf blocks and inlines).
    @inlinable public func contentBytes(of id: NodeID) -> ArraySlice<UInt8> {
        let n = nodes[Int(id)]
        return content[Int(n.contentStart)..<Int(max(n.contentStart, n.contentEnd))]
    }

    /// True when `node` is text of an image description (alt text, not visible text): an
    /// `image` among its inline ancestors, looked for up to 64 levels and never past a block.
    public func isInImageDescription(_ node: Node) -> Bool {
        var parent = node.parent
        var depth = 0
        while parent >= 0, Int(parent) < nodes.count, depth < 64 {
            let kind = nodes[Int(parent)].kind
            if kind == .image { return true }
            if kind.isBlock { return false }
            parent = nodes[Int(parent)].parent
            depth += 1
        }
        return false
    }

    /// Maps an offset in `content` to the source offset it came from.
    public func sourceOffset(forContent offset: Int) -> Int {
        var cursor = ContentSourceCursor(self)
        return cursor.sourceOffset(forContent: offset)
    }

    /// Maps a content span to a source range. The end maps as "one past the last byte", so a span
    /// that ends at a line break does not jump to the next line's start.
    public func sourceRange(forContent span: ByteSpan) -> Range<Int> {
        var cursor = ContentSourceCursor(self)
        return cursor.sourceRange(forContent: span)
    }
}

/// Content offsets mapped to the source (`SyntaxTree.sourceOffset(forContent:)`): the last pair
/// whose content offset is at or before the offset, by a binary search. A reader that maps many
/// offsets, mostly in order (the symbol extractor, the front matter), keeps one cursor: the run
/// of the last offset is kept, so an offset in the same run costs a comparison, not a search.
public struct ContentSourceCursor {
    private let pairs: [(content: Int32, source: Int32)]
    private let sourceCount: Int
    /// Content offsets `low..<high` map by adding `delta` (then clamp to the source's size).
    private var low = 0
    private var high = 0
    private var delta = 0

    public init(_ tree: SyntaxTree) {
        pairs = tree.contentToSource
        sourceCount = tree.source.count
    }

    /// `SyntaxTree.sourceOffset(forContent:)`.
    public mutating func sourceOffset(forContent offset: Int) -> Int {
        if offset < low || offset >= high {
            (low, high, delta) = pairs.withUnsafeBufferPointer { ContentSourceCursor.run(of: offset, in: $0) }
        }
        return min(offset + delta, sourceCount)
    }

    /// The run of `pairs` that holds content `offset`: content offsets `low..<high` map to the
    /// source by adding `delta`. Before the first pair, offsets map to themselves.
    static func run(of offset: Int, in pairs: UnsafeBufferPointer<(content: Int32, source: Int32)>) -> (low: Int, high: Int, delta: Int) {
        var lo = 0, hi = pairs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(pairs[mid].content) <= offset { lo = mid + 1 } else { hi = mid }
        }
        let low = lo == 0 ? Int.min : Int(pairs[lo - 1].content)
        let high = lo < pairs.count ? Int(pairs[lo].content) : Int.max
        let delta = lo == 0 ? 0 : Int(pairs[lo - 1].source) - Int(pairs[lo - 1].content)
        return (low, high, delta)
    }

    /// `SyntaxTree.sourceRange(forContent:)` over the pairs being built by the block pass.
    static func sourceRange(forContent span: ByteSpan, in pairs: UnsafeBufferPointer<(content: Int32, source: Int32)>,
                            sourceCount: Int) -> Range<Int> {
        func map(_ offset: Int) -> Int { min(offset + run(of: offset, in: pairs).delta, sourceCount) }
        let start = map(Int(span.start))
        if span.end <= span.start { return start..<start }
        let end = map(Int(span.end) - 1) + 1
        return start..<max(start, min(end, sourceCount))
    }

    /// `SyntaxTree.sourceRange(forContent:)`.
    public mutating func sourceRange(forContent span: ByteSpan) -> Range<Int> {
        let start = sourceOffset(forContent: Int(span.start))
        if span.end <= span.start { return start..<start }
        let end = sourceOffset(forContent: Int(span.end) - 1) + 1
        return start..<max(start, min(end, sourceCount))
    }
}

/// Iterates a node's children without allocating.
public struct ChildSequence: Sequence, IteratorProtocol {
    let tree: SyntaxTree
    var current: NodeID
    init(tree: SyntaxTree, first: NodeID) {
        self.tree = tree
        self.current = first
    }
    public mutating func next() -> NodeID? {
        guard current != .none else { return nil }
        let id = current
        current = tree.nodes[Int(id)].next
        return id
    }
}

/// Which syntax the parser recognises.
public struct ParseOptions: Sendable, Equatable {
    public struct Extensions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        // GFM
        public static let table = Extensions(rawValue: 1 << 0)
        public static let strikethrough = Extensions(rawValue: 1 << 1)
        public static let autolink = Extensions(rawValue: 1 << 2)
        public static let tagfilter = Extensions(rawValue: 1 << 3)
        public static let tasklist = Extensions(rawValue: 1 << 4)
        public static let footnotes = Extensions(rawValue: 1 << 5)
        public static let alerts = Extensions(rawValue: 1 << 6)
        // Notebook
        public static let frontMatter = Extensions(rawValue: 1 << 8)
        public static let wikiLinks = Extensions(rawValue: 1 << 9)
        public static let tags = Extensions(rawValue: 1 << 10)
        public static let blockIDs = Extensions(rawValue: 1 << 11)
        public static let math = Extensions(rawValue: 1 << 12)

        /// Everything GitHub adds.
        public static let gfm: Extensions = [.table, .strikethrough, .autolink, .tagfilter, .tasklist, .footnotes, .alerts]
        /// GFM plus the notebook syntax.
        public static let notebook: Extensions = gfm.union([.frontMatter, .wikiLinks, .tags, .blockIDs, .math])

        /// Names accepted by `--extensions`, as cmark-gfm spells them where it has them.
        public static let byName: [(String, Extensions)] = [
            ("table", .table), ("strikethrough", .strikethrough), ("autolink", .autolink),
            ("tagfilter", .tagfilter), ("tasklist", .tasklist), ("footnotes", .footnotes),
            ("alerts", .alerts), ("frontmatter", .frontMatter), ("wikilinks", .wikiLinks),
            ("tags", .tags), ("blockids", .blockIDs), ("math", .math),
        ]
    }

    /// A named set of extensions.
    public enum Profile: String, Sendable, CaseIterable {
        case commonmark, gfm, notebook
        public var extensions: Extensions {
            switch self {
            case .commonmark: return []
            case .gfm: return .gfm
            case .notebook: return .notebook
            }
        }
    }

    public var extensions: Extensions
    /// Container blocks (block quotes, list items, footnote definitions) nested deeper than
    /// this are not opened: their markers are read as text, and a `nestingLimit` problem says
    /// where it happened first. Nil: no bound (CommonMark has none, and every depth is linear).
    public var maximumNesting: Int? = nil
    /// A document longer than this many bytes is not parsed: its tree is the empty document
    /// with a `noteTooLarge` problem (the notebook's `maxFileSize`, so an open note over it is
    /// treated as the scan treats the file). Nil: no bound.
    public var maximumSize: Int? = nil

    public init(extensions: Extensions, maximumNesting: Int? = nil) {
        self.extensions = extensions
        self.maximumNesting = maximumNesting
    }
    public init(profile: Profile, maximumNesting: Int? = nil) {
        self.extensions = profile.extensions
        self.maximumNesting = maximumNesting
    }

    public static let commonmark = ParseOptions(profile: .commonmark)
    public static let gfm = ParseOptions(profile: .gfm)
    public static let notebook = ParseOptions(profile: .notebook)
}
