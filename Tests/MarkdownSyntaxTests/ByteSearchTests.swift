@testable import MarkdownSyntax
import XCTest

/// The word-at-a-time searches return what a byte-by-byte loop returns, at every start and end
/// offset (so every alignment and every tail length), on bytes dense with the targets, with
/// bytes just above and below them, and with high bytes (where a borrow could mislead).
final class ByteSearchTests: XCTestCase {
    func testSearchesEqualTheObviousLoops() {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x09, 0x0B, 0x0C, 0x0E, 0x20, 0x41, 0x5B, 0x5D, 0x80, 0x8A, 0x8D, 0xFF, 0x00, 0x01,
                                 0x21, 0x3C, 0x3E, 0x3F, 0x7E, 0x7F, 0xA0]
        for round in 0..<300 {
            let length = next(40)
            let bytes = (0..<length).map { _ in round % 5 == 0 ? UInt8(next(256)) : alphabet[next(alphabet.count)] }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for from in 0...length {
                    for end in from...length {
                        let expectedLineEnd = (from..<end).first { bytes[$0] == 0x0A || bytes[$0] == 0x0D } ?? end
                        XCTAssertEqual(ByteSearch.lineEnd(base, from: from, end: end), expectedLineEnd, "\(bytes) \(from)..<\(end)")
                        for target: UInt8 in [0x5D, 0x0A, 0x00, 0x80] {
                            let expected = (from..<end).first { bytes[$0] == target } ?? end
                            XCTAssertEqual(ByteSearch.firstIndex(of: target, in: base, from: from, end: end), expected)
                        }
                        let expectedStop = (from..<end).first { bytes[$0] <= 0x20 || bytes[$0] == 0x3C || bytes[$0] == 0x3E || bytes[$0] == 0x7F } ?? end
                        XCTAssertEqual(ByteSearch.firstIndexOfURIAutolinkStop(in: base, from: from, end: end), expectedStop, "\(bytes) \(from)..<\(end)")
                        for (x, y, z): (UInt8, UInt8, UInt8) in [(0x5D, 0x0A, 0x80), (0x00, 0x01, 0xFF), (0x41, 0x41, 0x20)] {
                            let expected = (from..<end).first { bytes[$0] == x || bytes[$0] == y || bytes[$0] == z } ?? end
                            XCTAssertEqual(ByteSearch.firstIndex(ofAny: x, y, z, in: base, from: from, end: end), expected)
                        }
                    }
                }
            }
        }
    }

    /// The prefix test against `String.hasPrefix` on the lower-cased (or not) text, for every
    /// start and end of the range, so a prefix running past the end never matches.
    func testPrefixTestEqualsTheStringOne() {
        let texts = ["<!-- note -->", "<![CDATA[x]]>", "<![cdata[x]]>", "JavaScript:alert(1)", "<TextArea>", "<", ""]
        let prefixes: [StaticString] = ["!--", "![CDATA[", "javascript:", "textarea", "<", ""]
        for text in texts {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...bytes.count {
                    for end in start...bytes.count {
                        let range = String(decoding: bytes[start..<end], as: UTF8.self)
                        for prefix in prefixes {
                            let wanted = prefix.description
                            XCTAssertEqual(ByteSearch.hasPrefix(buffer, from: start, to: end, prefix, ignoringCase: false),
                                           range.hasPrefix(wanted), "\(text) \(start)..<\(end) \(wanted)")
                            // Any case: the prefix is given in lower case.
                            guard wanted == wanted.lowercased() else { continue }
                            XCTAssertEqual(ByteSearch.hasPrefix(buffer, from: start, to: end, prefix, ignoringCase: true),
                                           range.lowercased().hasPrefix(wanted), "\(text) \(start)..<\(end) \(wanted), any case")
                        }
                    }
                }
                XCTAssertFalse(ByteSearch.hasPrefix(buffer, from: -1, to: bytes.count, "", ignoringCase: false))
                XCTAssertFalse(ByteSearch.hasPrefix(buffer, from: 0, to: bytes.count + 1, "", ignoringCase: false))
            }
        }
    }
}
