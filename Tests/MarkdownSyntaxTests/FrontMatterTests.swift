import XCTest
import TestSupport
@testable import MarkdownSyntax

/// Front matter as a YAML subset: each case is a note and the entries (or problems) a user sees.
final class FrontMatterTests: XCTestCase {
    private func frontMatter(_ text: String) -> (FrontMatter?, [SyntaxProblem]) {
        let tree = MarkdownParser.parse(text, options: .notebook)
        return (tree.frontMatter, tree.problems)
    }

    func testScalarsQuotedStringsAndLists() {
        let cases: [(String, [String: FrontMatter.Value])] = [
            ("---\ntitle: Plain title\n---\n", ["title": .scalar("Plain title")]),
            ("---\ntitle: \"Quoted: with colon\"\n---\n", ["title": .scalar("Quoted: with colon")]),
            ("---\ntitle: 'It''s single'\n---\n", ["title": .scalar("It's single")]),
            ("---\ntitle: value # comment\n---\n", ["title": .scalar("value")]),
            ("---\ntags: [a, \"b, c\", d/e]\n---\n", ["tags": .list(["a", "b, c", "d/e"])]),
            ("---\ntags:\n  - one\n  - 'two'\n- three\n---\n", ["tags": .list(["one", "two", "three"])]),
            ("---\nempty:\n---\n", ["empty": .scalar("")]),
            ("---\nauthor:\n  name: Ada\n---\n", ["author": .raw("  name: Ada")]),
            ("---\nbody: |\n  line one\n  line two\n---\n", ["body": .raw("|\n  line one\n  line two")]),
            ("---\r\ntitle: CRLF\r\n...\r\nText\r\n", ["title": .scalar("CRLF")]),
            ("---\ntitle: Café 日本語\n---\n", ["title": .scalar("Café 日本語")]),
        ]
        for (text, expected) in cases {
            let (fm, problems) = frontMatter(text)
            XCTAssertNotNil(fm, text)
            XCTAssertEqual(problems, [], text)
            for (key, value) in expected {
                XCTAssertEqual(fm?[key], value, "\(key) in \(text)")
            }
        }
    }

    func testFrontMatterIsNotContentAndRangesPointAtTheSource() {
        let text = "---\ntitle: T\ntags: [x, y]\n---\n# Heading\n"
        let tree = MarkdownParser.parse(text)
        let kinds = tree.children(of: SyntaxTree.root).map { tree[$0].kind }
        XCTAssertEqual(kinds, [.frontMatter, .heading])
        let entry = tree.frontMatter?.entries.first { $0.key == "tags" }
        let bytes = Array(text.utf8)
        XCTAssertEqual(entry?.itemRanges.map { bytes.text($0.range) }, ["x", "y"])
        XCTAssertEqual(entry.map { bytes.text($0.keyRange.range) }, "tags")
    }

    func testMalformedFrontMatterIsAProblemNotAFailure() {
        let cases: [(String, String)] = [
            ("---\nno colon here\n---\nText\n", "no colon here"),
            ("---\ntags: [a, b\n---\n", "[a, b"),
            ("---\n- orphan\n---\n", "- orphan"),
            ("---\ntitle: \"unclosed\n---\n", "\"unclosed"),
            ("---\na: 1\na: 2\n---\n", "a"),
            // Past 16 keys repeats are found by a set made from the keys before: a repeat of an
            // early key and of one seen after the switch.
            ("---\n" + (1...20).map { "k\($0): v\n" }.joined() + "k3: again\n---\n", "k3"),
            ("---\n" + (1...20).map { "k\($0): v\n" }.joined() + "k18: again\n---\n", "k18"),
        ]
        for (text, flagged) in cases {
            let (fm, problems) = frontMatter(text)
            XCTAssertNotNil(fm, text)
            XCTAssertEqual(problems.count, 1, text)
            let bytes = Array(text.utf8)
            if let p = problems.first {
                XCTAssertEqual(p.code, .malformedFrontMatter)
                XCTAssertEqual(bytes.text(p.range.range), flagged, text)
            }
        }
    }

    func testOnlyALeadingFenceStartsFrontMatter() {
        XCTAssertNil(frontMatter("Text\n---\ntitle: x\n---\n").0)
        XCTAssertNil(frontMatter("---\ntitle: never closed\n").0)
        XCTAssertNil(MarkdownParser.parse("---\ntitle: x\n---\n", options: .gfm).frontMatter)
    }
}
