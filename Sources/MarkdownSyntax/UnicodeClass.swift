// Unicode character classes the inline pass needs, over UTF-8 bytes.
//
// Invariants:
// - Never traps: decoding reads only inside the given bounds and maps malformed UTF-8 to U+FFFD.
// - ASCII is answered from byte comparisons; only non-ASCII code points consult the Unicode tables.
// - "Whitespace" and "punctuation" are the CommonMark 0.31.2 definitions: whitespace is Zs plus
//   tab, LF, FF and CR; punctuation is every code point of general category P* or S*.

/// Classification of code points for emphasis flanking, tags and extended autolinks.
enum UnicodeClass {
    /// The code point that ends just before `position` (not reading before `lowerBound`), or LF when
    /// there is none: the start of a block counts as whitespace.
    static func scalar(before position: Int, in bytes: UnsafeBufferPointer<UInt8>, lowerBound: Int) -> UInt32 {
        guard position > lowerBound, position <= bytes.count else { return 0x0A }
        let last = bytes[position - 1]
        if last < 0x80 { return UInt32(last) }
        // Walk back over at most three continuation bytes to the lead byte.
        var start = position - 1
        var steps = 0
        while start > lowerBound, bytes[start] & 0xC0 == 0x80, steps < 3 {
            start -= 1
            steps += 1
        }
        let (value, length) = decode(bytes, at: start, end: position)
        return start + length == position ? value : 0xFFFD
    }

    /// The code point that starts at `position` (before `end`), or LF when `position` is at the end.
    static func scalar(at position: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> UInt32 {
        guard position < end, position >= 0 else { return 0x0A }
        let first = bytes[position]
        if first < 0x80 { return UInt32(first) }
        return decode(bytes, at: position, end: end).value
    }

    /// Decodes one UTF-8 sequence; malformed input gives U+FFFD with length 1.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> (value: UInt32, length: Int) {
        guard position < end, position >= 0, end <= bytes.count else { return (0xFFFD, 1) }
        let b0 = UInt32(bytes[position])
        if b0 < 0x80 { return (b0, 1) }
        var need = 0
        var value: UInt32 = 0
        if b0 & 0xE0 == 0xC0 { need = 1; value = b0 & 0x1F }
        else if b0 & 0xF0 == 0xE0 { need = 2; value = b0 & 0x0F }
        else if b0 & 0xF8 == 0xF0 { need = 3; value = b0 & 0x07 }
        else { return (0xFFFD, 1) }
        guard position + need < end else { return (0xFFFD, 1) }
        for offset in 1...need {
            let byte = UInt32(bytes[position + offset])
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = (value << 6) | (byte & 0x3F)
        }
        if value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return (0xFFFD, 1) }
        return (value, need + 1)
    }

    /// Unicode whitespace for flanking: Zs plus tab, LF, FF, CR.
    static func isWhitespace(_ value: UInt32) -> Bool {
        if value < 0x80 {
            return value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D
        }
        guard let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// Unicode punctuation for flanking: general categories P* and S*.
    static func isPunctuation(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIPunctuation(UInt8(value)) }
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Unicode general category P* only (no symbols), as cmark-gfm's autolink host check uses.
    static func isPunctuationCategory(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIPunctuation(UInt8(value)) }
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// Letters, marks and digits of any script (tags, autolink host names).
    static func isWordCharacter(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIAlphanumeric(UInt8(value)) }
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    @inline(__always) static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40) ||
            (byte >= 0x5B && byte <= 0x60) || (byte >= 0x7B && byte <= 0x7E)
    }

    @inline(__always) static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || isASCIILetter(byte)
    }

    @inline(__always) static func isASCIILetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= 0x61 && lower <= 0x7A
    }

    @inline(__always) static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
