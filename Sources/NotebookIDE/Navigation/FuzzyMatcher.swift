// Fuzzy subsequence matching for workspace symbols (`workspace/symbol`) and quick pickers.
//
// Invariants:
// - A candidate matches when the query's characters (whitespace removed) occur in it in order,
//   comparing Unicode scalars lowercased by their simple (first-scalar) lowercase mapping, so
//   `é` matches `É` and `ß` matches `ß`; ASCII takes a fast path that never allocates.
// - Scoring is one streaming pass over the candidate's UTF-8 bytes, with a dynamic program over
//   the query (at most `maximumQueryLength` scalars) held in a stack buffer: the best alignment
//   wins, not the first greedy one. A cheap greedy pass rejects non-matches first.
// - Scores: each matched character earns a base score, plus a bonus at a word start (the
//   beginning, after a separator, a lower-to-upper camel-case step), more for consecutive runs
//   and a prefix; gaps cost an opening and a per-character penalty. The same inputs always give
//   the same score; ranking is stable (equal scores keep the candidates' order).
// - Nothing here traps: invalid UTF-8 decodes to U+FFFD; sums stay far from `Int32` overflow
//   because a candidate is read to at most `maximumCandidateLength` scalars.

/// A prepared fuzzy query. Build one per query and score many candidates with it.
public struct FuzzyMatcher: Sendable {
    /// Query scalars beyond this many are ignored.
    public static let maximumQueryLength = 64
    /// Candidate scalars beyond this many are not read (a heading longer than this matches on its
    /// first part only).
    public static let maximumCandidateLength = 4096

    /// One ranked candidate: its index in the input and its score (higher is better).
    public struct Match: Sendable, Equatable {
        public var index: Int
        public var score: Int
        public init(index: Int, score: Int) {
            self.index = index
            self.score = score
        }
    }

    // Score weights (see the file comment). A match is worth 16; bonuses are fractions of it.
    static let matchScore: Int32 = 16
    static let wordStartBonus: Int32 = 8
    static let camelBonus: Int32 = 7
    static let consecutiveBonus: Int32 = 5
    static let prefixBonus: Int32 = 8
    static let gapOpenPenalty: Int32 = 3
    static let gapExtendPenalty: Int32 = 1
    static let leadingGapCap: Int32 = 8
    static let exactBonus: Int32 = 16
    static let negative: Int32 = Int32.min / 4

    /// The query's scalars, lowercased, whitespace removed.
    private let query: [UInt32]
    private let queryIsASCII: Bool

    /// Prepares `query`: whitespace is dropped (so `soil test` finds `Soil tests` and
    /// `soiltest`), case is ignored.
    public init(query: String) {
        var scalars: [UInt32] = []
        for scalar in query.unicodeScalars where !scalar.properties.isWhitespace {
            if scalars.count == FuzzyMatcher.maximumQueryLength { break }
            scalars.append(FuzzyMatcher.folded(scalar.value))
        }
        self.query = scalars
        self.queryIsASCII = scalars.allSatisfy { $0 < 0x80 }
    }

    /// True when the query has no characters: every candidate matches with score 0.
    public var isEmpty: Bool { query.isEmpty }

    /// The score of `candidate`, or nil when the query is not a subsequence of it.
    public func score(_ candidate: String) -> Int? {
        if query.isEmpty { return 0 }
        var text = candidate
        return text.withUTF8 { bytes -> Int? in
            guard isSubsequence(bytes) else { return nil }
            let best = align(bytes)
            return best > FuzzyMatcher.negative ? Int(best) : nil
        }
    }

    /// The `limit` best-scoring candidates, best first; equal scores keep input order. An empty
    /// query returns the first `limit` candidates with score 0.
    public func rank(_ candidates: [String], limit: Int) -> [Match] {
        rank(candidates, limit: limit) { $0 }
    }

    /// The `limit` best-scoring elements of `candidates` by the text `key` gives each, best first;
    /// equal scores keep input order.
    public func rank<S: Sequence>(_ candidates: S, limit: Int, key: (S.Element) -> String) -> [Match] {
        guard limit > 0 else { return [] }
        // A min-heap of the best `limit` so far, ordered so that its root is the worst kept:
        // a lower score, or the same score with a later index.
        var heap: [Match] = []
        heap.reserveCapacity(min(limit, 1024))
        for (index, element) in candidates.enumerated() {
            guard let score = score(key(element)) else { continue }
            let match = Match(index: index, score: score)
            if heap.count < limit {
                heap.append(match)
                FuzzyMatcher.siftUp(&heap, heap.count - 1)
            } else if let worst = heap.first, FuzzyMatcher.isBetter(match, than: worst) {
                heap[0] = match
                FuzzyMatcher.siftDown(&heap, 0)
            }
        }
        return heap.sorted { FuzzyMatcher.isBetter($0, than: $1) }
    }

    // MARK: Matching

    /// The greedy check: are the query's scalars a subsequence of the candidate's?
    private func isSubsequence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var want = 0
        var index = 0
        let count = bytes.count
        var read = 0
        while index < count, read < FuzzyMatcher.maximumCandidateLength {
            let byte = bytes[index]
            var scalar: UInt32
            if byte < 0x80 {
                scalar = UInt32(byte)
                if scalar &- 0x41 < 26 { scalar |= 0x20 }
                index += 1
            } else {
                if queryIsASCII && !FuzzyMatcher.mayFoldToASCII(bytes, index) {
                    index += FuzzyMatcher.sequenceLength(byte)
                    read += 1
                    continue
                }
                let (value, length) = FuzzyMatcher.decode(bytes, index)
                scalar = FuzzyMatcher.folded(value)
                index += length
            }
            read += 1
            if scalar == query[want] {
                want += 1
                if want == query.count { return true }
            }
        }
        return false
    }

    /// The best alignment's score: a dynamic program over the query, one column per candidate
    /// scalar. `matched[i]` is the best score with query scalar `i` matched at the current
    /// position; `decayed[i]` the best score with it matched at or before the current position,
    /// less the gap penalty to here.
    private func align(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let m = query.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * m) { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return FuzzyMatcher.negative }
            let matched = base, decayed = base + m, decayedBefore = base + 2 * m
            for i in 0..<m {
                matched[i] = FuzzyMatcher.negative
                decayed[i] = FuzzyMatcher.negative
                decayedBefore[i] = FuzzyMatcher.negative
            }
            var best = FuzzyMatcher.negative
            var position: Int32 = 0
            var index = 0
            var previousClass = CharacterClass.separator
            let count = bytes.count
            while index < count, position < Int32(FuzzyMatcher.maximumCandidateLength) {
                let (value, length) = FuzzyMatcher.decode(bytes, index)
                index += length
                let scalar = FuzzyMatcher.folded(value)
                let currentClass = FuzzyMatcher.characterClass(value, folded: scalar)
                var bonus: Int32 = 0
                if currentClass != .separator {
                    if previousClass == .separator {
                        bonus = FuzzyMatcher.wordStartBonus
                    } else if previousClass == .lower && currentClass == .upper {
                        bonus = FuzzyMatcher.camelBonus
                    } else if previousClass != .digit && currentClass == .digit {
                        bonus = FuzzyMatcher.camelBonus
                    }
                }
                previousClass = currentClass
                // Descending, so that row i - 1 still holds the previous column's values.
                var i = m - 1
                while i >= 0 {
                    var score = FuzzyMatcher.negative
                    if query[i] == scalar {
                        if i == 0 {
                            score = FuzzyMatcher.matchScore + 2 * bonus
                                - min(position, FuzzyMatcher.leadingGapCap)
                            if position == 0 { score += FuzzyMatcher.prefixBonus }
                        } else {
                            let consecutive = matched[i - 1] + FuzzyMatcher.consecutiveBonus
                            let gapped = decayedBefore[i - 1] - FuzzyMatcher.gapOpenPenalty
                            let previous = max(consecutive, gapped)
                            if previous > FuzzyMatcher.negative {
                                score = previous + FuzzyMatcher.matchScore + bonus
                            }
                        }
                    }
                    decayedBefore[i] = decayed[i]
                    decayed[i] = max(score, decayed[i] - FuzzyMatcher.gapExtendPenalty)
                    if decayed[i] < FuzzyMatcher.negative { decayed[i] = FuzzyMatcher.negative }
                    matched[i] = score
                    i -= 1
                }
                if matched[m - 1] > best { best = matched[m - 1] }
                position += 1
            }
            guard best > FuzzyMatcher.negative else { return best }
            // Prefer the candidate that is the query, then shorter ones, a little.
            if position == Int32(m) { return best + FuzzyMatcher.exactBonus }
            return best - min((position - Int32(m)) / 4, 8)
        }
    }

    // MARK: Characters

    private enum CharacterClass: UInt8 {
        case separator, lower, upper, digit, other
    }

    private static func characterClass(_ value: UInt32, folded: UInt32) -> CharacterClass {
        if value < 0x80 {
            if value &- 0x61 < 26 { return .lower }
            if value &- 0x41 < 26 { return .upper }
            if value &- 0x30 < 10 { return .digit }
            return .separator
        }
        guard let scalar = Unicode.Scalar(value) else { return .separator }
        if folded != value { return .upper }
        let properties = scalar.properties
        if properties.isAlphabetic { return .lower }
        if properties.numericType != nil { return .digit }
        if properties.isWhitespace { return .separator }
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator:
            return .separator
        default:
            return .other
        }
    }

    /// The scalar's simple lowercase form (the first scalar of its lowercase mapping).
    static func folded(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return value &- 0x41 < 26 ? value | 0x20 : value }
        guard let scalar = Unicode.Scalar(value) else { return value }
        let properties = scalar.properties
        guard properties.changesWhenLowercased else { return value }
        return properties.lowercaseMapping.unicodeScalars.first?.value ?? value
    }

    /// Non-ASCII scalars that lowercase to ASCII: U+0130 (İ → i + dot) and U+212A (Kelvin → k),
    /// U+212B (Ångström → å is not ASCII, so not it). Both start with bytes C4 B0 and E2 84 AA.
    private static func mayFoldToASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        let byte = bytes[index]
        if byte == 0xC4 { return index + 1 < bytes.count && bytes[index + 1] == 0xB0 }
        if byte == 0xE2 {
            return index + 2 < bytes.count && bytes[index + 1] == 0x84 && bytes[index + 2] == 0xAA
        }
        return false
    }

    @inline(__always)
    private static func sequenceLength(_ lead: UInt8) -> Int {
        if lead < 0xC0 { return 1 }
        if lead < 0xE0 { return 2 }
        if lead < 0xF0 { return 3 }
        return 4
    }

    /// Decodes the scalar at `index`: its value (U+FFFD for a bad sequence) and its byte length
    /// (at least 1, never past the end).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = sequenceLength(lead)
        guard length > 1, index + length <= bytes.count else { return (0xFFFD, 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, offset) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }

    // MARK: Heap

    @inline(__always)
    static func isBetter(_ a: Match, than b: Match) -> Bool {
        a.score != b.score ? a.score > b.score : a.index < b.index
    }

    private static func siftUp(_ heap: inout [Match], _ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            // The root is the worst: a parent must be worse than its children.
            guard isBetter(heap[parent], than: heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Match], _ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < heap.count, isBetter(heap[worst], than: heap[left]) { worst = left }
            if right < heap.count, isBetter(heap[worst], than: heap[right]) { worst = right }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
