// ProseWords: what the index keeps of a note's prose for unlinked mentions. Not the text, nor
// where its words are: the set of its words and of its pairs of words that follow one another
// (and, in the scripts without spaces, of its pairs of letters), each hashed to 16 bits. A name can be in the note's prose only if every one of its
// keys is in the set; so looking for a note's mentions reads the text of only the notes that
// may hold them.
//
// Invariants:
// - Made from the note's text alone, at index time, with the tokenizer that reads names
//   (`MentionTokens`): it does not depend on other notes, so the incremental index equals a
//   fresh build without any work when names come and go.
// - A filter, never a verdict: `mayContain` is true for every name the prose holds (no
//   mention is ever missed), and sometimes for one it does not (two words sharing a hash, or
//   the words of a name present but apart); the text decides (`MentionMatcher`).
// - Two bytes a key, sorted, each once: about 600 bytes for a note of 1.5 KB. The pairs of
//   words cost half of it, and make the filter sharp for names of common words (`Machine
//   Learning`): their words are everywhere, their pair is not.

import MarkdownSyntax

/// The hashed words of a note's prose (see the file comment).
public struct ProseWords: Sendable, Equatable {
    /// The keys, sorted, each once.
    public private(set) var keys: [UInt16]

    public init() { keys = [] }

    init(keys: [UInt16]) { self.keys = keys }

    /// A bit for every key, all clear between two notes, to read note after note without making
    /// one each time (a cold index's threads keep one each, with their parse scratch).
    public struct Scratch: Sendable {
        /// A bit a key (1,024 words) and, in `summary`, a bit a word of `bits` that has one set:
        /// the keys come out sorted from the few words set, which are cleared as they are read.
        var bits = [UInt64](repeating: 0, count: 1024)
        var summary = [UInt64](repeating: 0, count: 16)

        public init() {}
    }

    /// The keys of `tree`'s prose (`ProseText`).
    public init(tree: SyntaxTree) {
        var scratch = Scratch()
        self.init(tree: tree, scratch: &scratch)
    }

    /// The keys of `tree`'s prose, with `scratch`'s bitmap (left clear).
    public init(tree: SyntaxTree, scratch: inout Scratch) {
        keys = scratch.bits.withUnsafeMutableBufferPointer { bits in
            scratch.summary.withUnsafeMutableBufferPointer { summary in
                var sink = KeySink(bits: bits, summary: summary)
                tree.source.withUnsafeBufferPointer { source in
                    var reader = MentionTokenReader(source)
                    ProseText.forEachRun(in: tree) { start, end in
                        sink.unspacedBefore = nil
                        sink.wordBefore = nil
                        reader.read(from: start, to: end, into: &sink)
                    }
                }
                // Counted first, so the array kept for the note is made at its size; the bits
                // read in order are the keys sorted.
                var total = 0
                for part in 0..<16 {
                    var words = summary[part]
                    while words != 0 {
                        total &+= bits[part &<< 6 | words.trailingZeroBitCount].nonzeroBitCount
                        words &= words &- 1
                    }
                }
                return [UInt16](unsafeUninitializedCapacity: total) { buffer, count in
                    for part in 0..<16 {
                        var words = summary[part]
                        summary[part] = 0
                        while words != 0 {
                            let index = part &<< 6 | words.trailingZeroBitCount
                            words &= words &- 1
                            var word = bits[index]
                            bits[index] = 0
                            while word != 0, count < buffer.count {
                                buffer[count] = UInt16(truncatingIfNeeded: index &<< 6 | word.trailingZeroBitCount)
                                count &+= 1
                                word &= word &- 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Sets the bit of each key of the tokens it takes. It takes no symbols
    /// (`MentionTokenSink.takesSymbols`): two letters without spaces on either side of one
    /// (`東。京`) give their pair's key too, a key more than `forEachKey` gives, never one less.
    private struct KeySink: MentionTokenSink {
        static var takesSymbols: Bool { false }

        let bits: UnsafeMutableBufferPointer<UInt64>
        let summary: UnsafeMutableBufferPointer<UInt64>
        /// The hash of the token before when it is a letter of a script without spaces.
        var unspacedBefore: UInt32? = nil
        /// The hash of the last word, unless a letter of a script without spaces came since.
        var wordBefore: UInt32? = nil

        @inline(__always)
        mutating func take(_ token: MentionToken) {
            switch token.kind {
            case .word:
                takeWord(start: 0, end: 0, hash: token.hash)
                unspacedBefore = nil
            case .unspaced:
                if let before = unspacedBefore, !token.spaceBefore { set(ProseWords.pairKey(before, token.hash)) }
                unspacedBefore = token.hash
                wordBefore = nil
            case .symbol:
                unspacedBefore = nil
            }
        }

        /// (The sixteen bytes end with `takeBreak`, which forgets the letter before.)
        @inline(__always)
        mutating func takeWord(start: Int, end: Int, hash: UInt32) {
            set(ProseWords.key(hash))
            if let before = wordBefore { set(ProseWords.wordPairKey(before, hash)) }
            wordBefore = hash
        }

        @inline(__always)
        mutating func takeBreak() {
            unspacedBefore = nil
        }

        /// Sets the key's bit and its word's, with no branch: whether a key is new is a coin
        /// toss the processor would guess wrong half the time.
        @inline(__always)
        private func set(_ key: UInt16) {
            let index = Int(key &>> 6)
            bits[index] |= UInt64(1) &<< UInt64(key & 63)
            summary[index &>> 6] |= UInt64(1) &<< UInt64(index & 63)
        }
    }

    public var isEmpty: Bool { keys.isEmpty }

    /// Whether the prose may hold a text whose keys are `required` (`requiredKeys`).
    public func mayContain(_ required: [UInt16]) -> Bool {
        keys.withUnsafeBufferPointer { keys in
            required.allSatisfy { key in
                var low = 0
                var high = keys.count
                while low < high {
                    let middle = (low + high) / 2
                    if keys[middle] < key { low = middle + 1 } else { high = middle }
                }
                return low < keys.count && keys[low] == key
            }
        }
    }

    /// The keys any prose holding `tokens` in a row holds too.
    static func requiredKeys(_ tokens: ArraySlice<MentionToken>) -> [UInt16] {
        var keys: [UInt16] = []
        forEachKey(tokens) { if !keys.contains($0) { keys.append($0) } }
        return keys
    }

    /// Calls `body` with the keys of `tokens`: each word's; each pair of words that follow one
    /// another (symbols between them or not; `machine learning`, `node.js`); each pair of
    /// letters of a script without spaces, one right after the other. What both the prose and
    /// a name are keyed by, so a name's keys are among those of any text holding its tokens.
    static func forEachKey(_ tokens: ArraySlice<MentionToken>, _ body: (UInt16) -> Void) {
        var previous: MentionToken? = nil
        var wordBefore: UInt32? = nil
        for token in tokens {
            switch token.kind {
            case .word:
                body(key(token.hash))
                if let before = wordBefore { body(wordPairKey(before, token.hash)) }
                wordBefore = token.hash
            case .unspaced:
                if let before = previous, before.kind == .unspaced, !token.spaceBefore { body(pairKey(before.hash, token.hash)) }
                wordBefore = nil
            case .symbol:
                break
            }
            previous = token
        }
    }

    /// The key of two words that follow one another.
    @inline(__always)
    static func wordPairKey(_ first: UInt32, _ second: UInt32) -> UInt16 {
        key(MentionTokens.mix(MentionTokens.mix(0x9747_B28C, first), second))
    }

    /// The key of two letters of a script without spaces, one right after the other.
    @inline(__always)
    static func pairKey(_ first: UInt32, _ second: UInt32) -> UInt16 {
        key(MentionTokens.mix(MentionTokens.mix(MentionTokens.fnvOffset, first), second))
    }

    /// A 32-bit hash folded to 16 bits.
    @inline(__always)
    static func key(_ hash: UInt32) -> UInt16 { UInt16(truncatingIfNeeded: hash ^ (hash >> 16)) }
}
