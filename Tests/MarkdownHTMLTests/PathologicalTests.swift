import Foundation
import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax
import MacMDBench
import NotebookIndex

/// The stress inputs of `../shared/spec/PATHOLOGICAL.md`, regenerated from its description at a
/// moderate size (`scale` of the reference counts), each checked for the output it must give.
/// Linearity itself is measured by `macmd bench pathological` on a release build (1x and 10x);
/// here we check that every case completes (no stack overflow, no trap) with the right HTML,
/// the front-matter cases through the index too.
final class PathologicalTests: XCTestCase {
    /// Parses and renders a case, and indexes it when it is `indexed`; returns the HTML.
    @discardableResult
    static func run(_ testCase: PathologicalCases.Case) -> String {
        let tree = MarkdownParser.parse(testCase.input, options: ParseOptions(extensions: testCase.extensions))
        let html = HTMLRenderer(options: HTMLOptions(safe: false)).renderString(tree)
        if testCase.indexed {
            var notebook = Notebook()
            notebook.update(NoteSymbols.extract(from: tree, path: "note.md"))
        }
        return html
    }

    func testEveryPathologicalCaseCompletesWithTheRightOutput() throws {
        for testCase in PathologicalCases.cases(divisor: 10) {
            let html = Self.run(testCase)
            if let verify = testCase.verify {
                XCTAssertTrue(verify(html), "\(testCase.name): wrong output \(html.prefix(200))")
                // The regular expression must agree where ICU can still evaluate it.
            }
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
