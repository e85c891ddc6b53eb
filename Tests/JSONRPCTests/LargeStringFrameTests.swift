import XCTest
@testable import JSON
@testable import JSONRPC

/// The word-at-a-time string escaper and responses whose large string arrives in escaped pieces:
/// both must give exactly the bytes the plain writer gives.
final class LargeStringFrameTests: XCTestCase {
    /// The escape of one byte, the slow and obvious way.
    private func referenceEscape(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            switch byte {
            case 0x22: output += Array(#"\""#.utf8)
            case 0x5C: output += Array(#"\\"#.utf8)
            case 0x08: output += Array(#"\b"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0C: output += Array(#"\f"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        return output
    }

    /// Strings of every density of escapes, short and long (the writer switches paths at 256
    /// bytes, the escaper at its 16-byte slack and its capacity of 1.25 × the input).
    private func samples() -> [String] {
        var generator = SystemRandomNumberGenerator()
        let alphabets: [[String]] = [
            ["a", "b", " ", "é", "日", "🎉"],
            ["a", "\"", "\\", "\n", "<p class=\"x\">"],
            ["\u{01}", "\u{1F}", "\u{0}", "\t", "\r", "\u{0C}", "\u{08}"],   // every byte escaped, most as \u00XX
            ["x", "\u{7F}", "\u{80}", "\u{FFFD}", "\"\n"],
        ]
        var result = ["", "a", "\"", "abcdefgh\"", "abcdefg\"", String(repeating: "\u{01}", count: 300)]
        for alphabet in alphabets {
            for length in [1, 7, 8, 9, 15, 16, 17, 255, 256, 257, 1000, 5000, 70_000] {
                result.append((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined())
            }
        }
        return result
    }

    func testEscaperAndWriterMatchTheReference() {
        for string in samples() {
            let bytes = Array(string.utf8)
            let expected = referenceEscape(bytes)
            XCTAssertEqual(JSON.escapedStringContents(bytes), expected, "escaper, \(bytes.count) bytes")
            XCTAssertEqual(JSON.serialize(.string(string)), [0x22] + expected + [0x22], "writer, \(bytes.count) bytes")
            // Appending after other output keeps what was there.
            var output = Array("prefix".utf8)
            bytes.withUnsafeBufferPointer { JSONEscaper.append($0, to: &output) }
            XCTAssertEqual(output, Array("prefix".utf8) + expected)
        }
    }

    func testResponsePartsEqualTheWholeFrame() {
        let html = String(repeating: "<p data-source-line=\"1\">Soil \"tests\" \\ é🎉</p>\n", count: 3000)
        let members: [String: JSONValue] = [
            "uri": "file:///a.md", "version": 3, "title": "T \"q\"",
            "headings": [["level": 1, "text": "html", "id": "html", "line": 0]],
            "wordCount": 12, "zzz": .null, "aaa": [1, 2],
        ]
        let bytes = Array(html.utf8)
        for id in [RequestID.int(7), .string("preview-0")] {
            for pieceCount in [1, 2, 5] {
                var pieces: [[UInt8]] = []
                let size = bytes.count / pieceCount + 1
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + size)
                    pieces.append(JSON.escapedStringContents(Array(bytes[start..<end])))
                    start = end
                }
                var all = members
                all["html"] = .string(html)
                let expected = Framing.frame(.response(id: id, result: .success(.object(all))))
                let parts = Framing.responseParts(id: id, members: members, stringKey: "html", escapedPieces: pieces)
                XCTAssertEqual(Array(parts.joined()), expected, "\(id), \(pieceCount) pieces")
            }
        }
        // An empty string and a key that sorts first or last.
        for key in ["a", "html", "zzzz"] {
            let parts = Framing.responseParts(id: .int(1), members: ["b": 1], stringKey: key, escapedPieces: [])
            XCTAssertEqual(Array(parts.joined()),
                           Framing.frame(.response(id: .int(1), result: .success(["b": 1, key: ""]))))
        }
    }
}
