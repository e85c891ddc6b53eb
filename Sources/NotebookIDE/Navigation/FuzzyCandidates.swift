// Candidate texts prepared once for fuzzy ranking (`FuzzyMatcher`), so that each keystroke of a
// `workspace/symbol` query only compares numbers.
//
// Invariants:
// - All candidates live in flat arrays (no allocation per candidate): their scalars lowercased
//   by `FuzzyMatcher.folded`, the word-start bonus of each position, where each candidate starts,
//   and a 64-bit mask of the scalars it holds (bit `folded & 63`), which rejects most
//   non-matches with one `&`.
// - A candidate is read to at most `FuzzyMatcher.maximumCandidateLength` scalars.
// - Invalid UTF-8 reads as U+FFFD (the `String`s given are valid already; this is for safety).

/// Texts prepared for `FuzzyMatcher.rank(_:limit:)`. Build it when the symbols change, and
/// rank against it for every query.
public struct FuzzyCandidates: Sendable {
    /// Every candidate's lowercased scalars, one after another.
    var scalars: [UInt32] = []
    /// The bonus a match earns at each position of `scalars` (word start, camel-case step).
    var bonuses: [Int32] = []
    /// Where candidate `i` starts in `scalars`; `starts[count]` is the end.
    var starts: [Int] = [0]
    /// The scalars each candidate holds, as bits `folded & 63`.
    var masks: [UInt64] = []

    public init() {}

    /// Prepares `texts`, in order: match indices refer to positions in it.
    public init<S: Sequence>(_ texts: S) where S.Element == String {
        let estimate = texts.underestimatedCount
        scalars.reserveCapacity(estimate * 24)
        bonuses.reserveCapacity(estimate * 24)
        starts.reserveCapacity(estimate + 1)
        masks.reserveCapacity(estimate)
        for text in texts { append(text) }
    }

    /// The number of candidates.
    public var count: Int { masks.count }

    /// Adds one candidate at the end (index `count` before the call).
    public mutating func append(_ text: String) {
        var mask: UInt64 = 0
        var previous = FuzzyMatcher.CharacterClass.separator
        var read = 0
        for scalar in text.unicodeScalars {
            if read == FuzzyMatcher.maximumCandidateLength { break }
            read += 1
            let folded = FuzzyMatcher.folded(scalar.value)
            let current = FuzzyMatcher.characterClass(scalar.value, folded: folded)
            scalars.append(folded)
            bonuses.append(FuzzyMatcher.bonus(previous: previous, current: current))
            mask |= 1 &<< UInt64(folded & 63)
            previous = current
        }
        starts.append(scalars.count)
        masks.append(mask)
    }
}
