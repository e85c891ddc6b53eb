// Golden tests: Markdown files under Fixtures/golden/ rendered end to end (parser + renderer)
// and compared with the `.html` beside them. Run with `MACMD_BLESS=1` to rewrite the goldens
// after an intended change, then review the diff.

import Foundation
import XCTest
import MarkdownSyntax
import MarkdownHTML

final class GoldenRenderTests: XCTestCase {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    func testNotebookPreview() throws {
        var options = HTMLOptions.notebookPreview
        options.sourceLines = true
        try check("notebook", parse: .notebook, render: options)
    }

    func testSafeMode() throws {
        try check("safe-mode", parse: .gfm, render: HTMLOptions(collapseNestedStrong: true))
    }

    func testUnsafeModePassesRawHTML() throws {
        try check("safe-mode", golden: "safe-mode.unsafe", parse: .gfm, render: HTMLOptions(safe: false))
    }

    func testGitHubFeatures() throws {
        try check("github", parse: .gfm, render: HTMLOptions(headingIDs: true, collapseNestedStrong: true))
    }

    func check(_ name: String, golden: String? = nil, parse: ParseOptions, render: HTMLOptions) throws {
        let input = GoldenRenderTests.goldenDirectory.appendingPathComponent(name + ".md")
        let expectedURL = GoldenRenderTests.goldenDirectory.appendingPathComponent((golden ?? name) + ".html")
        let tree = MarkdownParser.parse(Array(try Data(contentsOf: input)), options: parse)
        let actual = HTMLRenderer(options: render).render(tree)
        if ProcessInfo.processInfo.environment["MACMD_BLESS"] != nil {
            try Data(actual).write(to: expectedURL)
            return
        }
        let expected = try Data(contentsOf: expectedURL)
        XCTAssertEqual(String(decoding: actual, as: UTF8.self), String(decoding: expected, as: UTF8.self),
                       "\(name): output differs from \(expectedURL.lastPathComponent) (MACMD_BLESS=1 rewrites it)")
    }
}
