// SearchTerms: what the index keeps of one note for full-text search. The note's terms, hashed,
// each with its frequency weighted by the field it was read in, and the note's weighted length:
// what BM25 needs of a note, with no text and no positions (phrases are checked against the
// text of the few notes ranked first, see `SearchQuery`).
//
// Invariants:
// - Made from the note's text alone, at index time, by the one tokenizer of the index
//   (`MentionTokens`, read with `MentionTokens.searchScalarTable`, which folds accents as well as
//   case): the incremental index equals a fresh build, and a query's words are cut and folded
//   exactly as the notes' were.
// - A term is a word's 32-bit hash (`TokenHasher`); in the scripts written without spaces
//   (Chinese, Japanese, Thai…) each pair of letters one right after the other is a term (a
//   bigram: `日本語` gives `日本` and `本語`), and a letter with no such neighbour is a term of
//   its own. Two words sharing a hash are one term (rare: a query may then rank a note that
//   holds the other word).
// - Fields and their weights, in halves (BM25F-lite: one weighted frequency and one weighted
//   length): the title 6, headings 4, prose (paragraphs, lists, quotes, tables, link texts) 2,
//   code (spans and blocks, maths) 1, front matter 1. So code and front matter are found but
//   rank below prose, and titles and headings above.
// - `hashes` sorted, each once; `weights` beside them (saturated at 255 halves); five bytes a
//   term. Comparing two notes' terms is a merge of sorted arrays (`Notebook` files only what
//   came or went). Counting sorts the terms met by radix (four passes of a byte), not by
//   comparison: it is the larger part of a note's cost.
// - `pairs`: a filter of the pairs of tokens that follow one another in the note's raw text (its
//   bytes as written, symbols skipped: what a phrase is checked against, `SearchQuery`), 2,048
//   bits, one a pair. A phrase can be in the note only if each of its pairs' bits is set, so
//   phrases read the text of few notes besides those that hold them (at 250 pairs a note, about
//   one in nine that hold the words apart). Never a false "no".

import MarkdownSyntax

/// The weighted, hashed terms of a note (see the file comment).
public struct SearchTerms: Sendable, Equatable {
    /// Term hashes, sorted, each once.
    public private(set) var hashes: [UInt32]
    /// The weighted frequency of each term (in halves of a prose word), saturated at 255.
    public private(set) var weights: [UInt8]
    /// The sum of the weights of every term read (in halves of a prose word).
    public private(set) var length: UInt32
    /// The filter of the pairs of tokens that follow one another in the raw text (32 words of
    /// bits; empty for a note without two tokens).
    public private(set) var pairs: [UInt64] = []

    public init() {
        hashes = []
        weights = []
        length = 0
    }

    /// The fields a note's text is read in, with their weights (in halves).
    public enum Field: UInt8, Sendable, CaseIterable {
        case title, heading, prose, code, frontMatter

        public var weight: UInt16 {
            switch self {
            case .title: return 6
            case .heading: return 4
            case .prose: return 2
            case .code, .frontMatter: return 1
            }
        }
    }

    public var isEmpty: Bool { hashes.isEmpty }

    /// The weighted frequency of `term` (0 when the note does not hold it).
    @inline(__always)
    public func weight(of term: UInt32) -> UInt8 {
        hashes.withUnsafeBufferPointer { hashes in
            var low = 0
            var high = hashes.count
            while low < high {
                let middle = (low &+ high) &>> 1
                if hashes[middle] < term { low = middle &+ 1 } else { high = middle }
            }
            return low < hashes.count && hashes[low] == term ? weights[low] : 0
        }
    }

    /// What a thread that reads note after note keeps: the terms met, before they are counted.
    public struct Scratch: Sendable {
        var pending: [UInt64] = []
        var sorting: [UInt64] = []

        public init() {}
    }

    /// The terms of `tree` (the note's text) and of its `title`.
    public init(tree: SyntaxTree, title: String) {
        var scratch = Scratch()
        self.init(tree: tree, title: title, scratch: &scratch)
    }

    /// The terms of `tree` and `title`, with `scratch`'s buffers.
    public init(tree: SyntaxTree, title: String, scratch: inout Scratch) {
        var title = title
        // A term takes a byte at least, so the text's and the title's bytes bound their count.
        let capacity = tree.source.count + title.utf8.count + 8
        if scratch.pending.count < capacity { scratch.pending = [UInt64](repeating: 0, count: capacity * 2) }
        if scratch.sorting.count < capacity { scratch.sorting = [UInt64](repeating: 0, count: capacity * 2) }
        let table = MentionTokens.searchScalarTable
        let count = scratch.pending.withUnsafeMutableBufferPointer { pending -> Int in
            var sink = TermSink(out: pending)
            tree.source.withUnsafeBufferPointer { source in
                var reader = MentionTokenReader(source, table: table)
                SearchTerms.forEachRun(in: tree) { start, end, field in
                    sink.weight = field.weight
                    reader.read(from: start, to: end, into: &sink)
                    sink.endRun()
                }
            }
            title.withUTF8 { bytes in
                var reader = MentionTokenReader(bytes, table: table)
                sink.weight = Field.title.weight
                reader.read(from: 0, to: bytes.count, into: &sink)
                sink.endRun()
            }
            return sink.count
        }
        self.init(counting: &scratch.pending, count: count, buffer: &scratch.sorting)
        pairs = SearchTerms.pairFilter(tree.source)
    }

    static let pairBits = 2048

    /// The bit of the pair of tokens `first` then `second` (their hashes) in `pairs`.
    @inline(__always)
    static func pairBit(_ first: UInt32, _ second: UInt32) -> Int {
        Int(truncatingIfNeeded: MentionTokens.mix(MentionTokens.mix(0x27D4_EB2F, first), second) &>> 7) & (pairBits - 1)
    }

    /// The filter of the pairs of tokens that follow one another in `bytes` (see `pairs`).
    static func pairFilter(_ bytes: [UInt8]) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: pairBits / 64)
        var any = false
        bytes.withUnsafeBufferPointer { source in
            bits.withUnsafeMutableBufferPointer { bits in
                var sink = PairSink(bits: bits)
                var reader = MentionTokenReader(source, table: MentionTokens.searchScalarTable)
                reader.read(from: 0, to: source.count, into: &sink)
                any = sink.any
            }
        }
        return any ? bits : []
    }

    /// Whether the note may hold tokens following one another whose pairs have the bits `bits`.
    func mayHoldPairs(_ bits: [Int]) -> Bool {
        guard !bits.isEmpty else { return true }
        guard pairs.count == SearchTerms.pairBits / 64 else { return false }
        return bits.allSatisfy { pairs[$0 &>> 6] & (1 &<< UInt64($0 & 63)) != 0 }
    }

    /// Sets the bit of each pair of tokens (words, letters of scripts without spaces) that
    /// follow one another; symbols and white space between them do not count, as in a phrase.
    struct PairSink: MentionTokenSink {
        static var takesSymbols: Bool { false }
        let bits: UnsafeMutableBufferPointer<UInt64>
        var previous: UInt32? = nil
        var any = false

        @inline(__always)
        mutating func add(_ hash: UInt32) {
            if let previous {
                let bit = SearchTerms.pairBit(previous, hash)
                bits[bit &>> 6] |= 1 &<< UInt64(bit & 63)
                any = true
            }
            previous = hash
        }

        @inline(__always)
        mutating func take(_ token: MentionToken) {
            if token.kind != .symbol { add(token.hash) }
        }

        @inline(__always)
        mutating func takeWord(start: Int, end: Int, hash: UInt32) { add(hash) }
    }

    /// The terms of the first `count` of `pending` (a term's hash in the high half, a weight in
    /// the low), sorted here by their hashes (`buffer`: room for the sort, as large).
    init(counting pending: inout [UInt64], count: Int, buffer: inout [UInt64]) {
        var hashes: [UInt32] = []
        var weights: [UInt8] = []
        var total: UInt32 = 0
        pending.withUnsafeMutableBufferPointer { all in
            buffer.withUnsafeMutableBufferPointer { room in
                let items = UnsafeMutableBufferPointer(rebasing: all[0..<min(count, all.count)])
                SearchTerms.sortByHigh32(items, buffer: room)
                var distinct = 0
                var last: UInt64 = .max
                for item in items where item >> 32 != last {
                    distinct += 1
                    last = item >> 32
                }
                hashes.reserveCapacity(distinct)
                weights.reserveCapacity(distinct)
                for item in items {
                    let hash = UInt32(truncatingIfNeeded: item >> 32)
                    let weight = UInt32(truncatingIfNeeded: item & 0xFFFF)
                    total &+= weight
                    if let end = hashes.last, end == hash {
                        weights[weights.count - 1] = UInt8(min(255, UInt32(weights[weights.count - 1]) + weight))
                    } else {
                        hashes.append(hash)
                        weights.append(UInt8(min(255, weight)))
                    }
                }
            }
        }
        self.hashes = hashes
        self.weights = weights
        self.length = total
    }

    /// The terms of `text` in the order met (a query's), as a note's are cut.
    static func terms(of text: String) -> [UInt32] {
        var text = text
        let capacity = text.utf8.count + 8
        var pending = [UInt64](repeating: 0, count: capacity)
        let count = pending.withUnsafeMutableBufferPointer { pending -> Int in
            var sink = TermSink(out: pending)
            text.withUTF8 { bytes in
                var reader = MentionTokenReader(bytes, table: MentionTokens.searchScalarTable)
                reader.read(from: 0, to: bytes.count, into: &sink)
                sink.endRun()
            }
            return sink.count
        }
        return pending.prefix(count).map { UInt32(truncatingIfNeeded: $0 >> 32) }
    }

    /// Sorts `items` by their high 32 bits (stable: a least-significant-digit radix sort, a byte
    /// a pass, through `buffer`); a pass whose byte is the same for all is skipped.
    static func sortByHigh32(_ items: UnsafeMutableBufferPointer<UInt64>, buffer: UnsafeMutableBufferPointer<UInt64>) {
        let count = items.count
        guard count > 1, buffer.count >= count else { return }
        var counts = (0..<256).map { _ in 0 }
        var inItems = true
        counts.withUnsafeMutableBufferPointer { counts in
            for pass in 0..<4 {
                let shift = UInt64(32 + pass * 8)
                let source = inItems ? items : UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                let target = inItems ? UnsafeMutableBufferPointer(rebasing: buffer[0..<count]) : items
                for index in 0..<256 { counts[index] = 0 }
                for index in 0..<count { counts[Int(truncatingIfNeeded: source[index] &>> shift) & 0xFF] &+= 1 }
                if counts[Int(truncatingIfNeeded: source[0] &>> shift) & 0xFF] == count { continue }
                var total = 0
                for index in 0..<256 {
                    let here = counts[index]
                    counts[index] = total
                    total &+= here
                }
                for index in 0..<count {
                    let item = source[index]
                    let digit = Int(truncatingIfNeeded: item &>> shift) & 0xFF
                    target[counts[digit]] = item
                    counts[digit] &+= 1
                }
                inItems.toggle()
            }
        }
        if !inItems, let base = items.baseAddress, let from = buffer.baseAddress { base.update(from: from, count: count) }
    }

    /// Calls `body` with each run of `tree`'s source to read and its field: the text of
    /// headings, of the other leaf blocks (with their links' texts and emphasis, tags and
    /// wiki-links), code spans and
    /// blocks, maths, and the front matter. Text nodes that follow one another with nothing
    /// between them are one run, so a word or a pair of letters cut by the parser stays whole.
    @inline(__always)
    static func forEachRun(in tree: SyntaxTree, _ body: (Int, Int, Field) -> Void) {
        let sourceCount = tree.source.count
        var runStart = -1
        var runEnd = -1
        var runField = Field.prose
        tree.nodes.withUnsafeBufferPointer { nodes in
            for index in nodes.indices {
                let node = nodes[index]
                guard node.parent != .none else { continue }
                let start = min(max(0, Int(node.sourceStart)), sourceCount)
                let end = min(max(start, Int(node.sourceEnd)), sourceCount)
                let field: Field
                switch node.kind {
                case .text, .tag, .wikiLink:
                    // A tag's words (`#café` is found by `cafe`) and a wiki-link's target and
                    // label (a reader sees one of them) are read as the text around them.
                    // The leaf block holding the text says its field (a bounded climb: inlines
                    // nest only as deep as the parser allows).
                    var parent = node.parent
                    var steps = 0
                    var inHeading = false
                    while parent >= 0, Int(parent) < nodes.count, steps < 64 {
                        let kind = nodes[Int(parent)].kind
                        if kind.hasInlineContent {
                            inHeading = kind == .heading
                            break
                        }
                        parent = nodes[Int(parent)].parent
                        steps += 1
                    }
                    field = inHeading ? .heading : .prose
                    if runStart >= 0, runEnd == start, runField == field {
                        runEnd = end
                    } else {
                        if runStart >= 0, runEnd > runStart { body(runStart, runEnd, runField) }
                        runStart = start
                        runEnd = end
                        runField = field
                    }
                    continue
                case .code, .codeBlock, .mathBlock, .inlineMath, .displayMath:
                    field = .code
                case .frontMatter:
                    field = .frontMatter
                default:
                    continue
                }
                if runStart >= 0, runEnd > runStart { body(runStart, runEnd, runField) }
                runStart = -1
                if end > start { body(start, end, field) }
            }
        }
        if runStart >= 0, runEnd > runStart { body(runStart, runEnd, runField) }
    }

    /// The hash of two letters of a script without spaces, one right after the other.
    @inline(__always)
    static func bigram(_ first: UInt32, _ second: UInt32) -> UInt32 {
        MentionTokens.mix(MentionTokens.mix(0x5BD1_E995, first), second)
    }

    /// Takes the tokens of a run: words as they are, letters of scripts without spaces as
    /// bigrams (a lone one as itself).
    struct TermSink: MentionTokenSink {
        static var takesSymbols: Bool { false }

        /// Where the terms go (room for all: see `init(tree:title:scratch:)`), and how many went.
        let out: UnsafeMutableBufferPointer<UInt64>
        var count = 0
        var weight: UInt16 = 2
        /// The last letter of a script without spaces, and whether it made a pair with the one
        /// before it.
        var unspaced: UInt32? = nil
        var paired = false

        init(out: UnsafeMutableBufferPointer<UInt64>) { self.out = out }

        @inline(__always)
        mutating func add(_ hash: UInt32) {
            guard count < out.count else { return }
            out[count] = UInt64(hash) &<< 32 | UInt64(weight)
            count &+= 1
        }

        @inline(__always)
        mutating func take(_ token: MentionToken) {
            switch token.kind {
            case .word:
                endRun()
                add(token.hash)
            case .unspaced:
                if let before = unspaced, !token.spaceBefore {
                    add(SearchTerms.bigram(before, token.hash))
                    unspaced = token.hash
                    paired = true
                } else {
                    endRun()
                    unspaced = token.hash
                    paired = false
                }
            case .symbol:
                endRun()
            }
        }

        @inline(__always)
        mutating func takeWord(start: Int, end: Int, hash: UInt32) {
            endRun()
            add(hash)
        }

        @inline(__always)
        mutating func takeBreak() { endRun() }

        /// Ends a sequence of letters without spaces: a lone one is a term of its own.
        @inline(__always)
        mutating func endRun() {
            if let lone = unspaced, !paired { add(lone) }
            unspaced = nil
            paired = false
        }
    }
}
