import XCTest
import MarkdownSyntax
import NotebookIndex
@testable import NotebookIDE

/// Random notes built from awkward pieces: no feature traps, and each keeps its promises.
final class NavigationRobustnessTests: XCTestCase {
    private let pieces = [
        "# Title\n", "## Sub\n", "###### Deep\n", "#\n", "Setext\n===\n", "Under\n---\n", "\n", "\n\n",
        "text line\n", "- item\n", "  - nested\n", "1. one\n", "> quote\n", "> # quoted heading\n",
        "```\n", "~~~~\n", "    indented\n", "$$\n", "<!-- toc -->\n", "<!-- /toc -->\n", "<!-- c\n", "-->\n",
        "<!-- #region -->\n", "<!-- #endregion -->\n", "| a | b |\n|---|---|\n", "Café ÉCOLE 日本\n", "\r\n",
        "# Fish &amp; `[x]` #tag\r\n", "[^1]: note\n", "---\ntitle: t\n---\n", "\t- tab item\n",
    ]

    func testRandomNotesKeepEveryInvariant() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        for round in 0..<300 {
            var text = ""
            for _ in 0..<next(25) { text += pieces[next(pieces.count)] }
            let tree = MarkdownParser.parse(text)
            let note = NoteSymbols.extract(from: tree, path: "n.md")

            for range in FoldingRanges.compute(tree) {
                XCTAssertGreaterThan(range.endLine, range.startLine, "round \(round): \(text.debugDescription)")
            }

            var stack = DocumentOutline.symbols(for: note, source: tree.source)
            while let symbol = stack.popLast() {
                XCTAssertFalse(symbol.name.english.isEmpty)
                XCTAssertTrue(symbol.range.start <= symbol.selectionRange.start && symbol.selectionRange.end <= symbol.range.end,
                              "round \(round): \(symbol)")
                XCTAssertLessThanOrEqual(Int(symbol.range.end), tree.source.count)
                for child in symbol.children {
                    XCTAssertTrue(symbol.range.start <= child.range.start && child.range.end <= symbol.range.end)
                }
                stack.append(contentsOf: symbol.children)
            }

            if let edit = TableOfContents.edit(tree: tree, note: note) {
                var bytes = tree.source
                bytes.replaceSubrange(edit.range.range, with: Array(edit.newText.utf8))
                let again = MarkdownParser.parse(bytes)
                XCTAssertNil(TableOfContents.edit(tree: again, note: NoteSymbols.extract(from: again, path: "n.md")),
                             "round \(round): not idempotent for \(text.debugDescription)")
            }

            for heading in note.headings {
                let hover = HoverText.note(note, source: tree.source, heading: heading, maximumBytes: 40)
                XCTAssertTrue(hover.hasPrefix("**"))
            }

            let query = String(text.unicodeScalars.filter { _ in next(7) == 0 }.prefix(4).map(Character.init))
            let matcher = FuzzyMatcher(query: query)
            for candidate in note.headings.map(\.text) + [text] {
                XCTAssertEqual(matcher.score(candidate) != nil, isSubsequence(query, of: candidate),
                               "round \(round): \(query.debugDescription) in \(candidate.debugDescription)")
            }
        }
    }

    /// The plain definition the matcher must agree with.
    private func isSubsequence(_ query: String, of text: String) -> Bool {
        let wanted = query.unicodeScalars.filter { !$0.properties.isWhitespace }.map { FuzzyMatcher.folded($0.value) }
        if wanted.isEmpty { return true }
        var index = 0
        for scalar in text.unicodeScalars where index < wanted.count {
            if FuzzyMatcher.folded(scalar.value) == wanted[index] { index += 1 }
        }
        return index == wanted.count
    }
}
