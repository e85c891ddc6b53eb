import XCTest
@testable import TextCore

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

    /// The inlined fast path answers only for well-formed sequences, and then as the full check
    /// does: every lead byte against continuation bytes at the edges of each range, cut short too.
    func testTheFastPathAgreesWithTheFullCheck() {
        let followers: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF]
        var wellFormed = 0
        for lead in UInt8(0x80)...0xFF {
            for a in followers { for b in followers { for c in followers {
                let bytes = [lead, a, b, c]
                for count in 1...4 {
                    bytes.withUnsafeBufferPointer { full in
                        let buffer = UnsafeBufferPointer(rebasing: full[0..<count])
                        let fast = UTF8Repair.wellFormedLength(buffer.baseAddress!, 0, count)
                        let checked = UTF8Repair.checkedSequenceLength(buffer, 0)
                        XCTAssertEqual(fast > 0 ? fast : checked, checked, "\(bytes.prefix(count))")
                        XCTAssertEqual(fast, max(checked, 0), "a well-formed sequence the fast path missed: \(bytes.prefix(count))")
                        XCTAssertEqual(UTF8Repair.validSequenceLength(buffer, 0), checked)
                        if fast > 0 { wellFormed += 1 }
                    }
                }
            } } }
        }
        XCTAssertGreaterThan(wellFormed, 0)
    }

    /// `isClean` says whether a repair would change anything: the same answer as comparing the
    /// repaired bytes with the input, on random text of ASCII, NUL, well-formed and broken
    /// sequences at every alignment of the word loop.
    func testIsCleanAgreesWithTheRepair() {
        var random = SystemRandomNumberGenerator()
        // Well-formed pieces first (the first six are picked most), then broken ones: cut, stray,
        // overlong (C0 80, E0 80 80), surrogate (ED A0 80), past U+10FFFF (F4 90 80 80).
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x00], Array("é".utf8), Array("中".utf8), Array("😀".utf8),
                                 [0xFF], [0xE2, 0x82], [0xC3], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                 [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], Array("я".utf8)]
        var clean = 0
        for round in 0..<4_000 {
            var bytes: [UInt8] = []
            let length = round % 40
            for _ in 0..<length {
                // Mostly clean pieces, so that long clean texts are common.
                // Runs of one kind of character too, for the eight-byte steps.
                let index = Int.random(in: 0..<100, using: &random) < 90 ? [3, 4, 3, 4, Int.random(in: 0..<6, using: &random)][round % 5] : Int.random(in: 0..<pieces.count, using: &random)
                if index == 2 && Int.random(in: 0..<4, using: &random) != 0 { continue }
                bytes += pieces[index]
            }
            // Clean: no NUL, and every sequence valid by the full check (not the fast paths).
            let expected = bytes.withUnsafeBufferPointer { buffer in
                var i = 0
                while i < buffer.count {
                    if buffer[i] == 0 { return false }
                    if buffer[i] < 0x80 { i += 1; continue }
                    let length = UTF8Repair.checkedSequenceLength(buffer, i)
                    if length < 0 { return false }
                    i += length
                }
                return true
            }
            XCTAssertEqual(bytes.withUnsafeBufferPointer { UTF8Repair.isClean($0) }, expected, "\(bytes)")
            XCTAssertEqual(Array(UTF8Repair.repaired(bytes[...])) == bytes, expected, "\(bytes)")
            if expected { clean += 1 }
        }
        XCTAssertGreaterThan(clean, 100)
        XCTAssertLessThan(clean, 3_900)
    }
}
