import XCTest
@testable import NotebookIDE

/// Display columns, as a monospaced editor lays text out.
final class DisplayWidthTests: XCTestCase {
    func testColumns() {
        let cases: [(String, Int)] = [
            ("", 0),
            ("abc", 3),
            ("a\tb", 2),  // controls take none
            ("café", 4),
            ("cafe\u{301}", 4),  // a combining acute accent
            ("Ελληνικά", 8),
            ("Привет", 6),
            ("שלום", 4),
            ("नमस्ते", 4),  // two vowel signs and a virama take none
            ("東京", 4),
            ("日本語のテキスト", 16),
            ("한국어", 6),
            ("\u{1100}\u{1161}\u{11A8}", 2),  // conjoining jamo make one syllable
            ("ＡＢＣ", 6),  // fullwidth Latin
            ("ｱｲｳ", 3),  // halfwidth katakana
            ("、。", 4),
            ("🎉", 2),
            ("👍🏽", 2),  // a skin tone joins its picture
            ("👨‍👩‍👧", 2),  // a ZWJ family is one picture
            ("🏳️‍🌈", 2),
            ("🇯🇵", 2),  // two regional indicators make a flag
            ("🇯🇵🇫🇷", 4),
            ("❤", 1),  // text presentation
            ("❤️", 2),  // emoji presentation
            ("1️⃣", 2),  // a keycap
            ("⌚", 2),
            ("a\u{200B}b", 2),  // zero-width space
            ("\u{FEFF}x", 1),
            ("½ ± é", 5),  // East Asian Ambiguous counts one
            ("𠀋", 2),  // plane 2 ideograph
        ]
        for (text, expected) in cases {
            XCTAssertEqual(DisplayWidth.columns(text), expected, text)
        }
    }

    func testIllFormedUTF8CountsOneColumnPerByte() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xE6, 0x97, 0x62, 0xF0, 0x9F]
        XCTAssertEqual(bytes.withUnsafeBufferPointer { DisplayWidth.columns($0, 0, $0.count) }, 7)
        XCTAssertEqual(bytes.withUnsafeBufferPointer { DisplayWidth.columns($0, -4, 99) }, 7)
    }

    func testTheWideTableIsSortedAndDisjoint() {
        for (previous, next) in zip(DisplayWidth.wideRanges, DisplayWidth.wideRanges.dropFirst()) {
            XCTAssertLessThan(previous.upperBound, next.lowerBound, "\(previous) \(next)")
        }
        XCTAssertTrue(DisplayWidth.isWide(0x4E00))
        XCTAssertTrue(DisplayWidth.isWide(0x3FFFD))
        XCTAssertFalse(DisplayWidth.isWide(0x303F))
        XCTAssertFalse(DisplayWidth.isWide(0x41))
        XCTAssertFalse(DisplayWidth.isWide(0x10FFFF))
    }
}
