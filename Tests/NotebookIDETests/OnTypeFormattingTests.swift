import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// The other on-type triggers (fences, wiki-links, table pipes) and line breaks in tables: the
/// fixture is the text after the keystroke, `$0` the cursor.
final class OnTypeFormattingTests: XCTestCase {
    func testTheThirdBacktickClosesTheFence() {
        EditingCheck.check("`", [
            ("Text\n\n```$0\n\nMore\n", "Text\n\n```$0\n```\n\nMore\n"),
            ("```$0\n", "```$0\n```\n"),
            // At the very end of the note the cursor's place is given.
            ("```$0", "```$0\n```"),
            ("```$0\r\nText\r\n", "```$0\r\n```\r\nText\r\n"),
            ("  ```$0\n", "  ```$0\n  ```\n"),
            ("> ```$0\n", "> ```$0\n> ```\n"),
            ("- a\n\n  ```$0\n", "- a\n\n  ```$0\n  ```\n"),
            // Blocks below that are closed do not close this one.
            ("```$0\n\nText\n\n```js\nx\n```\n", "```$0\n```\n\nText\n\n```js\nx\n```\n"),
            ("~~~\ncode\n~~~\n```$0\n", "~~~\ncode\n~~~\n```$0\n```\n"),
        ])
    }

    func testNoClosingFenceWhereItWouldBeWrong() {
        EditingCheck.check("`", [
            // The closing fence of a block.
            ("```\ncode\n```$0\n", nil),
            // The opening fence of a block left open below.
            ("```$0\ncode\n```\n", nil),
            // Not the start of a line, not three backticks, text after the cursor.
            ("Text ```$0\n", nil),
            ("````$0\n", nil),
            ("``$0\n", nil),
            ("```$0 x\n", nil),
            ("    ```$0\n", nil),
            // Inside code or the front matter.
            ("~~~\n```$0\n~~~\n", nil),
            ("---\n```$0\n---\n", nil),
        ])
    }

    func testASecondBracketClosesTheWikiLink() {
        EditingCheck.check("[", [
            ("See [[$0", "See [[$0]]"),
            ("See [[$0 more", "See [[$0]] more"),
            ("See [[$0\nmore", "See [[$0]]\nmore"),
            ("[[$0", "[[$0]]"),
            // An editor that paired the first `[` left one `]`.
            ("See [[$0]", "See [[$0]]"),
            ("See [[$0] x", "See [[$0]] x"),
            ("See [[$0]]", nil),
            ("See [$0", nil),
            ("See [[[$0", nil),
            ("See \\[[$0", nil),
            ("`code [[$0`", nil),
            ("```\n[[$0\n```\n", nil),
            ("<https://x/[[$0>", nil),
        ])
        XCTAssertNil(EditingCheck.typing("[", "See [[$0", extensions: .gfm))
    }

    func testALineBreakInATableStartsARow() {
        // The new row gets its leading pipe and nothing after the cursor: the writer types the
        // cells and pipes, and no pipe ends up twice.
        EditingCheck.check("\n", [
            ("| a | b |\n|---|---|\n| c | d |\n$0\n", "| a | b |\n|---|---|\n| c | d |\n| $0\n"),
            ("| a | b |\n|---|---|\n$0\n", "| a | b |\n|---|---|\n| $0\n"),
            ("| a | b | c |\n|---|---|---|\n| x |\n$0\nNext\n", "| a | b | c |\n|---|---|---|\n| x |\n| $0\nNext\n"),
            ("| a |\n|---|\n| b |\n$0", "| a |\n|---|\n| b |\n| $0"),
            ("| a |\n|---|\n| b |\n  $0\n", "| a |\n|---|\n| b |\n| $0\n"),
            ("> | a |\n> |---|\n> | b |\n$0\n", "> | a |\n> |---|\n> | b |\n> | $0\n"),
            ("- item\n\n  | a |\n  |---|\n  | b |\n$0\n", "- item\n\n  | a |\n  |---|\n  | b |\n  | $0\n"),
            // A table without outer pipes gets a row with them (a row of empty cells needs them).
            ("a | b\n--|--\nc | d\n$0\n", "a | b\n--|--\nc | d\n| $0\n"),
            // An empty row ends the table: the leading pipe a line break wrote, or empty cells.
            ("| a |\n|---|\n| b |\n| \n$0\n", "| a |\n|---|\n| b |\n\n$0\n"),
            ("| a |\n|---|\n| b |\n|\n$0\n", "| a |\n|---|\n| b |\n\n$0\n"),
            ("| a |\n|---|\n| b |\n|  |\n$0\n", "| a |\n|---|\n| b |\n\n$0\n"),
            ("| a | b |\n|---|---|\n|  |  |\n$0\n", "| a | b |\n|---|---|\n\n$0\n"),
            ("> | a |\n> |---|\n> | \n$0\n", "> | a |\n> |---|\n>\n> $0\n"),
            // The header row is no place for a row; code is not a table.
            ("| a | b |\n$0\n|---|---|\n", nil),
            ("```\n| a |\n|---|\n| b |\n$0\n```\n", nil),
            // Text carried to the new line: nothing.
            ("| a |\n|---|\n| b\n$0 |\n", nil),
            ("Not | a table\n$0\n", nil),
        ])
    }

    func testAPipeAtTheEndOfARowAlignsTheTable() {
        EditingCheck.check("|", [
            ("| a | b |\n|-|-|\n| longer | x |$0\n", "| a      | b   |\n| ------ | --- |\n| longer | x   |$0\n"),
            // The row being typed keeps its cells (it is not filled).
            ("| a | b |\n|---|---|\n| c |$0", "| a   | b   |\n| --- | --- |\n| c   |$0"),
            ("| a | b |\n|---|---|\n| c |$0  \n\nafter\n", "| a   | b   |\n| --- | --- |\n| c   |$0\n\nafter\n"),
            // The delimiter row just finished.
            ("| name | v |\n|-|-|$0\n", "| name | v   |\n| ---- | --- |$0\n"),
            // Rows below the cursor are aligned too.
            ("| a |\n|-|$0\n| bb |\n", "| a   |\n| --- |$0\n| bb  |\n"),
            // A pipe typed after the `| ` a line break wrote is that leading pipe, not a cell.
            ("| a | b |\n|---|---|\n| c | d |\n| |$0\n", "| a | b |\n|---|---|\n| c | d |\n|$0\n"),
            ("> | a |\n> |---|\n> | |$0", "> | a |\n> |---|\n> |$0"),
            // An empty cell typed with two spaces is a cell.
            ("| a | b |\n|---|---|\n|  |$0\n", "| a   | b   |\n| --- | --- |\n|     |$0\n"),
        ])
        EditingCheck.check("|", [
            ("| a |$0 b |\n|---|---|\n", nil),
            ("| a \\|$0\n|---|\n", nil),
            ("| a | b |$0\n", nil),
            ("| a   | b   |\n| --- | --- |$0\n", nil),
            ("```\n| a |\n|-|$0\n```\n", nil),
            // The first pipe of a row, typed by hand, is its leading pipe: nothing to align.
            ("| a | b |\n|---|---|\n| c | d |\n|$0\n", nil),
            ("| a | b |\n|---|---|\n  |$0", nil),
            ("> | a |\n> |---|\n> |$0", nil),
            // `| |` outside a table is only text.
            ("Text\n| |$0\n", nil),
        ])
    }

    func testOtherCharactersDoNothing() {
        XCTAssertNil(EditingCheck.typing("a", "- a\n$0"))
        XCTAssertNil(EditingCheck.typing("\n", "$0"))
        XCTAssertNil(EditingCheck.typing("`", "$0"))
        XCTAssertNil(EditingCheck.typing("|", "$0"))
        XCTAssertEqual(OnTypeFormatting.edits(typed: "\n", at: 99, in: Array("- a\n".utf8)).replacements.count, 1)
        XCTAssertEqual(OnTypeFormatting.edits(typed: "\n", at: -5, in: Array("- a\n".utf8)), .none)
    }
}
