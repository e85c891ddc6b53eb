import Foundation
import TestSupport
import XCTest

/// `macmd render` as a user runs it: its flags, stdin, its errors; wiki-links point at their
/// target as written, or, with `--notebook DIR`, where the notebook resolves them (as the editor
/// preview does).
final class RenderCommandTests: XCTestCase {
    /// A note that shows which syntax each profile and extension recognises.
    static let note = "# Title *x*\n\n| a |\n|---|\n| 1 |\n\n~~gone~~ [[Note]] #tag $x$\n"
    static let table = "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>\n"

    /// `macmd render ARGUMENTS` on `input` given on stdin (`-`, or no FILE when `arguments` has none).
    func render(_ arguments: [String], input: String = RenderCommandTests.note, file: StaticString = #filePath,
                line: UInt = #line) throws -> TestProcess.Result {
        try TestProcess.macmd(["render"] + arguments, input: Array(input.utf8), file: file, line: line)
    }

    /// The HTML of a successful render; a failing one fails the test with its message.
    func html(_ arguments: [String], input: String = RenderCommandTests.note, file: StaticString = #filePath,
              line: UInt = #line) throws -> String {
        let result = try render(arguments, input: input, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result.stdout
    }

    func testProfilesAndExtensionsChooseTheSyntax() throws {
        XCTAssertEqual(try html(["-"]), #"<h1 id="title-x">Title <em>x</em></h1>"# + "\n" + Self.table
                       + ##"<p><del>gone</del> <a class="wikilink" href="Note.md">Note</a> <a class="tag" href="#tag">#tag</a> "##
                       + #"<span class="math math-inline">\(x\)</span></p>"# + "\n", "the notebook profile is the default")
        XCTAssertEqual(try html(["--profile", "commonmark"]),
                       "<h1>Title <em>x</em></h1>\n<p>| a |\n|---|\n| 1 |</p>\n<p>~~gone~~ [[Note]] #tag $x$</p>\n",
                       "CommonMark: no tables, strikethrough, wiki-links, tags, maths or heading ids")
        XCTAssertEqual(try html(["--profile=gfm"]), "<h1>Title <em>x</em></h1>\n" + Self.table + "<p><del>gone</del> [[Note]] #tag $x$</p>\n",
                       "GFM: tables and strikethrough, no notebook syntax")
        XCTAssertEqual(try html(["--profile", "commonmark", "--extensions", "table"]),
                       "<h1>Title <em>x</em></h1>\n" + Self.table + "<p>~~gone~~ [[Note]] #tag $x$</p>\n", "CommonMark plus tables alone")
        XCTAssertEqual(try html(["--profile", "commonmark", "--extensions=wikilinks, Tags,math"]),
                       "<h1>Title <em>x</em></h1>\n<p>| a |\n|---|\n| 1 |</p>\n"
                       + ##"<p>~~gone~~ <a class="wikilink" href="Note.md">Note</a> <a class="tag" href="#tag">#tag</a> "##
                       + #"<span class="math math-inline">\(x\)</span></p>"# + "\n", "extension names are a list, spaces and case aside")
    }

    func testHeadingIDsSourceLinesAndSafeMode() throws {
        XCTAssertTrue(try html(["--profile", "gfm", "--heading-ids"]).hasPrefix(#"<h1 id="title-x">Title <em>x</em></h1>"#))
        XCTAssertEqual(try html(["--source-lines"], input: "# A\n\ntext\n\n- item\n"),
                       #"<h1 id="a" data-source-line="1">A</h1>"# + "\n" + #"<p data-source-line="3">text</p>"# + "\n"
                       + #"<ul data-source-line="5">"# + "\n" + #"<li data-source-line="5">item</li>"# + "\n</ul>\n")
        let risky = "<b>raw</b> [x](javascript:alert(1))\n"
        XCTAssertEqual(try html([], input: risky), #"<p><!-- raw HTML omitted -->raw<!-- raw HTML omitted --> <a href="">x</a></p>"# + "\n",
                       "by default raw HTML is left out and a javascript: URL emptied")
        XCTAssertEqual(try html(["--unsafe"], input: risky), #"<p><b>raw</b> <a href="javascript:alert(1)">x</a></p>"# + "\n")
    }

    func testFullPageTakesItsTitleAndTheme() throws {
        let page = try html(["--full-page"])
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>\n<html data-theme=\"light\">"), String(page.prefix(80)))
        XCTAssertTrue(page.contains("<title>Title x</title>"), "the first heading is the title")
        XCTAssertTrue(page.contains(#"<h1 id="title-x">Title <em>x</em></h1>"#))
        XCTAssertTrue(page.hasSuffix("</html>\n"), String(page.suffix(80)))
        let themed = try html(["--full-page", "--title", "My <page>", "--theme=dark"])
        XCTAssertTrue(themed.hasPrefix("<!DOCTYPE html>\n<html data-theme=\"dark\">"), String(themed.prefix(80)))
        XCTAssertTrue(themed.contains("<title>My &lt;page&gt;</title>"), "the title is given, and escaped")
        XCTAssertFalse(try html(["--theme", "dark"]).contains("<html"), "without --full-page a theme adds no page")
    }

    /// `--math mathml|tex` chooses how maths is written; a full page defaults to MathML (a
    /// browser draws it without a script), a fragment to TeX (for KaTeX or MathJax, and the
    /// output it always had).
    func testMathChoosesMathMLOrTeXAndFullPagesDefaultToMathML() throws {
        let input = "Area $\\pi r^2$ and $\\oops$.\n"
        let tex = #"<p>Area <span class="math math-inline">\(\pi r^2\)</span> and <span class="math math-inline">\(\oops\)</span>.</p>"# + "\n"
        let mathML = #"<p>Area <span class="math math-inline"><math display="inline"><semantics><mrow><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></mrow>"#
            + #"<annotation encoding="application/x-tex">\pi r^2</annotation></semantics></math></span> and "#
            + #"<span class="math math-inline"><code class="math-error" title="unknown command \oops">\oops</code></span>.</p>"# + "\n"
        XCTAssertEqual(try html([], input: input), tex, "a fragment is TeX by default")
        XCTAssertEqual(try html(["--math", "tex"], input: input), tex)
        XCTAssertEqual(try html(["--math=mathml"], input: input), mathML)
        let page = try html(["--full-page"], input: input)
        XCTAssertTrue(page.contains(mathML), "a full page is MathML by default")
        XCTAssertFalse(page.lowercased().contains("<script"), "and runs no script")
        XCTAssertTrue(try html(["--full-page", "--math", "tex"], input: input).contains(tex), "unless --math tex says otherwise")
        XCTAssertTrue(try render(["--help"]).stdout.contains("--math mathml|tex"))
    }

    /// Input that is not UTF-8 text is rendered with U+FFFD where it is not, and `render` says
    /// how many bytes that took (in the writer's language); clean input gets no word.
    func testInputThatIsNotUTF8IsSaidSo() throws {
        let bytes: [UInt8] = Array("# Title\n\nA ".utf8) + [0xFF, 0xFE, 0x00] + Array(" b \u{E9}\n".utf8) + [0xE2, 0x82]
        let result = try TestProcess.macmd(["render"], input: bytes)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "macmd render: the input is not UTF-8 text: 5 bytes were replaced with U+FFFD\n")
        XCTAssertTrue(result.stdout.contains("A \u{FFFD}\u{FFFD}\u{FFFD} b \u{E9}"), result.stdout)
        let one = try TestProcess.run(try MacmdBinary.url(), ["render"], input: [0x61, 0xFF], environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertEqual(one.stderr, "macmd render: die Eingabe ist kein UTF-8-Text: 1 Byte wurde durch U+FFFD ersetzt\n")
        XCTAssertEqual(try render([]).stderr, "", "clean input: no word")
    }

    func testReadsStandardInputWithADashOrNoFile() throws {
        let folder = NotebookFixture(["note.md": Self.note])
        defer { folder.destroy() }
        let fromFile = try html([folder.root + "/note.md"], input: "# Not this\n")
        XCTAssertTrue(fromFile.hasPrefix(#"<h1 id="title-x">"#), fromFile)
        XCTAssertEqual(try html(["-"]), fromFile)
        XCTAssertEqual(try html([]), fromFile)
        XCTAssertEqual(try html(["--", "-"]), fromFile, "after `--` a `-` is still stdin")
        XCTAssertEqual(try html([], input: ""), "", "empty input, empty output")
    }

    func testBadArgumentsExitWithStatusTwoAndSayWhy() throws {
        let help = try render(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("usage: macmd render [FILE|-] [options]\n"), help.stdout)
        let cases: [(arguments: [String], message: String)] = [
            (["--bogus"], "macmd render: unknown option '--bogus'"),
            (["--profile", "asciidoc"], "macmd render: unknown profile 'asciidoc' (commonmark, gfm or notebook)"),
            (["--theme", "neon"], "macmd render: unknown theme 'neon' (light, dark, basic, grass, homebrew, man-page, novel, ocean, pro, "
                + "red-sands, silver-aerogel, solid-colors)"),
            (["--extensions", "table,bogus"], "macmd render: unknown extension 'bogus'"),
            (["--profile"], "macmd render: --profile needs a value"),
            (["--unsafe=yes"], "macmd render: --unsafe takes no value"),
            (["--math", "katex"], "macmd render: unknown maths output 'katex' (tex, mathml)"),
            (["--math"], "macmd render: --math needs a value (mathml or tex)"),
            (["a.md", "b.md"], "macmd render: more than one input file ('b.md')"),
        ]
        for (arguments, message) in cases {
            let result = try render(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            // One line says what is wrong, one where to look; not the whole usage.
            XCTAssertEqual(result.stderr, message + "\nRun `macmd render --help` for its options.\n", "\(arguments)")
        }
        let missing = "/nonexistent-\(UUID().uuidString).md"
        let folder = NotebookFixture(["a.md": "# A\n"])
        defer { folder.destroy() }
        for (path, reason) in [(missing, "No such file or directory"), (folder.root, "Is a directory")] {
            let result = try render([path])
            XCTAssertEqual(result.status, 2, path)
            XCTAssertEqual(result.stdout, "", path)
            XCTAssertEqual(result.stderr, "macmd render: cannot read \(path): \(reason)\n", path)
        }
    }

    func testWikiLinksFollowTheNotebookOnlyWhenOneIsGiven() throws {
        let fixture = NotebookFixture([
            "garden/beds.md": "[[soil#pH]] ![[pic.png]] [[Missing]]\n",
            "garden/soil.md": "# Soil\n\n## pH\n",
            "img/pic.png": "png",
        ])
        defer { fixture.destroy() }
        let note = fixture.root + "/garden/beds.md"
        let plain = try TestProcess.macmd(["render", note])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, #"<p><a class="wikilink" href="soil.md#ph">soil &gt; pH</a> "#
                       + #"<img class="wikilink-embed" src="pic.png" alt="pic.png" /> "#
                       + #"<a class="wikilink" href="Missing.md">Missing</a></p>"# + "\n")
        let resolved = try TestProcess.macmd(["render", "--notebook", fixture.root, note])
        XCTAssertEqual(resolved.status, 0, resolved.stderr)
        XCTAssertEqual(resolved.stdout, #"<p><a class="wikilink" href="soil.md#ph">soil &gt; pH</a> "#
                       + #"<img class="wikilink-embed" src="../img/pic.png" alt="pic.png" /> "#
                       + #"<a class="wikilink broken">Missing</a></p>"# + "\n")
        let outside = try TestProcess.macmd(["render", "--notebook", fixture.root + "/img", note])
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.stderr.contains("is not inside the notebook"), outside.stderr)
        XCTAssertEqual(try TestProcess.macmd(["render", "--notebook", fixture.root]).status, 2, "no FILE to place in the notebook")
    }
}
