import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// Applying editing answers as an editor does, to compare texts with a `$0` cursor.
enum EditingCheck {
    /// `text` with `edits` applied (they must be sorted and not overlap), and where the cursor at
    /// `cursor` ends up by the rule VS Code and Neovim follow: an edit that ends at or before the
    /// cursor shifts it by what it adds; an edit after it leaves it; the edit at `cursorBefore`
    /// (`TypingEdits.cursorBefore`, which MacMD's editor setups honour) leaves it too. Fails the
    /// test when an edit starts before the cursor and ends after it.
    static func apply(_ edits: [TextReplacement], to text: [UInt8], cursor: Int?, cursorBefore: Int? = nil,
                      file: StaticString = #filePath, line: UInt = #line) -> (text: [UInt8], cursor: Int?) {
        var result: [UInt8] = []
        var position = 0
        var newCursor = cursor
        for (index, edit) in edits.enumerated() {
            let range = edit.span.range
            guard range.lowerBound >= position, range.upperBound <= text.count else {
                XCTFail("edits overlap or are out of order: \(edits)", file: file, line: line)
                return (text, cursor)
            }
            result += text[position..<range.lowerBound]
            result += Array(edit.newText.utf8)
            position = range.upperBound
            if let cursor, index != cursorBefore {
                if range.upperBound <= cursor {
                    newCursor = (newCursor ?? cursor) + edit.newText.utf8.count - range.count
                } else if range.lowerBound < cursor {
                    XCTFail("an edit straddles the cursor: \(edit)", file: file, line: line)
                }
            }
        }
        result += text[position...]
        return (result, newCursor)
    }

    /// The text with `$0` at `cursor`.
    static func marked(_ text: [UInt8], cursor: Int?) -> String {
        guard let cursor else { return String(decoding: text, as: UTF8.self) }
        return String(decoding: text[..<cursor], as: UTF8.self) + "$0" + String(decoding: text[cursor...], as: UTF8.self)
    }

    /// What typing `character` does to `fixture` (the text after the keystroke, `$0` the cursor):
    /// the text with `$0` where the cursor ends up, or nil when there is no edit.
    static func typing(_ character: String, _ fixture: String, extensions: ParseOptions.Extensions = .notebook,
                       file: StaticString = #filePath, line: UInt = #line) -> String? {
        let (text, offsets) = Fixture.removingMarkers(fixture)
        let bytes = Array(text.utf8)
        let cursor = offsets.first ?? 0
        let answer = OnTypeFormatting.edits(typed: character, at: cursor, in: bytes, extensions: extensions)
        guard !answer.isEmpty else { return nil }
        let applied = apply(answer.replacements, to: bytes, cursor: cursor, cursorBefore: answer.cursorBefore, file: file, line: line)
        return marked(applied.text, cursor: applied.cursor)
    }

    /// Checks each `(fixture, expected)`: `expected` nil means no edit.
    static func check(_ character: String, _ cases: [(String, String?)], extensions: ParseOptions.Extensions = .notebook,
                      file: StaticString = #filePath, line: UInt = #line) {
        for (fixture, expected) in cases {
            Expect.equal(typing(character, fixture, extensions: extensions, file: file, line: line), expected,
                         fixture: fixture, file: file, line: line)
        }
    }
}
