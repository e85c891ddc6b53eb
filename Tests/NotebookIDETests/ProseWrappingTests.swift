import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE
import TextCore

/// `gq` through the server: the paragraph lines a range touches filled to a width, without
/// changing what the note says. Fixtures mark the range with two `$0` (one `$0`: that line).
final class ProseWrappingTests: XCTestCase {
    func wrapped(_ fixture: String, width: Int, file: StaticString = #filePath, line: UInt = #line) -> String {
        let (text, offsets) = Fixture.removingMarkers(fixture)
        let bytes = Array(text.utf8)
        let tree = MarkdownParser.parse(bytes, options: .notebook)
        let range = ByteSpan(offsets.first ?? 0, offsets.count > 1 ? offsets[1] : (offsets.first ?? 0))
        let edits = ProseWrapping.edits(for: tree, in: range, width: width)
        return String(decoding: EditingCheck.apply(edits, to: bytes, cursor: nil, file: file, line: line).text, as: UTF8.self)
    }

    func testAParagraphIsFilledAsVimFillsIt() {
        // What `gqap` with textwidth=40 gives in Vim.
        XCTAssertEqual(wrapped("$0A paragraph long enough that it runs past forty columns and has to be wrapped.$0\n", width: 40),
                       "A paragraph long enough that it runs\npast forty columns and has to be\nwrapped.\n")
        // Short lines are joined; a word longer than the width stands alone.
        XCTAssertEqual(wrapped("$0one\ntwo\nthree$0\n", width: 40), "one two three\n")
        XCTAssertEqual(wrapped("$0a https://example.com/a/very/long/path/that/does/not/fit b$0\n", width: 20),
                       "a\nhttps://example.com/a/very/long/path/that/does/not/fit\nb\n")
        // Already filled: no edit.
        XCTAssertEqual(wrapped("$0A short line.$0\n", width: 40), "A short line.\n")
    }

    func testOnlyTheRangesLinesAndOnlyParagraphs() {
        let note = "# A heading that is far longer than the width allows\n\nfirst line of a paragraph that is long\n$0second line of it, which is long too$0\nthird line stays\n\n```\ncode that is long and must stay as it is\n```\n"
        XCTAssertEqual(wrapped(note, width: 20),
                       "# A heading that is far longer than the width allows\n\nfirst line of a paragraph that is long\nsecond line of it,\nwhich is long too\nthird line stays\n\n```\ncode that is long and must stay as it is\n```\n")
        // A table is no paragraph, even the one its header row began as.
        XCTAssertEqual(wrapped("$0| bed | crop                 |\n| --- | -------------------- |\n| A   | beans and more beans |$0\n", width: 20),
                       "| bed | crop                 |\n| --- | -------------------- |\n| A   | beans and more beans |\n")
        // A range over everything leaves the heading, code and tables alone.
        let all = "$0# Title that is long\n\n| a | b |\n|---|---|\n| a long cell | x |\n\n    indented code is code too\n\ntext text text text$0\n"
        XCTAssertEqual(wrapped(all, width: 10), "# Title that is long\n\n| a | b |\n|---|---|\n| a long cell | x |\n\n    indented code is code too\n\ntext text\ntext text\n")
    }

    func testContainersAreKept() {
        XCTAssertEqual(wrapped("$0> quoted words that need wrapping here$0\n", width: 16), "> quoted words\n> that need\n> wrapping here\n")
        XCTAssertEqual(wrapped("$0- an item whose text wraps twice over$0\n", width: 16), "- an item whose\n  text wraps\n  twice over\n")
        XCTAssertEqual(wrapped("$01. an ordered item whose text wraps$0\n", width: 19), "1. an ordered item\n   whose text wraps\n")
        XCTAssertEqual(wrapped("$0- [ ] a task whose text wraps over$0\n", width: 18), "- [ ] a task whose\n  text wraps over\n")
        XCTAssertEqual(wrapped("$0> - quoted item whose text wraps$0\n", width: 18), "> - quoted item\n>   whose text\n>   wraps\n")
        // A lazy continuation line gets the quote's marker: the same quote.
        XCTAssertEqual(wrapped("$0> one two\nthree four five six$0\n", width: 40), "> one two three four five six\n")
    }

    func testNothingChangesMeaning() {
        // No line may start with what would begin another block.
        for word in ["-", "+", "*", "#", "##", "1.", "1)", ">", "```", "~~~", "$$", "<div>", "---", "===", "***"] {
            let note = "$0aaaa bbbb \(word) cc$0\n"
            let result = wrapped(note, width: 10)
            let lines = result.split(separator: "\n").map(String.init)
            XCTAssertFalse(lines.dropFirst().contains { $0.hasPrefix(word) }, "\(word): \(result.debugDescription)")
            XCTAssertEqual(result.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces), "aaaa bbbb \(word) cc",
                           "the words are kept")
        }
        // What cannot interrupt a paragraph may start a line: `12)` (only a list that starts at 1
        // can), `<span>` (an inline tag), `#tag`.
        XCTAssertEqual(wrapped("$0aaaa bbbb 12) <span>x</span> #tag cc$0\n", width: 10), "aaaa bbbb\n12)\n<span>x</span>\n#tag cc\n")
        // Wiki-links and formulas do not break; a hard line break stays.
        XCTAssertEqual(wrapped("$0see [[a note with spaces]] and $x + y = z$ ok$0\n", width: 12),
                       "see\n[[a note with spaces]]\nand\n$x + y = z$\nok\n")
        XCTAssertEqual(wrapped("$0one two  \nthree four\\\nfive six seven$0\n", width: 40), "one two  \nthree four\\\nfive six seven\n")
        // Display width: CJK counts two.
        XCTAssertEqual(wrapped("$0日本語 日本語 日本語$0\n", width: 14), "日本語 日本語\n日本語\n")
    }

    func testTheResultParsesToTheSameText() {
        let note = "$0Some *emphasis that spans* words, a [link with text](https://x.org/a \"title here\"), `code span`, a #tag and ^id\n\n> - quoted item with **strong words** in it and more words\n$0"
        let result = wrapped(note, width: 20)
        // The same blocks and inlines, the same words: only soft line breaks moved.
        func shape(_ text: String) -> String {
            let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
            let kinds = tree.nodes.indices.map { tree.nodes[$0].kind }.filter { $0 != .softBreak && $0 != .text }
            let words = tree.plainText(of: SyntaxTree.root).split(whereSeparator: { $0 == " " || $0 == "\n" })
            return "\(kinds) \(words)"
        }
        XCTAssertEqual(shape(result), shape(Fixture.removingMarkers(note).text))
        XCTAssertTrue(result.split(separator: "\n").allSatisfy { DisplayWidth.columns(String($0)) <= 20 || !$0.contains(" ") }, result)
    }
}
