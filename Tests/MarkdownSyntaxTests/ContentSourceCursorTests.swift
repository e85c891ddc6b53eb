import XCTest
@testable import MarkdownSyntax
import TextCore

/// `ContentSourceCursor` (and the tree's look-ups, made through it) must map every content
/// offset as the mapping says, whatever order the offsets come in: forwards (as the extractor
/// reads), backwards and jumping between runs (a cached run must never answer for an offset
/// outside it). The expected offsets come from a plain scan of the pairs.
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

    /// The mapping by its definition: the last pair whose content offset is at or before
    /// `offset` moves it by its delta; before the first pair it stays; never past the source.
    static func expected(_ tree: SyntaxTree, _ offset: Int) -> Int {
        guard let pair = tree.contentToSource.last(where: { Int($0.content) <= offset }) else { return min(offset, tree.source.count) }
        return min(Int(pair.source) + (offset - Int(pair.content)), tree.source.count)
    }

    static func expected(_ tree: SyntaxTree, _ span: ByteSpan) -> Range<Int> {
        let start = expected(tree, Int(span.start))
        if span.end <= span.start { return start..<start }
        return start..<max(start, min(expected(tree, Int(span.end) - 1) + 1, tree.source.count))
    }

    func testTheCursorMapsAsTheTreeDoes() {
        for text in Self.documents {
            let tree = MarkdownParser.parse(text)
            let offsets = Array(-1...(tree.content.count + 2))
            var generator = SystemRandomNumberGenerator()
            for order in [offsets, offsets.reversed(), offsets.shuffled(using: &generator)] {
                var cursor = ContentSourceCursor(tree)
                for offset in order {
                    XCTAssertEqual(cursor.sourceOffset(forContent: offset), Self.expected(tree, offset),
                                   "offset \(offset) of \(text.debugDescription)")
                    XCTAssertEqual(tree.sourceOffset(forContent: offset), Self.expected(tree, offset))
                }
            }
            var cursor = ContentSourceCursor(tree)
            for start in 0...tree.content.count {
                for end in [start, start + 1, start + 7, tree.content.count] where end <= tree.content.count {
                    let span = ByteSpan(start, end)
                    XCTAssertEqual(cursor.sourceRange(forContent: span), Self.expected(tree, span), "\(span) of \(text.debugDescription)")
                    XCTAssertEqual(tree.sourceRange(forContent: span), Self.expected(tree, span))
                }
            }
        }
    }

    /// The documents do cut content into runs (else the test would not test the cache).
    func testTheDocumentsHaveSeveralRuns() {
        XCTAssertGreaterThan(Self.documents.map { MarkdownParser.parse($0).contentToSource.count }.max() ?? 0, 5)
    }
}
