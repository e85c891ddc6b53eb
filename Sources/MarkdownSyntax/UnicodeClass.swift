// Unicode character classes the inline pass needs, over UTF-8 bytes.
//
// Invariants:
// - Never traps: decoding reads only inside the given bounds and maps malformed UTF-8 to U+FFFD.
// - ASCII is answered from byte comparisons; only non-ASCII code points consult the Unicode tables.
// - "Whitespace" and "punctuation" are the CommonMark 0.31.2 definitions: whitespace is Zs plus
//   tab, LF, FF and CR; punctuation is every code point of general category P* or S*.

/// Classification of code points for emphasis flanking, tags and extended autolinks. Public for
/// the editor's reading of half-typed tags, which must agree with the parser's.
public enum UnicodeClass {
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
    public static func isWhitespace(_ value: UInt32) -> Bool {
        if value < 0x80 {
            return value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D
        }
        guard let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// Unicode punctuation for flanking: general categories P* and S*.
    public static func isPunctuation(_ value: UInt32) -> Bool {
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
    public static func isWordCharacter(_ value: UInt32) -> Bool {
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

    /// Decimal digits of any script (general category Nd): `0`-`9`, `٣`, `۳`, `３`, ….
    static func isDecimalDigit(_ value: UInt32) -> Bool {
        if value < 0x80 { return value >= 0x30 && value <= 0x39 }
        return Unicode.Scalar(value)?.properties.generalCategory == .decimalNumber
    }

    /// The invisible marks and controls that set the direction of bidirectional text: ALM
    /// (U+061C), LRM and RLM (U+200E, U+200F), the embeddings and overrides (U+202A-U+202E) and
    /// the isolates (U+2066-U+2069).
    public static func isBidiMark(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    // MARK: Case folding

    /// Appends the UTF-8 of the full Unicode case fold (CaseFolding.txt, statuses C and F) of
    /// `value` to `output`. The fold is the lowercase mapping except for the code points in
    /// `caseFoldExceptions` and Greek U+1F80...U+1FAF; where the two differ only by canonical
    /// equivalence (or, for Cherokee, only in which case represents the class) the lowercase
    /// mapping is kept, because labels are compared as Swift `String`s, which compare canonically.
    static func appendCaseFolded(_ value: UInt32, to output: inout [UInt8]) {
        if value < 0x80 {
            let byte = UInt8(value)
            output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            return
        }
        if value >= 0x1F80 && value <= 0x1FAF {
            // Greek with ypogegrammeni or prosgegrammeni: the base letter's lowercase plus iota.
            let bases: [UInt32] = [0x1F00, 0x1F20, 0x1F60]
            CharacterReferences.appendUTF8(bases[Int((value - 0x1F80) >> 4)] + (value & 7), to: &output)
            CharacterReferences.appendUTF8(0x03B9, to: &output)
            return
        }
        if let folded = caseFoldException(value) {
            CharacterReferences.appendUTF8(folded.0, to: &output)
            if folded.1 != 0 { CharacterReferences.appendUTF8(folded.1, to: &output) }
            if folded.2 != 0 { CharacterReferences.appendUTF8(folded.2, to: &output) }
            return
        }
        guard let scalar = Unicode.Scalar(value) else {
            CharacterReferences.appendUTF8(0xFFFD, to: &output)
            return
        }
        if !scalar.properties.changesWhenLowercased {
            CharacterReferences.appendUTF8(value, to: &output)
            return
        }
        for lower in scalar.properties.lowercaseMapping.unicodeScalars { CharacterReferences.appendUTF8(lower.value, to: &output) }
    }

    /// The fold of `value` when it is not its lowercase mapping (binary search of the table).
    private static func caseFoldException(_ value: UInt32) -> (UInt32, UInt32, UInt32)? {
        var low = 0
        var high = caseFoldExceptions.count
        while low < high {
            let middle = (low + high) >> 1
            let entry = caseFoldExceptions[middle]
            if entry.0 == value { return (entry.1, entry.2, entry.3) }
            if entry.0 < value { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Code points whose full case fold is not (canonically) their lowercase mapping, sorted:
    /// (code point, fold scalars padded with 0). Derived from CaseFolding.txt; Greek
    /// U+1F80...U+1FAF is computed instead.
    private static let caseFoldExceptions: [(UInt32, UInt32, UInt32, UInt32)] = [
        (0x00B5, 0x03BC, 0x0000, 0x0000), (0x00DF, 0x0073, 0x0073, 0x0000), (0x0149, 0x02BC, 0x006E, 0x0000), (0x017F, 0x0073, 0x0000, 0x0000),
        (0x0345, 0x03B9, 0x0000, 0x0000), (0x03C2, 0x03C3, 0x0000, 0x0000), (0x03D0, 0x03B2, 0x0000, 0x0000), (0x03D1, 0x03B8, 0x0000, 0x0000),
        (0x03D5, 0x03C6, 0x0000, 0x0000), (0x03D6, 0x03C0, 0x0000, 0x0000), (0x03F0, 0x03BA, 0x0000, 0x0000), (0x03F1, 0x03C1, 0x0000, 0x0000),
        (0x03F5, 0x03B5, 0x0000, 0x0000), (0x0587, 0x0565, 0x0582, 0x0000), (0x1C80, 0x0432, 0x0000, 0x0000), (0x1C81, 0x0434, 0x0000, 0x0000),
        (0x1C82, 0x043E, 0x0000, 0x0000), (0x1C83, 0x0441, 0x0000, 0x0000), (0x1C84, 0x0442, 0x0000, 0x0000), (0x1C85, 0x0442, 0x0000, 0x0000),
        (0x1C86, 0x044A, 0x0000, 0x0000), (0x1C87, 0x0463, 0x0000, 0x0000), (0x1C88, 0xA64B, 0x0000, 0x0000), (0x1E9A, 0x0061, 0x02BE, 0x0000),
        (0x1E9B, 0x1E61, 0x0000, 0x0000), (0x1E9E, 0x0073, 0x0073, 0x0000), (0x1FB2, 0x1F70, 0x03B9, 0x0000), (0x1FB3, 0x03B1, 0x03B9, 0x0000),
        (0x1FB4, 0x03AC, 0x03B9, 0x0000), (0x1FB7, 0x03B1, 0x0342, 0x03B9), (0x1FBC, 0x03B1, 0x03B9, 0x0000), (0x1FC2, 0x1F74, 0x03B9, 0x0000),
        (0x1FC3, 0x03B7, 0x03B9, 0x0000), (0x1FC4, 0x03AE, 0x03B9, 0x0000), (0x1FC7, 0x03B7, 0x0342, 0x03B9), (0x1FCC, 0x03B7, 0x03B9, 0x0000),
        (0x1FF2, 0x1F7C, 0x03B9, 0x0000), (0x1FF3, 0x03C9, 0x03B9, 0x0000), (0x1FF4, 0x03CE, 0x03B9, 0x0000), (0x1FF7, 0x03C9, 0x0342, 0x03B9),
        (0x1FFC, 0x03C9, 0x03B9, 0x0000), (0xFB00, 0x0066, 0x0066, 0x0000), (0xFB01, 0x0066, 0x0069, 0x0000), (0xFB02, 0x0066, 0x006C, 0x0000),
        (0xFB03, 0x0066, 0x0066, 0x0069), (0xFB04, 0x0066, 0x0066, 0x006C), (0xFB05, 0x0073, 0x0074, 0x0000), (0xFB06, 0x0073, 0x0074, 0x0000),
        (0xFB13, 0x0574, 0x0576, 0x0000), (0xFB14, 0x0574, 0x0565, 0x0000), (0xFB15, 0x0574, 0x056B, 0x0000), (0xFB16, 0x057E, 0x0576, 0x0000),
        (0xFB17, 0x0574, 0x056D, 0x0000),
    ]


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
