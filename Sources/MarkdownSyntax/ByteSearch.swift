// Byte searches eight bytes at a time, for the scans that run over every byte of a note.
//
// Invariant: each function returns exactly what the obvious byte-by-byte loop returns (a test
// compares them on random bytes at every offset and length); reads stay inside the given range.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches of UTF-8 buffers, a 64-bit word at a time.
public enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of the lowest byte of `x` that is zero is set in the result, and no bit below
    /// it (higher bytes may be flagged falsely, by the borrow: only the lowest flag is exact).
    @inline(__always)
    private static func zeroFlags(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// Whether `bytes[start..<end]` begins with `prefix` (ASCII; lower-case when `ignoringCase`, and
    /// then upper-case letters of `bytes` match too). The prefix's bytes are read in place: a
    /// `String`'s UTF-8 view, or an array made of one, cost an allocation or a few hundred
    /// instructions a test (the HTML-block scanner tests every line that starts with `<`; the
    /// renderer every link's URL).
    @inlinable @inline(__always)
    public static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                 _ prefix: StaticString, ignoringCase: Bool) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard start >= 0, end <= bytes.count, end - start >= length else { return false }
        let letters = prefix.utf8Start
        for index in 0..<length {
            let value = bytes[start + index]
            if (ignoringCase ? asciiLower(value) : value) != letters[index] { return false }
        }
        return true
    }

    /// The index of the first `\n` or `\r` in `base[from..<end]`, or `end` when there is none.
    @inline(__always)
    public static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var index = from
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flags = zeroFlags(x ^ (ones &* 0x0A)) | zeroFlags(x ^ (ones &* 0x0D))
            if flags != 0 { return index &+ flags.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte == 0x0A || byte == 0x0D { return index }
            index &+= 1
        }
        return end
    }

    /// The index of the first `target` in `base[from..<end]`, or `end` when there is none. A long
    /// range goes to the C library's `memchr` (vector instructions: 16 or 32 bytes a step).
    @inline(__always)
    public static func firstIndex(of target: UInt8, in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        if end &- from >= 32 {
            guard let found = memchr(base + from, Int32(target), end &- from) else { return end }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        var index = from
        let raw = UnsafeRawPointer(base)
        let pattern = ones &* UInt64(target)
        while index &+ 8 <= end {
            let flags = zeroFlags(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ pattern)
            if flags != 0 { return index &+ flags.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            if base[index] == target { return index }
            index &+= 1
        }
        return end
    }

    /// The index of the first byte in `base[from..<end]` that a URI autolink's body cannot hold
    /// (`<`, `>`, a control character or space, DEL), or `end` when there is none: the body of
    /// `<scheme:…>` is scanned eight bytes a step (tldr pages end every page with one).
    @inline(__always)
    public static func firstIndexOfURIAutolinkStop(in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var index = from
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // `<` and `>` differ in one bit (0x02); bytes below 0x21 by the borrow of a
            // subtraction (none of 0x80 or more is flagged); DEL by equality. Each lowest flag
            // is exact, so the lowest of all is.
            let flags = zeroFlags((word | ones &* 0x02) ^ (ones &* 0x3E))
                | ((word &- ones &* 0x21) & ~word & highs)
                | zeroFlags(word ^ (ones &* 0x7F))
            if flags != 0 { return index &+ flags.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte <= 0x20 || byte == 0x3C || byte == 0x3E || byte == 0x7F { return index }
            index &+= 1
        }
        return end
    }

    /// The index of the first `a`, `b` or `c` in `base[from..<end]`, or `end` when there is none.
    @inline(__always)
    public static func firstIndex(ofAny a: UInt8, _ b: UInt8, _ c: UInt8, in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var index = from
        let raw = UnsafeRawPointer(base)
        let patternA = ones &* UInt64(a)
        let patternB = ones &* UInt64(b)
        let patternC = ones &* UInt64(c)
        while index &+ 8 <= end {
            let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // Each pattern's lowest flag is exact and a false flag sits above a true one of its
            // own pattern, so the lowest flag of the three is exact.
            let flags = zeroFlags(x ^ patternA) | zeroFlags(x ^ patternB) | zeroFlags(x ^ patternC)
            if flags != 0 { return index &+ flags.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte == a || byte == b || byte == c { return index }
            index &+= 1
        }
        return end
    }
}
