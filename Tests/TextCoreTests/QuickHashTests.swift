import Foundation
import XCTest
@testable import TextCore

/// `quickHash(into:)` must give what the standard library's String hash gives, for every text:
/// tables keyed by it find canonically equivalent names, and `NameTable` keeps hashes made
/// either way.
final class QuickHashTests: XCTestCase {
    /// Every scalar `isInertInNFC` takes, as a string of its own: the quick path runs and hashes
    /// as the standard library does (so the scalar is its own NFC).
    func testEveryInertScalarHashesAsTheStandardLibraryDoes() {
        var inert = 0
        for value in UInt32(0x80)...0x10FFFF where String.isInertInNFC(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            var copy = text
            XCTAssertTrue(copy.withUTF8 { String.isInertInNFC($0) }, "U+\(String(value, radix: 16))")
            XCTAssertEqual(text.quickHashValue, text.hashValue, "U+\(String(value, radix: 16))")
            inert += 1
        }
        XCTAssertGreaterThan(inert, 40_000)
    }

    /// No inert scalar is the second part of a canonical composition (NFC would merge it with
    /// the scalar before it), nor a scalar whose NFD differs while it is taken as inert.
    func testNoInertScalarComposesWithTheOneBefore() {
        for value in UInt32(0xA0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let decomposed = Array(String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars)
            if String.isInertInNFC(value) {
                XCTAssertEqual(Array(String(Character(scalar)).precomposedStringWithCanonicalMapping.unicodeScalars), [scalar],
                               "U+\(String(value, radix: 16)) is taken as inert but is not its own NFC")
            }
            for part in decomposed.dropFirst() {
                XCTAssertFalse(String.isInertInNFC(part.value),
                               "U+\(String(part.value, radix: 16)) composes (into U+\(String(value, radix: 16))) but is taken as inert")
            }
        }
    }

    /// Texts mixing ASCII, inert scalars, combining marks, jamo and singletons, in NFC and
    /// decomposed: the same hash as the standard library's, and equivalent texts alike.
    func testMixedTextsHashAsTheStandardLibraryDoes() {
        let pieces = ["a", "Z", " ", "é", "e\u{301}", "Å", "A\u{30A}", "\u{212B}", "K", "\u{212A}", "ñ", "n\u{303}", "Ж", "日本",
                      "가", "\u{1100}\u{1161}", "\u{1100}", "\u{1161}", "が", "か\u{3099}", "ά", "\u{1F71}", ";", "\u{37E}",
                      "🎉", "👩‍💻", "\u{FE0F}", "क़", "\u{915}\u{93C}", "ไทย", "שלום", "مرحبا", "—", "\u{2000}", ""]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(text.quickHashValue, text.hashValue, text.debugDescription)
        }
        XCTAssertEqual(QuickHashKey("café"), QuickHashKey("cafe\u{301}"))
        XCTAssertEqual(Set([QuickHashKey("café"), QuickHashKey("cafe\u{301}"), QuickHashKey("\u{212A}elvin"), QuickHashKey("Kelvin")]).count, 2)
    }
}
