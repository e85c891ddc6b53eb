import Foundation
import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax

/// The stress inputs of `../shared/spec/PATHOLOGICAL.md`, regenerated from its description at a
/// moderate size (`scale` of the reference counts), each checked for the output it must give.
/// Linearity itself is measured by `macmd bench pathological` on a release build (1x and 10x);
/// here we check that every case completes (no stack overflow, no trap) with the right HTML.
final class PathologicalTests: XCTestCase {
    struct Case {
        var name: String
        var input: String
        /// A regular expression that must be found in the output.
        var check: String
        var extensions: ParseOptions.Extensions = []
        /// When set, the whole output must equal this.
        var exact: String? = nil
    }

    /// Cases at `1/divisor` of the reference counts (the same generator serves the benchmark).
    static func cases(divisor: Int) -> [Case] {
        func n(_ count: Int) -> Int { max(1, count / divisor) }
        func rep(_ s: String, _ count: Int) -> String { String(repeating: s, count: count) }
        var cases: [Case] = []
        let a = n(32500)
        cases.append(Case(name: "nested strong emph", input: rep("*a **a ", a) + "b" + rep(" a** a*", a),
                          check: "", exact: "<p>" + rep("<em>a <strong>a ", a) + "b" + rep(" a</strong> a</em>", a) + "</p>\n"))
        cases.append(Case(name: "many emph closers with no openers", input: rep("a_ ", a), check: "(a_ ){\(a - 1)}a_"))
        cases.append(Case(name: "many emph openers with no closers", input: rep("_a ", a), check: "(_a ){\(a - 1)}_a"))
        cases.append(Case(name: "many link closers with no openers", input: rep("a]", a), check: "(a\\]){\(a)}"))
        cases.append(Case(name: "many link openers with no closers", input: rep("[a", a), check: "(\\[a){\(a)}"))
        let m = n(25000)
        cases.append(Case(name: "mismatched openers and closers", input: rep("*a_ ", m), check: "(\\*a_ ){\(m - 1)}\\*a_"))
        let k = n(20000)
        cases.append(Case(name: "issue #389", input: rep("*a ", k) + rep("_a*_ ", k),
                          check: "(<em>a ){\(k)}(_a</em>_ ?){\(k)}"))
        cases.append(Case(name: "openers and closers multiple of 3", input: "a**b" + rep("c* ", m),
                          check: "a\\*\\*b(c\\* ){\(m - 1)}c\\*"))
        cases.append(Case(name: "link openers and emph closers", input: rep("[ a_", m), check: "(\\[ a_){\(m)}"))
        let p = n(40000)
        cases.append(Case(name: "pattern [ (]( repeated", input: rep("[ (](", p), check: "(\\[ \\(\\]\\(){\(p)}"))
        let q = n(160000)
        cases.append(Case(name: "pattern ![[]() repeated", input: rep("![[]()", q), check: "(!\\[<a href=\"\"></a>){\(q)}"))
        cases.append(Case(name: "hard link/emph case", input: "**x [a*b**c*](d)",
                          check: "\\*\\*x <a href=\"d\">a<em>b\\*\\*c</em></a>"))
        cases.append(Case(name: "nested brackets", input: rep("[", m) + "a" + rep("]", m), check: "\\[{\(m)}a\\]{\(m)}"))
        var backticks = ""
        for i in 1...max(1, 2499 / Int(Double(divisor).squareRoot().rounded(.up))) { backticks += "e" + rep("`", i) }
        cases.append(Case(name: "backticks", input: backticks, check: "^<p>[e`]*</p>\\n$"))
        let u = n(30000)
        cases.append(Case(name: "unclosed links A", input: rep("[a](<b", u), check: "(\\[a\\]\\(&lt;b){\(u)}"))
        cases.append(Case(name: "unclosed links B", input: rep("[a](b", u), check: "(\\[a\\]\\(b){\(u)}"))
        let h = n(300000)
        cases.append(Case(name: "unclosed <!--", input: "</" + rep("<!--", h), check: "&lt;/(&lt;!--){\(h)}"))
        // Reference collisions: labels whose sdbm hash is 0 mod 16.
        let wanted = n(25000)
        var labels: [String] = []
        var i = 0
        while labels.count < wanted {
            let s = "x\(i)"
            var hash: UInt32 = 0
            for c in s.unicodeScalars {
                hash = UInt32(c.value) &+ (hash << 6) &+ (hash << 16) &- hash
            }
            if hash % 16 == 0 { labels.append(s) }
            i += 1
        }
        var collisions = ""
        for label in labels.dropFirst() { collisions += "[\(label)]: /url\n\n[\(labels[0])]\n\n" }
        cases.append(Case(name: "reference collisions", input: collisions,
                          check: "(<p>\\[\(labels[0])\\]</p>\\n){\(max(0, wanted - 1))}"))
        let b = n(25000)
        cases.append(Case(name: "nested block quotes", input: rep("> ", b) + "a", check: "(<blockquote>\\n){\(b)}"))
        var lists = ""
        for level in 0..<500 { lists += rep("  ", level) + "* a\n" }
        cases.append(Case(name: "deeply nested lists", input: lists,
                          check: "^<ul>\\n(<li>a\\n<ul>\\n){499}<li>a</li>\\n</ul>\\n(</li>\\n</ul>\\n){499}$"))
        let d = n(30000)
        cases.append(Case(name: "empty lines in deeply nested lists", input: rep("- ", d) + "x" + rep("\n", d),
                          check: "^(<\\w+>\\n?)+x(</\\w+>\\n)+$"))
        cases.append(Case(name: "empty lines in deeply nested lists in blockquote",
                          input: "> " + rep("- ", d) + "x\n" + rep(">\n", d), check: "^(<\\w+>\\n?)+x(</\\w+>\\n)+$"))
        let e = n(100000)
        cases.append(Case(name: "emph in deep blockquote", input: rep(">", e) + rep("a*", e),
                          check: "^(<\\w+>\\n)+<p>.*</p>\\n(</\\w+>\\n)+$"))
        cases.append(Case(name: "U+0000 in input", input: "abc\u{0}de\u{0}", check: "abc\u{FFFD}?de\u{FFFD}?"))
        let t = n(30000)
        var tableCheck = "^<p>aaa</p>\\n<table>\\n<thead>\\n<tr>\\n<th>bbb</th>\\n</tr>\\n</thead>\\n<tbody>\\n"
        tableCheck += "(<tr>\\n<td>aaa</td>\\n</tr>\\n<tr>\\n<td>bbb</td>\\n</tr>\\n<tr>\\n<td>-\\x{0B}</td>\\n</tr>\\n){\(t - 1)}"
        tableCheck += "</tbody>\\n</table>\\n$"
        cases.append(Case(name: "tables", input: rep("aaa\rbbb\n-\u{0B}\n", t), check: tableCheck, extensions: .table))
        return cases
    }

    func testEveryPathologicalCaseCompletesWithTheRightOutput() throws {
        for testCase in Self.cases(divisor: 10) {
            let tree = MarkdownParser.parse(testCase.input, options: ParseOptions(extensions: testCase.extensions))
            let html = HTMLRenderer(options: HTMLOptions(safe: false)).renderString(tree)
            if let exact = testCase.exact {
                XCTAssertTrue(html == exact, "\(testCase.name): got \(html.prefix(300))")
                continue
            }
            let regex = try NSRegularExpression(pattern: testCase.check, options: [.dotMatchesLineSeparators])
            let found = regex.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) != nil
            XCTAssertTrue(found, "\(testCase.name): output does not match \(testCase.check.prefix(120)); got \(html.prefix(300))")
        }
    }
}
