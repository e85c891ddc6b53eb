// QuickHash: the standard library's String hash, without its Unicode work for text that needs
// none.
//
// `String.hash(into:)` feeds the text's bytes in NFC to the hasher, then a 0xFF terminator, so
// canonically equivalent strings hash alike. For ASCII it knows the text is in NFC; for any
// other native string it checks, scalar by scalar through the Unicode tables, which costs far
// more than hashing the bytes, for the few names with an accent or in another script.
//
// Invariants:
// - `quickHash(into:)` feeds the hasher exactly what `hash(into:)` does: for text whose every
//   scalar is in `isInertInNFC`'s ranges, the bytes as they are (such text is in NFC: each of
//   those scalars is its own NFC, combines with nothing before it, and nothing in the ranges
//   combines with it), then 0xFF; for any other text, `hash(into:)` itself. So
//   `quickHashValue == hashValue` always, which the tests check against the standard library
//   for every scalar of the ranges and for strings mixing them.
// - The ranges are conservative: leaving a scalar out costs only the slow path.

extension String {
    /// `hash(into:)`, the same bytes to `hasher`, quicker for text in the common scripts.
    @inlinable
    public func quickHash(into hasher: inout Hasher) {
        let done = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard String.isInertInNFC(bytes) else { return false }
            String.hashInNFC(bytes, into: &hasher)
            return true
        }
        if done != true { hash(into: &hasher) }
    }

    /// What `hash(into:)` feeds `hasher` for text known to be in NFC: its UTF-8 `bytes`, then
    /// 0xFF.
    @inlinable
    public static func hashInNFC(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        hasher.combine(0xFF as UInt8)
    }

    /// `hashValue`, by `quickHash(into:)`.
    @inlinable
    public var quickHashValue: Int {
        var hasher = Hasher()
        quickHash(into: &hasher)
        return hasher.finalize()
    }

    /// Whether every scalar of the UTF-8 `bytes` (a String's: well formed) is one that NFC
    /// leaves as it is whatever its neighbours (`isInertInNFC(_:)`).
    @inlinable
    public static func isInertInNFC(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        while index < count {
            // Eight ASCII bytes a step.
            while index &+ 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
            }
            guard index < count else { break }
            let lead = UInt32(bytes[index])
            if lead < 0x80 {
                index &+= 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index &+ length <= count else { return false }
            var scalar = lead & (0x7F >> UInt32(length))
            for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index &+ offset] & 0x3F) }
            guard isInertInNFC(scalar) else { return false }
            index &+= length
        }
        return true
    }

    /// Scalars with no canonical decomposition that differs from them in NFC, combining class 0,
    /// and that no scalar in these ranges composes with: Latin, Greek, Cyrillic, Armenian,
    /// Hebrew and Arabic letters, Thai, Devanagari letters, CJK, kana, Hangul syllables, common
    /// punctuation and symbols, emoji. (Combining marks, Hangul jamo, Indic vowel signs and the
    /// singletons NFC replaces — U+0374, U+037E, U+0387, U+2000, U+2001, U+2126, U+212A,
    /// U+212B, U+2329, U+232A, U+F900–U+FAFF… — are not in them.)
    @inlinable
    public static func isInertInNFC(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00A0...0x02FF,        // Latin-1, Latin Extended-A and -B, IPA, spacing modifiers
             0x0388...0x038A, 0x038C, 0x038E...0x03FF,  // Greek (not U+0374, U+037E, U+0387)
             0x0400...0x0482, 0x048A...0x052F,  // Cyrillic (not its combining marks)
             0x0531...0x0556, 0x0561...0x0587,  // Armenian
             0x05D0...0x05EA,        // Hebrew letters
             0x0620...0x064A, 0x0660...0x0669, 0x0671...0x06D3,  // Arabic letters and digits
             0x0904...0x0939, 0x0950, 0x0966...0x096F,  // Devanagari letters and digits
             0x0E01...0x0E30, 0x0E32, 0x0E33, 0x0E40...0x0E46, 0x0E50...0x0E59,  // Thai
             0x1E00...0x1EFF,        // Latin Extended Additional
             0x200B...0x200F, 0x2010...0x2027, 0x2030...0x205E,  // general punctuation
             0x20A0...0x20C0,        // currency
             0x2190...0x21FF, 0x2200...0x22FF,  // arrows, mathematical operators
             0x2500...0x27BF,        // box drawing, shapes, symbols, dingbats
             0x3000...0x3029, 0x3030...0x303F,  // CJK punctuation (not U+302A–U+302F)
             0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FF,  // kana (not U+3099, U+309A)
             0x3400...0x4DBF, 0x4E00...0x9FFF,  // CJK ideographs
             0xAC00...0xD7A3,        // Hangul syllables
             0xFE00...0xFE0F,        // variation selectors
             0xFF01...0xFF60,        // full-width forms
             0x1F300...0x1FAFF:      // emoji and pictographs
            return true
        default:
            return false
        }
    }
}

/// A String key that hashes by `quickHash(into:)`: what `String` is as a key, for tables whose
/// keys are names from notes.
public struct QuickHashKey: Hashable, Sendable {
    public let string: String

    @inlinable
    public init(_ string: String) { self.string = string }

    @inlinable
    public func hash(into hasher: inout Hasher) { string.quickHash(into: &hasher) }

    @inlinable
    public static func == (a: QuickHashKey, b: QuickHashKey) -> Bool { a.string == b.string }
}
