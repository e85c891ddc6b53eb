// Table-driven tests of ByteOrder: byte strings kept in one buffer come out in the order of their
// bytes (a prefix first, equal ones in their first order), whatever their first eight bytes share.

import XCTest
import TestSupport
import TextCore

final class ByteOrderTests: XCTestCase {
    /// The strings of `texts` in one buffer, sorted by `ByteOrder.sortedIndices`.
    func sorted(_ texts: [[UInt8]]) -> [Int] {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for text in texts {
            ranges.append(bytes.count..<(bytes.count + text.count))
            bytes += text
        }
        return bytes.withUnsafeBufferPointer { ByteOrder.sortedIndices(ranges, in: $0) }
    }

    func testStringsComeInTheOrderOfTheirBytes() {
        let cases: [(name: String, texts: [String])] = [
            ("short and long", ["b", "a", "abcdefghij", "abcdefgh", "abcdefghi", ""]),
            ("a shared folder longer than eight bytes", ["journal/2024/b.md", "journal/2024/a.md", "journal/2023/z.md", "journal/2024.md"]),
            ("a prefix first", ["notes/a-b.md", "notes/a/b.md", "notes/a.md", "notes/a"]),
            ("bytes above ASCII", ["é.md", "z.md", "東京.md", "e\u{301}.md", "Ω/a.md"]),
            ("capitals before small letters", ["b.md", "B.md", "a.md", "A.md"]),
        ]
        for (name, texts) in cases {
            let order = sorted(texts.map { Array($0.utf8) })
            XCTAssertEqual(order.map { texts[$0] }, texts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, name)
        }
    }

    func testNULBytesAndEqualStrings() {
        // Zero bytes pad the first eight: a string with real zero bytes still sorts by its bytes.
        let texts: [[UInt8]] = [[97, 0, 0], [97], [97, 0], [97, 0, 1], [97], [0], []]
        XCTAssertEqual(sorted(texts), [6, 5, 1, 4, 2, 0, 3])
    }
}
