// Deterministic random inputs through parser and renderer with every option: nothing may trap,
// and the output must be valid UTF-8.

import TestSupport
import XCTest
import MarkdownSyntax
import MarkdownHTML

final class RenderFuzzTests: XCTestCase {
    typealias Generator = SeededGenerator

    static let pieces: [[UInt8]] = [
        "*", "_", "**", "~~", "`", "```", "$", "$$", "[", "]", "(", ")", "![", "[[", "]]", "|", "^", "#", "# ",
        "> ", "- ", "1. ", "- [x] ", "<", ">", "<div>", "</div>", "<script>", "&", "&amp;", "&#0;", "&#x110000;",
        "\\", "\n", "\n\n", "\r\n", "\t", "    ", " ", "a", "word", "https://x.y", "www.a.b", "a@b.c", "[^1]",
        "[^1]: ", "[a]: /u \"t\"", "---\n", "> [!NOTE]\n", "\u{0}", "é", "日本", "javascript:x", ":-", "|-|",
    ].map { Array($0.utf8) } + [[0xFF], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80]]

    func testRandomDocumentsNeverTrap() {
        var generator = Generator(state: 0x5EED)
        let everything = HTMLOptions(safe: false, sourceLines: true, headingIDs: true, collapseNestedStrong: true,
                                     fullPage: true)
        for _ in 0..<1_500 {
            var input: [UInt8] = []
            let count = Int(generator.next() % 60)
            for _ in 0..<count {
                input.append(contentsOf: RenderFuzzTests.pieces[Int(generator.next() % UInt64(RenderFuzzTests.pieces.count))])
            }
            for profile in ParseOptions.Profile.allCases {
                let tree = MarkdownParser.parse(input, options: ParseOptions(profile: profile))
                for options in [HTMLOptions(), everything] {
                    let html = HTMLRenderer(options: options).render(tree)
                    XCTAssertNotNil(String(validating: html, as: UTF8.self), "invalid UTF-8 for input \(input)")
                }
            }
        }
    }
}
