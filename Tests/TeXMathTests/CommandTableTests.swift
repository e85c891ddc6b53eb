import XCTest
@testable import TeXMath

final class CommandTableTests: XCTestCase {
    func testEveryNameIsDefinedOnceAndFindsItsCommand() {
        let table = CommandTable.shared
        XCTAssertEqual(table.duplicates, [])
        XCTAssertGreaterThan(table.allNames.count, 700)
        for name in table.allNames {
            guard let command = table.command(named: name) else {
                XCTFail("\\\(name) is listed but not found")
                continue
            }
            if case .symbol(_, let text) = command {
                XCTAssertFalse(text.isEmpty, "\\\(name) has no text")
            }
        }
        XCTAssertNil(table.command(named: "alph"))
        XCTAssertNil(table.command(named: "alphaa"))
        XCTAssertNil(table.command(named: ""))
    }

    func testTypedCharactersTakeTheirCommandsClass() {
        let table = CommandTable.shared
        XCTAssertEqual(table.classOfScalar[0x2264], .relation)  // ≤
        XCTAssertEqual(table.classOfScalar[0x2211], .largeOperator)  // ∑
        XCTAssertEqual(table.classOfScalar[0x222B], .largeOperator)  // ∫ of \intop comes first
        XCTAssertEqual(table.classOfScalar[0x3B1], .letter)  // α
        XCTAssertEqual(table.classOfScalar[0x27E8], .open)  // ⟨
    }
}

/// The Unicode Mathematical Alphanumeric Symbols, checked against the Unicode charts.
final class MathAlphabetsTests: XCTestCase {
    func testLettersDigitsAndGreekInEachFont() {
        let cases: [(UInt32, MathFont, UInt32)] = [
            (0x41, .bold, 0x1D400), (0x7A, .bold, 0x1D433), (0x68, .italic, 0x210E), (0x61, .italic, 0x1D44E),
            (0x41, .boldItalic, 0x1D468), (0x41, .script, 0x1D49C), (0x42, .script, 0x212C), (0x65, .script, 0x212F),
            (0x43, .fraktur, 0x212D), (0x61, .fraktur, 0x1D51E), (0x52, .doubleStruck, 0x211D), (0x41, .doubleStruck, 0x1D538),
            (0x6B, .doubleStruck, 0x1D55C), (0x41, .sansSerif, 0x1D5A0), (0x41, .sansSerifBold, 0x1D5D4),
            (0x41, .sansSerifItalic, 0x1D608), (0x41, .sansSerifBoldItalic, 0x1D63C), (0x61, .monospace, 0x1D68A),
            (0x30, .bold, 0x1D7CE), (0x39, .doubleStruck, 0x1D7E1), (0x35, .sansSerif, 0x1D7E7), (0x30, .monospace, 0x1D7F6),
            (0x391, .bold, 0x1D6A8), (0x3A9, .bold, 0x1D6C0), (0x2207, .bold, 0x1D6C1), (0x3B1, .bold, 0x1D6C2),
            (0x3C9, .bold, 0x1D6DA), (0x2202, .bold, 0x1D6DB), (0x3D6, .bold, 0x1D6E1), (0x3B1, .italic, 0x1D6FC),
            (0x3B1, .boldItalic, 0x1D736), (0x393, .boldSymbol, 0x1D6AA), (0x3B8, .boldSymbol, 0x1D73D),
            (0x3F5, .boldSymbol, 0x1D750), (0x3B1, .sansSerifBold, 0x1D770),
            // No form in the font: the character itself.
            (0x31, .script, 0x31), (0x3B1, .doubleStruck, 0x3B1), (0x2B, .bold, 0x2B),
        ]
        for (scalar, font, expected) in cases {
            XCTAssertEqual(MathAlphabets.map(scalar, font).scalar, expected,
                           "U+\(String(scalar, radix: 16)) in \(font)")
        }
        XCTAssertTrue(MathAlphabets.map(0x64, .roman).upright)
        XCTAssertFalse(MathAlphabets.map(0x31, .roman).upright)
    }
}
