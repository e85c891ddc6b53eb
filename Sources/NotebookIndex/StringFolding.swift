// Lowercasing for index keys, without the allocation and Unicode tables `lowercased()` costs
// on the common case.
//
// Invariant: `folded` equals `lowercased()` for every string; ASCII without capitals is returned
// as it is, ASCII with capitals is mapped byte by byte, anything else goes to `lowercased()`.

extension String {
    /// False for scalars known not to change when lowercased: ASCII other than capitals, basic
    /// lower-case Greek and Cyrillic, and scripts without case (Arabic, Devanagari, kana, CJK,
    /// Hangul). Anything else asks the Unicode properties.
    @inline(__always)
    static func mayChangeWhenLowercased(_ v: UInt32) -> Bool {
        switch v {
        case 0x00...0x40, 0x5B...0x7F: return false
        case 0x3AC...0x3CE, 0x430...0x45F, 0x600...0x6FF, 0x900...0x97F, 0x3040...0x30FF, 0x3400...0x9FFF, 0xAC00...0xD7AF:
            return false
        default: return true
        }
    }

    /// `lowercased()`, fast for ASCII.
    var folded: String {
        var hasUpper = false
        for byte in utf8 {
            if byte >= 0x80 {
                // Most scripts have no case, and most words are lower case already.
                for scalar in unicodeScalars where String.mayChangeWhenLowercased(scalar.value) {
                    if scalar.properties.changesWhenLowercased { return lowercased() }
                }
                return self
            }
            if byte &- 0x41 < 26 { hasUpper = true }
        }
        guard hasUpper else { return self }
        return String(decoding: utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
