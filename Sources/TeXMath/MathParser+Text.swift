// Text inside maths: `\text{…}` and the other text commands, `\tag`, `\colorbox`.
//
// White space counts here: a run of spaces is one space, and a space at either end of a run is
// U+00A0 (a browser drops ordinary spaces at the ends of an `<mtext>`). `$…$` inside text is
// maths again. TeX's ligatures `--`, `---`, ` `` ` and `''` become their dashes and quotes.

/// A run of text being collected into one `<mtext>`.
import Localization

struct TextRun {
    var list = NodeList()
    /// Where the run's text starts in the pool; -1 when no run is open.
    var start: Int32 = -1
    var pendingSpace = false
}

extension MathParser {
    /// A text argument: a group (or one character) as `<mtext>` runs and maths.
    /// `enclosedIn` adds characters around it (the parentheses of `\tag`).
    @inline(never)
    mutating func parseTextArgument(_ owner: MathToken, set: UInt8, clear: UInt8,
                                    enclosedIn: (UInt32, UInt32)? = nil) throws(MathParseError) -> Int32 {
        let savedBits = textBits
        textBits = (textBits | set) & ~clear
        defer { textBits = savedBits }
        var run = TextRun()
        if let (open, _) = enclosedIn { appendText(open, to: &run, mapped: false) }
        switch token.kind {
        case .openBrace:
            let open = token.start
            let savedMode = textMode
            textMode = true
            advance()
            try parseTextBody(opened: open, &run)
            textMode = savedMode
            advance()
        case .character:
            appendText(token.scalar, to: &run, mapped: true)
            advance()
        default:
            throw missingArgument(owner)
        }
        if let (_, close) = enclosedIn { appendText(close, to: &run, mapped: false) }
        flush(&run)
        if run.list.isEmpty { return tree.token(.mtext, text: tree.store("")) }
        return tree.single(run.list)
    }

    /// The inside of a text group, up to (not past) its `}`.
    @inline(never)
    private mutating func parseTextBody(opened open: Int, _ run: inout TextRun) throws(MathParseError) {
        try enter()
        defer { leave() }
        while true {
            switch token.kind {
            case .end:
                throw error("math.error.missingCloseBrace", at: open)
            case .closeBrace:
                return
            case .openBrace:
                let inner = token.start
                let savedBits = textBits
                advance()
                try parseTextBody(opened: inner, &run)
                textBits = savedBits
                advance()
            case .space:
                if run.start < 0 { run.start = Int32(tree.bytes.count) }
                run.pendingSpace = true
                advance()
            case .tilde:
                appendText(0xA0, to: &run, mapped: false)
                advance()
            case .character:
                try textCharacter(&run)
            case .mathShift:
                try textMath(&run)
            case .command:
                try textCommand(&run)
            case .caret, .underscore, .alignment, .parameter:
                throw error("math.error.notAllowedInText", token.kind == .parameter ? "#" : describeToken())
            }
        }
    }

    /// A character of text, with TeX's dash and quote ligatures.
    private mutating func textCharacter(_ run: inout TextRun) throws(MathParseError) {
        let scalar = token.scalar
        guard scalar == 0x2D || scalar == 0x60 || scalar == 0x27 else {
            if scalar < 0x20 || scalar == 0x7F { throw error("math.error.unexpectedCharacter", .string(hex(scalar))) }
            appendText(scalar, to: &run, mapped: true)
            advance()
            return
        }
        let maximum = scalar == 0x2D ? 3 : 2
        var count = 1
        while count < maximum, lexer.byte(at: token.start + count) == UInt8(scalar) { count += 1 }
        let text: UInt32
        switch (scalar, count) {
        case (0x2D, 1): text = 0x2D
        case (0x2D, 2): text = 0x2013
        case (0x2D, _): text = 0x2014
        case (0x60, 1): text = 0x2018
        case (0x60, _): text = 0x201C
        case (_, 1): text = 0x2019
        default: text = 0x201D
        }
        appendText(text, to: &run, mapped: false)
        resume(at: token.start + count)
    }

    /// `$…$` inside text: maths again, in text style.
    @inline(never)
    private mutating func textMath(_ run: inout TextRun) throws(MathParseError) {
        flush(&run)
        let dollar = token.start
        let savedDisplay = displayStyle, savedFont = font
        textMode = false
        displayStyle = false
        font = .none
        advance()
        let (list, end) = try parseRow()
        displayStyle = savedDisplay
        font = savedFont
        guard end == .mathShift else { throw error("math.error.textMathUnclosed", at: dollar) }
        textMode = true
        advance()
        tree.append(tree.element(.mrow, list), to: &run.list)
    }

    /// A command inside text.
    @inline(never)
    private mutating func textCommand(_ run: inout TextRun) throws(MathParseError) {
        guard let command = currentCommand else { throw unknownCommand() }
        let owner = token
        advance()
        switch command {
        case .textSymbol(let scalar):
            appendText(scalar, to: &run, mapped: false)
        case .symbol(let symbolClass, let text):
            switch symbolClass {
            case .letter, .uprightLetter, .ordinary, .open, .close, .fence, .ordinaryOperator, .dots, .prime:
                for scalar in String(decoding: table.symbolText[Int(text.lowerBound)..<Int(text.upperBound)], as: UTF8.self).unicodeScalars {
                    appendText(scalar.value, to: &run, mapped: false)
                }
            default:
                throw error("math.error.onlyInMaths", describe(owner), at: owner.start)
            }
        case .textAccent(let mark):
            try textAccent(owner, mark: mark, &run)
        case .textSpace:
            appendText(0xA0, to: &run, mapped: false)
        case .space(let width):
            flush(&run)
            tree.append(space(width), to: &run.list)
        case .text(let set, let clear):
            guard token.kind == .openBrace else { throw missingArgument(owner) }
            let open = token.start
            let savedBits = textBits
            textBits = (textBits | set) & ~clear
            advance()
            try parseTextBody(opened: open, &run)
            textBits = savedBits
            advance()
        case .logo(let kind):
            for scalar in (kind == 0 ? "TeX" : kind == 1 ? "LaTeX" : "KaTeX").unicodeScalars {
                appendText(scalar.value, to: &run, mapped: false)
            }
        case .ignored:
            break
        default:
            throw error("math.error.notAllowedInText", describe(owner), at: owner.start)
        }
    }

    /// `\'e`, `\'{e}`: the letter and the combining accent.
    private mutating func textAccent(_ owner: MathToken, mark: UInt32, _ run: inout TextRun) throws(MathParseError) {
        var braced = false
        if token.kind == .openBrace {
            braced = true
            advance()
        }
        var base: UInt32?
        if token.kind == .character {
            base = token.scalar
            advance()
        } else if let command = currentCommand, case .textSymbol(let scalar) = command {
            base = scalar
            advance()
        }
        if braced {
            guard token.kind == .closeBrace else { throw error("math.error.takesOneLetter", describe(owner), at: owner.start) }
            advance()
        }
        guard let base else { throw missingArgument(owner) }
        appendText(base, to: &run, mapped: true)
        appendText(mark, to: &run, mapped: false)
    }

    /// Adds a character to the open run (opening one), in the text's font when `mapped`.
    private mutating func appendText(_ scalar: UInt32, to run: inout TextRun, mapped: Bool) {
        if run.start < 0 { run.start = Int32(tree.bytes.count) }
        if run.pendingSpace {
            tree.appendScalar(Int32(tree.bytes.count) == run.start ? 0xA0 : 0x20)
            run.pendingSpace = false
        }
        tree.appendScalar(mapped ? MathAlphabets.map(scalar, TextStyle.font(textBits)).scalar : scalar)
    }

    /// Ends the open run: one `<mtext>`.
    private mutating func flush(_ run: inout TextRun) {
        guard run.start >= 0 else { return }
        if run.pendingSpace { tree.appendScalar(0xA0) }
        let text = tree.token(.mtext, text: run.start..<Int32(tree.bytes.count))
        tree.append(text, to: &run.list)
        run.start = -1
        run.pendingSpace = false
    }
}
