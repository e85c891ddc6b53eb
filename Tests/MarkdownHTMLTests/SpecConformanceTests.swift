// The spec conformance runner: every example of the CommonMark and GFM suites, compared
// byte-for-byte with the expected HTML (cmark's and cmark-gfm's own `--no-normalize` mode).
//
// The spec data (CC-BY-SA) is not in this repository: it is read from `$MACMD_SPEC_DIR`, else
// from `../shared/spec` beside the package. When it is absent the tests are skipped (XCTSkip),
// saying where they looked.
// Failures that are known and explained are listed in `Fixtures/spec/known-differences.json`;
// an unlisted failure fails the test, and so does a listed example that now passes.

import Foundation
import XCTest
import MarkdownSyntax
import MarkdownHTML
import TestSupport

final class SpecConformanceTests: XCTestCase {
    /// One example as the JSON files hold it.
    struct Example: Decodable {
        var example: Int
        var section: String
        var markdown: String
        var html: String
        var extensions: [String]?
        var disabled: Bool?
    }

    /// One entry of the known-differences file.
    struct KnownDifference: Decodable {
        var file: String
        var example: Int
        var reason: String
    }

    /// How a suite file is run.
    enum Mode {
        /// No extensions, cmark's output.
        case commonmark
        /// The extensions each example lists, cmark-gfm's output.
        case listedExtensions
        /// All six cmark-gfm extensions, cmark-gfm's output.
        case allGFMExtensions
    }

    func testCommonMarkSpec() throws { try runSuite("commonmark.json", mode: .commonmark) }
    func testCommonMarkRegressions() throws { try runSuite("commonmark-regression.json", mode: .commonmark) }
    func testGFMSpec() throws { try runSuite("gfm.json", mode: .listedExtensions) }
    func testGFMExtensions() throws { try runSuite("gfm-extensions.json", mode: .allGFMExtensions) }
    func testGFMRegressions() throws { try runSuite("gfm-regression.json", mode: .listedExtensions) }

    func runSuite(_ file: String, mode: Mode) throws {
        let url = try SpecData.url(file)
        let examples = try JSONDecoder().decode([Example].self, from: Data(contentsOf: url))
        let knownURL = TestPaths.fixture("spec/known-differences.json")
        let known = try JSONDecoder().decode([KnownDifference].self, from: Data(contentsOf: knownURL))
        let knownNumbers = Set(known.filter { $0.file == file }.map(\.example))

        var passed = 0
        var failed: [Example] = []
        var disabled = 0
        var ignored = 0
        var unexpectedFailures: [Int] = []
        var unexpectedPasses: [Int] = []
        for example in examples {
            let actual = render(example, mode: mode)
            if example.disabled == true {
                // cmark-gfm's own runner skips these: their expected HTML differs from cmark-gfm's
                // in attribute order and `/>` only, so they are compared with tags normalised.
                if SpecConformanceTests.normalizingTags(actual) == SpecConformanceTests.normalizingTags(Array(example.html.utf8)) {
                    passed += 1
                    disabled += 1
                } else {
                    failed.append(example)
                    if !knownNumbers.contains(example.example) { unexpectedFailures.append(example.example) }
                }
                continue
            }
            if example.html == "<IGNORE>\n" || example.html == "<IGNORE>" {
                ignored += 1
                continue
            }
            if actual == Array(example.html.utf8) {
                passed += 1
                if knownNumbers.contains(example.example) { unexpectedPasses.append(example.example) }
            } else {
                failed.append(example)
                if !knownNumbers.contains(example.example) { unexpectedFailures.append(example.example) }
                if ProcessInfo.processInfo.environment["MACMD_SPEC_VERBOSE"] != nil {
                    print("--- \(file) #\(example.example) (\(example.section))\nmarkdown: \(example.markdown.debugDescription)\nexpected: \(example.html.debugDescription)\nactual:   \(String(decoding: actual, as: UTF8.self).debugDescription)")
                }
            }
        }
        var summary = "\(file): \(passed) passed, \(failed.count) failed"
        if disabled > 0 { summary += " (\(disabled) of the passes are disabled examples, compared with tags normalised)" }
        if ignored > 0 { summary += ", \(ignored) only checked not to crash" }
        print(summary)
        if !failed.isEmpty {
            let list = failed.map { "\($0.example) (\($0.section))\(knownNumbers.contains($0.example) ? " [known]" : "")" }
            let shown = list.prefix(80).joined(separator: ", ")
            print("  failing: " + shown + (list.count > 80 ? ", … and \(list.count - 80) more" : ""))
        }
        XCTAssert(unexpectedFailures.isEmpty,
                  "\(file): \(unexpectedFailures.count) examples failing that known-differences.json does not list: \(unexpectedFailures.prefix(80))")
        XCTAssert(unexpectedPasses.isEmpty,
                  "\(file): examples now pass; remove them from known-differences.json: \(unexpectedPasses)")
    }

    /// The HTML with each tag's attributes sorted and a self-closing `/` dropped (the spec
    /// normaliser's rules 5 and 6, enough for the two disabled task-list examples).
    static func normalizingTags(_ html: [UInt8]) -> String {
        let text = String(decoding: html, as: UTF8.self)
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            var inner = rest[rest.index(after: open)..<close]
            if inner.hasSuffix("/") { inner = inner.dropLast() }
            var words = inner.split(separator: " ").map(String.init)
            if words.count > 2 { words = [words[0]] + words.dropFirst().sorted() }
            result += "<" + words.joined(separator: " ") + ">"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    func render(_ example: Example, mode: Mode) -> [UInt8] {
        var extensions: ParseOptions.Extensions = []
        var html = HTMLOptions.gfmSpec
        switch mode {
        case .commonmark:
            html = .commonmarkSpec
        case .listedExtensions:
            for name in example.extensions ?? [] {
                if let match = ParseOptions.Extensions.byName.first(where: { $0.0 == name }) { extensions.insert(match.1) }
            }
        case .allGFMExtensions:
            extensions = [.table, .strikethrough, .autolink, .tagfilter, .footnotes, .tasklist]
        }
        let tree = MarkdownParser.parse(Array(example.markdown.utf8), options: ParseOptions(extensions: extensions))
        return HTMLRenderer(options: html).render(tree)
    }
}
