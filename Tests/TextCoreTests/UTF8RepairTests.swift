import XCTest
import TextCore

/// cmark's repair of output bytes: one U+FFFD per NUL and per ill-formed sequence.
final class UTF8RepairTests: XCTestCase {
    private func repaired(_ bytes: [UInt8]) -> [UInt8] { Array(UTF8Repair.repaired(bytes[...])) }
    private let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    func testCleanTextIsReturnedAsItIs() {
        let text = Array("plain ascii, café, 日本, 😀".utf8)
        XCTAssertEqual(repaired(text), text)
        XCTAssertEqual(repaired([]), [])
    }

    func testEachBadSequenceIsOneReplacement() {
        XCTAssertEqual(repaired([0x61, 0x00, 0x62]), [0x61] + replacement + [0x62])
        // Overlong, surrogate and beyond U+10FFFF: the whole claimed sequence is one U+FFFD.
        XCTAssertEqual(repaired([0xC0, 0xAF]), replacement)
        XCTAssertEqual(repaired([0xED, 0xA0, 0x80, 0x7A]), replacement + [0x7A])
        XCTAssertEqual(repaired([0xF4, 0x90, 0x80, 0x80]), replacement)
        // A lone continuation byte, and a lead byte followed by a non-continuation.
        XCTAssertEqual(repaired([0x80, 0xE2, 0x41]), replacement + replacement + [0x41])
        // Cut off by the end: the rest of the continuation bytes go with it.
        XCTAssertEqual(repaired([0x61, 0xE2, 0x82]), [0x61] + replacement)
    }
}
