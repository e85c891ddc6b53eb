// Words and characters of the text a reader sees, fed in pieces.
//
// Words: maximal runs of letters, digits, marks and joiners (`'`, `’` and `-` between letters
// keep a word together), except that each CJK ideograph, kana or hangul syllable counts as a
// word of its own, as word processors count them. Characters: Unicode scalars, spaces included,
// line breaks not. It works on UTF-8 bytes and never allocates.
//
// How it counts: a word starts at a word scalar whose previous scalar is not a word scalar,
// unless the previous one is a joiner with a word scalar before it ("don't", "well-known"). So
// the state is the class of the last two scalars, and ASCII text is counted eight bytes at a
// time: the word, joiner and line-break bytes of a 64-bit word are found with carry-free byte
// arithmetic (every byte is below 0x80) and the word starts are a population count. Other
// bytes are decoded one scalar at a time.
//
// This is the one counter of the project: NotebookIDE's `TextStatistics` feeds it too.

import TextCore

/// Counts words and characters over UTF-8 pieces; `breakWord()` separates pieces that do not join.
public struct WordCounter: Sendable, Equatable {
    public private(set) var words = 0
    public private(set) var characters = 0
    /// The last scalar was a word scalar.
    private var previousIsWord = false
    /// The last scalar was a joiner (`'`, `-`, `’`).
    private var previousIsJoiner = false
    /// The scalar before the last was a word scalar.
    private var beforePreviousIsWord = false

    public init() {}

    /// Ends the current word (between text nodes, at line breaks).
    public mutating func breakWord() {
        previousIsWord = false
        previousIsJoiner = false
        beforePreviousIsWord = false
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
        // The state in locals, as 0 or 1, for the eight-byte loop.
        var words = self.words
        var characters = self.characters
        var previousWord: UInt64 = previousIsWord ? 1 : 0
        var previousJoiner: UInt64 = previousIsJoiner ? 1 : 0
        var beforePreviousWord: UInt64 = beforePreviousIsWord ? 1 : 0
        let raw = UnsafeRawPointer(base)
        while index < count {
            if index &+ 8 <= count {
                let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if x & WordCounter.highBits == 0 {
                    let word = WordCounter.wordBytes(x)
                    let joiner = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x27)) | WordCounter.zeroBytes(x ^ WordCounter.repeated(0x2D))
                    let lineBreak = WordCounter.zeroBytes(x ^ WordCounter.repeated(0x0A)) | WordCounter.zeroBytes(x ^ WordCounter.repeated(0x0D))
                    // Each byte's high bit lines up with the previous byte's (and the one before's).
                    let wordBefore = word << 8 | previousWord << 7
                    let joinerBefore = joiner << 8 | previousJoiner << 7
                    let wordTwoBefore = word << 16 | previousWord << 15 | beforePreviousWord << 7
                    let starts = word & ~wordBefore & ~(joinerBefore & wordTwoBefore)
                    words &+= WordCounter.highBitCount(starts)
                    characters &+= 8 &- WordCounter.highBitCount(lineBreak)
                    beforePreviousWord = word >> 55 & 1
                    previousWord = word >> 63
                    previousJoiner = joiner >> 63
                    index &+= 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0x80 {
                // A byte at a time until eight more are in reach.
                let kind = WordCounter.asciiClass(byte)
                let isWord: UInt64 = kind == 1 ? 1 : 0
                words &+= Int(isWord & ~previousWord & ~(previousJoiner & beforePreviousWord))
                if kind != 3 { characters &+= 1 }
                beforePreviousWord = previousWord
                previousWord = isWord
                previousJoiner = kind == 2 ? 1 : 0
                index &+= 1
                continue
            }
            // Two- and three-byte sequences (every script of the BMP) are decoded here; anything
            // else goes to the general path one sequence (at most four bytes, within this piece)
            // at a time.
            guard let (value, width) = UTF8BMPScalar.decode(bytes, at: index) else {
                self.words = words
                self.characters = characters
                previousIsWord = previousWord != 0
                previousIsJoiner = previousJoiner != 0
                beforePreviousIsWord = beforePreviousWord != 0
                var end = index &+ 1
                while end < count && base[end] & 0xC0 == 0x80 && end &- index < 4 { end &+= 1 }
                feed(bytes: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                words = self.words
                characters = self.characters
                previousWord = previousIsWord ? 1 : 0
                previousJoiner = previousIsJoiner ? 1 : 0
                beforePreviousWord = beforePreviousIsWord ? 1 : 0
                index = end
                continue
            }
            index &+= width
            characters &+= 1
            if WordCounter.isIdeographic(value) {
                // A word of its own, joined to nothing.
                words &+= 1
                previousWord = 0
                previousJoiner = 0
                beforePreviousWord = 0
                continue
            }
            let isWord: UInt64 = WordCounter.isWordish(value) ? 1 : 0
            words &+= Int(isWord & ~previousWord & ~(previousJoiner & beforePreviousWord))
            beforePreviousWord = previousWord
            previousWord = isWord
            previousJoiner = value == 0x2019 ? 1 : 0
        }
        self.words = words
        self.characters = characters
        previousIsWord = previousWord != 0
        previousIsJoiner = previousJoiner != 0
        beforePreviousIsWord = beforePreviousWord != 0
    }

    // MARK: Eight bytes at a time

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

    /// The high bit of each byte of `x` (all bytes below 0x80) that is an ASCII letter or digit.
    @inline(__always)
    static func wordBytes(_ x: UInt64) -> UInt64 {
        // `byte + (0x80 - bound)` has its high bit set when byte >= bound; no byte carries, since
        // every byte and every addend is below 0x80.
        let lower = x | repeated(0x20)
        let letter = (lower &+ repeated(0x80 - 0x61)) & ~(lower &+ repeated(0x80 - 0x7B))
        let digit = (x &+ repeated(0x80 - 0x30)) & ~(x &+ repeated(0x80 - 0x3A))
        return (letter | digit) & highBits
    }

    /// The class of an ASCII byte: 0 other, 1 letter or digit, 2 joiner (`'`, `-`), 3 line break.
    @inline(__always)
    static func asciiClass(_ byte: UInt8) -> UInt8 {
        if (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 { return 1 }
        if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-") { return 2 }
        if byte == 0x0A || byte == 0x0D { return 3 }
        return 0
    }

    // MARK: One scalar at a time

    /// Feeds UTF-8 bytes one scalar at a time (the general path, and the reference the tests
    /// hold the eight-byte loop to); invalid sequences count as U+FFFD.
    mutating func feed<C: Collection>(bytes: C) where C.Element == UInt8 {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                switch WordCounter.asciiClass(byte) {
                case 1: step(isWord: true, isJoiner: false)
                case 2: step(isWord: false, isJoiner: true)
                case 3:
                    // A line break ends a word like any other separator, but is not a character.
                    step(isWord: false, isJoiner: false)
                    characters -= 1
                default: step(isWord: false, isJoiner: false)
                }
                characters += 1
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

    /// Moves past one scalar of the given class.
    @inline(__always)
    private mutating func step(isWord: Bool, isJoiner: Bool) {
        if isWord && !previousIsWord && !(previousIsJoiner && beforePreviousIsWord) { words += 1 }
        beforePreviousIsWord = previousIsWord
        previousIsWord = isWord
        previousIsJoiner = isJoiner
    }

    private mutating func take(_ v: UInt32) {
        characters += 1
        if WordCounter.isIdeographic(v) {
            // A word of its own, joined to nothing.
            words += 1
            breakWord()
            return
        }
        step(isWord: WordCounter.isWordish(v), isJoiner: v == 0x2019)
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

    static func isIdeographic(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x3040...0x30FF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
    }
}
