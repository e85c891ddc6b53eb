// Catalog: the strings of every language, in the String Catalog (`.xcstrings`) shape, and the
// lookup that picks a language's string, its plural variation, and fills in the arguments.
//
// Invariants:
// - A lookup never fails and never traps: a missing key gives the key itself, marked
//   (`Catalog.missing`); a missing language falls back along `SupportedLocale.fallbackChain` to
//   English; a missing plural category falls back to `other`; a placeholder without its argument
//   stays as written.
// - Arguments are user content and are never transformed: the pseudo-locale accents the pattern
//   before the arguments go in.
// - The plural variation is chosen by the CLDR category (`PluralRules`) of the first integer
//   argument, in the language of the translation that is used (not the one asked for).

import Locks

/// One argument of a catalog string: `%@` takes a string (or a message of its own, shown in the
/// same language), `%lld` an integer (written with the language's digit grouping).
public enum CatalogArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case integer(Int)
    /// A message of the catalog in place of a `%@`: a part that is itself translated.
    indirect case text(LocalizedText)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// The text the argument puts in place of its placeholder in `locale`, whatever the
    /// placeholder's type.
    func text(in locale: SupportedLocale, catalog: Catalog) -> String {
        switch self {
        case let .string(text): text
        case let .integer(number): NumberFormat.integer(number, in: locale)
        case let .text(message): message.string(in: locale, catalog: catalog)
        }
    }
}

/// The string of one key in one language: one value, or one per plural category.
public enum CatalogTranslation: Sendable, Equatable {
    case value(String)
    case plural([PluralCategory: String])

    /// Every pattern of the translation (one, or one per category).
    public var patterns: [String] {
        switch self {
        case let .value(text): [text]
        case let .plural(variations): variations.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}

/// One key of the catalog: its comment for translators and its translations by language code.
public struct CatalogEntry: Sendable, Equatable {
    public var comment: String?
    public var translations: [String: CatalogTranslation]
}

/// A string catalog: keys → comment and translations.
public struct Catalog: Sendable {
    public var sourceLanguage: String
    public var entries: [String: CatalogEntry]

    /// The catalog compiled into MacMD (`Catalog+Strings.swift`). It is checked by the tests; were
    /// it ever unreadable, every lookup would answer with the marked key rather than trap.
    public static let builtIn: Catalog = (try? Catalog(json: Catalog.builtInJSON)) ?? Catalog(sourceLanguage: "en", entries: [:])

    /// The catalog compiled into MacMD as `locale` needs it: only the languages of its fallback
    /// chain, without comments, read once per locale. What messages are written from: a process
    /// writes in one language, and reading every language would cost every start-up time and
    /// memory for the others.
    /// A caller that comes while another reads the same catalog waits for that read rather
    /// than reading it again.
    public static func builtIn(for locale: SupportedLocale) -> Catalog {
        if let catalog = forLocale.withLock({ $0[locale] }) { return catalog }
        return reading.withLock {
            if let catalog = forLocale.withLock({ $0[locale] }) { return catalog }
            let languages = Set(locale.fallbackChain.map(\.rawValue))
            let catalog = (try? Catalog(json: Catalog.builtInJSON, languages: languages)) ?? Catalog(sourceLanguage: "en", entries: [:])
            forLocale.withLock { $0[locale] = catalog }
            return catalog
        }
    }

    private static let forLocale = Locked<[SupportedLocale: Catalog]>([:])
    private static let reading = Lock()

    public init(sourceLanguage: String, entries: [String: CatalogEntry]) {
        self.sourceLanguage = sourceLanguage
        self.entries = entries
    }

    /// Reads a catalog in the `.xcstrings` JSON shape. Only `stringUnit` values and `plural`
    /// variations are understood; other variations (by device) are an error, so they cannot be
    /// dropped silently.
    public init(json text: String) throws(CatalogError) {
        try self.init(json: text, languages: nil)
    }

    /// Reads a catalog keeping only the translations of `languages` (all when nil), and no
    /// comments when it is given.
    public init(json text: String, languages: Set<String>?) throws(CatalogError) {
        // Entries are objects at depth 2 (root, strings, entry); their localizations at depth 3.
        let root: CatalogJSON
        if let languages {
            root = try CatalogJSON.parse(text) { depth, name in
                (depth == 2 && name == "comment") || (depth == 3 && !languages.contains(name))
            }
        } else {
            root = try CatalogJSON.parse(text)
        }
        func shape(_ message: String) -> CatalogError { CatalogError(message: message, utf8Offset: -1) }
        guard let source = root["sourceLanguage"]?.stringValue else { throw shape("no \"sourceLanguage\"") }
        guard case let .object(keys)? = root["strings"] else { throw shape("no \"strings\" object") }
        sourceLanguage = source
        entries = [:]
        for (key, entry) in keys {
            var translations: [String: CatalogTranslation] = [:]
            if case let .object(languages)? = entry["localizations"] {
                for (language, localization) in languages {
                    translations[language] = try Catalog.translation(localization, at: "\(key).\(language)")
                }
            }
            entries[key] = CatalogEntry(comment: entry["comment"]?.stringValue, translations: translations)
        }
    }

    private static func translation(_ json: CatalogJSON, at place: String) throws(CatalogError) -> CatalogTranslation {
        func unitValue(_ json: CatalogJSON?, _ place: String) throws(CatalogError) -> String {
            guard let value = json?["stringUnit"]?["value"]?.stringValue else {
                throw CatalogError(message: "\(place): no stringUnit value", utf8Offset: -1)
            }
            return value
        }
        if json["stringUnit"] != nil { return .value(try unitValue(json, place)) }
        guard case let .object(variations)? = json["variations"]?["plural"] else {
            throw CatalogError(message: "\(place): neither a stringUnit nor plural variations", utf8Offset: -1)
        }
        var plural: [PluralCategory: String] = [:]
        for (name, variation) in variations {
            guard let category = PluralCategory(rawValue: name) else {
                throw CatalogError(message: "\(place): unknown plural category \"\(name)\"", utf8Offset: -1)
            }
            plural[category] = try unitValue(variation, "\(place).\(name)")
        }
        guard plural[.other] != nil else { throw CatalogError(message: "\(place): no \"other\" variation", utf8Offset: -1) }
        return .plural(plural)
    }

    /// What a lookup of a key the catalog lacks gives: the key, marked so it shows.
    public static func missing(_ key: String) -> String { "⟦\(key)⟧" }

    /// The string of `key` in `locale` with `arguments` in place of its placeholders.
    public func string(_ key: String, locale: SupportedLocale, arguments: [CatalogArgument] = []) -> String {
        guard let entry = entries[key] else { return Catalog.missing(key) }
        for language in locale.fallbackChain {
            guard let translation = entry.translations[language.rawValue] else { continue }
            var pattern: String
            switch translation {
            case let .value(text):
                pattern = text
            case let .plural(variations):
                let count = arguments.lazy.compactMap { argument -> Int? in
                    if case let .integer(number) = argument { return number }
                    return nil
                }.first ?? 0
                let category = PluralRules.category(of: count, in: language)
                pattern = variations[category] ?? variations[.other] ?? ""
            }
            if locale == .enXA { pattern = PseudoLocale.transform(pattern) }
            return FormatString.format(pattern, arguments.map { $0.text(in: locale, catalog: self) })
        }
        return Catalog.missing(key)
    }

    public func string(_ key: String, locale: SupportedLocale, _ arguments: CatalogArgument...) -> String {
        string(key, locale: locale, arguments: arguments)
    }
}

/// The printf-style placeholders of catalog strings: `%@` (a string), `%lld` (an integer; `%d`
/// and `%ld` too), each optionally positional (`%2$@`), and `%%` for a percent sign.
public enum FormatString {
    public enum ArgumentType: Sendable, Equatable { case string, integer }

    /// One placeholder: its 1-based argument position, its type, and where it is in the pattern.
    public struct Placeholder: Sendable, Equatable {
        public var position: Int
        public var type: ArgumentType
        public var range: Range<String.Index>
    }

    /// The placeholders of `pattern`, in order. Unnumbered placeholders take the positions after
    /// the one before them, as printf counts them; `%%` and anything not understood are skipped.
    public static func placeholders(in pattern: String) -> [Placeholder] {
        var found: [Placeholder] = []
        var next = 1
        var index = pattern.startIndex
        while let percent = pattern[index...].firstIndex(of: "%") {
            var cursor = pattern.index(after: percent)
            index = cursor
            guard cursor < pattern.endIndex else { break }
            if pattern[cursor] == "%" { index = pattern.index(after: cursor); continue }
            // An optional position: digits then `$`.
            var position: Int?
            var digitsEnd = cursor
            while digitsEnd < pattern.endIndex, let digit = pattern[digitsEnd].wholeNumberValue, pattern[digitsEnd].isASCII {
                position = (position ?? 0) * 10 + digit
                digitsEnd = pattern.index(after: digitsEnd)
                if position! > 99 { break }
            }
            if position != nil {
                guard digitsEnd < pattern.endIndex, pattern[digitsEnd] == "$", position! >= 1 else { continue }
                cursor = pattern.index(after: digitsEnd)
            }
            let rest = pattern[cursor...]
            let type: ArgumentType
            let length: Int
            if rest.hasPrefix("@") { (type, length) = (.string, 1) }
            else if rest.hasPrefix("lld") { (type, length) = (.integer, 3) }
            else if rest.hasPrefix("ld") { (type, length) = (.integer, 2) }
            else if rest.hasPrefix("d") { (type, length) = (.integer, 1) }
            else { continue }
            let end = pattern.index(cursor, offsetBy: length)
            let at = position ?? next
            found.append(Placeholder(position: at, type: type, range: percent..<end))
            next = at + 1
            index = end
        }
        return found
    }

    /// `pattern` with each placeholder replaced by its argument's text and `%%` by `%`. A
    /// placeholder whose argument is missing stays as written.
    public static func format(_ pattern: String, _ arguments: [String]) -> String {
        var result = ""
        var copied = pattern.startIndex
        for placeholder in placeholders(in: pattern) {
            result += unescapingPercents(pattern[copied..<placeholder.range.lowerBound])
            if placeholder.position <= arguments.count {
                result += arguments[placeholder.position - 1]
            } else {
                result += pattern[placeholder.range]
            }
            copied = placeholder.range.upperBound
        }
        return result + unescapingPercents(pattern[copied...])
    }

    private static func unescapingPercents(_ text: Substring) -> String {
        text.contains("%") ? String(text.replacing("%%", with: "%")) : String(text)
    }
}
