import XCTest
import Localization
@testable import NotebookIDE

/// The month and day names of each language: complete tables, the language picked from a
/// writer's language code, and names a writer would notice.
final class SnippetCalendarNamesTests: XCTestCase {
    /// Every language with a table, and the table it reads.
    static let tables: [(code: String, names: SnippetCalendarNames)] = [
        ("ar", .arabic), ("cs", .czech), ("da", .danish), ("de", .german), ("el", .greek), ("en", .english), ("es", .spanish),
        ("fi", .finnish), ("fr", .french), ("hu", .hungarian), ("it", .italian), ("ja", .japanese), ("ko", .korean),
        ("nb", .norwegianBokmal), ("nl", .dutch), ("nn", .norwegianNynorsk), ("no", .norwegianBokmal), ("pl", .polish),
        ("pt", .portuguese), ("ro", .romanian), ("ru", .russian), ("sv", .swedish), ("tr", .turkish), ("uk", .ukrainian),
        ("zh", .chinese), ("zh-hant", .chineseTraditional),
    ]

    func testEveryLanguageHasItsTable() {
        XCTAssertEqual(SnippetCalendarNames.languages, SnippetCalendarNamesTests.tables.map(\.code))
        for (code, names) in SnippetCalendarNamesTests.tables {
            XCTAssertEqual(SnippetCalendarNames.forLanguage(code), names, code)
        }
    }

    func testEveryTableIsComplete() {
        for code in SnippetCalendarNames.languages {
            let names = SnippetCalendarNames.forLanguage(code)
            let lists = [("months", names.months, 12), ("shortMonths", names.shortMonths, 12), ("days", names.days, 7),
                         ("shortDays", names.shortDays, 7)]
            for (label, list, count) in lists {
                XCTAssertEqual(list.count, count, "\(code) \(label)")
                XCTAssertEqual(Set(list).count, list.count, "\(code) \(label) repeats a name: \(list)")
                for name in list {
                    XCTAssertFalse(name.isEmpty, "\(code) \(label)")
                    let ends = [name.unicodeScalars.first, name.unicodeScalars.last].compactMap { $0 }
                    XCTAssertFalse(ends.contains { $0.properties.isWhitespace }, "\(code) \(label) \(name.debugDescription)")
                }
            }
        }
    }

    func testTheLanguageIsTheCodesFirstPart() {
        let cases: [(code: String, names: SnippetCalendarNames)] = [
            ("de", .german), ("de-AT", .german), ("DE_ch", .german), ("fr_CA.UTF-8", .french), ("PT-br", .portuguese),
            ("no", .norwegianBokmal), ("nb-NO", .norwegianBokmal), ("nn", .norwegianNynorsk), ("nn_NO", .norwegianNynorsk),
            ("zh-Hans-CN", .chinese), ("ja_JP.UTF-8", .japanese), ("en-GB", .english),
            // Chinese by script, else by region.
            ("zh", .chinese), ("zh_CN.UTF-8", .chinese), ("zh-SG", .chinese), ("zh-Hans-HK", .chinese),
            ("zh-Hant", .chineseTraditional), ("zh_TW.UTF-8", .chineseTraditional), ("zh-HK", .chineseTraditional),
            ("zh-MO", .chineseTraditional), ("zh-Hant-TW", .chineseTraditional), ("ar_EG.UTF-8", .arabic),
            // No table: English.
            ("xx", .english), ("", .english), ("C", .english), ("POSIX", .english),
        ]
        for (code, names) in cases {
            XCTAssertEqual(SnippetCalendarNames.forLanguage(code), names, code.debugDescription)
        }
    }

    /// Every language MacMD's messages are in has its own month and day names (English only for
    /// English and pseudo-English), and Chinese in the script of the messages.
    func testEveryCatalogLanguageHasItsNames() {
        let expected: [SupportedLocale: SnippetCalendarNames] = [
            .en: .english, .enXA: .english, .de: .german, .es: .spanish, .es419: .spanish, .fr: .french, .it: .italian,
            .ja: .japanese, .ko: .korean, .ptBR: .portuguese, .tr: .turkish, .zhHans: .chinese,
            .zhHant: .chineseTraditional, .ar: .arabic,
        ]
        for locale in SupportedLocale.allCases {
            XCTAssertEqual(SnippetCalendarNames.forLanguage(locale.rawValue), expected[locale], locale.rawValue)
        }
    }

    /// Names a writer would notice if wrong: accents, abbreviations' periods, stand-alone
    /// (nominative) month names, scripts.
    func testNamesAWriterWouldNotice() {
        let cases: [(code: String, list: KeyPath<SnippetCalendarNames, [String]>, index: Int, name: String)] = [
            ("de", \.months, 2, "März"),
            ("de", \.days, 3, "Mittwoch"),
            ("fr", \.months, 1, "février"),
            ("fr", \.shortMonths, 1, "févr."),
            ("fr", \.shortMonths, 7, "août"),
            ("es", \.days, 3, "miércoles"),
            ("es", \.shortDays, 6, "sáb"),
            ("it", \.days, 1, "lunedì"),
            ("pt", \.days, 2, "terça-feira"),
            ("pt", \.months, 2, "março"),
            ("nl", \.shortMonths, 2, "mrt"),
            ("sv", \.days, 6, "lördag"),
            ("da", \.months, 2, "marts"),
            ("nb", \.months, 11, "desember"),
            ("nn", \.days, 1, "måndag"),
            ("nn", \.days, 6, "laurdag"),
            ("fi", \.months, 0, "tammikuu"),
            ("fi", \.days, 1, "maanantai"),
            ("pl", \.months, 0, "styczeń"),
            ("pl", \.months, 9, "październik"),
            ("cs", \.months, 0, "leden"),
            ("cs", \.months, 6, "červenec"),
            ("ru", \.months, 0, "январь"),
            ("ru", \.shortMonths, 1, "февр."),
            ("uk", \.months, 0, "січень"),
            ("uk", \.days, 5, "пʼятниця"),
            ("tr", \.months, 0, "Ocak"),
            ("tr", \.days, 3, "Çarşamba"),
            ("el", \.months, 0, "Ιανουάριος"),
            ("hu", \.days, 4, "csütörtök"),
            ("ro", \.days, 2, "marți"),
            ("ja", \.days, 0, "日曜日"),
            ("ja", \.months, 11, "12月"),
            ("zh", \.months, 0, "一月"),
            ("zh", \.shortMonths, 11, "12月"),
            ("zh", \.shortDays, 0, "周日"),
            ("ko", \.days, 0, "일요일"),
            ("ko", \.shortDays, 6, "토"),
            ("zh-Hant", \.months, 0, "1月"),
            ("zh-Hant", \.shortDays, 0, "週日"),
            ("ar", \.months, 4, "مايو"),
            ("ar", \.days, 5, "الجمعة"),
        ]
        for (code, list, index, name) in cases {
            XCTAssertEqual(SnippetCalendarNames.forLanguage(code)[keyPath: list][index], name, "\(code) \(list) \(index)")
        }
    }

    /// The date variables read the writer's language.
    func testTheDateVariablesFollowTheWritersLanguage() {
        let names = ["CURRENT_MONTH_NAME", "CURRENT_MONTH_NAME_SHORT", "CURRENT_DAY_NAME", "CURRENT_DAY_NAME_SHORT"]
        func values(_ languageCode: String, _ clock: SnippetClock = SnippetTestVariables.clock) -> [SnippetVariables.Resolution] {
            let variables = SnippetVariables(clock: clock, languageCode: languageCode, random: SnippetTestVariables.constant)
            return names.map { variables.resolve($0) }
        }
        // Wednesday 2024-05-01; Friday 2024-03-15.
        let march = SnippetClock(secondsSinceEpoch: 1_710_504_000, utcOffsetSeconds: 0)
        XCTAssertEqual(values("de-DE"), ["Mai", "Mai", "Mittwoch", "Mi"].map(SnippetVariables.Resolution.value))
        XCTAssertEqual(values("de-DE", march), ["März", "Mär", "Freitag", "Fr"].map(SnippetVariables.Resolution.value))
        XCTAssertEqual(values("fr_FR.UTF-8", march), ["mars", "mars", "vendredi", "ven."].map(SnippetVariables.Resolution.value))
        XCTAssertEqual(values("pl", march), ["marzec", "mar", "piątek", "pt."].map(SnippetVariables.Resolution.value))
        XCTAssertEqual(values("xx", march), ["March", "Mar", "Friday", "Fri"].map(SnippetVariables.Resolution.value))
        // Through a snippet's text.
        let template = try? SnippetParser.parse("$CURRENT_DAY_NAME, $CURRENT_DATE. $CURRENT_MONTH_NAME $CURRENT_YEAR").get()
        let variables = SnippetVariables(clock: SnippetTestVariables.clock, languageCode: "de-DE", random: SnippetTestVariables.constant)
        XCTAssertEqual(template?.plainText(variables: variables), "Mittwoch, 01. Mai 2024")
    }
}
