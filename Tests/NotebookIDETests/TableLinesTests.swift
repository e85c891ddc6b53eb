import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// The tables found from the lines around one line (keystrokes) are the parser's tables
/// (formatting).
final class TableLinesTests: XCTestCase {
    static let corpus: [String] = [
        "| a | b |\n|---|---|\n| c | d |\n",
        "| a | b |\n|---|---|\n| c | d |\n> quote\n",
        "| a | b |\n|---|---|\n| c | d |\n# heading\n",
        "| a | b |\n|---|---|\n- item\n",
        "| a | b |\n|---|---|\n```\ncode\n```\n",
        "| a | b |\n|---|---|\n***\n",
        "| a | b |\n|---|---|\nplain\nmore | cells | here\n\nafter\n",
        "para\n| a |\n|---|\n| b |\n",
        "a\n---\n",
        "a\n-|-\n",
        "a|b\n-|-\n",
        "a\n:---\n",
        "| a |\n|---|\n|b\n",
        "> | a |\n> |---|\n> | b |\n| c |\n",
        ">| a |\n>|-|\n>| b |\n\n> | c | d |\n> |:-|-:|\n",
        "- x\n\n  | a |\n  |---|\n  | b |\n\n- y\n",
        "| a | b |\r\n|---|---|\r\n| c | d |\r\n",
        "Text\n\n| a |\n|---|\n\n| b | c |\n|---|---|\n| d | e |\n",
        "| a | b |\n|---|\n| c |\n",
        "# | a |\n|---|\n",
        "```\n| a |\n|---|\n```\n| b |\n|---|\n",
        "---\ntitle: x\n---\n| a |\n|---|\n| b |\n",
        "| `a|b` | c |\n|-|-|-|\n| x \\| y | z |\n",
    ]

    func testLinesAroundARowFindTheParsersTable() {
        var found = 0
        for note in TableLinesTests.corpus {
            let bytes = Array(note.utf8)
            let tree = MarkdownParser.parse(bytes, options: .notebook)
            EditorText.reading(bytes) { text in
                let tables = TableLines.tables(in: tree, text: text)
                found += tables.count
                var lineStart = 0
                while lineStart < text.count {
                    let expected = tables.first { table in table.rows.contains { $0.lineStart == lineStart } }
                    XCTAssertEqual(TableLines.table(around: lineStart, in: text), expected,
                                   "\(note.debugDescription) line at \(lineStart)")
                    lineStart = text.nextLineStart(after: text.lineEnd(from: lineStart))
                }
            }
        }
        XCTAssertEqual(found, 21)
    }

    func testLineKindsAndOpenCode() {
        let note = Array("```\ncode\n```\ntext\n~~~\nopen\n".utf8)
        note.withUnsafeBufferPointer { bytes in
            XCTAssertEqual(LineRegions.line(at: 0, in: bytes).kind, .codeOpening)
            XCTAssertEqual(LineRegions.line(at: 5, in: bytes).kind, .codeContent)
            XCTAssertEqual(LineRegions.line(at: 9, in: bytes).kind, .codeClosing)
            XCTAssertEqual(LineRegions.line(at: 9, in: bytes).region, .code(fence: "```", info: ""))
            XCTAssertEqual(LineRegions.line(at: 13, in: bytes).kind, .body)
            XCTAssertEqual(LineRegions.line(at: 18, in: bytes).kind, .codeOpening)
            XCTAssertEqual(LineRegions.line(at: note.count, in: bytes).kind, .codeContent)
            XCTAssertTrue(LineRegions.endsInsideCode(from: 0, in: bytes))
            XCTAssertTrue(LineRegions.endsInsideCode(from: 13, in: bytes))
            // Read on their own, the lines from `code` open a block at the closing fence.
            XCTAssertTrue(LineRegions.endsInsideCode(from: 5, in: bytes))
        }
        Array("```\ncode\n```\n".utf8).withUnsafeBufferPointer { bytes in
            XCTAssertFalse(LineRegions.endsInsideCode(from: 0, in: bytes))
            XCTAssertTrue(LineRegions.endsInsideCode(from: 4, in: bytes))
        }
    }
}
