// The HTML/XML, CSS and YAML tokenizers of `CodeHighlighter`.
//
// Invariants: as in `CodeHighlighter+Lexer.swift`: every loop advances, tokens are emitted in
// order, and unterminated constructs end at the end of their line or of the code.

extension CodeHighlighter.Lexer {
    typealias Lexer = CodeHighlighter.Lexer

    /// The index just after the first `needle` at or after `from`, or `end`.
    func indexAfter(_ needle: [UInt8], from: Int) -> Int {
        var k = from
        while k < end {
            if code[k] == needle[0], matches(k, needle) { return k + needle.count }
            k += 1
        }
        return end
    }

    // MARK: HTML and XML

    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)

    /// Tags, attributes, comments, declarations and character references; text stays plain.
    mutating func runMarkup() {
        while i < end {
            let byte = code[i]
            if byte == 0x3C { // <
                let next = at(i + 1)
                if matches(i, Lexer.commentOpen) {
                    let stop = indexAfter(Lexer.commentClose, from: i + 4)
                    emit(.comment, i, stop)
                    i = stop
                } else if matches(i, Lexer.cdataOpen) {
                    let stop = indexAfter(Lexer.cdataClose, from: i + 9)
                    emit(.string, i, stop)
                    i = stop
                } else if next == 0x21 || next == 0x3F { // <! and <?
                    let stop = indexAfter([0x3E], from: i + 2)
                    emit(.meta, i, stop)
                    i = stop
                } else if Lexer.isLetter(next) || (next == 0x2F && Lexer.isLetter(at(i + 2))) {
                    lexMarkupTag()
                } else {
                    i += 1
                }
            } else if byte == 0x26 { // &name; &#123;
                var k = i + 1
                if at(k) == 0x23 { k += 1 }
                let nameStart = k
                while k < end, k - nameStart < 32, Lexer.isLetter(code[k]) || Lexer.isDigit(code[k]) { k += 1 }
                if k > nameStart, at(k) == 0x3B {
                    emit(.literal, i, k + 1)
                    i = k + 1
                } else {
                    i += 1
                }
            } else {
                i += 1
            }
        }
    }

    /// The end of a tag or attribute name (letters, digits, `:`, `.`, `-`, `_`, non-ASCII).
    func markupNameEnd(from: Int) -> Int {
        var k = from
        while k < end {
            let byte = code[k]
            guard Lexer.isIdentifierByte(byte) || byte == 0x3A || byte == 0x2E || byte == 0x2D else { break }
            k += 1
        }
        return k
    }

    /// `<name attr="value" …>` or `</name>`, starting at `i` (on `<`).
    mutating func lexMarkupTag() {
        var k = i + 1
        if at(k) == 0x2F { k += 1 }
        let nameEnd = markupNameEnd(from: k)
        emit(.tag, k, nameEnd)
        k = nameEnd
        while k < end {
            let byte = code[k]
            if byte == 0x3E { k += 1; break }
            if byte == 0x2F, at(k + 1) == 0x3E { k += 2; break }
            // A `<` inside a tag means the tag was never closed: a new one starts here.
            if byte == 0x3C { break }
            if Lexer.isBlank(byte) || Lexer.isLineEnd(byte) || byte == 0x2F { k += 1; continue }
            if byte == 0x3D { // = value
                k = skippingBlanks(from: k + 1)
                let valueStart = k
                let quote = at(k)
                if quote == 0x22 || quote == 0x27 {
                    k = delimitedEnd(from: k + 1, close: [quote], escapes: false, multiline: true)
                } else {
                    while k < end, !Lexer.isBlank(code[k]), !Lexer.isLineEnd(code[k]), code[k] != 0x3E, code[k] != 0x3C { k += 1 }
                }
                emit(.string, valueStart, k)
                continue
            }
            if byte == 0x22 || byte == 0x27 {
                let stop = delimitedEnd(from: k + 1, close: [byte], escapes: false, multiline: true)
                emit(.string, k, stop)
                k = stop
                continue
            }
            let nameStart = k
            while k < end {
                let value = code[k]
                if Lexer.isBlank(value) || Lexer.isLineEnd(value) || value == 0x3D || value == 0x3E || value == 0x2F
                    || value == 0x3C || value == 0x22 || value == 0x27 { break }
                k += 1
            }
            emit(.attr, nameStart, k)
        }
        i = max(k, i + 1)
    }

    // MARK: CSS

    /// Where a CSS tokenizer is in the grammar.
    private enum CSSState {
        case selector, prelude, property, afterProperty, value
    }

    /// Selectors, at-rules, properties, values, numbers with units, colours, strings, comments.
    mutating func runCSS() {
        var depth = 0
        var state = CSSState.selector
        while i < end {
            let byte = code[i]
            if Lexer.isBlank(byte) || Lexer.isLineEnd(byte) { i += 1; continue }
            if byte == 0x2F, at(i + 1) == 0x2A {
                let stop = indexAfter([0x2A, 0x2F], from: i + 2)
                emit(.comment, i, stop)
                i = stop
                continue
            }
            let signed = byte == 0x2D || byte == 0x2E || byte == 0x2B
            if Lexer.isDigit(byte) || (signed && (Lexer.isDigit(at(i + 1)) || (at(i + 1) == 0x2E && Lexer.isDigit(at(i + 2))))) {
                lexCSSNumber(from: i)
                continue
            }
            let startsName = Lexer.isIdentifierStart(byte)
                || (byte == 0x2D && (Lexer.isIdentifierStart(at(i + 1)) || at(i + 1) == 0x2D))
            switch byte {
            case 0x22, 0x27:
                let stop = delimitedEnd(from: i + 1, close: [byte], escapes: true, multiline: false)
                emit(.string, i, stop)
                i = max(stop, i + 1)
            case 0x7B: // {
                depth += 1
                state = .property
                i += 1
            case 0x7D: // }
                depth = max(0, depth - 1)
                state = .selector
                i += 1
            case 0x3B: // ;
                state = depth > 0 ? .property : .selector
                i += 1
            case 0x40 where Lexer.isIdentifierStart(at(i + 1)): // @media
                let stop = cssNameEnd(from: i + 1)
                emit(.keyword, i, stop)
                state = .prelude
                i = stop
            case 0x21 where Lexer.isLetter(at(i + 1)): // !important
                let stop = cssNameEnd(from: i + 1)
                emit(.keyword, i, stop)
                i = stop
            case 0x3A: // :
                if state == .afterProperty {
                    state = .value
                    i += 1
                } else if state == .selector || state == .property {
                    var nameStart = i + 1
                    if at(nameStart) == 0x3A { nameStart += 1 }
                    if Lexer.isIdentifierStart(at(nameStart)) || at(nameStart) == 0x2D {
                        let stop = cssNameEnd(from: nameStart)
                        emit(.meta, i, stop)
                        i = stop
                    } else {
                        i += 1
                    }
                } else {
                    i += 1
                }
            case 0x23 where state == .value: // #fff
                var k = i + 1
                while k < end, Lexer.isLetter(code[k]) || Lexer.isDigit(code[k]) { k += 1 }
                emit(.number, i, k)
                i = max(k, i + 1)
            case 0x23, 0x2E: // #id .class
                if state == .selector || state == .property, Lexer.isIdentifierStart(at(i + 1)) || at(i + 1) == 0x2D {
                    let stop = cssNameEnd(from: i + 1)
                    emit(.type, i, stop)
                    i = stop
                } else {
                    i += 1
                }
            default:
                guard startsName else { i += 1; continue }
                let stop = cssNameEnd(from: i)
                switch state {
                case .selector:
                    emit(.tag, i, stop)
                case .property:
                    if at(skippingBlanks(from: stop)) == 0x3A {
                        emit(.attr, i, stop)
                        state = .afterProperty
                    } else {
                        emit(.tag, i, stop)
                        state = .selector
                    }
                case .value, .prelude, .afterProperty:
                    if at(stop) == 0x28 { emit(.function, i, stop) }
                }
                i = max(stop, i + 1)
            }
        }
    }

    /// The end of a CSS name: leading dashes, then letters, digits, `_`, `-` and non-ASCII bytes.
    func cssNameEnd(from: Int) -> Int {
        var k = from
        while at(k) == 0x2D { k += 1 }
        return identifierEnd(from: k, dash: true)
    }

    /// `12px`, `-1.5em`, `50%`.
    mutating func lexCSSNumber(from: Int) {
        var k = from
        if at(k) == 0x2D || at(k) == 0x2B { k += 1 }
        k = numberEnd(from: k)
        if at(k) == 0x25 { k += 1 }
        emit(.number, from, k)
        i = max(k, from + 1)
    }

    // MARK: YAML

    static let yamlWords = CodeHighlighter.KeywordTable(
        literals: "true false null yes no on off True False Null TRUE FALSE NULL Yes No On Off YES NO ~ .inf .nan .Inf .NaN")

    /// Line by line: document markers, sequence dashes, keys, then values.
    mutating func runYAML() {
        while i < end {
            let stop = lineEnd(from: i)
            lexYAMLLine(to: stop)
            i = stop
            if i < end {
                i += (code[i] == 0x0D && at(i + 1) == 0x0A) ? 2 : 1
            }
        }
    }

    mutating func lexYAMLLine(to stop: Int) {
        if (matches(i, [0x2D, 0x2D, 0x2D]) || matches(i, [0x2E, 0x2E, 0x2E])) && (i + 3 >= stop || Lexer.isBlank(at(i + 3))) {
            emit(.meta, i, i + 3)
            i += 3
            lexYAMLValues(to: stop)
            return
        }
        var k = skippingBlanks(from: i)
        while k < stop, code[k] == 0x2D, k + 1 >= stop || Lexer.isBlank(at(k + 1)) {
            k = skippingBlanks(from: k + 1)
        }
        i = min(k, stop)
        if let keyEnd = yamlKeyEnd(from: i, lineEnd: stop) {
            emit(.attr, i, keyEnd)
            i = keyEnd
        }
        lexYAMLValues(to: stop)
    }

    /// The end of a mapping key that starts at `from` (before its `:`), or nil.
    func yamlKeyEnd(from: Int, lineEnd stop: Int) -> Int? {
        guard from < stop else { return nil }
        let first = code[from]
        func isColonAt(_ index: Int) -> Bool {
            at(index) == 0x3A && (index + 1 >= stop || Lexer.isBlank(at(index + 1)))
        }
        if first == 0x22 || first == 0x27 {
            let close = min(delimitedEnd(from: from + 1, close: [first], escapes: first == 0x22, multiline: false), stop)
            return isColonAt(skippingBlanks(from: close)) ? close : nil
        }
        switch first {
        case 0x23, 0x5B, 0x7B, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x25, 0x40, 0x60, 0x3A: return nil
        default: break
        }
        var k = from
        while k < stop {
            let byte = code[k]
            if byte == 0x3A, isColonAt(k) {
                var keyEnd = k
                while keyEnd > from, Lexer.isBlank(code[keyEnd - 1]) { keyEnd -= 1 }
                return keyEnd > from ? keyEnd : nil
            }
            if byte == 0x23, k > from, Lexer.isBlank(code[k - 1]) { return nil }
            k += 1
        }
        return nil
    }

    /// Comments, quoted strings, anchors, aliases, tags, literals and numbers up to `stop`.
    mutating func lexYAMLValues(to stop: Int) {
        while i < stop {
            let byte = code[i]
            switch byte {
            case 0x20, 0x09, 0x5B, 0x5D, 0x7B, 0x7D, 0x2C, 0x3A, 0x3F, 0x7C, 0x3E:
                i += 1
            case 0x23 where i == start || Lexer.isBlank(at(i - 1)) || Lexer.isLineEnd(at(i - 1)):
                emit(.comment, i, stop)
                i = stop
            case 0x22, 0x27:
                let close = min(delimitedEnd(from: i + 1, close: [byte], escapes: byte == 0x22, multiline: false), stop)
                emit(.string, i, close)
                i = max(close, i + 1)
            default:
                let from = i
                var k = i
                while k < stop {
                    let value = code[k]
                    if Lexer.isBlank(value) || value == 0x2C || value == 0x5B || value == 0x5D || value == 0x7B || value == 0x7D { break }
                    k += 1
                }
                if (byte == 0x26 || byte == 0x2A) && k > from + 1 {
                    emit(.variable, from, k)
                } else if byte == 0x21 {
                    emit(.meta, from, k)
                } else if Lexer.yamlWords.kind(of: code, from, k) != nil {
                    emit(.literal, from, k)
                } else if Lexer.isDigit(byte) || ((byte == 0x2D || byte == 0x2E) && Lexer.isDigit(at(from + 1))),
                          numberEnd(from: from) == k || (byte == 0x2E && numberEnd(from: from + 1) == k) {
                    emit(.number, from, k)
                }
                i = max(k, from + 1)
            }
        }
    }
}
