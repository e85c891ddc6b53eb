import XCTest
@testable import NotebookIDE

/// A hover for an editor that shows only plain text (Vim's ALE): what a reader sees of the
/// Markdown, without its markup.
final class PlainHoverTests: XCTestCase {
    func testMarkupGoesAndTheBlocksStay() {
        let markdown = "**Tomato varieties**\n\n`tomato-varieties.md`\n\n---\n\n# Tomato varieties\n\nWe grow *four* [kinds](x.md)\nthis year:\n\n- Gardener's Delight\n- Sungold\n  - yellow\n\n1. sow\n2. prick out\n\n> A quote.\n\n```\nlet x = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
        XCTAssertEqual(PlainHover.text(of: markdown), """
            Tomato varieties

            tomato-varieties.md

            ────────────────────

            Tomato varieties

            We grow four kinds this year:

            • Gardener's Delight

            • Sungold

              • yellow

            1. sow

            2. prick out

            │ A quote.

            let x = 1

            a │ b
            1 │ 2
            """)
        XCTAssertEqual(PlainHover.text(of: ""), "")
    }
}
