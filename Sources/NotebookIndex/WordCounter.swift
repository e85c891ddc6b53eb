// Words and characters of the text a reader sees, fed in pieces: the preview's counts and the
// writing statistics (`macmd/statistics`, `macmd stats`).
//
// Words follow Unicode's word boundaries (UAX #29) for the scripts that space their words: a
// word is a run of letters, digits, marks and underscores; an apostrophe (`'`, `’`), a full
// stop or a colon between two letters keeps it whole (`don't`, `e.g`), and so do a comma, a full
// stop or a semicolon between two digits (`3.14`, `1,000`); a hyphen does not (`well-known` is
// two words). Each Chinese character and each kana is a word of its own, as word processors
// count them; Hangul is spaced, its words are runs; a run of Thai (Lao, Khmer, Myanmar) letters
// is one word, as no dictionary cuts it here. Characters: Unicode scalars, except line breaks
// and the marks that belong to the letter before them (`é` written as `e` and an accent is one
// character); `spaces` counts the characters that are white space.
//
// How it counts: a word starts at a letter or digit unless the scalar before is one, or the
// scalar before is a middle mark of its kind with one of the same kind before it. So the state
// is the class of the last two scalars, and ASCII text is counted eight bytes at a time: the
// letter, digit and middle-mark bytes of a 64-bit word are found with carry-free byte
// arithmetic (every byte is below 0x80) and the word starts are a population count. Other
// bytes are decoded one scalar at a time.
//
// This is the one counter of the project: NotebookIDE's `TextStatistics` feeds it.

import TextCore

/// Counts words and characters over UTF-8 pieces; `breakWord()` separates pieces that do not join.
public struct WordCounter: Sendable, Equatable {
    public private(set) var words = 0
    public private(set) var characters = 0
    /// The characters that are white space (line breaks are not characters).
    public private(set) var spaces = 0
    /// The words that are one Chinese character or kana (among `words`).
    public private(set) var ideographs = 0
    // The last scalar (`previous…`) and the one before it (`beforePrevious…`), 0 or 1 each: a
    // letter (or underscore), a digit, a middle mark between letters, one between digits.
    private var previousLetter: UInt64 = 0
    private var previousDigit: UInt64 = 0
    private var previousMidLetter: UInt64 = 0
    private var previousMidNumber: UInt64 = 0
    private var beforePreviousLetter: UInt64 = 0
    private var beforePreviousDigit: UInt64 = 0

    public init() {}

    /// Ends the current word (between text nodes that do not join, at block ends).
    public mutating func breakWord() {
        previousLetter = 0
        previousDigit = 0
        previousMidLetter = 0
        previousMidNumber = 0
        beforePreviousLetter = 0
        beforePreviousDigit = 0
    }

    /// Counts a string (for tests and callers without a tree).
    public static func count(_ text: String) -> WordCounter {
        var counter = WordCounter()
        var text = text
        text.withUTF8 { counter.feed($0) }
        counter.breakWord()
        return counter
    }

    /// Feeds UTF-8 bytes. Concrete entry points, so callers in other modules get the code
    /// specialised for bytes in memory rather than generic dispatch per byte.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index < count {
            if index &+ 8 <= count {
                let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if x & WordCounter.highBits == 0 {
                    countBlock(x)
                    index &+= 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0x80 {
                // A byte at a time until eight more are in reach.
                take(ascii: byte)
                index &+= 1
                continue
            }
            // Two- and three-byte sequences (every script of the BMP) are decoded here; anything
            // else goes to the general path one sequence (at most four bytes, within this piece)
            // at a time.
            guard let (value, width) = UTF8BMPScalar.decode(bytes, at: index) else {
                var end = index &+ 1
                while end < count && base[end] & 0xC0 == 0x80 && end &- index < 4 { end &+= 1 }
                feed(bytes: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            index &+= width
            take(value)
        }
    }

    // MARK: Eight bytes at a time

    /// Counts eight ASCII bytes.
    @inline(__always)
    private mutating func countBlock(_ x: UInt64) {
        let lower = x | WordCounter.repeated(0x20)
        let letter = (WordCounter.inRange(lower, 0x61, 0x7B) | WordCounter.zeroBytes(x ^ WordCounter.repeated(0x5F)))
        let digit = WordCounter.inRange(x, 0x30, 0x3A)
        let lineBreak = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x0A)) | WordCounter.zeroBytes(x ^ WordCounter.repeated(0x0D))
        let space = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x20)) | WordCounter.zeroBytes(x ^ WordCounter.repeated(0x09))
        let word = letter | digit
        // Each byte's high bit lines up with the previous byte's (and the one before's).
        var starts = word & ~(word << 8 | (previousLetter | previousDigit) << 7)
        // The middle marks (`'` `.` `:` between letters, `,` `.` `;` between digits): most
        // blocks have none, and none just before them.
        let commaOrStop = WordCounter.zeroBytes((x | WordCounter.repeated(0x02)) ^ WordCounter.repeated(0x2E))  // , .
        let colonOrSemicolon = WordCounter.zeroBytes((x & WordCounter.repeated(0xFE)) ^ WordCounter.repeated(0x3A))  // : ;
        let apostrophe = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x27))
        var midLetter: UInt64 = 0
        var midNumber: UInt64 = 0
        if commaOrStop | colonOrSemicolon | apostrophe | previousMidLetter | previousMidNumber != 0 {
            let stop = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x2E))
            let colon = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x3A))
            midLetter = stop | apostrophe | colon
            midNumber = commaOrStop | (colonOrSemicolon & ~colon)
            let letterTwoBefore = letter << 16 | previousLetter << 15 | beforePreviousLetter << 7
            let digitTwoBefore = digit << 16 | previousDigit << 15 | beforePreviousDigit << 7
            starts &= ~(letter & (midLetter << 8 | previousMidLetter << 7) & letterTwoBefore)
            starts &= ~(digit & (midNumber << 8 | previousMidNumber << 7) & digitTwoBefore)
        }
        words &+= WordCounter.highBitCount(starts)
        characters &+= 8 &- WordCounter.highBitCount(lineBreak)
        spaces &+= WordCounter.highBitCount(space)
        beforePreviousLetter = letter >> 55 & 1
        beforePreviousDigit = digit >> 55 & 1
        previousLetter = letter >> 63
        previousDigit = digit >> 63
        previousMidLetter = midLetter >> 63
        previousMidNumber = midNumber >> 63
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// How many bytes of `x` have their high bit set, given that no other bit is set. (The
    /// baseline x86-64 the toolchain targets has no POPCNT instruction; one multiplication adds
    /// the eight bytes' 0 or 1 into the top byte.)
    @inline(__always)
    static func highBitCount(_ x: UInt64) -> Int {
        Int(truncatingIfNeeded: ((x >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// The high bit of each byte of `x` (all bytes below 0x80) that is zero.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        // A byte below 0x80 plus 0x7F reaches 0x80 unless it is zero, and never carries.
        ~(x &+ repeated(0x7F)) & highBits
    }

    /// The high bit of each byte of `x` (all bytes below 0x80) in `low..<high`.
    @inline(__always)
    static func inRange(_ x: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        // `byte + (0x80 - bound)` has its high bit set when byte >= bound; no byte carries, since
        // every byte and every addend is below 0x80.
        (x &+ repeated(0x80 &- low)) & ~(x &+ repeated(0x80 &- high)) & highBits
    }

    // MARK: One scalar at a time

    /// What a scalar is to words.
    enum Class { case letter, digit, midLetter, midNumber, midBoth, ideograph, space, lineBreak, mark, other }

    /// The class of an ASCII byte.
    @inline(__always)
    static func asciiClass(_ byte: UInt8) -> Class {
        if (byte | 0x20) &- 0x61 < 26 || byte == 0x5F { return .letter }
        if byte &- 0x30 < 10 { return .digit }
        switch byte {
        case 0x2E: return .midBoth
        case 0x27, 0x3A: return .midLetter
        case 0x2C, 0x3B: return .midNumber
        case 0x20, 0x09: return .space
        case 0x0A, 0x0D: return .lineBreak
        default: return .other
        }
    }

    /// The class of any scalar.
    static func scalarClass(_ v: UInt32) -> Class {
        if v < 0x80 { return asciiClass(UInt8(v)) }
        // The letters of Latin, Greek and Cyrillic, the commonest, without a look at the rest.
        if v &- 0xC0 < 0x190 { return v == 0xD7 || v == 0xF7 ? .other : .letter }
        if v &- 0x3A3 < 0x53 || v &- 0x3F7 < 0x8B || v &- 0x38E < 0x14 || v &- 0x388 < 3 || v == 0x38C { return .letter }
        if isIdeographic(v) { return .ideograph }
        if v == 0x2019 || v == 0xB7 || v == 0x2027 || v == 0xFE13 || v == 0xFE55 || v == 0xFF07 || v == 0xFF1A { return .midLetter }
        if v == 0x60C || v == 0x66C || v == 0xFE50 || v == 0xFE54 || v == 0xFF0C || v == 0xFF1B { return .midNumber }
        if v == 0xFF0E { return .midBoth }
        if isSpace(v) { return .space }
        if v == 0x2028 || v == 0x2029 || v == 0x85 { return .lineBreak }
        if isWordish(v) { return isCombiningMark(v) ? .mark : .letter }
        return .other
    }

    @inline(__always)
    private mutating func take(ascii byte: UInt8) {
        step(WordCounter.asciiClass(byte))
    }

    private mutating func take(_ v: UInt32) {
        step(WordCounter.scalarClass(v))
    }

    /// Moves past one scalar of class `kind`.
    @inline(__always)
    private mutating func step(_ kind: Class) {
        switch kind {
        case .lineBreak: break
        case .mark: break
        case .space: characters &+= 1; spaces &+= 1
        default: characters &+= 1
        }
        switch kind {
        case .letter:
            if previousLetter | previousDigit == 0 && previousMidLetter & beforePreviousLetter == 0 { words &+= 1 }
            shift(letter: 1, digit: 0, midLetter: 0, midNumber: 0)
        case .digit:
            if previousLetter | previousDigit == 0 && previousMidNumber & beforePreviousDigit == 0 { words &+= 1 }
            shift(letter: 0, digit: 1, midLetter: 0, midNumber: 0)
        case .mark:
            // A mark belongs to the letter before it; after anything else it starts a word.
            if previousLetter | previousDigit == 0 {
                words &+= 1
                shift(letter: 1, digit: 0, midLetter: 0, midNumber: 0)
            }
        case .midLetter: shift(letter: 0, digit: 0, midLetter: 1, midNumber: 0)
        case .midNumber: shift(letter: 0, digit: 0, midLetter: 0, midNumber: 1)
        case .midBoth: shift(letter: 0, digit: 0, midLetter: 1, midNumber: 1)
        case .ideograph:
            // A word of its own, joined to nothing.
            words &+= 1
            ideographs &+= 1
            breakWord()
        case .space, .lineBreak, .other:
            shift(letter: 0, digit: 0, midLetter: 0, midNumber: 0)
        }
    }

    @inline(__always)
    private mutating func shift(letter: UInt64, digit: UInt64, midLetter: UInt64, midNumber: UInt64) {
        beforePreviousLetter = previousLetter
        beforePreviousDigit = previousDigit
        previousLetter = letter
        previousDigit = digit
        previousMidLetter = midLetter
        previousMidNumber = midNumber
    }

    /// Feeds UTF-8 bytes one scalar at a time (the general path, and the reference the tests
    /// hold the eight-byte loop to); invalid sequences count as U+FFFD.
    mutating func feed<C: Collection>(bytes: C) where C.Element == UInt8 {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                take(ascii: byte)
                index = bytes.index(after: index)
                continue
            }
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            var consumed = 0
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                take(scalar.value)
                consumed = UTF8.width(scalar)
            case .error:
                take(0xFFFD)
                consumed = 1
            case .emptyInput:
                return
            }
            index = bytes.index(index, offsetBy: consumed, limitedBy: bytes.endIndex) ?? bytes.endIndex
        }
    }

    /// White space other than ASCII's: no-break and typographic spaces, the ideographic space.
    static func isSpace(_ v: UInt32) -> Bool {
        v == 0xA0 || v == 0x1680 || v &- 0x2000 < 0x0B || v == 0x202F || v == 0x205F || v == 0x3000
    }

    /// A mark that belongs to the letter before it (not a character of its own): combining
    /// marks, vowel signs. Asked of the Unicode properties only in the blocks that have them.
    static func isCombiningMark(_ v: UInt32) -> Bool {
        if v &- 0x300 < 0x70 { return true }
        let mayBe = v &- 0x483 < 7 || v &- 0x591 < 0x37 || v &- 0x610 < 0x0B || v &- 0x64B < 0x15 || v == 0x670
            || v &- 0x6D6 < 0x18 || v &- 0x900 < 0x04 || v &- 0x93A < 0x1E || v &- 0x962 < 2 || v &- 0x981 < 0x80
            || v == 0xE31 || v &- 0xE34 < 7 || v &- 0xE47 < 8 || v == 0xEB1 || v &- 0xEB4 < 0x0A || v &- 0xEC8 < 7
            || v &- 0x1AB0 < 0x50 || v &- 0x1DC0 < 0x40 || v &- 0x20D0 < 0x30 || v &- 0x302A < 6 || v &- 0x3099 < 2
            || v &- 0xFE20 < 0x10
        guard mayBe, let scalar = Unicode.Scalar(v) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Letters, digits and marks. The letters and marks of Latin, Greek, Cyrillic, Arabic and
    /// Devanagari are known by range (their few symbols and punctuation excepted), and so are the
    /// commas and stops common in Arabic, Hindi and CJK text; everything else asks the Unicode
    /// properties. (Range checks as one unsigned comparison each, the commonest scripts first: a
    /// `switch` over the ranges costs a chain of comparisons per scalar.)
    @inline(__always)
    static func isWordish(_ v: UInt32) -> Bool {
        if v &- 0x400 < 0x130 { return v != 0x482 && v != 0x488 && v != 0x489 ? true : unicodeIsWordish(v) }
        if v &- 0xC0 < 0x190 { return v != 0xD7 && v != 0xF7 }
        if v &- 0x386 < 0x7A { return v != 0x387 && v != 0x3F6 }
        if v &- 0x620 < 0xB4 { return v < 0x66A || v > 0x670 ? true : unicodeIsWordish(v) }
        if v &- 0x900 < 0x80 { return v != 0x964 && v != 0x965 && v != 0x970 }
        if v &- 0x2000 < 0x70 { return false }
        if v &- 0x3000 < 0x40 {
            return v &- 0x3005 < 3 || v &- 0x3021 < 15 || v &- 0x3031 < 5 || v &- 0x3038 < 5
        }
        if v &- 0x80 < 0x40 { return v == 0xAA || v == 0xB2 || v == 0xB3 || v == 0xB5 || v == 0xB9 || v == 0xBA || v &- 0xBC < 3 }
        if v == 0x60C || v == 0x61B || v == 0x61F || v == 0xFF0C || v == 0xFF1A || v == 0xFF1B || v == 0xFF1F || v == 0xFF01 {
            return false
        }
        return unicodeIsWordish(v)
    }

    /// The definition: alphabetic, numeric, or a mark.
    static func unicodeIsWordish(_ v: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(v) else { return false }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            || properties.generalCategory == .decimalNumber
    }

    /// Chinese characters and kana: a word each. (Hangul is spaced: its syllables make words.)
    static func isIdeographic(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x3FFFF).contains(v)
            || ((0x3041...0x30FF).contains(v) && v != 0x30FB && v != 0x30A0) || (0xF900...0xFAFF).contains(v)
            || (0x31F0...0x31FF).contains(v) || (0xFF66...0xFF9D).contains(v)
    }
}
