// The fuzzers with a small budget, in every `swift test`: each target's first inputs of a fixed
// seed (the same inputs every run, so a failure reproduces), and every input saved under
// `Fixtures/fuzz/<target>/` by `macmd-bench fuzz` (the failures found, kept as regressions).

import Foundation
import MacMDFuzz
import TestSupport
import XCTest

final class FuzzTests: XCTestCase {
    /// Inputs per target in `swift test`; `macmd-bench fuzz` runs millions.
    static let budget: [FuzzTarget: UInt64] = [
        .framer: 1_500, .json: 3_000, .markdown: 400, .frontMatter: 600, .table: 600, .wikiLink: 600,
        .snippet: 3_000, .texMath: 2_000, .sync: 250,
    ]

    func testEveryTargetHoldsItsInvariantsOnSeededInputs() {
        for target in FuzzTarget.allCases {
            let budget = Self.budget[target] ?? 100
            for index in 0..<budget {
                let input = target.input(seed: 2026, index: index)
                if let failure = target.check(input) {
                    XCTFail("\(target.rawValue) input \(index) of seed 2026 (macmd-bench fuzz --worker \(target.rawValue) --seed 2026 --from \(index) --count 1): \(failure)")
                    break
                }
            }
        }
    }

    func testTheSavedFailuresStayFixed() throws {
        let root = TestPaths.fixture("fuzz")
        var replayed = 0
        for target in FuzzTarget.allCases {
            let folder = root.appendingPathComponent(target.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".bin") {
                let input = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
                XCTAssertNil(target.check(input), "\(target.rawValue)/\(name)")
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 0, "Fixtures/fuzz holds the inputs earlier failures were found with")
    }

    /// The inputs are a function of seed and index: a failure's input can be made again.
    func testInputsAreReproducibleAndVaried() {
        for target in FuzzTarget.allCases {
            XCTAssertEqual(target.input(seed: 7, index: 42), target.input(seed: 7, index: 42), target.rawValue)
            let distinct = Set((0..<50).map { target.input(seed: 7, index: $0) })
            XCTAssertGreaterThan(distinct.count, 40, "\(target.rawValue): inputs vary")
        }
    }
}
