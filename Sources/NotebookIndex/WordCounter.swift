// Words and characters of the text a reader sees, fed in pieces.
//
// Words: maximal runs of letters, digits, marks and joiners (`'`, `’` and `-` between letters
// keep a word together), except that each CJK ideograph, kana or hangul syllable counts as a
// word of its own, as word processors count them. Characters: Unicode scalars, spaces included,
// line breaks not. It works on UTF-8 bytes and never allocates.
//
// This is the one counter of the project: NotebookIDE's `TextStatistics` feeds it too.

/// Counts words and characters over UTF-8 pieces; `breakWord()` separates pieces that do not join.
public struct WordCounter: Sendable, Equatable {
    public private(set) var words = 0
    public private(set) var characters = 0
    private var inWord = false
    private var pendingJoiner = false

    public init() {}

    /// Ends the current word (between text nodes, at line breaks).
    public mutating func breakWord() {
        inWord = false
        pendingJoiner = false
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
        // The ASCII loop keeps the state in locals and classifies each byte arithmetically; other
        // bytes go to the general path one sequence at a time.
        var index = 0
        let count = bytes.count
        do {
            var words = self.words
            var characters = self.characters
            var inWord = self.inWord
            var pending = self.pendingJoiner
            while index < count {
                let byte = base[index]
                if byte >= 0x80 {
                    self.words = words
                    self.characters = characters
                    self.inWord = inWord
                    self.pendingJoiner = pending
                    var end = index + 1
                    while end < count && base[end] & 0xC0 == 0x80 && end - index < 4 { end += 1 }
                    feed(bytes: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    words = self.words
                    characters = self.characters
                    inWord = self.inWord
                    pending = self.pendingJoiner
                    index = end
                    continue
                }
                switch WordCounter.asciiClass(byte) {
                case 1:
                    characters += 1
                    if !inWord { words += 1 }
                    inWord = true
                    pending = false
                case 2:
                    characters += 1
                    if inWord && !pending {
                        pending = true
                    } else {
                        inWord = false
                        pending = false
                    }
                case 3:
                    inWord = false
                    pending = false
                default:
                    characters += 1
                    inWord = false
                    pending = false
                }
                index += 1
            }
            self.words = words
            self.characters = characters
            self.inWord = inWord
            self.pendingJoiner = pending
        }
    }

    /// The class of an ASCII byte: 0 other, 1 letter or digit, 2 joiner (`'`, `-`), 3 line break.
    /// (Arithmetic, not a table: a global table costs a lazy-initialisation check per call, and
    /// the counter is called once per text node.)
    @inline(__always)
    static func asciiClass(_ byte: UInt8) -> UInt8 {
        if (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 { return 1 }
        if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-") { return 2 }
        if byte == 0x0A || byte == 0x0D { return 3 }
        return 0
    }

    /// Feeds UTF-8 bytes; invalid sequences count as U+FFFD.
    mutating func feed<C: Collection>(bytes: C) where C.Element == UInt8 {
        var index = bytes.startIndex
        // ASCII, the bulk of most notes, is classified directly; the rest is decoded.
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                takeASCII(byte)
                index = bytes.index(after: index)
                continue
            }
            // Two- and three-byte sequences (every script of the BMP) are decoded by hand.
            let next = bytes.index(after: index)
            if byte & 0xE0 == 0xC0, byte >= 0xC2, next != bytes.endIndex, bytes[next] & 0xC0 == 0x80 {
                take(UInt32(byte & 0x1F) << 6 | UInt32(bytes[next] & 0x3F))
                index = bytes.index(after: next)
                continue
            }
            if byte & 0xF0 == 0xE0, next != bytes.endIndex, bytes[next] & 0xC0 == 0x80 {
                let third = bytes.index(after: next)
                if third != bytes.endIndex, bytes[third] & 0xC0 == 0x80 {
                    let value = UInt32(byte & 0x0F) << 12 | UInt32(bytes[next] & 0x3F) << 6 | UInt32(bytes[third] & 0x3F)
                    if value >= 0x800 && !(0xD800...0xDFFF).contains(value) {
                        take(value)
                        index = bytes.index(after: third)
                        continue
                    }
                }
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

    @inline(__always)
    private mutating func takeASCII(_ byte: UInt8) {
        if byte == 0x0A || byte == 0x0D {
            breakWord()
            return
        }
        characters += 1
        let isWordByte = (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
        if isWordByte {
            if !inWord { words += 1 }
            inWord = true
            pendingJoiner = false
        } else if inWord && !pendingJoiner && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-")) {
            pendingJoiner = true
        } else {
            breakWord()
        }
    }

    private mutating func take(_ v: UInt32) {
        characters += 1
        if WordCounter.isIdeographic(v) {
            words += 1
            breakWord()
            return
        }
        if WordCounter.isWordish(v) {
            if !inWord { words += 1 }
            inWord = true
            pendingJoiner = false
        } else if inWord && !pendingJoiner && v == 0x2019 {
            // Keep "don't" and "well-known" one word when a letter follows.
            pendingJoiner = true
        } else {
            breakWord()
        }
    }

    /// Letters, digits and marks. The letters and marks of Latin, Greek, Cyrillic, Arabic and
    /// Devanagari are known by range (their few symbols and punctuation excepted); everything
    /// else asks the Unicode properties.
    @inline(__always)
    static func isWordish(_ v: UInt32) -> Bool {
        switch v {
        case 0xC0...0x24F: return v != 0xD7 && v != 0xF7
        case 0x386...0x3FF: return v != 0x387 && v != 0x3F6
        case 0x400...0x481, 0x483...0x487, 0x48A...0x52F: return true
        case 0x620...0x669, 0x671...0x6D3: return true
        case 0x900...0x963, 0x966...0x96F, 0x971...0x97F: return true
        case 0x2000...0x206F: return false
        case 0x3000...0x303F:
            return (0x3005...0x3007).contains(v) || (0x3021...0x302F).contains(v) || (0x3031...0x3035).contains(v)
                || (0x3038...0x303C).contains(v)
        case 0x80...0xBF: return v == 0xAA || v == 0xB2 || v == 0xB3 || v == 0xB5 || v == 0xB9 || v == 0xBA || (0xBC...0xBE).contains(v)
        default:
            guard let scalar = Unicode.Scalar(v) else { return false }
            let properties = scalar.properties
            return properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
                || properties.generalCategory == .decimalNumber
        }
    }

    private static func isIdeographic(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x3040...0x30FF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
    }
}
