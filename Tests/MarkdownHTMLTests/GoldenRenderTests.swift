// Golden tests: Markdown files under Fixtures/golden/ rendered end to end (parser + renderer)
// and compared with the `.html` beside them. Run with `MACMD_BLESS=1` to rewrite the goldens
// after an intended change, then review the diff.

import Foundation
import XCTest
import MarkdownSyntax
import MarkdownHTML
import TestSupport

final class GoldenRenderTests: XCTestCase {
    func testNotebookPreview() throws {
        var options = HTMLOptions.notebookPreview
        options.sourceLines = true
        try check("notebook", parse: .notebook, render: options)
    }

    /// Every form of maths, as TeX for KaTeX or MathJax (the default) and as MathML (the
    /// preview's and full pages' default), malformed formulas included.
    func testMaths() throws {
        var options = HTMLOptions.notebookPreview
        options.sourceLines = true
        try check("maths", parse: .notebook, render: options)
        options.math = .mathML
        try check("maths", golden: "maths.mathml", parse: .notebook, render: options)
    }

    func testSafeMode() throws {
        try check("safe-mode", parse: .gfm, render: HTMLOptions(collapseNestedStrong: true))
    }

    func testUnsafeModePassesRawHTML() throws {
        try check("safe-mode", golden: "safe-mode.unsafe", parse: .gfm, render: HTMLOptions(safe: false))
    }

    /// HTML blocks of every type with tag names in any case; the golden is cmark-gfm's output
    /// (the fixture says how it was made).
    func testHTMLBlocksOfEveryType() throws {
        try check("html-blocks", parse: .gfm, render: HTMLOptions(safe: false))
    }

    func testGitHubFeatures() throws {
        try check("github", parse: .gfm, render: HTMLOptions(headingIDs: true, collapseNestedStrong: true))
    }

    func check(_ name: String, golden: String? = nil, parse: ParseOptions, render: HTMLOptions,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let input = TestPaths.fixture("golden/\(name).md")
        let tree = MarkdownParser.parse(Array(try Data(contentsOf: input)), options: parse)
        Golden.assertMatches(HTMLRenderer(options: render).render(tree), "golden/\((golden ?? name)).html", file: file, line: line)
    }
}
