// FuzzRandom: the fuzzers' source of randomness, SplitMix64, so that an input is a function of
// (target, seed, index) and any input a run produced can be made again from those three numbers.

/// A deterministic 64-bit generator (SplitMix64).
public struct FuzzRandom: Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The generator of input `index` of a run seeded `seed`: independent streams per input.
    public init(seed: UInt64, index: UInt64) {
        var mixer = FuzzRandom(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<2 { _ = mixer.next() }
        self.init(seed: mixer.next() &+ index &* 0xD1B5_4A32_D192_ED03)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is not positive.
    public mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }

    /// True one time in `n`.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// An element of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
