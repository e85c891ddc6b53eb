// ByteScan: finds the next byte a JSON string cannot hold raw, eight bytes at a time.
//
// Invariant: `firstSpecial` returns the smallest index ≥ `start` whose byte is `"`, `\` or
// below 0x20, or `end` when there is none; it reads no byte outside `start..<end`.

enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is `"`, `\` or below 0x20 (exact, by the classic SWAR
    /// "has zero byte" and "has byte less than" tests).
    @inline(__always)
    private static func hasSpecial(_ word: UInt64) -> Bool {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highBits != 0
    }

    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    /// The index of the first `"`, `\` or control byte in `start..<end`, or `end`.
    @inline(__always)
    static func firstSpecial(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard let base = bytes.baseAddress, start < end else { return end }
        var index = start
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end {
            if hasSpecial(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { break }
            index += 8
        }
        while index < end, !isSpecial(base[index]) { index += 1 }
        return index
    }
}
