// Decoding of backslash escapes and character references, as CommonMark defines them.
//
// Invariants:
// - Works on UTF-8 bytes only and never traps: every index is checked, numbers are clamped.
// - Output is appended; input is never modified. Text that is not a valid escape or reference
//   is copied unchanged (an `&` that starts no reference stays a literal `&`).
// - Numeric references to 0, to a surrogate or beyond U+10FFFF decode to U+FFFD (as cmark does).
// - Named references must end with `;` and name one of the HTML5 entities (`HTMLEntityTable`).

/// Backslash escapes and character references (`&amp;`, `&#123;`, `&#x1F;`).
public enum CharacterReferences {
    /// Appends `input` to `output` with backslash escapes (before ASCII punctuation only) and
    /// character references decoded.
    public static func decode(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) {
        input.withUnsafeBufferPointer { decode($0, escapes: true, into: &output) }
    }

    /// Appends `input` to `output` with character references decoded; backslashes stay as written
    /// (what autolinks need).
    public static func decodeEntities(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) {
        input.withUnsafeBufferPointer { decode($0, escapes: false, into: &output) }
    }

    /// Convenience: the decoded bytes of `input` (escapes and references).
    public static func decoded(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        decode(input, into: &output)
        return output
    }

    /// Decodes `input`, appending to `output`; `escapes` says whether backslash escapes count.
    public static func decode(_ input: UnsafeBufferPointer<UInt8>, escapes: Bool, into output: inout [UInt8]) {
        let count = input.count
        var i = 0
        var runStart = 0
        while i < count {
            let byte = input[i]
            if byte == 0x5C, escapes, i + 1 < count, isASCIIPunctuation(input[i + 1]) {
                appendRun(input, runStart, i, &output)
                output.append(input[i + 1])
                i += 2
                runStart = i
            } else if byte == 0x26 {
                let length = matchReference(input, at: i, into: &output, flushing: runStart)
                if length > 0 {
                    i += length
                    runStart = i
                } else {
                    i += 1
                }
            } else {
                i += 1
            }
        }
        appendRun(input, runStart, count, &output)
    }

    /// If a character reference starts at `input[index]` (an `&`), appends its value to `output`
    /// and returns the number of bytes it spans; otherwise returns 0 and appends nothing.
    public static func matchReference(_ input: UnsafeBufferPointer<UInt8>, at index: Int, into output: inout [UInt8]) -> Int {
        matchReference(input, at: index, into: &output, flushing: index)
    }

    /// Like the public `matchReference`, but first flushes `input[runStart..<index]` when a
    /// reference is found, so callers can copy literal runs lazily.
    private static func matchReference(_ input: UnsafeBufferPointer<UInt8>, at index: Int, into output: inout [UInt8],
                                       flushing runStart: Int) -> Int {
        let count = input.count
        guard index >= 0, index + 2 < count, input[index] == 0x26 else { return 0 }
        var i = index + 1
        if input[i] == 0x23 {  // '#'
            i += 1
            var scalar: UInt32 = 0
            var digits = 0
            let maximumDigits: Int
            if i < count, input[i] == 0x78 || input[i] == 0x58 {  // 'x' / 'X'
                i += 1
                maximumDigits = 6
                while i < count, let digit = hexValue(input[i]) {
                    scalar = min(scalar &* 16 &+ digit, 0x110000)
                    digits += 1
                    i += 1
                }
            } else {
                maximumDigits = 7
                while i < count, input[i] >= 0x30, input[i] <= 0x39 {
                    scalar = min(scalar &* 10 &+ UInt32(input[i] &- 0x30), 0x110000)
                    digits += 1
                    i += 1
                }
            }
            guard digits >= 1, digits <= maximumDigits, i < count, input[i] == 0x3B else { return 0 }
            if scalar == 0 || (scalar >= 0xD800 && scalar < 0xE000) || scalar >= 0x110000 {
                scalar = 0xFFFD
            }
            appendRun(input, runStart, index, &output)
            appendUTF8(scalar, to: &output)
            return i + 1 - index
        }
        // Named: letters and digits up to `;`, at most the longest name.
        let nameStart = i
        while i < count, i - nameStart <= HTMLEntityTable.maximumNameLength, isAlphanumeric(input[i]) {
            i += 1
        }
        guard i < count, input[i] == 0x3B, i - nameStart >= 2 else { return 0 }
        let name = UnsafeBufferPointer(rebasing: input[nameStart..<i])
        guard let value = HTMLEntityTable.lookup(name) else { return 0 }
        appendRun(input, runStart, index, &output)
        output.append(contentsOf: value)
        return i + 1 - index
    }

    /// True for the ASCII punctuation characters a backslash can escape.
    @inlinable public static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40) ||
            (byte >= 0x5B && byte <= 0x60) || (byte >= 0x7B && byte <= 0x7E)
    }

    /// Appends the UTF-8 encoding of `scalar` (U+FFFD for values that are not scalars).
    public static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        var value = scalar
        if value >= 0x110000 || (value >= 0xD800 && value < 0xE000) { value = 0xFFFD }
        if value < 0x80 {
            output.append(UInt8(value))
        } else if value < 0x800 {
            output.append(UInt8(0xC0 | (value >> 6)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        } else if value < 0x10000 {
            output.append(UInt8(0xE0 | (value >> 12)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        } else {
            output.append(UInt8(0xF0 | (value >> 18)))
            output.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    @inline(__always)
    private static func appendRun(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ output: inout [UInt8]) {
        if end > start { output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<end])) }
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    @inline(__always)
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
