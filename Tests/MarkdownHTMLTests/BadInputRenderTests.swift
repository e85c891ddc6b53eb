import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax
import TextCore

/// The inputs issue 2 names as "bad": each must render, with the output a reader expects, and
/// never trap, overflow the stack or lose text.
final class BadInputRenderTests: XCTestCase {
    private func render(_ bytes: [UInt8], _ options: ParseOptions = .notebook) -> String {
        HTMLRenderer(options: HTMLOptions(safe: false)).renderString(MarkdownParser.parse(bytes, options: options))
    }

    func testInvalidUTF8AndNULBecomeReplacementCharacters() {
        let html = render([0x61, 0xFF, 0x62, 0x00, 0x63, 0xE2, 0x82, 0x0A])
        XCTAssertEqual(html, "<p>a\u{FFFD}b\u{FFFD}c\u{FFFD}</p>\n")
    }

    /// The writer's text path checks UTF-8 as it escapes (sixteen bytes a step where they are
    /// ASCII or well-formed characters of two and three bytes, runs of other characters a
    /// character at a time, a hand-off to the repairing loop at the first bad byte): on seeded
    /// random text of ASCII, escapes, NUL, well-formed and broken sequences (overlong forms,
    /// surrogates, truncated and stray bytes, Hangul and CJK that lead with E0–ED), at every
    /// offset of the steps (texts of 0 to about 150 bytes), its output is the text repaired
    /// (cmark's way, `UTF8Repair.repaired`) and then escaped byte by byte. The same text written
    /// from inside a larger buffer (`text(in:from:to:)`, whose steps read the bytes around it)
    /// comes out the same whatever those bytes are: leads just before the text, or a
    /// character's missing bytes just after it, must not complete what the text cuts.
    func testTextIsEscapedAsRepairedTextIs() {
        var state: UInt64 = 0x7E47
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces: [[UInt8]] = [Array("ab".utf8), [0x20], Array("한국어".utf8), Array("é".utf8), Array("中".utf8),
                                 Array("я".utf8), Array("&<>\"".utf8), Array("😀".utf8), [0x00], [0xFF], [0xE2, 0x82],
                                 [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80],
                                 [0xED, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xC2], [0xC1, 0xBF],
                                 [0xEF, 0xBF, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE3], [0xE3, 0x81]]
        let around: [UInt8] = [0xE3, 0x81, 0xC3, 0xED, 0xE0, 0x80, 0x41, 0x26, 0x00, 0xF0]
        for round in 0..<4_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(round % 53) {
                bytes += pieces[next(100) < 80 ? next(7) : next(pieces.count)]
            }
            var escaped: [UInt8] = []
            for byte in UTF8Repair.repaired(bytes[...]) {
                switch byte {
                case 0x26: escaped += Array("&amp;".utf8)
                case 0x3C: escaped += Array("&lt;".utf8)
                case 0x3E: escaped += Array("&gt;".utf8)
                case 0x22: escaped += Array("&quot;".utf8)
                default: escaped.append(byte)
                }
            }
            var writer = HTMLWriter(capacity: 16)
            writer.text(bytes[...])
            XCTAssertEqual(writer.bytes, escaped, "\(bytes)")
            let before = (0..<next(20)).map { _ in around[next(around.count)] }
            let after = (0..<next(20)).map { _ in around[next(around.count)] }
            let whole = before + bytes + after
            var inside = HTMLWriter(capacity: 16)
            whole.withUnsafeBufferPointer { inside.text(in: $0, from: before.count, to: before.count + bytes.count) }
            XCTAssertEqual(inside.bytes, escaped, "\(before) | \(bytes) | \(after)")
        }
    }

    func testEveryLineEndingWorks() {
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["# Title", "", "- one", "- two", "", "```", "code", "```", ""].joined(separator: ending)
            XCTAssertEqual(render(Array(text.utf8)),
                           "<h1>Title</h1>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<pre><code>code\n</code></pre>\n",
                           "line ending \(ending.debugDescription)")
        }
    }

    func testATenMegabyteLine() {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        let html = render(line)
        XCTAssertEqual(html.utf8.count, 10_000_000 + "<p></p>\n".utf8.count)
    }

    func testHundredThousandNestedBlockQuotesAndListItems() {
        let quotes = render(Array((String(repeating: "> ", count: 100_000) + "deep\n").utf8))
        XCTAssertTrue(quotes.hasPrefix(String(repeating: "<blockquote>\n", count: 100_000) + "<p>deep</p>"))
        let items = render(Array((String(repeating: "- ", count: 100_000) + "deep\n").utf8))
        XCTAssertTrue(items.hasPrefix(String(repeating: "<ul>\n<li>\n", count: 99_999) + "<ul>\n<li>deep</li>"), String(items.prefix(80)))
        XCTAssertTrue(items.hasSuffix(String(repeating: "</li>\n</ul>\n", count: 99_999)))
    }

    func testAMegabyteOfBracketsOrStars() {
        let brackets = render([UInt8](repeating: UInt8(ascii: "["), count: 1_000_000))
        XCTAssertEqual(brackets, "<p>" + String(repeating: "[", count: 1_000_000) + "</p>\n")
        let stars = render([UInt8](repeating: UInt8(ascii: "*"), count: 1_000_000))
        XCTAssertEqual(stars, "<hr />\n", "a line of stars is a thematic break")
        let starsInText = render(Array(("a" + String(repeating: "*", count: 1_000_000) + "b").utf8))
        XCTAssertEqual(starsInText, "<p>a" + String(repeating: "*", count: 1_000_000) + "b</p>\n")
        let wiki = render(Array(String(repeating: "[[", count: 500_000).utf8))
        XCTAssertEqual(wiki.utf8.count, 1_000_000 + 8)
    }
}
