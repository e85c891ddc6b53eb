import XCTest
@testable import TestSupport

/// The fixture format every test target writes its cases in: files, markers, positions.
final class FixtureTests: XCTestCase {
    func testOneFileWithACursorGivesItsByteOffsetAndPosition() throws {
        let fixture = Fixture("é[[a$0b")
        XCTAssertEqual(fixture.paths, ["note.md"])
        XCTAssertEqual(fixture.text, "é[[ab")
        XCTAssertEqual(fixture.cursor, FixtureLocation(path: "note.md", utf8Offset: 5))
        XCTAssertNil(fixture.range)
        XCTAssertEqual(fixture.cursorPosition, TextPosition(line: 0, utf8Character: 5, utf16Character: 4, utf32Character: 4))
        let plain = Fixture("abc", defaultPath: "index.md")
        XCTAssertEqual(plain.texts, ["index.md": "abc"])
        XCTAssertNil(plain.cursor)
        XCTAssertNil(plain.cursorPosition)
    }

    func testFilesStartAtTheirPathLinesAndKeepTheirLineBreaks() {
        let fixture = Fixture("""
            //- /index.md
            # Home
            See [[so$0il]].
            //- /garden/soil.md
            # Soil

            //- /img/plot.png
            //- /last.md
            no line break at the end
            """)
        XCTAssertEqual(fixture.paths, ["index.md", "garden/soil.md", "img/plot.png", "last.md"])
        XCTAssertEqual(fixture.text("index.md"), "# Home\nSee [[soil]].\n")
        XCTAssertEqual(fixture.text("garden/soil.md"), "# Soil\n\n")
        XCTAssertEqual(fixture.text("img/plot.png"), "")
        XCTAssertEqual(fixture.text("last.md"), "no line break at the end")
        XCTAssertEqual(fixture.cursor, FixtureLocation(path: "index.md", utf8Offset: 15))
        XCTAssertEqual(fixture.cursorPosition?.line, 1)
        XCTAssertEqual(fixture.cursorPosition?.utf16Character, 8)
        // Text before the first path line is a file of its own, at the default path.
        let leading = Fixture("intro\n//- /b.md\nb\n", defaultPath: "a.md")
        XCTAssertEqual(leading.texts, ["a.md": "intro\n", "b.md": "b\n"])
        XCTAssertEqual(Fixture("\n//- /b.md\nb\n").paths, ["b.md"], "blank lines before the first file are no file")
    }

    func testTwoMarkersInOneFileMarkARange() throws {
        let fixture = Fixture("//- /a.md\nx\n//- /b.md\nsee $0🌱 here$0.\r\nnext\n")
        XCTAssertNil(fixture.cursor)
        let range = try XCTUnwrap(fixture.range)
        XCTAssertEqual(range, FixtureSpan(path: "b.md", utf8Start: 4, utf8End: 13))
        XCTAssertEqual(fixture.rangeText, "🌱 here")
        let positions = try XCTUnwrap(fixture.rangePositions)
        XCTAssertEqual(positions.start, TextPosition(line: 0, utf8Character: 4, utf16Character: 4, utf32Character: 4))
        XCTAssertEqual(positions.end, TextPosition(line: 0, utf8Character: 13, utf16Character: 11, utf32Character: 10))
        XCTAssertEqual(fixture.text("b.md"), "see 🌱 here.\r\nnext\n")
    }

    func testFilesByPathTakeMarkersToo() {
        let fixture = Fixture(files: ["b.md": "[[a$0]]", "a.md": "# A\n"])
        XCTAssertEqual(fixture.paths, ["a.md", "b.md"])
        XCTAssertEqual(fixture.cursor, FixtureLocation(path: "b.md", utf8Offset: 3))
    }

    func testMoreMarkedPlacesInTheSameFiles() throws {
        let fixture = Fixture("//- /a.md\n# Soil\n\n## pH\n\n[[soil#pH]] and [[soil]]\n")
        XCTAssertEqual(fixture.cursor(at: "[[so$0il]]", in: "a.md"), FixtureLocation(path: "a.md", utf8Offset: 35))
        XCTAssertEqual(fixture.range(at: "## $0pH$0", in: "a.md"), FixtureSpan(path: "a.md", utf8Start: 11, utf8End: 13))
        XCTAssertEqual(fixture.position(try XCTUnwrap(fixture.cursor(at: "[[so$0il]]", in: "a.md"))).line, 4)
    }

    func testMalformedFixturesAndPiecesSayWhy() {
        let three = Fixture.parse([("a.md", "$0a$0b$0")])
        XCTAssertNil(three.cursor)
        XCTAssertNil(three.range)
        XCTAssertEqual(three.problem?.hasPrefix("a fixture takes one `$0` (a cursor) or two in one file (a range)"), true)
        XCTAssertNotNil(Fixture.parse([("a.md", "$0"), ("b.md", "$0")]).problem, "markers in two files")
        let twice = Fixture("ab ab")
        XCTAssertEqual(twice.marks(at: "a$0b", in: "note.md", count: 1).failure, "\"ab\" occurs 2 times in note.md, not once")
        XCTAssertEqual(twice.marks(at: "a$0b", in: "note.md", count: 2).failure, "\"a$0b\" needs 2 `$0`, not 1")
        XCTAssertEqual(twice.marks(at: "b $0a", in: "note.md", count: 1).success, [3])
    }
}

/// The tests' own line index: positions in every encoding and back.
final class TextLinesTests: XCTestCase {
    func testEveryLineBreakEndsALine() {
        let lines = TextLines("a\nb\r\nc\rd")
        XCTAssertEqual(lines.lineStarts, [0, 2, 5, 7])
        XCTAssertEqual((-1..<5).map(lines.lineEnd), [0, 1, 3, 6, 8, 8])
        XCTAssertEqual(lines.position(ofUTF8Offset: 4).line, 1, "inside \\r\\n: still the line it ends")
        XCTAssertEqual(lines.position(ofUTF8Offset: 99), TextPosition(line: 3, utf8Character: 1, utf16Character: 1, utf32Character: 1))
    }

    func testColumnsCountTheUnitsOfEachEncoding() {
        let lines = TextLines("x\né 🌱 𝄞!")
        let end = lines.position(ofUTF8Offset: lines.bytes.count)
        XCTAssertEqual(end, TextPosition(line: 1, utf8Character: 13, utf16Character: 8, utf32Character: 6))
        for encoding in ColumnEncoding.allCases {
            XCTAssertEqual(lines.utf8Offset(of: end, encoding), lines.bytes.count, encoding.rawValue)
        }
        XCTAssertEqual(lines.utf8Offset(line: 1, character: 4, .utf16), 9, "after 🌱")
        XCTAssertNil(lines.utf8Offset(line: 1, character: 5, .utf8), "inside 🌱")
        XCTAssertNil(lines.utf8Offset(line: 1, character: 3, .utf16), "inside 🌱's surrogate pair")
        XCTAssertNil(lines.utf8Offset(line: 0, character: 2, .utf16), "past the line's end")
        XCTAssertNil(lines.utf8Offset(line: 2, character: 0, .utf16), "no such line")
    }
}

/// Golden files: the first difference is what a failure shows.
final class GoldenTests: XCTestCase {
    func testTheFirstDifferingLineIsShown() {
        XCTAssertEqual(Golden.firstDifference(expected: Array("a\nb\nc".utf8), actual: Array("a\nB\nc".utf8)),
                       "line 2\n  expected: \"b\"\n  actual:   \"B\"")
        XCTAssertEqual(Golden.firstDifference(expected: Array("a\n".utf8), actual: Array("a\nmore".utf8)),
                       "line 2\n  expected: \"\"\n  actual:   \"more\"")
    }
}

extension Result {
    var success: Success? { try? get() }
    var failure: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}

/// Data kept outside the repository: missing, the test is skipped and says where it looked.
final class SpecDataTests: XCTestCase {
    func testMissingSpecDataSkipsSayingWhereItLooked() {
        XCTAssertThrowsError(try SpecData.url("no-such-suite.json")) { error in
            XCTAssertTrue(error is XCTSkip, "\(error)")
            XCTAssertTrue("\(error)".contains("shared/spec"), "\(error)")
        }
    }
}
