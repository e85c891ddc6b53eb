// GeneratorRandom: the notebook generator's own pseudo-random numbers.
//
// Invariants:
// - The stream is a pure function of the seed on every machine: xoshiro256** seeded through
//   SplitMix64, integer arithmetic only (no `random()`, no `SystemRandomNumberGenerator`).
// - Floating point, where used, is limited to IEEE basic operations (+ - * / and rounding), which
//   every conforming machine computes identically; `exp` is our own series for that reason, since
//   libm's last bits differ between platforms.
// - `below(n)` never traps: a bound below 1 answers 0.

/// xoshiro256** (Blackman and Vigna), seeded by SplitMix64.
struct GeneratorRandom {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A stream for `seed`; `stream` picks an independent sequence (one per note, one per table).
    init(seed: UInt64, stream: UInt64 = 0) {
        var state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        s0 = GeneratorRandom.splitMix(&state)
        s1 = GeneratorRandom.splitMix(&state)
        s2 = GeneratorRandom.splitMix(&state)
        s3 = GeneratorRandom.splitMix(&state)
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    static func splitMix(_ state: inout UInt64) -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        let result = GeneratorRandom.rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = GeneratorRandom.rotate(s3, 45)
        return result
    }

    private static func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A number in `0..<n` (Lemire's multiply-high; the bias is far below anything a test sees).
    mutating func below(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A number in `low...high`.
    mutating func inRange(_ low: Int, _ high: Int) -> Int {
        high <= low ? low : low + below(high - low + 1)
    }

    /// True with probability `perMille` / 1000.
    mutating func chance(_ perMille: Int) -> Bool { below(1000) < perMille }

    /// A double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// An approximately standard normal number: the Irwin–Hall sum of 12 uniforms, minus 6.
    mutating func normal() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return sum - 6
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// e^x from range reduction and a Taylor series: basic operations only, so every machine agrees.
    static func exp(_ x: Double) -> Double {
        let clamped = min(max(x, -40), 40)
        let ln2 = 0.693_147_180_559_945_3
        let k = (clamped / ln2).rounded()
        let r = clamped - k * ln2
        var term = 1.0
        var sum = 1.0
        for i in 1...20 {
            term = term * r / Double(i)
            sum += term
        }
        var power = Int(k)
        while power > 0 { sum *= 2; power -= 1 }
        while power < 0 { sum /= 2; power += 1 }
        return sum
    }
}

/// Draws indices `0..<count` with weight 1/(rank+offset) (Zipf–Mandelbrot with exponent 1; a
/// larger offset flattens the head), by integer cumulative weights. A guide table (the first
/// index past each of `guide.count` equal steps of the total) makes a draw a short linear scan
/// instead of a binary search.
struct ZipfSampler: Sendable {
    private var cumulative: [UInt64] = []
    private var guide: [Int] = []
    private var step: UInt64 = 1

    init(count: Int, offset: Int = 1) {
        let count = max(count, 1)
        cumulative.reserveCapacity(count)
        var total: UInt64 = 0
        for rank in 0..<count {
            total += (1 << 40) / UInt64(rank + max(1, offset))
            cumulative.append(total)
        }
        let guideCount = min(2 * count, 1 << 16)
        step = total / UInt64(guideCount) + 1
        guide.reserveCapacity(guideCount)
        var index = 0
        for g in 0..<guideCount {
            let threshold = UInt64(g) * step
            while index < count - 1, cumulative[index] <= threshold { index += 1 }
            guide.append(index)
        }
    }

    func sample(_ random: inout GeneratorRandom) -> Int {
        guard let total = cumulative.last else { return 0 }
        let r = random.next().multipliedFullWidth(by: total).high
        let g = Int(r / step)
        var index = g < guide.count ? guide[g] : 0
        while index < cumulative.count - 1, cumulative[index] <= r { index += 1 }
        return index
    }
}
