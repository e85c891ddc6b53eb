// Table-driven tests of the pseudo-locale `en-XA`: letters accented, placeholders and markup
// kept, the text bracketed and stretched by about 40%.

import XCTest
import Localization

final class PseudoLocaleTests: XCTestCase {
    func testTransform() {
        let cases: [(text: String, expected: String)] = [
            ("Create note", "[Çŕéáţé ñóţé ····]"),
            ("ABC xyz", "[ÁƁÇ ẋýž ···]"),
            ("%lld backlinks", "[%lld ƀáçķĺíñķš ······]"),
            ("Tag `#%1$@` in %2$lld notes", "[Ţáĝ `#%1$@` íñ %2$lld ñóţéš ···········]"),
            ("100%% done", "[100%% ðóñé ····]"),
            ("See <kbd>Ctrl</kbd> and [the guide](https://example.com/a)", "[Šéé <kbd>Çţŕĺ</kbd> áñð [ţĥé ĝúíðé](https://example.com/a) ·······················]"),
            ("Ünïcode 東京 stays", "[Üñïçóðé 東京 šţáýš ······]"),
            ("an unclosed `code", "[áñ úñçĺóšéð `çóðé ·······]"),
            ("", "[ ·]"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(PseudoLocale.transform(text), expected, text)
        }
    }

    func testEveryLetterHasItsOwnAccentedStandIn() {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let accented = letters.map { PseudoLocale.transform(String($0)).dropFirst().first! }
        XCTAssertEqual(Set(accented).count, letters.count, "one to one")
        for (letter, stand) in zip(letters, accented) {
            XCTAssertNotEqual(letter, stand)
            XCTAssertEqual(stand.unicodeScalars.count, 1, "\(letter) → \(stand) is one precomposed scalar")
        }
    }

    func testThePlaceholdersSurvive() {
        for text in ["%1$@ and %2$lld", "%@ %lld %d", "`%1$@` %%"] {
            XCTAssertEqual(FormatString.placeholders(in: PseudoLocale.transform(text)).map(\.position),
                           FormatString.placeholders(in: text).map(\.position), text)
        }
    }
}
