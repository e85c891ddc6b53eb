import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax

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
