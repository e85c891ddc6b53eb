// How well what the user typed matches a candidate, on lowercased UTF-8 bytes.
//
// Invariants:
// - Pure byte comparisons, no allocation: the candidate keys are lowercased once when the
//   workspace is indexed, the query once per request.
// - Tiers only grow with match quality (prefix > word start > substring > subsequence), and a
//   candidate that matches a longer query also matches every prefix of it, so a client that
//   filters further on its own keeps the right items.

/// Ranks candidates against the typed text.
enum CompletionMatcher {
    /// No match.
    static let none = 0
    /// The query's bytes appear in order (`ntt` in `note title`).
    static let subsequence = 1
    /// The query appears somewhere.
    static let substring = 2
    /// The query appears at the start of a word (after a space, `/`, `-`, `_` or `.`).
    static let wordStart = 3
    /// The candidate starts with the query (or the query is empty).
    static let prefix = 4

    /// The typed text as a lowercased key (`String.folded`).
    static func key(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { key($0) }
    }

    /// UTF-8 `bytes` as a lowercased key: ASCII byte by byte, anything else through
    /// `String.folded`.
    static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } }
        return Array(String(decoding: bytes, as: UTF8.self).folded.utf8)
    }

    /// One bit per byte value modulo 64: a candidate whose mask lacks a bit of the query's mask
    /// cannot match it, which rejects most notes without comparing bytes.
    static func mask(_ key: [UInt8]) -> UInt64 {
        var mask: UInt64 = 0
        for byte in key { mask |= 1 << UInt64(byte & 63) }
        return mask
    }

    /// The best tier of `query` in `candidate` (both lowercased), `none` when it does not match.
    static func tier(_ query: [UInt8], _ candidate: [UInt8]) -> Int {
        let queryCount = query.count
        if queryCount == 0 { return prefix }
        let count = candidate.count
        guard queryCount <= count else { return none }
        return query.withUnsafeBufferPointer { q in
            candidate.withUnsafeBufferPointer { c in tier(q, c) }
        }
    }

    /// The best tier of `q` in `c` (both lowercased), on buffers (no reference counting).
    static func tier(_ q: UnsafeBufferPointer<UInt8>, _ c: UnsafeBufferPointer<UInt8>) -> Int {
        let queryCount = q.count
        if queryCount == 0 { return prefix }
        let count = c.count
        guard queryCount <= count else { return none }
        var best = none
        let first = q[0]
        var start = 0
        while start + queryCount <= count {
            if c[start] == first {
                var matched = 1
                while matched < queryCount, c[start + matched] == q[matched] { matched += 1 }
                if matched == queryCount {
                    if start == 0 { return prefix }
                    if isWordBoundary(c[start - 1]) { best = wordStart } else if best < substring { best = substring }
                    if best == wordStart { return best }
                }
            }
            start += 1
        }
        if best != none { return best }
        var matched = 0
        for byte in c where byte == q[matched] {
            matched += 1
            if matched == queryCount { return subsequence }
        }
        return none
    }

    private static func isWordBoundary(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "(")
    }
}
