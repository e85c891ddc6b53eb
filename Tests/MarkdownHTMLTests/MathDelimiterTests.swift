import XCTest
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex

/// Which `$` opens maths (issue 12): the rules GitHub, pandoc and commonmark-hs share, one group of
/// cases per rule, each Markdown with the HTML the preview renders (notebook profile). The cases
/// are written from the rules (docs/syntax.md, "Math."), not from a run of the parser.
final class MathDelimiterTests: XCTestCase {
    // The markup of a formula, in one place: the renderer writes its TeX, escaped, for KaTeX or
    // MathJax (`\(…\)`, `\[…\]`); the cases say only which formulas there are and what they hold.

    static func inline(_ tex: String) -> String { #"<span class="math math-inline">\("# + tex + #"\)</span>"# }
    static func display(_ tex: String) -> String { #"<span class="math math-display">\["# + tex + #"\]</span>"# }
    static func block(_ tex: String) -> String { #"<div class="math math-display">\["# + tex + #"\]</div>"# }

    func testNoWhitespaceJustInsideInlineMaths() {
        check([
            ("$ y=x$ and $y=x $", "<p>$ y=x$ and $y=x $</p>"),
            // A line ending and a tab are whitespace too.
            ("$x\n$", "<p>$x\n$</p>"),
            ("$\nx$", "<p>$\nx$</p>"),
            ("$\tx$", "<p>$\tx$</p>"),
            // Only the first `$` at the opener's level is a candidate: when it follows a space the
            // opener is text, and the scan goes on from the next `$`.
            ("$a $b$", "<p>$a \(Self.inline("b"))</p>"),
            ("$x $ x$", "<p>$x $ x$</p>"),
            // Display maths may start and end with spaces.
            ("a $$ x $$ b", "<p>a \(Self.display(" x ")) b</p>"),
            // Maths needs no space around it.
            ("foo$y=x$bar (\\$$z$)", "<p>foo\(Self.inline("y=x"))bar ($\(Self.inline("z")))</p>"),
        ])
    }

    func testBracesBalanceInsideMaths() {
        check([
            // A `$` inside braces does not close: `\text{…}` may hold maths of its own.
            ("$\\text{Hello $x$ there!}$", "<p>\(Self.inline("\\text{Hello $x$ there!}"))</p>"),
            ("a $$\\text{b $$ c}$$ d", "<p>a \(Self.display("\\text{b $$ c}")) d</p>"),
            ("$a^{b}$ and ${c}_d$", "<p>\(Self.inline("a^{b}")) and \(Self.inline("{c}_d"))</p>"),
            // A `}` with no `{` ends the attempt; a `{` never closed hides every `$` after it.
            ("$}{$", "<p>$}{$</p>"),
            ("${x$", "<p>${x$</p>"),
            ("$}$2+2$", "<p>$}\(Self.inline("2+2"))</p>"),
            // Escaped braces do not count.
            ("$\\}\\{$", "<p>\(Self.inline("\\}\\{"))</p>"),
        ])
    }

    func testDollarRunsSplitGreedilyFromTheLeft() {
        check([
            // `$x$`, then `$$$$` (empty display maths), then `$$y$$`.
            ("$x$$$$$$$y$$", "<p>\(Self.inline("x"))\(Self.display(""))\(Self.display("y"))</p>"),
            // One `$` fewer: `$y$` is inline and the last `$` is text.
            ("$x$$$$$$y$$", "<p>\(Self.inline("x"))\(Self.display(""))\(Self.inline("y"))$</p>"),
            // `$$beta$` is no display maths (one `$` closes it), so its first `$` is text and the
            // second opens `$beta$`; `$$delta` never closes.
            ("alpha$$beta$gamma$$delta", "<p>alpha$\(Self.inline("beta"))gamma$$delta</p>"),
            ("a $$x$y$$ b", "<p>a $\(Self.inline("x"))y$$ b</p>"),
            ("$a$$b$", "<p>\(Self.inline("a"))\(Self.inline("b"))</p>"),
            ("Oops empty $$ expression.", "<p>Oops empty $$ expression.</p>"),
        ])
    }

    func testClosingDollarBeforeADigitDoesNotClose() {
        check([
            ("$20 and $30", "<p>$20 and $30</p>"),
            ("$a$1 and $b$", "<p>$a$1 and \(Self.inline("b"))</p>"),
            // Display maths has no such rule.
            ("a $$x$$2", "<p>a \(Self.display("x"))2</p>"),
        ])
    }

    func testBackslashesInsideDollarMaths() {
        check([
            ("\\$x$", "<p>$x$</p>"),
            ("$\\$$", "<p>\(Self.inline("\\$"))</p>"),
            // `\\` is one pair: the `$` after it closes.
            ("$a\\\\$", "<p>\(Self.inline("a\\\\"))</p>"),
            ("$a<b$", "<p>\(Self.inline("a&lt;b"))</p>"),
        ])
    }

    func testMathsNeverCrossesABlockBoundary() {
        check([
            ("$x + y\n- z$", "<p>$x + y</p>\n<ul>\n<li>z$</li>\n</ul>"),
            ("a $x\n> y$", "<p>a $x</p>\n<blockquote>\n<p>y$</p>\n</blockquote>"),
            ("Let $$x\n- y$$", "<p>Let $$x</p>\n<ul>\n<li>y$$</li>\n</ul>"),
            ("$a\n\nb$", "<p>$a</p>\n<p>b$</p>"),
            ("| $a | b$ |\n|---|---|", "<table>\n<thead>\n<tr>\n<th>$a</th>\n<th>b$</th>\n</tr>\n</thead>\n</table>"),
            // Inside one paragraph, maths may run over lines.
            ("$5x + 2 =\n17$", "<p>\(Self.inline("5x + 2 =\n17"))</p>"),
        ])
    }

    /// A `$$` on a line of its own opens a block, as in Obsidian: it runs to the line that ends with
    /// `$$`, blank lines included, and may interrupt a paragraph.
    func testDollarBlocksOnLinesOfTheirOwn() {
        check([
            ("$$\nx^2\n$$", Self.block("x^2")),
            ("Text\n$$\nx\n$$", "<p>Text</p>\n" + Self.block("x")),
            ("$$\na\n\nb\n$$", Self.block("a\n\nb")),
            ("$$ a^2 + b^2 $$", Self.block("a^2 + b^2")),
            // Another `$$` further on the line: a paragraph with display maths in it.
            ("$$x^2$$ is maths in a paragraph", "<p>\(Self.display("x^2")) is maths in a paragraph</p>"),
        ])
    }

    func testBackslashParenthesesAndBrackets() {
        check([
            ("a \\(x^2\\) b", "<p>a \(Self.inline("x^2")) b</p>"),
            ("\\[x^2\\]", "<p>\(Self.display("x^2"))</p>"),
            // As pasted from a chat or LaTeX: the delimiters on lines of their own.
            ("\\[\nx = 1\n\\]", "<p>\(Self.display("\nx = 1\n"))</p>"),
            ("\\(a < b\\)", "<p>\(Self.inline("a &lt; b"))</p>"),
            ("\\(a $b$ c\\) $d\\)e$", "<p>\(Self.inline("a $b$ c")) \(Self.inline("d\\)e"))</p>"),
            // A backslash pairs with the byte after it: `\\)` does not close.
            ("\\(a\\\\)b\\)", "<p>\(Self.inline("a\\\\)b"))</p>"),
            // Unclosed or blank: the escaped parenthesis or bracket of CommonMark.
            ("\\(unclosed", "<p>(unclosed</p>"),
            ("\\(\\) and \\[ \\]", "<p>() and [ ]</p>"),
            ("- \\[ \\] not a task", "<ul>\n<li>[ ] not a task</li>\n</ul>"),
            // Escaped backslashes are no opener.
            ("\\\\(x\\\\)", "<p>\\(x\\)</p>"),
            ("\\(x\n- y\\)", "<p>(x</p>\n<ul>\n<li>y)</li>\n</ul>"),
            // Other escapes are as they were.
            ("\\*a\\* \\{b\\} \\] \\)", "<p>*a* {b} ] )</p>"),
        ])
    }

    /// CommonMark and GFM have no maths: their spec output must not change.
    func testNoMathsOutsideTheMathExtension() {
        for options in [ParseOptions.commonmark, ParseOptions.gfm] {
            let tree = MarkdownParser.parse("\\(x\\) \\[y\\] $z$ $$w$$", options: options)
            XCTAssertEqual(HTMLRenderer(options: .gfmSpec).renderString(tree), "<p>(x) [y] $z$ $$w$$</p>\n")
        }
    }

    /// The index reads the tree the preview renders: what is maths holds no tag and no link.
    func testTheIndexFindsNoTagsOrLinksInsideMaths() {
        let markdown = "$\\text{#a [[A]]}$ $$#b [[B]]$$ \\(#c [[C]]\\) \\[#d [[D]]\\] #real [[Real]]"
        let tree = MarkdownParser.parse(markdown, options: .notebook)
        let symbols = NoteSymbols.extract(from: tree, path: "here.md")
        XCTAssertEqual(symbols.tags.map(\.name), ["real"])
        XCTAssertEqual(symbols.links.map(\.destination), ["Real"])
        let html = HTMLRenderer(options: .notebookPreview).renderString(tree)
        XCTAssertEqual(html.components(separatedBy: "<a ").count, 3, "only #real and [[Real]] are links: \(html)")
    }

    /// Renders each case in the notebook profile, as the preview does.
    private func check(_ cases: [(markdown: String, html: String)], file: StaticString = #filePath, line: UInt = #line) {
        for (markdown, html) in cases {
            let tree = MarkdownParser.parse(markdown, options: .notebook)
            XCTAssertEqual(HTMLRenderer(options: .notebookPreview).renderString(tree), html + "\n", markdown.debugDescription,
                           file: file, line: line)
        }
    }
}
