// Table-driven tests of the choice of language: parsing tags in BCP 47 and POSIX spelling,
// resolving them against the supported set (region → language → English, with substitutions
// reported), and the precedence of the server's and the command line's sources.

import XCTest
import Localization

final class LocaleChoiceTests: XCTestCase {
    func testParsingTags() {
        let cases: [(text: String, expected: String?)] = [
            ("en", "en"),
            ("es-419", "es-419"),
            ("pt_PT.UTF-8", "pt-PT"),
            ("de_DE@euro", "de-DE"),
            ("de_DE.ISO-8859-15@euro", "de-DE"),
            ("zh-Hant-TW", "zh-Hant-TW"),
            ("ZH-hant-tw", "zh-Hant-TW"),
            ("zh_Hans_CN", "zh-Hans-CN"),
            ("en-XA", "en-XA"),
            ("  fr-CA \n", "fr-CA"),
            ("sr-Latn-RS-u-nu-latn", "sr-Latn-RS"),
            ("en-x-private", "en"),
            ("de-1996", "de"),
            ("C", nil),
            ("POSIX", nil),
            ("", nil),
            ("1234", nil),
            ("deutsch", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(LocaleTag(parsing: text)?.description, expected, text)
        }
    }

    func testResolution() {
        let cases: [(text: String?, locale: SupportedLocale, match: LocaleMatch)] = [
            ("en", .en, .exact),
            ("en-US", .en, .exact),
            ("en-GB", .en, .exact),
            ("en-XA", .enXA, .exact),
            ("de", .de, .exact),
            ("de-AT", .de, .exact),
            ("de_CH.UTF-8", .de, .exact),
            ("es", .es, .exact),
            ("es-ES", .es, .exact),
            ("es-419", .es419, .exact),
            ("es-MX", .es419, .exact),
            ("es_AR.UTF-8", .es419, .exact),
            ("fr-CA", .fr, .exact),
            ("it-CH", .it, .exact),
            ("ja-JP", .ja, .exact),
            ("ko_KR.UTF-8", .ko, .exact),
            ("pt-BR", .ptBR, .exact),
            ("pt", .ptBR, .exact),
            ("pt-PT", .ptBR, .substitute),
            ("pt_PT.UTF-8", .ptBR, .substitute),
            ("pt-AO", .ptBR, .substitute),
            ("tr-TR", .tr, .exact),
            ("zh", .zhHans, .exact),
            ("zh-CN", .zhHans, .exact),
            ("zh-SG", .zhHans, .exact),
            ("zh-TW", .zhHant, .exact),
            ("zh-HK", .zhHant, .exact),
            ("zh-MO", .zhHant, .exact),
            ("zh-Hant", .zhHant, .exact),
            ("zh-Hans-HK", .zhHans, .exact),
            ("zh-Hant-CN", .zhHant, .exact),
            ("ar", .ar, .exact),
            ("ar-EG", .ar, .exact),
            ("ru-RU", .en, .source),
            ("nl", .en, .source),
            ("garbage!", .en, .source),
            (nil, .en, .source),
        ]
        for (text, locale, match) in cases {
            let resolution = LocaleChoice.resolve(text)
            XCTAssertEqual(resolution.locale, locale, text ?? "nil")
            XCTAssertEqual(resolution.match, match, text ?? "nil")
        }
    }

    func testWhenToTellTheWriter() {
        XCTAssertTrue(LocaleChoice.resolve("pt-PT").shouldNotify)
        XCTAssertTrue(LocaleChoice.resolve("ru").shouldNotify)
        XCTAssertFalse(LocaleChoice.resolve("de-AT").shouldNotify)
        XCTAssertFalse(LocaleChoice.resolve(nil).shouldNotify)
        XCTAssertFalse(LocaleChoice.resolve("").shouldNotify)
    }

    func testEveryLocaleResolvesToItself() {
        for locale in SupportedLocale.allCases {
            XCTAssertEqual(LocaleChoice.resolve(locale.rawValue), LocaleResolution(requested: locale.rawValue, locale: locale, match: .exact))
            XCTAssertEqual(locale.fallbackChain.last, .en, locale.rawValue)
        }
        XCTAssertEqual(SupportedLocale.es419.fallbackChain, [.es419, .es, .en])
        XCTAssertEqual(SupportedLocale.zhHant.fallbackChain, [.zhHant, .en])
        XCTAssertEqual(SupportedLocale.enXA.fallbackChain, [.en])
    }

    func testTheServerPrefersInitializationOptions() {
        let cases: [(initialize: String?, options: String?, expected: SupportedLocale)] = [
            (nil, nil, .en),
            ("de", nil, .de),
            ("de", "ja", .ja),
            (nil, "es-419", .es419),
            ("ar", "", .ar),
            ("ar", "  ", .ar),
            ("fr", "xx-unknown", .en),
        ]
        for (initialize, options, expected) in cases {
            let resolution = LocaleChoice.forServer(initializeLocale: initialize, initializationOptionsLocale: options)
            XCTAssertEqual(resolution.locale, expected, "\(initialize ?? "nil") / \(options ?? "nil")")
        }
    }

    func testTheCommandLineReadsLCALLThenLCMESSAGESThenLANG() {
        let cases: [(environment: [String: String], expected: SupportedLocale, match: LocaleMatch)] = [
            ([:], .en, .source),
            (["LANG": "de_DE.UTF-8"], .de, .exact),
            (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"], .ja, .exact),
            (["LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LC_ALL": "ko_KR.UTF-8"], .ko, .exact),
            (["LANG": "de_DE.UTF-8", "LC_ALL": ""], .de, .exact),
            (["LANG": "de_DE.UTF-8", "LC_ALL": "C"], .en, .exact),
            (["LANG": "de_DE.UTF-8", "LC_ALL": "C.UTF-8"], .en, .exact),
            (["LANG": "POSIX"], .en, .exact),
            (["LANG": "pt_PT.UTF-8"], .ptBR, .substitute),
            (["LC_MESSAGES": "zh_TW.UTF-8"], .zhHant, .exact),
            (["LC_CTYPE": "fr_FR.UTF-8"], .en, .source),
        ]
        for (environment, expected, match) in cases {
            let resolution = LocaleChoice.forCommandLine(environment: environment)
            XCTAssertEqual(resolution.locale, expected, "\(environment)")
            XCTAssertEqual(resolution.match, match, "\(environment)")
        }
    }

    /// The language of month and day names: the locale variables for dates first, then the
    /// client's `locale`, then `LANG`; encodings and modifiers dropped, `C` and `POSIX` skipped.
    func testTheWritersLanguageForDates() {
        let cases: [([String: String], String?, String)] = [
            ([:], nil, "en"),
            ([:], "fr", "fr"),
            (["LANG": "de_DE.UTF-8"], nil, "de_DE"),
            (["LANG": "de_DE.UTF-8"], "fr", "fr"),
            (["LC_TIME": "sv_SE.UTF-8", "LANG": "de_DE.UTF-8"], "fr", "sv_SE"),
            (["LC_ALL": "pl_PL@euro", "LC_TIME": "sv_SE"], "fr", "pl_PL"),
            (["LC_ALL": "C", "LC_TIME": "POSIX", "LANG": "C.UTF-8"], nil, "en"),
        ]
        for (environment, locale, expected) in cases {
            XCTAssertEqual(LocaleChoice.dateLanguage(clientLocale: locale, environment: environment), expected,
                           "\(environment) locale \(locale ?? "none")")
        }
    }
}
