import Foundation
import XCTest
import TeXMath
import TestSupport

/// How much of KaTeX's list of supported functions converts: `Fixtures/math/katex-functions.txt`
/// lists them (from KaTeX's documentation) with an example each, and marks the subset notes use.
/// Every command of the subset must convert; the rest is counted.
final class KaTeXCoverageTests: XCTestCase {
    struct Entry {
        var inSubset: Bool
        var command: String
        var example: String
    }

    static func entries() throws -> [Entry] {
        let text = try String(contentsOf: TestPaths.fixture("math/katex-functions.txt"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Entry? in
            guard line.hasPrefix("* ") || line.hasPrefix("- ") else { return nil }
            let fields = line.dropFirst(2).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let command = String(fields[0])
            return Entry(inSubset: line.hasPrefix("*"), command: command, example: fields.count > 1 ? String(fields[1]) : command)
        }
    }

    func testEveryCommandOfTheSubsetConvertsAndTheRestIsCounted() throws {
        let entries = try Self.entries()
        XCTAssertGreaterThan(entries.count, 900)
        var supported = 0, subset = 0, subsetSupported = 0
        var unsupported: [String] = []
        for entry in entries {
            let error = TeXMath.check(entry.example)
            if entry.inSubset {
                subset += 1
                XCTAssertNil(error, "\(entry.command) (\(entry.example)): \(error?.message.english ?? "")")
            }
            if error == nil {
                supported += 1
                if entry.inSubset { subsetSupported += 1 }
            } else {
                unsupported.append(entry.command)
            }
        }
        print("KaTeX coverage: \(supported) of \(entries.count) commands (\(supported * 100 / entries.count)%); "
              + "the subset notes use: \(subsetSupported) of \(subset)")
        print("not supported: \(unsupported.joined(separator: " "))")
        // What converts today (918 of 950): a change that loses a command fails here.
        XCTAssertGreaterThanOrEqual(supported, 918, "not supported: \(unsupported)")
    }
}
