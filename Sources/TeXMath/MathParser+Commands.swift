// The commands with arguments: fractions, roots, accents, fonts, delimiters, boxes, spaces.

import Localization

extension MathParser {
    /// The atom a command makes; nil for commands that make nothing.
    ///
    /// A dispatcher only: every construct has a function of its own, so that the frame on the
    /// recursion path stays small (nesting depth times frame size is the stack a formula needs).
    @inline(never)
    mutating func parseCommand() throws(MathParseError) -> Int32? {
        guard let command = currentCommand else { throw unknownCommand() }
        let owner = token
        advance()
        switch command {
        case .symbol(let symbolClass, let text): return symbol(symbolClass, text: storeSymbolText(text))
        case .fraction(let style): return try parseFraction(owner, style: style, delimiters: nil)
        case .binomial(let style): return try parseFraction(owner, style: style, delimiters: (0x28, 0x29))
        case .genfrac: return try parseGeneralizedFraction(owner)
        case .sqrt: return try parseRoot(owner)
        case .accent(let mark, let stretchy, let under): return try parseAccent(owner, mark: mark, stretchy: stretchy, under: under)
        case .brace(let mark, let under): return try parseBrace(owner, mark: mark, under: under)
        case .font(let newFont): return try parseInFont(newFont, owner)
        case .poorMansBold: return try parseInFont(.boldSymbol, owner)
        case .fontSwitch(let newFont):
            // In a row `parseRow` handles it; here (an argument) it changes the rest of the group.
            font = newFont
            return nil
        case .text(let set, let clear): return try parseTextArgument(owner, set: set, clear: clear)
        case .operatorName(let limits): return try parseOperatorName(owner, limits: limits)
        case .space(let width): return space(width)
        case .textSpace: return nonBreakingSpace()
        case .skip: return try parseSkip(owner)
        case .left: return try parseLeftRight(owner)
        case .big(let size, let form): return try parseBig(owner, size: size, form: form)
        case .begin: return try parseEnvironment(owner)
        case .textColor, .colorBox, .framedColorBox: return try parseColored(owner, command)
        case .phantom(let kind): return try parsePhantom(owner, kind: kind)
        case .smash: return try parseSmash(owner)
        case .rlap(let text): return try parseRightOverlap(owner, text: text)
        case .raisebox: return try parseRaisebox(owner)
        case .overset(let under, let relation): return try parseOverset(owner, under: under, relation: relation)
        case .not: return try parseNegation(owner)
        case .substack: return try parseSubstack(owner)
        case .boxed: return try parseBoxed(owner, text: false)
        case .framedBox: return try parseBoxed(owner, text: true)
        case .cancel(let kind): return try parseCancel(owner, kind: kind)
        case .character: return try parseCharacterCode(owner)
        case .tag: return try parseTag(owner)
        case .modulo(let kind): return try parseModulo(owner, kind: kind)
        case .extensibleArrow(let arrow): return try parseExtensibleArrow(owner, arrow: arrow)
        case .mathClass(let atom): return try parseMathClass(owner, atom: atom)
        case .logo(let kind): return logo(kind)
        case .braket(let kind): return try parseBraket(owner, kind: kind)
        case .rule: return try parseRule(owner)
        case .beginGroup: return try parseBeginGroup(owner)
        case .verb: return try parseVerbatim(owner)
        case .ignored: return nil
        case .infix, .right, .middle, .end, .newline, .endGroup, .color, .style, .size, .limits, .noLimits,
             .horizontalLine, .textSymbol, .textAccent:
            throw misplaced(owner, command)
        }
    }

    /// The error for a command where it cannot be.
    @inline(never)
    private func misplaced(_ owner: MathToken, _ command: MathCommand) -> MathParseError {
        let name = describe(owner)
        switch command {
        case .infix: return error("math.error.needsBraces", name, at: owner.start)
        case .color, .style, .size: return error("math.error.mustBeInsideBraces", name, at: owner.start)
        case .limits, .noLimits: return error("math.error.mustFollowOperator", name, at: owner.start)
        case .horizontalLine: return error("math.error.onlyAtRowStart", name, at: owner.start)
        case .textSymbol, .textAccent: return error("math.error.onlyInText", name, at: owner.start)
        default: return error("math.error.unexpected", name, at: owner.start)
        }
    }

    @inline(never)
    private mutating func parseAccent(_ owner: MathToken, mark: UInt32, stretchy: Bool, under: Bool) throws(MathParseError) -> Int32 {
        let base = tree.single(try parseArgument(of: owner))
        let markNode = tree.token(.mo, text: tree.store(scalar: mark),
                                  attributes: tree.store(stretchy ? " stretchy=\"true\"" : " stretchy=\"false\""))
        return under
            ? tree.element(.munder, base, markNode, attributes: tree.store(" accentunder=\"true\""))
            : tree.element(.mover, base, markNode, attributes: tree.store(" accent=\"true\""))
    }

    @inline(never)
    private mutating func parseBrace(_ owner: MathToken, mark: UInt32, under: Bool) throws(MathParseError) -> Int32 {
        let base = tree.single(try parseArgument(of: owner))
        let markNode = tree.token(.mo, text: tree.store(scalar: mark), attributes: tree.store(" stretchy=\"true\""))
        let node = tree.element(under ? .munder : .mover, base, markNode)
        tree.nodes[Int(node)].atom = .op
        tree.nodes[Int(node)].limits = .always
        return node
    }

    @inline(never)
    private mutating func parseSkip(_ owner: MathToken) throws(MathParseError) -> Int32 {
        if isCharacter(UInt8(ascii: "*")) { advance() }
        return space(try readDimension(of: owner, braced: false))
    }

    @inline(never)
    private mutating func parseBig(_ owner: MathToken, size: UInt8, form: UInt8) throws(MathParseError) -> Int32? {
        guard let text = try readDelimiter(after: owner) else { return nil }
        let forms: [DelimiterForm] = [.ordinary, .prefix, .postfix, .relation]
        return delimiter(text, form: forms[Int(form)], size: Int(size))
    }

    @inline(never)
    private mutating func parseColored(_ owner: MathToken, _ command: MathCommand) throws(MathParseError) -> Int32 {
        switch command {
        case .textColor:
            let color = try readColor(of: owner)
            let list = try parseArgument(of: owner)
            return tree.element(.mstyle, list, attributes: tree.store(" mathcolor=\"\(color)\""))
        case .colorBox:
            let color = try readColor(of: owner)
            let content = try parseTextArgument(owner, set: 0, clear: 0)
            return tree.element(.mstyle, content, attributes: tree.store(" mathbackground=\"\(color)\""))
        default:
            let frame = try readColor(of: owner)
            let background = try readColor(of: owner)
            let content = try parseTextArgument(owner, set: 0, clear: 0)
            return tree.element(.mstyle, content, attributes: tree.store(
                " mathbackground=\"\(background)\" style=\"border:0.0667em solid \(frame)\""))  // l10n-exempt: MathML attributes and CSS
        }
    }

    @inline(never)
    private mutating func parsePhantom(_ owner: MathToken, kind: UInt8) throws(MathParseError) -> Int32 {
        let phantom = tree.element(.mphantom, try parseArgument(of: owner))
        switch kind {
        case 1: return tree.element(.mpadded, phantom, attributes: tree.store(" height=\"0\" depth=\"0\""))
        case 2: return tree.element(.mpadded, phantom, attributes: tree.store(" width=\"0\""))
        default: return phantom
        }
    }

    @inline(never)
    private mutating func parseSmash(_ owner: MathToken) throws(MathParseError) -> Int32 {
        var attributes: StaticString = " height=\"0\" depth=\"0\""
        if isCharacter(UInt8(ascii: "[")) {
            let range = try readRawBracket(of: owner)
            switch string(range) {
            case "t": attributes = " height=\"0\""
            case "b": attributes = " depth=\"0\""
            case "tb", "bt", "": break
            default: throw error("math.error.smashPosition", at: range.lowerBound)
            }
        }
        return tree.element(.mpadded, try parseArgument(of: owner), attributes: tree.store(attributes))
    }

    @inline(never)
    private mutating func parseRightOverlap(_ owner: MathToken, text: Bool) throws(MathParseError) -> Int32 {
        let content = text ? try parseTextArgument(owner, set: 0, clear: 0) : tree.single(try parseArgument(of: owner))
        return tree.element(.mpadded, content, attributes: tree.store(" width=\"0\""))
    }

    @inline(never)
    private mutating func parseRaisebox(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let raise = try readDimension(of: owner, braced: true)
        let content = try parseTextArgument(owner, set: 0, clear: 0)
        return tree.element(.mpadded, content, attributes: tree.store(" voffset=\"\(Self.em(raise))\""))
    }

    @inline(never)
    private mutating func parseOverset(_ owner: MathToken, under: Bool, relation: Bool) throws(MathParseError) -> Int32 {
        let saved = displayStyle
        displayStyle = false
        let script = tree.single(try parseArgument(of: owner))
        displayStyle = saved
        let base = tree.single(try parseArgument(of: owner))
        let node = tree.element(under ? .munder : .mover, base, script)
        tree.nodes[Int(node)].atom = relation ? .rel : tree[base].atom
        return node
    }

    @inline(never)
    private mutating func parseBoxed(_ owner: MathToken, text: Bool) throws(MathParseError) -> Int32 {
        let content = text ? singleList(try parseTextArgument(owner, set: 0, clear: 0)) : try parseArgument(of: owner)
        return tree.element(.mrow, content, attributes: tree.store(" style=\"border:0.0667em solid;padding:0.2em 0.3em\""))  // l10n-exempt: MathML attributes and CSS
    }

    /// `\cancel{…}` and the rest: strokes as CSS gradients over the content (MathML Core has no
    /// `menclose`).
    @inline(never)
    private mutating func parseCancel(_ owner: MathToken, kind: UInt8) throws(MathParseError) -> Int32 {
        let content = try parseArgument(of: owner)
        func stroke(_ direction: String) -> String {
            "linear-gradient(\(direction)transparent 46%,currentcolor 46%,currentcolor 54%,transparent 54%)"
        }
        let background: String
        switch kind {
        case 0: background = stroke("to top right,")  // l10n-exempt: MathML attributes and CSS
        case 1: background = stroke("to bottom right,")  // l10n-exempt: MathML attributes and CSS
        case 2: background = stroke("to top right,") + "," + stroke("to bottom right,")  // l10n-exempt: MathML attributes and CSS
        default: background = stroke("")
        }
        return tree.element(.mrow, content, attributes: tree.store(" style=\"background:\(background)\""))
    }

    /// `\char"41`, `\char'101`, `\char65`: the character with that code, as a symbol.
    @inline(never)
    private mutating func parseCharacterCode(_ owner: MathToken) throws(MathParseError) -> Int32 {
        var index = token.start
        var radix: UInt32 = 10
        if index < source.count, source[index] == UInt8(ascii: "\"") { radix = 16; index += 1 }
        else if index < source.count, source[index] == UInt8(ascii: "'") { radix = 8; index += 1 }
        var value: UInt32 = 0
        var digits = 0
        while index < source.count, digits < 8 {
            let byte = source[index] | (radix == 16 ? 0x20 : 0)
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt32(byte - 0x61 + 10)
            default: digit = radix
            }
            guard digit < radix else { break }
            value = value * radix + digit
            digits += 1
            index += 1
        }
        guard digits > 0, value >= 0x20, value != 0x7F, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
            throw error("math.error.charCode", at: owner.start)
        }
        resume(at: index)
        if let symbolClass = table.classOfScalar[value] { return symbol(symbolClass, text: tree.store(scalar: value)) }
        return letter(value, symbolClass: .ordinary)
    }

    @inline(never)
    private mutating func parseTag(_ owner: MathToken) throws(MathParseError) -> Int32? {
        var starred = false
        if isCharacter(UInt8(ascii: "*")) {
            starred = true
            advance()
        }
        guard tag == nil else { throw error("math.error.oneTag", at: owner.start) }
        tag = try parseTextArgument(owner, set: 0, clear: 0, enclosedIn: starred ? nil : (0x28, 0x29))
        return nil
    }

    @inline(never)
    private mutating func logo(_ kind: UInt8) -> Int32 {
        let text: StaticString = kind == 0 ? "TeX" : kind == 1 ? "LaTeX" : "KaTeX"
        return tree.token(.mtext, text: tree.store(text))
    }

    @inline(never)
    private mutating func parseRule(_ owner: MathToken) throws(MathParseError) -> Int32 {
        var raise: Int?
        if isCharacter(UInt8(ascii: "[")) {
            let range = try readRawBracket(of: owner)
            guard let (value, end) = parseDimension(from: range.lowerBound, limit: range.upperBound), end == range.upperBound else {
                throw error("math.error.invalidDimension", .string(shown(range)), "\\rule", at: range.lowerBound)
            }
            raise = value
        }
        let width = try readDimension(of: owner, braced: true)
        let height = try readDimension(of: owner, braced: true)
        let rule = tree.element(.mspace, NodeList(), attributes: tree.store(
            " width=\"\(Self.em(max(0, width)))\" height=\"\(Self.em(max(0, height)))\" mathbackground=\"currentcolor\""))
        guard let raise else { return rule }
        return tree.element(.mpadded, rule, attributes: tree.store(" voffset=\"\(Self.em(raise))\""))
    }

    @inline(never)
    private mutating func parseBeginGroup(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let savedFont = font, savedDisplay = displayStyle
        let (list, end) = try parseRow()
        font = savedFont
        displayStyle = savedDisplay
        guard end == .endGroup else { throw error("math.error.missingClosing", "\\endgroup", "\\begingroup", at: owner.start) }
        advance()
        return tree.element(.mrow, list)
    }

    /// A node as a list of one.
    func singleList(_ node: Int32) -> NodeList {
        NodeList(head: node, tail: node, count: 1)
    }

    /// An `<mspace>` of `width` ten-thousandths of an em; a negative space is a negative margin,
    /// as browsers give `<mspace>` no negative width.
    @inline(never)
    mutating func space(_ width: Int) -> Int32 {
        let attributes = width >= 0 ? " width=\"\(Self.em(width))\"" : " style=\"margin-left:\(Self.em(width))\""
        return tree.element(.mspace, NodeList(), attributes: tree.store(attributes))
    }

    /// `[…]` parsed as maths in a script style (`\sqrt[3]`, `\xrightarrow[below]`).
    @inline(never)
    mutating func parseOptionalScript(_ owner: MathToken) throws(MathParseError) -> NodeList? {
        guard isCharacter(UInt8(ascii: "[")) else { return nil }
        let open = token.start
        let saved = displayStyle
        displayStyle = false
        advance()
        let (list, end) = try parseRow(stopAtBracket: true)
        displayStyle = saved
        guard end == .closeBracket else { throw error("math.error.missingCloseBracket", describe(owner), at: open) }
        advance()
        return list
    }

    // MARK: Fractions and roots

    /// `\frac`, `\dfrac`, `\tfrac`, `\cfrac`, and the binomials when `delimiters` is given.
    @inline(never)
    private mutating func parseFraction(_ owner: MathToken, style: MathStyleSwitch?,
                                        delimiters: (UInt32, UInt32)?) throws(MathParseError) -> Int32 {
        let saved = displayStyle
        displayStyle = false
        let numerator = tree.single(try parseArgument(of: owner))
        let denominator = tree.single(try parseArgument(of: owner))
        displayStyle = saved
        return fraction(numerator, denominator, thickness: delimiters == nil ? nil : "0", delimiters: delimiters, style: style)
    }

    /// An `<mfrac>`, in delimiters and in a style when asked.
    mutating func fraction(_ numerator: Int32, _ denominator: Int32, thickness: String?,
                           delimiters: (UInt32, UInt32)?, style: MathStyleSwitch?) -> Int32 {
        var node = tree.element(.mfrac, numerator, denominator,
                                attributes: thickness.map { tree.store(" linethickness=\"\($0)\"") })
        if let (left, right) = delimiters {
            var list = NodeList()
            if left != 0 { tree.append(delimiter(tree.store(scalar: left), form: .prefix), to: &list) }
            tree.append(node, to: &list)
            if right != 0 { tree.append(delimiter(tree.store(scalar: right), form: .postfix), to: &list) }
            node = tree.element(.mrow, list)
            tree.nodes[Int(node)].flags |= MathNode.keepRow
        }
        if let style { node = tree.element(.mstyle, node, attributes: styleAttributes(style)) }
        tree.nodes[Int(node)].atom = .inner
        return node
    }

    mutating func styleAttributes(_ style: MathStyleSwitch) -> Range<Int32> {
        switch style {
        case .display: tree.store(" displaystyle=\"true\" scriptlevel=\"0\"")
        case .text: tree.store(" displaystyle=\"false\" scriptlevel=\"0\"")
        case .script: tree.store(" displaystyle=\"false\" scriptlevel=\"1\"")
        case .scriptScript: tree.store(" displaystyle=\"false\" scriptlevel=\"2\"")
        }
    }

    /// `a \over b` and the other infix fractions: `numerator` is the row so far; the rest of the
    /// row is the denominator.
    @inline(never)
    mutating func parseInfixFraction(_ kind: InfixFraction, numerator: NodeList,
                                     stopAtBracket: Bool) throws(MathParseError) -> (node: Int32, end: RowEnd) {
        let owner = token
        advance()
        var thickness: String?
        if kind == .above { thickness = Self.em(try readDimension(of: owner, braced: false)) }
        let saved = displayStyle
        displayStyle = false
        let (denominator, end) = try parseRow(stopAtBracket: stopAtBracket, afterInfix: true)
        displayStyle = saved
        let delimiters: (UInt32, UInt32)?
        switch kind {
        case .over, .above: delimiters = nil
        case .atop: delimiters = (0, 0)
        case .choose: delimiters = (0x28, 0x29)
        case .brace: delimiters = (0x7B, 0x7D)
        case .brack: delimiters = (0x5B, 0x5D)
        }
        if delimiters != nil { thickness = "0" }
        let node = fraction(tree.single(numerator), tree.single(denominator), thickness: thickness,
                            delimiters: kind == .atop ? nil : delimiters, style: nil)
        return (node, end)
    }

    /// `\genfrac{left}{right}{thickness}{style}{numerator}{denominator}`.
    @inline(never)
    private mutating func parseGeneralizedFraction(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let left = try readBracedDelimiter(owner)
        let right = try readBracedDelimiter(owner)
        let thicknessRange = try readRawGroup(of: owner)
        var thickness: String?
        if !thicknessRange.isEmpty {
            guard let (value, end) = parseDimension(from: thicknessRange.lowerBound, limit: thicknessRange.upperBound),
                  end == thicknessRange.upperBound else {
                throw error("math.error.invalidDimension", .string(shown(thicknessRange)), "\\genfrac", at: thicknessRange.lowerBound)
            }
            thickness = Self.em(max(0, value))
        }
        let styleRange = try readRawGroup(of: owner)
        let style: MathStyleSwitch?
        switch string(styleRange) {
        case "": style = nil
        case "0": style = .display
        case "1": style = .text
        case "2": style = .script
        case "3": style = .scriptScript
        default: throw error("math.error.genfracStyle", at: styleRange.lowerBound)
        }
        let saved = displayStyle
        displayStyle = false
        let numerator = tree.single(try parseArgument(of: owner))
        let denominator = tree.single(try parseArgument(of: owner))
        displayStyle = saved
        var node = tree.element(.mfrac, numerator, denominator,
                                attributes: thickness.map { tree.store(" linethickness=\"\($0)\"") })
        if left != nil || right != nil {
            var list = NodeList()
            if let left { tree.append(delimiter(left, form: .prefix), to: &list) }
            tree.append(node, to: &list)
            if let right { tree.append(delimiter(right, form: .postfix), to: &list) }
            node = tree.element(.mrow, list)
            tree.nodes[Int(node)].flags |= MathNode.keepRow
        }
        if let style { node = tree.element(.mstyle, node, attributes: styleAttributes(style)) }
        tree.nodes[Int(node)].atom = .inner
        return node
    }

    /// `{(}`, `{}`, `(`: a delimiter (or none), in braces or not.
    private mutating func readBracedDelimiter(_ owner: MathToken) throws(MathParseError) -> Range<Int32>? {
        guard token.kind == .openBrace else { return try readDelimiter(after: owner) }
        let open = token.start
        advance()
        if token.kind == .closeBrace {
            advance()
            return nil
        }
        let text = try readDelimiter(after: owner)
        guard token.kind == .closeBrace else { throw error("math.error.missingCloseBrace", at: open) }
        advance()
        return text
    }

    /// `\sqrt{x}` and `\sqrt[n]{x}`.
    @inline(never)
    private mutating func parseRoot(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let index = try parseOptionalScript(owner)
        let radicand = try parseArgument(of: owner)
        if let index {
            return tree.element(.mroot, tree.single(radicand), tree.single(index))
        }
        return tree.element(.msqrt, radicand)
    }

    // MARK: Fonts and names

    @inline(never)
    private mutating func parseInFont(_ newFont: MathFont, _ owner: MathToken) throws(MathParseError) -> Int32 {
        let saved = font
        font = newFont
        defer { font = saved }
        return tree.single(try parseArgument(of: owner))
    }

    /// `\operatorname{name}`, `\operatorname*{name}`: an upright name spaced as `\sin` is.
    @inline(never)
    private mutating func parseOperatorName(_ owner: MathToken, limits: Bool) throws(MathParseError) -> Int32 {
        var withLimits = limits
        if isCharacter(UInt8(ascii: "*")) {
            withLimits = true
            advance()
        }
        let node = try parseInFont(.roman, owner)
        tree.nodes[Int(node)].atom = .op
        tree.nodes[Int(node)].limits = withLimits ? .display : .beside
        tree.nodes[Int(node)].flags = (tree[node].flags & ~MathNode.letterRun) | MathNode.function
        return node
    }

    /// `\mathrel{…}` and the rest: the content spaced as an atom of that class.
    @inline(never)
    private mutating func parseMathClass(_ owner: MathToken, atom: AtomClass) throws(MathParseError) -> Int32 {
        let list = try parseArgument(of: owner)
        var node = list.count == 1 ? list.head : tree.element(.mrow, list)
        let spacing: StaticString?
        let width: Int
        switch atom {
        case .bin: spacing = " lspace=\"0.2222em\" rspace=\"0.2222em\""; width = 2222
        case .rel: spacing = " lspace=\"0.2778em\" rspace=\"0.2778em\""; width = 2778
        case .ord: spacing = " lspace=\"0\" rspace=\"0\""; width = 0
        case .punct: spacing = " lspace=\"0\" rspace=\"0.1667em\""; width = 0
        case .op, .open, .close, .inner: spacing = nil; width = 0
        }
        if let spacing {
            let current = tree[node]
            if current.tag == .mo, current.attributesStart == current.attributesEnd {
                let attributes = tree.store(spacing)
                tree.nodes[Int(node)].attributesStart = attributes.lowerBound
                tree.nodes[Int(node)].attributesEnd = attributes.upperBound
            } else if width > 0 {
                node = tree.element(.mrow, space(width), node, space(width))
            }
        }
        tree.nodes[Int(node)].atom = atom
        tree.nodes[Int(node)].limits = atom == .op ? .display : .beside
        return node
    }

    // MARK: Delimiters

    /// `\left( … \middle| … \right)`: one row, its delimiters stretched to its height.
    @inline(never)
    private mutating func parseLeftRight(_ owner: MathToken) throws(MathParseError) -> Int32 {
        var list = NodeList()
        if let left = try readDelimiter(after: owner) {
            tree.append(delimiter(left, form: .prefix), to: &list)
        }
        while true {
            let (inner, end) = try parseRow(after: .open)
            tree.append(contentsOf: inner, to: &list)
            switch end {
            case .middle:
                let middle = token
                advance()
                if let text = try readDelimiter(after: middle) {
                    tree.append(delimiter(text, form: .infix), to: &list)
                }
            case .right:
                let right = token
                advance()
                if let text = try readDelimiter(after: right) {
                    tree.append(delimiter(text, form: .postfix), to: &list)
                }
                let node = tree.element(.mrow, list)
                tree.nodes[Int(node)].flags |= MathNode.keepRow
                tree.nodes[Int(node)].atom = .inner
                return node
            default:
                throw error("math.error.missingClosing", "\\right", "\\left", at: owner.start)
            }
        }
    }

    /// `\bra{…}`, `\ket{…}`, `\braket{…}`, and the stretching `\Bra{…}`, `\Ket{…}`.
    @inline(never)
    private mutating func parseBraket(_ owner: MathToken, kind: UInt8) throws(MathParseError) -> Int32 {
        let content = try parseArgument(of: owner)
        let angleLeft: UInt32 = 0x27E8, angleRight: UInt32 = 0x27E9, bar: UInt32 = 0x7C
        let (left, right): (UInt32, UInt32)
        switch kind {
        case 0, 3: (left, right) = (angleLeft, bar)
        case 1, 4: (left, right) = (bar, angleRight)
        default: (left, right) = (angleLeft, angleRight)
        }
        var list = NodeList()
        if kind >= 3 {
            tree.append(delimiter(tree.store(scalar: left), form: .prefix), to: &list)
            tree.append(contentsOf: content, to: &list)
            tree.append(delimiter(tree.store(scalar: right), form: .postfix), to: &list)
        } else {
            tree.append(symbol(left == bar ? .fence : .open, text: tree.store(scalar: left)), to: &list)
            tree.append(contentsOf: content, to: &list)
            tree.append(symbol(right == bar ? .fence : .close, text: tree.store(scalar: right)), to: &list)
        }
        let node = tree.element(.mrow, list)
        tree.nodes[Int(node)].atom = .inner
        return node
    }

    // MARK: Negation, modulo, arrows

    /// `\not=`: the negated character where Unicode has one, else the character with U+0338.
    @inline(never)
    private mutating func parseNegation(_ owner: MathToken) throws(MathParseError) -> Int32 {
        let list = try parseArgument(of: owner)
        guard list.count == 1, tree[list.head].tag == .mi || tree[list.head].tag == .mo else {
            throw error("math.error.notNeedsSymbol", at: owner.start)
        }
        let node = tree[list.head]
        let text = node.textStart..<node.textEnd
        let start = Int32(tree.bytes.count)
        if let scalar = singleScalar(text), let negated = Self.negation(of: scalar) {
            tree.appendScalar(negated)
        } else {
            tree.bytes.append(contentsOf: tree.bytes[Int(text.lowerBound)..<Int(text.upperBound)])
            tree.appendScalar(0x338)
        }
        tree.nodes[Int(list.head)].textStart = start
        tree.nodes[Int(list.head)].textEnd = Int32(tree.bytes.count)
        tree.nodes[Int(list.head)].flags &= ~MathNode.letterRun
        return list.head
    }

    static func negation(of scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x3D: 0x2260
        case 0x3C: 0x226E
        case 0x3E: 0x226F
        case 0x2264: 0x2270
        case 0x2265: 0x2271
        case 0x2208: 0x2209
        case 0x220B: 0x220C
        case 0x2282: 0x2284
        case 0x2283: 0x2285
        case 0x2286: 0x2288
        case 0x2287: 0x2289
        case 0x2261: 0x2262
        case 0x223C: 0x2241
        case 0x2243: 0x2244
        case 0x2245: 0x2247
        case 0x2248: 0x2249
        case 0x2223: 0x2224
        case 0x2225: 0x2226
        case 0x227A: 0x2280
        case 0x227B: 0x2281
        case 0x2203: 0x2204
        case 0x22A2: 0x22AC
        case 0x22A8: 0x22AD
        case 0x2192: 0x219B
        case 0x2190: 0x219A
        case 0x2194: 0x21AE
        case 0x21D2: 0x21CF
        case 0x21D0: 0x21CD
        case 0x21D4: 0x21CE
        case 0x224D: 0x226D
        case 0x2291: 0x22E2
        case 0x2292: 0x22E3
        case 0x22B2: 0x22EA
        case 0x22B3: 0x22EB
        case 0x22B4: 0x22EC
        case 0x22B5: 0x22ED
        case 0x2272: 0x2274
        case 0x2273: 0x2275
        case 0x2276: 0x2278
        case 0x2277: 0x2279
        default: nil
        }
    }

    /// `a \bmod b`, `\pmod{n}`, `\pod{n}`, `\mod{n}`, spaced as amsmath spaces them.
    @inline(never)
    private mutating func parseModulo(_ owner: MathToken, kind: UInt8) throws(MathParseError) -> Int32 {
        if kind == 0 {
            return tree.token(.mo, text: tree.store("mod"), atom: .bin,
                              attributes: tree.store(" lspace=\"0.2222em\" rspace=\"0.2222em\""))
        }
        let argument = try parseArgument(of: owner)
        var list = NodeList()
        let gap = displayStyle ? 10_000 : kind == 3 ? 6667 : 4444
        tree.append(space(gap), to: &list)
        if kind != 3 { tree.append(symbol(.open, text: tree.store("(")), to: &list) }
        if kind != 2 {
            tree.append(tree.token(.mi, text: tree.store("mod")), to: &list)
            tree.append(space(3333), to: &list)
        }
        tree.append(contentsOf: argument, to: &list)
        if kind != 3 { tree.append(symbol(.close, text: tree.store(")")), to: &list) }
        return tree.element(.mrow, list)
    }

    /// `\xrightarrow[below]{above}`: an arrow stretched under and over its labels.
    @inline(never)
    private mutating func parseExtensibleArrow(_ owner: MathToken, arrow: UInt32) throws(MathParseError) -> Int32 {
        let below = try parseOptionalScript(owner)
        let saved = displayStyle
        displayStyle = false
        let above = try parseArgument(of: owner)
        displayStyle = saved
        let arrowNode = tree.token(.mo, text: tree.store(scalar: arrow), attributes: tree.store(" stretchy=\"true\""))
        func padded(_ list: NodeList, _ parser: inout MathParser) -> Int32 {
            var row = NodeList()
            parser.tree.append(parser.space(2778), to: &row)
            parser.tree.append(contentsOf: list, to: &row)
            parser.tree.append(parser.space(2778), to: &row)
            return parser.tree.element(.mrow, row)
        }
        let aboveNode = padded(above, &self)
        let node: Int32
        if let below {
            node = tree.element(.munderover, arrowNode, padded(below, &self), aboveNode)
        } else {
            node = tree.element(.mover, arrowNode, aboveNode)
        }
        tree.nodes[Int(node)].atom = .rel
        return node
    }

    // MARK: Tables and verbatim

    /// `\substack{a\\b}`: lines stacked in a script.
    @inline(never)
    private mutating func parseSubstack(_ owner: MathToken) throws(MathParseError) -> Int32 {
        guard token.kind == .openBrace else { throw error("math.error.missingBraces", "\\substack") }
        let open = token.start
        advance()
        var rows = NodeList()
        while true {
            let (list, end) = try parseRow()
            switch end {
            case .newline:
                tree.append(tree.element(.mtr, tree.element(.mtd, list)), to: &rows)
                advance()
                try skipRowSpacing()
            case .closeBrace:
                if !list.isEmpty || rows.isEmpty { tree.append(tree.element(.mtr, tree.element(.mtd, list)), to: &rows) }
                advance()
                return tree.element(.mtable, rows)
            default:
                throw unclosed(end, opened: open)
            }
        }
    }

    /// `\verb|…|`: the characters as they are, between a delimiter and its next occurrence.
    @inline(never)
    private mutating func parseVerbatim(_ owner: MathToken) throws(MathParseError) -> Int32 {
        var visibleSpaces = false
        var start = token.start
        if isCharacter(UInt8(ascii: "*")), token.end < source.count, !MathLexer.isSpace(source[token.end]) {
            visibleSpaces = true
            start = token.end
        }
        guard token.kind != .end, start < source.count, !MathLexer.isLetter(source[start]),
              !MathLexer.isSpace(source[start]), source[start] < 0x80 else {
            throw error("math.error.needsDelimiter", "\\verb", at: owner.start)
        }
        let delimiterByte = source[start]
        var index = start + 1
        while index < source.count, source[index] != delimiterByte { index += 1 }
        guard index < source.count else { throw error("math.error.verbUnclosed", .string(String(Character(Unicode.Scalar(delimiterByte)))), at: owner.start) }
        let textStart = Int32(tree.bytes.count)
        var offset = start + 1
        while offset < index {
            let (scalar, length) = lexer.scalar(at: offset)
            tree.appendScalar(visibleSpaces && scalar == 0x20 ? 0x2423 : scalar)
            offset += length
        }
        resume(at: index + 1)
        return tree.token(.mtext, text: textStart..<Int32(tree.bytes.count))
    }

    /// Skips the `[1ex]` of `\\[1ex]`: row spacing is left to the table.
    mutating func skipRowSpacing() throws(MathParseError) {
        guard isCharacter(UInt8(ascii: "[")) else { return }
        let owner = token
        let range = try readRawBracket(of: owner)
        guard parseDimension(from: range.lowerBound, limit: range.upperBound)?.1 == range.upperBound else {
            throw error("math.error.invalidDimensionAfter", .string(shown(range)), "\\\\", at: range.lowerBound)
        }
    }

    // MARK: Switches

    /// `\color{…}`, `\displaystyle`, `\large` and the rest: they change the rest of the row, which
    /// becomes one `<mstyle>`.
    @inline(never)
    mutating func parseSwitch(_ command: MathCommand, stopAtBracket: Bool) throws(MathParseError) -> (Int32, RowEnd) {
        let owner = token
        advance()
        let savedDisplay = displayStyle
        let attributes: Range<Int32>
        switch command {
        case .color:
            let color = try readColor(of: owner)
            attributes = tree.store(" mathcolor=\"\(color)\"")
        case .style(let style):
            displayStyle = style == .display
            attributes = styleAttributes(style)
        case .size(let size):
            attributes = tree.store(" mathsize=\"\(Self.em(size * 10))\"")
        default:
            attributes = tree.store("")
        }
        let (rest, end) = try parseRow(stopAtBracket: stopAtBracket)
        displayStyle = savedDisplay
        return (tree.element(.mstyle, rest, attributes: attributes), end)
    }
}
