// Table-driven tests of LineIndex: line starts, positions in every column unit, clamping,
// and the build time on 10 MB.

import XCTest
import TestSupport
@testable import TextCore

final class LineIndexTests: XCTestCase {
    // MARK: Line starts

    /// `columns(from:to:unit:)` is the difference of the two offsets' columns on a line, in
    /// every unit, for every pair of offsets of each line (inside a character too).
    func testColumnsBetweenOffsetsOfALineAreTheDifferenceOfTheirColumns() {
        let index = LineIndex("aé𝔸 b\r\n漢字 x😀y\nplain")
        for line in 0..<index.lineCount {
            let range = index.lineRange(line)
            for from in range.lowerBound...range.upperBound {
                for to in from...range.upperBound {
                    for unit in ColumnUnit.allCases {
                        XCTAssertEqual(index.columns(from: from, to: to, unit: unit),
                                       index.lineColumn(ofUTF8Offset: to, unit: unit).column - index.lineColumn(ofUTF8Offset: from, unit: unit).column,
                                       "line \(line), \(from)..<\(to), \(unit)")
                    }
                }
            }
        }
    }

    func testLineStarts() {
        let cases: [(name: String, bytes: [UInt8], starts: [Int])] = [
            ("empty", [], [0]),
            ("one line, no ending", Array("abc".utf8), [0]),
            ("LF", Array("a\nbc\n".utf8), [0, 2, 5]),
            ("CRLF", Array("a\r\nbc\r\n".utf8), [0, 3, 7]),
            ("lone CR", Array("a\rbc\r".utf8), [0, 2, 5]),
            ("CR CR LF", Array("a\r\r\nb".utf8), [0, 2, 4]),
            ("LF CR", Array("a\n\rb".utf8), [0, 2, 3]),
            ("only endings", Array("\n\r\n\r".utf8), [0, 1, 3, 4]),
            ("CRLF split over an 8-byte word", Array("1234567\r\nx".utf8), [0, 9]),
            ("long line then LF", Array(String(repeating: "x", count: 37).utf8) + [0x0A], [0, 38]),
            ("invalid UTF-8 around LF", [0xFF, 0x0A, 0xC3, 0x0D, 0x0A, 0xE2], [0, 2, 5]),
        ]
        for c in cases {
            let index = LineIndex(utf8: c.bytes)
            XCTAssertEqual(index.lineStarts, c.starts, c.name)
            XCTAssertEqual(index.lineCount, c.starts.count, c.name)
        }
    }

    func testLineStartsMatchNaiveScanOnMixedInput() {
        // Deterministic pseudo-random bytes rich in line endings, checked against a byte-by-byte scan.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x61, 0x62, 0x20, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x09]
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(alphabet[Int(state >> 33) % alphabet.count])
        }
        var expected = [0]
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 2; expected.append(i); continue }
            if bytes[i] == 0x0A || bytes[i] == 0x0D { expected.append(i + 1) }
            i += 1
        }
        XCTAssertEqual(LineIndex(utf8: bytes).lineStarts, expected)
    }

    // MARK: Lines of offsets

    func testLineContainingOffset() {
        let index = LineIndex("ab\r\ncd\ref\n")  // lines start at 0, 4, 7, 10
        let cases: [(offset: Int, line: Int)] = [
            (-5, 0), (0, 0), (2, 0), (3, 0),  // the "\r\n" belongs to line 0
            (4, 1), (6, 1), (7, 2), (9, 2), (10, 3), (11, 3), (Int.max, 3), (Int.min, 0),
        ]
        for c in cases {
            XCTAssertEqual(index.line(containingUTF8Offset: c.offset), c.line, "offset \(c.offset)")
        }
    }

    func testLineStartAndEnd() {
        let index = LineIndex("ab\r\ncd\ref\nghi")
        let cases: [(line: Int, start: Int, end: Int, endWithEnding: Int)] = [
            (-1, 0, 2, 4), (0, 0, 2, 4), (1, 4, 6, 7), (2, 7, 9, 10), (3, 10, 13, 13),
            (4, 13, 13, 13), (Int.max, 13, 13, 13),
        ]
        for c in cases {
            XCTAssertEqual(index.lineStart(c.line), c.start, "start of \(c.line)")
            XCTAssertEqual(index.lineEnd(c.line), c.end, "end of \(c.line)")
            XCTAssertEqual(index.lineEndIncludingLineEnding(c.line), c.endWithEnding, "full end of \(c.line)")
        }
        XCTAssertEqual(index.lineRange(1), 4..<6)
        XCTAssertEqual(LineIndex("").lineRange(0), 0..<0)
    }

    // MARK: Offsets to positions

    func testPositionsOfOffsets() {
        // Line 0: "aé😀b" = a(1) é(2) 😀(4) b(1), then CRLF; line 1: "日本" (3+3); line 2: empty.
        let index = LineIndex("aé😀b\r\n日本\n")
        let cases: [(offset: Int, line: Int, utf8: Int, utf16: Int, utf32: Int)] = [
            (0, 0, 0, 0, 0),
            (1, 0, 1, 1, 1),   // before é
            (2, 0, 2, 1, 1),   // inside é: UTF-16/32 snap to its start
            (3, 0, 3, 2, 2),   // before 😀
            (5, 0, 5, 2, 2),   // inside 😀
            (7, 0, 7, 4, 3),   // before b
            (8, 0, 8, 5, 4),   // before "\r\n"
            (9, 0, 9, 6, 5),   // between "\r" and "\n"
            (10, 1, 0, 0, 0),
            (13, 1, 3, 1, 1),
            (14, 1, 4, 1, 1),  // inside 本
            (16, 1, 6, 2, 2),
            (17, 2, 0, 0, 0),  // the empty last line
            (99, 2, 0, 0, 0),  // past the end
            (-3, 0, 0, 0, 0),
        ]
        for c in cases {
            let p8 = index.position(ofUTF8Offset: c.offset)
            let p16 = index.utf16Position(ofUTF8Offset: c.offset)
            let p32 = index.utf32Position(ofUTF8Offset: c.offset)
            XCTAssertEqual([p8.line, p8.utf8Column], [c.line, c.utf8], "UTF-8 of \(c.offset)")
            XCTAssertEqual([p16.line, p16.utf16Column], [c.line, c.utf16], "UTF-16 of \(c.offset)")
            XCTAssertEqual([p32.line, p32.utf32Column], [c.line, c.utf32], "UTF-32 of \(c.offset)")
        }
    }

    // MARK: Positions to offsets

    func testOffsetsOfUTF16Columns() {
        let index = LineIndex("aé😀b\r\n日本\rx")  // line 0: 0..<8, line 1: 10..<16, line 2: 17..<18
        let cases: [(line: Int, column: Int, offset: Int)] = [
            (0, 0, 0), (0, 1, 1), (0, 2, 3),
            (0, 3, 3),               // between the surrogates of 😀: start of 😀
            (0, 4, 7), (0, 5, 8),
            (0, 6, 8), (0, 1000, 8), (0, Int.max, 8),  // past the end: before "\r\n"
            (0, -4, 0),
            (1, 0, 10), (1, 1, 13), (1, 2, 16), (1, 3, 16),
            (2, 0, 17), (2, 1, 18), (2, 9, 18),
            (3, 0, 18), (Int.max, 5, 18),  // past the last line: end of document
            (-1, 4, 0), (Int.min, Int.min, 0),
        ]
        for c in cases {
            XCTAssertEqual(index.utf8Offset(line: c.line, utf16Column: c.column), c.offset, "\(c.line):\(c.column)")
        }
    }

    func testOffsetsOfUTF32AndUTF8Columns() {
        let index = LineIndex("aé😀b\n")
        let utf32: [(column: Int, offset: Int)] = [(0, 0), (1, 1), (2, 3), (3, 7), (4, 8), (5, 8), (Int.max, 8)]
        for c in utf32 {
            XCTAssertEqual(index.utf8Offset(line: 0, utf32Column: c.column), c.offset, "UTF-32 column \(c.column)")
        }
        let utf8: [(column: Int, offset: Int)] = [
            (0, 0), (1, 1), (2, 1), (3, 3), (4, 3), (5, 3), (6, 3), (7, 7), (8, 8), (9, 8), (Int.max, 8),
        ]
        for c in utf8 {
            XCTAssertEqual(index.utf8Offset(line: 0, utf8Column: c.column), c.offset, "UTF-8 column \(c.column)")
        }
    }

    func testInvalidUTF8CountsOneUnitPerByte() {
        // FF: invalid; C3 28: truncated é then "("; E2 82: truncated €; ED A0 80: a UTF-8 surrogate;
        // F0 9F 98 80: a valid 😀; F4 90 80 80: past U+10FFFF; C0 AF: overlong "/".
        let bytes: [UInt8] = [0xFF, 0xC3, 0x28, 0xE2, 0x82, 0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x98, 0x80,
                              0xF4, 0x90, 0x80, 0x80, 0xC0, 0xAF]
        let index = LineIndex(utf8: bytes)
        // Every byte is its own U+FFFD except the four bytes of 😀 (offsets 8..<12).
        for offset in 0...bytes.count {
            let expected16: Int
            let expected32: Int
            switch offset {
            case ...8: expected16 = offset; expected32 = offset
            case 9...11: expected16 = 8; expected32 = 8
            default: expected16 = offset - 2; expected32 = offset - 3
            }
            XCTAssertEqual(index.utf16Position(ofUTF8Offset: offset).utf16Column, expected16, "UTF-16 at \(offset)")
            XCTAssertEqual(index.utf32Position(ofUTF8Offset: offset).utf32Column, expected32, "UTF-32 at \(offset)")
        }
        let back16: [(column: Int, offset: Int)] = [(0, 0), (5, 5), (8, 8), (9, 8), (10, 12), (11, 13), (16, 18), (17, 18)]
        for c in back16 {
            XCTAssertEqual(index.utf8Offset(line: 0, utf16Column: c.column), c.offset, "UTF-16 column \(c.column)")
        }
        XCTAssertEqual(index.utf8Offset(line: 0, utf8Column: 10), 8, "UTF-8 column inside 😀")
        XCTAssertEqual(index.utf8Offset(line: 0, utf8Column: 7), 7, "a lone continuation byte is a character")
    }

    func testTruncatedSequenceAtEndOfBuffer() {
        for bytes in [[0xF0, 0x9F], [0xE2], [0x61, 0xF0, 0x9F, 0x98]] as [[UInt8]] {
            let index = LineIndex(utf8: bytes)
            XCTAssertEqual(index.utf16Position(ofUTF8Offset: bytes.count).utf16Column, bytes.count)
            XCTAssertEqual(index.utf8Offset(line: 0, utf16Column: 100), bytes.count)
        }
    }

    func testRoundTripsOnCharacterBoundaries() {
        let text = "# Café 日本語 😀\r\n- [ ] tâche 🇫🇷\rlast\n"
        let index = LineIndex(text)
        let bytes = Array(text.utf8)
        let carriageReturn = bytes.firstIndex(of: 0x0D) ?? 0  // the "\r" of the "\r\n"
        var offsets: [Int] = []
        var offset = 0
        for scalar in text.unicodeScalars {
            offsets.append(offset)
            offset += String(scalar).utf8.count
        }
        offsets.append(offset)
        for offset in offsets {
            for unit in ColumnUnit.allCases {
                let position = index.lineColumn(ofUTF8Offset: offset, unit: unit)
                let back = index.utf8Offset(of: position, unit: unit)
                // "\r\n" is one line ending: the offset between its bytes clamps to the line's end.
                let expected = offset == carriageReturn + 1 ? carriageReturn : offset
                XCTAssertEqual(back, expected, "\(unit) round trip of \(offset) via \(position)")
            }
        }
    }

    func testColumnsAgreeWithSwiftStringsOnValidText() {
        // For valid UTF-8 the counts must equal what String's UTF-16 and scalar views say.
        let lines = ["", "plain ASCII", "Café crème", "日本語のテキスト", "emoji 😀🇫🇷👩‍👩‍👧", "mixé 日 😀 x"]
        let index = LineIndex(lines.joined(separator: "\n"))
        for (line, text) in lines.enumerated() {
            let end = index.lineEnd(line)
            XCTAssertEqual(index.utf16Position(ofUTF8Offset: end).utf16Column, text.utf16.count, text)
            XCTAssertEqual(index.utf32Position(ofUTF8Offset: end).utf32Column, text.unicodeScalars.count, text)
            XCTAssertEqual(index.utf8Offset(line: line, utf16Column: text.utf16.count), end, text)
        }
    }

    func testRangeConversion() {
        let index = LineIndex("x😀\ny")
        let range = index.lineColumnRange(ofUTF8Range: 1..<7, unit: .utf16)
        XCTAssertEqual(range.start, LineColumn(line: 0, column: 1))
        XCTAssertEqual(range.end, LineColumn(line: 1, column: 1))
        XCTAssertEqual(range.end.description, "1:1")

        let cases: [(start: LineColumn, end: LineColumn, unit: ColumnUnit, range: Range<Int>)] = [
            (LineColumn(line: 0, column: 1), LineColumn(line: 1, column: 1), .utf16, 1..<7),
            (LineColumn(line: 0, column: 2), LineColumn(line: 0, column: 3), .utf16, 1..<5),  // halves of 😀
            (LineColumn(line: 0, column: 1), LineColumn(line: 0, column: 2), .utf32, 1..<5),
            (LineColumn(line: 1, column: 1), LineColumn(line: 0, column: 0), .utf8, 7..<7),   // reversed
            (LineColumn(line: -3, column: 0), LineColumn(line: 9, column: 9), .utf16, 0..<7),
        ]
        for c in cases {
            XCTAssertEqual(index.utf8Range(from: c.start, to: c.end, unit: c.unit), c.range, "\(c.start)-\(c.end) \(c.unit)")
        }
    }

    func testRandomBytesAndQueriesNeverTrapAndStayConsistent() {
        // Deterministic random documents made of line endings, ASCII, multi-byte characters and
        // broken sequences; every query's answer must be in range and round-trip on boundaries.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        let pieces: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], [0x61], [0x20], [0xC3, 0xA9], [0xE6, 0x97, 0xA5],
                                 [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC3], [0xF0, 0x9F], [0x80], [0xED, 0xA0, 0x80]]
        let extremes = [Int.min, -1, 0, 1, 2, 3, 7, 100, Int.max]
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<(next() % 40) { bytes += pieces[next() % pieces.count] }
            let index = LineIndex(utf8: bytes)
            for unit in ColumnUnit.allCases {
                for offset in -2...(bytes.count + 2) {
                    let position = index.lineColumn(ofUTF8Offset: offset, unit: unit)
                    XCTAssertTrue((0..<index.lineCount).contains(position.line))
                    XCTAssertGreaterThanOrEqual(position.column, 0)
                    let back = index.utf8Offset(of: position, unit: unit)
                    XCTAssertTrue((0...bytes.count).contains(back))
                    // Converting back never moves past the offset we started from.
                    XCTAssertLessThanOrEqual(back, max(0, min(offset, bytes.count)))
                    // The offset we got back is a fixed point: it survives another round trip.
                    let again = index.utf8Offset(of: index.lineColumn(ofUTF8Offset: back, unit: unit), unit: unit)
                    XCTAssertEqual(again, back, "\(bytes) \(offset) \(unit)")
                }
                for line in extremes {
                    for column in extremes {
                        let offset = index.utf8Offset(of: LineColumn(line: line, column: column), unit: unit)
                        XCTAssertTrue((0...bytes.count).contains(offset))
                    }
                }
            }
        }
    }

    /// On long lines conversions walk from a checkpoint (`LineIndex+Columns.swift`): they must
    /// give what a walk from the line's start gives, at every offset and every column, on lines
    /// of ASCII, of wide and broken characters, and of both, around the checkpoints' spacing.
    func testLongLinesConvertAsAWalkFromTheLineStart() {
        var generator = SeededGenerator(state: 2026)
        func next() -> Int { generator.next(Int.max) }
        let wide: [[UInt8]] = [[0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC3], [0xF0, 0x9F], [0x80],
                               [0xED, 0xA0, 0x80]]
        /// The units of `bytes[start..<target]` walked from `start`, as the index did before it had checkpoints.
        func walk(_ bytes: [UInt8], _ start: Int, _ target: Int, _ unit: ColumnUnit) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                var position = start
                var units = 0
                while position < target {
                    let scalar = UTF8ScalarLength.at(position, in: buffer, end: buffer.count)
                    position += scalar.utf8Count
                    units += unit == .utf16 ? scalar.utf16Count : 1
                }
                return units
            }
        }
        for round in 0..<12 {
            var bytes: [UInt8] = Array("short\r\n".utf8)
            let lineStart = bytes.count
            let length = LineIndex.checkpointedLineLength + next() % (4 * LineIndex.checkpointSpacing)
            // Rounds 0 and 1: ASCII only; then ever more wide and broken characters.
            while bytes.count - lineStart < length {
                if round > 1, next() % 12 < round { bytes += wide[next() % wide.count] } else { bytes.append(UInt8(0x61 + next() % 26)) }
            }
            bytes += Array("\nend".utf8)
            let index = LineIndex(utf8: bytes)
            XCTAssertEqual(index.lineCount, 3)
            for unit in [ColumnUnit.utf16, .utf32] {
                var columns: Set<Int> = []
                for offset in lineStart..<index.lineEndIncludingLineEnding(1) {
                    let target = bytes.withUnsafeBufferPointer { UTF8ScalarLength.start(containing: offset, floor: lineStart, in: $0, end: $0.count) }
                    let column = walk(bytes, lineStart, target, unit)
                    XCTAssertEqual(index.lineColumn(ofUTF8Offset: offset, unit: unit), LineColumn(line: 1, column: column),
                                   "round \(round) \(unit) offset \(offset)")
                    columns.insert(column)
                }
                // Back from every column (and past the end): the start of the character it falls in.
                for column in 0...(columns.max() ?? 0) + 2 {
                    var offset = lineStart
                    var units = 0
                    let end = index.lineEnd(1)
                    bytes.withUnsafeBufferPointer { buffer in
                        while offset < end, units < column {
                            let scalar = UTF8ScalarLength.at(offset, in: buffer, end: buffer.count)
                            let width = unit == .utf16 ? scalar.utf16Count : 1
                            if units + width > column { break }
                            units += width
                            offset += scalar.utf8Count
                        }
                    }
                    XCTAssertEqual(index.utf8Offset(of: LineColumn(line: 1, column: column), unit: unit), min(offset, end),
                                   "round \(round) \(unit) column \(column)")
                }
            }
        }
    }

    /// Every position of a line of a hundred thousand links, converted: linear, not quadratic.
    func testConvertingEveryPositionOfALongLineIsLinear() {
        let bytes = Array(String(repeating: "[[é]] ", count: 100_000).utf8)
        let index = LineIndex(utf8: bytes)
        let clock = ContinuousClock()
        var total = 0
        let elapsed = clock.measure {
            for offset in stride(from: 0, to: bytes.count, by: 7) { total &+= index.utf16Position(ofUTF8Offset: offset).utf16Column }
        }
        XCTAssertGreaterThan(total, 0)
        // A walk from the line's start for each made this ~10^11 steps (minutes); from a
        // checkpoint it is well under a second even in a debug build.
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    // MARK: Size

    /// Ten megabytes index with every line found (how fast is `macmd-bench`'s business: a test
    /// holds behaviour, not a machine's speed).
    func testIndexesTenMegabytes() {
        let line = Array("A line of *Markdown* text, with `code` and a [link](https://example.com).\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10 * 1_048_576 + line.count)
        while bytes.count < 10 * 1_048_576 { bytes.append(contentsOf: line) }
        let index = LineIndex(utf8: bytes)
        XCTAssertEqual(index.lineCount, bytes.count / line.count + 1)
        XCTAssertEqual(index.line(containingUTF8Offset: bytes.count - 1), bytes.count / line.count - 1)
    }
}

/// The server's `LineIndex` and the tests' own `TextLines` (which every fixture's LSP positions
/// come from) agree on every character boundary of texts mixing wide characters and line endings.
final class LineIndexAgreesWithTheTestsLineIndexTests: XCTestCase {
    func testEveryBoundaryHasTheSamePositionAndOffsetInEachEncoding() {
        let pieces = ["a", " ", "é", "日", "😀", "𝄞", "\n", "\r\n", "\r", "#"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<50 {
            var text = ""
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            let index = LineIndex(text)
            let lines = TextLines(text)
            XCTAssertEqual(index.lineStarts, lines.lineStarts, text.debugDescription)
            var offset = 0
            for scalar in text.unicodeScalars + ["\0"] {
                let position = lines.position(ofUTF8Offset: offset)
                let p16 = index.utf16Position(ofUTF8Offset: offset)
                let p32 = index.utf32Position(ofUTF8Offset: offset)
                XCTAssertEqual([p16.line, p16.utf16Column, p32.utf32Column, index.position(ofUTF8Offset: offset).utf8Column],
                               [position.line, position.utf16Character, position.utf32Character, position.utf8Character],
                               "\(text.debugDescription) at \(offset)")
                if let back = lines.utf8Offset(of: position, .utf16) {
                    XCTAssertEqual(index.utf8Offset(line: position.line, utf16Column: position.utf16Character), back)
                }
                offset += UTF8.width(scalar)
            }
        }
    }
}

/// The two- and three-byte decoder agrees with Swift's UTF-8 decoder on every lead byte followed
/// by every kind of continuation, at the end of the buffer too.
final class UTF8BMPScalarTests: XCTestCase {
    func testDecodeAgreesWithTheStandardDecoder() {
        let seconds: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in UInt8(0)...0xFF {
            for second in seconds {
                for third in seconds {
                    for length in 1...3 {
                        let bytes = Array([lead, second, third].prefix(length))
                        var iterator = bytes.makeIterator()
                        var decoder = UTF8()
                        var expected: (UInt32, Int)? = nil
                        if case .scalarValue(let scalar) = decoder.decode(&iterator), (0x80...0xFFFF).contains(scalar.value) {
                            expected = (scalar.value, UTF8.width(scalar))
                        }
                        let got = bytes.withUnsafeBufferPointer { UTF8BMPScalar.decode($0, at: 0) }
                        XCTAssertEqual(got?.value, expected?.0, "\(bytes)")
                        XCTAssertEqual(got?.width, expected?.1, "\(bytes)")
                    }
                }
            }
        }
    }
}

/// An index made by `replacing` an edit is the index of the edited text: every kind of edit
/// (insertions, deletions, replacements) at every kind of place (inside a `\r\n`, beside a lone
/// `\r`, at both ends), with line endings in what is inserted, over many edits in a row.
final class LineIndexReplacingTests: XCTestCase {
    func testAnEditedIndexEqualsTheIndexOfTheEditedText() {
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], Array("é".utf8), Array("日本".utf8)]
        var random = SeededGenerator(state: 0x5EED_1DE8)
        for _ in 0..<300 {
            var text: [UInt8] = []
            for _ in 0..<random.next(30) { text += pieces[random.next(pieces.count)] }
            var index = LineIndex(utf8: text)
            for _ in 0..<20 {
                let start = random.next(text.count + 2) - 1   // sometimes before the text
                let end = start + random.next(6) - 1          // sometimes reversed or past the end
                var inserted: [UInt8] = []
                for _ in 0..<random.next(4) { inserted += pieces[random.next(pieces.count)] }
                index = index.replacing(start..<max(start, end), with: inserted)
                let lower = min(max(start, 0), text.count)
                text.replaceSubrange(lower..<min(max(lower, end), text.count), with: inserted)
                XCTAssertEqual(index.utf8, text)
                XCTAssertEqual(index.lineStarts, LineIndex(utf8: text).lineStarts,
                               "after replacing \(start)..<\(end) with \(inserted) in \(text)")
                if index.lineStarts != LineIndex(utf8: text).lineStarts { return }
            }
        }
    }

    func testAKeystrokeInALargeTextKeepsEveryOtherLine() {
        let text = Array(String(repeating: "a line of text\r\n", count: 1000).utf8)
        let index = LineIndex(utf8: text)
        let typed = index.replacing(8000..<8000, with: Array("x\ny".utf8))
        XCTAssertEqual(typed.lineCount, index.lineCount + 1)
        XCTAssertEqual(typed.lineStarts, LineIndex(utf8: typed.utf8).lineStarts)
        XCTAssertEqual(typed.lineStarts.last, index.lineStarts.last.map { $0 + 3 })
    }
}
