import XCTest
import MarkdownSyntax
import NotebookIndex
import TestSupport
import TextCore
@testable import NotebookIDE

/// The outline an editor shows for a note: sections nested by heading level.
final class NavigationOutlineTests: XCTestCase {
    /// One line per symbol: indent by depth, detail, name, the section's first and last line
    /// (0-based, last = line of the last byte), and the selected text.
    private func outline(_ text: String, includeFrontMatter: Bool = true) -> String {
        let tree = MarkdownParser.parse(text)
        let note = NoteSymbols.extract(from: tree, path: "note.md")
        let symbols = DocumentOutline.symbols(for: note, source: tree.source, includeFrontMatter: includeFrontMatter)
        let lines = LineIndex(utf8: tree.source)
        var out: [String] = []
        var stack: [(OutlineSymbol, Int)] = symbols.reversed().map { ($0, 0) }
        while let (symbol, depth) = stack.popLast() {
            XCTAssertLessThanOrEqual(symbol.range.start, symbol.selectionRange.start, symbol.name.english)
            XCTAssertGreaterThanOrEqual(symbol.range.end, symbol.selectionRange.end, symbol.name.english)
            let first = lines.line(containingUTF8Offset: Int(symbol.range.start))
            let last = lines.line(containingUTF8Offset: max(Int(symbol.range.start), Int(symbol.range.end) - 1))
            let selected = tree.source.text(symbol.selectionRange.range)
            out.append(String(repeating: "  ", count: depth) + "\(symbol.detail) \(symbol.name) \(first)-\(last) '\(selected)'")
            for child in symbol.children.reversed() {
                XCTAssertLessThanOrEqual(symbol.range.start, child.range.start)
                XCTAssertGreaterThanOrEqual(symbol.range.end, child.range.end)
                stack.append((child, depth + 1))
            }
        }
        return out.joined(separator: "\n")
    }

    func testSectionsNestByLevelAndEndBeforeTheNextSameOrHigherHeading() {
        let cases: [(String, String, String)] = [
            ("nested sections, trailing blank lines left out",
             "# A\nintro\n## B\ntext\n\n### C\nc\n\n## D\n# E\ne\n\n\n",
             """
             H1 A 0-8 'A'
               H2 B 2-6 'B'
                 H3 C 5-6 'C'
               H2 D 8-8 'D'
             H1 E 9-10 'E'
             """),
            ("a skipped level nests directly under the nearest lower level",
             "# A\n### C\n## B\n",
             """
             H1 A 0-2 'A'
               H3 C 1-1 'C'
               H2 B 2-2 'B'
             """),
            ("a note that starts with H3: later H2 is a sibling, not a parent",
             "### Deep\ntext\n## Up\n#### Down\n",
             """
             H3 Deep 0-1 'Deep'
             H2 Up 2-3 'Up'
               H4 Down 3-3 'Down'
             """),
            ("setext headings, and the text of an empty heading",
             "Title\n=====\n\nSub\n---\nbody\n#\n",
             """
             H1 Title 0-5 'Title'
               H2 Sub 3-5 'Sub'
             H1 (empty heading) 6-6 '#'
             """),
            ("no headings: an empty outline", "just text\n", ""),
        ]
        for (name, text, expected) in cases {
            XCTAssertEqual(outline(text), expected, name)
        }
    }

    func testFrontMatterIsATopLevelEntryBeforeTheHeadings() {
        let text = "---\ntitle: Soil\ntags: [a]\n---\n# Soil\ntext\n"
        XCTAssertEqual(outline(text), """
            YAML front matter 0-3 '---\ntitle: Soil\ntags: [a]\n---'
            H1 Soil 4-5 'Soil'
            """)
        XCTAssertEqual(outline(text, includeFrontMatter: false), "H1 Soil 4-5 'Soil'")
    }

    func testHeadingMarkupIsNotPartOfTheNameButStaysInTheSelection() {
        XCTAssertEqual(outline("## Use *emphasis* and `code` ##\n"), "H2 Use emphasis and code 0-0 'Use *emphasis* and `code`'")
    }

    func testDeepDocumentsDoNotRecurse() {
        // Many alternating levels: the builder and the test's walk are both iterative.
        var text = ""
        for index in 0..<20_000 { text += String(repeating: "#", count: index % 6 + 1) + " h\(index)\n" }
        let tree = MarkdownParser.parse(text)
        let note = NoteSymbols.extract(from: tree, path: "deep.md")
        let symbols = DocumentOutline.symbols(for: note, source: tree.source)
        XCTAssertEqual(symbols.count, 20_000 / 6 + 1)
        XCTAssertEqual(symbols.first?.children.first?.children.first?.name.english, "h2")
    }
}

/// Outlines as the server answers them (`IDECheck`).
final class NavigationOutlineCheckTests: XCTestCase {
    func testOutline() {
        IDECheck.outline("""
            ---
            title: Soil
            ---
            # Soil$0

            ## pH

            ### Lime *first*

            ## Texture
            """, "YAML front matter '---\ntitle: Soil\n---'\nH1 Soil 'Soil'\n  H2 pH 'pH'\n    H3 Lime first 'Lime *first*'\n  H2 Texture 'Texture'")
    }
}
