import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// Any text and any offset: the editing features answer without trapping, and their edits are
/// sorted, do not overlap, and leave the cursor on one side of each.
final class EditingRobustnessTests: XCTestCase {
    func testRandomNotesAndOffsets() {
        var random = SeededGenerator(state: 0xED17)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let pieces = ["- ", "* ", "1. ", "2) ", "> ", "  ", "\t", "[ ] ", "[x] ", "|", " | ", "---", ":-:", "```", "~~~",
                      "$$", "$", "`", "``", "[[", "]]", "[", "](", ")", "<https:", ">", "\\", "_", "*", "text", "東京",
                      "🎉", "\n", "\n", "\n", "\r\n", "\r", "\u{301}"]
        var bytes: [UInt8] = []
        for round in 0..<1_500 {
            var text = ""
            for _ in 0..<next(24) { text += pieces[next(pieces.count)] }
            bytes = Array(text.utf8)
            if round % 10 == 0, !bytes.isEmpty { bytes[next(bytes.count)] = UInt8(next(256)) }
            let offset = next(bytes.count + 3) - 1
            for character in ["\n", "`", "[", "|"] {
                let answer = OnTypeFormatting.edits(typed: character, at: offset, in: bytes)
                check(answer.replacements, cursor: max(0, min(offset, bytes.count)), count: bytes.count, text: text)
            }
            _ = AutoPairing.pairs(at: offset, in: bytes)
            let tree = MarkdownParser.parse(bytes, options: .notebook)
            check(TableFormatting.edits(for: tree), cursor: nil, count: bytes.count, text: text)
        }
    }

    private func check(_ edits: [TextReplacement], cursor: Int?, count: Int, text: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        var position = 0
        for edit in edits {
            let range = edit.span.range
            XCTAssertTrue(range.lowerBound >= position && range.upperBound <= count, "\(text.debugDescription): \(edits)", file: file, line: line)
            if let cursor {
                XCTAssertFalse(range.lowerBound < cursor && range.upperBound > cursor, "\(text.debugDescription): \(edit)", file: file, line: line)
            }
            position = range.upperBound
        }
    }
}
