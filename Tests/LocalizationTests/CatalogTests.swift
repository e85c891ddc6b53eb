// Tests of catalog reading and lookup: the `.xcstrings` shape, placeholders (positional and in
// order), plural variations by the CLDR category of the first integer argument, the fallback
// chain, and missing keys. The catalogs are small inline fixtures, so each case shows its data.

import XCTest
import Localization

final class CatalogTests: XCTestCase {
    /// A catalog in the `.xcstrings` shape with a plain string, a reordered translation, a plural
    /// and a string only Spanish has.
    let fixture = #"""
    {
      "sourceLanguage" : "en", "version" : "1.0",
      "strings" : {
        "link.broken" : {
          "comment" : "A link to nothing.",
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "No note `%1$@` for `%2$@`" } },
            "de" : { "stringUnit" : { "state" : "translated", "value" : "Für `%2$@` gibt es keine Notiz `%1$@`" } }
          }
        },
        "notes.count" : {
          "comment" : "A count of notes.",
          "localizations" : {
            "en" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld note" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld notes" } } } } },
            "ar" : { "variations" : { "plural" : {
              "zero" : { "stringUnit" : { "state" : "translated", "value" : "zero" } },
              "one" : { "stringUnit" : { "state" : "translated", "value" : "one" } },
              "two" : { "stringUnit" : { "state" : "translated", "value" : "two" } },
              "few" : { "stringUnit" : { "state" : "translated", "value" : "few %lld" } },
              "many" : { "stringUnit" : { "state" : "translated", "value" : "many %lld" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "other %lld" } } } } },
            "fr" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld note" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld notes (fr)" } } } } }
          }
        },
        "tag.count" : {
          "comment" : "A tag and a count.",
          "localizations" : {
            "en" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "#%@ in %lld note" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "#%@ in %lld notes" } } } } }
          }
        },
        "spanish.only" : {
          "comment" : "Only Spanish, and a percent sign.",
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "100%% done" } },
            "es" : { "stringUnit" : { "state" : "translated", "value" : "100%% hecho, \u00e9xito \ud83d\ude00" } }
          }
        }
      }
    }
    """#

    func testLookups() throws {
        let catalog = try Catalog(json: fixture)
        let cases: [(key: String, locale: SupportedLocale, arguments: [CatalogArgument], expected: String)] = [
            ("link.broken", .en, ["Ideas", "see"], "No note `Ideas` for `see`"),
            ("link.broken", .de, ["Ideen", "siehe"], "Für `siehe` gibt es keine Notiz `Ideen`"),
            ("link.broken", .ja, ["x", "y"], "No note `x` for `y`"),
            ("link.broken", .en, ["only one"], "No note `only one` for `%2$@`"),
            ("link.broken", .en, [], "No note `%1$@` for `%2$@`"),
            ("notes.count", .en, [1], "1 note"),
            ("notes.count", .en, [0], "0 notes"),
            ("notes.count", .en, [2], "2 notes"),
            ("notes.count", .fr, [0], "0 note"),
            ("notes.count", .fr, [2], "2 notes (fr)"),
            ("notes.count", .fr, [1_000_000], "1\u{202F}000\u{202F}000 notes (fr)"),
            ("notes.count", .ar, [0], "zero"),
            ("notes.count", .ar, [1], "one"),
            ("notes.count", .ar, [2], "two"),
            ("notes.count", .ar, [3], "few ٣"),
            ("notes.count", .ar, [11], "many ١١"),
            ("notes.count", .ar, [100], "other ١٠٠"),
            ("notes.count", .ar, [], "zero"),
            ("notes.count", .de, [1], "1 note"),
            ("notes.count", .de, [5], "5 notes"),
            ("tag.count", .en, ["idea", 1], "#idea in 1 note"),
            ("tag.count", .en, ["idea", 7], "#idea in 7 notes"),
            ("tag.count", .en, [.string("42"), .integer(1)], "#42 in 1 note"),
            ("spanish.only", .en, [], "100% done"),
            ("spanish.only", .es, [], "100% hecho, éxito 😀"),
            ("spanish.only", .es419, [], "100% hecho, éxito 😀"),
            ("spanish.only", .ptBR, [], "100% done"),
            ("nowhere.key", .de, [], "⟦nowhere.key⟧"),
        ]
        for (key, locale, arguments, expected) in cases {
            XCTAssertEqual(catalog.string(key, locale: locale, arguments: arguments), expected, "\(key) \(locale.rawValue) \(arguments)")
        }
    }

    func testThePseudoLocaleAccentsThePatternButNotTheArguments() throws {
        let catalog = try Catalog(json: fixture)
        XCTAssertEqual(catalog.string("link.broken", locale: .enXA, "Ideas", "see"),
                       "[Ñó ñóţé `Ideas` ƒóŕ `see` ··········]")
        XCTAssertEqual(catalog.string("notes.count", locale: .enXA, 3), "[3 ñóţéš ····]")
    }

    func testPlaceholders() {
        let cases: [(pattern: String, expected: [String])] = [
            ("%@ and %lld", ["1:string", "2:integer"]),
            ("%2$lld then %1$@", ["2:integer", "1:string"]),
            ("%d %ld %lld", ["1:integer", "2:integer", "3:integer"]),
            ("100%% %@", ["1:string"]),
            ("%2$@ %@", ["2:string", "3:string"]),
            ("% %q %0$@ %$@ %", []),
            ("", []),
        ]
        for (pattern, expected) in cases {
            let found = FormatString.placeholders(in: pattern).map { "\($0.position):\($0.type == .string ? "string" : "integer")" }
            XCTAssertEqual(found, expected, pattern)
        }
    }

    func testMalformedCatalogsThrow() {
        let cases: [(json: String, message: String)] = [
            ("", "expected a JSON value"),
            ("{", "expected '\"'"),
            (#"{"strings": {}}"#, "no \"sourceLanguage\""),
            (#"{"sourceLanguage": "en"}"#, "no \"strings\" object"),
            (#"{"sourceLanguage": "en", "strings": {"a.b": {"localizations": {"en": {}}}}}"#,
             "a.b.en: neither a stringUnit nor plural variations"),
            (#"{"sourceLanguage": "en", "strings": {"a.b": {"localizations": {"en": {"variations": {"plural": {"one": {"stringUnit": {"value": "x"}}}}}}}}}"#,
             "a.b.en: no \"other\" variation"),
            (#"{"sourceLanguage": "en", "strings": {"a.b": {"localizations": {"en": {"variations": {"plural": {"lots": {"stringUnit": {"value": "x"}}}}}}}}}"#,
             "a.b.en: unknown plural category \"lots\""),
            (#"{"sourceLanguage": "en", "strings": {"a.b": {}, "a.b": {}}}"#, "the member \"a.b\" appears twice"),
            (#"{"sourceLanguage": "en", "strings": {}} x"#, "text after the JSON value"),
            (#"{"sourceLanguage": "\ud800", "strings": {}}"#, "a lone UTF-16 surrogate"),
            (String(repeating: "[", count: 100), "nested deeper than 32"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try Catalog(json: json), json) { error in
                XCTAssertEqual((error as? CatalogError)?.message, message, json)
            }
        }
    }
}
