// PseudoLocale: the pseudo-locale `en-XA`, English made to look foreign so that text which
// escaped the catalog (plain English), text cut off by the editor (no closing `]`) and layouts
// too tight for longer languages all show at a glance.
//
// Invariants:
// - Every ASCII Latin letter outside protected spans is swapped for a fixed accented one; the
//   map is one to one, so the English stays readable.
// - Protected spans pass unchanged: placeholders (`%@`, `%2$lld`, `%%`), code spans in
//   backticks, tags in angle brackets, and the destination of a Markdown link `](…)`.
// - The result is `[` + the text + ` ` + padding + `]`, the padding being `·` repeated for about
//   40% of the text's length in characters (at least one), so a transformed text is recognisable
//   and a second transformation is not needed.

public enum PseudoLocale {
    /// Lowercase then uppercase ASCII letters, each with its accented stand-in.
    static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let accented = Array("áƀçðéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, accented))
    }()

    /// The character that stretches a text.
    public static let padding: Character = "·"

    /// `text` accented, bracketed and stretched by about 40%.
    public static func transform(_ text: String) -> String {
        var result = "["
        let placeholders = FormatString.placeholders(in: text)
        var index = text.startIndex
        while index < text.endIndex {
            if let end = protectedSpanEnd(in: text, at: index, placeholders: placeholders) {
                result += text[index..<end]
                index = end
                continue
            }
            let character = text[index]
            result.append(accents[character] ?? character)
            index = text.index(after: index)
        }
        let stretch = max(1, (text.count * 4 + 5) / 10)
        return result + " " + String(repeating: padding, count: stretch) + "]"
    }

    /// The end of the protected span that starts at `index`, or nil when none starts there.
    static func protectedSpanEnd(in text: String, at index: String.Index, placeholders: [FormatString.Placeholder]) -> String.Index? {
        switch text[index] {
        case "%":
            if let placeholder = placeholders.first(where: { $0.range.lowerBound == index }) { return placeholder.range.upperBound }
            let next = text.index(after: index)
            return next < text.endIndex && text[next] == "%" ? text.index(after: next) : nil
        case "`":
            return closing("`", in: text, after: index)
        case "<":
            return closing(">", in: text, after: index)
        case "]":
            let next = text.index(after: index)
            guard next < text.endIndex, text[next] == "(" else { return nil }
            return closing(")", in: text, after: next)
        default:
            return nil
        }
    }

    /// The index after the first `delimiter` following `index`; nil when there is none.
    private static func closing(_ delimiter: Character, in text: String, after index: String.Index) -> String.Index? {
        let start = text.index(after: index)
        guard let end = text[start...].firstIndex(of: delimiter) else { return nil }
        return text.index(after: end)
    }
}
