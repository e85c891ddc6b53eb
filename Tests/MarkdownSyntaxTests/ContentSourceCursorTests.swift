import XCTest
@testable import MarkdownSyntax

/// `ContentSourceCursor` must map every content offset as the tree's own binary search does,
/// whatever order the offsets come in: forwards (as the extractor reads), backwards and jumping
/// between runs (a cached run must never answer for an offset outside it).
final class ContentSourceCursorTests: XCTestCase {
    /// Documents whose content is cut into many runs: containers strip markers, tabs expand
    /// into spaces, front matter and tables copy parts of lines.
    static let documents = [
        "",
        "plain paragraph\nsecond line\n",
        "---\ntitle: A\ntags: [x, y]\n---\n# Heading\n\ntext\n",
        "> quoted *one*\n> - item [[Note]]\n>   more\n\n1. first\n   continued\n2. second\n",
        "-\tTab item\n\t\tindented code\n\n  \tmixed\n",
        "| a | b |\n|---|---|\n| [x](y) | `c` |\n| d \\| e | f |\n",
        "    code\n\n> > deep\n> > quote with #tag\n\nlast",
        "\u{FEFF}Émoji 🎉 line\n> ü quoted\r\n> next\r\n",
    ]

    func testTheCursorMapsAsTheTreeDoes() {
        for text in Self.documents {
            let tree = MarkdownParser.parse(text)
            let offsets = Array(-1...(tree.content.count + 2))
            var generator = SystemRandomNumberGenerator()
            for order in [offsets, offsets.reversed(), offsets.shuffled(using: &generator)] {
                var cursor = ContentSourceCursor(tree)
                for offset in order {
                    XCTAssertEqual(cursor.sourceOffset(forContent: offset), tree.sourceOffset(forContent: offset),
                                   "offset \(offset) of \(text.debugDescription)")
                }
            }
            var cursor = ContentSourceCursor(tree)
            for start in 0...tree.content.count {
                for end in [start, start + 1, start + 7, tree.content.count] where end <= tree.content.count {
                    let span = ByteSpan(start, end)
                    XCTAssertEqual(cursor.sourceRange(forContent: span), tree.sourceRange(forContent: span), "\(span) of \(text.debugDescription)")
                }
            }
        }
    }

    /// The documents do cut content into runs (else the test would not test the cache).
    func testTheDocumentsHaveSeveralRuns() {
        XCTAssertGreaterThan(Self.documents.map { MarkdownParser.parse($0).contentToSource.count }.max() ?? 0, 5)
    }
}
