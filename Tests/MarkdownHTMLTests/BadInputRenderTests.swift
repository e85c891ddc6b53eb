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

    /// The writer's text path checks UTF-8 as it escapes (ASCII sixteen bytes a step, runs of
    /// characters eight bytes at a time, a hand-off to the repairing loop at the first bad byte):
    /// on random text of ASCII, escapes, NUL, well-formed and broken sequences, at every offset
    /// of the steps (texts of 0 to about 100 bytes, so short ones and the last partial step), its
    /// output is the text repaired (cmark's way, `UTF8Repair.repaired`) and then escaped byte
    /// by byte.
    func testTextIsEscapedAsRepairedTextIs() {
        var random = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [Array("ab".utf8), [0x20], Array("&<>\"".utf8), Array("é".utf8), Array("中".utf8),
                                 Array("😀".utf8), Array("я".utf8), [0x00], [0xFF], [0xE2, 0x82], [0xC0, 0x80],
                                 [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80]]
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(round % 37) {
                let index = Int.random(in: 0..<100, using: &random) < 85 ? Int.random(in: 0..<7, using: &random) : Int.random(in: 0..<pieces.count, using: &random)
                bytes += pieces[index]
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
