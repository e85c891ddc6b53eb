// Lowercasing for index keys, without the allocation and Unicode tables `lowercased()` costs
// on the common case.
//
// Invariant: `folded` equals `lowercased()` for every string; ASCII without capitals is returned
// as it is, ASCII with capitals is mapped byte by byte, text whose scalars cannot change
// (`Slugger.mayChangeWhenLowercased`) is returned as it is, anything else goes to `lowercased()`.

import TextCore

extension String {
    /// `lowercased()`, fast for ASCII and for scripts without case.
    var folded: String {
        var hasUpper = false
        for byte in utf8 {
            if byte >= 0x80 {
                // Most scripts have no case, and most words are lower case already.
                for scalar in unicodeScalars where Slugger.mayChangeWhenLowercased(scalar.value) {
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
