import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// `macmd/pairs`: the context of a cursor and the opens that pair there, written
/// `context: open open …`.
final class AutoPairingTests: XCTestCase {
    private func describe(_ fixture: String, extensions: ParseOptions.Extensions = .notebook) -> String {
        let (text, offsets) = Fixture.removingMarkers(fixture)
        let hints = AutoPairing.pairs(at: offsets.first ?? 0, in: Array(text.utf8), extensions: extensions)
        return ([hints.context.rawValue + ":"] + hints.pairs.map(\.open)).joined(separator: " ")
    }

    private func check(_ cases: [(String, String)], extensions: ParseOptions.Extensions = .notebook,
                       file: StaticString = #filePath, line: UInt = #line) {
        for (fixture, expected) in cases {
            Expect.equal(describe(fixture, extensions: extensions), expected, fixture: fixture, file: file, line: line)
        }
    }

    /// Raw HTML is read by the parser's rules: a block hides Markdown until it ends, a tag or a
    /// comment in a line hides it inside; quotes pair there (attribute values).
    func testHTML() {
        check([
            ("<div>\n  <p>Hel$0lo</p>\n</div>\n", "html: \" '"),
            ("<div>\n\nMarkdown $0again\n", "text: [[ ** ~~ $$ [ ( ` * $"),
            ("Text <a href=\"$0\">x</a>", "html: \" '"),
            ("Text <a href=\"x\">li$0nk</a>", "text: [[ ** ~~ $$ [ ( ` * $"),
            ("<a href=\"`\">`$0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("A <!-- note `$0 --> b", "html: \" '"),
            ("Mail <me@exam$0ple.com> now", "url:"),
        ])
    }

    /// Where the editing features see a span the parser does not, on purpose
    /// (`ScannerDifferentialTests.isDecision` lets these through, and only these).
    func testDecisions() {
        check([
            // From `[[` to the next `]]` (or the line's end) is a wiki-link being typed.
            ("[[$0]]", "wikiLink:"),
            ("See [[unfini$0", "wikiLink:"),
            ("[[a]b$0]]", "wikiLink:"),
            // A bare URL runs to the next space while it is typed: `.` may start `.au`.
            ("www.example.com.$0", "url:"),
            ("(https://example.com/a_(b)$0)", "url:"),
            // A `|` in backticks ends a table cell (GFM); the line reads one code span.
            ("| `a|$0b` | c |", "codeSpan:"),
            // A bare e-mail address is prose here (GFM links it).
            ("write to me@exa$0mple.com", "text: [[ ** ~~ $$ [ ( ` * $"),
        ])
    }

    func testProse() {
        check([
            ("Hello $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("Hello $0 world", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("(see $0)", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            // `_` neither opens nor closes inside a word.
            ("snake$0", "text: [[ ** ~~ $$ [ ( ` * $"),
            ("$0word", "text: [[ ** ~~ $$ [ ( ` $"),
            ("a $0word", "text: [[ ** ~~ $$ [ ( ` * $"),
            ("数$0", "text: [[ ** ~~ $$ [ ( ` * $"),
            ("word $0.", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            // `*` at the start of a line would be a list item.
            ("$0", "text: [[ ** __ ~~ $$ [ ( ` _ $"),
            ("- $0", "text: [[ ** __ ~~ $$ [ ( ` _ $"),
            ("> $0", "text: [[ ** __ ~~ $$ [ ( ` _ $"),
            ("  $0", "text: [[ ** __ ~~ $$ [ ( ` _ $"),
            ("- item $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            // `$` cannot close before a digit.
            ("costs $05", "text: [[ ** ~~ $$ [ ( ` *"),
            // Two backticks at the start of a line: the third makes a fence.
            ("``$0", "text: [[ ** __ ~~ $$ [ ( * _ $"),
            ("Text ``$0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("`done` $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("[a](url) $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("[[note]] $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("<https://x.org> $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("`unclosed $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
        ])
    }

    func testTheProfileDecidesMathWikiLinksAndStrikethrough() {
        check([("Hello $0", "text: ** __ ~~ [ ( ` * _")], extensions: .gfm)
        check([("Hello $0", "text: ** __ [ ( ` * _")], extensions: [])
        check([("$$\nx$0\n$$\n", "text: ** ~~ [ ( ` *"), ("$x+$0y$", "text: ** ~~ [ ( ` *")], extensions: .gfm)
    }

    func testCode() {
        check([
            ("`code $0`", "codeSpan:"),
            ("` $0 `", "codeSpan:"),
            ("``code $0 ``", "codeSpan: `"),
            ("`` a `b` $0 ``", "codeSpan: `"),
            // Against a delimiter a backtick changes the delimiter.
            ("``code $0``", "codeSpan:"),
            ("``$0 code ``", "codeSpan:"),
            // A run as long as the delimiters would close the span.
            ("`` a `$0 ``", "codeSpan:"),
            ("Text `a` and `co$0de` end", "codeSpan:"),
            ("```\ncode$0\n```\n", "fencedCode:"),
            ("```$0\ncode\n```\n", "fencedCode:"),
            ("~~~ python\nx = $0\n", "fencedCode:"),
            ("> ```\n> code$0\n> ```\n", "fencedCode:"),
        ])
    }

    func testURLsLinksAndWikiLinks() {
        check([
            ("[a](http://x.org/$0)", "linkDestination: ("),
            ("[a]($0)", "linkDestination: ("),
            ("[a](http://x.org/a_$0", "linkDestination: ("),
            ("[a](<my file$0>)", "linkDestination: ("),
            ("[a](url \"ti$0tle\")", "linkTitle: \" ' ("),
            ("[a](url $0)", "linkTitle: \" ' ("),
            ("[ref]: https://x.org/$0", "linkDestination: ("),
            ("[ref]: https://x.org \"T$0\"", "linkTitle: \" ' ("),
            ("<https://x.org/a$0>", "url:"),
            ("<https://x.org/a_b$0", "url:"),
            ("see https://example.com/a_$0b", "url:"),
            ("see www.example.com/$0", "url:"),
            ("(https://x.org/$0)", "url:"),
            ("[[note$0]]", "wikiLink:"),
            ("[[no$0", "wikiLink:"),
            ("![[image$0.png]]", "wikiLink:"),
            ("[[a]] and [[b$0]]", "wikiLink:"),
            ("a\\$0", "escaped:"),
            ("\\\\$0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
        ])
    }

    func testMathAndFrontMatter() {
        check([
            ("$x+$0y$", "math: { ( ["),
            ("$$x + $0$$", "math: { ( ["),
            ("$$\nx^$0\n$$\n", "math: { ( ["),
            ("$ not math $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            // The parser's rules decide which `$` opens maths: the first `$` of `$a $b$` cannot
            // close at `$b` (a space before it), so only `$b$` is maths.
            ("$a $0 $b$", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("$a $b+$0c$", "math: { ( ["),
            // Braces nest: the `$` inside `\text{…}` does not close the formula.
            ("$\\text{a $x$ b} + y$0$", "math: { ( ["),
            // A closing `$` before a digit does not close.
            ("$20 and $0 $30", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            // `\(…\)` and `\[…\]` are maths too.
            ("see \\(x + $0\\) here", "math: { ( ["),
            ("\\[a = $0b\\]", "math: { ( ["),
            ("\\( not closed $0", "text: [[ ** __ ~~ $$ [ ( ` * _ $"),
            ("`$x$0$`", "codeSpan:"),
            ("---\ntitle: $0\n---\nBody\n", "frontMatter: [ { \" '"),
            ("---\ntags: [a, $0]\n---\n", "frontMatter: [ { \" '"),
        ])
    }

    func testFencedCodeNamesItsLanguage() {
        func language(_ fixture: String) -> String? {
            let (text, offsets) = Fixture.removingMarkers(fixture)
            return AutoPairing.pairs(at: offsets[0], in: Array(text.utf8)).language
        }
        XCTAssertEqual(language("```swift\nlet x = $0\n```\n"), "swift")
        XCTAssertEqual(language("~~~ python extra\nx$0\n"), "python")
        XCTAssertNil(language("```\ncode$0\n```\n"))
        XCTAssertNil(language("```swift\ncode\n```\ntext$0\n"))
    }

    func testEachPairSaysWhatItWrites() {
        let hints = AutoPairing.pairs(at: 6, in: Array("Hello  world".utf8))
        XCTAssertEqual(hints.pairs.first { $0.open == "[[" }, AutoPair("[[", "]]", .wikiLink))
        XCTAssertEqual(hints.pairs.first { $0.open == "**" }, AutoPair("**", "**", .strongEmphasis))
        XCTAssertEqual(hints.pairs.first { $0.open == "(" }, AutoPair("(", ")", .parentheses))
        // A single `$` is withdrawn by a digit or a space typed next (money, not maths); `$$` is not.
        XCTAssertEqual(hints.pairs.first { $0.open == "$" }, AutoPair("$", "$", .inlineMath, withdrawOn: "0123456789 \t"))
        XCTAssertEqual(hints.pairs.first { $0.open == "$$" }, AutoPair("$$", "$$", .displayMath))
        XCTAssertEqual(hints.pairs.filter { !$0.withdrawOn.isEmpty }.map(\.open), ["$"])
        // Longest opens first, so that an editor can take the first that matches.
        let lengths = hints.pairs.map(\.open.count)
        XCTAssertEqual(lengths, lengths.sorted(by: >))
        // Any offset is accepted.
        XCTAssertEqual(AutoPairing.pairs(at: -3, in: []).context, .text)
        XCTAssertEqual(AutoPairing.pairs(at: 99, in: Array("`a".utf8)).context, .text)
    }
}
