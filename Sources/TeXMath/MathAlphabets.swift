// Letters and digits in a font, as the Unicode Mathematical Alphanumeric Symbols (U+1D400 on):
// MathML Core has no `mathvariant` but `normal`, so `\mathbb{R}` is the character ℝ itself.
//
// Invariants: a character with no form in the font is returned as it is; the holes of the block
// (ℎ, ℬ, ℭ, ℝ …, which Unicode had encoded before among the Letterlike Symbols) map to those.

enum MathAlphabets {
    /// The character `scalar` in `font`, and whether it must be written upright
    /// (`mathvariant="normal"`: the roman font, which has no characters of its own).
    static func map(_ scalar: UInt32, _ font: MathFont) -> (scalar: UInt32, upright: Bool) {
        switch font {
        case .none: return (scalar, false)
        case .roman: return (scalar, isLetter(scalar))
        default: break
        }
        if let latin = latin(scalar, font) { return (latin, false) }
        if let digit = digit(scalar, font) { return (digit, false) }
        if let greek = greek(scalar, font) { return (greek, false) }
        return (scalar, false)
    }

    /// Latin and Greek letters (the characters fonts change).
    static func isLetter(_ scalar: UInt32) -> Bool {
        (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar) || isGreek(scalar)
    }

    static func isGreek(_ scalar: UInt32) -> Bool {
        (0x391...0x3A9).contains(scalar) || (0x3B1...0x3C9).contains(scalar) || greekVariantIndex(scalar) != nil
            || scalar == 0x2207
    }

    private static func latin(_ scalar: UInt32, _ font: MathFont) -> UInt32? {
        let index: UInt32
        let isLower: Bool
        switch scalar {
        case 0x41...0x5A: index = scalar - 0x41; isLower = false
        case 0x61...0x7A: index = scalar - 0x61; isLower = true
        default: return nil
        }
        let capitalA: UInt32
        switch font {
        case .bold: capitalA = 0x1D400
        case .italic: capitalA = 0x1D434
        case .boldItalic, .boldSymbol: capitalA = 0x1D468
        case .script: capitalA = 0x1D49C
        case .boldScript: capitalA = 0x1D4D0
        case .fraktur: capitalA = 0x1D504
        case .doubleStruck: capitalA = 0x1D538
        case .boldFraktur: capitalA = 0x1D56C
        case .sansSerif: capitalA = 0x1D5A0
        case .sansSerifBold: capitalA = 0x1D5D4
        case .sansSerifItalic: capitalA = 0x1D608
        case .sansSerifBoldItalic: capitalA = 0x1D63C
        case .monospace: capitalA = 0x1D670
        case .none, .roman: return nil
        }
        if let hole = letterlikeHole(scalar, font) { return hole }
        return capitalA + (isLower ? 26 : 0) + index
    }

    /// The letters that live among the Letterlike Symbols instead of their font's block.
    private static func letterlikeHole(_ scalar: UInt32, _ font: MathFont) -> UInt32? {
        switch font {
        case .italic:
            return scalar == 0x68 ? 0x210E : nil  // h: Planck constant
        case .script:
            switch scalar {
            case 0x42: return 0x212C
            case 0x45: return 0x2130
            case 0x46: return 0x2131
            case 0x48: return 0x210B
            case 0x49: return 0x2110
            case 0x4C: return 0x2112
            case 0x4D: return 0x2133
            case 0x52: return 0x211B
            case 0x65: return 0x212F
            case 0x67: return 0x210A
            case 0x6F: return 0x2134
            default: return nil
            }
        case .fraktur:
            switch scalar {
            case 0x43: return 0x212D
            case 0x48: return 0x210C
            case 0x49: return 0x2111
            case 0x52: return 0x211C
            case 0x5A: return 0x2128
            default: return nil
            }
        case .doubleStruck:
            switch scalar {
            case 0x43: return 0x2102
            case 0x48: return 0x210D
            case 0x4E: return 0x2115
            case 0x50: return 0x2119
            case 0x51: return 0x211A
            case 0x52: return 0x211D
            case 0x5A: return 0x2124
            default: return nil
            }
        default:
            return nil
        }
    }

    private static func digit(_ scalar: UInt32, _ font: MathFont) -> UInt32? {
        guard (0x30...0x39).contains(scalar) else { return nil }
        switch font {
        case .bold, .boldSymbol: return 0x1D7CE + scalar - 0x30
        case .doubleStruck: return 0x1D7D8 + scalar - 0x30
        case .sansSerif: return 0x1D7E2 + scalar - 0x30
        case .sansSerifBold: return 0x1D7EC + scalar - 0x30
        case .monospace: return 0x1D7F6 + scalar - 0x30
        default: return nil
        }
    }

    /// ∂ ϵ ϑ ϰ ϕ ϱ ϖ follow ω in each Greek block, in this order.
    private static func greekVariantIndex(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x2202: 0
        case 0x3F5: 1
        case 0x3D1: 2
        case 0x3F0: 3
        case 0x3D5: 4
        case 0x3F1: 5
        case 0x3D6: 6
        default: nil
        }
    }

    /// Greek in the five fonts that have it. A block is Α…Ω (ϴ where U+03A2 is unassigned), ∇,
    /// α…ω, then the variants.
    private static func greek(_ scalar: UInt32, _ font: MathFont) -> UInt32? {
        let isCapital = (0x391...0x3A9).contains(scalar) || scalar == 0x2207
        var capitalAlpha: UInt32
        switch font {
        case .bold: capitalAlpha = 0x1D6A8
        case .italic: capitalAlpha = 0x1D6E2
        case .boldItalic: capitalAlpha = 0x1D71C
        case .boldSymbol: capitalAlpha = isCapital ? 0x1D6A8 : 0x1D71C  // upright bold capitals
        case .sansSerifBold: capitalAlpha = 0x1D756
        case .sansSerifBoldItalic: capitalAlpha = 0x1D790
        default: return nil
        }
        switch scalar {
        case 0x391...0x3A9: return capitalAlpha + scalar - 0x391
        case 0x2207: return capitalAlpha + 25
        case 0x3B1...0x3C9: return capitalAlpha + 26 + scalar - 0x3B1
        default:
            guard let variant = greekVariantIndex(scalar) else { return nil }
            capitalAlpha = font == .boldSymbol ? 0x1D71C : capitalAlpha
            return capitalAlpha + 51 + variant
        }
    }
}
