// The block pass: reads the source line by line and builds the block structure (CommonMark 0.31.2
// "phase 1", plus GFM tables, task items, footnote definitions, alerts, and notebook front matter
// and math blocks).
//
// Invariants:
// - Never traps and never recurses on input: open blocks live on an explicit stack.
// - Work per line is O(number of containers the line really has to match); a blank line inside
//   a deep stack of list items skips the items in O(log depth) (`stoppers`), so 30,000 blank
//   lines in a 30,000-deep list stay linear.
// - "Last line blank" bookkeeping is O(1) per line: each set gets a counter stamp and a node's
//   value is read at finalisation against the newest stamp among its descendants (carried up to
//   the parent as each child closes), which gives exactly cmark's "clear every ancestor"
//   semantics without walking the ancestors or the children.
// - Leaf content is appended to `content` (the parser's buffer, `tree.content` at the end of the
//   pass) with line endings normalised to "\n", and every appended run is recorded in
//   `contentMap` (`contentMap` at the end of the pass).

import Localization
import TextCore

struct BlockParser: ~Copyable {
    let options: ParseOptions

    /// An open block on the stack. Fields are stored in 40 bytes (the widest first, counts in 32
    /// bits): a block is copied when it is pushed, matched against a line and closed.
    struct OpenBlock {
        /// Source offset just past the last line that belongs to this block.
        var lastLineEnd: Int
        var node: NodeID
        /// How many quotes, items and footnote definitions this block is inside, itself
        /// included (set by `push`; `ParseOptions.maximumNesting` bounds it).
        var nesting: Int32 = 0
        private var storedContentIndent: Int32
        private var storedFenceLength: Int32
        private var storedFenceIndent: Int32
        var kind: NodeKind
        /// Fenced code / math: fence character, length and indentation.
        var fenceCharacter: UInt8
        var isFenced: Bool
        private var storedHTMLType: UInt8
        /// Lists: bullet or delimiter, to decide whether a new item continues the list.
        var listDelimiter: ListDelimiter
        var listOrdered: Bool

        init(node: NodeID, kind: NodeKind, contentIndent: Int = 0, fenceCharacter: UInt8 = 0, fenceLength: Int = 0,
             fenceIndent: Int = 0, isFenced: Bool = false, htmlType: Int = 0, listDelimiter: ListDelimiter = .dash,
             listOrdered: Bool = false, lastLineEnd: Int = 0) {
            self.lastLineEnd = lastLineEnd
            self.node = node
            storedContentIndent = Int32(clamping: contentIndent)
            storedFenceLength = Int32(clamping: fenceLength)
            storedFenceIndent = Int32(clamping: fenceIndent)
            self.kind = kind
            self.fenceCharacter = fenceCharacter
            self.isFenced = isFenced
            storedHTMLType = UInt8(clamping: htmlType)
            self.listDelimiter = listDelimiter
            self.listOrdered = listOrdered
        }

        /// Items: marker offset + padding, in columns. Footnote definitions: 4.
        var contentIndent: Int { Int(storedContentIndent) }
        var fenceLength: Int { Int(storedFenceLength) }
        var fenceIndent: Int { Int(storedFenceIndent) }
        /// HTML blocks: the start condition (1...7).
        var htmlType: Int { Int(storedHTMLType) }
    }

    /// Per-node bookkeeping while parsing (indexed by NodeID).
    struct Meta {
        // Ordered so the struct packs into 16 bytes (one per block node while parsing).
        var startLine: Int32 = 0
        var blankStamp: Int32 = 0
        var newestDescendantStamp: Int32 = 0
        var blankValue: Bool = false
        /// -1 unknown, 0 false, 1 true.
        var endsWithBlankMemo: Int8 = -1
    }

    var open = ScratchArray<OpenBlock>()
    /// The content the pass has made so far (see the file comment).
    var content = ScratchArray<UInt8>()
    /// Content offsets mapped to the source so far (`SyntaxTree.contentToSource`).
    var contentMap = ScratchArray<(content: Int32, source: Int32)>()
    /// The size of the source.
    var sourceCount = 0
    /// Indices into `open` of blocks that do not match an empty line remainder (sorted).
    var stoppers = ScratchArray<Int>()
    var meta = ScratchArray<Meta>()
    var stamp: Int32 = 0

    // Line state (cmark's names).
    var lineNumber = 0
    var lineStart = 0
    var lineEnd = 0
    var offset = 0
    var column = 0
    var partiallyConsumedTab = false
    var nextNonspace = 0
    var nextNonspaceColumn = 0
    var indent = 0
    var blank = false
    /// A thematic-break scan from before this offset already failed on this line.
    var thematicBreakKill = 0
    /// The block new children go into while this line opens blocks (index into `open`), and
    /// whether the blocks the line did not match are closed yet. Stored properties, not locals
    /// captured by a closure: captured locals cost a runtime exclusivity check per access.
    var lineContainer = 0
    var lineClosedUnmatched = true
    /// Whether a container past the nesting bound was reported (once per document).
    var nestingReported = false

    var bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Column alignments of the open GFM table.
    var tableAlignments: [TableAlignment] = []

    init(options: ParseOptions) { self.options = options }

    /// The arrays a parse grows, handed from one document's parser to the next one's on the same
    /// thread (`MarkdownParser.ParseScratch`): each parse empties them, keeping their capacity.
    struct Buffers: ~Copyable {
        var open = ScratchArray<OpenBlock>()
        var content = ScratchArray<UInt8>()
        var contentMap = ScratchArray<(content: Int32, source: Int32)>()
        var stoppers = ScratchArray<Int>()
        var meta = ScratchArray<Meta>()
    }

    /// A parser for a new document with the arrays of an earlier one (taken from `buffers`).
    init(options: ParseOptions, reusing buffers: inout Buffers) {
        self.options = options
        giveBuffers(to: &buffers)
    }

    /// Hands this parser's arrays to `buffers` for the next document, taking theirs.
    mutating func giveBuffers(to buffers: inout Buffers) {
        swap(&open, &buffers.open)
        swap(&content, &buffers.content)
        swap(&contentMap, &buffers.contentMap)
        swap(&stoppers, &buffers.stoppers)
        swap(&meta, &buffers.meta)
    }

    // MARK: Driver

    mutating func parse(into tree: inout SyntaxTree) {
        let source = tree.source
        content.removeAll()
        content.reserveCapacity(source.count + 16)
        // (The tree made room for its nodes.) About a run per line that is not copied whole
        // (list items, quotes, indented lines): growing from none took seven allocations a note.
        contentMap.removeAll()
        contentMap.reserveCapacity(source.count / 32 + 16)
        sourceCount = source.count
        meta.removeAll()
        meta.reserveCapacity(source.count / 24 + 64)
        meta.append(Meta())
        open.removeAll()
        open.reserveCapacity(16)
        open.append(OpenBlock(node: SyntaxTree.root, kind: .document))
        stoppers.removeAll()
        source.withUnsafeBufferPointer { buffer in
            bytes = buffer
            let count = buffer.count
            // A UTF-8 byte order mark is not content (cmark skips it too).
            var position = count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            if options.extensions.contains(.frontMatter) {
                position = parseFrontMatter(from: position, into: &tree)
            }
            // Without a carriage return anywhere (most text), a line ends at the next "\n", which
            // one compare a byte finds faster than a search for either byte.
            let hasReturn = buffer.baseAddress.map { ByteSearch.firstIndex(of: byteReturn, in: $0, from: 0, end: count) < count } ?? false
            while position < count {
                // Find the end of this line and the start of the next.
                let end = buffer.baseAddress.map {
                    hasReturn ? ByteSearch.lineEnd($0, from: position, end: count) : ByteSearch.firstIndex(of: byteNewline, in: $0, from: position, end: count)
                } ?? count
                var next = end
                if next < count {
                    if buffer[next] == byteReturn, next + 1 < count, buffer[next + 1] == byteNewline { next += 2 } else { next += 1 }
                }
                processLine(start: position, end: end, into: &tree)
                position = next
            }
            // Close everything.
            while open.count > 1 { closeTop(into: &tree) }
            finalize(open[0], into: &tree)
            bytes = UnsafeBufferPointer(start: nil, count: 0)
        }
        tree.arena[0].sourceEnd = Int32(clamping: source.count)
        // The content goes to the tree in one copy: appending to the tree's array run by run
        // cost a uniqueness check and a call to the array's generic append for each run.
        tree.contentToSource.removeAll(keepingCapacity: true)
        contentMap.withUnsafeBufferPointer { tree.contentToSource.append(contentsOf: $0) }
        let count = content.count
        if tree.content.capacity >= count {
            tree.content.removeAll(keepingCapacity: true)
            content.withUnsafeBufferPointer { tree.content.append(contentsOf: $0) }
        } else {
            tree.content = content.withUnsafeBufferPointer { made in
                [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
                    HugePages.advise(UnsafeMutableRawPointer(target.baseAddress), byteCount: count)
                    if let from = made.baseAddress, let to = target.baseAddress { to.initialize(from: from, count: count) }
                    initialized = count
                }
            }
        }
    }

    /// The source offset content `offset` came from (`SyntaxTree.sourceOffset(forContent:)`
    /// while the content is being made).
    func sourceOffset(forContent offset: Int) -> Int {
        contentMap.withUnsafeBufferPointer { min(offset + ContentSourceCursor.run(of: offset, in: $0).delta, sourceCount) }
    }

    /// `SyntaxTree.sourceRange(forContent:)` while the content is being made.
    func sourceRange(forContent span: ByteSpan) -> Range<Int> {
        contentMap.withUnsafeBufferPointer { ContentSourceCursor.sourceRange(forContent: span, in: $0, sourceCount: sourceCount) }
    }

    /// Frees the content buffer and the bookkeeping per node (a parse whose buffers are not kept
    /// for another: the tree holds the content now).
    mutating func releaseBuffers() {
        content = ScratchArray()
        contentMap = ScratchArray()
        meta = ScratchArray()
    }

    // MARK: Offsets and columns

    @inline(__always)
    mutating func findNextNonspace() {
        // Reuse the last scan while it is still at or ahead of `offset` (cmark rescans when it
        // is at `offset`; it finds the same byte): containers that only consume indentation
        // would otherwise rescan it, O(depth²) per line. At `offset` the byte there is not a
        // space or tab, so no tab was consumed in part and `column` is the scan's column.
        if nextNonspace >= offset {
            indent = nextNonspaceColumn - column
            blank = nextNonspace >= lineEnd
            return
        }
        var charsToTab = 4 - (column % 4)
        var i = offset
        var col = column
        while i < lineEnd {
            let c = bytes[i]
            if c == byteSpace {
                i += 1
                col += 1
                charsToTab -= 1
                if charsToTab == 0 { charsToTab = 4 }
            } else if c == byteTab {
                i += 1
                col += charsToTab
                charsToTab = 4
            } else {
                break
            }
        }
        nextNonspace = i
        nextNonspaceColumn = col
        indent = col - column
        blank = i >= lineEnd
    }

    /// Advances by `count` bytes, or by `count` columns when `columns` (a tab may then be
    /// consumed partially).
    mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < lineEnd {
            if bytes[offset] == byteTab {
                let charsToTab = 4 - (column % 4)
                if columns {
                    partiallyConsumedTab = charsToTab > count
                    let step = min(count, charsToTab)
                    column += step
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= step
                } else {
                    partiallyConsumedTab = false
                    column += charsToTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    mutating func advanceToNextNonspace() {
        advance(nextNonspace - offset, columns: false)
    }

    // MARK: Stack

    /// Opens `block`, made on this line and so without children yet. Every block but a list is
    /// a stopper then: items and footnote definitions stop being one at their first child
    /// (`addChild`).
    mutating func push(_ block: OpenBlock) {
        var block = block
        let isContainer = block.kind == .blockQuote || block.kind == .item || block.kind == .footnoteDefinition
        block.nesting = (open.last?.nesting ?? 0) + (isContainer ? 1 : 0)
        open.append(block)
        if block.kind != .list { stoppers.append(open.count - 1) }
    }

    mutating func newNode(_ kind: NodeKind, start: Int, into tree: inout SyntaxTree) -> NodeID {
        let id = tree.buildNode(Node(kind: kind, sourceStart: Int32(clamping: start), sourceEnd: Int32(clamping: lineEnd)))
        meta.append(Meta(startLine: Int32(clamping: lineNumber)))
        return id
    }

    /// Adds a child block of `kind` to the deepest open block that can hold it, closing the
    /// ones that cannot.
    mutating func addChild(_ kind: NodeKind, start: Int, into tree: inout SyntaxTree) -> NodeID {
        while open.count > 1 && !canContain(open[open.count - 1].kind, kind) {
            closeTop(into: &tree)
        }
        let parentIndex = open.count - 1
        let parent = open[parentIndex]
        let id = newNode(kind, start: start, into: &tree)
        let parentHadNoChild = tree.arena[parent.node].firstChild == .none
        tree.arena.link(id, under: parent.node)
        if parentHadNoChild, parent.kind == .item || parent.kind == .footnoteDefinition,
           stoppers.last == parentIndex {
            stoppers.removeLast()
        }
        return id
    }

    func canContain(_ parent: NodeKind, _ child: NodeKind) -> Bool {
        switch parent {
        case .document, .blockQuote, .item, .footnoteDefinition: return child != .item
        case .list: return child == .item
        default: return false
        }
    }

    mutating func closeTop(into tree: inout SyntaxTree) {
        guard open.count > 1 else { return }
        let block = open.removeLast()
        while let last = stoppers.last, last >= open.count { stoppers.removeLast() }
        finalize(block, into: &tree)
        // The parent now ends no earlier than this child.
        let parentIndex = open.count - 1
        // Its newest stamp among descendants takes this child's (a child that finalising took
        // out of the tree, a paragraph of link reference definitions only, counts for nothing):
        // kept up to date as children close, not gathered by a walk over them at the end.
        if tree.arena[block.node].parent != .none {
            let child = meta[Int(block.node)]
            let parent = Int(open[parentIndex].node)
            meta[parent].newestDescendantStamp = max(meta[parent].newestDescendantStamp, child.blankStamp, child.newestDescendantStamp)
        }
        let end = max(open[parentIndex].lastLineEnd, Int(tree.arena[block.node].sourceEnd))
        open[parentIndex].lastLineEnd = end
    }

    /// Before the first new child of a line: closes the open blocks the line did not match.
    mutating func closeUnmatchedOnce(into tree: inout SyntaxTree) {
        if !lineClosedUnmatched {
            closeUnmatched(downTo: lineContainer, into: &tree)
            lineClosedUnmatched = true
        }
    }

    mutating func closeUnmatched(downTo depth: Int, into tree: inout SyntaxTree) {
        while open.count - 1 > depth { closeTop(into: &tree) }
    }

    // MARK: Last line blank

    mutating func setLastLineBlank(_ id: NodeID, _ value: Bool) {
        stamp &+= 1
        meta[Int(id)].blankStamp = stamp
        meta[Int(id)].blankValue = value
    }

    func lastLineBlank(_ id: NodeID) -> Bool {
        let m = meta[Int(id)]
        return m.blankStamp > m.newestDescendantStamp ? m.blankValue : false
    }

    mutating func endsWithBlankLine(_ id: NodeID, _ nodes: NodeSlots) -> Bool {
        // Walk down last children of lists and items, then walk the same way again memoising
        // the answer (no array of the nodes passed: this runs for every list item).
        var current = id
        var result = false
        while current != .none {
            let m = meta[Int(current)].endsWithBlankMemo
            if m >= 0 { result = m == 1; break }
            if lastLineBlank(current) { result = true; meta[Int(current)].endsWithBlankMemo = 1; break }
            let kind = nodes[current].kind
            guard kind == .list || kind == .item else { break }
            current = nodes[current].lastChild
        }
        current = id
        while current != .none, meta[Int(current)].endsWithBlankMemo < 0 {
            meta[Int(current)].endsWithBlankMemo = result ? 1 : 0
            let kind = nodes[current].kind
            guard kind == .list || kind == .item else { break }
            current = nodes[current].lastChild
        }
        return result
    }

    // MARK: One line

    /// How far a line continued the open blocks (`continueOpenBlocks`).
    struct LineMatch {
        /// Index into `open` of the deepest block the line continued (0: the document).
        var matched: Int
        /// True when the line continued every open block.
        var allMatched: Bool
    }

    /// What a line does to one open block (`continues`).
    enum Continuation {
        /// The line continues the block; its marker or indentation is consumed.
        case continued
        /// The line does not continue the block (nor, then, any block inside it).
        case notContinued
        /// The line closed the block (a closing fence) and nothing else is left to do with it.
        case usedLine
    }

    /// What one block start did (`openBlockStart`).
    enum BlockStart {
        /// Opened a container (quote, list item, footnote definition): another block may start
        /// after its marker.
        case container
        /// Opened or made a leaf block; `usesLine` when the start took the whole line (a heading,
        /// a fence, a thematic break, a table's delimiter row), so no text is left to add.
        case leaf(usesLine: Bool)
        /// Nothing starts here: the rest of the line is text.
        case none
    }

    /// One line, in cmark's phases (`S_process_line`): continue the open blocks, open the blocks
    /// that start on the line, then either add the line to the tip paragraph as a lazy
    /// continuation, or close the blocks the line did not continue and add its text.
    ///
    /// The phases that run on every line are `@inline(__always)`: left as calls they spill the
    /// line state around each call, on every line. The openers of particular blocks run once per
    /// block and are left to the compiler.
    mutating func processLine(start: Int, end: Int, into tree: inout SyntaxTree) {
        beginLine(start: start, end: end)
        guard let match = continueOpenBlocks(into: &tree) else { return }
        let tipIndex = open.count - 1
        let tipIsParagraph = open[tipIndex].kind == .paragraph
        lineContainer = match.matched
        lineClosedUnmatched = match.allMatched
        // Most lines begin (after at most three spaces) with a byte no block start begins with:
        // nothing opens, which `openBlockStart` would find too, after a call.
        findNextNonspace()
        let opensNothing = indent < 4 && !BlockParser.mayStartBlock(nextNonspace < lineEnd ? bytes[nextNonspace] : 0)
        let lineUsed = opensNothing ? false : openNewBlocks(allMatched: match.allMatched, tipIsParagraph: tipIsParagraph, into: &tree)
        findNextNonspace()
        if !lineUsed && continuesParagraphLazily(match, tipIndex: tipIndex, tipIsParagraph: tipIsParagraph) {
            addParagraphLine(tipIndex, into: &tree)
            return
        }
        if !lineClosedUnmatched {
            closeUnmatched(downTo: lineContainer, into: &tree)
        }
        recordLastLineBlank(into: &tree)
        if lineUsed {
            finishUsedLine(into: &tree)
        } else {
            addLineText(into: &tree)
        }
    }

    /// Resets the line state for the line `start..<end` (its line ending excluded).
    @inline(__always)
    mutating func beginLine(start: Int, end: Int) {
        lineNumber += 1
        lineStart = start
        lineEnd = end
        offset = start
        column = 0
        partiallyConsumedTab = false
        blank = false
        nextNonspace = -1
        thematicBreakKill = 0
    }

    // MARK: Phase 1: continue the open blocks

    /// cmark's `check_open_blocks`: from the outermost open block inwards, consumes the marker or
    /// indentation with which the line continues each block, and stops at the first block the
    /// line does not continue. Returns how far the line got; nil when it closed a fenced block,
    /// which uses the whole line.
    @inline(__always)
    mutating func continueOpenBlocks(into tree: inout SyntaxTree) -> LineMatch? {
        var matched = 0
        var index = 1
        while index < open.count {
            if offset >= lineEnd && !partiallyConsumedTab {
                // Nothing left on the line: lists and items with content match trivially.
                let nextStopper = firstStopper(atOrAfter: index)
                if nextStopper > index {
                    matched = nextStopper - 1
                    index = nextStopper
                    continue
                }
            }
            findNextNonspace()
            switch continues(open[index], at: index, into: &tree) {
            case .continued:
                matched = index
                index += 1
            case .notContinued:
                return LineMatch(matched: matched, allMatched: false)
            case .usedLine:
                return nil
            }
        }
        return LineMatch(matched: matched, allMatched: true)
    }

    /// The index of the first stopper at `index` or deeper (`open.count` when there is none).
    /// Every block between `index` and it matches an empty rest of line, so a blank line skips
    /// them with this binary search: O(log depth), not O(depth).
    @inline(__always)
    func firstStopper(atOrAfter index: Int) -> Int {
        var lo = 0, hi = stoppers.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if stoppers[mid] < index { lo = mid + 1 } else { hi = mid }
        }
        return lo < stoppers.count ? stoppers[lo] : open.count
    }

    /// Whether the line continues `block` (`open[index]`), consuming its marker or indentation
    /// (cmark's `parse_*_prefix`): a quote needs `>`; an item or footnote definition its content
    /// indentation, or a blank line once it has content; indented code four columns or a blank
    /// line; fenced code and math take any line, and their closing fence closes them and uses
    /// the line. Paragraphs, tables and HTML blocks of types 6 and 7 end at a blank line (a
    /// table also at a line that is not a row); headings, thematic breaks, front matter and
    /// definitions are one-off blocks that no line continues.
    @inline(__always)
    mutating func continues(_ block: OpenBlock, at index: Int, into tree: inout SyntaxTree) -> Continuation {
        switch block.kind {
        case .blockQuote:
            guard indent <= 3 && nextNonspace < lineEnd && bytes[nextNonspace] == UInt8(ascii: ">") else { return .notContinued }
            consumeBlockQuoteMarker()
        case .item, .footnoteDefinition:
            if indent >= block.contentIndent {
                advance(block.contentIndent, columns: true)
            } else if blank && tree.arena[block.node].firstChild != .none {
                advanceToNextNonspace()
            } else {
                return .notContinued
            }
        case .codeBlock, .mathBlock:
            if block.isFenced {
                if indent <= 3 && nextNonspace < lineEnd && bytes[nextNonspace] == block.fenceCharacter
                    && BlockScanners.closingFence(bytes, nextNonspace, lineEnd, character: block.fenceCharacter,
                                                  minimum: block.fenceLength) {
                    // The closing fence ends the block and the line.
                    open[index].lastLineEnd = lineEnd
                    closeUnmatched(downTo: index - 1, into: &tree)
                    return .usedLine
                }
                if block.fenceCharacter == UInt8(ascii: "$") && closesDollarMath(into: &tree, index: index) {
                    return .usedLine
                }
                var remaining = block.fenceIndent
                while remaining > 0 && offset < lineEnd && isSpaceOrTab(bytes[offset]) {
                    advance(1, columns: true)
                    remaining -= 1
                }
            } else if indent >= 4 {
                advance(4, columns: true)
            } else if blank {
                advanceToNextNonspace()
            } else {
                return .notContinued
            }
        case .heading, .thematicBreak, .frontMatter, .linkDefinition:
            return .notContinued
        case .htmlBlock:
            if blank && block.htmlType >= 6 { return .notContinued }
        case .paragraph:
            if blank { return .notContinued }
        case .table:
            if blank || !tableRowMatches() { return .notContinued }
        default:
            break
        }
        return .continued
    }

    /// Consumes a block quote's `>` at the first non-space and the one space or tab (or column
    /// of a tab) after it.
    @inline(__always)
    mutating func consumeBlockQuoteMarker() {
        advance(nextNonspace + 1 - offset, columns: false)
        if offset < lineEnd && isSpaceOrTab(bytes[offset]) { advance(1, columns: true) }
    }

    // MARK: Phase 2: open new blocks

    /// cmark's `open_new_blocks`: opens the blocks that start on the line inside the deepest
    /// continued one, containers first, until a leaf block starts or the rest is text; each new
    /// block becomes the container of what follows (`lineContainer`). The first new block closes
    /// the blocks the line did not continue. Returns true when a block start used the whole line.
    @inline(__always)
    mutating func openNewBlocks(allMatched: Bool, tipIsParagraph: Bool, into tree: inout SyntaxTree) -> Bool {
        // The line may still be a lazy continuation of the tip paragraph until a container opens.
        var maybeLazy = tipIsParagraph
        while true {
            // A new block is the innermost open one (a setext heading is the paragraph that
            // already was; a one-line `$$ … $$` closed again, leaving its parent).
            switch openBlockStart(allMatched: allMatched, maybeLazy: maybeLazy, into: &tree) {
            case .container:
                lineContainer = open.count - 1
                maybeLazy = false
            case .leaf(let usesLine):
                lineContainer = open.count - 1
                return usesLine
            case .none:
                return false
            }
        }
    }

    /// One step of `openNewBlocks`: tries the block starts at the first non-space of the rest of
    /// the line, in CommonMark's order of precedence, and opens the first that matches. Nothing
    /// starts inside code, HTML, math or a heading. `maybeLazy` keeps HTML blocks of type 7 and
    /// indented code from interrupting a paragraph the line may still continue lazily;
    /// `allMatched` is `continueOpenBlocks`'s answer for the line.
    @inline(__always)
    mutating func openBlockStart(allMatched: Bool, maybeLazy: Bool, into tree: inout SyntaxTree) -> BlockStart {
        let kind = open[lineContainer].kind
        if kind == .codeBlock || kind == .htmlBlock || kind == .mathBlock || kind == .heading { return .none }
        findNextNonspace()
        let indented = indent >= 4
        let c: UInt8 = nextNonspace < lineEnd ? bytes[nextNonspace] : 0
        // Most lines start with a byte no block start begins with (a letter, say): only
        // indented code can start then.
        if !indented && !BlockParser.mayStartBlock(c) { return .none }
        let containerIsParagraph = kind == .paragraph
        // At the nesting bound no container opens: its marker is text of the line.
        let canNest = options.maximumNesting.map { open[lineContainer].nesting < $0 } ?? true

        if !indented && c == UInt8(ascii: ">") {
            guard canNest else { return refuseNesting(into: &tree) }
            openBlockQuote(into: &tree)
            return .container
        }
        if !indented, c == UInt8(ascii: "#"), let level = BlockScanners.atxHeadingStart(bytes, nextNonspace, lineEnd) {
            openATXHeading(level: level, into: &tree)
            return .leaf(usesLine: true)
        }
        if !indented, c == UInt8(ascii: "`") || c == UInt8(ascii: "~"),
           let length = BlockScanners.openingFence(bytes, nextNonspace, lineEnd) {
            openCodeFence(character: c, length: length, into: &tree)
            return .leaf(usesLine: true)
        }
        if !indented, c == UInt8(ascii: "$"), options.extensions.contains(.math),
           nextNonspace + 1 < lineEnd, bytes[nextNonspace + 1] == UInt8(ascii: "$"), opensDollarMath() {
            openDollarMath(fenceIndent: indent, into: &tree)
            return .leaf(usesLine: true)
        }
        if !indented, c == UInt8(ascii: "<"),
           let type = BlockScanners.htmlBlockStart(bytes, nextNonspace, lineEnd, allowType7: !containerIsParagraph && !maybeLazy) {
            openHTMLBlock(type: type, into: &tree)
            return .leaf(usesLine: false)
        }
        if !indented, containerIsParagraph, let level = BlockScanners.setextUnderline(bytes, nextNonspace, lineEnd) {
            return .leaf(usesLine: makeSetextHeading(level: level, into: &tree))
        }
        if !indented, !(containerIsParagraph && !allMatched),
           c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_"),
           thematicBreakKill <= nextNonspace,
           BlockScanners.thematicBreak(bytes, nextNonspace, lineEnd, failure: &thematicBreakKill) {
            openThematicBreak(into: &tree)
            return .leaf(usesLine: true)
        }
        if !indented, c == UInt8(ascii: "["), options.extensions.contains(.footnotes),
           let (labelEnd, after) = footnoteDefinitionStart() {
            guard canNest else { return refuseNesting(into: &tree) }
            openFootnoteDefinition(labelEnd: labelEnd, after: after, into: &tree)
            return .container
        }
        if (!indented || kind == .list) && indent < 4,
           let marker = BlockScanners.listMarker(bytes, nextNonspace, lineEnd, interruptsParagraph: containerIsParagraph) {
            guard canNest else { return refuseNesting(into: &tree) }
            openListItem(marker, into: &tree)
            return .container
        }
        if indented && !maybeLazy && !blank {
            openIndentedCode(into: &tree)
            return .leaf(usesLine: false)
        }
        if !indented && options.extensions.contains(.table) && containerIsParagraph && lineContainer == open.count - 1
            && openTable(paragraphIndex: lineContainer, into: &tree) {
            return .leaf(usesLine: true)
        }
        // Anything else, a row of the open table included (`tableRowMatches` checked it), is text.
        return .none
    }

    /// True for the bytes a block start may begin with, after up to three spaces: `>` `#` `` ` ``
    /// `~` `$` `<` `=` `-` `*` `_` `[` `+` digits `|` `:` (quotes, headings, fences, maths, HTML,
    /// setext underlines, thematic breaks, footnote definitions, list markers, table delimiter
    /// rows). Two 64-bit masks: a global table would cost a lazy-initialisation check a line.
    @inline(__always)
    static func mayStartBlock(_ c: UInt8) -> Bool {
        if c < 64 { return (0x77FF_2C18_0000_0000 as UInt64) >> UInt64(c) & 1 != 0 }
        if c < 128 { return (0x5000_0001_8800_0000 as UInt64) >> UInt64(c - 64) & 1 != 0 }
        return false
    }

    /// A container start past `ParseOptions.maximumNesting`: nothing opens, the rest of the line
    /// is text, and the first such place in the document is reported.
    mutating func refuseNesting(into tree: inout SyntaxTree) -> BlockStart {
        if !nestingReported, let limit = options.maximumNesting {
            nestingReported = true
            tree.problems.append(SyntaxProblem(code: .nestingLimit, message: LocalizedText("syntax.nestingLimit", .string(String(limit))),
                                               range: ByteSpan(nextNonspace, lineEnd)))
        }
        return .none
    }

    // MARK: Phase 3: lazy continuation, or close and add the text

    /// A lazy continuation line (CommonMark 5.1): the line did not continue every open block and
    /// opened none, is not blank, and the tip is a paragraph, which takes the line as it stands;
    /// the blocks the line did not continue stay open.
    @inline(__always)
    func continuesParagraphLazily(_ match: LineMatch, tipIndex: Int, tipIsParagraph: Bool) -> Bool {
        !match.allMatched && lineContainer == match.matched && !blank && tipIsParagraph && open.count - 1 == tipIndex
    }

    /// The "last line blank" bookkeeping of the line's container (cmark's, read for list
    /// tightness): a blank line marks the container's last child as ending blank, and the
    /// container too unless it is a quote, a heading, a thematic break, fenced code or math,
    /// or a list item that starts on this line with nothing in it yet; any other line clears
    /// the container's mark.
    @inline(__always)
    mutating func recordLastLineBlank(into tree: inout SyntaxTree) {
        let container = open[lineContainer]
        let node = container.node
        if blank, tree.arena[node].lastChild != .none {
            setLastLineBlank(tree.arena[node].lastChild, true)
            // The last child is closed: its stamp goes to its parent now (see `closeTop`).
            meta[Int(node)].newestDescendantStamp = stamp
        }
        let kind = container.kind
        let lastLineBlankValue = blank && kind != .blockQuote && kind != .heading && kind != .thematicBreak
            && !((kind == .codeBlock || kind == .mathBlock) && container.isFenced)
            && !(kind == .item && tree.arena[node].firstChild == .none
                 && meta[Int(node)].startLine == Int32(clamping: lineNumber))
        setLastLineBlank(node, lastLineBlankValue)
    }

    /// After a block start used the whole line: an ATX heading or thematic break is complete
    /// and closes at once (fences, `$$` and tables stay open for the lines below).
    @inline(__always)
    mutating func finishUsedLine(into tree: inout SyntaxTree) {
        let kind = open[lineContainer].kind
        if kind == .heading || kind == .thematicBreak {
            open[lineContainer].lastLineEnd = lineEnd
            closeUnmatched(downTo: lineContainer - 1, into: &tree)
        }
    }

    /// cmark's `add_text_to_container`, last step: the rest of the line goes to the container
    /// verbatim for code, math and HTML (an HTML block of types 1-5 may end on this line), as a
    /// row of a table, or as a paragraph line: of the open paragraph, or of a new one in any
    /// other container. A blank line adds nothing there.
    @inline(__always)
    mutating func addLineText(into tree: inout SyntaxTree) {
        switch open[lineContainer].kind {
        case .codeBlock, .mathBlock:
            addLiteralLine(lineContainer, into: &tree)
        case .htmlBlock:
            addLiteralLine(lineContainer, into: &tree)
            let type = open[lineContainer].htmlType
            if type <= 5 && BlockScanners.htmlBlockEnds(type: type, bytes, nextNonspace, lineEnd) {
                closeUnmatched(downTo: lineContainer - 1, into: &tree)
            }
        case .table:
            if !blank { addTableRow(lineContainer, into: &tree) }
        case .paragraph:
            if !blank { addParagraphLine(lineContainer, into: &tree) }
        default:
            if blank { break }
            closeUnmatchedOnce(into: &tree)
            let id = addChild(.paragraph, start: nextNonspace, into: &tree)
            tree.arena[id].contentStart = Int32(clamping: content.count)
            push(OpenBlock(node: id, kind: .paragraph, lastLineEnd: lineEnd))
            addParagraphLine(open.count - 1, into: &tree)
        }
    }

    // MARK: Content

    /// Appends source bytes `start..<end` to the content buffer and records the mapping.
    mutating func appendContent(_ start: Int, _ end: Int, into tree: inout SyntaxTree) {
        guard end > start else { return }
        let contentOffset = content.count
        if let last = contentMap.last,
           Int(last.source) + (contentOffset - Int(last.content)) == start {
            // Contiguous with the previous run: no new pair needed.
        } else {
            contentMap.append((Int32(clamping: contentOffset), Int32(clamping: start)))
        }
        content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Appends "\n" mapped to the current line's end.
    mutating func appendNewline(into tree: inout SyntaxTree) {
        let contentOffset = content.count
        if let last = contentMap.last,
           Int(last.source) + (contentOffset - Int(last.content)) == lineEnd {
        } else {
            contentMap.append((Int32(clamping: contentOffset), Int32(clamping: lineEnd)))
        }
        content.append(byteNewline)
    }

    /// Appends `count` synthetic spaces (from a partially consumed tab) mapped to `source`.
    mutating func appendSpaces(_ count: Int, mappedTo source: Int, into tree: inout SyntaxTree) {
        contentMap.append((Int32(clamping: content.count), Int32(clamping: source)))
        for _ in 0..<count { content.append(byteSpace) }
        // Force a new pair for whatever follows.
        contentMap.append((Int32(clamping: content.count), Int32(clamping: source + 1)))
    }

    /// Adds the rest of the line, verbatim (code, HTML, math), with its "\n".
    mutating func addLiteralLine(_ index: Int, into tree: inout SyntaxTree) {
        if partiallyConsumedTab {
            let tabPosition = offset
            offset += 1
            let charsToTab = 4 - (column % 4)
            appendSpaces(charsToTab, mappedTo: tabPosition, into: &tree)
        }
        appendContent(offset, lineEnd, into: &tree)
        appendNewline(into: &tree)
        let node = open[index].node
        tree.arena[node].contentEnd = Int32(clamping: content.count)
        open[index].lastLineEnd = lineEnd
    }

    /// Adds the line to a paragraph: leading whitespace stripped, joined with "\n".
    mutating func addParagraphLine(_ index: Int, into tree: inout SyntaxTree) {
        let node = open[index].node
        if tree.arena[node].contentEnd > tree.arena[node].contentStart
            || content.count > Int(tree.arena[node].contentStart) {
            appendNewlineBetweenLines(into: &tree)
        }
        appendContent(nextNonspace, lineEnd, into: &tree)
        tree.arena[node].contentEnd = Int32(clamping: content.count)
        open[index].lastLineEnd = lineEnd
    }

    /// The "\n" between two paragraph lines maps to the end of the previous line.
    mutating func appendNewlineBetweenLines(into tree: inout SyntaxTree) {
        let contentOffset = content.count
        if let last = contentMap.last {
            let mapped = Int(last.source) + (contentOffset - Int(last.content))
            if mapped > sourceCount || mapped < 0 {
                contentMap.append((Int32(clamping: contentOffset), Int32(clamping: sourceCount)))
            }
        }
        content.append(byteNewline)
    }

    // MARK: Finalisation

    mutating func finalize(_ block: OpenBlock, into tree: inout SyntaxTree) {
        let id = block.node
        // (The newest stamp among descendants, for `lastLineBlank`, is up to date: `closeTop`.)
        var end = max(block.lastLineEnd, Int(tree.arena[id].sourceStart))
        if let last = Optional(tree.arena[id].lastChild), last != .none {
            end = max(end, Int(tree.arena[last].sourceEnd))
        }
        tree.arena[id].sourceEnd = Int32(clamping: end)

        switch block.kind {
        case .paragraph:
            // Drop the paragraph when it was only link reference definitions.
            if !resolveLinkDefinitions(id, into: &tree) {
                tree.arena.unlink(id)
            }
        case .codeBlock:
            if !block.isFenced {
                // Indented code loses its trailing blank lines.
                var e = Int(tree.arena[id].contentEnd)
                let s = Int(tree.arena[id].contentStart)
                var lineBegin = e
                while e > s {
                    // Find the start of the last line.
                    var k = e - 1
                    while k > s && content[k - 1] != byteNewline { k -= 1 }
                    var blankLine = true
                    for q in k..<(e - 1) where !isSpaceOrTab(content[q]) { blankLine = false; break }
                    if !blankLine { break }
                    lineBegin = k
                    e = k
                }
                _ = lineBegin
                tree.arena[id].contentEnd = Int32(clamping: e)
            } else if options.extensions.contains(.math) {
                let info = tree.codeBlocks[Int(tree.arena[id].data)].info
                if info.count >= 4, Array(tree.source[info.range].prefix(4)) == Array("math".utf8),
                   info.count == 4 || isSpaceOrTab(tree.source[Int(info.start) + 4]) {
                    tree.arena[id].kind = .mathBlock
                }
            }
        case .list:
            finalizeList(id, into: &tree)
        case .item:
            if options.extensions.contains(.tasklist) { detectTask(id, into: &tree) }
        case .blockQuote:
            if options.extensions.contains(.alerts) { detectAlert(id, into: &tree) }
        default:
            break
        }
    }

    mutating func finalizeList(_ id: NodeID, into tree: inout SyntaxTree) {
        var tight = true
        var item = tree.arena[id].firstChild
        outer: while item != .none {
            let itemNext = tree.arena[item].next
            if lastLineBlank(item) && itemNext != .none {
                tight = false
                break
            }
            var sub = tree.arena[item].firstChild
            while sub != .none {
                let subNext = tree.arena[sub].next
                if (itemNext != .none || subNext != .none) && endsWithBlankLine(sub, tree.arena) {
                    tight = false
                    break outer
                }
                sub = subNext
            }
            item = itemNext
        }
        if tight { tree.arena[id].flags |= Node.listTight }
    }

    /// Removes link reference definitions from the start of a paragraph. Returns true when the
    /// paragraph still has content.
    @discardableResult
    mutating func resolveLinkDefinitions(_ paragraph: NodeID, into tree: inout SyntaxTree) -> Bool {
        var start = Int(tree.arena[paragraph].contentStart)
        let end = Int(tree.arena[paragraph].contentEnd)
        guard start < end, content[start] == UInt8(ascii: "[") else { return start < end }
        var found: [ScannedLinkDefinition] = []
        content.withUnsafeBufferPointer { buffer in
            while start < end, buffer[start] == UInt8(ascii: "["),
                  let definition = LinkScanners.scanLinkDefinition(buffer, start: start, end: end) {
                found.append(definition)
                guard definition.end > start else { break }
                start = definition.end
            }
        }
        for definition in found {
            let node = tree.buildNode(Node(kind: .linkDefinition))
            meta.append(Meta())
            let labelStart = Int(definition.label.start) - 1
            let source = sourceRange(forContent: ByteSpan(labelStart, max(labelStart + 1, min(definition.end, end))))
            tree.arena[node].sourceStart = Int32(clamping: source.lowerBound)
            tree.arena[node].sourceEnd = Int32(clamping: source.upperBound)
            tree.arena[node].contentStart = Int32(clamping: labelStart)
            tree.arena[node].contentEnd = Int32(clamping: min(definition.end, end))
            let normalized = content.withUnsafeBufferPointer {
                LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: $0[definition.label.range]))
            }
            tree.linkDefinitions.append(LinkDefinition(
                label: definition.label, normalizedLabel: normalized, destination: definition.destination,
                destinationIsPointy: definition.destinationIsPointy, title: definition.title,
                hasTitle: definition.hasTitle, node: node))
            let index = Int32(tree.linkDefinitions.count - 1)
            tree.arena[node].data = index
            if tree.linkDefinitionIndex[normalized] == nil { tree.linkDefinitionIndex[normalized] = index }
            // Definitions come before the paragraph's remaining text.
            let previous = tree.arena[paragraph].previous
            let parent = tree.arena[paragraph].parent
            if previous != .none {
                tree.arena.insert(node, after: previous)
            } else if parent != .none {
                // Make it the first child.
                let first = tree.arena[parent].firstChild
                tree.arena[node].parent = parent
                tree.arena[node].next = first
                if first != .none { tree.arena[first].previous = node }
                tree.arena[parent].firstChild = node
                if tree.arena[parent].lastChild == .none { tree.arena[parent].lastChild = node }
            }
        }
        if !found.isEmpty {
            tree.arena[paragraph].contentStart = Int32(clamping: min(start, end))
            if start < end {
                tree.arena[paragraph].sourceStart = Int32(clamping: sourceOffset(forContent: start))
            }
        }
        return start < end
    }

    // MARK: GFM: task items and alerts

    mutating func detectTask(_ item: NodeID, into tree: inout SyntaxTree) {
        let first = tree.arena[item].firstChild
        guard first != .none, tree.arena[first].kind == .paragraph else { return }
        let s = Int(tree.arena[first].contentStart)
        let e = Int(tree.arena[first].contentEnd)
        guard e - s >= 3, content[s] == UInt8(ascii: "["), content[s + 2] == UInt8(ascii: "]") else { return }
        let mark = content[s + 1]
        let state: TaskState
        switch mark {
        case byteSpace: state = .unchecked
        case UInt8(ascii: "x"), UInt8(ascii: "X"): state = .checked
        default: return
        }
        var k = s + 3
        guard k == e || isSpaceOrTab(content[k]) || content[k] == byteNewline else { return }
        while k < e && (isSpaceOrTab(content[k])) { k += 1 }
        tree.arena[item].flags = (tree.arena[item].flags & ~Node.taskMask) | state.rawValue
        tree.arena[first].contentStart = Int32(clamping: k)
        tree.arena[first].sourceStart = Int32(clamping: sourceOffset(forContent: k))
    }

    mutating func detectAlert(_ quote: NodeID, into tree: inout SyntaxTree) {
        let first = tree.arena[quote].firstChild
        guard first != .none, tree.arena[first].kind == .paragraph else { return }
        let s = Int(tree.arena[first].contentStart)
        let e = Int(tree.arena[first].contentEnd)
        guard e - s >= 4, content[s] == UInt8(ascii: "["), content[s + 1] == UInt8(ascii: "!") else { return }
        var k = s + 2
        while k < e && isASCIILetter(content[k]) { k += 1 }
        guard k < e, content[k] == UInt8(ascii: "]") else { return }
        let word = content.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[(s + 2)..<k]), as: UTF8.self) }.uppercased()
        guard let kind = AlertKind.allCases.first(where: { $0 != .none && $0.keyword == word }) else { return }
        var after = k + 1
        while after < e && isSpaceOrTab(content[after]) { after += 1 }
        guard after == e || content[after] == byteNewline else { return }
        tree.arena[quote].flags = (tree.arena[quote].flags & ~Node.alertMask) | kind.rawValue
        if after == e {
            tree.arena.unlink(first)
        } else {
            tree.arena[first].contentStart = Int32(clamping: after + 1)
            tree.arena[first].sourceStart = Int32(clamping: sourceOffset(forContent: after + 1))
        }
    }

    // MARK: GFM footnote definitions

    /// `[^label]:` at `nextNonspace`. Returns the label's end and the offset after the colon.
    func footnoteDefinitionStart() -> (Int, Int)? {
        let s = nextNonspace
        guard s + 4 < lineEnd + 1, s + 1 < lineEnd, bytes[s + 1] == UInt8(ascii: "^") else { return nil }
        var i = s + 2
        while i < lineEnd {
            let c = bytes[i]
            if c == UInt8(ascii: "]") || c == byteSpace || c == byteTab || c == 0 { break }
            i += 1
        }
        guard i > s + 2, i + 1 < lineEnd, bytes[i] == UInt8(ascii: "]"), bytes[i + 1] == UInt8(ascii: ":") else { return nil }
        var after = i + 2
        while after < lineEnd && isSpaceOrTab(bytes[after]) { after += 1 }
        return (i, after)
    }

    // MARK: Notebook: front matter and $$ math

    /// Recognises a leading `---` … `---` (or `...`) block. Returns the offset where Markdown starts.
    mutating func parseFrontMatter(from begin: Int, into tree: inout SyntaxTree) -> Int {
        let count = bytes.count
        func lineAt(_ p: Int) -> (end: Int, next: Int) {
            let e = p >= count ? p : bytes.baseAddress.map { ByteSearch.lineEnd($0, from: p, end: count) } ?? count
            var n = e
            if n < count { n += (bytes[n] == byteReturn && n + 1 < count && bytes[n + 1] == byteNewline) ? 2 : 1 }
            return (e, n)
        }
        func isFence(_ s: Int, _ e: Int, _ c: UInt8) -> Bool { BlockScanners.isFrontMatterFence(bytes, s, e, c) }
        let first = lineAt(begin)
        guard isFence(begin, first.end, UInt8(ascii: "-")) else { return begin }
        var p = first.next
        while p < count {
            let line = lineAt(p)
            if isFence(p, line.end, UInt8(ascii: "-")) || isFence(p, line.end, UInt8(ascii: ".")) {
                let id = tree.buildNode(Node(kind: .frontMatter, sourceStart: Int32(clamping: begin), sourceEnd: Int32(clamping: line.end)))
                meta.append(Meta())
                tree.arena[id].contentStart = Int32(clamping: content.count)
                var q = first.next
                while q < p {
                    let inner = lineAt(q)
                    lineEnd = inner.end
                    appendContent(q, inner.end, into: &tree)
                    appendNewline(into: &tree)
                    q = inner.next
                }
                tree.arena[id].contentEnd = Int32(clamping: content.count)
                tree.arena.link(id, under: SyntaxTree.root)
                lineNumber = 0
                var n = first.next
                while n < line.next { lineNumber += 1; n = lineAt(n).next }
                lineNumber += 1
                return line.next
            }
            p = line.next
        }
        return begin
    }

    /// `$$` at the line's first non-space opens a math block (`BlockScanners.opensDollarMath`).
    func opensDollarMath() -> Bool { BlockScanners.opensDollarMath(bytes, nextNonspace, lineEnd) }

    /// Opens a `$$` display-math block at `nextNonspace`; a single-line `$$ … $$` closes at once.
    mutating func openDollarMath(fenceIndent: Int, into tree: inout SyntaxTree) {
        let start = nextNonspace
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.mathBlock, start: start, into: &tree)
        tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: UInt8(ascii: "$"), fenceLength: 2,
                                             fenceIndent: Int32(fenceIndent), info: .empty))
        tree.arena[id].data = Int32(tree.codeBlocks.count - 1)
        tree.arena[id].contentStart = Int32(clamping: content.count)
        tree.arena[id].contentEnd = Int32(clamping: content.count)
        push(OpenBlock(node: id, kind: .mathBlock, fenceCharacter: UInt8(ascii: "$"), fenceLength: 2,
                       fenceIndent: fenceIndent, isFenced: true, lastLineEnd: lineEnd))
        // Text after the opening `$$` on the same line.
        var s = start + 2
        var e = lineEnd
        while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        while s < e && isSpaceOrTab(bytes[s]) { s += 1 }
        var closes = false
        if e - s >= 2, bytes[e - 1] == UInt8(ascii: "$"), bytes[e - 2] == UInt8(ascii: "$") {
            closes = true
            e -= 2
            while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        }
        if e > s {
            appendContent(s, e, into: &tree)
            appendNewline(into: &tree)
            tree.arena[id].contentEnd = Int32(clamping: content.count)
        }
        if closes {
            closeUnmatched(downTo: open.count - 2, into: &tree)
        }
    }

    /// In an open `$$` block: a line ending with `$$` closes it (text before the `$$` is content).
    mutating func closesDollarMath(into tree: inout SyntaxTree, index: Int) -> Bool {
        guard BlockScanners.closesDollarMath(bytes, offset, lineEnd) else { return false }
        var e = lineEnd
        while e > offset && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        var s = nextNonspace
        e -= 2
        while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        if s > e { s = e }
        closeUnmatched(downTo: index, into: &tree)
        if e > s {
            appendContent(s, e, into: &tree)
            appendNewline(into: &tree)
            tree.arena[open[index].node].contentEnd = Int32(clamping: content.count)
        }
        open[index].lastLineEnd = lineEnd
        closeUnmatched(downTo: index - 1, into: &tree)
        return true
    }
}
