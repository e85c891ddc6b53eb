import XCTest
import MarkdownSyntax
import NotebookIndex
import TestSupport
@testable import NotebookIDE
import TextCore

/// The table of contents a user inserts or refreshes in a note.
final class NavigationTableOfContentsTests: XCTestCase {
    private func edit(_ text: String) -> TableOfContents.Edit? {
        let tree = MarkdownParser.parse(text)
        return TableOfContents.edit(tree: tree, note: NoteSymbols.extract(from: tree, path: "note.md"))
    }

    private func apply(_ edit: TableOfContents.Edit, to text: String) -> String {
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(edit.range.range, with: Array(edit.newText.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Applies the edit, checks that a second request changes nothing and that every link of
    /// the table reaches its heading, and returns the new text.
    private func updated(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard let first = edit(text) else { return text }
        let result = apply(first, to: text)
        XCTAssertNil(edit(result), "a second update must change nothing:\n\(result)", file: file, line: line)
        let tree = MarkdownParser.parse(result)
        let note = NoteSymbols.extract(from: tree, path: "note.md")
        let catalog = NoteCatalog([note])
        for link in note.links {
            guard case .note(_, let heading?, _, _) = catalog.resolve(link, from: "note.md") else {
                XCTFail("\(link.destination) does not reach a heading", file: file, line: line)
                continue
            }
            XCTAssertEqual(link.label?.text.replacingOccurrences(of: "\\", with: ""), heading.text.replacingOccurrences(of: "\\", with: ""),
                           file: file, line: line)
        }
        return result
    }

    func testInsertsAfterFrontMatterAndTitleLeavingTheTitleOut() {
        let text = "---\ntitle: T\n---\n# Soil\nIntro.\n\n## Tests\n### pH\n## Compost *heap*\n"
        XCTAssertEqual(updated(text), """
            ---
            title: T
            ---
            # Soil

            <!-- toc -->
            - [Tests](#tests)
              - [pH](#ph)
            - [Compost heap](#compost-heap)
            <!-- /toc -->

            Intro.

            ## Tests
            ### pH
            ## Compost *heap*

            """)
    }

    func testRefreshesAStaleBlockAndSkipsItsOwnHeading() {
        let fixture = Fixture("# A\n# B\n## Contents\n\n$0<!-- toc -->\n- [Old](#old)\n<!-- /toc -->$0\n## C\n")
        let text = fixture.text
        XCTAssertEqual(updated(text), """
            # A
            # B
            ## Contents

            <!-- toc -->
            - [A](#a)
            - [B](#b)
              - [C](#c)
            <!-- /toc -->
            ## C

            """)
        XCTAssertEqual(edit(text)?.range, fixture.range.map { ByteSpan($0.utf8Start, $0.utf8End) }, "only the marked block is replaced")
        // A heading written inside the old block goes away with it, and the slugs after it
        // lose their repeat number (B, right before the marker, is the table's own heading).
        XCTAssertEqual(updated("# A\n# B\n<!-- toc -->\n## Dup\n<!-- /toc -->\n## Dup\n"),
                       "# A\n# B\n<!-- toc -->\n- [A](#a)\n  - [Dup](#dup)\n<!-- /toc -->\n## Dup\n")
    }

    func testPlacementWithoutTitleOrFrontMatter() {
        let cases: [(String, String, String)] = [
            ("no headings: an empty block at the start", "Just text.\n", "<!-- toc -->\n<!-- /toc -->\n\nJust text.\n"),
            ("empty note", "", "<!-- toc -->\n<!-- /toc -->\n"),
            ("title without a line ending", "# Only", "# Only\n\n<!-- toc -->\n<!-- /toc -->\n"),
            ("front matter, then text: after the front matter",
             "---\na: b\n---\nText\n## S\n", "---\na: b\n---\n\n<!-- toc -->\n- [S](#s)\n<!-- /toc -->\n\nText\n## S\n"),
            ("an H1 that is not the first block is not a title",
             "Intro\n\n# Later\n", "<!-- toc -->\n- [Later](#later)\n<!-- /toc -->\n\nIntro\n\n# Later\n"),
        ]
        for (name, text, expected) in cases {
            XCTAssertEqual(updated(text), expected, name)
        }
    }

    func testNestingFollowsTheHeadingsNotTheirRawLevels() {
        XCTAssertEqual(TableOfContents.listText(headings: [
            HeadingSymbol(level: 2, text: "a", slug: "a", range: .empty, textRange: .empty),
            HeadingSymbol(level: 4, text: "b", slug: "b", range: .empty, textRange: .empty),
            HeadingSymbol(level: 3, text: "c", slug: "c", range: .empty, textRange: .empty),
            HeadingSymbol(level: 1, text: "d", slug: "d", range: .empty, textRange: .empty),
            HeadingSymbol(level: 1, text: "", slug: "", range: .empty, textRange: .empty),
        ]), "- [a](#a)\n  - [b](#b)\n  - [c](#c)\n- [d](#d)")
    }

    func testHeadingTextIsEscapedSoTheLinkShowsItAsWritten() {
        let text = "# One\n# Use `[x]` with #tags and 5 * 3 $\n# Fish &amp;copy; chips\n"
        let result = updated(text)
        XCTAssertTrue(result.contains("- [Use \\[x\\] with \\#tags and 5 \\* 3 \\$](#use-x-with-tags-and-5--3-)"), result)
        XCTAssertTrue(result.contains("- [Fish \\&copy; chips](#fish-copy-chips)"), "a reference stays text, not ©: \(result)")
        // The escaped `#tags` is not a tag use.
        let note = NoteSymbols.extract(from: MarkdownParser.parse(result), path: "note.md")
        XCTAssertEqual(note.tags.count, 1)
    }

    func testKeepsTheNoteLineEndingsAndIgnoresMarkersInCode() {
        XCTAssertEqual(updated("# A\r\n## B\r\n"), "# A\r\n\r\n<!-- toc -->\r\n- [B](#b)\r\n<!-- /toc -->\r\n\r\n## B\r\n")
        let fenced = "```\n<!-- toc -->\n```\n"
        XCTAssertEqual(edit(fenced)?.isInsertion, true, "a marker shown in code is not a table")
    }
}
