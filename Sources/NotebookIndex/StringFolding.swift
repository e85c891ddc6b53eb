// Lowercasing for index keys, without the allocation and Unicode tables `lowercased()` costs
// on the common case.
//
// Invariant: `folded` equals `lowercased()` for every string; ASCII without capitals is returned
// as it is, ASCII with capitals is mapped byte by byte, text whose scalars cannot change
// (`Slugger.mayChangeWhenLowercased`, decoded from the bytes) is returned as it is or with its
// ASCII capitals mapped, anything else goes to `lowercased()`.

import TextCore

extension String {
    /// `lowercased()`, fast for ASCII and for scripts without case.
    public var folded: String {
        var text = self
        // nil: some scalar may change (lowercase the whole text: it can depend on context).
        // false: nothing changes. true: only ASCII capitals change.
        let hasCapitals = text.withUTF8 { String.foldingKind(of: $0) }
        switch hasCapitals {
        case .some(false): return self
        case .some(true): return text.withUTF8 { String.asciiFolded($0) }
        case .none: return lowercased()
        }
    }

    /// UTF-8 bytes as a String with their ASCII capitals lowercased (the rest as they are).
    static func asciiFolded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String.writingUTF8(capacity: bytes.count) { out in
            for index in 0..<bytes.count {
                let byte = bytes[index]
                out[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }

    /// What lowercasing does to UTF-8 `bytes`: nil when some scalar may change (lowercase the
    /// whole text then: it can depend on context), false when nothing changes, true when only
    /// ASCII capitals change.
    static func foldingKind(of bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var capitals = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte &- 0x41 < 26 { capitals = true }
                index += 1
                continue
            }
            // Four-byte scalars (and bytes that are not UTF-8) take the general path.
            guard let (value, width) = UTF8BMPScalar.decode(bytes, at: index) else { return nil }
            if Slugger.mayChangeWhenLowercased(value) {
                guard let scalar = Unicode.Scalar(value), !scalar.properties.changesWhenLowercased else { return nil }
            }
            index += width
        }
        return capitals
    }
}
