import TestSupport
import XCTest
@testable import NotebookIDE

/// A line break typed after a list item or a quote line: the fixture is the text after the
/// keystroke, `$0` the cursor on the new line; the expected text shows where the cursor ends up.
final class ListContinuationTests: XCTestCase {
    private func check(_ cases: [(String, String?)], file: StaticString = #filePath, line: UInt = #line) {
        EditingCheck.check("\n", cases, file: file, line: line)
    }

    func testBulletsOrderedAndTaskItems() {
        check([
            ("- a\n$0", "- a\n- $0"),
            ("* a\n$0", "* a\n* $0"),
            ("+ a\n$0", "+ a\n+ $0"),
            ("1. a\n$0", "1. a\n2. $0"),
            ("1) a\n$0", "1) a\n2) $0"),
            ("9. a\n$0", "9. a\n10. $0"),
            ("41. a\n$0", "41. a\n42. $0"),
            ("- [ ] todo\n$0", "- [ ] todo\n- [ ] $0"),
            ("- [x] done\n$0", "- [x] done\n- [ ] $0"),
            ("* [X] done\n$0", "* [X] done\n* [ ] $0"),
            ("1. [x] done\n$0", "1. [x] done\n2. [ ] $0"),
            ("-   wide\n$0", "-   wide\n-   $0"),
            ("1.  two spaces\n$0", "1.  two spaces\n2.  $0"),
            ("- a\r\n$0", "- a\r\n- $0"),
            ("Intro\n\n- a\n$0\n\nAfter\n", "Intro\n\n- a\n- $0\n\nAfter\n"),
        ])
    }

    func testNestingAndQuotesKeepTheirIndentation() {
        check([
            ("- a\n  - b\n$0", "- a\n  - b\n  - $0"),
            ("1. a\n   1. b\n$0", "1. a\n   1. b\n   2. $0"),
            ("\t- tab\n$0", "\t- tab\n\t- $0"),
            // Indentation the editor added is replaced.
            ("- a\n  - b\n  $0", "- a\n  - b\n  - $0"),
            ("- a\n    $0", "- a\n- $0"),
            ("> quote\n$0", "> quote\n> $0"),
            (">quote\n$0", ">quote\n>$0"),
            ("> > nested\n$0", "> > nested\n> > $0"),
            ("> - item\n$0", "> - item\n> - $0"),
            ("> 1. item\n$0", "> 1. item\n> 2. $0"),
            (">   - deep\n$0", ">   - deep\n>   - $0"),
            ("- > quote in an item\n$0", "- > quote in an item\n  > $0"),
            ("1. - [ ] both\n$0", "1. - [ ] both\n   - [ ] $0"),
        ])
    }

    /// Text after the cursor (a line split in two) moves into the new item.
    func testTextAfterTheCursorBecomesTheNewItem() {
        check([
            ("- ab\n$0cd", "- ab\n- $0cd"),
            ("1. ab\n$0cd\n2. next\n", "1. ab\n2. $0cd\n3. next\n"),
            ("- \n$0text", "- \n- $0text"),
            // The blanks the carried text began with go.
            ("- split\n$0 here\n", "- split\n- $0here\n"),
            ("> quote\n$0   rest", "> quote\n> $0rest"),
        ])
    }

    func testOrderedItemsBelowAreRenumbered() {
        check([
            ("1. a\n$0\n2. b\n3. c\n", "1. a\n2. $0\n3. b\n4. c\n"),
            ("1) a\n$0\n2) b\n", "1) a\n2) $0\n3) b\n"),
            // Nested content, blank lines and lazy lines stay in the list; a paragraph after a
            // blank line ends it.
            ("1. a\n$0\n2. b\n\n   more\n   - x\n   1. nested\n3. c\nlazy\n4. d\n\nText\n5. e\n",
             "1. a\n2. $0\n3. b\n\n   more\n   - x\n   1. nested\n4. c\nlazy\n5. d\n\nText\n5. e\n"),
            // Another delimiter starts another list.
            ("1. a\n$0\n2) b\n", "1. a\n2. $0\n2) b\n"),
            // A nested list ends at its parent's next item.
            ("1. a\n   1. x\n$0\n   2. y\n2. b\n", "1. a\n   1. x\n   2. $0\n   3. y\n2. b\n"),
            ("> 1. a\n$0\n> 2. b\n>\n> 3. c\n\n4. out\n", "> 1. a\n> 2. $0\n> 3. b\n>\n> 4. c\n\n4. out\n"),
            // Code in an item is not an item.
            ("1. a\n$0\n2. b\n   ```\n   3. code\n   ```\n3. c\n", "1. a\n2. $0\n3. b\n   ```\n   3. code\n   ```\n4. c\n"),
            // Numbers that do not count up are kept.
            ("1. a\n$0\n1. b\n1. c\n", "1. a\n1. $0\n1. b\n1. c\n"),
            // Numbers already right are not edited.
            ("1. a\n$0\n3. b\n4. c\n", "1. a\n2. $0\n3. b\n4. c\n"),
        ])
    }

    func testEmptyItemsEndTheirListOrMoveOut() {
        check([
            ("- a\n- \n$0", "- a\n\n$0"),
            ("- a\n-\n$0", "- a\n\n$0"),
            ("1. a\n2. \n$0", "1. a\n\n$0"),
            ("- [ ] a\n- [ ] \n$0", "- [ ] a\n\n$0"),
            ("- [x] a\n- [x]\n$0", "- [x] a\n\n$0"),
            ("- a\n- \n  $0", "- a\n\n$0"),
            // A nested empty item becomes the next item of its parent's list.
            ("- a\n  - b\n  - \n$0", "- a\n  - b\n- $0"),
            ("- a\n  - b\n  - \n  $0", "- a\n  - b\n- $0"),
            ("1. a\n   - b\n   - \n$0\n2. c\n", "1. a\n   - b\n2. $0\n3. c\n"),
            ("- a\n\n  text\n\n  - \n$0", "- a\n\n  text\n\n- $0"),
            ("> - a\n>   - \n$0", "> - a\n> - $0"),
            ("- [ ] a\n  - [ ] \n$0", "- [ ] a\n- [ ] $0"),
            // The parent on the same line.
            ("- - \n$0", "- $0"),
            ("1. - - \n$0", "   - $0"),
            // Not nested: indented less than the item above's content.
            ("-    a\n  - \n$0", "-    a\n\n  $0"),
            // A paragraph after a blank line is no parent.
            ("- a\n\npara\n\n  - \n$0", "- a\n\npara\n\n\n  $0"),
            // Quotes end one level at a time; the outer quote stays.
            ("> a\n> \n$0", "> a\n\n$0"),
            (">\n$0", "\n$0"),
            ("> > a\n> > \n$0", "> > a\n>\n> $0"),
            ("> - a\n> - \n$0", "> - a\n>\n> $0"),
            ("- > a\n  > \n$0", "- > a\n\n  $0"),
        ])
    }

    func testNothingHappensOutsideListsAndInCode() {
        check([
            ("Text\n$0", nil),
            ("# Title\n$0", nil),
            ("Text\n\n* * *\n$0", nil),
            ("**bold**\n$0", nil),
            ("-not a marker\n$0", nil),
            ("1.5 is a number\n$0", nil),
            ("```\n- a\n$0\n```\n", nil),
            ("~~~\n> a\n$0\n~~~\n", nil),
            ("---\ntags:\n  - a\n$0\n---\nBody\n", nil),
            ("$$\n- a\n$0\n$$\n", nil),
            // The new line already has text before the cursor.
            ("- a\nxy$0", nil),
            ("- a\n- $0", nil),
            // Not after a line break.
            ("$0", nil),
            ("- a$0", nil),
        ])
    }
}
