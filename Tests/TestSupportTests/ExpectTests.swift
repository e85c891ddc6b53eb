import Foundation
import XCTest
@testable import TestSupport

/// Blessing rewrites exactly the expectation after a case's fixture, and nothing else.
final class ExpectTests: XCTestCase {
    func testLiteralsAreReadAsSwiftReadsThem() {
        let source = #"""
        // "not a literal"
        let a = "plain \"quoted\" \\ \n\t\u{1F600}"
        let b = #"raw "x" \n"#
        let c = "with \(interpolation)"
        let d = nil
        /* "in a comment" /* nested */ */
        let e = """
            two
              lines
            """
        """#
        let tokens = SwiftLiterals.tokens(Array(source.utf8))
        XCTAssertEqual(tokens.map(\.value), ["plain \"quoted\" \\ \n\t😀", "raw \"x\" \\n", nil, nil, "two\n  lines"])
        XCTAssertEqual(tokens.map(\.isExpectation), [true, false, false, true, false])
    }

    func testALiteralIsWrittenOnOneLine() {
        XCTAssertEqual(SwiftLiterals.literal("a\nb\t\"c\"\\ é\u{200B}"), #""a\nb\t\"c\"\\ é\u{200B}""#)
        XCTAssertEqual(SwiftLiterals.literal(nil), "nil")
        let written = SwiftLiterals.literal("x\r\n\u{7}")
        XCTAssertEqual(SwiftLiterals.tokens(Array(written.utf8)).first?.value, "x\r\n\u{7}")
    }

    func testBlessingReplacesTheExpectationAfterTheFixture() throws {
        let path = NSTemporaryDirectory() + "macmd-expect-\(UUID().uuidString).swift"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = """
            check([
                ("See [[so$0", "old"),
                ("`[[so$0`", nil),
                ("other", "kept"),
            ])
            check("alone$0", expect: "was")

            """
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        try Expect.bless(fixture: "See [[so$0", with: "[[soil]]\n", in: path)
        try Expect.bless(fixture: "`[[so$0`", with: "code", in: path)
        try Expect.bless(fixture: "alone$0", with: nil, in: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), """
            check([
                ("See [[so$0", "[[soil]]\\n"),
                ("`[[so$0`", "code"),
                ("other", "kept"),
            ])
            check("alone$0", expect: nil)

            """)
        XCTAssertThrowsError(try Expect.bless(fixture: "missing", with: "x", in: path))
        try (source + "(\"other\", \"again\")\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Expect.bless(fixture: "other", with: "x", in: path), "a fixture written twice is ambiguous")
    }
}
