import MarkdownSyntax
import NotebookIndex
import XCTest

/// `NoteSymbols.diff` compares by value: moved text gives an empty diff.
final class SymbolDiffTests: XCTestCase {
    private func symbols(_ text: String) -> NoteSymbols {
        NoteSymbols.extract(from: MarkdownParser.parse(text), path: "note.md")
    }

    private let base = """
    ---
    tags: [garden]
    ---
    # Soil

    See [[beds#Raised]] and [lime](lime.md#ph). #todo

    ## Notes
    A block ^b1

    """

    func testPureTextMoveGivesAnEmptyDiff() {
        let moved = [
            // Text inserted above everything.
            base.replacingOccurrences(of: "# Soil\n", with: "# Soil\n\nA new paragraph\nof several lines.\n"),
            // Paragraphs swapped and words edited around the links.
            """
            ---
            tags: [garden]
            ---
            # Soil

            ## Notes
            A longer block of text ^b1

            Please see [[beds#Raised]] or maybe [lime](lime.md#ph) now. #todo

            """,
        ]
        for text in moved {
            let diff = NoteSymbols.diff(old: symbols(base), new: symbols(text))
            XCTAssertTrue(diff.isEmpty, "\(diff)")
        }
    }

    func testChangedSymbolsShowInTheDiff() {
        let changed = base
            .replacingOccurrences(of: "[[beds#Raised]]", with: "[[beds#Sunken]]")
            .replacingOccurrences(of: "#todo", with: "#done")
            .replacingOccurrences(of: "## Notes", with: "## Log")
            .replacingOccurrences(of: "^b1", with: "^b2")
        let diff = NoteSymbols.diff(old: symbols(base), new: symbols(changed))
        XCTAssertEqual(diff.addedLinks, [LinkSymbol.Key(isWiki: true, isEmbed: false, target: "beds", headings: ["Sunken"])])
        XCTAssertEqual(diff.removedLinks, [LinkSymbol.Key(isWiki: true, isEmbed: false, target: "beds", headings: ["Raised"])])
        XCTAssertEqual(diff.addedTags, ["done"])
        XCTAssertEqual(diff.removedTags, ["todo"])
        XCTAssertEqual(diff.addedHeadings.map(\.text), ["Log"])
        XCTAssertEqual(diff.removedHeadings.map(\.text), ["Notes"])
        XCTAssertEqual(diff.addedBlockIDs, ["b2"])
        XCTAssertEqual(diff.removedBlockIDs, ["b1"])
        XCTAssertFalse(diff.titleChanged)
    }

    func testRepeatedLinksAreCounted() {
        let twice = symbols("[[a]] and [[a]]\n")
        let once = symbols("[[a]]\n")
        let diff = NoteSymbols.diff(old: twice, new: once)
        XCTAssertEqual(diff.removedLinks.map(\.target), ["a"])
        XCTAssertEqual(diff.addedLinks, [])
        XCTAssertTrue(NoteSymbols.diff(old: once, new: symbols("x [[a]] y\n")).isEmpty)
    }

    func testTitleAndAliasChanges() {
        let diff = NoteSymbols.diff(old: symbols("# One\n"), new: symbols("---\naliases: [x]\n---\n# Two\n"))
        XCTAssertTrue(diff.titleChanged)
        XCTAssertTrue(diff.aliasesChanged)
    }
}
