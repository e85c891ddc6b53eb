// Maths in the renderer (`HTMLOptions.math`): TeX for KaTeX or MathJax by default, exactly as
// before; MathML in the same wrappers when asked; a formula the converter rejects is its source
// in `<code class="math-error" title="why">`; a parallel rendering writes the same bytes.
//
// The expected MathML is written by hand from MathML Core (https://www.w3.org/TR/mathml-core/):
// a letter is <mi>, a number <mn>, an operator <mo>; x^2 is <msup>, a_i <msub>, \frac <mfrac>,
// \sqrt <msqrt>; display maths is <math display="block">; the TeX source rides along in
// <annotation encoding="application/x-tex"> inside <semantics>.

import XCTest
import MacMDBench
import MarkdownSyntax
import TestSupport
@testable import MarkdownHTML

/// One Markdown input and the HTML it renders to.
private struct MathRenderCase {
    var markdown: String
    var html: String
    var line: UInt

    init(_ markdown: String, _ html: String, line: UInt = #line) {
        self.markdown = markdown
        self.html = html
        self.line = line
    }
}

/// The `<math>` element of `body` with its TeX `source` (display maths when `display`).
private func math(_ body: String, _ source: String, display: Bool = false) -> String {
    "<math display=\"\(display ? "block" : "inline")\"><semantics>\(body)"
        + "<annotation encoding=\"application/x-tex\">\(source)</annotation></semantics></math>"
}

private func inline(_ content: String) -> String { #"<span class="math math-inline">"# + content + "</span>" }
private func displayInParagraph(_ content: String) -> String { #"<span class="math math-display">"# + content + "</span>" }

final class MathRenderTests: XCTestCase {
    func render(_ markdown: String, _ math: MathMarkup, sourceLines: Bool = false) -> String {
        let tree = MarkdownParser.parse(markdown, options: .notebook)
        return HTMLRenderer(options: HTMLOptions(safe: true, sourceLines: sourceLines, math: math)).renderString(tree)
    }

    fileprivate func check(_ cases: [MathRenderCase], _ math: MathMarkup, sourceLines: Bool = false, file: StaticString = #filePath) {
        for item in cases {
            XCTAssertEqual(render(item.markdown, math, sourceLines: sourceLines), item.html, item.markdown, file: file, line: item.line)
        }
    }

    func testTeXIsTheDefaultAndWritesWhatItAlwaysWrote() {
        XCTAssertEqual(HTMLOptions().math, .tex)
        XCTAssertEqual(HTMLOptions.notebookPreview.math, .tex)
        check([
            MathRenderCase("$x^2$ and $$a<b$$\n", "<p>" + inline(#"\(x^2\)"#) + " and " + displayInParagraph(#"\[a&lt;b\]"#) + "</p>\n"),
            MathRenderCase("$$\n\\frac{a}{b}\n$$\n", "<div class=\"math math-display\">\\[\\frac{a}{b}\\]</div>\n"),
            MathRenderCase("```math\n\\foo\n```\n", "<div class=\"math math-display\">\\[\\foo\\]</div>\n"),
        ], .tex)
    }

    func testMathMLOfSimpleFormulas() {
        check([
            MathRenderCase("$x$\n", "<p>" + inline(math("<mi>x</mi>", "x")) + "</p>\n"),
            MathRenderCase("$x^2$\n", "<p>" + inline(math("<msup><mi>x</mi><mn>2</mn></msup>", "x^2")) + "</p>\n"),
            MathRenderCase("$a_i$\n", "<p>" + inline(math("<msub><mi>a</mi><mi>i</mi></msub>", "a_i")) + "</p>\n"),
            MathRenderCase("$\\alpha+1$\n", "<p>" + inline(math("<mrow><mi>α</mi><mo>+</mo><mn>1</mn></mrow>", "\\alpha+1")) + "</p>\n"),
            MathRenderCase("Less: $a<b$.\n",
                           "<p>Less: " + inline(math("<mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow>", "a&lt;b")) + ".</p>\n"),
            MathRenderCase("so $$\\sqrt{2}$$ here\n",
                           "<p>so " + displayInParagraph(math("<msqrt><mn>2</mn></msqrt>", "\\sqrt{2}", display: true)) + " here</p>\n"),
            MathRenderCase("LaTeX: \\(x\\) and \\[y\\]\n",
                           "<p>LaTeX: " + inline(math("<mi>x</mi>", "x")) + " and "
                           + displayInParagraph(math("<mi>y</mi>", "y", display: true)) + "</p>\n"),
        ], .mathML)
    }

    func testMathMLBlocksKeepTheirWrapperAndSourceLine() {
        check([
            MathRenderCase("$$\n\\frac{a}{b}\n$$\n",
                           #"<div class="math math-display" data-source-line="1">"#
                           + math("<mfrac><mi>a</mi><mi>b</mi></mfrac>", "\\frac{a}{b}", display: true) + "</div>\n"),
            MathRenderCase("Text\n\n```math\nx^2\n```\n",
                           "<p data-source-line=\"1\">Text</p>\n" + #"<div class="math math-display" data-source-line="3">"#
                           + math("<msup><mi>x</mi><mn>2</mn></msup>", "x^2", display: true) + "</div>\n"),
            MathRenderCase("> $$\n> x\n> $$\n",
                           "<blockquote data-source-line=\"1\">\n" + #"<div class="math math-display" data-source-line="1">"#
                           + math("<mi>x</mi>", "x", display: true) + "</div>\n</blockquote>\n"),
        ], .mathML, sourceLines: true)
    }

    /// A formula the converter does not understand never fails the page: its TeX is shown,
    /// escaped, in a `math-error` code element whose title says what was wrong.
    func testMalformedFormulasAreTheirSourceInAMathErrorCode() {
        check([
            MathRenderCase("$\\foo{x}$\n",
                           "<p>" + inline(#"<code class="math-error" title="unknown command \foo">\foo{x}</code>"#) + "</p>\n"),
            MathRenderCase("$a<\\bad$\n",
                           "<p>" + inline(#"<code class="math-error" title="unknown command \bad">a&lt;\bad</code>"#) + "</p>\n"),
            MathRenderCase("$$\n\\left( x\n$$\n",
                           #"<div class="math math-display"><code class="math-error" title="missing \right for \left">\left( x</code></div>"# + "\n"),
            MathRenderCase("```math\n\\frac{1}{\n```\n",
                           #"<div class="math math-display"><code class="math-error" title="unbalanced braces: missing }">\frac{1}{</code></div>"# + "\n"),
        ], .mathML)
    }

    /// Every maths node goes through the converter, whatever delimiters made it (`\(…\)` and
    /// `\[…\]` make the same nodes as `$…$` and `$$…$$`).
    func testEveryMathNodeKindIsConverted() {
        var builder = TreeBuilder()
        let paragraph = builder.add(.paragraph)
        builder.add(.inlineMath, to: paragraph, text: "x")
        builder.add(.displayMath, to: paragraph, text: "y")
        builder.tree.codeBlocks.append(CodeBlockInfo(isFenced: true, fenceCharacter: 0x24, fenceLength: 2))
        builder.add(.mathBlock, text: "z\n", data: 0)
        XCTAssertEqual(builder.html(HTMLOptions(math: .mathML)),
                       "<p>" + inline(math("<mi>x</mi>", "x")) + displayInParagraph(math("<mi>y</mi>", "y", display: true)) + "</p>\n"
                       + #"<div class="math math-display">"# + math("<mi>z</mi>", "z", display: true) + "</div>\n")
    }

    /// The pieces of a parallel rendering convert their own formulas: together they are the
    /// bytes of one walk. The maths note of the benchmark is large enough to be cut.
    func testParallelRenderingWritesTheSameMathML() {
        let note = MathNote(bytes: 400_000, formulas: 800)
        let tree = MarkdownParser.parse(note.withMaths, options: .notebook)
        let renderer = HTMLRenderer(options: HTMLOptions(sourceLines: true, headingIDs: true, math: .mathML))
        let pieces = renderer.renderPieces(tree)
        XCTAssertGreaterThan(pieces.count, 1, "the note is cut into pieces")
        let whole = renderer.render(tree)
        XCTAssertEqual(Array(pieces.joined()), whole)
        let html = String(decoding: whole, as: UTF8.self)
        XCTAssertEqual(html.components(separatedBy: "<math ").count - 1, 800, "every formula is MathML")
        XCTAssertFalse(html.contains("math-error"), "the benchmark's formulas are all understood")
    }

    /// The benchmark's note: the same bytes every time, the formulas it says, and without its
    /// maths the same note less every formula.
    func testTheBenchmarkMathsNoteIsDeterministic() {
        let note = MathNote()
        XCTAssertEqual(note.withMaths, MathNote().withMaths)
        XCTAssertEqual(note.formulas.count, 2_000)
        XCTAssertTrue((950_000...1_050_000).contains(note.withMaths.count), "\(note.withMaths.count) bytes")
        XCTAssertTrue((1_200...1_600).contains(note.inlineCount), "\(note.inlineCount) inline")
        let tree = MarkdownParser.parse(note.withMaths, options: .notebook)
        let kinds: [NodeKind] = [.inlineMath, .displayMath, .mathBlock]
        XCTAssertEqual(tree.nodes.filter { kinds.contains($0.kind) && $0.parent != .none }.count, 2_000)
        let plain = MarkdownParser.parse(note.withoutMaths, options: .notebook)
        XCTAssertEqual(plain.nodes.filter { kinds.contains($0.kind) && $0.parent != .none }.count, 0)
        XCTAssertFalse(note.withoutMaths.contains(UInt8(ascii: "$")), "no dollar left")
        XCTAssertEqual(tree.headingAnchors().map(\.text), plain.headingAnchors().map(\.text), "the same sections")
    }
}
