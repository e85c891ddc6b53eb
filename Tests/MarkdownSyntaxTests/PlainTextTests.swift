import XCTest
import MarkdownSyntax

/// The plain text of headings and the ids made from it: what an outline, the index and the
/// renderer's heading ids all show.
final class PlainTextTests: XCTestCase {
    private func anchors(_ markdown: String) -> [HeadingAnchor] {
        MarkdownParser.parse(Array(markdown.utf8), options: .notebook).headingAnchors()
    }

    func testHeadingTextIsWhatAReaderSees() {
        let cases: [(String, String, String)] = [
            ("# Hello *world* `a  b` \\* &amp;", "Hello world a  b * &", "hello-world-a--b--"),
            ("# ![image](i.png) <span>raw</span> note[^1]\n\n[^1]: x", " raw note", "-raw-note"),
            ("## [[note#Part#Sub^id]] and [[n|Label]] #tag $x$", "note > Part > Sub > ^id and Label #tag x",
             "note--part--sub--id-and-label-tag-x"),
            ("# <https://a.b/&amp;c> and www.x.org", "https://a.b/&c and www.x.org", "httpsabc-and-wwwxorg"),
            ("# `` `x` ``", "`x`", "x"),
            ("Setext *one*\n===", "Setext one", "setext-one"),
        ]
        for (markdown, text, id) in cases {
            let found = anchors(markdown)
            XCTAssertEqual(found.map(\.text), [text], markdown)
            XCTAssertEqual(found.map(\.id), [id], markdown)
        }
    }

    func testRepeatedHeadingsGetNumberedIdsInDocumentOrder() {
        let found = anchors("# A\n## A\n> # A\n- ### A-1\n")
        XCTAssertEqual(found.map(\.id), ["a", "a-1", "a-2", "a-1-1"])
        XCTAssertEqual(found.map(\.level), [1, 2, 1, 3])
    }

    func testBadBytesAreRepairedOverTheWholeText() {
        // NUL reads as U+FFFD; a sequence cut by a code span still reads as one character.
        let found = MarkdownParser.parse([0x23, 0x20, 0x61, 0x00, 0x62, 0x0A, 0x23, 0x20, 0x63, 0xC3, 0x60, 0xA9, 0x60]).headingAnchors()
        XCTAssertEqual(found.map(\.text), ["a\u{FFFD}b", "c\u{E9}"])
    }

    func testPlainTextOfAnyNodeNeverTraps() {
        let tree = MarkdownParser.parse(Array("# x\n\n*a* b".utf8))
        XCTAssertEqual(tree.plainText(of: -1), "")
        XCTAssertEqual(tree.plainText(of: NodeID(tree.nodes.count)), "")
        XCTAssertEqual(tree.plainText(of: SyntaxTree.root), "xa b")
    }
}
