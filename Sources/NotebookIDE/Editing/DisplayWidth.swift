// How many columns text takes in a monospaced editor, for lining up table pipes.
//
// Rules (what terminals and editors' monospaced grids do, after wcwidth):
// - East Asian Wide (W) and Fullwidth (F) code points take two columns (Unicode 15's
//   EastAsianWidth.txt, in `wideRanges`), and so does any code point with Emoji_Presentation
//   (most are already W; the standard library's data covers newer ones).
// - Nonspacing and enclosing marks (Mn, Me), format characters (Cf: zero-width joiners and
//   spaces, directional marks, the BOM), variation selectors and Hangul medial and final jamo take
//   none; so do control characters.
// - An emoji sequence is one picture: a code point after a zero-width joiner takes no column,
//   nor does a skin-tone modifier after a picture, nor the second regional indicator of a flag;
//   U+FE0F (emoji presentation) widens a one-column picture before it (`❤️`, `1️⃣`) to two.
// - Everything else takes one column, East Asian Ambiguous included (their width outside CJK
//   locales). Ill-formed UTF-8 counts one column a byte, as U+FFFD.
//
// Invariant: linear in the bytes; never traps.

enum DisplayWidth {
    /// The columns `bytes[start..<end]` takes.
    static func columns(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var total = 0
        var index = max(0, start)
        let end = min(end, bytes.count)
        var previousWidth = 0
        var afterJoiner = false
        var afterPicture = false
        var openRegionalIndicator = false
        while index < end {
            let byte = bytes[index]
            if byte < 0x80 {
                // ASCII: printable characters one column, controls none.
                let width = byte >= 0x20 && byte < 0x7F ? 1 : 0
                total += width
                previousWidth = width
                afterJoiner = false
                afterPicture = false
                openRegionalIndicator = false
                index += 1
                continue
            }
            let (value, length) = decode(bytes, index, end)
            index += length
            if afterJoiner {
                // The next part of a joined emoji sequence.
                afterJoiner = false
                if columns(of: value) > 0 { continue }
            }
            switch value {
            case 0x200D:
                afterJoiner = afterPicture
                continue
            case 0xFE0F:
                if previousWidth == 1 {
                    total += 1
                    previousWidth = 2
                }
                afterPicture = true
                continue
            case 0x1F3FB...0x1F3FF where afterPicture:
                continue
            case 0x1F1E6...0x1F1FF:
                if openRegionalIndicator {
                    openRegionalIndicator = false
                    continue
                }
                openRegionalIndicator = true
            default:
                openRegionalIndicator = false
            }
            let width = columns(of: value)
            total += width
            if width > 0 {
                previousWidth = width
                afterPicture = width == 2 || isPictographic(value)
            }
        }
        return total
    }

    /// The columns of `text`.
    static func columns(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { columns($0, 0, $0.count) }
    }

    /// The columns one code point takes on its own.
    static func columns(of value: UInt32) -> Int {
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        if value >= 0x1160 && value <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants
        if value >= 0xD7B0 && value <= 0xD7FF { return 0 }  // Hangul jamo extended-B
        if isWide(value) { return 2 }
        guard let scalar = Unicode.Scalar(value) else { return 1 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            return properties.isEmojiPresentation ? 2 : 1
        }
    }

    /// Whether `value` is a picture that an emoji sequence may continue (text-presentation
    /// symbols such as `❤` included).
    static func isPictographic(_ value: UInt32) -> Bool {
        guard value >= 0xA9, let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.isEmoji
    }

    /// Whether `value` is East Asian Wide or Fullwidth.
    static func isWide(_ value: UInt32) -> Bool {
        guard value >= wideRanges[0].lowerBound else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Decodes one scalar; ill-formed input is U+FFFD, one byte long.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[index])
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = lead & 0x1F
        case 0xE0...0xEF: length = 3; value = lead & 0x0F
        case 0xF0...0xF4: length = 4; value = lead & 0x07
        default: return (0xFFFD, 1)
        }
        guard index + length <= end else { return (0xFFFD, 1) }
        for offset in 1..<length {
            let byte = UInt32(bytes[index + offset])
            guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            value = value << 6 | byte & 0x3F
        }
        let smallest: UInt32 = length == 2 ? 0x80 : (length == 3 ? 0x800 : 0x10000)
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return (0xFFFD, 1) }
        return (value, length)
    }

    /// East Asian Wide (W) and Fullwidth (F) code points, Unicode 15.1, sorted and disjoint.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFF, 0x3000...0x3029,
        0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x3105...0x312F, 0x3131...0x318E,
        0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF, 0x4E00...0xA48C,
        0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08,
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B132...0x1B132,
        0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167, 0x1B170...0x1B2FB, 0x1F004...0x1F004,
        0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B,
        0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D,
        0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4,
        0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FA7C, 0x1FA80...0x1FA88,
        0x1FA90...0x1FABD, 0x1FABF...0x1FAC5, 0x1FACE...0x1FADB, 0x1FAE0...0x1FAE8, 0x1FAF0...0x1FAF8,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
