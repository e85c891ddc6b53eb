import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax

/// `ParseOptions.maximumNesting`: past the bound, a quote, list item or footnote definition does
/// not open and its marker is text; siblings at the bound still open; one problem per document,
/// where the bound was first hit.
final class NestingLimitTests: XCTestCase {
    func testContainersPastTheBoundAreText() {
        let cases: [(input: String, limit: Int, html: String, problemAt: Int?)] = [
            ("> > > a\n", 2, "<blockquote>\n<blockquote>\n<p>&gt; a</p>\n</blockquote>\n</blockquote>\n", 4),
            ("> > a\n", 2, "<blockquote>\n<blockquote>\n<p>a</p>\n</blockquote>\n</blockquote>\n", nil),
            ("- - - a\n", 2, "<ul>\n<li>\n<ul>\n<li>- a</li>\n</ul>\n</li>\n</ul>\n", 4),
            // Items beside one another at the bound are siblings, not deeper.
            ("- a\n  - b\n  - c\n", 2, "<ul>\n<li>a\n<ul>\n<li>b</li>\n<li>c</li>\n</ul>\n</li>\n</ul>\n", nil),
            ("1. > 2. x\n", 2, "<ol>\n<li>\n<blockquote>\n<p>2. x</p>\n</blockquote>\n</li>\n</ol>\n", 5),
            ("> [!NOTE]\n> > > deep\n", 2,
             "<div class=\"markdown-alert markdown-alert-note\">\n<p class=\"markdown-alert-title\">Note</p>\n<blockquote>\n<p>&gt; deep</p>\n</blockquote>\n</div>\n", 14),
            ("> [^n]: > x\n", 1, "<blockquote>\n<p>[^n]: &gt; x</p>\n</blockquote>\n", 2),
            // Every deeper line is text of the deepest paragraph; the problem is reported once.
            ("> > x\n> > > y\n> > > z\n", 2, "<blockquote>\n<blockquote>\n<p>x\n&gt; y\n&gt; z</p>\n</blockquote>\n</blockquote>\n", 10),
        ]
        for (input, limit, html, problemAt) in cases {
            let tree = MarkdownParser.parse(input, options: ParseOptions(extensions: .gfm, maximumNesting: limit))
            XCTAssertEqual(HTMLRenderer(options: HTMLOptions(safe: false)).renderString(tree), html, "\(input.debugDescription) at \(limit)")
            let problems = tree.problems.filter { $0.code == .nestingLimit }
            XCTAssertEqual(problems.map { Int($0.range.start) }, problemAt.map { [$0] } ?? [], "\(input.debugDescription)")
        }
    }

    func testNoBoundByDefault() {
        let input = String(repeating: "> ", count: 5000) + "a"
        let tree = MarkdownParser.parse(input, options: .notebook)
        XCTAssertTrue(tree.problems.isEmpty)
        XCTAssertEqual(HTMLRenderer().renderString(tree).components(separatedBy: "<blockquote>").count - 1, 5000)
    }

    func testANoteOverItsSizeIsNotParsed() {
        var options = ParseOptions.notebook
        options.maximumSize = 10
        let tree = MarkdownParser.parse("# Heading\n\n[[link]]\n", options: options)
        XCTAssertEqual(tree.nodes.count, 1, "only the document")
        XCTAssertEqual(tree.problems.map(\.code), [.noteTooLarge])
        XCTAssertEqual(MarkdownParser.parse("# Heading\n", options: options).problems, [], "10 bytes are within the limit")
    }
}
