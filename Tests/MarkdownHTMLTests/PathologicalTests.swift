import Foundation
import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax
import MacMDBench

/// The stress inputs of `../shared/spec/PATHOLOGICAL.md`, regenerated from its description at a
/// moderate size (a tenth of the reference counts), and the maths, front-matter and notebook
/// cases, each checked for the output it must give. The notebook cases are served as notes
/// (`ServedNote`: index, diagnostics, outline, folding, hover, completion, preview), and what
/// that gave is checked too. Linearity itself is measured by `macmd-bench pathological` on a
/// release build (1x and 10x); here we check that every case completes (no stack overflow, no
/// trap) with the right output.
final class PathologicalTests: XCTestCase {
    func testEveryPathologicalCaseCompletesWithTheRightOutput() throws {
        for testCase in PathologicalCases.cases(divisor: 10) {
            let run = PathologicalCases.run(testCase)
            let html = run.html
            if let right = testCase.isRight(run) {
                XCTAssertTrue(right, "\(testCase.name): wrong output \(html.prefix(300))"
                              + (run.served.map { " / served: \($0.diagnosticCounts), \($0.symbols.links.count) links" } ?? ""))
            }
            if testCase.exact != nil || testCase.check.isEmpty { continue }
            // The regular expression must agree where ICU can still evaluate it.
            let regex = try NSRegularExpression(pattern: testCase.check, options: [.dotMatchesLineSeparators])
            let found = regex.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) != nil
            XCTAssertTrue(found, "\(testCase.name): output does not match \(testCase.check.prefix(120)); got \(html.prefix(300))")
        }
    }

    /// The checks can fail: a case whose output or served note is not what it claims is caught.
    func testAWrongOutputIsCaught() throws {
        guard var wikiLinks = PathologicalCases.notebookCases(divisor: 1000).first(where: { $0.name == "wiki-links on one line" }) else {
            return XCTFail("no wiki-link case")
        }
        XCTAssertEqual(wikiLinks.isRight(PathologicalCases.run(wikiLinks)), true)
        wikiLinks.input += " [[missing]]"
        XCTAssertEqual(wikiLinks.isRight(PathologicalCases.run(wikiLinks)), false)
        wikiLinks.exact = nil
        // The HTML is no longer compared; the served note still has a broken link too many.
        XCTAssertEqual(wikiLinks.isRight(PathologicalCases.run(wikiLinks)), false)
    }
}
