import Foundation
import TestSupport
import XCTest
@testable import MarkdownSyntax

/// Golden tree dumps: every `Fixtures/syntax/NAME.md` is parsed in the notebook profile (or the
/// profile named on a first line `<!-- profile: gfm -->`) and its `dump()` compared with
/// `NAME.tree`. Run with `MACMD_BLESS=1` to rewrite the expected files after a deliberate change,
/// then review the diff.
final class GoldenTreeTests: XCTestCase {
    static let fixtures = TestPaths.fixture("syntax")

    func testTreeDumpsMatchGoldenFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(names.isEmpty, "no fixtures in \(Self.fixtures.path)")
        for name in names {
            let url = Self.fixtures.appendingPathComponent(name)
            let bytes = Array(try Data(contentsOf: url))
            var options = ParseOptions.notebook
            let text = String(decoding: bytes.prefix(64), as: UTF8.self)
            for profile in ParseOptions.Profile.allCases where text.hasPrefix("<!-- profile: \(profile.rawValue) -->") {
                options = ParseOptions(profile: profile)
            }
            let tree = MarkdownParser.parse(bytes, options: options)
            var actual = tree.dump()
            for problem in tree.problems {
                actual += "problem \(problem.code.rawValue) @\(problem.range.start)-\(problem.range.end): \(problem.message)\n"
            }
            Golden.assertMatches(actual, "syntax/" + url.deletingPathExtension().appendingPathExtension("tree").lastPathComponent)
        }
    }
}
