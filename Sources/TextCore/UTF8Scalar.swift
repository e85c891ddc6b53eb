// Decoding of one UTF-8 scalar at a byte offset, the way LineIndex counts columns.
//
// Invariants: never reads outside `0..<end`; an ill-formed or truncated sequence is one byte long
// and counts as one U+FFFD (one code point, one UTF-16 unit). The rule is self-synchronising: a
// well-formed sequence only covers continuation bytes, which never start one, so the scalar that
// contains a byte can be found by looking back at most three bytes.

/// The length of one scalar in UTF-8 bytes and in UTF-16 units.
@usableFromInline
struct UTF8ScalarLength {
    @usableFromInline var utf8Count: Int
    @usableFromInline var utf16Count: Int

    @inlinable init(utf8Count: Int, utf16Count: Int) {
        self.utf8Count = utf8Count
        self.utf16Count = utf16Count
    }

    /// The scalar starting at `offset` in `bytes[..<end]` (`offset < end` is required).
    /// Follows Table 3-7 of the Unicode Standard for well-formed sequences.
    @inlinable
    static func at(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> UTF8ScalarLength {
        let lead = bytes[offset]
        if lead < 0x80 { return UTF8ScalarLength(utf8Count: 1, utf16Count: 1) }
        let invalid = UTF8ScalarLength(utf8Count: 1, utf16Count: 1)
        @inline(__always) func byte(_ k: Int) -> UInt8 {
            offset + k < end ? bytes[offset + k] : 0
        }
        @inline(__always) func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            return isContinuation(byte(1)) ? UTF8ScalarLength(utf8Count: 2, utf16Count: 1) : invalid
        case 0xE0...0xEF:
            let second = byte(1)
            let secondOK: Bool
            switch lead {
            case 0xE0: secondOK = (0xA0...0xBF).contains(second)
            case 0xED: secondOK = (0x80...0x9F).contains(second)  // no surrogates
            default: secondOK = isContinuation(second)
            }
            return secondOK && isContinuation(byte(2)) ? UTF8ScalarLength(utf8Count: 3, utf16Count: 1) : invalid
        case 0xF0...0xF4:
            let second = byte(1)
            let secondOK: Bool
            switch lead {
            case 0xF0: secondOK = (0x90...0xBF).contains(second)
            case 0xF4: secondOK = (0x80...0x8F).contains(second)  // nothing past U+10FFFF
            default: secondOK = isContinuation(second)
            }
            return secondOK && isContinuation(byte(2)) && isContinuation(byte(3))
                ? UTF8ScalarLength(utf8Count: 4, utf16Count: 2) : invalid
        default:
            return invalid
        }
    }

    /// The start of the scalar that contains `offset`, looking back no further than `floor`.
    /// `offset` itself when it already starts a scalar (or is `end`).
    @inlinable
    static func start(containing offset: Int, floor: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int {
        guard offset < end, offset > floor, bytes[offset] & 0xC0 == 0x80 else { return offset }
        var candidate = offset - 1
        let lowest = max(floor, offset - 3)
        while candidate >= lowest {
            if at(candidate, in: bytes, end: end).utf8Count > offset - candidate { return candidate }
            if bytes[candidate] & 0xC0 != 0x80 { break }  // a lead or ASCII byte that does not reach
            candidate -= 1
        }
        return offset
    }
}

/// Decoding of the scalars most text is made of, for the byte loops that classify scalars
/// (word counting, case folding, slugs) without building Strings.
public enum UTF8BMPScalar {
    /// The value and byte length of the well-formed two- or three-byte sequence at `index` in
    /// `bytes` (U+0080 to U+FFFF, surrogates excepted); nil for ASCII, a four-byte sequence, or
    /// bytes that are ill-formed or cut off by the end of `bytes`.
    @inlinable @inline(__always)
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, width: Int)? {
        let count = bytes.count
        guard index >= 0, index < count else { return nil }
        let lead = bytes[index]
        if lead & 0xE0 == 0xC0 {
            guard lead >= 0xC2, index &+ 1 < count, bytes[index &+ 1] & 0xC0 == 0x80 else { return nil }
            return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[index &+ 1] & 0x3F), 2)
        }
        guard lead & 0xF0 == 0xE0, index &+ 2 < count, bytes[index &+ 1] & 0xC0 == 0x80, bytes[index &+ 2] & 0xC0 == 0x80 else {
            return nil
        }
        let value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index &+ 1] & 0x3F) << 6 | UInt32(bytes[index &+ 2] & 0x3F)
        return value >= 0x800 && value & 0xF800 != 0xD800 ? (value, 3) : nil
    }
}
