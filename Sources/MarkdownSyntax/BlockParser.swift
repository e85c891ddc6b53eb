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
//   value is read at finalisation against the newest stamp among its descendants, which gives
//   exactly cmark's "clear every ancestor" semantics without walking the ancestors.
// - Leaf content is appended to `tree.content` with line endings normalised to "\n", and every
//   appended run is recorded in `tree.contentToSource`.

struct BlockParser {
    let options: ParseOptions

    /// An open block on the stack.
    struct OpenBlock {
        var node: NodeID
        var kind: NodeKind
        /// Items: marker offset + padding, in columns. Footnote definitions: 4.
        var contentIndent: Int = 0
        /// Fenced code / math: fence character, length and indentation.
        var fenceCharacter: UInt8 = 0
        var fenceLength: Int = 0
        var fenceIndent: Int = 0
        var isFenced: Bool = false
        /// HTML blocks: the start condition (1...7).
        var htmlType: Int = 0
        /// Lists: bullet or delimiter, to decide whether a new item continues the list.
        var listDelimiter: ListDelimiter = .dash
        var listOrdered: Bool = false
        /// Source offset just past the last line that belongs to this block.
        var lastLineEnd: Int = 0
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

    var open: [OpenBlock] = []
    /// Indices into `open` of blocks that do not match an empty line remainder (sorted).
    var stoppers: [Int] = []
    var meta: [Meta] = []
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

    var bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Column alignments of the open GFM table.
    var tableAlignments: [TableAlignment] = []

    init(options: ParseOptions) { self.options = options }

    // MARK: Driver

    mutating func parse(into tree: inout SyntaxTree) {
        let source = tree.source
        tree.content.reserveCapacity(source.count + 16)
        // Real Markdown averages one node per 16-20 source bytes; start there.
        tree.nodes.reserveCapacity(source.count / 16 + 64)
        meta = [Meta()]
        meta.reserveCapacity(source.count / 24 + 64)
        open = [OpenBlock(node: SyntaxTree.root, kind: .document)]
        stoppers = []
        source.withUnsafeBufferPointer { buffer in
            bytes = buffer
            let count = buffer.count
            // A UTF-8 byte order mark is not content (cmark skips it too).
            var position = count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            if options.extensions.contains(.frontMatter) {
                position = parseFrontMatter(from: position, into: &tree)
            }
            while position < count {
                // Find the end of this line and the start of the next.
                let end = buffer.baseAddress.map { ByteSearch.lineEnd($0, from: position, end: count) } ?? count
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
        tree.nodes[0].sourceEnd = Int32(clamping: source.count)
    }

    // MARK: Offsets and columns

    mutating func findNextNonspace() {
        // Reuse the last scan while it is still ahead of `offset` (as cmark does): containers
        // that only consume indentation would otherwise rescan it, O(depth²) per line.
        if nextNonspace > offset {
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

    func isStopper(_ block: OpenBlock, _ tree: SyntaxTree) -> Bool {
        switch block.kind {
        case .list: return false
        case .item, .footnoteDefinition: return tree.nodes[Int(block.node)].firstChild == .none
        default: return true
        }
    }

    mutating func push(_ block: OpenBlock, tree: SyntaxTree) {
        open.append(block)
        if isStopper(block, tree) { stoppers.append(open.count - 1) }
    }

    mutating func newNode(_ kind: NodeKind, start: Int, into tree: inout SyntaxTree) -> NodeID {
        let id = tree.makeNode(Node(kind: kind, sourceStart: Int32(clamping: start), sourceEnd: Int32(clamping: lineEnd)))
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
        let parentHadNoChild = tree.nodes[Int(parent.node)].firstChild == .none
        tree.appendChild(id, to: parent.node)
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
        let end = max(open[parentIndex].lastLineEnd, Int(tree.nodes[Int(block.node)].sourceEnd))
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

    mutating func endsWithBlankLine(_ id: NodeID, _ tree: SyntaxTree) -> Bool {
        // Walk down last children of lists and items, memoising on the way back up.
        var chain: [NodeID] = []
        var current = id
        var result = false
        while current != .none {
            let m = meta[Int(current)].endsWithBlankMemo
            if m >= 0 { result = m == 1; break }
            if lastLineBlank(current) { result = true; meta[Int(current)].endsWithBlankMemo = 1; break }
            let kind = tree.nodes[Int(current)].kind
            chain.append(current)
            if kind == .list || kind == .item {
                current = tree.nodes[Int(current)].lastChild
            } else {
                break
            }
        }
        for node in chain { meta[Int(node)].endsWithBlankMemo = result ? 1 : 0 }
        return result
    }

    // MARK: One line

    mutating func processLine(start: Int, end: Int, into tree: inout SyntaxTree) {
        lineNumber += 1
        lineStart = start
        lineEnd = end
        offset = start
        column = 0
        partiallyConsumedTab = false
        blank = false
        nextNonspace = -1
        thematicBreakKill = 0

        // 1. Match the open containers.
        var matched = 0          // index into `open` of the deepest matched block
        var allMatched = true
        var index = 1
        matching: while index < open.count {
            if offset >= lineEnd && !partiallyConsumedTab {
                // Nothing left on the line: lists and items with content match trivially.
                var lo = 0, hi = stoppers.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if stoppers[mid] < index { lo = mid + 1 } else { hi = mid }
                }
                let nextStopper = lo < stoppers.count ? stoppers[lo] : open.count
                if nextStopper > index {
                    matched = nextStopper - 1
                    index = nextStopper
                    continue
                }
            }
            let block = open[index]
            findNextNonspace()
            switch block.kind {
            case .blockQuote:
                if indent <= 3 && nextNonspace < lineEnd && bytes[nextNonspace] == UInt8(ascii: ">") {
                    advance(nextNonspace + 1 - offset, columns: false)
                    if offset < lineEnd && isSpaceOrTab(bytes[offset]) { advance(1, columns: true) }
                } else {
                    allMatched = false
                    break matching
                }
            case .item, .footnoteDefinition:
                if indent >= block.contentIndent {
                    advance(block.contentIndent, columns: true)
                } else if blank && tree.nodes[Int(block.node)].firstChild != .none {
                    advanceToNextNonspace()
                } else {
                    allMatched = false
                    break matching
                }
            case .codeBlock, .mathBlock:
                if block.isFenced {
                    if indent <= 3 && nextNonspace < lineEnd && bytes[nextNonspace] == block.fenceCharacter
                        && BlockScanners.closingFence(bytes, nextNonspace, lineEnd, character: block.fenceCharacter,
                                                      minimum: block.fenceLength) {
                        // The closing fence ends the block and the line.
                        open[index].lastLineEnd = lineEnd
                        closeUnmatched(downTo: index - 1, into: &tree)
                        return
                    }
                    if block.fenceCharacter == UInt8(ascii: "$") && closesDollarMath(into: &tree, index: index) {
                        return
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
                    allMatched = false
                    break matching
                }
            case .heading, .thematicBreak, .frontMatter, .linkDefinition:
                allMatched = false
                break matching
            case .htmlBlock:
                if blank && block.htmlType >= 6 {
                    allMatched = false
                    break matching
                }
            case .paragraph:
                if blank {
                    allMatched = false
                    break matching
                }
            case .table:
                if blank || !tableRowMatches() {
                    allMatched = false
                    break matching
                }
            default:
                break
            }
            matched = index
            index += 1
        }

        // 2. Open new blocks.
        let tipIndex = open.count - 1
        let tipKind = open[tipIndex].kind
        lineContainer = matched
        lineClosedUnmatched = allMatched
        var maybeLazy = tipKind == .paragraph
        var lineConsumed = false   // the line was fully used by a block start (fence, heading, …)

        newBlocks: while true {
            let kind = open[lineContainer].kind
            if kind == .codeBlock || kind == .htmlBlock || kind == .mathBlock || kind == .heading { break }
            findNextNonspace()
            let indented = indent >= 4
            let c: UInt8 = nextNonspace < lineEnd ? bytes[nextNonspace] : 0
            let containerIsParagraph = kind == .paragraph

            if !indented && c == UInt8(ascii: ">") {
                let start = nextNonspace
                advance(nextNonspace + 1 - offset, columns: false)
                if offset < lineEnd && isSpaceOrTab(bytes[offset]) { advance(1, columns: true) }
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.blockQuote, start: start, into: &tree)
                tree.nodes[Int(id)].sourceEnd = Int32(clamping: offset)
                push(OpenBlock(node: id, kind: .blockQuote, lastLineEnd: offset), tree: tree)
                lineContainer = open.count - 1
            } else if !indented, c == UInt8(ascii: "#"), let level = BlockScanners.atxHeadingStart(bytes, nextNonspace, lineEnd) {
                let start = nextNonspace
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.heading, start: start, into: &tree)
                tree.nodes[Int(id)].data = Int32(level)
                // Content: after the opening run, without the closing run and surrounding blanks.
                var s = nextNonspace + level
                var e = lineEnd
                while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
                var h = e
                while h > s && bytes[h - 1] == UInt8(ascii: "#") { h -= 1 }
                if h == s { e = s } else if isSpaceOrTab(bytes[h - 1]) {
                    e = h
                    while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
                }
                while s < e && isSpaceOrTab(bytes[s]) { s += 1 }
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                appendContent(s, e, into: &tree)
                tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
                push(OpenBlock(node: id, kind: .heading, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
                lineConsumed = true
                break newBlocks
            } else if !indented, c == UInt8(ascii: "`") || c == UInt8(ascii: "~"),
                      let length = BlockScanners.openingFence(bytes, nextNonspace, lineEnd) {
                let start = nextNonspace
                let fenceIndent = indent
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.codeBlock, start: start, into: &tree)
                var infoStart = nextNonspace + length
                var infoEnd = lineEnd
                while infoStart < infoEnd && isSpaceOrTab(bytes[infoStart]) { infoStart += 1 }
                while infoEnd > infoStart && isSpaceOrTab(bytes[infoEnd - 1]) { infoEnd -= 1 }
                tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: c, fenceLength: Int32(length),
                                                     fenceIndent: Int32(fenceIndent), info: ByteSpan(infoStart, infoEnd)))
                tree.nodes[Int(id)].data = Int32(tree.codeBlocks.count - 1)
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
                push(OpenBlock(node: id, kind: .codeBlock, fenceCharacter: c, fenceLength: length,
                               fenceIndent: fenceIndent, isFenced: true, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
                lineConsumed = true
                break newBlocks
            } else if !indented, c == UInt8(ascii: "$"), options.extensions.contains(.math),
                      nextNonspace + 1 < lineEnd, bytes[nextNonspace + 1] == UInt8(ascii: "$"),
                      opensDollarMath() {
                openDollarMath(fenceIndent: indent, into: &tree)
                lineContainer = open.count - 1
                lineConsumed = true
                break newBlocks
            } else if !indented, c == UInt8(ascii: "<"),
                      let type = BlockScanners.htmlBlockStart(bytes, nextNonspace, lineEnd, allowType7: !containerIsParagraph && !maybeLazy) {
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.htmlBlock, start: nextNonspace, into: &tree)
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
                push(OpenBlock(node: id, kind: .htmlBlock, htmlType: type, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
                break newBlocks
            } else if !indented, containerIsParagraph, let level = BlockScanners.setextUnderline(bytes, nextNonspace, lineEnd) {
                let paragraph = open[lineContainer].node
                if resolveLinkDefinitions(paragraph, into: &tree) {
                    tree.nodes[Int(paragraph)].kind = .heading
                    tree.nodes[Int(paragraph)].data = Int32(level)
                    tree.nodes[Int(paragraph)].flags = Node.headingSetext
                    open[lineContainer].kind = .heading
                    open[lineContainer].lastLineEnd = lineEnd
                    lineConsumed = true
                }
                break newBlocks
            } else if !indented, !(containerIsParagraph && !allMatched),
                      c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_"),
                      thematicBreakKill <= nextNonspace,
                      BlockScanners.thematicBreak(bytes, nextNonspace, lineEnd, failure: &thematicBreakKill) {
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.thematicBreak, start: nextNonspace, into: &tree)
                push(OpenBlock(node: id, kind: .thematicBreak, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
                lineConsumed = true
                break newBlocks
            } else if !indented, c == UInt8(ascii: "["), options.extensions.contains(.footnotes),
                      let (labelEnd, after) = footnoteDefinitionStart() {
                let start = nextNonspace
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.footnoteDefinition, start: start, into: &tree)
                let label = ByteSpan(start + 2, labelEnd)
                let normalized = LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: bytes[label.range]))
                tree.footnoteDefinitions.append(FootnoteDefinition(label: label, normalizedLabel: normalized, node: id))
                tree.nodes[Int(id)].data = Int32(tree.footnoteDefinitions.count - 1)
                advance(after - offset, columns: false)
                push(OpenBlock(node: id, kind: .footnoteDefinition, contentIndent: 4, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
            } else if (!indented || kind == .list) && indent < 4,
                      let marker = BlockScanners.listMarker(bytes, nextNonspace, lineEnd, interruptsParagraph: containerIsParagraph) {
                let markerStart = nextNonspace
                let markerOffset = indent
                advance(nextNonspace + marker.length - offset, columns: false)
                // Padding: 1-4 spaces after the marker; 5+ means indented code, so 1.
                let savedOffset = offset, savedColumn = column, savedTab = partiallyConsumedTab
                while column - savedColumn <= 5 && offset < lineEnd && isSpaceOrTab(bytes[offset]) {
                    advance(1, columns: true)
                }
                let spaces = column - savedColumn
                var padding: Int
                if spaces >= 5 || spaces < 1 || offset >= lineEnd {
                    padding = marker.length + 1
                    offset = savedOffset
                    column = savedColumn
                    partiallyConsumedTab = savedTab
                    if spaces > 0 { advance(1, columns: true) }
                } else {
                    padding = marker.length + spaces
                }
                closeUnmatchedOnce(into: &tree)
                let current = open[open.count - 1]
                if !(current.kind == .list && current.listOrdered == marker.ordered && current.listDelimiter == marker.delimiter) {
                    let list = addChild(.list, start: markerStart, into: &tree)
                    tree.nodes[Int(list)].data = marker.start
                    tree.nodes[Int(list)].flags = (marker.ordered ? Node.listOrdered : 0)
                        | (marker.delimiter.rawValue << Node.listDelimiterShift)
                    push(OpenBlock(node: list, kind: .list, listDelimiter: marker.delimiter, listOrdered: marker.ordered,
                                   lastLineEnd: lineEnd), tree: tree)
                }
                let item = addChild(.item, start: markerStart, into: &tree)
                tree.nodes[Int(item)].sourceEnd = Int32(clamping: offset)
                padding = max(padding, 1)
                push(OpenBlock(node: item, kind: .item, contentIndent: markerOffset + padding, lastLineEnd: offset), tree: tree)
                lineContainer = open.count - 1
            } else if indented && !maybeLazy && !blank {
                advance(4, columns: true)
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.codeBlock, start: offset, into: &tree)
                tree.codeBlocks.append(CodeBlockInfo(isFenced: false))
                tree.nodes[Int(id)].data = Int32(tree.codeBlocks.count - 1)
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
                push(OpenBlock(node: id, kind: .codeBlock, lastLineEnd: lineEnd), tree: tree)
                lineContainer = open.count - 1
                break newBlocks
            } else if !indented && options.extensions.contains(.table) && containerIsParagraph && lineContainer == open.count - 1
                        && openTable(paragraphIndex: lineContainer, into: &tree) {
                lineContainer = open.count - 1
                lineConsumed = true
                break newBlocks
            } else if !indented && kind == .table && !blank {
                // A row of the open table (checked by `tableRowMatches`).
                break newBlocks
            } else {
                break newBlocks
            }
            maybeLazy = false
        }

        // 3. Add the line's text.
        findNextNonspace()
        let containerBlock = open[lineContainer]
        if !allMatched && lineContainer == matched && !blank && tipKind == .paragraph && open.count - 1 == tipIndex
            && !lineConsumed {
            // Lazy continuation of the paragraph at the tip.
            addParagraphLine(tipIndex, into: &tree)
            return
        }
        if !lineClosedUnmatched {
            closeUnmatched(downTo: lineContainer, into: &tree)
        }
        let containerNode = containerBlock.node
        if blank, tree.nodes[Int(containerNode)].lastChild != .none {
            setLastLineBlank(tree.nodes[Int(containerNode)].lastChild, true)
        }
        let kind = open[lineContainer].kind
        let lastLineBlankValue = blank && kind != .blockQuote && kind != .heading && kind != .thematicBreak
            && !((kind == .codeBlock || kind == .mathBlock) && open[lineContainer].isFenced)
            && !(kind == .item && tree.nodes[Int(containerNode)].firstChild == .none
                 && meta[Int(containerNode)].startLine == Int32(clamping: lineNumber))
        setLastLineBlank(containerNode, lastLineBlankValue)

        if lineConsumed {
            if kind == .heading || kind == .thematicBreak {
                open[lineContainer].lastLineEnd = lineEnd
                closeUnmatched(downTo: lineContainer - 1, into: &tree)
            }
            return
        }
        switch kind {
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
        default:
            if blank { break }
            if kind == .paragraph {
                addParagraphLine(lineContainer, into: &tree)
            } else {
                closeUnmatchedOnce(into: &tree)
                let id = addChild(.paragraph, start: nextNonspace, into: &tree)
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                push(OpenBlock(node: id, kind: .paragraph, lastLineEnd: lineEnd), tree: tree)
                addParagraphLine(open.count - 1, into: &tree)
            }
        }
    }

    // MARK: Content

    /// Appends source bytes `start..<end` to the content buffer and records the mapping.
    mutating func appendContent(_ start: Int, _ end: Int, into tree: inout SyntaxTree) {
        guard end > start else { return }
        let contentOffset = tree.content.count
        if let last = tree.contentToSource.last,
           Int(last.source) + (contentOffset - Int(last.content)) == start {
            // Contiguous with the previous run: no new pair needed.
        } else {
            tree.contentToSource.append((Int32(clamping: contentOffset), Int32(clamping: start)))
        }
        tree.content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Appends "\n" mapped to the current line's end.
    mutating func appendNewline(into tree: inout SyntaxTree) {
        let contentOffset = tree.content.count
        if let last = tree.contentToSource.last,
           Int(last.source) + (contentOffset - Int(last.content)) == lineEnd {
        } else {
            tree.contentToSource.append((Int32(clamping: contentOffset), Int32(clamping: lineEnd)))
        }
        tree.content.append(byteNewline)
    }

    /// Appends `count` synthetic spaces (from a partially consumed tab) mapped to `source`.
    mutating func appendSpaces(_ count: Int, mappedTo source: Int, into tree: inout SyntaxTree) {
        tree.contentToSource.append((Int32(clamping: tree.content.count), Int32(clamping: source)))
        for _ in 0..<count { tree.content.append(byteSpace) }
        // Force a new pair for whatever follows.
        tree.contentToSource.append((Int32(clamping: tree.content.count), Int32(clamping: source + 1)))
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
        tree.nodes[Int(node)].contentEnd = Int32(clamping: tree.content.count)
        open[index].lastLineEnd = lineEnd
    }

    /// Adds the line to a paragraph: leading whitespace stripped, joined with "\n".
    mutating func addParagraphLine(_ index: Int, into tree: inout SyntaxTree) {
        let node = open[index].node
        if tree.nodes[Int(node)].contentEnd > tree.nodes[Int(node)].contentStart
            || tree.content.count > Int(tree.nodes[Int(node)].contentStart) {
            appendNewlineBetweenLines(into: &tree)
        }
        appendContent(nextNonspace, lineEnd, into: &tree)
        tree.nodes[Int(node)].contentEnd = Int32(clamping: tree.content.count)
        open[index].lastLineEnd = lineEnd
    }

    /// The "\n" between two paragraph lines maps to the end of the previous line.
    mutating func appendNewlineBetweenLines(into tree: inout SyntaxTree) {
        let contentOffset = tree.content.count
        if let last = tree.contentToSource.last {
            let mapped = Int(last.source) + (contentOffset - Int(last.content))
            if mapped > tree.source.count || mapped < 0 {
                tree.contentToSource.append((Int32(clamping: contentOffset), Int32(clamping: tree.source.count)))
            }
        }
        tree.content.append(byteNewline)
    }

    // MARK: Finalisation

    mutating func finalize(_ block: OpenBlock, into tree: inout SyntaxTree) {
        let id = block.node
        // Newest stamp among descendants, for `lastLineBlank`.
        var newest: Int32 = 0
        var child = tree.nodes[Int(id)].firstChild
        while child != .none {
            let m = meta[Int(child)]
            newest = max(newest, m.blankStamp, m.newestDescendantStamp)
            child = tree.nodes[Int(child)].next
        }
        meta[Int(id)].newestDescendantStamp = newest
        var end = max(block.lastLineEnd, Int(tree.nodes[Int(id)].sourceStart))
        if let last = Optional(tree.nodes[Int(id)].lastChild), last != .none {
            end = max(end, Int(tree.nodes[Int(last)].sourceEnd))
        }
        tree.nodes[Int(id)].sourceEnd = Int32(clamping: end)

        switch block.kind {
        case .paragraph:
            // Drop the paragraph when it was only link reference definitions.
            if !resolveLinkDefinitions(id, into: &tree) {
                tree.unlink(id)
            }
        case .codeBlock:
            if !block.isFenced {
                // Indented code loses its trailing blank lines.
                var e = Int(tree.nodes[Int(id)].contentEnd)
                let s = Int(tree.nodes[Int(id)].contentStart)
                var lineBegin = e
                while e > s {
                    // Find the start of the last line.
                    var k = e - 1
                    while k > s && tree.content[k - 1] != byteNewline { k -= 1 }
                    var blankLine = true
                    for q in k..<(e - 1) where !isSpaceOrTab(tree.content[q]) { blankLine = false; break }
                    if !blankLine { break }
                    lineBegin = k
                    e = k
                }
                _ = lineBegin
                tree.nodes[Int(id)].contentEnd = Int32(clamping: e)
            } else if options.extensions.contains(.math) {
                let info = tree.codeBlocks[Int(tree.nodes[Int(id)].data)].info
                if info.count >= 4, Array(tree.source[info.range].prefix(4)) == Array("math".utf8),
                   info.count == 4 || isSpaceOrTab(tree.source[Int(info.start) + 4]) {
                    tree.nodes[Int(id)].kind = .mathBlock
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
        var item = tree.nodes[Int(id)].firstChild
        outer: while item != .none {
            let itemNext = tree.nodes[Int(item)].next
            if lastLineBlank(item) && itemNext != .none {
                tight = false
                break
            }
            var sub = tree.nodes[Int(item)].firstChild
            while sub != .none {
                let subNext = tree.nodes[Int(sub)].next
                if (itemNext != .none || subNext != .none) && endsWithBlankLine(sub, tree) {
                    tight = false
                    break outer
                }
                sub = subNext
            }
            item = itemNext
        }
        if tight { tree.nodes[Int(id)].flags |= Node.listTight }
    }

    /// Removes link reference definitions from the start of a paragraph. Returns true when the
    /// paragraph still has content.
    @discardableResult
    mutating func resolveLinkDefinitions(_ paragraph: NodeID, into tree: inout SyntaxTree) -> Bool {
        var start = Int(tree.nodes[Int(paragraph)].contentStart)
        let end = Int(tree.nodes[Int(paragraph)].contentEnd)
        guard start < end, tree.content[start] == UInt8(ascii: "[") else { return start < end }
        var found: [ScannedLinkDefinition] = []
        tree.content.withUnsafeBufferPointer { buffer in
            while start < end, buffer[start] == UInt8(ascii: "["),
                  let definition = LinkScanners.scanLinkDefinition(buffer, start: start, end: end) {
                found.append(definition)
                guard definition.end > start else { break }
                start = definition.end
            }
        }
        for definition in found {
            let node = tree.makeNode(Node(kind: .linkDefinition))
            meta.append(Meta())
            let labelStart = Int(definition.label.start) - 1
            let source = tree.sourceRange(forContent: ByteSpan(labelStart, max(labelStart + 1, min(definition.end, end))))
            tree.nodes[Int(node)].sourceStart = Int32(clamping: source.lowerBound)
            tree.nodes[Int(node)].sourceEnd = Int32(clamping: source.upperBound)
            tree.nodes[Int(node)].contentStart = Int32(clamping: labelStart)
            tree.nodes[Int(node)].contentEnd = Int32(clamping: min(definition.end, end))
            let normalized = tree.content.withUnsafeBufferPointer {
                LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: $0[definition.label.range]))
            }
            tree.linkDefinitions.append(LinkDefinition(
                label: definition.label, normalizedLabel: normalized, destination: definition.destination,
                destinationIsPointy: definition.destinationIsPointy, title: definition.title,
                hasTitle: definition.hasTitle, node: node))
            let index = Int32(tree.linkDefinitions.count - 1)
            tree.nodes[Int(node)].data = index
            if tree.linkDefinitionIndex[normalized] == nil { tree.linkDefinitionIndex[normalized] = index }
            // Definitions come before the paragraph's remaining text.
            let previous = tree.nodes[Int(paragraph)].previous
            let parent = tree.nodes[Int(paragraph)].parent
            if previous != .none {
                tree.insert(node, after: previous)
            } else if parent != .none {
                // Make it the first child.
                let first = tree.nodes[Int(parent)].firstChild
                tree.nodes[Int(node)].parent = parent
                tree.nodes[Int(node)].next = first
                if first != .none { tree.nodes[Int(first)].previous = node }
                tree.nodes[Int(parent)].firstChild = node
                if tree.nodes[Int(parent)].lastChild == .none { tree.nodes[Int(parent)].lastChild = node }
            }
        }
        if !found.isEmpty {
            tree.nodes[Int(paragraph)].contentStart = Int32(clamping: min(start, end))
            if start < end {
                tree.nodes[Int(paragraph)].sourceStart = Int32(clamping: tree.sourceOffset(forContent: start))
            }
        }
        return start < end
    }

    // MARK: GFM: task items and alerts

    mutating func detectTask(_ item: NodeID, into tree: inout SyntaxTree) {
        let first = tree.nodes[Int(item)].firstChild
        guard first != .none, tree.nodes[Int(first)].kind == .paragraph else { return }
        let s = Int(tree.nodes[Int(first)].contentStart)
        let e = Int(tree.nodes[Int(first)].contentEnd)
        guard e - s >= 3, tree.content[s] == UInt8(ascii: "["), tree.content[s + 2] == UInt8(ascii: "]") else { return }
        let mark = tree.content[s + 1]
        let state: TaskState
        switch mark {
        case byteSpace: state = .unchecked
        case UInt8(ascii: "x"), UInt8(ascii: "X"): state = .checked
        default: return
        }
        var k = s + 3
        guard k == e || isSpaceOrTab(tree.content[k]) || tree.content[k] == byteNewline else { return }
        while k < e && (isSpaceOrTab(tree.content[k])) { k += 1 }
        tree.nodes[Int(item)].flags = (tree.nodes[Int(item)].flags & ~Node.taskMask) | state.rawValue
        tree.nodes[Int(first)].contentStart = Int32(clamping: k)
        tree.nodes[Int(first)].sourceStart = Int32(clamping: tree.sourceOffset(forContent: k))
    }

    mutating func detectAlert(_ quote: NodeID, into tree: inout SyntaxTree) {
        let first = tree.nodes[Int(quote)].firstChild
        guard first != .none, tree.nodes[Int(first)].kind == .paragraph else { return }
        let s = Int(tree.nodes[Int(first)].contentStart)
        let e = Int(tree.nodes[Int(first)].contentEnd)
        guard e - s >= 4, tree.content[s] == UInt8(ascii: "["), tree.content[s + 1] == UInt8(ascii: "!") else { return }
        var k = s + 2
        while k < e && isASCIILetter(tree.content[k]) { k += 1 }
        guard k < e, tree.content[k] == UInt8(ascii: "]") else { return }
        let word = String(decoding: tree.content[(s + 2)..<k], as: UTF8.self).uppercased()
        guard let kind = AlertKind.allCases.first(where: { $0 != .none && $0.keyword == word }) else { return }
        var after = k + 1
        while after < e && isSpaceOrTab(tree.content[after]) { after += 1 }
        guard after == e || tree.content[after] == byteNewline else { return }
        tree.nodes[Int(quote)].flags = (tree.nodes[Int(quote)].flags & ~Node.alertMask) | kind.rawValue
        if after == e {
            tree.unlink(first)
        } else {
            tree.nodes[Int(first)].contentStart = Int32(clamping: after + 1)
            tree.nodes[Int(first)].sourceStart = Int32(clamping: tree.sourceOffset(forContent: after + 1))
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
        func isFence(_ s: Int, _ e: Int, _ c: UInt8) -> Bool {
            guard e - s >= 3, bytes[s] == c, bytes[s + 1] == c, bytes[s + 2] == c else { return false }
            return BlockScanners.isBlank(bytes, s + 3, e)
        }
        let first = lineAt(begin)
        guard isFence(begin, first.end, UInt8(ascii: "-")) else { return begin }
        var p = first.next
        while p < count {
            let line = lineAt(p)
            if isFence(p, line.end, UInt8(ascii: "-")) || isFence(p, line.end, UInt8(ascii: ".")) {
                let id = tree.makeNode(Node(kind: .frontMatter, sourceStart: Int32(clamping: begin), sourceEnd: Int32(clamping: line.end)))
                meta.append(Meta())
                tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
                var q = first.next
                while q < p {
                    let inner = lineAt(q)
                    lineEnd = inner.end
                    appendContent(q, inner.end, into: &tree)
                    appendNewline(into: &tree)
                    q = inner.next
                }
                tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
                tree.appendChild(id, to: SyntaxTree.root)
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

    /// `$$` starts a math block when the line is one whole `$$ … $$` formula, or when no other
    /// `$$` follows on the line (the formula continues below); `$$x$$ and more text` stays a
    /// paragraph with inline display math.
    func opensDollarMath() -> Bool {
        var e = lineEnd
        while e > nextNonspace + 2 && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        if e - (nextNonspace + 2) >= 2 && bytes[e - 1] == UInt8(ascii: "$") && bytes[e - 2] == UInt8(ascii: "$") {
            return true
        }
        var i = nextNonspace + 2
        while i + 1 < e {
            if bytes[i] == UInt8(ascii: "$") && bytes[i + 1] == UInt8(ascii: "$") { return false }
            i += 1
        }
        return true
    }

    /// Opens a `$$` display-math block at `nextNonspace`; a single-line `$$ … $$` closes at once.
    mutating func openDollarMath(fenceIndent: Int, into tree: inout SyntaxTree) {
        let start = nextNonspace
        closeUnmatchedOnce(into: &tree)
        let id = addChild(.mathBlock, start: start, into: &tree)
        tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: UInt8(ascii: "$"), fenceLength: 2,
                                             fenceIndent: Int32(fenceIndent), info: .empty))
        tree.nodes[Int(id)].data = Int32(tree.codeBlocks.count - 1)
        tree.nodes[Int(id)].contentStart = Int32(clamping: tree.content.count)
        tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
        push(OpenBlock(node: id, kind: .mathBlock, fenceCharacter: UInt8(ascii: "$"), fenceLength: 2,
                       fenceIndent: fenceIndent, isFenced: true, lastLineEnd: lineEnd), tree: tree)
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
            tree.nodes[Int(id)].contentEnd = Int32(clamping: tree.content.count)
        }
        if closes {
            closeUnmatched(downTo: open.count - 2, into: &tree)
        }
    }

    /// In an open `$$` block: a line ending with `$$` closes it (text before the `$$` is content).
    mutating func closesDollarMath(into tree: inout SyntaxTree, index: Int) -> Bool {
        var e = lineEnd
        while e > offset && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        guard e - offset >= 2, bytes[e - 1] == UInt8(ascii: "$"), bytes[e - 2] == UInt8(ascii: "$") else { return false }
        var s = nextNonspace
        e -= 2
        while e > s && isSpaceOrTab(bytes[e - 1]) { e -= 1 }
        if s > e { s = e }
        closeUnmatched(downTo: index, into: &tree)
        if e > s {
            appendContent(s, e, into: &tree)
            appendNewline(into: &tree)
            tree.nodes[Int(open[index].node)].contentEnd = Int32(clamping: tree.content.count)
        }
        open[index].lastLineEnd = lineEnd
        closeUnmatched(downTo: index - 1, into: &tree)
        return true
    }
}
