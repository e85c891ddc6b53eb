// The tokenizer state of `CodeHighlighter`, its scanning helpers and the C-like tokenizer.
//
// Invariants:
// - `plainStart <= i <= end` between steps; tokens are emitted in order and never overlap, and
//   every byte not inside a token is written as plain escaped text by the next `emit` or `finish`.
// - Scanners are pure: they return the index where their construct ends (never past `end`).
// - Every iteration of a main loop advances `i` by at least one byte.

extension CodeHighlighter {
    /// A highlighted run.
    enum Token: UInt8 {
        case keyword, string, comment, number, type, literal, function, meta, tag, attr, variable

        var openTag: StaticString {
            switch self {
            case .keyword: return "<span class=\"hl-keyword\">"
            case .string: return "<span class=\"hl-string\">"
            case .comment: return "<span class=\"hl-comment\">"
            case .number: return "<span class=\"hl-number\">"
            case .type: return "<span class=\"hl-type\">"
            case .literal: return "<span class=\"hl-literal\">"
            case .function: return "<span class=\"hl-function\">"
            case .meta: return "<span class=\"hl-meta\">"
            case .tag: return "<span class=\"hl-tag\">"
            case .attr: return "<span class=\"hl-attr\">"
            case .variable: return "<span class=\"hl-variable\">"
            }
        }

        init(_ kind: WordKind) {
            switch kind {
            case .keyword: self = .keyword
            case .type: self = .type
            case .literal: self = .literal
            case .function: self = .function
            }
        }
    }

    /// One highlighting pass over a code block (non-copyable, as its writer is).
    struct Lexer: ~Copyable {
        let code: ArraySlice<UInt8>
        let start: Int
        let end: Int
        /// The next byte to look at.
        var i: Int
        /// The first byte not yet written.
        var plainStart: Int
        var out = HTMLWriter(capacity: 0)

        init(code: ArraySlice<UInt8>) {
            self.code = code
            start = code.startIndex
            end = code.endIndex
            i = start
            plainStart = start
        }

        // MARK: Output

        /// Writes the plain text before `from`, then `code[from..<to]` as a `token` span.
        mutating func emit(_ token: Token, _ from: Int, _ to: Int) {
            let to = min(to, end)
            guard from >= plainStart, to > from else { return }
            if from > plainStart { out.text(code[plainStart..<from]) }
            out.literal(token.openTag)
            out.text(code[from..<to])
            out.literal("</span>")
            plainStart = to
        }

        /// Writes the plain text after the last token.
        mutating func finish() {
            if end > plainStart { out.text(code[plainStart..<end]) }
            plainStart = end
        }

        // MARK: Bytes

        /// The byte at `index`, or 0 outside the code.
        @inline(__always)
        func at(_ index: Int) -> UInt8 { index >= start && index < end ? code[index] : 0 }

        @inline(__always)
        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        @inline(__always)
        static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

        @inline(__always)
        static func isIdentifierStart(_ byte: UInt8) -> Bool { isLetter(byte) || byte == 0x5F || byte >= 0x80 }

        @inline(__always)
        static func isIdentifierByte(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

        @inline(__always)
        static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

        @inline(__always)
        static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

        @inline(__always)
        static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }

        /// True when `bytes` occur at `index`.
        func matches(_ index: Int, _ bytes: [UInt8]) -> Bool {
            guard index >= start, index + bytes.count <= end else { return false }
            var k = 0
            while k < bytes.count {
                if code[index + k] != bytes[k] { return false }
                k += 1
            }
            return true
        }

        // MARK: Scanners

        /// The index of the line end at or after `from` (or `end`).
        func lineEnd(from: Int) -> Int {
            var k = from
            while k < end, !Lexer.isLineEnd(code[k]) { k += 1 }
            return k
        }

        /// The end of an identifier starting at `from`.
        func identifierEnd(from: Int, dollar: Bool = false, dash: Bool = false) -> Int {
            var k = from
            while k < end {
                let byte = code[k]
                if Lexer.isIdentifierByte(byte) || (dollar && byte == 0x24) || (dash && byte == 0x2D && k > from) {
                    k += 1
                } else {
                    break
                }
            }
            return k
        }

        /// The end of a number starting at `from`: digits, letters (hex digits, suffixes, units),
        /// `_`, a `.` before a digit, and a sign after an exponent `e`.
        func numberEnd(from: Int) -> Int {
            var k = from
            if at(k) == 0x2D { k += 1 }
            let hex = at(k) == 0x30 && (at(k + 1) | 0x20) == 0x78
            while k < end {
                let byte = code[k]
                if Lexer.isDigit(byte) || Lexer.isLetter(byte) || byte == 0x5F {
                    k += 1
                    if !hex, (byte | 0x20) == 0x65, at(k) == 0x2B || at(k) == 0x2D, Lexer.isDigit(at(k + 1)) { k += 1 }
                } else if byte == 0x2E, Lexer.isDigit(at(k + 1)) {
                    k += 1
                } else {
                    break
                }
            }
            return k
        }

        /// The end of a string whose body starts at `from`: after `close` (followed by `hashes`
        /// `#`s), at the line end when it may not span lines, or at the end of the code.
        func delimitedEnd(from: Int, close: [UInt8], hashes: Int = 0, escapes: Bool, multiline: Bool) -> Int {
            var k = from
            while k < end {
                let byte = code[k]
                if escapes && byte == 0x5C {
                    // An escaped line end does not end a single-line string, but a CR LF pair is
                    // skipped whole so the LF does not end it either.
                    k += 1
                    if k < end, code[k] == 0x0D, at(k + 1) == 0x0A { k += 1 }
                    k += 1
                    continue
                }
                if !multiline && Lexer.isLineEnd(byte) { return k }
                if byte == close[0], matches(k, close) {
                    var h = 0
                    var after = k + close.count
                    while h < hashes, at(after) == 0x23 { h += 1; after += 1 }
                    if h == hashes { return after }
                }
                k += 1
            }
            return end
        }

        /// The end of a block comment that opens at `from` (nested comments count when `nested`).
        func blockCommentEnd(from: Int, open: [UInt8], close: [UInt8], nested: Bool) -> Int {
            var k = from + open.count
            var depth = 1
            while k < end {
                if matches(k, close) {
                    k += close.count
                    depth -= 1
                    if depth == 0 { return k }
                } else if nested, matches(k, open) {
                    k += open.count
                    depth += 1
                } else {
                    k += 1
                }
            }
            return end
        }

        /// True when a word may start at `index` for shell-like rules (`#` comments, numbers).
        func isWordStart(_ index: Int) -> Bool {
            guard index > start else { return true }
            switch code[index - 1] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x3B, 0x26, 0x7C, 0x28, 0x29: return true
            default: return false
            }
        }

        /// The first index at or after `from` that is not a space or tab.
        func skippingBlanks(from: Int) -> Int {
            var k = from
            while k < end, Lexer.isBlank(code[k]) { k += 1 }
            return k
        }

        // MARK: C-like languages

        /// Tokenizes C-family, scripting and data languages by `rules`.
        mutating func runGeneric(_ rules: LanguageRules) {
            var lineHasContent = false
            while i < end {
                let byte = code[i]
                if Lexer.isLineEnd(byte) {
                    lineHasContent = false
                    i += 1
                    continue
                }
                if Lexer.isBlank(byte) {
                    i += 1
                    continue
                }
                let firstOnLine = !lineHasContent
                lineHasContent = true
                if lexComment(rules) { continue }
                switch byte {
                case 0x22: // "
                    lexString(rules, from: i, quoteAt: i)
                case 0x27: // '
                    lexSingleQuote(rules, from: i)
                case 0x60 where rules.backtickStrings: // `
                    let stop = delimitedEnd(from: i + 1, close: [0x60], escapes: true, multiline: true)
                    emit(.string, i, stop)
                    i = stop
                case 0x30...0x39:
                    lexNumber(rules, from: i)
                case 0x2E where Lexer.isDigit(at(i + 1)) && (i == start || !(Lexer.isIdentifierByte(at(i - 1)) || at(i - 1) == 0x2E || at(i - 1) == 0x29)):
                    lexNumber(rules, from: i)
                case 0x2D where rules.negativeNumbers && Lexer.isDigit(at(i + 1)):
                    lexNumber(rules, from: i)
                case 0x40 where rules.at != .none && (Lexer.isIdentifierStart(at(i + 1)) || at(i + 1) == 0x40):
                    var nameStart = i + 1
                    if rules.at == .variable, at(nameStart) == 0x40 { nameStart += 1 }
                    let stop = identifierEnd(from: nameStart)
                    if stop > nameStart {
                        emit(rules.at == .meta ? .meta : .variable, i, stop)
                        i = stop
                    } else {
                        i += 1
                    }
                case 0x23 where rules.hash != .none: // #
                    lexHash(rules, firstOnLine: firstOnLine)
                case 0x24 where rules.dollarVariables: // $
                    lexDollar()
                case 0x3A where rules.symbols && Lexer.isIdentifierStart(at(i + 1)) && at(i + 1) < 0x80
                    && (i == start || !(Lexer.isIdentifierByte(at(i - 1)) || at(i - 1) == 0x3A)):
                    let stop = identifierEnd(from: i + 1)
                    emit(.literal, i, stop)
                    i = stop
                default:
                    if Lexer.isIdentifierStart(byte) || (rules.dollarInIdentifiers && byte == 0x24) {
                        lexIdentifier(rules)
                    } else {
                        i += 1
                    }
                }
            }
        }

        /// A line or block comment at `i`, when one starts there.
        mutating func lexComment(_ rules: LanguageRules) -> Bool {
            let byte = code[i]
            for prefix in rules.lineComments where prefix.first == byte && matches(i, prefix) {
                if rules.commentNeedsWordStart && !isWordStart(i) { continue }
                let stop = lineEnd(from: i)
                emit(.comment, i, stop)
                i = stop
                return true
            }
            if let block = rules.blockComment, block.open.first == byte, matches(i, block.open) {
                let stop = blockCommentEnd(from: i, open: block.open, close: block.close, nested: rules.nestedBlockComments)
                emit(.comment, i, stop)
                i = stop
                return true
            }
            return false
        }

        /// A `"` string (or `"""` string) whose prefix starts at `from` and quote is at `quoteAt`.
        mutating func lexString(_ rules: LanguageRules, from: Int, quoteAt: Int) {
            let quote = code[quoteAt]
            let stop: Int
            if rules.tripleQuotes, at(quoteAt + 1) == quote, at(quoteAt + 2) == quote {
                stop = delimitedEnd(from: quoteAt + 3, close: [quote, quote, quote], escapes: true, multiline: true)
            } else {
                stop = delimitedEnd(from: quoteAt + 1, close: [quote], escapes: true, multiline: rules.multilineStrings)
            }
            if rules.stringKeys, at(skippingBlanks(from: stop)) == 0x3A {
                emit(.attr, from, stop)
            } else {
                emit(.string, from, stop)
            }
            i = max(stop, quoteAt + 1)
        }

        /// `'`: a string, a character literal, a raw shell string, a lifetime, or a plain byte.
        mutating func lexSingleQuote(_ rules: LanguageRules, from: Int, quoteAt: Int? = nil) {
            let quote = quoteAt ?? from
            switch rules.singleQuote {
            case .none:
                i += 1
            case .string:
                lexString(rules, from: from, quoteAt: quote)
            case .raw:
                let stop = delimitedEnd(from: quote + 1, close: [0x27], escapes: false, multiline: true)
                emit(.string, from, stop)
                i = stop
            case .character:
                // A character literal closes within one (possibly escaped) character.
                var k = quote + 1
                if at(k) == 0x5C {
                    k += 2
                    var budget = 10
                    while k < end, budget > 0, code[k] != 0x27, !Lexer.isLineEnd(code[k]) { k += 1; budget -= 1 }
                } else if k < end, !Lexer.isLineEnd(code[k]), code[k] != 0x27 {
                    k += 1
                    while k < end, code[k] & 0xC0 == 0x80 { k += 1 }
                }
                if at(k) == 0x27, k > quote + 1 {
                    emit(.string, from, k + 1)
                    i = k + 1
                } else if rules.bangMacros, quote == from, Lexer.isIdentifierStart(at(from + 1)) {
                    // A Rust lifetime or loop label.
                    let stop = identifierEnd(from: from + 1)
                    emit(.meta, from, stop)
                    i = stop
                } else {
                    i = quote + 1
                }
            }
        }

        mutating func lexNumber(_ rules: LanguageRules, from: Int) {
            let stop = numberEnd(from: from)
            if rules.numbersStandAlone {
                let next = at(stop)
                let standsAlone = isWordStart(from) && (stop >= end || next == 0x20 || next == 0x09 || Lexer.isLineEnd(next)
                    || next == 0x3B || next == 0x29 || next == 0x7C || next == 0x26 || next == 0x3E || next == 0x3C
                    || next == 0x5D || next == 0x7D)
                if !standsAlone {
                    // Part of a word such as `2x.txt`: skip the whole word as plain text.
                    i = max(identifierEnd(from: stop, dash: true), from + 1)
                    return
                }
            }
            emit(.number, from, stop)
            i = max(stop, from + 1)
        }

        mutating func lexIdentifier(_ rules: LanguageRules) {
            let from = i
            let stop = identifierEnd(from: from, dollar: rules.dollarInIdentifiers, dash: rules.dashInWords)
            let next = at(stop)
            // String prefixes: `r"…"`, `b'…'`, `f"…"`, Rust `r#"…"#`.
            if !rules.stringPrefixes.isEmpty || rules.rustRawStrings, stop - from <= 2 {
                var isPrefix = true
                var hasR = false
                for k in from..<stop {
                    let letter = code[k]
                    if letter == 0x72 || letter == 0x52 { hasR = true }
                    if !(rules.stringPrefixes.contains(letter) || (rules.rustRawStrings && letter == 0x72)) { isPrefix = false }
                }
                if isPrefix {
                    if rules.rustRawStrings, hasR, next == 0x23 || next == 0x22 {
                        var hashes = 0
                        var quote = stop
                        while at(quote) == 0x23 { hashes += 1; quote += 1 }
                        if at(quote) == 0x22 {
                            let close = delimitedEnd(from: quote + 1, close: [0x22], hashes: hashes, escapes: false, multiline: true)
                            emit(.string, from, close)
                            i = close
                            return
                        }
                    } else if next == 0x22 {
                        lexString(rules, from: from, quoteAt: stop)
                        return
                    } else if next == 0x27, rules.singleQuote == .string || rules.singleQuote == .character {
                        if rules.singleQuote == .string {
                            lexString(rules, from: from, quoteAt: stop)
                            return
                        }
                        lexSingleQuote(rules, from: from, quoteAt: stop)
                        return
                    }
                }
            }
            if let kind = rules.words.kind(of: code, from, stop) {
                emit(Token(kind), from, stop)
            } else if rules.capitalizedTypes, code[from] >= 0x41, code[from] <= 0x5A {
                emit(.type, from, stop)
            } else if rules.bangMacros, next == 0x21, at(stop + 1) == 0x28 || at(stop + 1) == 0x5B || at(stop + 1) == 0x7B {
                emit(.function, from, stop + 1)
                i = stop + 1
                return
            } else if rules.functionCalls, next == 0x28 {
                emit(.function, from, stop)
            }
            i = max(stop, from + 1)
        }

        /// `#` in Swift (directives, raw strings), Rust (attributes) and C (preprocessor lines).
        mutating func lexHash(_ rules: LanguageRules, firstOnLine: Bool) {
            let from = i
            switch rules.hash {
            case .none:
                i += 1
            case .preprocessor:
                guard firstOnLine else { i += 1; return }
                // The directive runs to the end of the line, and on past lines ending in `\`.
                var stop = lineEnd(from: from)
                while stop < end, stop > from, code[stop - 1] == 0x5C {
                    var next = stop + 1
                    if code[stop] == 0x0D, at(next) == 0x0A { next += 1 }
                    stop = lineEnd(from: next)
                }
                emit(.meta, from, stop)
                i = max(stop, from + 1)
            case .swiftDirective:
                var hashes = 0
                var quote = from
                while at(quote) == 0x23 { hashes += 1; quote += 1 }
                if at(quote) == 0x22 {
                    let stop: Int
                    if at(quote + 1) == 0x22, at(quote + 2) == 0x22 {
                        stop = delimitedEnd(from: quote + 3, close: [0x22, 0x22, 0x22], hashes: hashes, escapes: false, multiline: true)
                    } else {
                        stop = delimitedEnd(from: quote + 1, close: [0x22], hashes: hashes, escapes: false, multiline: false)
                    }
                    emit(.string, from, stop)
                    i = max(stop, from + 1)
                } else if Lexer.isIdentifierStart(at(from + 1)) {
                    let stop = identifierEnd(from: from + 1)
                    emit(.meta, from, stop)
                    i = stop
                } else {
                    // Skip the run of `#`s but its last, which may still start a directive:
                    // rescanning the run from every `#` would be quadratic.
                    i = max(quote - 1, from + 1)
                }
            case .rustAttribute:
                var open = from + 1
                if at(open) == 0x21 { open += 1 }
                guard at(open) == 0x5B else { i += 1; return }
                // The attribute ends at its matching `]` on the same line.
                var depth = 0
                var k = open
                while k < end, !Lexer.isLineEnd(code[k]) {
                    if code[k] == 0x5B { depth += 1 } else if code[k] == 0x5D {
                        depth -= 1
                        if depth == 0 { k += 1; break }
                    }
                    k += 1
                }
                emit(.meta, from, k)
                i = max(k, from + 1)
            }
        }

        /// `$`: a shell variable (`$name`, `${…}`, `$1`, `$@`) or a Ruby global.
        mutating func lexDollar() {
            let from = i
            let next = at(from + 1)
            if next == 0x7B { // ${…}
                var k = from + 2
                while k < end, code[k] != 0x7D, !Lexer.isLineEnd(code[k]) { k += 1 }
                if at(k) == 0x7D { k += 1 }
                emit(.variable, from, k)
                i = k
            } else if Lexer.isIdentifierStart(next) && next < 0x80 {
                let stop = identifierEnd(from: from + 1)
                emit(.variable, from, stop)
                i = stop
            } else if Lexer.isDigit(next) || next == 0x40 || next == 0x23 || next == 0x3F || next == 0x2A
                        || next == 0x21 || next == 0x24 || next == 0x2D {
                emit(.variable, from, from + 2)
                i = from + 2
            } else {
                i += 1
            }
        }
    }
}
