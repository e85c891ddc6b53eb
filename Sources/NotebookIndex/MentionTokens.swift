// How unlinked mentions read text: prose and names are cut into the same tokens, and a name is
// mentioned where the prose holds its tokens in a row.
//
// Invariants:
// - One tokenizer for both sides (`MentionTokens.tokenize`): the prose of every note and every
//   note's names go through it, so what "the same words" means is decided once.
// - A *word* is a run of letters, digits and marks of a script that spaces its words (Latin,
//   Greek, Cyrillic, Arabic, Hebrew, Devanagari, Hangul, …): a name of such words matches whole
//   words only. In the scripts written without spaces (Chinese, Japanese, Thai, and Lao, Khmer
//   and Myanmar, written the same way) each letter with its marks is a token of its own: a name
//   in them matches anywhere, as a substring, though never inside one letter and its marks.
//   Every other character that is not white space (punctuation, symbols, emoji) is a token of
//   its own; white space only separates tokens, and each token records whether some came
//   before it (`spaceBefore`), so `Node.js` is not `Node . js` but `machine  learning` is
//   `machine learning`.
// - Tokens compare folded: each letter upper-cased then lower-cased, one scalar at a time (`ß`
//   and `SS` are `ss`, `ς` is `σ`, `İ` and `ı` are `i`), which is Unicode's full case folding
//   but for the Turkish letters it reads as an English reader would. Text is not normalised
//   (a decomposed `é` is not a composed one).
// - A token's hash is a hash of its folded UTF-8 bytes (`TokenHasher`, eight bytes a step; the
//   bytes `foldedText` writes), the same in every process, so the index's prose words
//   (`ProseWords`) of equal texts are equal.
// - Never traps, whatever the bytes: ill-formed UTF-8 reads as U+FFFD, a symbol.
// - Hot path (every note's prose at index time): bytes, no String. For a sink of words alone
//   (`ProseWords`) sixteen ASCII bytes are classified at once (`readASCIIBlock`) and a short
//   word hashed in one load; that path gives the very words the byte-by-byte path gives, which
//   a differential test checks on random text (`testProseWordsHoldTheKeysOfEveryTokenOfTheProse`).
//   The tables of the scalars' classes and folded forms are made once, when first read.

import TextCore

/// A token of prose or of a name (see the file comment).
struct MentionToken: Sendable, Equatable {
    enum Kind: UInt8, Sendable { case word, unspaced, symbol }
    /// Byte offsets in the text tokenized.
    var start: Int32
    var end: Int32
    /// The hash of the folded bytes (`TokenHasher`).
    var hash: UInt32
    var kind: Kind
    /// Whether white space comes between this token and the one before it.
    var spaceBefore: Bool
}

/// What takes the tokens of a text as the tokenizer cuts them: an array of them (the
/// matcher, names), or the index's prose words, which keep only their keys.
protocol MentionTokenSink {
    /// Whether it reads symbol tokens. The prose words do not: to them a symbol only ends the
    /// word before it, so the tokenizer spends nothing on symbols for them, and reads ASCII
    /// sixteen bytes at a time (`takeWord`, `takeBreak`).
    static var takesSymbols: Bool { get }
    mutating func take(_ token: MentionToken)
    /// A word read sixteen bytes at a time (only when `takesSymbols` is false).
    mutating func takeWord(start: Int, end: Int, hash: UInt32)
    /// The end of such sixteen bytes: white space or symbols may have come between the words.
    mutating func takeBreak()
}

extension MentionTokenSink {
    @inline(__always)
    mutating func takeWord(start: Int, end: Int, hash: UInt32) {
        take(MentionToken(start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end), hash: hash, kind: .word,
                          spaceBefore: false))
    }

    @inline(__always)
    mutating func takeBreak() {}
}

extension Array: MentionTokenSink where Element == MentionToken {
    static var takesSymbols: Bool { true }

    @inline(__always)
    mutating func take(_ token: MentionToken) { append(token) }
}

/// The hash of a token's folded UTF-8 bytes, taken eight bytes at a time: appended one by one
/// or eight at once (from the token's start), the same bytes give the same hash.
struct TokenHasher {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var pending: UInt64 = 0
    /// Bytes in `pending`, 0 to 7.
    private var pendingCount: UInt64 = 0

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        pending |= UInt64(byte) &<< (pendingCount &* 8)
        pendingCount &+= 1
        if pendingCount == 8 {
            absorb(pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// Eight bytes, the first in the low byte; only when no byte is pending.
    @inline(__always)
    private mutating func absorb(_ chunk: UInt64) {
        state = (state ^ chunk) &* 0xFF51_AFD7_ED55_8CCD
        state ^= state &>> 32
    }

    /// The UTF-8 bytes of `value`, at once.
    @inline(__always)
    mutating func append(scalar value: UInt32) {
        let packed: UInt64
        let count: UInt64
        switch value {
        case 0..<0x80:
            packed = UInt64(value)
            count = 1
        case 0x80..<0x800:
            packed = UInt64(0xC0 | value >> 6) | UInt64(0x80 | value & 0x3F) &<< 8
            count = 2
        case 0x800..<0x10000:
            packed = UInt64(0xE0 | value >> 12) | UInt64(0x80 | (value >> 6) & 0x3F) &<< 8 | UInt64(0x80 | value & 0x3F) &<< 16
            count = 3
        default:
            packed = UInt64(0xF0 | value >> 18) | UInt64(0x80 | (value >> 12) & 0x3F) &<< 8
                | UInt64(0x80 | (value >> 6) & 0x3F) &<< 16 | UInt64(0x80 | value & 0x3F) &<< 24
            count = 4
        }
        append(packed: packed, count: count)
    }

    /// `count` bytes (one to four), the first in the low byte of `packed`, the rest zero.
    @inline(__always)
    mutating func append(packed: UInt64, count: UInt64) {
        // The bytes that fit go to `pending`; when it fills, the rest start the next eight.
        let shift = pendingCount &* 8
        pending |= packed &<< shift
        let total = pendingCount &+ count
        if total >= 8 {
            absorb(pending)
            pending = shift == 0 ? 0 : packed &>> (64 &- shift)
            pendingCount = total &- 8
        } else {
            pendingCount = total
        }
    }

    /// The bytes `start..<end` of `bytes`, ASCII letters and digits, folded (`| 0x20` lowers a
    /// letter and keeps a digit): eight bytes a load, the last ones too when the buffer goes on
    /// past them (the bytes after the word masked off).
    @inline(__always)
    mutating func append(asciiWord bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        var index = start
        while pendingCount != 0, index < end {
            append(bytes[index] | 0x20)
            index &+= 1
        }
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            absorb(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian | 0x2020_2020_2020_2020)
            index &+= 8
        }
        let tail = end &- index
        guard tail > 0 else { return }
        if index &+ 8 <= bytes.count {
            let mask = (UInt64(1) &<< UInt64(tail &* 8)) &- 1
            pending = (raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian | 0x2020_2020_2020_2020) & mask
            pendingCount = UInt64(tail)
        } else {
            while index < end {
                append(bytes[index] | 0x20)
                index &+= 1
            }
        }
    }

    /// The hash of the ASCII letters and digits `raw[start..<start + length]`, `length` at most
    /// eight, loaded at once (the buffer goes on for eight bytes from `start`): what appending
    /// them to a new hasher and finishing gives, in a few instructions.
    @inline(__always)
    static func hash(shortASCIIWord raw: UnsafeRawPointer, at start: Int, length: Int) -> UInt32 {
        let chunk = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self).littleEndian | 0x2020_2020_2020_2020
        var hasher = TokenHasher()
        if length == 8 {
            hasher.absorb(chunk)
        } else {
            hasher.pending = chunk & ((UInt64(1) &<< UInt64(length &* 8)) &- 1)
            hasher.pendingCount = UInt64(length)
        }
        return hasher.finish()
    }

    @inline(__always)
    func finish() -> UInt32 {
        var value = (state ^ pending ^ pendingCount &<< 59) &* 0xC4CE_B9FE_1A85_EC53
        value ^= value &>> 29
        return UInt32(truncatingIfNeeded: value ^ value &>> 32)
    }
}

/// The tokenizer reading one run of text (see `MentionTokens.tokenize`).
struct MentionTokenReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The end of the run being read.
    private(set) var end = 0
    /// `MentionTokens.scalarTable`, held while reading (one look-up of the shared table for
    /// every run of a note).
    let table: [UInt32]
    var spaceBefore = false
    /// The token being read: its start (-1: none), its kind, and the hash of its bytes so far.
    var openStart = -1
    var openKind = MentionToken.Kind.word
    var hasher = TokenHasher()
    /// Where reading sixteen bytes at a time is worth trying again: after the bytes that are not
    /// ASCII a block began with (text in other scripts is read a character at a time).
    var blockRetry = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, table: [UInt32] = MentionTokens.scalarTable) {
        self.bytes = bytes
        self.table = table
    }

    /// Reads the run `bytes[start..<end]`, its tokens handed to `sink` in order.
    @inline(__always)
    mutating func read<Sink: MentionTokenSink>(from start: Int, to end: Int, into sink: inout Sink) {
        self.end = min(end, bytes.count)
        spaceBefore = false
        openStart = -1
        blockRetry = 0
        read(from: start, into: &sink)
    }

    @inline(__always)
    mutating func close<Sink: MentionTokenSink>(at position: Int, into sink: inout Sink) {
        guard openStart >= 0 else { return }
        sink.take(MentionToken(start: Int32(truncatingIfNeeded: openStart), end: Int32(truncatingIfNeeded: position),
                               hash: hasher.finish(), kind: openKind, spaceBefore: spaceBefore))
        spaceBefore = false
        openStart = -1
    }

    @inline(__always)
    mutating func open<Sink: MentionTokenSink>(_ kind: MentionToken.Kind, at position: Int, into sink: inout Sink) {
        close(at: position, into: &sink)
        openStart = position
        openKind = kind
        hasher = TokenHasher()
    }

    @inline(__always)
    var isWordOpen: Bool { openStart >= 0 && openKind == .word }

    @inline(__always)
    private mutating func read<Sink: MentionTokenSink>(from start: Int, into sink: inout Sink) {
        var index = max(0, start)
        while index < end {
            // A sink of words alone (the index's prose words) takes sixteen ASCII bytes at a time.
            if !Sink.takesSymbols, openStart < 0, index >= blockRetry, index &+ 16 <= bytes.count,
               let next = readASCIIBlock(at: index, into: &sink) {
                index = next
                continue
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if MentionTokens.isASCIIWordByte(byte) {
                    // A run of ASCII letters and digits: most words whole, hashed a load at a time.
                    var runEnd = index &+ 1
                    while runEnd < end, MentionTokens.isASCIIWordByte(bytes[runEnd]) { runEnd &+= 1 }
                    if !isWordOpen { open(.word, at: index, into: &sink) }
                    hasher.append(asciiWord: bytes, from: index, to: runEnd)
                    index = runEnd
                    // A word goes on through letters of other scripts (`café`); else it ends here.
                    if index < end, bytes[index] >= 0x80 { continue }
                    close(at: index, into: &sink)
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                    close(at: index, into: &sink)
                    spaceBefore = true
                    index &+= 1
                } else if Sink.takesSymbols {
                    open(.symbol, at: index, into: &sink)
                    hasher.append(byte)
                    index &+= 1
                } else {
                    close(at: index, into: &sink)
                    index &+= 1
                }
                continue
            }
            let (value, width) = MentionTokens.scalar(bytes, at: index, end: end)
            let entry = value < UInt32(table.count) ? table[Int(value)] : MentionTokens.scalarEntry(value)
            switch MentionTokens.CharacterClass(rawValue: UInt8(truncatingIfNeeded: entry &>> 29)) ?? .symbol {
            case .space:
                close(at: index, into: &sink)
                spaceBefore = true
            case .word:
                if !isWordOpen { open(.word, at: index, into: &sink) }
                appendFolded(value, entry, at: index, width: width)
            case .mark:
                // A mark belongs to the letter before it; after anything else it starts a word.
                // Search's table drops the combining accents a letter carries (`dropsFlag`).
                if openStart >= 0 && openKind != .symbol {
                    if entry & MentionTokens.dropsFlag == 0 { hasher.append(scalar: value) }
                } else {
                    open(.word, at: index, into: &sink)
                    hasher.append(scalar: value)
                }
            case .unspaced:
                open(.unspaced, at: index, into: &sink)
                appendFolded(value, entry, at: index, width: width)
            case .symbol:
                if Sink.takesSymbols {
                    open(.symbol, at: index, into: &sink)
                    hasher.append(scalar: value)
                } else {
                    close(at: index, into: &sink)
                }
            }
            index &+= width
        }
        close(at: end, into: &sink)
    }

    /// The words of the sixteen bytes at `start` (inside the buffer, maybe past the run), up to
    /// the run's end or the first byte that is not ASCII, handed to `sink` (a sink that takes no
    /// symbols, with no token open); returns where reading goes on: after that part, or at the
    /// start of a word that may go on past it. Nil when the first byte is not ASCII, or a word
    /// starts the block and may go on past the part.
    @inline(__always)
    mutating func readASCIIBlock<Sink: MentionTokenSink>(at start: Int, into sink: inout Sink) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let block = raw.loadUnaligned(fromByteOffset: start, as: ByteBlock.Bytes.self)
        // The part read here: up to the run's end, and the ASCII bytes before the first that is
        // not (the bytes past the run, loaded with the rest, are masked off).
        let high = ByteBlock.words(block .>= ByteBlock.splat(0x80))
        let nonASCII = MentionTokenReader.bits(high.0) | MentionTokenReader.bits(high.1) &<< 8
        let runLimit = min(end &- start, 16)
        let limit = min(nonASCII == 0 ? 16 : nonASCII.trailingZeroBitCount, runLimit)
        guard limit > 0 else {
            // Text in another script: a character at a time up to its next ASCII byte.
            blockRetry = start &+ (~nonASCII).trailingZeroBitCount
            return nil
        }
        // Whether the part ends where the run does: a word reaching it ends there.
        let endsRun = limit == end &- start
        let lowered = block | ByteBlock.splat(0x20)
        let flags = ByteBlock.words(ByteBlock.within(lowered, 0x61, 0x7A) .| ByteBlock.within(block, 0x30, 0x39))
        var words = (MentionTokenReader.bits(flags.0) | MentionTokenReader.bits(flags.1) &<< 8) & ((1 &<< UInt32(limit)) &- 1)
        while words != 0 {
            let first = words.trailingZeroBitCount
            let length = (~(words &>> UInt32(first))).trailingZeroBitCount
            // A word that reaches the part's end may go on (into the next block, or through
            // letters of another script): read from its start, byte by byte when it starts the
            // block.
            if first &+ length >= limit, !endsRun { return first == 0 ? nil : start &+ first }
            let hash: UInt32
            if length <= 8, start &+ first &+ 8 <= bytes.count {
                hash = TokenHasher.hash(shortASCIIWord: raw, at: start &+ first, length: length)
            } else {
                var hasher = TokenHasher()
                hasher.append(asciiWord: bytes, from: start &+ first, to: start &+ first &+ length)
                hash = hasher.finish()
            }
            sink.takeWord(start: start &+ first, end: start &+ first &+ length, hash: hash)
            words &= ~(((1 as UInt32) &<< UInt32(length) &- 1) &<< UInt32(first))
        }
        sink.takeBreak()
        return start &+ limit
    }

    /// The eight flags of `word` (0xFF or 0 a byte, as `ByteBlock.words` gives them) as the low
    /// eight bits, the first byte's lowest.
    @inline(__always)
    static func bits(_ word: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: ((word & 0x8080_8080_8080_8080) &* 0x0002_0408_1020_4081) &>> 56)
    }

    /// The folded form of the letter `value`, whose table entry is `entry`, written in the
    /// `width` bytes at `index`: those very bytes when folding leaves it as it is (most letters
    /// of scripts without case), in one load.
    @inline(__always)
    mutating func appendFolded(_ value: UInt32, _ entry: UInt32, at index: Int, width: Int) {
        if entry & MentionTokens.expandsFlag != 0 {
            appendExpanded(value)
        } else if entry & MentionTokens.scalarMask == value, index &+ 4 <= bytes.count, let base = bytes.baseAddress {
            let word = UInt64(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian)
            hasher.append(packed: word & ((UInt64(1) &<< UInt64(width &* 8)) &- 1), count: UInt64(width))
        } else {
            hasher.append(scalar: entry & MentionTokens.scalarMask)
        }
    }

    /// The folded form of several scalars (`ß`), rare enough to be called.
    @inline(never)
    mutating func appendExpanded(_ value: UInt32) {
        for folded in MentionTokens.folded(value) { hasher.append(scalar: folded) }
    }
}

enum MentionTokens {
    /// What a character is to the tokenizer.
    enum CharacterClass: UInt8 {
        case space = 0, word, unspaced, mark, symbol
    }

    static let fnvOffset: UInt32 = 0x811C_9DC5
    static let fnvPrime: UInt32 = 0x0100_0193

    @inline(__always)
    static func mix(_ hash: UInt32, _ value: UInt32) -> UInt32 { (hash ^ value) &* fnvPrime }

    @inline(__always)
    static func isASCIIWordByte(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 }

    /// Cuts `bytes[start..<end]` into tokens, handed to `sink` in order (offsets in `bytes`).
    /// (A caller reading many runs of one text keeps one `MentionTokenReader` for them all.)
    @inline(__always)
    static func tokenize<Sink: MentionTokenSink>(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                                 into sink: inout Sink) {
        var reader = MentionTokenReader(bytes)
        reader.read(from: start, to: end, into: &sink)
    }

    // MARK: Characters

    /// The scalar at `index` (a non-ASCII lead byte) and its width; U+FFFD, one byte wide, for
    /// ill-formed or cut-off sequences.
    @inline(__always)
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (UInt32, Int) {
        if let (value, width) = UTF8BMPScalar.decode(UnsafeBufferPointer(rebasing: bytes[..<end]), at: index) { return (value, width) }
        let lead = bytes[index]
        guard lead >= 0xF0, lead <= 0xF4, index + 3 < end else { return (0xFFFD, 1) }
        let b1 = bytes[index + 1], b2 = bytes[index + 2], b3 = bytes[index + 3]
        guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return (0xFFFD, 1) }
        let value = UInt32(lead & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F)
        return value >= 0x10000 && value <= 0x10FFFF ? (value, 4) : (0xFFFD, 1)
    }

    /// The class of the scalar `value`.
    @inline(__always)
    static func characterClass(_ value: UInt32) -> CharacterClass {
        let entry = value < tableSize ? scalarTable[Int(value)] : scalarEntry(value)
        return CharacterClass(rawValue: UInt8(truncatingIfNeeded: entry &>> 29)) ?? .symbol
    }

    /// The scalars `scalarTable` holds: U+0000 to U+30FF (Latin to kana).
    static let tableSize: UInt32 = 0x3100

    static let scalarMask: UInt32 = 0x1F_FFFF
    static let expandsFlag: UInt32 = 0x1000_0000
    /// In `searchScalarTable`, a combining accent that a letter before it loses.
    static let dropsFlag: UInt32 = 0x0800_0000

    /// Each scalar of U+0000 to U+30FF (Latin, Greek, Cyrillic, Arabic, Indic scripts, Thai,
    /// kana…) as the tokenizer reads it: its class in the top three bits, and for a letter its
    /// folded form (or `expandsFlag` when that is several scalars: `folded`). 49 KB made once
    /// from the Unicode properties, where asking them costs a table walk a character; the CJK
    /// ideographs and Hangul are known by their ranges (`scalarEntry`).
    static let scalarTable: [UInt32] = (0..<tableSize).map(scalarEntry)

    /// `scalarTable` for full-text search, which folds accents too (`Café` is `cafe`, `Ἀθῆναι`
    /// is `αθηναι`): each Latin and Greek letter with a diacritic reads as its base letter, and
    /// the combining diacritical marks after a letter are dropped (`dropsFlag`), so a decomposed
    /// `é` is `e` as well. Only Latin and Greek: in other scripts (Cyrillic `й`, Devanagari's
    /// vowel signs) what looks like an accent makes another letter.
    static let searchScalarTable: [UInt32] = {
        var table = scalarTable
        var bases: [String: UInt32] = [:]
        let accented: [ClosedRange<UInt32>] = [0x00C0...0x024F, 0x0370...0x03FF, 0x1E00...0x1FFF]
        for range in [0x41...0x7A] + accented {
            for value in range {
                guard let name = Unicode.Scalar(value)?.properties.name, !name.contains(" WITH ") else { continue }
                bases[name] = value
            }
        }
        /// The base letter of `value` by its name (`LATIN SMALL LETTER E WITH ACUTE`), or itself.
        func base(_ value: UInt32) -> UInt32 {
            guard accented.contains(where: { $0.contains(value) }), let name = Unicode.Scalar(value)?.properties.name,
                  let cut = name.firstRange(of: " WITH ") else { return value }
            return bases[String(name[..<cut.lowerBound])] ?? value
        }
        for value in 0..<tableSize {
            let entry = table[Int(value)]
            let kind = CharacterClass(rawValue: UInt8(truncatingIfNeeded: entry &>> 29)) ?? .symbol
            switch kind {
            case .mark where (0x0300...0x036F).contains(value) || (0x1AB0...0x1AFF).contains(value)
                || (0x1DC0...0x1DFF).contains(value):
                table[Int(value)] = entry | dropsFlag
            case .word:
                let forms = folded(value).map { base($0) }.map { folded($0).count == 1 ? folded($0)[0] : $0 }
                if forms.count == 1 { table[Int(value)] = UInt32(kind.rawValue) << 29 | forms[0] & scalarMask }
            default:
                continue
            }
        }
        return table
    }()

    /// The table entry of `value` (see `scalarTable`): by range for the large blocks of
    /// letters without case, else from the properties.
    @inline(__always)
    static func scalarEntry(_ value: UInt32) -> UInt32 {
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: return UInt32(CharacterClass.unspaced.rawValue) << 29 | value  // ideographs
        case 0xAC00...0xD7A3: return UInt32(CharacterClass.word.rawValue) << 29 | value  // Hangul: spaced, caseless
        default: return entryByProperties(value)
        }
    }

    /// The table entry of `value`, from the properties.
    static func entryByProperties(_ value: UInt32) -> UInt32 {
        let kind = classByProperties(value)
        var entry = UInt32(kind.rawValue) << 29
        if kind == .word || kind == .unspaced {
            let forms = folded(value)
            entry |= forms.count == 1 ? forms[0] & scalarMask : expandsFlag
        }
        return entry
    }

    /// The class of `value` by its general category and script range.
    static func classByProperties(_ value: UInt32) -> CharacterClass {
        if value < 0x80 {
            let byte = UInt8(value)
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D { return .space }
            if byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 26 { return .word }
            return .symbol
        }
        guard let scalar = Unicode.Scalar(value) else { return .symbol }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return .space
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .mark
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return isUnspacedScript(value) ? .unspaced : .word
        default:
            return .symbol
        }
    }

    /// The scripts written without spaces between words.
    static func isUnspacedScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
             0x1000...0x109F,  // Myanmar
             0x1780...0x17FF, 0x19E0...0x19FF,  // Khmer
             0x2E80...0x2FDF,  // CJK radicals
             0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x3038...0x303C,  // iteration marks, Hangzhou numerals
             0x3040...0x30FF, 0x31F0...0x31FF,  // kana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // ideographs
             0xFF66...0xFF9F,  // half-width katakana
             0x1B000...0x1B16F,  // kana supplements
             0x20000...0x3FFFF:  // ideographs beyond the BMP
            return true
        default:
            return false
        }
    }

    // MARK: Folding

    /// Calls `body` with each scalar of the folded form of the letter `value` (one, mostly;
    /// `ß` gives two).
    @inline(__always)
    static func forEachFolded(_ value: UInt32, _ body: (UInt32) -> Void) {
        if value < 0x80 {
            body(value &- 0x41 < 26 ? value | 0x20 : value)
            return
        }
        let entry = value < tableSize ? scalarTable[Int(value)] : scalarEntry(value)
        if entry & expandsFlag == 0 {
            body(entry & scalarMask)
        } else {
            for form in folded(value) { body(form) }
        }
    }

    /// The folded form of the letter `value`: upper-cased then lower-cased, as a String would
    /// (see the file comment), with `İ` as `i`. Scripts without case answer at once.
    static func folded(_ value: UInt32) -> [UInt32] {
        if value >= 0x2000, !Slugger.mayChangeWhenLowercased(value) || isUnspacedScript(value) { return [value] }
        return foldedByProperties(value)
    }

    /// The folded form of `value`: upper-cased then lower-cased, as a String would (see the file
    /// comment), with `İ` as `i`.
    static func foldedByProperties(_ value: UInt32) -> [UInt32] {
        guard let scalar = Unicode.Scalar(value) else { return [value] }
        if value == 0x130 { return [0x69] }  // İ: `i`, not `i̇`
        let properties = scalar.properties
        guard properties.changesWhenCaseMapped else { return [value] }
        let folded = properties.uppercaseMapping.lowercased().unicodeScalars.map(\.value)
        return folded.isEmpty ? [value] : folded
    }

    /// The folded text of `tokens`, tokens of `bytes`, as UTF-8: each token's folded scalars, one
    /// space where white space came between two (what a name is compared by).
    static func foldedText(_ bytes: UnsafeBufferPointer<UInt8>, _ tokens: ArraySlice<MentionToken>, into result: inout [UInt8]) {
        for token in tokens {
            if token.spaceBefore, token.start != tokens.first?.start { result.append(0x20) }
            var index = Int(token.start)
            let end = min(Int(token.end), bytes.count)
            while index < end {
                let byte = bytes[index]
                if byte < 0x80 {
                    result.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
                    index += 1
                    continue
                }
                let (value, width) = scalar(bytes, at: index, end: end)
                let kind = characterClass(value)
                if kind == .word || kind == .unspaced {
                    forEachFolded(value) { appendUTF8($0, to: &result) }
                } else {
                    appendUTF8(value, to: &result)
                }
                index += width
            }
        }
    }

    @inline(__always)
    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | (value >> 6) & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | (value >> 12) & 0x3F))
            bytes.append(UInt8(0x80 | (value >> 6) & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
