// Byte searches sixteen bytes at a time (TextCore's `ByteBlock`), for the scans that run over
// every byte of a note.
//
// Invariant: each function returns exactly what the obvious byte-by-byte loop returns (a test
// compares them on random bytes at every offset and length); reads stay inside `base[0..<end]`
// (the last step of a search may read again bytes before `from`).

import TextCore

/// Searches of UTF-8 buffers.
public enum ByteSearch {
    /// Whether `bytes[start..<end]` begins with `prefix` (ASCII; lower-case when `ignoringCase`, and
    /// then upper-case letters of `bytes` match too). The prefix's bytes are read in place: a
    /// `String`'s UTF-8 view, or an array made of one, cost an allocation or far more than the
    /// comparison a test (the HTML-block scanner tests every line that starts with `<`; the
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
        ByteBlock.firstIndex(in: base, from: from, end: end,
                             vector: { ByteBlock.equal($0, 0x0A) .| ByteBlock.equal($0, 0x0D) },
                             scalar: { $0 == 0x0A || $0 == 0x0D })
    }

    /// The index of the first `target` in `base[from..<end]`, or `end` when there is none. Inline
    /// vector steps rather than the C library's `memchr`: most searches end within a line, where
    /// the call and its set-up cost more than the search.
    @inline(__always)
    public static func firstIndex(of target: UInt8, in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        ByteBlock.firstIndex(in: base, from: from, end: end,
                             vector: { ByteBlock.equal($0, target) }, scalar: { $0 == target })
    }

    /// The index of the first byte in `base[from..<end]` that a URI autolink's body cannot hold
    /// (`<`, `>`, a control character or space, DEL), or `end` when there is none: the body of
    /// `<scheme:…>` is scanned sixteen bytes a step (tldr pages end every page with one).
    @inline(__always)
    public static func firstIndexOfURIAutolinkStop(in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        ByteBlock.firstIndex(in: base, from: from, end: end,
                             vector: {
                                 // `<` and `>` differ in one bit (0x02).
                                 ByteBlock.within($0, 0, 0x20) .| ByteBlock.equal($0 | ByteBlock.splat(0x02), 0x3E)
                                     .| ByteBlock.equal($0, 0x7F)
                             },
                             scalar: { $0 <= 0x20 || $0 == 0x3C || $0 == 0x3E || $0 == 0x7F })
    }

    /// The index of the first `a`, `b` or `c` in `base[from..<end]`, or `end` when there is none.
    @inline(__always)
    public static func firstIndex(ofAny a: UInt8, _ b: UInt8, _ c: UInt8, in base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        ByteBlock.firstIndex(in: base, from: from, end: end,
                             vector: { ByteBlock.equal($0, a) .| ByteBlock.equal($0, b) .| ByteBlock.equal($0, c) },
                             scalar: { $0 == a || $0 == b || $0 == c })
    }
}
