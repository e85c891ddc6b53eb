import XCTest
import MarkdownSyntax
@testable import NotebookIDE

/// What an editor can fold in a note, in 0-based lines.
final class NavigationFoldingTests: XCTestCase {
    private func folds(_ text: String) -> [String] {
        let ranges = FoldingRanges.compute(MarkdownParser.parse(text))
        for range in ranges { XCTAssertGreaterThan(range.endLine, range.startLine, "\(range)") }
        return ranges.map { "\($0.startLine)-\($0.endLine) \($0.kind)" }
    }

    func testEveryKindOfBlockFolds() {
        let text = """
            ---
            title: x
            ---
            # A

            text
            more

            ## B
            - a
              - b
              - c
            - d

            ```
            code
            ```

            > q
            > r

            <!-- c
            d -->

            | a | b |
            |---|---|
            | 1 | 2 |

            $$
            x
            $$

                ind
                ent

            Setext
            ===
            para

            # C
            text

            """
        XCTAssertEqual(folds(text), [
            "0-2 imports",   // front matter
            "3-33 region",   // section A runs to the line before the setext H1, blank lines left out
            "8-33 region",   // section B ends with A
            "9-12 region",   // the list
            "9-11 region",   // its first item, which holds a nested list
            "10-11 region",  // the nested list (its items are one line each)
            "14-16 region",  // fenced code, closing fence included
            "18-19 region",  // block quote
            "21-22 comment", // HTML comment
            "24-26 region",  // table
            "28-30 region",  // math block
            "32-33 region",  // indented code, without the blank line after it
            "35-37 region",  // setext section
            "39-40 region",  // last section runs to the end
        ])
    }

    func testRegionMarkersFoldAndHeadingsInsideContainersMakeNoSection() {
        let text = "<!-- #region Setup -->\na\n\nb\n<!-- #endregion -->\n> # Quoted\n> text\n"
        XCTAssertEqual(folds(text), ["0-4 region", "5-6 region"])
    }

    func testOneLineBlocksAndParagraphsDoNotFold() {
        XCTAssertEqual(folds("# A\n\nA paragraph\nof two lines.\n"), ["0-3 region"])
        XCTAssertEqual(folds("- one\n\n# B\n"), [])
        XCTAssertEqual(folds(""), [])
    }

    func testCarriageReturnLineEndingsCountAsOneLineEach() {
        XCTAssertEqual(folds("# A\r\ntext\r\n\r\n# B\r\nx\r\n"), ["0-1 region", "3-4 region"])
        XCTAssertEqual(folds("# A\rtext\r# B\rx"), ["0-1 region", "2-3 region"])
    }

    func testDeeplyNestedQuotesDoNotRecurse() {
        let depth = 5_000
        let text = String(repeating: "> ", count: depth) + "a\n" + String(repeating: "> ", count: depth) + "b\n"
        let ranges = FoldingRanges.compute(MarkdownParser.parse(text))
        // Every nesting level covers the same two lines, so duplicates collapse to one range.
        XCTAssertEqual(ranges, [FoldingRange(startLine: 0, endLine: 1, kind: .region)])
    }
}

/// Folding ranges as the server answers them (`IDECheck`).
final class NavigationFoldingCheckTests: XCTestCase {
    func testFolding() {
        IDECheck.folding("""
            ---
            title: x
            ---
            # A$0

            - a
              - b

            ```
            code
            ```
            <!--
            note
            -->
            """, "0-2 imports\n3-13 region\n5-6 region\n8-10 region\n11-13 comment")
    }
}
