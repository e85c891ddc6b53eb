// The inline pass: turns one leaf block's content into inline nodes (CommonMark 0.31.2 + GFM +
// notebook extensions).
//
// Invariants:
// - What it makes depends on `tree.content[block.contentStart..<block.contentEnd]` only (its
//   sixteen-byte searches may read content before that, and ignore it); never traps on any bytes.
// - Linear time on every input: each byte is visited a bounded number of times. Code spans remember
//   backtick runs per length, raw-HTML and `\(`/`\[` math scans remember "no terminator after X",
//   `$` maths indexes its block's stops once (`DollarMathStops`), emphasis keeps `openersBottom`
//   per (character, can-open, length mod 3) class, and link openers are deactivated by one stack
//   height (`linkFloor`) instead of a walk over the bracket stack.
// - No recursion: emphasis and links are resolved with explicit stacks; the post-pass walks the
//   inline tree through parent links.
// - Every inline node gets a content range and the source range mapped from it. A node is built
//   whole and appended once; the content-to-source pair in use is cached, and a miss gallops
//   forward from the last pair (blocks arrive in document order), so mapping stays O(1) amortised.
// - Tags are never made inside link or image brackets, raw HTML `<a>` elements, or glued to an
//   e-mail address; extended e-mail autolinks never split a backslash escape.
// - Text nodes are maximal runs of literal text (adjacent contiguous runs are merged at the end);
//   `Node.textNeedsDecoding` is set on runs holding a backslash escape or an `&`.
// - Nodes dropped while resolving (consumed delimiter runs, link openers) are unlinked and stay in
//   the arena with no parent.

import TextCore

/// Inline pass over leaf-block content. Create one per document and call `parse(block:in:)` for
/// each paragraph, heading and table cell; the scratch stacks are reused between blocks.
struct InlineParser: ~Copyable {
    let options: ParseOptions

    /// Bytes that may start an inline construct under the current options.
    var specialBytes: [Bool]

    // MARK: Scratch state reused across blocks

    var delimiters = ScratchArray<Delimiter>()
    var lastDelimiter: Int32 = -1
    var openersBottom = InlineParser.noOpeners()
    var brackets = ScratchArray<Bracket>()
    /// Non-image `[` openers at stack index < `linkFloor` are inactive (a link formed after them).
    var linkFloor = 0

    /// Start of the last backtick run seen of each length (valid when its stamp is current).
    /// (Indexed by run length; they grow to the longest run seen, so a parse whose text has no
    /// code spans never allocates them.)
    var backtickLast = ScratchArray<Int>()
    var backtickStamp = ScratchArray<UInt32>()
    var stamp: UInt32 = 0
    var scannedForBackticks = false

    /// "No terminator at or after this offset" memos, so failed scans are never repeated.
    var noCommentEndFrom = Int.max
    var noProcessingEndFrom = Int.max
    var noCDataEndFrom = Int.max
    var noDeclarationEndFrom = Int.max
    var noMathParenCloseFrom = Int.max
    var noMathBracketCloseFrom = Int.max
    /// Where each `$` formula of the block closes (built when the block's first `$` is met).
    var dollarStops = DollarMathStops()

    // MARK: Per-block state

    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var block: NodeID = .none
    var blockStart = 0
    var end = 0
    var pos = 0
    /// Start of the literal text not yet emitted as a node.
    var textStart = 0
    var textFlags: UInt8 = 0
    /// Raw `<a …>` tags opened and not yet closed in this block: text between them is inside an
    /// HTML link, so it holds no tags.
    var openHTMLAnchors = 0
    /// A text node of a delimiter run or a bracket was made in this block (see `run`).
    var madeDelimiterText = false
    /// The block's text may hold an `@`: one was dispatched, escaped, or left in the literal text
    /// of an unresolved footnote reference (see `run`).
    var textMayHoldAt = false
    /// The tree's content-to-source pairs while `parseBlocks` runs.
    var sourceMap = UnsafeBufferPointer<(content: Int32, source: Int32)>(start: nil, count: 0)
    /// `specialBytes` while `parseBlocks` runs.
    var specialTable = UnsafeBufferPointer<Bool>(start: nil, count: 0)
    var sourceMapHint = 0
    var sourceCount = 0
    /// The cached pair of `sourceMap`: content offsets `mapLow..<mapHigh` map by adding `mapDelta`.
    var mapLow = 0
    var mapHigh = 0
    var mapDelta = 0

    var footnoteIndex: [String: Int32] = [:]
    var footnoteIndexCount = -1

    static let maximumBacktickRun = 1000

    init(options: ParseOptions) {
        self.options = options
        let extensions = options.extensions
        // A table shared by every parser with the same extensions (made once), not one per note.
        specialBytes = InlineParser.specialByteTables[(extensions.contains(.strikethrough) ? 1 : 0) | (extensions.contains(.autolink) ? 2 : 0)
                                                      | (extensions.contains(.tags) ? 4 : 0) | (extensions.contains(.math) ? 8 : 0)]
    }

    /// The arrays a parse grows, handed from one document's parser to the next one's on the same
    /// thread (`MarkdownParser.ParseScratch`), emptied with their capacity kept.
    struct Buffers: ~Copyable {
        var delimiters = ScratchArray<Delimiter>()
        var brackets = ScratchArray<Bracket>()
        var openersBottom = InlineParser.noOpeners()
        var backtickLast = ScratchArray<Int>()
        var backtickStamp = ScratchArray<UInt32>()
        var dollarStops = DollarMathStops()
        var footnoteIndex: [String: Int32] = [:]
    }

    /// A parser for a new document with the arrays of an earlier one (taken from `buffers`).
    init(options: ParseOptions, reusing buffers: inout Buffers) {
        self.init(options: options)
        giveBuffers(to: &buffers)
        // What an earlier document left means nothing here (the stamps start again, the
        // footnotes are another document's); `openersBottom` is set before each use.
        delimiters.removeAll()
        brackets.removeAll()
        backtickLast.removeAll()
        backtickStamp.removeAll()
        footnoteIndex.removeAll(keepingCapacity: true)
    }

    /// Hands this parser's arrays to `buffers` for the next document, taking theirs.
    mutating func giveBuffers(to buffers: inout Buffers) {
        swap(&delimiters, &buffers.delimiters)
        swap(&brackets, &buffers.brackets)
        swap(&openersBottom, &buffers.openersBottom)
        swap(&backtickLast, &buffers.backtickLast)
        swap(&backtickStamp, &buffers.backtickStamp)
        swap(&dollarStops, &buffers.dollarStops)
        swap(&footnoteIndex, &buffers.footnoteIndex)
    }

    /// `specialBytes` for each set of the extensions that add bytes to it: strikethrough (1),
    /// autolinks (2), tags (4) and maths (8).
    static let specialByteTables: [[Bool]] = (0..<16).map { set in
        var table = Array(repeating: false, count: 256)
        var special = Array("\n\\`*_[]!<&".utf8)
        if set & 1 != 0 { special.append(UInt8(ascii: "~")) }
        if set & 2 != 0 { special += Array("w:@".utf8) }
        if set & 4 != 0 { special.append(UInt8(ascii: "#")) }
        if set & 8 != 0 { special.append(UInt8(ascii: "$")) }
        for byte in special { table[Int(byte)] = true }
        return table
    }

    /// The first `openersBottom` of a parser: a bottom for each of the 18 classes of delimiter.
    static func noOpeners() -> ScratchArray<Int32> {
        var bottoms = ScratchArray<Int32>(capacity: 18)
        for _ in 0..<18 { bottoms.append(0) }
        return bottoms
    }

    /// Parses the inline content of every paragraph, heading and table cell of `tree` (the block
    /// nodes: the first `blockCount`) and appends the inline nodes as their children. The tree's
    /// buffers are taken once for all the blocks, not once for each.
    mutating func parseBlocks(_ blockCount: Int, in tree: inout SyntaxTree) {
        let content = tree.content
        let pairs = tree.contentToSource
        let special = specialBytes
        // `sourceMapHint` is kept from block to block: blocks come in document order.
        sourceCount = tree.source.count
        sourceMapHint = 0
        mapLow = 0
        mapHigh = 0
        mapDelta = 0
        content.withUnsafeBufferPointer { buffer in
            pairs.withUnsafeBufferPointer { map in
                special.withUnsafeBufferPointer { table in
                    bytes = buffer
                    sourceMap = map
                    specialTable = table
                    var index = 0
                    while index < blockCount {
                        let block = NodeID(truncatingIfNeeded: index)
                        let node = tree.arena[block]
                        index += 1
                        guard node.kind.hasInlineContent else { continue }
                        let start = max(0, Int(node.contentStart))
                        let stop = min(buffer.count, Int(node.contentEnd))
                        guard start < stop else { continue }
                        // The cached run of the content-to-source map (`mapLow..<mapHigh`) is
                        // the map's, not the block's: it stays valid from block to block.
                        run(block: block, kind: node.kind, start: start, stop: stop, tree: &tree)
                    }
                    bytes = UnsafeBufferPointer(start: nil, count: 0)
                    sourceMap = UnsafeBufferPointer(start: nil, count: 0)
                    specialTable = UnsafeBufferPointer(start: nil, count: 0)
                }
            }
        }
    }

    private mutating func run(block: NodeID, kind: NodeKind, start: Int, stop: Int, tree: inout SyntaxTree) {
        self.block = block
        // `removeAll(keepingCapacity:)` is not free even on an empty array; most blocks leave the
        // stacks empty.
        delimiters.removeAll()
        lastDelimiter = -1
        brackets.removeAll()
        linkFloor = 0
        stamp &+= 1
        scannedForBackticks = false
        noCommentEndFrom = Int.max
        noProcessingEndFrom = Int.max
        noCDataEndFrom = Int.max
        noDeclarationEndFrom = Int.max
        noMathParenCloseFrom = Int.max
        noMathBracketCloseFrom = Int.max
        dollarStops.reset()
        openHTMLAnchors = 0
        madeDelimiterText = false
        textMayHoldAt = false

        // Final spaces (and any stray line ending) of the block are not content.
        var stop = stop
        while stop > start, isTrailingSpace(bytes[stop - 1]) { stop -= 1 }

        // A `^block-id` closing a paragraph is cut off before inline parsing.
        var blockIDSpan: ByteSpan? = nil
        if kind == .paragraph, options.extensions.contains(.blockIDs) {
            var index = stop
            while index > start, UnicodeClass.isASCIIAlphanumeric(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: "-") {
                index -= 1
            }
            let caret = index - 1
            if index < stop, caret >= start, bytes[caret] == UInt8(ascii: "^"),
               caret == start || isTrailingSpace(bytes[caret - 1]) {
                blockIDSpan = ByteSpan(caret, stop)
                stop = caret
                while stop > start, isTrailingSpace(bytes[stop - 1]) { stop -= 1 }
            }
        }

        blockStart = start
        end = stop
        pos = start
        textStart = start
        textFlags = 0
        parseInlines(tree: &tree)
        flushText(upTo: end, tree: &tree)
        processEmphasis(bottom: 0, tree: &tree)
        if let span = blockIDSpan {
            appendInline(.blockID, Int(span.start), Int(span.end), tree: &tree)
        }
        // Only text nodes of delimiter runs and brackets can be left beside other text: a block
        // without one (most) has nothing to merge.
        if madeDelimiterText { mergeAdjacentText(in: block, tree: &tree) }
        // Most blocks hold no `@`: the walk over every text node is for those that do. With
        // autolinks `@` is a special byte, so the main loop saw every one its text can hold
        // (bytes that handlers skip become nodes, not text, save the two noted where they are).
        if textMayHoldAt, options.extensions.contains(.autolink) {
            linkEmails(in: block, tree: &tree)
        }
        brackets.removeAll()
    }

    @inline(__always) private func isTrailingSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: The main loop

    private mutating func parseInlines(tree: inout SyntaxTree) {
        let extensions = options.extensions
        // Locals, not stored properties: the handlers mutate `self`, so the skip loop would
        // otherwise reload `bytes`, `end` and the table on every byte.
        let table = specialTable
        let buffer = bytes
        let stop = end
        guard let base = buffer.baseAddress, let special = table.baseAddress else { return }
        while pos < stop {
            let index = InlineParser.skipOrdinary(base, special, from: pos, to: stop)
            pos = index
            guard index < stop else { break }
            dispatch(buffer[index], extensions: extensions, tree: &tree)
        }
    }

    /// The first offset in `from..<to` whose byte is special (`to` when there is none): four
    /// bytes a step, one bound check for the four.
    @inline(__always)
    static func skipOrdinary(_ base: UnsafePointer<UInt8>, _ special: UnsafePointer<Bool>, from: Int, to: Int) -> Int {
        var index = from
        while index &+ 4 <= to {
            if special[Int(base[index])] { return index }
            if special[Int(base[index &+ 1])] { return index &+ 1 }
            if special[Int(base[index &+ 2])] { return index &+ 2 }
            if special[Int(base[index &+ 3])] { return index &+ 3 }
            index &+= 4
        }
        while index < to, !special[Int(base[index])] { index &+= 1 }
        return index
    }

    /// Handles the special byte at `pos`; every handler advances `pos`.
    @inline(__always)
    private mutating func dispatch(_ byte: UInt8, extensions: ParseOptions.Extensions, tree: inout SyntaxTree) {
        switch byte {
        case UInt8(ascii: "\n"): handleNewline(tree: &tree)
        case UInt8(ascii: "\\"): handleBackslash(tree: &tree)
        case UInt8(ascii: "`"): handleBackticks(tree: &tree)
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): handleDelimiterRun(byte, tree: &tree)
        case UInt8(ascii: "["): handleOpenBracket(tree: &tree)
        case UInt8(ascii: "!"): handleBang(tree: &tree)
        case UInt8(ascii: "]"): handleCloseBracket(tree: &tree)
        case UInt8(ascii: "<"): handleLessThan(tree: &tree)
        case UInt8(ascii: "&"):
            textFlags |= Node.textNeedsDecoding
            pos += 1
        case UInt8(ascii: "#"): handleTag(tree: &tree)
        case UInt8(ascii: "$"): handleMath(tree: &tree)
        case UInt8(ascii: "w"):
            if extensions.contains(.autolink) { handleWWWAutolink(tree: &tree) } else { pos += 1 }
        case UInt8(ascii: ":"): handleURLAutolink(tree: &tree)
        case UInt8(ascii: "@"):
            textMayHoldAt = true
            pos += 1
        default: pos += 1
        }
    }

    /// The first offset in `from..<to` holding `target`, reading eight bytes at a time.
    func findByte(_ target: UInt8, from: Int, to: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let to = min(to, bytes.count)
        let index = ByteSearch.firstIndex(of: target, in: base, from: max(0, from), end: to)
        return index < to ? index : nil
    }

    // MARK: Nodes and source ranges

    /// Maps a content offset to its source offset. The content range of the last pair used and its
    /// delta are cached, so the common case (offsets on the same line) is a compare and an add.
    @inline(__always)
    mutating func sourceOffset(_ offset: Int) -> Int {
        if offset >= mapLow && offset < mapHigh { return max(0, min(offset + mapDelta, sourceCount)) }
        return sourceOffsetSlow(offset)
    }

    /// Finds the pair covering `offset` (trying the next pair before a binary search, because
    /// offsets inside one block arrive mostly in order) and caches it.
    @inline(never)
    private mutating func sourceOffsetSlow(_ offset: Int) -> Int {
        let count = sourceMap.count
        if count == 0 { return min(offset, sourceCount) }
        let hint = min(sourceMapHint, count - 1)
        // Most often the pair wanted is the one after the hint: the next line of the block, or
        // the first of the next block.
        let next = hint + 1
        if next < count, Int(sourceMap[next].content) <= offset, next + 1 == count || Int(sourceMap[next + 1].content) > offset {
            return cachePair(next, offset)
        }
        // Else the last pair at or before `offset`: galloping forward from the hint (blocks are
        // parsed in document order, so the next block's pairs are near), else from the start.
        var low = 0, high = count
        if Int(sourceMap[hint].content) <= offset {
            low = hint + 1
            var step = 1
            while hint + step < count, Int(sourceMap[hint + step].content) <= offset {
                low = hint + step + 1
                step <<= 1
            }
            high = min(count, hint + step)
        }
        while low < high {
            let middle = (low + high) >> 1
            if Int(sourceMap[middle].content) <= offset { low = middle + 1 } else { high = middle }
        }
        if low == 0 { return min(offset, sourceCount) }
        return cachePair(low - 1, offset)
    }

    /// Makes pair `found` of the map the cached one and maps `offset` (which it covers) by it.
    @inline(__always)
    private mutating func cachePair(_ found: Int, _ offset: Int) -> Int {
        let count = sourceMap.count
        sourceMapHint = found
        let pair = sourceMap[found]
        mapLow = Int(pair.content)
        mapHigh = found + 1 < count ? Int(sourceMap[found + 1].content) : Int.max
        mapDelta = Int(pair.source) - Int(pair.content)
        return max(0, min(offset + mapDelta, sourceCount))
    }

    /// Sets a node's content range and the source range it maps to.
    mutating func setRange(_ id: NodeID, _ start: Int, _ end: Int, tree: inout SyntaxTree) {
        let sourceStart = sourceOffset(start)
        let sourceEnd = end > start ? max(sourceStart, sourceOffset(end - 1) + 1) : sourceStart
        tree.arena[id].contentStart = Int32(clamping: start)
        tree.arena[id].contentEnd = Int32(clamping: end)
        tree.arena[id].sourceStart = Int32(clamping: sourceStart)
        tree.arena[id].sourceEnd = Int32(clamping: min(sourceEnd, sourceCount))
    }

    /// Makes a detached node whose content is `start..<end` and whose source covers
    /// `sourceFrom..<sourceTo` (content offsets; defaults to the content range).
    mutating func newNode(_ kind: NodeKind, _ start: Int, _ end: Int, sourceFrom: Int? = nil, sourceTo: Int? = nil,
                          flags: UInt8 = 0, data: Int32 = 0, tree: inout SyntaxTree) -> NodeID {
        tree.buildNode(makeValue(kind, start, end, sourceFrom: sourceFrom, sourceTo: sourceTo, flags: flags, data: data))
    }

    /// A complete detached node value, so that creating a node is one append to the arena rather
    /// than an append followed by field-by-field writes.
    @inline(__always)
    private mutating func makeValue(_ kind: NodeKind, _ start: Int, _ end: Int, sourceFrom: Int?, sourceTo: Int?,
                                    flags: UInt8, data: Int32) -> Node {
        let from = sourceFrom ?? start
        let to = sourceTo ?? end
        let sourceStart = sourceOffset(from)
        let sourceEnd = to > from ? min(max(sourceStart, sourceOffset(to - 1) + 1), sourceCount) : sourceStart
        return Node(kind: kind, flags: flags, sourceStart: Int32(clamping: sourceStart), sourceEnd: Int32(clamping: sourceEnd),
                    contentStart: Int32(clamping: start), contentEnd: Int32(clamping: end), data: data)
    }

    /// Makes a node and appends it as the block's last child.
    @discardableResult
    mutating func appendInline(_ kind: NodeKind, _ start: Int, _ end: Int, sourceFrom: Int? = nil, sourceTo: Int? = nil,
                               flags: UInt8 = 0, data: Int32 = 0, tree: inout SyntaxTree) -> NodeID {
        var node = makeValue(kind, start, end, sourceFrom: sourceFrom, sourceTo: sourceTo, flags: flags, data: data)
        let last = tree.arena[block].lastChild
        node.parent = block
        node.previous = last
        let id = tree.buildNode(node)
        if last == .none {
            tree.arena[block].firstChild = id
        } else {
            tree.arena[last].next = id
        }
        tree.arena[block].lastChild = id
        return id
    }

    /// Emits the pending literal text `textStart..<offset` as a text node.
    mutating func flushText(upTo offset: Int, tree: inout SyntaxTree) {
        if offset > textStart {
            appendInline(.text, textStart, offset, flags: textFlags, tree: &tree)
        }
        textFlags = 0
        textStart = max(textStart, offset)
    }

    // MARK: Line breaks and escapes

    private mutating func handleNewline(tree: inout SyntaxTree) {
        var trimmed = pos
        while trimmed > textStart, bytes[trimmed - 1] == 0x20 || bytes[trimmed - 1] == 0x09 { trimmed -= 1 }
        let hard = pos - 2 >= textStart && bytes[pos - 1] == 0x20 && bytes[pos - 2] == 0x20
        flushText(upTo: trimmed, tree: &tree)
        appendInline(hard ? .hardBreak : .softBreak, trimmed, pos + 1, tree: &tree)
        pos += 1
        skipLineStartSpaces()
        textStart = pos
    }

    private mutating func skipLineStartSpaces() {
        while pos < end, bytes[pos] == 0x20 || bytes[pos] == 0x09 { pos += 1 }
    }

    private mutating func handleBackslash(tree: inout SyntaxTree) {
        guard pos + 1 < end else { pos += 1; return }
        let next = bytes[pos + 1]
        if next == 0x0A {
            flushText(upTo: pos, tree: &tree)
            appendInline(.hardBreak, pos, pos + 2, tree: &tree)
            pos += 2
            skipLineStartSpaces()
            textStart = pos
        } else if UnicodeClass.isASCIIPunctuation(next) {
            // `\(…\)` and `\[…\]` are maths in the notebook profile; unclosed, the escape stays.
            if next == UInt8(ascii: "(") || next == UInt8(ascii: "["), options.extensions.contains(.math),
               tryBackslashMath(display: next == UInt8(ascii: "["), tree: &tree) {
                return
            }
            textFlags |= Node.textNeedsDecoding
            // `\@` leaves its `@` in the text, unseen by the main loop.
            if next == UInt8(ascii: "@") { textMayHoldAt = true }
            pos += 2
        } else {
            pos += 1
        }
    }

    // MARK: Code spans

    private mutating func handleBackticks(tree: inout SyntaxTree) {
        let runStart = pos
        var index = pos
        while index < end, bytes[index] == UInt8(ascii: "`") { index += 1 }
        let length = index - runStart
        if let closer = findClosingBackticks(from: index, length: length) {
            flushText(upTo: runStart, tree: &tree)
            appendInline(.code, index, closer, sourceFrom: runStart, sourceTo: closer + length, tree: &tree)
            pos = closer + length
            textStart = pos
        } else {
            pos = index
        }
    }

    /// Finds the start of the next backtick run of exactly `length` at or after `start`.
    private mutating func findClosingBackticks(from start: Int, length: Int) -> Int? {
        guard length <= InlineParser.maximumBacktickRun else { return nil }
        if scannedForBackticks && (length >= backtickStamp.count || backtickStamp[length] != stamp || backtickLast[length] < start) {
            return nil
        }
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index < end {
            index = ByteSearch.firstIndex(of: UInt8(ascii: "`"), in: base, from: index, end: end)
            if index >= end { break }
            let runStart = index
            while index < end, bytes[index] == UInt8(ascii: "`") { index += 1 }
            let runLength = index - runStart
            if runLength <= InlineParser.maximumBacktickRun {
                while runLength >= backtickStamp.count {
                    backtickLast.append(0)
                    backtickStamp.append(0)
                }
                backtickLast[runLength] = runStart
                backtickStamp[runLength] = stamp
            }
            if runLength == length { return runStart }
        }
        scannedForBackticks = true
        return nil
    }

    // MARK: Emphasis delimiters

    private mutating func handleDelimiterRun(_ character: UInt8, tree: inout SyntaxTree) {
        let runStart = pos
        var index = pos
        while index < end, bytes[index] == character { index += 1 }
        let length = index - runStart
        let before = UnicodeClass.scalar(before: runStart, in: bytes, lowerBound: blockStart)
        let after = UnicodeClass.scalar(at: index, in: bytes, end: end)
        let beforeSpace = UnicodeClass.isWhitespace(before)
        let afterSpace = UnicodeClass.isWhitespace(after)
        let beforePunct = UnicodeClass.isPunctuation(before)
        let afterPunct = UnicodeClass.isPunctuation(after)
        let leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
        let rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if character == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || beforePunct)
            canClose = rightFlanking && (!leftFlanking || afterPunct)
        } else if character == UInt8(ascii: "~"), length > 2 {
            canOpen = false
            canClose = false
        }
        pos = index
        guard canOpen || canClose else { return }
        flushText(upTo: runStart, tree: &tree)
        let node = appendInline(.text, runStart, index, tree: &tree)
        madeDelimiterText = true
        textStart = index
        let id = Int32(clamping: delimiters.count)
        delimiters.append(Delimiter(node: node, character: character, length: Int32(clamping: length),
                                    canOpen: canOpen, canClose: canClose, previous: lastDelimiter, next: -1))
        if lastDelimiter >= 0 { delimiters[Int(lastDelimiter)].next = id }
        lastDelimiter = id
    }

    private mutating func removeDelimiter(_ id: Int32) {
        let delimiter = delimiters[Int(id)]
        if delimiter.previous >= 0 { delimiters[Int(delimiter.previous)].next = delimiter.next }
        if delimiter.next >= 0 {
            delimiters[Int(delimiter.next)].previous = delimiter.previous
        } else if lastDelimiter == id {
            lastDelimiter = delimiter.previous
        }
        delimiters[Int(id)].previous = -1
        delimiters[Int(id)].next = -1
    }

    private func bottomClass(_ delimiter: Delimiter) -> Int {
        let characterClass: Int
        switch delimiter.character {
        case UInt8(ascii: "*"): characterClass = 0
        case UInt8(ascii: "_"): characterClass = 1
        default: characterClass = 2
        }
        return characterClass * 6 + (delimiter.canOpen ? 3 : 0) + Int(delimiter.length % 3)
    }

    /// Resolves emphasis among the delimiters with index >= `bottom`, then drops them all
    /// (the "process emphasis" procedure of the spec, with cmark's openers-bottom bookkeeping).
    mutating func processEmphasis(bottom: Int32, tree: inout SyntaxTree) {
        // Nothing at or above `bottom`: no emphasis to resolve (the common case).
        guard lastDelimiter >= 0 && lastDelimiter >= bottom else { return }
        for index in 0..<openersBottom.count { openersBottom[index] = bottom }
        var closer: Int32 = -1
        var candidate = lastDelimiter
        while candidate >= 0 && candidate >= bottom {
            closer = candidate
            candidate = delimiters[Int(candidate)].previous
        }
        while closer >= 0 {
            let closing = delimiters[Int(closer)]
            guard closing.canClose else {
                closer = closing.next
                continue
            }
            let bottomIndex = bottomClass(closing)
            var opener = closing.previous
            var found = false
            while opener >= 0 && opener >= bottom && opener >= openersBottom[bottomIndex] {
                let opening = delimiters[Int(opener)]
                if opening.canOpen && opening.character == closing.character {
                    if !(closing.canOpen || opening.canClose) || closing.length % 3 == 0
                        || (opening.length + closing.length) % 3 != 0 {
                        found = true
                        break
                    }
                }
                opener = opening.previous
            }
            let oldCloser = closer
            if found {
                if closing.character == UInt8(ascii: "~") {
                    closer = insertStrikethrough(opener: opener, closer: closer, tree: &tree)
                } else {
                    closer = insertEmphasis(opener: opener, closer: closer, tree: &tree)
                }
            } else {
                closer = closing.next
                openersBottom[bottomIndex] = oldCloser
                if !closing.canOpen { removeDelimiter(oldCloser) }
            }
        }
        while lastDelimiter >= 0 && lastDelimiter >= bottom {
            removeDelimiter(lastDelimiter)
        }
    }

    /// Wraps the nodes between `opener` and `closer` in emphasis or strong emphasis and returns the
    /// closer to continue from.
    private mutating func insertEmphasis(opener: Int32, closer: Int32, tree: inout SyntaxTree) -> Int32 {
        let openerNode = delimiters[Int(opener)].node
        let closerNode = delimiters[Int(closer)].node
        let openerStart = Int(tree.arena[openerNode].contentStart)
        let openerEnd = Int(tree.arena[openerNode].contentEnd)
        let closerStart = Int(tree.arena[closerNode].contentStart)
        let closerEnd = Int(tree.arena[closerNode].contentEnd)
        let openerCount = openerEnd - openerStart
        let closerCount = closerEnd - closerStart
        let use = openerCount >= 2 && closerCount >= 2 ? 2 : 1
        setRange(openerNode, openerStart, openerEnd - use, tree: &tree)
        setRange(closerNode, closerStart + use, closerEnd, tree: &tree)

        var between = delimiters[Int(closer)].previous
        while between >= 0 && between != opener {
            let previous = delimiters[Int(between)].previous
            removeDelimiter(between)
            between = previous
        }

        let emphasis = newNode(use == 1 ? .emphasis : .strong, openerEnd - use, closerStart + use, tree: &tree)
        moveSiblings(after: openerNode, before: closerNode, into: emphasis, tree: &tree)
        tree.arena.insert(emphasis, after: openerNode)

        if openerCount - use == 0 {
            tree.arena.unlink(openerNode)
            removeDelimiter(opener)
        }
        if closerCount - use == 0 {
            tree.arena.unlink(closerNode)
            let next = delimiters[Int(closer)].next
            removeDelimiter(closer)
            return next
        }
        return closer
    }

    /// GFM strikethrough: opener and closer runs of equal length make `strikethrough`; otherwise
    /// both stay literal. Either way every delimiter from the opener to the closer is dropped.
    private mutating func insertStrikethrough(opener: Int32, closer: Int32, tree: inout SyntaxTree) -> Int32 {
        let openerNode = delimiters[Int(opener)].node
        let closerNode = delimiters[Int(closer)].node
        let next = delimiters[Int(closer)].next
        let openerNodeValue = tree.arena[openerNode]
        let closerNodeValue = tree.arena[closerNode]
        let openerCount = Int(openerNodeValue.contentEnd - openerNodeValue.contentStart)
        let closerCount = Int(closerNodeValue.contentEnd - closerNodeValue.contentStart)
        if openerCount == closerCount {
            let strike = newNode(.strikethrough, Int(openerNodeValue.contentStart), Int(closerNodeValue.contentEnd), tree: &tree)
            moveSiblings(after: openerNode, before: closerNode, into: strike, tree: &tree)
            tree.arena.insert(strike, after: openerNode)
            tree.arena.unlink(openerNode)
            tree.arena.unlink(closerNode)
        }
        var current = closer
        while current >= 0 && current != opener {
            let previous = delimiters[Int(current)].previous
            removeDelimiter(current)
            current = previous
        }
        removeDelimiter(opener)
        return next
    }

    /// Moves the siblings strictly between `first` and `last` (or to the end when `last` is
    /// `.none`) to the end of `parent`'s children.
    mutating func moveSiblings(after first: NodeID, before last: NodeID, into parent: NodeID, tree: inout SyntaxTree) {
        var current = tree.arena[first].next
        while current != .none && current != last {
            let next = tree.arena[current].next
            tree.arena.unlink(current)
            tree.arena.link(current, under: parent)
            current = next
        }
    }

    // MARK: Post-pass

    /// Joins adjacent text siblings whose content ranges touch, anywhere under `root`, without
    /// recursion.
    private func mergeAdjacentText(in root: NodeID, tree: inout SyntaxTree) {
        var current = tree.arena[root].firstChild
        while current != .none {
            if tree.arena[current].kind == .text {
                var next = tree.arena[current].next
                while next != .none, tree.arena[next].kind == .text,
                      tree.arena[next].contentStart == tree.arena[current].contentEnd {
                    let following = tree.arena[next]
                    tree.arena[current].contentEnd = following.contentEnd
                    tree.arena[current].sourceEnd = max(tree.arena[current].sourceEnd, following.sourceEnd)
                    tree.arena[current].flags |= following.flags
                    tree.arena.unlink(next)
                    next = tree.arena[current].next
                }
            }
            let firstChild = tree.arena[current].firstChild
            if firstChild != .none {
                current = firstChild
                continue
            }
            while current != .none && current != root && tree.arena[current].next == .none {
                current = tree.arena[current].parent
            }
            if current == .none || current == root { break }
            current = tree.arena[current].next
        }
    }
}

/// One emphasis or strikethrough delimiter run on the delimiter stack (a doubly linked list
/// threaded through the `delimiters` array; array order is document order).
struct Delimiter {
    /// The text node holding the run's remaining characters.
    var node: NodeID
    var character: UInt8
    /// Length of the original run (for the rule of 3).
    var length: Int32
    var canOpen: Bool
    var canClose: Bool
    var previous: Int32
    var next: Int32
}

/// A `[` or `![` on the bracket stack.
struct Bracket {
    /// The text node holding `[` or `![`.
    var node: NodeID
    /// Content offset of `[` (or of `!` for images).
    var start: Int
    /// Content offset just after the opening bracket: the start of the link text.
    var textStart: Int
    var image: Bool
    /// Another bracket was pushed after this one, so its text cannot be a link label.
    var bracketAfter: Bool
    /// Delimiters with index >= this were pushed after the bracket.
    var delimiterBottom: Int32
}
