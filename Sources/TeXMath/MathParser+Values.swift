// Arguments read as raw bytes rather than as maths: names, colours, dimensions; and delimiters.
//
// Each raw read starts at the current token and moves the lexer past what it read, so no byte is
// read twice.

import Localization

extension MathParser {
    /// The bytes between `{` and the next `}` (no braces inside), without surrounding spaces.
    mutating func readRawGroup(of owner: MathToken) throws(MathParseError) -> Range<Int> {
        guard token.kind == .openBrace else { throw error("math.error.missingBraces", describe(owner)) }
        return try readRaw(until: UInt8(ascii: "}"), of: owner)
    }

    /// The bytes between `[` and the next `]`, without surrounding spaces.
    mutating func readRawBracket(of owner: MathToken) throws(MathParseError) -> Range<Int> {
        try readRaw(until: UInt8(ascii: "]"), of: owner)
    }

    /// The bytes after the current token (`{` or `[`) up to `closing`, without surrounding
    /// spaces; the lexer continues after `closing`. A `{` inside a group is an error.
    private mutating func readRaw(until closing: UInt8, of owner: MathToken) throws(MathParseError) -> Range<Int> {
        let open = token.start
        var index = token.end
        while index < source.count, source[index] != closing {
            if closing == UInt8(ascii: "}"), source[index] == UInt8(ascii: "{") {
                throw error("math.error.braceInArgument", describe(owner), at: index)
            }
            index += 1
        }
        guard index < source.count else {
            throw closing == UInt8(ascii: "}") ? error("math.error.missingCloseBrace", at: open)
                : error("math.error.missingCloseBracket", describe(owner), at: open)
        }
        var lower = token.end, upper = index
        while lower < upper, MathLexer.isSpace(source[lower]) { lower += 1 }
        while upper > lower, MathLexer.isSpace(source[upper - 1]) { upper -= 1 }
        resume(at: index + 1)
        return lower..<upper
    }

    /// The text of a raw range, for names.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: source[range]), as: UTF8.self)
    }

    /// The text of a raw range for a message: at most 40 bytes of it, then `…`.
    func shown(_ range: Range<Int>) -> String {
        let limit = 40
        guard range.count > limit else { return string(range) }
        var end = range.lowerBound + limit
        while end > range.lowerBound, source[end] & 0xC0 == 0x80 { end -= 1 }
        return string(range.lowerBound..<end) + "…"
    }

    /// `{red}`, `{#0000FF}`, `{0000FF}`: a colour that is safe in an attribute (letters or hex).
    mutating func readColor(of owner: MathToken) throws(MathParseError) -> String {
        let start = token.start
        let range = try readRawGroup(of: owner)
        let bytes = UnsafeBufferPointer(rebasing: source[range])
        func isHex(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
        }
        if bytes.first == UInt8(ascii: "#"), [3, 4, 6, 8].contains(bytes.count - 1), bytes.dropFirst().allSatisfy(isHex) {
            return string(range)
        }
        if bytes.count == 6, bytes.allSatisfy(isHex), !bytes.allSatisfy(MathLexer.isLetter) {
            return "#" + string(range)
        }
        if !bytes.isEmpty, bytes.count <= 32, bytes.allSatisfy(MathLexer.isLetter) {
            return string(range)
        }
        throw error("math.error.invalidColor", .string(shown(range)), describe(owner), at: start)
    }

    /// A dimension: `{1.5em}` when `braced`, or written straight after the command (`\kern1em`);
    /// returns ten-thousandths of an em.
    mutating func readDimension(of owner: MathToken, braced: Bool) throws(MathParseError) -> Int {
        let start = token.start
        if braced || token.kind == .openBrace {
            let range = try readRawGroup(of: owner)
            guard let (value, end) = parseDimension(from: range.lowerBound, limit: range.upperBound), end == range.upperBound else {
                throw error("math.error.invalidDimension", .string(shown(range)), describe(owner), at: start)
            }
            return value
        }
        guard let (value, end) = parseDimension(from: token.start, limit: source.count) else {
            throw error("math.error.missingDimension", describe(owner), at: start)
        }
        resume(at: end)
        return value
    }

    /// Signs, a decimal number, spaces, a TeX unit; the value in ten-thousandths of an em and
    /// where it ends. KaTeX's sizes: 1em is 10pt, 1ex is 0.431em, 1mu is 1/18em.
    func parseDimension(from start: Int, limit: Int) -> (Int, Int)? {
        var index = start
        var negative = false
        func skipSpaces() { while index < limit, MathLexer.isSpace(source[index]) { index += 1 } }
        skipSpaces()
        while index < limit, source[index] == UInt8(ascii: "-") || source[index] == UInt8(ascii: "+") {
            if source[index] == UInt8(ascii: "-") { negative.toggle() }
            index += 1
            skipSpaces()
        }
        var number = 0.0, digits = 0, scale = 1.0, afterPoint = false
        while index < limit {
            let byte = source[index]
            if isDigit(byte), digits < 12 {
                number = number * 10 + Double(byte - 0x30)
                if afterPoint { scale *= 10 }
                digits += 1
            } else if byte == UInt8(ascii: "."), !afterPoint {
                afterPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        skipSpaces()
        guard index + 2 <= limit else { return nil }
        let unit = (UInt16(source[index]) << 8) | UInt16(source[index + 1])
        let emPerUnit: Double
        switch unit {
        case 0x656D: emPerUnit = 1  // em
        case 0x6578: emPerUnit = 0.431  // ex
        case 0x6D75: emPerUnit = 1.0 / 18  // mu
        case 0x7074: emPerUnit = 0.1  // pt
        case 0x7063: emPerUnit = 1.2  // pc
        case 0x6270: emPerUnit = 0.1 * 72.27 / 72  // bp
        case 0x6D6D: emPerUnit = 0.1 * 72.27 / 25.4  // mm
        case 0x636D: emPerUnit = 0.1 * 72.27 / 2.54  // cm
        case 0x696E: emPerUnit = 0.1 * 72.27  // in
        case 0x6464: emPerUnit = 0.1 * 1238 / 1157  // dd
        case 0x6363: emPerUnit = 1.2 * 1238 / 1157  // cc
        case 0x6E64: emPerUnit = 0.1 * 685 / 642  // nd
        case 0x6E63: emPerUnit = 1.2 * 685 / 642  // nc
        case 0x7370: emPerUnit = 0.1 / 65536  // sp
        default: return nil
        }
        index += 2
        skipSpaces()
        let value = (number / scale * emPerUnit * 10_000).rounded()
        guard value < 1e9 else { return nil }
        return (negative ? -Int(value) : Int(value), index)
    }

    /// `1.5em` for 15000: ten-thousandths of an em as a CSS length, at most four decimals.
    static func em(_ tenThousandths: Int) -> String {
        var text = tenThousandths < 0 ? "-" : ""
        let magnitude = abs(tenThousandths)
        text += String(magnitude / 10_000)
        var fraction = magnitude % 10_000
        if fraction > 0 {
            var decimals = String(fraction)
            decimals = String(repeating: "0", count: 4 - decimals.count) + decimals
            while decimals.hasSuffix("0") {
                decimals.removeLast()
                fraction /= 10
            }
            text += "." + decimals
        }
        return text + "em"
    }

    // MARK: Delimiters

    /// The delimiter after `\left`, `\right`, `\middle`, `\big`…: its text in the pool, or nil
    /// for `.` (no delimiter).
    mutating func readDelimiter(after owner: MathToken) throws(MathParseError) -> Range<Int32>? {
        switch token.kind {
        case .character:
            var scalar = token.scalar
            switch scalar {
            case 0x2E:
                advance()
                return nil
            case 0x3C: scalar = 0x27E8  // < is ⟨
            case 0x3E: scalar = 0x27E9  // > is ⟩
            case 0x28, 0x29, 0x5B, 0x5D, 0x7C, 0x2F: break
            default:
                guard scalar >= 0x80, table.classOfScalar[scalar]?.isDelimiter == true else {
                    throw error("math.error.needsDelimiter", describe(owner))
                }
            }
            advance()
            return tree.store(scalar: scalar)
        case .command:
            if let command = currentCommand, case .symbol(let symbolClass, let text) = command, symbolClass.isDelimiter {
                advance()
                return storeSymbolText(text)
            }
            throw error("math.error.needsDelimiterNot", describe(owner), .string("\\" + commandName))
        default:
            throw error("math.error.needsDelimiter", describe(owner))
        }
    }

    /// Copies a symbol's text from the command table into the pool.
    @inline(never)
    mutating func storeSymbolText(_ text: Range<Int32>) -> Range<Int32> {
        let start = Int32(tree.bytes.count)
        tree.bytes.append(contentsOf: table.symbolText[Int(text.lowerBound)..<Int(text.upperBound)])
        return start..<Int32(tree.bytes.count)
    }

    /// The forms of a stretchy delimiter.
    enum DelimiterForm {
        case prefix, postfix, infix, ordinary, relation
    }

    /// A delimiter that stretches (`size` nil: to its row, as `\left`) or has a fixed size
    /// (`\big`: size 1 to 4).
    mutating func delimiter(_ text: Range<Int32>, form: DelimiterForm, size: Int? = nil) -> Int32 {
        let start = Int32(tree.bytes.count)
        func add(_ attribute: StaticString) {
            attribute.withUTF8Buffer { tree.bytes.append(contentsOf: $0) }
        }
        switch form {
        case .prefix: add(" form=\"prefix\"")
        case .postfix: add(" form=\"postfix\"")
        case .infix: add(" lspace=\"0.0556em\" rspace=\"0.0556em\"")
        case .ordinary: add(" lspace=\"0\" rspace=\"0\"")
        case .relation: add(" lspace=\"0.2778em\" rspace=\"0.2778em\"")
        }
        add(" stretchy=\"true\" symmetric=\"true\"")
        if let size {
            let em: StaticString
            switch size {
            case 1: em = "1.2em"
            case 2: em = "1.8em"
            case 3: em = "2.4em"
            default: em = "3em"
            }
            add(" minsize=\"")
            add(em)
            add("\" maxsize=\"")
            add(em)
            add("\"")
        }
        let atom: AtomClass
        switch form {
        case .prefix: atom = .open
        case .postfix: atom = .close
        case .relation: atom = .rel
        case .infix, .ordinary: atom = .ord
        }
        return tree.token(.mo, text: text, atom: atom, attributes: start..<Int32(tree.bytes.count))
    }
}
