// TeX to a `MathTree`, by recursive descent over `MathLexer`'s tokens.
//
// Invariants:
// - One token of look-ahead and no backtracking: every token is lexed once and consumed once;
//   raw reads (names, colours, dimensions, `\verb`) move the lexer forward past what they read.
// - Every path that recurses goes through `parseRow`, `parseArgument` or a text group, and each
//   of those counts one level of `depth`: past `TeXMath.maximumNestingDepth` the formula is an
//   error, never a stack overflow.
// - Errors are thrown (typed, carrying the byte offset) and end the parse; there is no recovery.
// - State that a group scopes (font, display style, text style) is saved on entry to a group and
//   restored on exit.

/// What a parse stopped at: a message and the byte offset in the formula.
import Localization

struct MathParseError: Error {
    var message: LocalizedText
    var offset: Int
}

/// Why `parseRow` stopped (the token is not consumed).
enum RowEnd: Equatable {
    case endOfInput, closeBrace, alignment, newline, end, right, middle, closeBracket, endGroup, mathShift
}

struct MathParser {
    let source: UnsafeBufferPointer<UInt8>
    var lexer: MathLexer
    var token: MathToken
    var tree = MathTree()
    let table = CommandTable.shared
    var depth = 0
    /// Display style (limits under and over), as TeX's D style versus T, S and SS.
    var displayStyle: Bool
    var font = MathFont.none
    /// In `\text{…}`: white space is kept, and the style bits of `TextStyle`.
    var textMode = false
    var textBits: UInt8 = 0
    /// The `\tag` of the formula, written at its end.
    var tag: Int32?

    init(_ source: UnsafeBufferPointer<UInt8>, display: Bool) {
        self.source = source
        lexer = MathLexer(source)
        token = MathToken(kind: .end, start: 0, nameEnd: 0, end: 0, scalar: 0)
        displayStyle = display
    }

    // MARK: Tokens

    /// Moves to the next token; white space is skipped in maths.
    mutating func advance() {
        token = lexer.next()
        while token.kind == .space, !textMode { token = lexer.next() }
    }

    /// Continues lexing at `offset` (after a raw read).
    mutating func resume(at offset: Int) {
        lexer.reposition(to: offset)
        advance()
    }

    /// The error of catalog key `key` (`math.error.*`) with `arguments`, at `offset` (else at
    /// the current token).
    func error(_ key: String, _ arguments: CatalogArgument..., at offset: Int? = nil) -> MathParseError {
        MathParseError(message: LocalizedText(key, arguments: arguments), offset: offset ?? token.start)
    }

    /// The command name of the current token, for messages.
    var commandName: String {
        shown(token.nameRange)
    }

    /// The current token's command, or nil when it is not a command or not known.
    var currentCommand: MathCommand? {
        guard token.kind == .command else { return nil }
        return table.command(named: UnsafeBufferPointer(rebasing: source[token.nameRange]))
    }

    func isCharacter(_ ascii: UInt8) -> Bool {
        token.kind == .character && token.scalar == UInt32(ascii)
    }

    /// Counts one level of nesting; throws past the bound.
    mutating func enter() throws(MathParseError) {
        depth += 1
        if depth > TeXMath.maximumNestingDepth {
            throw error("math.error.nestedTooDeep", .integer(TeXMath.maximumNestingDepth))
        }
    }

    mutating func leave() { depth -= 1 }

    // MARK: The formula

    /// Parses the whole formula; returns its nodes (one row, or a table of rows split by `\\`).
    mutating func parseFormula() throws(MathParseError) -> NodeList {
        advance()
        var firstLine = NodeList()
        var rows = NodeList()
        var lineCount = 0
        while true {
            let (list, end) = try parseRow()
            switch end {
            case .newline, .endOfInput:
                // A final `\\` adds no line.
                if end == .newline || lineCount == 0 || !list.isEmpty {
                    lineCount += 1
                    if lineCount == 1 {
                        firstLine = list
                    } else {
                        if lineCount == 2 { tree.append(tableRow(firstLine), to: &rows) }
                        tree.append(tableRow(list), to: &rows)
                    }
                }
                if end == .newline {
                    advance()
                    try skipRowSpacing()
                    continue
                }
                var result = firstLine
                if lineCount > 1 {
                    result = NodeList()
                    let attributes = displayStyle ? tree.store(" displaystyle=\"true\"") : nil
                    tree.append(tree.element(.mtable, rows, attributes: attributes), to: &result)
                }
                if let tag { appendTag(tag, to: &result) }
                return result
            case .closeBrace: throw error("math.error.extraCloseBrace")
            case .alignment: throw error("math.error.misplacedAlignment")
            case .end: throw error("math.error.without", "\\end", "\\begin")
            case .right: throw error("math.error.without", "\\right", "\\left")
            case .middle: throw error("math.error.without", "\\middle", "\\left")
            case .endGroup: throw error("math.error.without", "\\endgroup", "\\begingroup")
            case .mathShift: throw error("math.error.unexpected", "$")
            case .closeBracket: throw error("math.error.unexpected", "]")
            }
        }
    }

    /// One row of one cell, for the lines of a formula split by `\\`.
    private mutating func tableRow(_ cell: NodeList) -> Int32 {
        tree.element(.mtr, tree.element(.mtd, cell))
    }

    /// The tag at the end of a display formula: a gap, then `(tag)`.
    private mutating func appendTag(_ tag: Int32, to list: inout NodeList) {
        let gap = tree.element(.mspace, NodeList(), attributes: tree.store(" width=\"2em\""))
        tree.append(gap, to: &list)
        tree.append(tag, to: &list)
    }

    // MARK: Rows

    /// Parses atoms until a token that ends a row; `previous` is the class of the atom before the
    /// row (for the rule that makes a binary operator unary). Stops at `]` when asked.
    @inline(never)
    mutating func parseRow(stopAtBracket: Bool = false, after previous: AtomClass? = nil,
                           afterInfix: Bool = false) throws(MathParseError) -> (NodeList, RowEnd) {
        try enter()
        defer { leave() }
        var list = NodeList()
        var last = previous
        while true {
            switch token.kind {
            case .end: return (list, .endOfInput)
            case .closeBrace: return (list, .closeBrace)
            case .alignment: return (list, .alignment)
            case .mathShift: return (list, .mathShift)
            case .character where stopAtBracket && token.scalar == 0x5D:
                return (list, .closeBracket)
            case .command:
                guard let command = currentCommand else { throw unknownCommand() }
                switch command {
                case .newline: return (list, .newline)
                case .end: return (list, .end)
                case .right: return (list, .right)
                case .middle: return (list, .middle)
                case .endGroup: return (list, .endGroup)
                case .infix(let kind):
                    if afterInfix { throw error("math.error.ambiguousInfix") }
                    let fraction = try parseInfixFraction(kind, numerator: list, stopAtBracket: stopAtBracket)
                    var result = NodeList()
                    tree.append(fraction.node, to: &result)
                    return (result, fraction.end)
                case .fontSwitch(let switchedFont):
                    font = switchedFont
                    advance()
                    continue
                case .color, .style, .size:
                    let (node, end) = try parseSwitch(command, stopAtBracket: stopAtBracket)
                    append(node, to: &list, last: &last)
                    return (list, end)
                default:
                    break
                }
            default:
                break
            }
            if let atom = try parseAtomWithScripts() {
                append(atom, to: &list, last: &last)
            }
        }
    }

    /// Adds an atom to a row, applying TeX's spacing rules that MathML does not know:
    /// a binary operator where it cannot be binary is a prefix operator, and a named function is
    /// followed by a thin space before an ordinary atom. Letters of one font join one `<mi>`.
    @inline(never)
    mutating func append(_ atom: Int32, to list: inout NodeList, last: inout AtomClass?) {
        var node = tree[atom]
        if node.atom == .bin {
            switch last {
            case nil, .op, .bin, .rel, .open, .punct:
                node.atom = .ord
                // The first child of a row is a prefix operator anyway.
                if last != nil, node.tag == .mo { node.flags |= MathNode.prefixForm }
                tree[atom] = node
            default:
                break
            }
        }
        if list.tail >= 0 {
            let previous = tree[list.tail]
            if node.flags & MathNode.letterRun != 0, previous.flags & MathNode.letterRun != 0,
               previous.tag == .mi, node.tag == .mi, previous.flags >> MathNode.fontShift == node.flags >> MathNode.fontShift,
               previous.textEnd == node.textStart {
                tree.nodes[Int(list.tail)].textEnd = node.textEnd
                last = node.atom
                return
            }
            if previous.flags & MathNode.function != 0, node.atom == .ord || node.atom == .inner || node.atom == .op {
                let application = tree.token(.mo, text: tree.store(scalar: 0x2061),
                                             attributes: tree.store(" lspace=\"0\" rspace=\"0.1667em\""))
                tree.append(application, to: &list)
            }
        }
        tree.append(atom, to: &list)
        last = node.atom
    }

    // MARK: Atoms and scripts

    /// One atom and its scripts; nil for commands that make nothing (`\relax`, `\tag`).
    @inline(never)
    mutating func parseAtomWithScripts() throws(MathParseError) -> Int32? {
        let baseDisplayStyle = displayStyle
        var base: Int32?
        if !isScriptToken {
            base = try parseAtom()
            if base == nil, !isScriptToken { return nil }
        }
        guard isScriptToken || isLimitsToken else { return base }
        return try parseScripts(of: base ?? tree.add(MathNode(tag: .mrow)), displayStyle: baseDisplayStyle)
    }

    /// The scripts, primes and `\limits` after `base`: the scripted node. Small locals only: this
    /// frame is on the recursion path of nested scripts.
    @inline(never)
    private mutating func parseScripts(of base: Int32, displayStyle baseDisplayStyle: Bool) throws(MathParseError) -> Int32 {
        var scripts = Scripts()
        while true {
            if token.kind == .character, token.scalar == 0x27 {
                if scripts.sup >= 0 { throw error("math.error.doubleSuperscript") }
                try parsePrimes(&scripts)
            } else if token.kind == .caret || token.kind == .underscore {
                let isSup = token.kind == .caret
                if (isSup ? scripts.sup : scripts.sub) >= 0 { throw error(isSup ? "math.error.doubleSuperscript" : "math.error.doubleSubscript") }
                let owner = token
                advance()
                let script = try parseScript(after: owner)
                if isSup { scripts.sup = script } else { scripts.sub = script }
            } else if isLimitsToken {
                try setLimits(of: base)
            } else {
                break
            }
        }
        return attach(scripts, to: base, displayStyle: baseDisplayStyle)
    }

    /// The scripts of one atom while they are read (-1: none).
    struct Scripts {
        var sub: Int32 = -1
        var sup: Int32 = -1
        var primes = NodeList()
    }

    @inline(never)
    private mutating func parsePrimes(_ scripts: inout Scripts) throws(MathParseError) {
        var count = 0
        while token.kind == .character, token.scalar == 0x27 {
            count += 1
            advance()
        }
        tree.append(primeNode(count: count), to: &scripts.primes)
    }

    /// `\limits`, `\nolimits` after an operator.
    @inline(never)
    private mutating func setLimits(of base: Int32) throws(MathParseError) {
        guard tree[base].atom == .op else { throw error("math.error.mustFollowOperator", .string("\\" + commandName)) }
        if case .limits = currentCommand {
            tree.nodes[Int(base)].limits = .always
            if tree[base].tag == .mo { tree.nodes[Int(base)].flags |= MathNode.fixedLimits }
        } else {
            tree.nodes[Int(base)].limits = .beside
            tree.nodes[Int(base)].flags &= ~MathNode.fixedLimits
        }
        advance()
    }

    /// The scripted element: limits under and over an operator that takes them here, else beside.
    @inline(never)
    private mutating func attach(_ scripts: Scripts, to base: Int32, displayStyle baseDisplayStyle: Bool) -> Int32 {
        var sup = scripts.sup
        if !scripts.primes.isEmpty {
            var primes = scripts.primes
            if sup >= 0 { tree.append(sup, to: &primes) }
            sup = tree.single(primes)
        }
        let baseNode = tree[base]
        let underOver = baseNode.limits == .always || (baseNode.limits == .display && baseDisplayStyle)
        let scripted: Int32
        switch (scripts.sub >= 0, sup >= 0) {
        case (false, false): return base
        case (true, false): scripted = tree.element(underOver ? .munder : .msub, base, scripts.sub)
        case (false, true): scripted = tree.element(underOver ? .mover : .msup, base, sup)
        case (true, true): scripted = tree.element(underOver ? .munderover : .msubsup, base, scripts.sub, sup)
        }
        tree.nodes[Int(scripted)].atom = baseNode.atom
        tree.nodes[Int(scripted)].flags = baseNode.flags & MathNode.function
        return scripted
    }

    private var isScriptToken: Bool {
        token.kind == .caret || token.kind == .underscore || (token.kind == .character && token.scalar == 0x27)
    }

    private var isLimitsToken: Bool {
        guard let command = currentCommand else { return false }
        switch command {
        case .limits, .noLimits: return true
        default: return false
        }
    }

    /// `′`, `″`, `‴`, `⁗` for one to four primes; more are repeated.
    private mutating func primeNode(count: Int) -> Int32 {
        let start = Int32(tree.bytes.count)
        switch count {
        case 1: tree.appendScalar(0x2032)
        case 2: tree.appendScalar(0x2033)
        case 3: tree.appendScalar(0x2034)
        case 4: tree.appendScalar(0x2057)
        default: for _ in 0..<count { tree.appendScalar(0x2032) }
        }
        return tree.token(.mo, text: start..<Int32(tree.bytes.count))
    }

    /// A sub- or superscript: a group or one atom, in a script style.
    private mutating func parseScript(after owner: MathToken) throws(MathParseError) -> Int32 {
        let saved = displayStyle
        displayStyle = false
        defer { displayStyle = saved }
        return tree.single(try parseArgument(of: owner))
    }

    /// One atom (without its scripts); nil for commands that make nothing.
    @inline(never)
    mutating func parseAtom() throws(MathParseError) -> Int32? {
        switch token.kind {
        case .openBrace:
            let list = try parseGroup()
            if list.count == 1 {
                // A group is an ordinary atom: `{-}` is not a binary operator, `{\sum}` takes no limits.
                tree.nodes[Int(list.head)].atom = .ord
                tree.nodes[Int(list.head)].limits = .beside
                tree.nodes[Int(list.head)].flags &= ~(MathNode.letterRun | MathNode.function)
                return list.head
            }
            return tree.element(.mrow, list)
        case .character:
            return try parseCharacter()
        case .command:
            return try parseCommand()
        case .tilde:
            advance()
            return nonBreakingSpace()
        case .parameter:
            throw error("math.error.macroParameter")
        case .mathShift:
            throw error("math.error.unexpected", "$")
        case .caret, .underscore, .alignment, .closeBrace, .end, .space:
            throw error("math.error.unexpected", describeToken())
        }
    }

    /// The error for the current command, which the table does not have.
    func unknownCommand() -> MathParseError {
        token.nameEnd == token.start + 1 ? error("math.error.backslashAtEnd") : error("math.error.unknownCommand", .string("\\" + commandName))
    }

    /// How a message names the command (or `^`, `_`) that `owner` is.
    func describe(_ owner: MathToken) -> CatalogArgument {
        switch owner.kind {
        case .caret: return "^"
        case .underscore: return "_"
        case .command:
            return .string("\\" + shown(owner.nameRange))
        default:
            return .message("math.token.character")
        }
    }

    func missingArgument(_ owner: MathToken) -> MathParseError {
        switch owner.kind {
        case .caret: return error("math.error.missingSuperscript")
        case .underscore: return error("math.error.missingSubscript")
        default: return error("math.error.missingArgument", describe(owner))
        }
    }

    /// How a message names the current token.
    func describeToken() -> CatalogArgument {
        switch token.kind {
        case .end: .message("math.token.endOfFormula")
        case .closeBrace: "}"
        case .openBrace: "{"
        case .caret: "^"
        case .underscore: "_"
        case .alignment: "&"
        case .command: .string("\\" + commandName)
        default: .message("math.token.character")
        }
    }

    /// `{…}`: the row inside braces, with the group's state restored after it.
    @inline(never)
    mutating func parseGroup() throws(MathParseError) -> NodeList {
        let open = token.start
        let savedFont = font, savedDisplay = displayStyle
        advance()
        let (list, end) = try parseRow()
        font = savedFont
        displayStyle = savedDisplay
        guard end == .closeBrace else { throw unclosed(end, opened: open) }
        advance()
        return list
    }

    /// The error for a group that ended with `end` instead of `}`.
    func unclosed(_ end: RowEnd, opened: Int) -> MathParseError {
        switch end {
        case .endOfInput: return error("math.error.missingCloseBrace", at: opened)
        case .alignment: return error("math.error.misplacedInsideBraces", "&")
        case .newline: return error("math.error.misplacedInsideBraces", "\\\\")
        case .end: return error("math.error.insideBracesMissingClose", "\\end", at: opened)
        case .right: return error("math.error.rightInsideBraces")
        case .middle: return error("math.error.without", "\\middle", "\\left")
        case .endGroup: return error("math.error.insideBracesMissingClose", "\\endgroup", at: opened)
        case .mathShift: return error("math.error.unexpected", "$")
        case .closeBracket: return error("math.error.unexpected", "]")
        case .closeBrace: return error("math.error.unexpected", "}")
        }
    }

    /// The argument of a command: a group, or a single atom (`\frac12`).
    @inline(never)
    mutating func parseArgument(of owner: MathToken) throws(MathParseError) -> NodeList {
        switch token.kind {
        case .openBrace:
            return try parseGroup()
        case .end, .closeBrace, .alignment, .caret, .underscore, .mathShift:
            throw missingArgument(owner)
        case .command:
            if let command = currentCommand {
                switch command {
                case .newline, .end, .right, .middle, .endGroup, .infix, .limits, .noLimits:
                    throw missingArgument(owner)
                default: break
                }
            }
        default:
            break
        }
        try enter()
        defer { leave() }
        var list = NodeList()
        if token.kind == .character, isDigit(UInt8(truncatingIfNeeded: token.scalar)), token.scalar < 0x80 {
            tree.append(singleDigit(), to: &list)
            return list
        }
        guard let atom = try parseAtom() else { throw missingArgument(owner) }
        tree.append(atom, to: &list)
        return list
    }

    // MARK: Characters

    /// One digit, as TeX reads the arguments of `\frac12`.
    @inline(never)
    private mutating func singleDigit() -> Int32 {
        let digit = tree.token(.mn, text: tree.store(scalar: MathAlphabets.map(token.scalar, font).scalar))
        advance()
        return digit
    }

    /// A character in maths: a number, a letter, an operator.
    @inline(never)
    mutating func parseCharacter() throws(MathParseError) -> Int32 {
        let scalar = token.scalar
        if (0x30...0x39).contains(scalar) || (scalar == 0x2E && isDigit(lexer.byte(at: token.end))) {
            return parseNumber()
        }
        if scalar < 0x80 {
            if MathLexer.isLetter(UInt8(scalar)) {
                advance()
                return letter(scalar, symbolClass: .letter)
            }
            return try asciiSymbol(UInt8(scalar))
        }
        advance()
        if let symbolClass = table.classOfScalar[scalar] {
            return symbol(symbolClass, text: tree.store(scalar: scalar))
        }
        return letter(scalar, symbolClass: .ordinary)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Digits, with a decimal point between digits: one `<mn>`.
    private mutating func parseNumber() -> Int32 {
        let start = Int32(tree.bytes.count)
        while token.kind == .character {
            let scalar = token.scalar
            let isPoint = scalar == 0x2E && isDigit(lexer.byte(at: token.end)) && token.end == lexer.position
            guard (0x30...0x39).contains(scalar) || isPoint else { break }
            tree.appendScalar(MathAlphabets.map(scalar, font).scalar)
            advance()
        }
        return tree.token(.mn, text: start..<Int32(tree.bytes.count))
    }

    /// A letter in the current font.
    mutating func letter(_ scalar: UInt32, symbolClass: SymbolClass) -> Int32 {
        let mapped = MathAlphabets.map(scalar, font)
        var flags: UInt16 = 0
        if mapped.upright || (symbolClass == .uprightLetter && mapped.scalar == scalar) { flags |= MathNode.upright }
        if font != .none { flags |= MathNode.letterRun | UInt16(font.rawValue) << MathNode.fontShift }
        return tree.token(.mi, text: tree.store(scalar: mapped.scalar), flags: flags)
    }

    /// ASCII characters other than letters and digits.
    private mutating func asciiSymbol(_ byte: UInt8) throws(MathParseError) -> Int32 {
        let symbolClass: SymbolClass
        var scalar = UInt32(byte)
        switch byte {
        case UInt8(ascii: "+"): symbolClass = .binary
        case UInt8(ascii: "-"): symbolClass = .binary; scalar = 0x2212
        case UInt8(ascii: "*"): symbolClass = .binary; scalar = 0x2217
        case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ":"): symbolClass = .relation
        case UInt8(ascii: ","), UInt8(ascii: ";"): symbolClass = .punctuation
        case UInt8(ascii: "!"), UInt8(ascii: "?"): symbolClass = .dots  // closing, with the dictionary's spacing
        case UInt8(ascii: "("), UInt8(ascii: "["): symbolClass = .open
        case UInt8(ascii: ")"), UInt8(ascii: "]"): symbolClass = .close
        case UInt8(ascii: "|"): symbolClass = .fence
        case UInt8(ascii: "/"), UInt8(ascii: "."): symbolClass = .ordinaryOperator
        case UInt8(ascii: "@"), UInt8(ascii: "\""), UInt8(ascii: "`"): symbolClass = .ordinary
        default:
            throw error("math.error.unexpectedCharacter", .string(hex(UInt32(byte))))
        }
        advance()
        let node = symbol(symbolClass, text: tree.store(scalar: scalar))
        if byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") { tree.nodes[Int(node)].atom = .close }
        return node
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The element of a symbol of class `symbolClass` whose text is at `text` in the pool.
    @inline(never)
    mutating func symbol(_ symbolClass: SymbolClass, text: Range<Int32>) -> Int32 {
        switch symbolClass {
        case .letter, .uprightLetter:
            if font != .none || symbolClass == .uprightLetter,
               let scalar = singleScalar(text) {
                tree.bytes.removeSubrange(Int(text.lowerBound)...)
                return letter(scalar, symbolClass: symbolClass)
            }
            return tree.token(.mi, text: text)
        case .ordinary:
            return tree.token(.mi, text: text)
        case .ordinaryOperator, .fence:
            return tree.token(.mo, text: text, attributes: tree.store(" stretchy=\"false\" lspace=\"0\" rspace=\"0\""))
        case .open, .close, .verticalArrow:
            return tree.token(.mo, text: text, atom: symbolClass.atom, attributes: tree.store(" stretchy=\"false\""))
        case .binary, .relation, .punctuation, .dots, .prime:
            return tree.token(.mo, text: text, atom: symbolClass.atom)
        case .largeOperator, .integral:
            var node = MathNode(tag: .mo, atom: .op, textStart: text.lowerBound, textEnd: text.upperBound)
            node.limits = symbolClass == .largeOperator ? .display : .beside
            return tree.add(node)
        case .function, .limitFunction:
            var node = MathNode(tag: .mi, atom: .op, textStart: text.lowerBound, textEnd: text.upperBound)
            node.limits = symbolClass == .limitFunction ? .display : .beside
            node.flags = MathNode.function | (singleScalar(text) != nil ? MathNode.upright : 0)
            return tree.add(node)
        }
    }

    /// The scalar of a pool range that holds exactly one.
    func singleScalar(_ text: Range<Int32>) -> UInt32? {
        let bytes = tree.bytes[Int(text.lowerBound)..<Int(text.upperBound)]
        guard let first = bytes.first else { return nil }
        let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
        guard length == bytes.count else { return nil }
        var value = length == 1 ? UInt32(first) : UInt32(first) & (0xFF >> (length + 1))
        for byte in bytes.dropFirst() { value = (value << 6) | UInt32(byte & 0x3F) }
        return value
    }

    /// `<mtext>&#xA0;</mtext>`: `~` and `\ `.
    @inline(never)
    mutating func nonBreakingSpace() -> Int32 {
        tree.token(.mtext, text: tree.store(scalar: 0xA0))
    }
}
