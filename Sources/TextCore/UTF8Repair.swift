// The repair of text for output the way cmark makes it: valid UTF-8 without NUL.
//
// Invariants: NUL and every ill-formed sequence become one U+FFFD each, with the sequence
// boundaries of cmark's `utf8proc_valid` (a lead byte and the continuation bytes it claims are one
// sequence; a sequence cut off by the end of the text runs to the first byte that is not a
// continuation). These are not `LineIndex`'s boundaries (one U+FFFD per ill-formed byte, as LSP
// clients count): this rule is for the bytes MacMD writes, so that they match cmark's. Reads
// only inside its input; clean input is returned as it is.

/// cmark's UTF-8 repair: shared by the HTML writer and the plain text of the syntax tree (heading
/// ids, titles), so both read ill-formed input the same way.
public enum UTF8Repair {
    /// Length of the valid UTF-8 sequence at `input[index]` (a byte >= 0x80), or minus the number
    /// of bytes to replace by one U+FFFD when it is invalid (cmark's `utf8proc_valid`).
    @inlinable @inline(__always)
    public static func validSequenceLength(_ input: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        if let base = input.baseAddress {
            let length = wellFormedLength(base, index, input.count)
            if length > 0 { return length }
        }
        return checkedSequenceLength(input, index)
    }

    /// The length of the well-formed sequence at `base[index]` (a byte >= 0x80, `index < count`),
    /// or 0 when it is not one (then `checkedSequenceLength` says how much to replace). Inlined
    /// where text is scanned: a call per character costs more than the check it makes.
    @inlinable @inline(__always)
    public static func wellFormedLength(_ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int {
        let lead = base[index]
        if lead < 0xE0 {
            return lead >= 0xC2 && index + 1 < count && base[index + 1] & 0xC0 == 0x80 ? 2 : 0
        }
        if lead < 0xF0 {
            guard index + 2 < count else { return 0 }
            let second = base[index + 1]
            guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 else { return 0 }
            // E0 needs A0 or more (shorter forms are overlong); ED below A0 (above: surrogates).
            if lead == 0xE0 && second < 0xA0 || lead == 0xED && second >= 0xA0 { return 0 }
            return 3
        }
        guard lead <= 0xF4, index + 3 < count else { return 0 }
        let second = base[index + 1]
        guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80, base[index + 3] & 0xC0 == 0x80 else { return 0 }
        // F0 needs 90 or more (overlong below); F4 below 90 (past U+10FFFF above).
        if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second >= 0x90 { return 0 }
        return 4
    }

    /// `validSequenceLength` for every byte, the ill-formed included (cmark's `utf8proc_valid`).
    @usableFromInline @inline(never)
    static func checkedSequenceLength(_ input: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let lead = input[index]
        let remaining = input.count - index
        let length: Int
        switch lead {
        case 0xC0...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF7: length = 4
        default: return -1
        }
        if length > remaining {
            // cmark replaces the rest of the line; stop at the first byte that is not a continuation.
            var i = 1
            while i < remaining && input[index + i] & 0xC0 == 0x80 { i += 1 }
            return -i
        }
        var i = 1
        while i < length {
            if input[index + i] & 0xC0 != 0x80 { return -i }
            i += 1
        }
        switch length {
        case 2:
            if lead < 0xC2 { return -length }
        case 3:
            let scalar = (UInt32(lead & 0x0F) << 12) | (UInt32(input[index + 1] & 0x3F) << 6) | UInt32(input[index + 2] & 0x3F)
            if scalar < 0x800 || (scalar >= 0xD800 && scalar < 0xE000) { return -length }
        default:
            let scalar = (UInt32(lead & 0x07) << 18) | (UInt32(input[index + 1] & 0x3F) << 12)
                | (UInt32(input[index + 2] & 0x3F) << 6) | UInt32(input[index + 3] & 0x3F)
            if scalar < 0x10000 || scalar >= 0x110000 { return -length }
        }
        return length
    }

    /// How many bytes of `input` the repair replaces with U+FFFD: NUL bytes and the bytes of
    /// ill-formed sequences (0 for clean input, checked at the speed of `isClean`).
    public static func replacedByteCount(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        if isClean(input) { return 0 }
        var replaced = 0
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte >= 0x80 {
                let length = validSequenceLength(input, index)
                if length < 0 { replaced -= length }
                index += max(1, abs(length))
            } else {
                if byte == 0 { replaced += 1 }
                index += 1
            }
        }
        return replaced
    }

    /// True when `input` is well-formed UTF-8 without NUL: nothing in it needs a repair. ASCII is
    /// checked eight bytes a step, runs of other characters by `wellFormedRunEnd`.
    public static func isClean(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = input.baseAddress else { return true }
        let count = input.count
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i < count {
            while i + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // Non-ASCII bytes are flagged exactly; a zero byte's flag is exact for the lowest
                // one (a borrow only spreads upwards), so the lowest flag is.
                let flags = (word | ((word &- ones) & ~word)) & highs
                if flags != 0 {
                    i += flags.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < count else { break }
            if base[i] == 0 { return false }
            if base[i] < 0x80 {
                i += 1
                continue
            }
            i = wellFormedRunEnd(base, from: i, count: count)
            if i < count && base[i] >= 0x80 { return false }
        }
        return true
    }

    /// Where the run of well-formed multi-byte characters at `base[from]` (a byte >= 0x80) ends:
    /// at the first ASCII byte after it, at the end, or at the first byte that does not start a
    /// well-formed character (`validSequenceLength` says how much of it to replace).
    ///
    /// Text in most scripts is runs of multi-byte characters: this stays in them while they last.
    /// Two- and three-byte characters (Cyrillic, Greek, CJK…) are checked with wrapping
    /// arithmetic (offsets are far from overflowing), eight bytes at once where they hold two
    /// three-byte characters or four two-byte ones; the rest by `wellFormedLength`.
    ///
    /// Transparent, so that it is inlined into its callers in other modules (the HTML writer
    /// calls it for every run of non-ASCII text): `@inline(__always)` was not honoured across
    /// the module boundary, and a call's entry and exit weigh on runs that are only a few
    /// bytes long on average.
    @_transparent
    public static func wellFormedRunEnd(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = from
        repeat {
            if i &+ 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & 0x0000_C0C0_F0C0_C0F0 == 0x0000_8080_E080_80E0 {
                    // A lead's low bits with bit 0x20 of the byte after it: E0 needs that byte at
                    // A0 or more (0x00 is overlong), ED below A0 (0x2D a surrogate).
                    let first = (word & 0x0F) | ((word >> 8) & 0x20)
                    let second = ((word >> 24) & 0x0F) | ((word >> 32) & 0x20)
                    if first != 0 && first != 0x2D && second != 0 && second != 0x2D {
                        i &+= 6
                        continue
                    }
                }
                if word & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0 {
                    // A lead of C0 or C1 (overlong) has none of the bits 0x1E: look for a zero
                    // byte among the leads' bits (the continuation bytes set to 0xFF).
                    let leads = (word & 0x001E_001E_001E_001E) | 0xFF00_FF00_FF00_FF00
                    if (leads &- ones) & ~leads & highs == 0 {
                        i &+= 8
                        continue
                    }
                }
            }
            let lead = base[i]
            if lead &- 0xC2 < 0x1E {
                guard i &+ 1 < count, base[i &+ 1] & 0xC0 == 0x80 else { return i }
                i &+= 2
            } else if lead & 0xF0 == 0xE0 {
                guard i &+ 2 < count else { return i }
                let second = base[i &+ 1]
                guard second & 0xC0 == 0x80, base[i &+ 2] & 0xC0 == 0x80 else { return i }
                // E0 needs A0 or more (shorter forms are overlong); ED below A0 (surrogates).
                if lead == 0xE0 && second < 0xA0 || lead == 0xED && second >= 0xA0 { return i }
                i &+= 3
            } else {
                let length = wellFormedLength(base, i, count)
                if length == 0 { return i }
                i &+= length
            }
        } while i < count && base[i] >= 0x80
        return i
    }

    /// `input` with NUL and invalid UTF-8 replaced by U+FFFD (the input itself when it is clean).
    public static func repaired(_ input: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        input.withUnsafeBufferPointer { buffer -> ArraySlice<UInt8> in
            if isClean(buffer) { return input }
            var result: [UInt8] = []
            // `buffer[copied..<i]` is clean and not yet in `result`; `copied` stays 0 until the
            // first repair, so clean input is never copied.
            var copied = 0
            var i = 0
            while i < buffer.count {
                let value = buffer[i]
                var badLength = 1
                if value >= 0x80 {
                    let length = validSequenceLength(buffer, i)
                    if length > 0 {
                        i += length
                        continue
                    }
                    badLength = -length
                } else if value != 0 {
                    i += 1
                    continue
                }
                if copied == 0 { result.reserveCapacity(buffer.count + 8) }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied..<i]))
                result.append(0xEF)
                result.append(0xBF)
                result.append(0xBD)
                i += badLength
                copied = i
            }
            if copied == 0 { return input }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied...]))
            return result[...]
        }
    }
}
