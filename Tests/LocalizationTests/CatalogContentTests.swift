// Tests of the catalog compiled into MacMD (`Catalog+Strings.swift`): it parses, every key is
// well formed and documented, has English, agrees in placeholders across languages, and has the
// plural categories each language needs. Plus one lookup per seeded language, to prove the
// pipeline end to end.

import XCTest
import Localization

final class CatalogContentTests: XCTestCase {
    /// The languages with strings of their own: every one but the pseudo-locale, which reads English.
    let translatedLanguages = SupportedLocale.allCases.filter { $0 != .enXA }

    func catalog() throws -> Catalog {
        try Catalog(json: Catalog.builtInJSON)
    }

    func testItParsesAndIsTheBuiltInCatalog() throws {
        let parsed = try catalog()
        XCTAssertEqual(parsed.sourceLanguage, "en")
        XCTAssertFalse(parsed.entries.isEmpty)
        XCTAssertEqual(Set(Catalog.builtIn.entries.keys), Set(parsed.entries.keys))
    }

    func testKeysAreStableIdentifiersWithACommentAndEnglish() throws {
        for (key, entry) in try catalog().entries {
            let segments = key.split(separator: ".", omittingEmptySubsequences: false)
            XCTAssertGreaterThanOrEqual(segments.count, 2, "\(key): at least two segments")
            for segment in segments {
                let ascii = segment.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
                XCTAssertTrue(ascii && segment.first?.isLowercase == true && segment.count <= 24,
                              "\(key): segment \"\(segment)\" is lower camel case ASCII, short, no spaces")
            }
            XCTAssertFalse((entry.comment ?? "").isEmpty, "\(key): a comment for translators")
            XCTAssertNotNil(entry.translations["en"], "\(key): an English value")
            for language in entry.translations.keys {
                XCTAssertNotNil(SupportedLocale(rawValue: language), "\(key): \(language) is a supported language")
            }
        }
    }

    func testEveryTranslationUsesTheEnglishPlaceholders() throws {
        func signature(_ translation: CatalogTranslation) -> Set<String> {
            Set(translation.patterns.flatMap { FormatString.placeholders(in: $0) }.map { "\($0.position):\($0.type)" })
        }
        for (key, entry) in try catalog().entries {
            guard let english = entry.translations["en"] else { continue }
            let expected = signature(english)
            for pattern in english.patterns {
                // Each English variation shows every argument: only a translation may fold one into words.
                XCTAssertEqual(Set(FormatString.placeholders(in: pattern).map { "\($0.position):\($0.type)" }), expected, "\(key) en: \(pattern)")
            }
            for (language, translation) in entry.translations {
                XCTAssertEqual(signature(translation), expected, "\(key) \(language): same placeholders as en")
                for pattern in translation.patterns {
                    let found = FormatString.placeholders(in: pattern).map { "\($0.position):\($0.type)" }
                    XCTAssertTrue(Set(found).isSubset(of: expected), "\(key) \(language): \(pattern)")
                    XCTAssertEqual(Set(found).count, found.count, "\(key) \(language): an argument used twice in \(pattern)")
                }
            }
        }
    }

    func testPluralsHaveTheCategoriesTheirLanguageNeeds() throws {
        for (key, entry) in try catalog().entries {
            for (language, translation) in entry.translations {
                guard case let .plural(variations) = translation, let locale = SupportedLocale(rawValue: language) else { continue }
                XCTAssertEqual(Set(variations.keys), Set(PluralRules.categories(for: locale)), "\(key) \(language)")
            }
        }
    }

    func testEveryKeyHasEveryLanguage() throws {
        for (key, entry) in try catalog().entries {
            XCTAssertNil(entry.translations[SupportedLocale.enXA.rawValue], "\(key): en-XA is made from English, not translated")
            for locale in translatedLanguages {
                XCTAssertNotNil(entry.translations[locale.rawValue], "\(key): \(locale.rawValue)")
            }
        }
    }

    func testLookupsThroughTheBuiltInCatalog() {
        let catalog = Catalog.builtIn
        let cases: [(key: String, locale: SupportedLocale, arguments: [CatalogArgument], expected: String)] = [
            ("diagnostic.link.brokenNote", .en, ["Ideas", "see also"], "No note `Ideas` for `see also`"),
            ("diagnostic.link.brokenNote", .de, ["Ideen", "siehe"], "Keine Notiz `Ideen` für `siehe`"),
            ("diagnostic.link.brokenNote", .es419, ["Ideas", "ver"], "No hay ninguna nota `Ideas` para `ver`"),
            ("diagnostic.link.brokenNote", .enXA, ["Ideas", "see"], "[Ñó ñóţé `Ideas` ƒóŕ `see` ··········]"),
            ("hover.tag.count", .en, [1], "1 note"),
            ("hover.tag.count", .en, [3], "3 notes"),
            ("hover.tag.count", .de, [1], "1 Notiz"),
            ("hover.tag.count", .de, [0], "0 Notizen"),
            ("hover.tag.count", .ar, [0], "٠ ملاحظة"),
            ("hover.tag.count", .ar, [2], "ملاحظتين"),
            ("hover.tag.count", .ar, [5], "٥ ملاحظات"),
            ("hover.tag.count", .ar, [25], "٢٥ ملاحظة"),
            ("hover.tag.count", .ar, [100], "١٠٠ ملاحظة"),
            ("hover.tag.count", .ja, [1], "1 件のノート"),
            ("hover.tag.used", .de, ["`#projekt`", 3, .message("hover.tag.count", 4)], "`#projekt` — 3-mal in 4 Notizen verwendet"),
            ("hover.tag.used", .ar, ["`#مشروع`", 2, .message("hover.tag.count", 1)], "`#مشروع` — مستخدم مرتين في ملاحظة واحدة"),
            ("no.such.key", .de, [], "⟦no.such.key⟧"),
        ]
        for (key, locale, arguments, expected) in cases {
            XCTAssertEqual(catalog.string(key, locale: locale, arguments: arguments), expected, "\(key) \(locale.rawValue) \(arguments)")
        }
    }
}
