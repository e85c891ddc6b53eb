// What each TeX command means to the parser: a symbol of some class, or a construct with its own
// arguments. The names are in `CommandTable` (from `MathSymbols` and `MathCommand.constructs`).

/// How a symbol is written and spaced.
enum SymbolClass: UInt8 {
    /// An italic letter: `<mi>` (MathML Core makes a single letter italic). Fonts map it.
    case letter
    /// An upright letter: `<mi mathvariant="normal">` (capital Greek, `\nabla`). Fonts map it.
    case uprightLetter
    /// Any other ordinary symbol: `<mi>` (`\infty`, `\forall`).
    case ordinary
    /// An ordinary symbol that is an operator character: `<mo>` without spacing (`/`, `\backslash`).
    case ordinaryOperator
    /// `|` and `\|`: like `ordinaryOperator`, and a delimiter.
    case fence
    case binary, relation, punctuation
    /// A relation that is also a delimiter (`\uparrow`).
    case verticalArrow
    case open, close
    /// `\sum`: limits under and over in display style.
    case largeOperator
    /// `\int`: limits beside.
    case integral
    /// `\sin`: an upright name, limits beside.
    case function
    /// `\lim`: an upright name, limits under in display style.
    case limitFunction
    /// `\ldots`, `\cdots`: `<mo>` with the dictionary's spacing.
    case dots
    /// `\prime`: `<mo>`, as `'` is.
    case prime

    /// The data code of `MathSymbols`.
    init?(code: UInt8) {
        switch code {
        case UInt8(ascii: "i"): self = .letter
        case UInt8(ascii: "I"): self = .uprightLetter
        case UInt8(ascii: "m"): self = .ordinary
        case UInt8(ascii: "o"): self = .ordinaryOperator
        case UInt8(ascii: "|"): self = .fence
        case UInt8(ascii: "b"): self = .binary
        case UInt8(ascii: "r"): self = .relation
        case UInt8(ascii: "p"): self = .punctuation
        case UInt8(ascii: "v"): self = .verticalArrow
        case UInt8(ascii: "("): self = .open
        case UInt8(ascii: ")"): self = .close
        case UInt8(ascii: "L"): self = .largeOperator
        case UInt8(ascii: "N"): self = .integral
        case UInt8(ascii: "f"): self = .function
        case UInt8(ascii: "F"): self = .limitFunction
        case UInt8(ascii: "d"): self = .dots
        case UInt8(ascii: "P"): self = .prime
        default: return nil
        }
    }

    /// True for symbols that `\left`, `\right`, `\big` and the matrix environments accept.
    var isDelimiter: Bool {
        switch self {
        case .open, .close, .fence, .verticalArrow, .ordinaryOperator: true
        default: false
        }
    }

    var atom: AtomClass {
        switch self {
        case .letter, .uprightLetter, .ordinary, .ordinaryOperator, .fence, .prime: .ord
        case .binary: .bin
        case .relation, .verticalArrow: .rel
        case .punctuation: .punct
        case .open: .open
        case .close: .close
        case .largeOperator, .integral, .function, .limitFunction: .op
        case .dots: .inner
        }
    }
}

/// The fonts of `\mathbf`, `\mathbb` and the rest (see `MathAlphabets`).
enum MathFont: UInt8 {
    case none, roman, bold, italic, boldItalic, script, boldScript, fraktur, boldFraktur
    case doubleStruck, sansSerif, sansSerifBold, sansSerifItalic, sansSerifBoldItalic, monospace
    /// `\boldsymbol`: bold italic letters, bold upright capital Greek and digits.
    case boldSymbol
}

/// Style switches: `\displaystyle` and the rest.
enum MathStyleSwitch: UInt8 {
    case display, text, script, scriptScript
}

/// Constructs with arguments or effects of their own.
enum MathCommand {
    /// A symbol: its class and its text in the table's pool.
    case symbol(SymbolClass, Range<Int32>)
    /// `\frac` (nil: the surrounding style), `\dfrac` (display), `\tfrac` (text), `\cfrac`.
    case fraction(MathStyleSwitch?)
    /// `\binom`, `\dbinom`, `\tbinom`.
    case binomial(MathStyleSwitch?)
    case genfrac
    /// `\over`, `\atop`, `\choose`, `\brace`, `\brack`, `\above`.
    case infix(InfixFraction)
    case sqrt
    /// `\hat` and the other accents: the mark, whether it stretches, whether it goes under.
    case accent(mark: UInt32, stretchy: Bool, under: Bool)
    /// `\overbrace`, `\underbrace` and the like: a mark whose scripts go over or under it.
    case brace(mark: UInt32, under: Bool)
    /// `\mathbf{…}` and the rest.
    case font(MathFont)
    /// `\bf` and the rest: the font of the rest of the group.
    case fontSwitch(MathFont)
    /// `\text{…}`, `\textbf{…}`: text, with the `TextStyle` bits it sets and those it clears.
    case text(set: UInt8, clear: UInt8)
    /// `\operatorname`, `\operatorname*`: whether it takes limits.
    case operatorName(limits: Bool)
    /// A fixed space in ten-thousandths of an em (negative for `\!`).
    case space(Int)
    /// `\ `, `~`, `\space`: a text space.
    case textSpace
    /// `\hspace{…}`, `\kern`, `\mkern`, `\mskip`, `\hskip`.
    case skip
    case left, right, middle
    /// `\big` and the rest: size (1–4), and the form (0 ord, 1 open, 2 close, 3 relation).
    case big(size: UInt8, form: UInt8)
    case begin, end
    case color, textColor, colorBox, framedColorBox
    case style(MathStyleSwitch)
    /// `\tiny` … `\Huge`: the size in thousandths of an em.
    case size(Int)
    case limits, noLimits
    /// `\phantom` (0), `\hphantom` (1), `\vphantom` (2).
    case phantom(UInt8)
    case smash, raisebox
    /// `\mathrlap{…}` (maths) and `\rlap{…}` (text): content that takes no width.
    case rlap(text: Bool)
    /// `\overset` (false) or `\underset` (true); `\stackrel` is `\overset` of a relation.
    case overset(under: Bool, relation: Bool)
    case not
    case substack
    case boxed, framedBox
    /// `\cancel` (0), `\bcancel` (1), `\xcancel` (2), `\sout` (3): a stroke drawn over the content.
    case cancel(UInt8)
    /// `\char"41`: a character by its code.
    case character
    /// `\tag` (false) or `\tag*` handled by looking for `*`.
    case tag
    /// `\bmod` (0), `\pmod` (1), `\pod` (2), `\mod` (3).
    case modulo(UInt8)
    /// `\xrightarrow[…]{…}` and the rest: the arrow.
    case extensibleArrow(UInt32)
    /// `\mathrel{…}` and the rest.
    case mathClass(AtomClass)
    /// Accepted and ignored (`\relax`, `\nobreak`, `\allowbreak`, `\nonumber`).
    case ignored
    /// `\\`, `\newline`, `\cr`.
    case newline
    /// `\hline` (false), `\hdashline` (true).
    case horizontalLine(dashed: Bool)
    /// A text-mode symbol (`\textbackslash`): its scalar.
    case textSymbol(UInt32)
    /// `\'` and the other text accents: the combining mark.
    case textAccent(UInt32)
    /// `\TeX` (0), `\LaTeX` (1), `\KaTeX` (2).
    case logo(UInt8)
    /// `\bra` (0), `\ket` (1), `\braket` (2), `\Bra` (3), `\Ket` (4).
    case braket(UInt8)
    case rule
    /// `\pmb`: poor man's bold.
    case poorMansBold
    case beginGroup, endGroup
    case verb
}

/// The infix fraction commands.
enum InfixFraction: UInt8 {
    case over, atop, choose, brace, brack, above
}

/// Style bits of text (`\textbf{\textit{…}}` stacks).
enum TextStyle {
    static let bold: UInt8 = 1
    static let italic: UInt8 = 2
    static let sansSerif: UInt8 = 4
    static let monospace: UInt8 = 8
    static let family: UInt8 = sansSerif | monospace
    static let all: UInt8 = 15

    /// The font of text with these bits.
    static func font(_ bits: UInt8) -> MathFont {
        let bold = bits & Self.bold != 0, italic = bits & Self.italic != 0
        if bits & monospace != 0 { return .monospace }
        if bits & sansSerif != 0 {
            switch (bold, italic) {
            case (true, true): return .sansSerifBoldItalic
            case (true, false): return .sansSerifBold
            case (false, true): return .sansSerifItalic
            case (false, false): return .sansSerif
            }
        }
        switch (bold, italic) {
        case (true, true): return .boldItalic
        case (true, false): return .bold
        case (false, true): return .italic
        case (false, false): return .none
        }
    }
}
