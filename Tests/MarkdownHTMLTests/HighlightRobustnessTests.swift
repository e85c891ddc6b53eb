// Robustness of `CodeHighlighter` and its place in the renderer: random bytes never trap, the
// output is valid UTF-8 and, without its spans, exactly the unhighlighted escaped text;
// pathological inputs stay linear; the spec suites' output is unchanged.

import Foundation
import TestSupport
import XCTest
import MarkdownSyntax
@testable import MarkdownHTML

final class HighlightRobustnessTests: XCTestCase {
    typealias Generator = SeededGenerator

    static let pieces: [[UInt8]] = [
        "\"", "'", "`", "\"\"\"", "'''", "/*", "*/", "//", "#", "#[", "#!", "#\"", "\"#", "r#\"", "$", "${", "$(", "@",
        "@@", ":", "::", "\\", "\n", "\r\n", "\r", " ", "\t", "<", "</", ">", "/>", "<!--", "-->", "<![CDATA[", "]]>",
        "<?", "&", "&amp;", "&#", ";", "=", "{", "}", "[", "]", "(", ")", "-", "- ", "---", ".", "0x", "1", "1.5e-3",
        "-2", "%", "!", "!important", "a", "if", "let", "True", "String", "x(", "é", "日本", "\u{0}", "b'", "'a",
    ].map { Array($0.utf8) } + [[0xFF], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80], [0xF0, 0x9F]]

    /// The highlighted HTML without its `<span class="hl-…">` and `</span>` tags. Works on bytes:
    /// `String` comparison would merge a tag's `>` with a combining mark that follows it.
    static func strippingSpans(_ html: String) -> String {
        let bytes = Array(html.utf8)
        let open = Array("<span class=\"hl-".utf8)
        let close = Array("</span>".utf8)
        var result: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x3C, bytes[i...].starts(with: open) {
                var k = i + open.count
                while k < bytes.count, bytes[k] != 0x3E { k += 1 }
                i = k + 1
            } else if bytes[i] == 0x3C, bytes[i...].starts(with: close) {
                i += close.count
            } else {
                result.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func plainEscaped(_ bytes: [UInt8]) -> String {
        var writer = HTMLWriter(capacity: bytes.count)
        writer.text(bytes[...])
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func testRandomBytesNeverTrapAndOnlyAddSpans() {
        var generator = Generator(state: 0xC0DE)
        for round in 0..<400 {
            var input: [UInt8] = []
            let count = Int(generator.next() % 80)
            for _ in 0..<count {
                if round % 4 == 3 {
                    input.append(UInt8(truncatingIfNeeded: generator.next()))
                } else {
                    input.append(contentsOf: Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))])
                }
            }
            let plain = Self.plainEscaped(input)
            for language in CodeHighlighter.Language.allCases {
                var writer = HTMLWriter(capacity: 0)
                CodeHighlighter.highlight(input[...], as: language, into: &writer)
                guard let html = String(validating: writer.bytes, as: UTF8.self) else {
                    XCTFail("\(language): invalid UTF-8 for \(input)")
                    continue
                }
                XCTAssertTrue(Self.strippingSpans(html).utf8.elementsEqual(plain.utf8), "\(language): text changed for \(input)")
            }
        }
    }

    func testHighlightingASliceInsideALargerBuffer() {
        // The renderer passes slices of the tree's content; indices must be slice-relative.
        let buffer = Array("xx\"let\" 1 // c\nyy".utf8)
        var writer = HTMLWriter(capacity: 0)
        CodeHighlighter.highlight(buffer[2..<15], as: .swift, into: &writer)
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self),
                       "<span class=\"hl-string\">&quot;let&quot;</span> <span class=\"hl-number\">1</span> <span class=\"hl-comment\">// c</span>\n")
    }

    func testPathologicalInputsStayLinear() {
        let patterns: [String] = ["\"", "'", "`", "/*", "\"\"\"", "'''", "<a ", "<!--", "#[", "${", "\\", "r#\"", "a:",
                                  "- ", "@", "#", "1.", "'\\", "x(", "&", "<", ": ", "{", "-"]
        let started = Date()
        for pattern in patterns {
            let input = Array(String(repeating: pattern, count: 40_000 / pattern.utf8.count).utf8)
            for language in CodeHighlighter.Language.allCases {
                let caseStart = Date()
                var writer = HTMLWriter(capacity: 0)
                CodeHighlighter.highlight(input[...], as: language, into: &writer)
                XCTAssertLessThan(Date().timeIntervalSince(caseStart), 1, "\(language) on \(pattern.debugDescription) x N")
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    // MARK: In the renderer

    func render(_ markdown: String, _ options: HTMLOptions) -> String {
        let tree = MarkdownParser.parse(Array(markdown.utf8), options: ParseOptions(profile: .notebook))
        return HTMLRenderer(options: options).renderString(tree)
    }

    func testRendererHighlightsKnownFencesOnly() {
        let markdown = "```swift\nlet a = 1\n```\n\n```cobol\nMOVE 1\n```\n\n```markdown\n# x\n```\n\n```\nlet b\n```\n\n    let c\n"
        var options = HTMLOptions.notebookPreview
        options.highlightCode = true
        XCTAssertEqual(render(markdown, options), """
            <pre><code class="language-swift"><span class="hl-keyword">let</span> a = <span class="hl-number">1</span>
            </code></pre>
            <pre><code class="language-cobol">MOVE 1
            </code></pre>
            <pre><code class="language-markdown"># x
            </code></pre>
            <pre><code>let b
            </code></pre>
            <pre><code>let c
            </code></pre>

            """)
        options.highlightCode = false
        XCTAssertTrue(render(markdown, options).hasPrefix("<pre><code class=\"language-swift\">let a = 1\n</code></pre>\n"))
        XCTAssertFalse(HTMLOptions().highlightCode)
        XCTAssertFalse(HTMLOptions.commonmarkSpec.highlightCode)
        XCTAssertFalse(HTMLOptions.gfmSpec.highlightCode)
    }

    /// Every spec example renders to the same text with highlighting on, spans aside (and the
    /// spec runner, which keeps it off, still checks the exact output).
    func testSpecExamplesOnlyGainSpans() throws {
        var highlightedBlocks = 0
        for file in ["commonmark.json", "gfm.json", "gfm-extensions.json"] {
            let url = try SpecData.url(file)
            let examples = try JSONDecoder().decode([SpecConformanceTests.Example].self, from: Data(contentsOf: url))
            for example in examples {
                let tree = MarkdownParser.parse(Array(example.markdown.utf8), options: ParseOptions(profile: .gfm))
                var options = HTMLOptions.gfmSpec
                let plain = HTMLRenderer(options: options).renderString(tree)
                options.highlightCode = true
                let highlighted = HTMLRenderer(options: options).renderString(tree)
                if highlighted != plain { highlightedBlocks += 1 }
                XCTAssertTrue(Self.strippingSpans(highlighted).utf8.elementsEqual(plain.utf8), "\(file) #\(example.example)")
            }
        }
        print("spec examples changed only by highlight spans: \(highlightedBlocks)")
    }
}
