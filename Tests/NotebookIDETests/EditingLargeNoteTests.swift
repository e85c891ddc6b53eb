import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// Every editing answer on notes of a megabyte: the right answer, from work that grows with the
/// note at most linearly (no timing here: the benchmarks measure release builds; a quadratic
/// step would make these tests crawl).
final class EditingLargeNoteTests: XCTestCase {
    /// One section of varied Markdown, numbered.
    private static func section(_ number: Int) -> String {
        """
        # Section \(number)

        Paragraph with *emphasis*, `code`, [a link](https://example.com/x_y) and [[wiki]] and $x^2$.

        - item one
        - item two
          - nested

        1. first
        2. second

        > quote line

        | a | b |
        |---|---|
        | c | d |

        ```swift
        let x = \(number)
        ```


        """
    }

    /// About a megabyte of sections, and how many.
    private static let note: (text: String, sections: Int) = {
        var text = ""
        var number = 0
        while text.utf8.count < 1_000_000 {
            text += section(number)
            number += 1
        }
        return (text, number)
    }()

    private static var body: String { note.text }

    func testOnTypeFormattingAtTheEndOfAMegabyte() {
        XCTAssertGreaterThan(EditingLargeNoteTests.body.utf8.count, 1_000_000)
        let body = EditingLargeNoteTests.body
        EditingCheck.check("\n", [
            (body + "- last\n$0", body + "- last\n- $0"),
            (body + "1. a\n$0\n2. b\n", body + "1. a\n2. $0\n3. b\n"),
            (body + "| a | b |\n|---|---|\n| c | d |\n$0", body + "| a | b |\n|---|---|\n| c | d |\n| $0"),
            (body + "```\n- a\n$0\n```\n", nil),
        ])
        EditingCheck.check("`", [
            (body + "```$0\n", body + "```$0\n```\n"),
            ("```$0\n\n" + body, "```$0\n```\n\n" + body),
            (body + "```\ncode\n```$0\n", nil),
        ])
        EditingCheck.check("[", [(body + "See [[$0", body + "See [[$0]]")])
        EditingCheck.check("|", [
            (body + "| a | b |\n|-|-|\n| longer | x |$0\n", body + "| a      | b   |\n| ------ | --- |\n| longer | x   |$0\n"),
        ])
    }

    func testPairsAtTheEndOfAMegabyte() {
        let body = EditingLargeNoteTests.body
        let cases: [(String, PairContext)] = [
            (body + "Text `co$0de`", .codeSpan),
            (body + "Text $0", .text),
            (body + "```\ncode $0\n```\n", .fencedCode),
            (body + "[a](https://x.org/$0)", .linkDestination),
            (body + "$$\nx$0\n$$\n", .math),
        ]
        for (fixture, expected) in cases {
            let (text, offsets) = Fixture.removingMarkers(fixture)
            XCTAssertEqual(AutoPairing.pairs(at: offsets[0], in: Array(text.utf8)).context, expected, String(fixture.suffix(30)))
        }
    }

    /// One line of a megabyte: backtick runs of every length, none closed, then the cursor.
    func testPairsAfterAMegabyteLineOfUnclosedSpans() {
        var line: [UInt8] = []
        var length = 1
        while line.count < 1_000_000 {
            line += Array(repeating: UInt8(ascii: "`"), count: length) + Array("a$b<cc:d](e ".utf8)
            length += 1
        }
        line += Array("end".utf8)
        XCTAssertEqual(AutoPairing.pairs(at: line.count, in: line).context, .text)
        // A backtick at the end closes the first run: the whole line is one code span.
        XCTAssertEqual(AutoPairing.pairs(at: line.count, in: line + Array("`x".utf8)).context, .codeSpan)
    }

    func testWholeNoteFormatting() {
        let bytes = Array(EditingLargeNoteTests.body.utf8)
        let edits = TableFormatting.edits(for: MarkdownParser.parse(bytes, options: .notebook))
        // Three rows a table, each padded.
        XCTAssertEqual(edits.count, 3 * EditingLargeNoteTests.note.sections)
        XCTAssertEqual(Set(edits.map(\.newText)), ["| a   | b   |", "| --- | --- |", "| c   | d   |"])
        let aligned = EditingCheck.apply(edits, to: bytes, cursor: nil).text
        XCTAssertEqual(TableFormatting.edits(for: MarkdownParser.parse(aligned, options: .notebook)), [])
    }

    /// A long ordered list renumbered after a new first item.
    func testRenumberingALongList() {
        let count = 20_000
        var text = "1. first\n"
        let cursor = text.utf8.count
        text += "\n"
        for number in 2...count { text += "\(number). item\n" }
        let answer = OnTypeFormatting.edits(typed: "\n", at: cursor, in: Array(text.utf8))
        XCTAssertEqual(answer.replacements.count, count)
        XCTAssertEqual(answer.replacements.first?.newText, "2. ")
        XCTAssertEqual(answer.replacements.last?.newText, "\(count + 1)")
    }

    /// An empty nested item at the end of a long list finds its parent at the top.
    func testOutdentingUnderALongList() {
        var text = "- parent\n"
        for _ in 0..<20_000 { text += "  - child\n" }
        XCTAssertEqual(EditingCheck.typing("\n", text + "  - \n$0"), text + "- $0")
    }
}
