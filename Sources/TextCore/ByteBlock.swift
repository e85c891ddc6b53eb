// Sixteen bytes at a time: the vector step of the byte scans that run over every byte of a note.
//
// Invariant: `ByteBlock.firstIndex` returns exactly what the obvious byte-by-byte loop with the
// same test returns, and reads only inside `base[0..<end]` (tests compare the scans built on it
// with that loop on random bytes at every offset and length).

/// Sixteen bytes compared at once. `SIMD16<UInt8>` is the standard library's: its comparisons
/// compile to one vector instruction each (SSE2 on x86-64, NEON on ARM), with no dependency.
public enum ByteBlock {
    /// Sixteen bytes.
    public typealias Bytes = SIMD16<UInt8>
    /// A flag for each of sixteen bytes, as a comparison of `Bytes` gives it.
    public typealias Flags = SIMDMask<SIMD16<Int8>>

    /// Every byte `value`.
    @_transparent
    public static func splat(_ value: UInt8) -> Bytes { Bytes(repeating: value) }

    /// The flags of the bytes equal to `value`.
    @_transparent
    public static func equal(_ bytes: Bytes, _ value: UInt8) -> Flags { bytes .== Bytes(repeating: value) }

    /// The flags of the bytes in `low...high` (unsigned; one subtraction and one compare).
    @_transparent
    public static func within(_ bytes: Bytes, _ low: UInt8, _ high: UInt8) -> Flags {
        (bytes &- Bytes(repeating: low)) .<= Bytes(repeating: high &- low)
    }

    /// `flags` as two words, the first sixteen bytes' flags low byte first: 0xFF for a flagged
    /// byte, 0 for the others (lane order is memory order on every little-endian platform Swift
    /// runs on: x86-64 and ARM64).
    @_transparent
    public static func words(_ flags: Flags) -> (UInt64, UInt64) {
        let halves = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
        return (halves[0], halves[1])
    }

    /// The offset (0..<16) of the first flagged byte of `flags` at or after `skipping`, or 16.
    @_transparent
    public static func firstFlagged(_ flags: Flags, skipping: Int = 0) -> Int {
        var (low, high) = words(flags)
        if skipping != 0 {
            let bits = UInt64(truncatingIfNeeded: skipping) &<< 3
            if bits < 64 {
                low &= ~0 &<< bits
            } else {
                low = 0
                high &= ~0 &<< (bits &- 64)
            }
        }
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        if high != 0 { return 8 &+ high.trailingZeroBitCount &>> 3 }
        return 16
    }

    /// The index of the first byte of `base[from..<end]` that `vector` flags (and `scalar`
    /// accepts: both say the same of every byte), or `end` when there is none.
    ///
    /// Sixteen bytes a step; the last (partial) step reads the sixteen bytes that end at `end`
    /// again, with those before its start masked off, so a range of sixteen bytes or more never
    /// goes byte by byte. Only when fewer than sixteen bytes lie below `end` in all does `scalar`
    /// test them one at a time. Reads stay inside `base[0..<end]`.
    @_transparent
    public static func firstIndex(in base: UnsafePointer<UInt8>, from: Int, end: Int,
                                  vector: (Bytes) -> Flags, scalar: (UInt8) -> Bool) -> Int {
        var index = from
        guard index < end else { return end }
        let raw = UnsafeRawPointer(base)
        if end >= 16 {
            while index &+ 16 <= end {
                let found = firstFlagged(vector(raw.loadUnaligned(fromByteOffset: index, as: Bytes.self)))
                if found < 16 { return index &+ found }
                index &+= 16
            }
            if index >= end { return end }
            let start = end &- 16
            let found = firstFlagged(vector(raw.loadUnaligned(fromByteOffset: start, as: Bytes.self)),
                                     skipping: index &- start)
            return found < 16 ? start &+ found : end
        }
        while index < end {
            if scalar(base[index]) { return index }
            index &+= 1
        }
        return end
    }
}
