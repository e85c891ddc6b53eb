import XCTest
@testable import TeXMath

/// The converter is linear in the formula's length: the same formula ten times longer (or the
/// same deep nesting repeated ten times more) costs ten times the work, counted in tokens lexed,
/// nodes made, bytes stored and bytes written. No clock is read.
final class LinearityTests: XCTestCase {
    /// Pieces that repeat into long formulas: each shape of the converter's loops.
    static let pieces: [(String, String)] = [
        ("mixed", "a_{i}^{2} + \\frac{x}{y} - \\left( b \\right) \\cdot \\sqrt[3]{c} + "),
        ("letters in one font", "\\mathrm{abcdefgh}"),
        ("a number", "31415926"),
        ("primes", "x''' + "),
        ("text", "\\text{some words and $x^2$ } "),
        ("colour switches", "{\\color{red} a + b} "),
        ("named functions", "\\sin x \\cos^2 y \\operatorname{rank} A "),
        ("middle delimiters", "\\left( a \\middle| b \\right) "),
        ("deep but legal nesting", String(repeating: "{", count: TeXMath.maximumNestingDepth - 1) + "x"
            + String(repeating: "}", count: TeXMath.maximumNestingDepth - 1) + " "),
        ("nested fractions", String(repeating: "\\frac{1}{", count: 30) + "x" + String(repeating: "}", count: 30)),
    ]

    func testTenTimesTheFormulaIsTenTimesTheWork() throws {
        for (name, piece) in Self.pieces {
            let once = try XCTUnwrap(TeXMath.work(Array(String(repeating: piece, count: 100).utf8), display: true), name)
            let tenTimes = try XCTUnwrap(TeXMath.work(Array(String(repeating: piece, count: 1000).utf8), display: true), name)
            let ratio = Double(tenTimes.total) / Double(once.total)
            XCTAssertLessThan(ratio, 10.05, "\(name): \(once) then \(tenTimes)")
            XCTAssertGreaterThan(ratio, 9, "\(name): \(once) then \(tenTimes)")
        }
    }

    func testRowsOfAnEnvironmentAreLinearToo() throws {
        func matrix(_ rows: Int) -> [UInt8] {
            Array(("\\begin{array}{c|c} \\hline " + String(repeating: "a & \\frac{b}{c} \\\\ \\hline ", count: rows) + "\\end{array}").utf8)
        }
        let once = try XCTUnwrap(TeXMath.work(matrix(200), display: false))
        let tenTimes = try XCTUnwrap(TeXMath.work(matrix(2000), display: false))
        XCTAssertLessThan(Double(tenTimes.total) / Double(once.total), 10.05)
    }

    func testEachTokenIsLexedOnce() throws {
        // One token a character here (no spaces, no commands), plus the end.
        let tex = Array(String(repeating: "a+b=c", count: 500).utf8)
        let work = try XCTUnwrap(TeXMath.work(tex, display: false))
        XCTAssertEqual(work.tokens, tex.count + 1)
    }

    func testErrorsAreFoundInLinearTimeToo() {
        // A long formula whose error is at its very end: parsed once, up to the error.
        let tex = String(repeating: "\\left( x + ", count: 10_000)
        XCTAssertEqual(TeXMath.check(tex)?.message.english, "nested deeper than \(TeXMath.maximumNestingDepth) levels")
        let unclosed = "{" + String(repeating: "x^2 + ", count: 50_000)
        XCTAssertEqual(TeXMath.check(unclosed)?.message.english, "unbalanced braces: missing }")
    }
}
