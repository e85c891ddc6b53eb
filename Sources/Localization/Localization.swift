// Localization: which language MacMD speaks, and the strings it speaks in it. This file holds
// the choice of language: parsing a locale tag and resolving it against the supported set.
//
// Invariants:
// - Nothing here reads the environment, the disk or the wire: callers pass the tags and the
//   environment in, so the choice is a pure function and tests are tables.
// - Resolution never fails: any text, empty or garbled, resolves to a supported locale, and
//   English (`en`, the source language) is the last resort.
// - Fallback runs region → language → English, and never across scripts: `zh-Hant` falls back
//   to English, not to `zh-Hans`. A resolution that serves another variant of the language
//   (`pt-PT` → `pt-BR`) or another language (`ru` → `en`) says so in `match`, for the caller to
//   tell the writer.
// - The module depends on nothing (no Foundation: the catalog's JSON has its own small reader),
//   and the catalog is compiled in (`Catalog+Strings.swift`), so the binary needs no resource
//   bundle at run time.

/// A locale tag taken apart: `zh-Hant-TW`, `pt_PT.UTF-8`, `es-419`, `de_DE@euro`.
///
/// Only the language, script and region are kept; variants, extensions (`-u-…`) and the POSIX
/// codeset and modifier are dropped. The language is lowercased, the script titlecased and the
/// region uppercased, so comparisons are exact.
public struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
    public var language: String
    public var script: String?
    public var region: String?

    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// The tag of `text`, or nil when it has no language (empty, `C`, `POSIX`, not a tag).
    public init?(parsing text: String) {
        // POSIX: language[_territory][.codeset][@modifier]; drop the codeset and the modifier.
        var body = Substring(text.trimmingSpaces)
        if let cut = body.firstIndex(where: { $0 == "." || $0 == "@" }) { body = body[..<cut] }
        let subtags = body.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter) else {
            return nil
        }
        language = first.lowercased()
        for subtag in subtags.dropFirst() {
            if subtag.count == 1 { break }  // a singleton starts an extension or private use
            if subtag.count == 4, subtag.allSatisfy(\.isASCIILetter), script == nil, region == nil {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil,
                      (subtag.count == 2 && subtag.allSatisfy(\.isASCIILetter))
                        || (subtag.count == 3 && subtag.allSatisfy(\.isASCIIDigit)) {
                region = subtag.uppercased()
            }
        }
    }

    /// The BCP 47 spelling: `zh-Hant-TW`.
    public var description: String {
        ([language] + [script, region].compactMap { $0 }).joined(separator: "-")
    }
}

/// The languages MacMD has (or will have) strings for, plus the pseudo-locale `en-XA`.
public enum SupportedLocale: String, CaseIterable, Sendable {
    case en, de, es
    case es419 = "es-419"
    case fr, it, ja, ko
    case ptBR = "pt-BR"
    case tr
    case zhHans = "zh-Hans"
    case zhHant = "zh-Hant"
    case ar
    /// Pseudo-English: the English strings accented, bracketed and stretched (`PseudoLocale`).
    case enXA = "en-XA"

    /// The source language: every key has a string in it, and every chain ends in it.
    public static let source = SupportedLocale.en

    /// The catalog languages to look a string up in, best first; always ends in `en`.
    /// `en-XA` has no strings of its own: it reads English and transforms it.
    public var fallbackChain: [SupportedLocale] {
        switch self {
        case .en, .enXA: [.en]
        case .es419: [.es419, .es, .en]
        default: [self, .en]
        }
    }

    /// The language's name, in the language the message is shown in.
    public var name: LocalizedText {
        switch self {
        case .en: LocalizedText("language.en")
        case .de: LocalizedText("language.de")
        case .es: LocalizedText("language.es")
        case .es419: LocalizedText("language.es419")
        case .fr: LocalizedText("language.fr")
        case .it: LocalizedText("language.it")
        case .ja: LocalizedText("language.ja")
        case .ko: LocalizedText("language.ko")
        case .ptBR: LocalizedText("language.ptBR")
        case .tr: LocalizedText("language.tr")
        case .zhHans: LocalizedText("language.zhHans")
        case .zhHant: LocalizedText("language.zhHant")
        case .ar: LocalizedText("language.ar")
        case .enXA: LocalizedText("language.enXA")
        }
    }

    /// Whether text in this language runs right to left.
    public var isRightToLeft: Bool { self == .ar }
}

/// How a requested tag was served.
public enum LocaleMatch: Sendable, Equatable {
    /// The tag names a supported locale, or a region of it with nothing closer (`de-AT` → `de`).
    case exact
    /// Another variant of the same language serves it (`pt-PT` → `pt-BR`): say so.
    case substitute
    /// The language is not supported, or nothing was asked for: English serves it.
    case source
}

/// The outcome of choosing a language: what was asked, what serves it, and how.
public struct LocaleResolution: Sendable, Equatable {
    /// The text the choice came from, as given; nil when nothing was asked for.
    public var requested: String?
    public var locale: SupportedLocale
    public var match: LocaleMatch

    public init(requested: String?, locale: SupportedLocale, match: LocaleMatch) {
        self.requested = requested
        self.locale = locale
        self.match = match
    }

    /// Whether the caller should tell the writer that their language is not served as asked:
    /// a substitute, or English for a language that was asked for.
    public var shouldNotify: Bool {
        switch match {
        case .exact: false
        case .substitute: true
        case .source: requested != nil
        }
    }

    /// What to tell the writer when their language is not served as asked (nil when it is), to
    /// be shown in `locale`.
    public var notice: LocalizedText? {
        guard shouldNotify, let requested else { return nil }
        return match == .substitute
            ? LocalizedText("locale.notice.substitute", .string(requested), .text(locale.name))
            : LocalizedText("locale.notice.unsupported", .string(requested))
    }
}

public enum LocaleChoice {
    /// Spanish regions of Latin America and the Caribbean (and the US), served by `es-419`.
    static let latinAmericanSpanishRegions: Set<String> = [
        "419", "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI",
        "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE",
    ]
    /// Chinese regions that write Traditional characters.
    static let traditionalChineseRegions: Set<String> = ["TW", "HK", "MO"]

    /// The supported locale serving `tag`.
    public static func resolve(_ tag: LocaleTag) -> (SupportedLocale, LocaleMatch) {
        switch tag.language {
        case "en":
            return (tag.region == "XA" ? .enXA : .en, .exact)
        case "es":
            if let region = tag.region, latinAmericanSpanishRegions.contains(region) { return (.es419, .exact) }
            return (.es, .exact)
        case "pt":
            // Only Brazilian Portuguese is translated; European and African Portuguese read it.
            return (.ptBR, tag.region == nil || tag.region == "BR" ? .exact : .substitute)
        case "zh":
            switch tag.script {
            case "Hant": return (.zhHant, .exact)
            case "Hans": return (.zhHans, .exact)
            default:
                if let region = tag.region, traditionalChineseRegions.contains(region) { return (.zhHant, .exact) }
                return (.zhHans, .exact)
            }
        default:
            if let locale = SupportedLocale(rawValue: tag.language) { return (locale, .exact) }
            return (.source, .source)
        }
    }

    /// The supported locale serving `text` (a tag in BCP 47 or POSIX spelling).
    public static func resolve(_ text: String?) -> LocaleResolution {
        guard let text, let tag = LocaleTag(parsing: text) else {
            return LocaleResolution(requested: text.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0 },
                                    locale: .source, match: .source)
        }
        let (locale, match) = resolve(tag)
        return LocaleResolution(requested: text, locale: locale, match: match)
    }

    /// The language of a language-server session: `initializationOptions.locale` if given,
    /// else the `locale` of the `initialize` params, else the server's environment as the
    /// command line reads it (`forCommandLine`: an editor that says nothing, such as Neovim or
    /// Emacs, started from a German shell gets German), else English. A language of the
    /// environment that MacMD lacks is not worth a notice: nobody asked for it by name.
    public static func forServer(initializeLocale: String?, initializationOptionsLocale: String?,
                                 environment: [String: String] = [:]) -> LocaleResolution {
        for text in [initializationOptionsLocale, initializeLocale] {
            if let text, !text.trimmingSpaces.isEmpty { return resolve(text) }
        }
        var fromEnvironment = forCommandLine(environment: environment)
        if fromEnvironment.match == .source { fromEnvironment.requested = nil }
        return fromEnvironment
    }

    /// The writer's language for dates (the month and day names of snippets), as a language
    /// code: the locale variables that name it for dates (`LC_ALL`, then `LC_TIME`), else the
    /// client's `locale`, else `LANG`, else `en`. A value such as `de_DE.UTF-8` gives `de_DE`;
    /// `C` and `POSIX` say nothing. Any language goes, not only the catalog's: calendars know
    /// more languages than MacMD's messages do.
    public static func dateLanguage(clientLocale: String?, environment: [String: String]) -> String {
        func language(_ value: String?) -> String? {
            guard let value else { return nil }
            let code = String(value.prefix { $0 != "." && $0 != "@" })
            return code.isEmpty || code == "C" || code == "POSIX" ? nil : code
        }
        return language(environment["LC_ALL"]) ?? language(environment["LC_TIME"]) ?? language(clientLocale)
            ?? language(environment["LANG"]) ?? "en"
    }

    /// The language of the command line, by POSIX precedence: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty decides; `C` and `POSIX` mean English.
    public static func forCommandLine(environment: [String: String]) -> LocaleResolution {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.trimmingSpaces.isEmpty else { continue }
            let bare = value.split(separator: ".").first.map(String.init) ?? value
            if bare == "C" || bare == "POSIX" {
                return LocaleResolution(requested: value, locale: .en, match: .exact)
            }
            return resolve(value)
        }
        return resolve(nil)
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line endings.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...last])
    }
}
