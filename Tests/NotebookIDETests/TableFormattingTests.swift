import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE
import TextCore

/// `formatting` and `rangeFormatting` of GFM tables: the note before and after.
final class TableFormattingTests: XCTestCase {
    /// The note after its table edits; nil when there are none. A fixture with a `$0…$0` range
    /// formats the tables that range touches.
    private func format(_ fixture: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        let (text, offsets) = Fixture.removingMarkers(fixture)
        let bytes = Array(text.utf8)
        let tree = MarkdownParser.parse(bytes, options: .notebook)
        let edits = offsets.count == 2
            ? TableFormatting.edits(for: tree, in: ByteSpan(offsets[0], offsets[1]))
            : TableFormatting.edits(for: tree)
        guard !edits.isEmpty else { return nil }
        let applied = EditingCheck.apply(edits, to: bytes, cursor: nil, file: file, line: line).text
        // Formatting never changes what the tables hold.
        XCTAssertEqual(cells(MarkdownParser.parse(applied, options: .notebook)), cells(tree), "cells changed", file: file, line: line)
        return String(decoding: applied, as: UTF8.self)
    }

    /// The text of every table cell, row by row.
    private func cells(_ tree: SyntaxTree) -> [[String]] {
        tree.nodes.indices.filter { tree.nodes[$0].kind == .tableRow }.map { row in
            tree.children(of: NodeID(row)).map { String(decoding: tree.contentBytes(of: $0), as: UTF8.self) }
        }
    }

    private func check(_ cases: [(String, String?)], file: StaticString = #filePath, line: UInt = #line) {
        for (fixture, expected) in cases {
            Expect.equal(format(fixture, file: file, line: line), expected, fixture: fixture, file: file, line: line)
        }
    }

    func testColumnsLineUp() {
        check([
            ("| a | b |\n|-|-|\n| longer | x |\n", "| a      | b   |\n| ------ | --- |\n| longer | x   |\n"),
            ("|a|b|\n|---|---|\n|c|d|\n", "| a   | b   |\n| --- | --- |\n| c   | d   |\n"),
            // A header alone.
            ("| name |\n|:-|\n", "| name |\n| :--- |\n"),
            ("Intro\n| a |\n|---|\n| bb |\nnext row\n\nAfter\n", "Intro\n| a        |\n| -------- |\n| bb       |\nnext row\n\nAfter\n"),
            ("| a | b |\r\n|-|-|\r\n| c | d |\r\n", "| a   | b   |\r\n| --- | --- |\r\n| c   | d   |\r\n"),
        ])
    }

    func testAlignmentColonsAndPadding() {
        check([
            ("| a | b | c | d |\n|:--|:-:|--:|---|\n| left | mid | right | none |\n",
             "| a    |  b  |     c | d    |\n| :--- | :-: | ----: | ---- |\n| left | mid | right | none |\n"),
            // Centred: the odd space goes to the right.
            ("| title |\n|:-:|\n| ab |\n", "| title |\n| :---: |\n|  ab   |\n"),
            ("| n |\n|--:|\n| 1 |\n| 100 |\n", "|   n |\n| --: |\n|   1 |\n| 100 |\n"),
        ])
    }

    func testWideAndZeroWidthCharacters() {
        check([
            ("| 名前 | 値 |\n|---|---|\n| 東京 | 1 |\n| abc | 22 |\n",
             "| 名前 | 値  |\n| ---- | --- |\n| 東京 | 1   |\n| abc  | 22  |\n"),
            ("| 🎉 | a |\n|---|---|\n| x | b |\n", "| 🎉  | a   |\n| --- | --- |\n| x   | b   |\n"),
            ("| flag | who |\n|---|---|\n| 🇯🇵 | 👨‍👩‍👧 |\n| café | é |\n",
             "| flag | who |\n| ---- | --- |\n| 🇯🇵   | 👨‍👩‍👧  |\n| café | é   |\n"),
            ("| ｶﾅ | ＡＢ |\n|-|-|\n", "| ｶﾅ  | ＡＢ |\n| --- | ---- |\n"),
        ])
    }

    func testEscapedPipesAndCodeSpans() {
        check([
            ("| a \\| b | c |\n|---|---|\n| x | y |\n", "| a \\| b | c   |\n| ------ | --- |\n| x      | y   |\n"),
            ("| `a\\|b` | c |\n|-|-|\n| long text | d |\n", "| `a\\|b`    | c   |\n| --------- | --- |\n| long text | d   |\n"),
            // GFM: a pipe in a code span splits the cell unless it is escaped; the cells stay.
            ("| `a|b` | c |\n|-|-|-|\n", "| `a  | b`  | c   |\n| --- | --- | --- |\n"),
            // An escaped pipe at the end is no closing pipe.
            ("| a | b \\|\n|-|-|\n", "| a   | b \\|\n| --- | ---- |\n"),
        ])
    }

    func testMissingAndExtraCells() {
        check([
            ("| a | b | c |\n|---|---|---|\n| x |\n", "| a   | b   | c   |\n| --- | --- | --- |\n| x   |     |     |\n"),
            ("| a | b |\n|---|---|\n| x | y | zz |\n| p |\n", "| a   | b   |\n| --- | --- |\n| x   | y   | zz |\n| p   |     |\n"),
            // A row without a closing pipe gets one when its last cell is empty.
            ("a | b\n--|--\nx\n", "a   | b\n--- | ---\nx   |     |\n"),
        ])
    }

    func testPipesIndentationAndQuotesAreKept() {
        check([
            ("a | b\n--|--\nlonger | c\n", "a      | b\n------ | ---\nlonger | c\n"),
            ("| a | b\n|-|-\n| c | d\n", "| a   | b\n| --- | ---\n| c   | d\n"),
            ("> | a | b |\n> |--|--|\n> | c | d |\n", "> | a   | b   |\n> | --- | --- |\n> | c   | d   |\n"),
            (">| a |\n>|-|\n", ">| a   |\n>| --- |\n"),
            ("- item\n\n  | a |\n  |-|\n  | bb |\n", "- item\n\n  | a   |\n  | --- |\n  | bb  |\n"),
            ("   | a |\n   |-|\n", "   | a   |\n   | --- |\n"),
            ("| a |  \n|-|\n", "| a   |\n| --- |\n"),
        ])
    }

    func testOnlyTablesAreTouched() {
        check([
            // Already aligned: no edit.
            ("| a   |  b  |\n| --- | :-: |\n| c   |  d  |\n", nil),
            ("# Title\n\nNo tables | here.\n\n- a | b\n", nil),
            ("", nil),
            ("```\n| a |\n|-|\n| b |\n```\n", nil),
            ("    | a |\n    |-|\n", nil),
            ("---\ntitle: a | b\nx: |-|\n---\n", nil),
            ("<div>\n| a |\n|-|\n</div>\n", nil),
            // A dash line under a header is a setext heading.
            ("a | b\n---\n", nil),
            // The delimiter row must have the header's cells.
            ("| a | b |\n|---|\n", nil),
            // A table that starts on a list item's line is left as it is.
            ("- | a |\n  |-|\n", nil),
        ])
        // Text around a table stays byte for byte.
        check([("Before *x*  \n\n|a|\n|-|\n\n  After  \n", "Before *x*  \n\n| a   |\n| --- |\n\n  After  \n")])
    }

    func testRangeFormattingTouchesTheTablesInTheRange() {
        let note = "|a|\n|-|\n\nText\n\n|b|\n|-|\n\nEnd\n"
        check([
            ("|a|\n|-|\n\nText\n\n|b$0|$0\n|-|\n\nEnd\n", "|a|\n|-|\n\nText\n\n| b   |\n| --- |\n\nEnd\n"),
            ("|a|\n|-|\n\nTe$0xt\n\n|b|\n|-$0|\n\nEnd\n", "|a|\n|-|\n\nText\n\n| b   |\n| --- |\n\nEnd\n"),
            ("|a$0|\n|-|\n\nText\n\n|b|\n|-$0|\n\nEnd\n", "| a   |\n| --- |\n\nText\n\n| b   |\n| --- |\n\nEnd\n"),
            ("|a|\n|-|\n\n$0Text$0\n\n|b|\n|-|\n\nEnd\n", nil),
            ("|a|\n|-|\n\nText\n\n|b|\n|-|\n\nE$0n$0d\n", nil),
        ])
        XCTAssertEqual(format(note), "| a   |\n| --- |\n\nText\n\n| b   |\n| --- |\n\nEnd\n")
    }
}
