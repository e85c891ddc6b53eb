// NumberFormat: integers as each language writes them (`1,234` / `1.234` / `1 234` / `١٬٢٣٤`),
// from CLDR's number symbols, without Foundation (MacMD links no Foundation).
//
// Invariant: only the digits, the grouping separator and the minus sign change; the value reads
// back the same in the language (CLDR `decimalFormats-numberSystem-*`, `symbols-numberSystem-*`,
// `minimumGroupingDigits`).

/// How a language writes integers.
public enum NumberFormat {
    /// The digits, grouping separator and the smallest number of digits before a group separator
    /// is used, per locale (CLDR 46).
    struct Symbols {
        var digits: [String]
        var groupSeparator: String
        /// Spanish writes `1234` but `12.345`: the separator appears from five digits on.
        var minimumGroupingDigits: Int
        var minus: String
    }

    private static let latinDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    private static let arabicIndicDigits = ["٠", "١", "٢", "٣", "٤", "٥", "٦", "٧", "٨", "٩"]

    static func symbols(for locale: SupportedLocale) -> Symbols {
        switch locale {
        case .en, .enXA, .ja, .ko, .zhHans, .zhHant, .es419:
            Symbols(digits: latinDigits, groupSeparator: ",", minimumGroupingDigits: 1, minus: "-")
        case .de, .it, .tr, .ptBR:
            Symbols(digits: latinDigits, groupSeparator: ".", minimumGroupingDigits: 1, minus: "-")
        case .es:
            Symbols(digits: latinDigits, groupSeparator: ".", minimumGroupingDigits: 2, minus: "-")
        case .fr:
            // U+202F NARROW NO-BREAK SPACE: a group never breaks across lines.
            Symbols(digits: latinDigits, groupSeparator: "\u{202F}", minimumGroupingDigits: 1, minus: "-")
        case .ar:
            // CLDR's default numbering system for Arabic: Arabic-Indic digits, U+066C ARABIC
            // THOUSANDS SEPARATOR, and the minus sign with a right-to-left mark before it.
            Symbols(digits: arabicIndicDigits, groupSeparator: "\u{066C}", minimumGroupingDigits: 1, minus: "\u{061C}-")
        }
    }

    /// `value` written the way `locale` writes integers, grouped by thousands.
    public static func integer(_ value: Int, in locale: SupportedLocale) -> String {
        let symbols = symbols(for: locale)
        let magnitude = value.magnitude
        let decimal = String(magnitude)
        let digitCount = decimal.utf8.count
        let grouped = digitCount >= 3 + symbols.minimumGroupingDigits
        var result = value < 0 ? symbols.minus : ""
        for (index, byte) in decimal.utf8.enumerated() {
            if grouped, index > 0, (digitCount - index) % 3 == 0 { result += symbols.groupSeparator }
            result += symbols.digits[Int(byte - UInt8(ascii: "0"))]
        }
        return result
    }
}
