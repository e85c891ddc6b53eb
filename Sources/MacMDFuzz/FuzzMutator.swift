// FuzzMutator: byte-level mutations of a seed input, the way coverage-less fuzzers (and
// libFuzzer's default mutators) make new inputs: flips, inserted and deleted runs, a token of the
// target's grammar dropped in or repeated many times, a part copied elsewhere, a nesting opener
// repeated deep, truncation.
//
// Invariant: an input never exceeds `maximumLength` bytes, so a run's memory and time per input
// are bounded whatever the mutations stack up to.

public struct FuzzMutator: Sendable {
    /// Pieces of the target's grammar (delimiters, keywords) worth inserting.
    public var tokens: [[UInt8]]
    /// The longest input made.
    public var maximumLength: Int

    public init(tokens: [[UInt8]], maximumLength: Int = 16 * 1024) {
        self.tokens = tokens
        self.maximumLength = maximumLength
    }

    /// `seed` with one to eight mutations.
    public func mutate(_ seed: [UInt8], _ random: inout FuzzRandom) -> [UInt8] {
        var bytes = seed
        for _ in 0..<(1 + random.below(8)) {
            mutateOnce(&bytes, &random)
            if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        }
        return bytes
    }

    private func mutateOnce(_ bytes: inout [UInt8], _ random: inout FuzzRandom) {
        let at = random.below(bytes.count + 1)
        switch random.below(10) {
        case 0 where !bytes.isEmpty:
            // Flip a bit.
            let index = random.below(bytes.count)
            bytes[index] ^= UInt8(1 << random.below(8))
        case 1:
            // A random byte, often a special one.
            let special: [UInt8] = [0x00, 0x0A, 0x0D, 0x09, 0x20, 0x22, 0x5C, 0x7F, 0x80, 0xBF, 0xC0, 0xE2, 0xF0, 0xFF]
            bytes.insert(random.oneIn(2) ? random.pick(special) : UInt8(truncatingIfNeeded: random.next()), at: at)
        case 2 where !bytes.isEmpty:
            // Delete a run.
            let start = random.below(bytes.count)
            let length = 1 + random.below(min(16, bytes.count - start))
            bytes.removeSubrange(start..<(start + length))
        case 3 where !tokens.isEmpty, 4 where !tokens.isEmpty:
            bytes.insert(contentsOf: random.pick(tokens), at: at)
        case 5 where !tokens.isEmpty:
            // A long run of one token: delimiter runs, deep nesting.
            let token = random.pick(tokens)
            let count = random.oneIn(4) ? 200 + random.below(2_000) : 2 + random.below(30)
            var run: [UInt8] = []
            run.reserveCapacity(token.count * count)
            for _ in 0..<count { run += token }
            bytes.insert(contentsOf: run.prefix(maximumLength), at: at)
        case 6 where bytes.count > 1:
            // Copy a part elsewhere.
            let start = random.below(bytes.count)
            let length = 1 + random.below(min(64, bytes.count - start))
            let part = Array(bytes[start..<(start + length)])
            bytes.insert(contentsOf: part, at: random.below(bytes.count + 1))
        case 7 where !bytes.isEmpty:
            // Truncate.
            bytes.removeSubrange(random.below(bytes.count)...)
        case 8:
            // Invalid or unusual UTF-8: a lone continuation, an overlong form, a surrogate, a
            // 4-byte scalar.
            let odd: [[UInt8]] = [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBB, 0xBF],
                                  [0xE2, 0x80, 0xAE], [0xF4, 0x90, 0x80, 0x80], [0xC3]]
            bytes.insert(contentsOf: random.pick(odd), at: at)
        default:
            // A line break of some kind.
            bytes.insert(contentsOf: random.pick([[0x0A], [0x0D, 0x0A], [0x0D], [0x0A, 0x0A]]), at: at)
        }
    }
}
