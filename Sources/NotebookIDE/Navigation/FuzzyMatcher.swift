// Fuzzy subsequence matching for workspace symbols (`workspace/symbol`) and quick pickers.
//
// Invariants:
// - A candidate matches when the query's characters (whitespace removed) occur in it in order,
//   comparing Unicode scalars lowercased by their simple (first-scalar) lowercase mapping, so
//   `é` matches `É` and `K` (Kelvin sign) matches `k`. ASCII never reaches the Unicode tables.
// - Candidates are compared in their prepared form (`FuzzyCandidates`): a 64-bit mask rejects
//   most non-matches at once, a greedy pass rejects the rest, and a dynamic program over the
//   query (at most `maximumQueryLength` scalars, one scratch buffer for a whole ranking) finds
//   the best alignment, not the first greedy one, over the window from the first possible
//   start to the last possible end.
// - Scores: each matched character earns a base score, plus a bonus at a word start (the
//   beginning, after a separator, a lower-to-upper camel-case step, the first digit), more for
//   consecutive runs and a prefix; gaps cost an opening and a per-character penalty. The same
//   inputs always give the same score; ranking is stable (equal scores keep input order).
// - Nothing here traps: scores stay within a few hundred thousand of 0 or of `negative`
//   (64 query scalars × 4096 candidate scalars), far from `Int32`'s ends, which is why the
//   arithmetic may wrap (`&+`) without overflow checks.

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
    /// The bits of the query's scalars (see `FuzzyCandidates.masks`).
    private let queryMask: UInt64

    /// Prepares `query`: whitespace is dropped (so `soil test` finds `Soil tests` and
    /// `soiltest`), case is ignored.
    public init(query: String) {
        var scalars: [UInt32] = []
        for scalar in query.unicodeScalars where !scalar.properties.isWhitespace {
            if scalars.count == FuzzyMatcher.maximumQueryLength { break }
            scalars.append(FuzzyMatcher.folded(scalar.value))
        }
        self.query = scalars
        self.queryMask = scalars.reduce(0) { $0 | 1 &<< UInt64($1 & 63) }
    }

    /// True when the query has no characters: every candidate matches with score 0.
    public var isEmpty: Bool { query.isEmpty }

    /// The score of `candidate`, or nil when the query is not a subsequence of it.
    public func score(_ candidate: String) -> Int? {
        if query.isEmpty { return 0 }
        var prepared = FuzzyCandidates()
        prepared.append(candidate)
        return rank(prepared, limit: 1).first?.score
    }

    /// The `limit` best-scoring candidates, best first; equal scores keep input order. An empty
    /// query returns the first `limit` candidates with score 0. Prepares the texts on each
    /// call: to rank the same texts for many queries, prepare a `FuzzyCandidates` once.
    public func rank(_ candidates: [String], limit: Int) -> [Match] {
        rank(FuzzyCandidates(candidates), limit: limit)
    }

    /// The `limit` best-scoring elements of `candidates` by the text `key` gives each, best first;
    /// equal scores keep input order.
    public func rank<S: Sequence>(_ candidates: S, limit: Int, key: (S.Element) -> String) -> [Match] {
        rank(FuzzyCandidates(candidates.lazy.map(key)), limit: limit)
    }

    /// The `limit` best-scoring prepared candidates, best first; equal scores keep input order.
    public func rank(_ candidates: FuzzyCandidates, limit: Int) -> [Match] {
        guard limit > 0 else { return [] }
        if query.isEmpty {
            return (0..<min(limit, candidates.count)).map { Match(index: $0, score: 0) }
        }
        let m = query.count
        // A min-heap of the best `limit` so far, ordered so that its root is the worst kept:
        // a lower score, or the same score with a later index.
        var heap: [Match] = []
        heap.reserveCapacity(min(limit, 1024))
        query.withUnsafeBufferPointer { query in
        candidates.scalars.withUnsafeBufferPointer { scalars in
        candidates.bonuses.withUnsafeBufferPointer { bonuses in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * m) { scratch in
            let masks = candidates.masks, starts = candidates.starts
            for index in 0..<masks.count where masks[index] & queryMask == queryMask {
                let start = starts[index], end = starts[index + 1]
                guard start >= 0, start <= end, end <= scalars.count,
                      let scalarBase = scalars.baseAddress, let bonusBase = bonuses.baseAddress else { continue }
                let best = FuzzyMatcher.align(
                    query: query,
                    scalars: UnsafeBufferPointer(start: scalarBase + start, count: end - start),
                    bonuses: UnsafeBufferPointer(start: bonusBase + start, count: end - start),
                    scratch: scratch)
                guard let score = best else { continue }
                let match = Match(index: index, score: Int(score))
                if heap.count < limit {
                    heap.append(match)
                    FuzzyMatcher.siftUp(&heap, heap.count - 1)
                } else if let worst = heap.first, FuzzyMatcher.isBetter(match, than: worst) {
                    heap[0] = match
                    FuzzyMatcher.siftDown(&heap, 0)
                }
            }
        }
        }
        }
        }
        return heap.sorted { FuzzyMatcher.isBetter($0, than: $1) }
    }

    // MARK: Matching

    /// The best alignment's score of `query` in one candidate, or nil when it does not match.
    ///
    /// A dynamic program with one column per candidate scalar: `matched[i]` is the best score
    /// with query scalar `i` matched at the current position; `decayed[i]` the best score with
    /// it matched at or before the current position, less the gap penalty to here;
    /// `decayedBefore[i]` the same one position earlier.
    static func align(query: UnsafeBufferPointer<UInt32>, scalars: UnsafeBufferPointer<UInt32>,
                      bonuses: UnsafeBufferPointer<Int32>, scratch: UnsafeMutableBufferPointer<Int32>) -> Int32? {
        let m = query.count, n = scalars.count
        guard m > 0, m <= n, scratch.count >= 3 * m, let base = scratch.baseAddress else { return nil }
        // Greedy pass: is the query a subsequence at all, and where can a match start and end?
        let first = query[0], last = m &- 1, lastScalar = query[last]
        var windowStart = -1
        var want = 0
        var j = 0
        while j < n {
            if scalars[j] == query[want] {
                if want == 0 { windowStart = j }
                want &+= 1
                if want == m { break }
            }
            j &+= 1
        }
        guard want == m else { return nil }
        var windowEnd = n &- 1
        while windowEnd > j, scalars[windowEnd] != lastScalar { windowEnd &-= 1 }

        let matched = base, decayed = base + m, decayedBefore = base + 2 * m
        for i in 0..<m {
            matched[i] = negative
            decayed[i] = negative
            decayedBefore[i] = negative
        }
        var best = negative
        j = windowStart
        while j <= windowEnd {
            let scalar = scalars[j], bonus = bonuses[j]
            // Descending, so that row i - 1 still holds the previous column's values.
            var i = last
            while i > 0 {
                var score = negative
                if query[i] == scalar {
                    let previous = max(matched[i &- 1] &+ consecutiveBonus, decayedBefore[i &- 1] &- gapOpenPenalty)
                    if previous > negative { score = previous &+ matchScore &+ bonus }
                }
                decayedBefore[i] = decayed[i]
                decayed[i] = max(score, max(decayed[i] &- gapExtendPenalty, negative))
                matched[i] = score
                i &-= 1
            }
            var score = negative
            if first == scalar {
                let position = Int32(truncatingIfNeeded: j)
                score = matchScore &+ 2 &* bonus &- min(position, leadingGapCap)
                if j == 0 { score &+= prefixBonus }
            }
            decayedBefore[0] = decayed[0]
            decayed[0] = max(score, max(decayed[0] &- gapExtendPenalty, negative))
            matched[0] = score
            if matched[last] > best { best = matched[last] }
            j &+= 1
        }
        guard best > negative else { return nil }
        // Prefer the candidate that is the query, then shorter ones, a little.
        if n == m { return best &+ exactBonus }
        return best &- Int32(min((n &- m) / 4, 8))
    }

    // MARK: Characters

    enum CharacterClass: UInt8 {
        case separator, lower, upper, digit, other
    }

    /// The bonus of a match at a scalar of class `current` that follows one of class `previous`.
    static func bonus(previous: CharacterClass, current: CharacterClass) -> Int32 {
        guard current != .separator else { return 0 }
        if previous == .separator { return wordStartBonus }
        if previous == .lower && current == .upper { return camelBonus }
        if previous != .digit && current == .digit { return camelBonus }
        return 0
    }

    @inline(__always)
    static func characterClass(_ value: UInt32, folded: UInt32) -> CharacterClass {
        if value < 0x80 {
            if value &- 0x61 < 26 { return .lower }
            if value &- 0x41 < 26 { return .upper }
            if value &- 0x30 < 10 { return .digit }
            return .separator
        }
        return nonASCIICharacterClass(value, folded: folded)
    }

    @inline(never)
    private static func nonASCIICharacterClass(_ value: UInt32, folded: UInt32) -> CharacterClass {
        guard let scalar = Unicode.Scalar(value) else { return .separator }
        if folded != value { return .upper }
        let properties = scalar.properties
        if properties.isAlphabetic { return .lower }
        if properties.isWhitespace { return .separator }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber:
            return .digit
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator:
            return .separator
        default:
            return .other
        }
    }

    /// The scalar's simple lowercase form (the first scalar of its lowercase mapping).
    @inline(__always)
    static func folded(_ value: UInt32) -> UInt32 {
        if value < 0x80 { return value &- 0x41 < 26 ? value | 0x20 : value }
        return nonASCIIFolded(value)
    }

    @inline(never)
    private static func nonASCIIFolded(_ value: UInt32) -> UInt32 {
        guard let scalar = Unicode.Scalar(value) else { return value }
        let properties = scalar.properties
        guard properties.changesWhenLowercased else { return value }
        return properties.lowercaseMapping.unicodeScalars.first?.value ?? value
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
