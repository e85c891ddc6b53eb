import XCTest
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
@testable import NotebookIDE

/// The preview a user sees: title, outline with ids that match the HTML, and counts.
final class PreviewTests: XCTestCase {
    private func preview(_ text: String, file: String = "notes/Soil tests.md", fullPage: Bool = false) -> Preview {
        PreviewBuilder.build(source: Array(text.utf8), fileName: file, options: PreviewOptions(),
                             html: HTMLOptions(safe: true, headingIDs: true, collapseNestedStrong: true, fullPage: fullPage))
    }

    func testTitleComesFromFrontMatterThenFirstH1ThenFileName() {
        let cases: [(String, String)] = [
            ("---\ntitle: From front matter\n---\n# Heading\n", "From front matter"),
            ("## Second level\n\n# First *H1*\n", "First H1"),
            ("Just text.\n", "Soil tests"),
            ("---\ntitle: \"\"\n---\n# Fallback H1\n", "Fallback H1"),
        ]
        for (text, title) in cases {
            XCTAssertEqual(preview(text).title, title, text)
        }
        XCTAssertEqual(NotebookPath.fileStem(of: "a/b/c.markdown"), "c")
        XCTAssertEqual(NotebookPath.fileStem(of: ".hidden"), ".hidden")
    }

    func testHeadingsCarryLevelsLinesAndTheIdsOfTheRenderedHTML() {
        let text = "# Café au lait!\n\nText\n\n## Repeat\n\n## Repeat\n\nSetext `code`\n---\n"
        let p = preview(text)
        XCTAssertEqual(p.headings.map(\.level), [1, 2, 2, 2])
        XCTAssertEqual(p.headings.map(\.line), [0, 4, 6, 8])
        XCTAssertEqual(p.headings.map(\.text), ["Café au lait!", "Repeat", "Repeat", "Setext code"])
        XCTAssertEqual(p.headings.map(\.id), ["café-au-lait", "repeat", "repeat-1", "setext-code"])
        let html = String(decoding: p.html, as: UTF8.self)
        for heading in p.headings {
            XCTAssertTrue(html.contains("id=\"\(heading.id)\""), "\(heading.id) missing from \(html)")
        }
    }

    func testCountsCoverVisibleTextOnly() {
        let cases: [(String, Int, Int)] = [
            ("Hello world\n", 2, 11),
            ("---\ntitle: not counted at all\n---\nOne two\n", 2, 7),
            ("A [link text](https://example.org/not/counted) here\n", 4, 16),
            ("![alt words not seen](x.png) seen\n", 1, 5),
            ("Don't stop well-known words.\n", 5, 28),
            ("日本語の文\n", 5, 5),
            ("<div>raw html</div>\n", 0, 0),
            ("Line one\nline two\n", 4, 17),
            ("", 0, 0),
            ("# Heading one\n\nIt's a well-known *fact*.\n", 7, 34),
            ("[link text](y.md) [[note|shown label]]\n", 4, 21),
            ("Tag #garden and `code span`.\n", 5, 26),
            ("日本語 text\n", 4, 8),
            ("Escaped \\*star\\* &amp; more\n", 3, 21),
        ]
        for (text, words, characters) in cases {
            let p = preview(text)
            XCTAssertEqual(p.wordCount, words, "words in \(text.debugDescription)")
            XCTAssertEqual(p.characterCount, characters, "characters in \(text.debugDescription)")
        }
    }

    func testReadingTimeRoundsToWholeMinutesAndIsZeroForEmptyNotes() {
        XCTAssertEqual(preview("").readingTimeMinutes, 0)
        XCTAssertEqual(preview("word\n").readingTimeMinutes, 1)
        XCTAssertEqual(preview(String(repeating: "word ", count: 1000) + "\n").readingTimeMinutes, 4, "238 words a minute")
    }

    func testFullPageUsesTheTitle() {
        let html = String(decoding: preview("---\ntitle: Page <Title>\n---\nBody\n", fullPage: true).html, as: UTF8.self)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<title>Page &lt;Title&gt;</title>"), html)
    }
}
