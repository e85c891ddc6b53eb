// PluralRules: the CLDR plural category of an integer count in each supported language.
//
// Invariants:
// - The rules are CLDR's (https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html)
//   for integers (no visible fraction digits, v = 0, no compact exponent), so `n`, `i` and the
//   absolute value agree. Negative counts take the category of their absolute value.
// - `categories(for:)` lists exactly the categories some integer reaches, so a catalog test can
//   demand them of every plural entry, and a lookup never meets a category the table lacks
//   without falling back to `other`.

/// A CLDR plural category.
public enum PluralCategory: String, CaseIterable, Sendable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        lhs.order < rhs.order
    }

    /// CLDR's order of the categories: zero, one, two, few, many, other.
    var order: Int {
        switch self {
        case .zero: return 0
        case .one: return 1
        case .two: return 2
        case .few: return 3
        case .many: return 4
        case .other: return 5
        }
    }
}

public enum PluralRules {
    /// The plural category of the integer `count` in `locale`.
    public static func category(of count: Int, in locale: SupportedLocale) -> PluralCategory {
        let n = count.magnitude
        // French, Spanish, Italian and Portuguese: a whole million and its multiples are `many`
        // ("1 000 000 de notes"); CLDR: e = 0 and i != 0 and i % 1000000 = 0 and v = 0.
        let isWholeMillion = n != 0 && n % 1_000_000 == 0
        switch locale {
        case .en, .enXA, .de, .tr:
            return n == 1 ? .one : .other
        case .it, .es, .es419:
            if n == 1 { return .one }
            return isWholeMillion ? .many : .other
        case .fr, .ptBR:
            // CLDR `fr` and `pt` (Brazil): one: i = 0,1 (European Portuguese, `pt-PT`, differs).
            if n <= 1 { return .one }
            return isWholeMillion ? .many : .other
        case .ja, .ko, .zhHans, .zhHant:
            return .other
        case .ar:
            switch (n, n % 100) {
            case (0, _): return .zero
            case (1, _): return .one
            case (2, _): return .two
            case (_, 3...10): return .few
            case (_, 11...99): return .many
            default: return .other
            }
        }
    }

    /// The categories that integers reach in `locale`, in CLDR order.
    public static func categories(for locale: SupportedLocale) -> [PluralCategory] {
        switch locale {
        case .en, .enXA, .de, .tr: [.one, .other]
        case .it, .es, .es419, .fr, .ptBR: [.one, .many, .other]
        case .ja, .ko, .zhHans, .zhHant: [.other]
        case .ar: PluralCategory.allCases
        }
    }
}
