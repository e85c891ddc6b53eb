// The tokens of a TeX formula, read one at a time from its UTF-8 bytes.
//
// Invariants:
// - Each byte is read once, left to right: `next()` never looks back, and looks ahead only past
//   the letters of a control word and the spaces after it.
// - Never reads outside the input. NUL and ill-formed UTF-8 become U+FFFD characters, with the
//   sequence boundaries of `UTF8Repair` (the HTML writer's rule).
// - `%` starts a comment that runs to the end of its line; comments never reach the parser.

import TextCore

/// One token of TeX input.
struct MathToken {
    enum Kind: UInt8 {
        /// The end of the formula.
        case end
        /// `\name` (a control word: letters) or `\x` (a control symbol: one character).
        case command
        /// Any other character, in `scalar`.
        case character
        case openBrace, closeBrace, caret, underscore, alignment
        /// A run of white space (the parser skips it in maths, keeps one space in text).
        case space
        /// `~`, a non-breaking space.
        case tilde
        /// `#` (macro parameters are not supported) and `$` (only inside `\text{…}`).
        case parameter, mathShift
    }

    var kind: Kind
    /// Byte offset of the token's first byte.
    var start: Int
    /// Byte offset just past the command name (commands only).
    var nameEnd: Int
    /// Byte offset just past the token (and, after a control word, the spaces TeX skips).
    var end: Int
    /// The character of a `.character` token (U+FFFD for NUL or ill-formed UTF-8).
    var scalar: UInt32

    /// The name of a command, without its backslash.
    var nameRange: Range<Int> { (start + 1)..<nameEnd }
}

/// Splits a formula into tokens, one call of `next()` at a time.
struct MathLexer {
    let source: UnsafeBufferPointer<UInt8>
    /// Where the next token starts.
    private(set) var position = 0
    /// How many tokens `next()` has made (the tests' measure of work).
    private(set) var tokenCount = 0

    init(_ source: UnsafeBufferPointer<UInt8>) {
        self.source = source
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }

    /// The byte at `offset`, or 0 past the end.
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        offset < source.count ? source[offset] : 0
    }

    /// Continues at `offset` (after the parser has read raw bytes up to it).
    mutating func reposition(to offset: Int) {
        position = min(max(offset, position), source.count)
    }

    /// Reads the next token.
    mutating func next() -> MathToken {
        tokenCount += 1
        while position < source.count {
            let first = source[position]
            if first == 0x25 {  // % comment: to the end of the line, line break included
                while position < source.count, source[position] != 0x0A, source[position] != 0x0D { position += 1 }
                if position < source.count {
                    if source[position] == 0x0D, byte(at: position + 1) == 0x0A { position += 1 }
                    position += 1
                }
                continue
            }
            return token(startingWith: first)
        }
        return MathToken(kind: .end, start: source.count, nameEnd: source.count, end: source.count, scalar: 0)
    }

    private mutating func token(startingWith first: UInt8) -> MathToken {
        let start = position
        func simple(_ kind: MathToken.Kind) -> MathToken {
            position += 1
            return MathToken(kind: kind, start: start, nameEnd: start + 1, end: start + 1, scalar: UInt32(first))
        }
        switch first {
        case 0x5C: return command()
        case 0x7B: return simple(.openBrace)
        case 0x7D: return simple(.closeBrace)
        case 0x5E: return simple(.caret)
        case 0x5F: return simple(.underscore)
        case 0x26: return simple(.alignment)
        case 0x7E: return simple(.tilde)
        case 0x23: return simple(.parameter)
        case 0x24: return simple(.mathShift)
        default:
            if Self.isSpace(first) {
                while position < source.count, Self.isSpace(source[position]) { position += 1 }
                return MathToken(kind: .space, start: start, nameEnd: position, end: position, scalar: 0x20)
            }
            let (scalar, length) = scalar(at: start)
            position += length
            return MathToken(kind: .character, start: start, nameEnd: position, end: position, scalar: scalar)
        }
    }

    /// `\` and a name: letters (a control word, then the spaces after it are skipped), or one
    /// character (a control symbol). A `\` at the very end has an empty name.
    private mutating func command() -> MathToken {
        let start = position
        position += 1
        guard position < source.count else {
            return MathToken(kind: .command, start: start, nameEnd: position, end: position, scalar: 0)
        }
        if Self.isLetter(source[position]) {
            while position < source.count, Self.isLetter(source[position]) { position += 1 }
            let nameEnd = position
            while position < source.count, Self.isSpace(source[position]) { position += 1 }
            return MathToken(kind: .command, start: start, nameEnd: nameEnd, end: position, scalar: 0)
        }
        let (scalar, length) = scalar(at: position)
        position += length
        return MathToken(kind: .command, start: start, nameEnd: position, end: position, scalar: scalar)
    }

    /// The scalar at `offset` and its length in bytes; U+FFFD for NUL and ill-formed sequences.
    func scalar(at offset: Int) -> (UInt32, Int) {
        let lead = source[offset]
        if lead < 0x80 { return lead == 0 ? (0xFFFD, 1) : (UInt32(lead), 1) }
        let length = UTF8Repair.validSequenceLength(source, offset)
        guard length > 0 else { return (0xFFFD, -length) }
        var value: UInt32
        switch length {
        case 2: value = UInt32(lead & 0x1F)
        case 3: value = UInt32(lead & 0x0F)
        default: value = UInt32(lead & 0x07)
        }
        for k in 1..<length { value = (value << 6) | UInt32(source[offset + k] & 0x3F) }
        return (value, length)
    }
}
