// Messages carried as key and arguments and written in a language when shown; integers as each
// language writes them; the notice when a language is served by another.

import XCTest
import Localization

final class LocalizedTextTests: XCTestCase {
    let catalog = try? Catalog(json: #"""
        {"sourceLanguage": "en", "strings": {
          "a.broken": {"comment": "c", "localizations": {
            "en": {"stringUnit": {"state": "translated", "value": "No note `%1$@` (%2$@)"}},
            "de": {"stringUnit": {"state": "translated", "value": "Keine Notiz `%1$@` (%2$@)"}}}},
          "a.why": {"comment": "c", "localizations": {
            "en": {"stringUnit": {"state": "translated", "value": "root is a guess"}},
            "de": {"stringUnit": {"state": "translated", "value": "Stammordner geraten"}}}},
          "a.count": {"comment": "c", "localizations": {
            "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld note"}},
                                             "other": {"stringUnit": {"state": "translated", "value": "%lld notes"}}}}}}}
        }}
        """#)

    func testAMessageIsWrittenInTheLanguageItIsShownIn() throws {
        let catalog = try XCTUnwrap(catalog)
        let message = LocalizedText("a.broken", "Ideen", .message("a.why"))
        XCTAssertEqual(message.string(in: .en, catalog: catalog), "No note `Ideen` (root is a guess)")
        XCTAssertEqual(message.string(in: .de, catalog: catalog), "Keine Notiz `Ideen` (Stammordner geraten)")
        // The nested part is accented too; the argument is not.
        XCTAssertEqual(message.string(in: .enXA, catalog: catalog), "[Ñó ñóţé `Ideen` ([ŕóóţ íš á ĝúéšš ······]) ········]")
        XCTAssertEqual(message.key, "a.broken")
        XCTAssertEqual(LocalizedText.verbatim("Permission denied").string(in: .de, catalog: catalog), "Permission denied")
        XCTAssertNil(LocalizedText.verbatim("x").key)
        XCTAssertEqual(LocalizedText("a.count", 1234).string(in: .de, catalog: catalog), "1.234 notes")
        XCTAssertEqual(LocalizedText("no.key").string(in: .de, catalog: catalog), "⟦no.key⟧")
    }

    func testIntegersAreGroupedTheWayEachLanguageWritesThem() {
        let cases: [(SupportedLocale, Int, String)] = [
            (.en, 1234, "1,234"), (.en, 999, "999"), (.en, 1_234_567, "1,234,567"), (.en, -1234, "-1,234"), (.en, 0, "0"),
            (.de, 1234, "1.234"), (.it, 1_000_000, "1.000.000"), (.tr, 12_345, "12.345"), (.ptBR, 1234, "1.234"),
            // Spanish groups from five digits on (CLDR minimumGroupingDigits 2); Latin America writes commas.
            (.es, 1234, "1234"), (.es, 12_345, "12.345"), (.es419, 1234, "1,234"),
            (.fr, 1234, "1\u{202F}234"), (.ja, 1234, "1,234"), (.zhHant, 1234, "1,234"), (.ko, 1234, "1,234"),
            (.ar, 1234, "١٬٢٣٤"), (.ar, -5, "\u{061C}-٥"), (.enXA, 1234, "1,234"),
            (.en, Int.min, "-9,223,372,036,854,775,808"),
        ]
        for (locale, value, expected) in cases {
            XCTAssertEqual(NumberFormat.integer(value, in: locale), expected, "\(value) in \(locale.rawValue)")
        }
    }

    func testTheWriterIsToldWhenTheirLanguageIsServedByAnother() {
        let portugal = LocaleChoice.forServer(initializeLocale: "pt-PT", initializationOptionsLocale: nil)
        XCTAssertEqual(portugal.locale, .ptBR)
        XCTAssertEqual(portugal.notice?.english, "MacMD has no translation for `pt-PT`; it uses Brazilian Portuguese instead.")
        XCTAssertEqual(portugal.notice?.string(in: .ptBR),
                       "O MacMD não tem tradução para `pt-PT` e usa o português do Brasil no lugar.")
        let russian = LocaleChoice.forServer(initializeLocale: "ru", initializationOptionsLocale: nil)
        XCTAssertEqual(russian.locale, .en)
        XCTAssertEqual(russian.notice?.english, "MacMD has no translation for `ru` yet; it speaks English.")
        XCTAssertNil(LocaleChoice.forServer(initializeLocale: "de-AT", initializationOptionsLocale: nil).notice)
    }

    func testAServerToldNothingReadsItsEnvironment() {
        let cases: [(initialize: String?, environment: [String: String], expected: SupportedLocale, notice: Bool)] = [
            (nil, ["LANG": "de_DE.UTF-8"], .de, false),
            (nil, ["LANG": "de_DE.UTF-8", "LC_ALL": "ja_JP.UTF-8"], .ja, false),
            ("fr", ["LANG": "de_DE.UTF-8"], .fr, false),
            // A language of the shell that MacMD lacks: English, without a notice nobody asked for.
            (nil, ["LANG": "ru_RU.UTF-8"], .en, false),
            (nil, ["LANG": "pt_PT.UTF-8"], .ptBR, true),
            (nil, [:], .en, false),
        ]
        for (initialize, environment, expected, notice) in cases {
            let resolution = LocaleChoice.forServer(initializeLocale: initialize, initializationOptionsLocale: nil, environment: environment)
            XCTAssertEqual(resolution.locale, expected, "\(environment)")
            XCTAssertEqual(resolution.notice != nil, notice, "\(environment)")
        }
    }

    func testEveryLanguageHasANameInEveryLanguage() {
        for locale in SupportedLocale.allCases {
            for shownIn in SupportedLocale.allCases {
                let name = locale.name.string(in: shownIn)
                XCTAssertFalse(name.hasPrefix("⟦"), "\(locale.rawValue) in \(shownIn.rawValue)")
            }
        }
        XCTAssertEqual(SupportedLocale.de.name.string(in: .de), "Deutsch")
        XCTAssertEqual(SupportedLocale.ja.name.string(in: .fr), "japonais")
    }

    /// The catalog read for one locale writes every message as the whole catalog does, and holds
    /// only the languages of that locale's chain.
    func testTheCatalogReadForOneLocaleWritesWhatTheWholeCatalogWrites() throws {
        let whole = try Catalog(json: Catalog.builtInJSON)
        for locale in SupportedLocale.allCases {
            let one = Catalog.builtIn(for: locale)
            XCTAssertEqual(Set(one.entries.keys), Set(whole.entries.keys), locale.rawValue)
            let languages = Set(one.entries.values.flatMap(\.translations.keys))
            XCTAssertEqual(languages, Set(locale.fallbackChain.map(\.rawValue)), locale.rawValue)
            XCTAssertTrue(one.entries.values.allSatisfy { $0.comment == nil }, locale.rawValue)
            for key in whole.entries.keys {
                let arguments: [CatalogArgument] = ["Ideen", 3, "x", "y", "z"]
                XCTAssertEqual(one.string(key, locale: locale, arguments: arguments), whole.string(key, locale: locale, arguments: arguments),
                               "\(key) \(locale.rawValue)")
            }
        }
    }
}
