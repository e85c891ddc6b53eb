import XCTest
import BenchReport

/// The README's performance section is a summary: one row per scenario macmd and a peer both
/// measured, with the best peer and the ratio, at one notebook size; one plot; a link to the
/// whole table.
final class BenchReadmeTests: XCTestCase {
    static func result(_ scenario: String, _ group: String, _ subject: String, _ notes: Int?, _ unit: String,
                       _ samples: [Double]) -> BenchResult {
        BenchResult(scenario: scenario, title: scenario, group: group, subject: subject, notes: notes, unit: unit,
                    outcome: .measured(samples), peakResidentBytes: nil, figures: [:])
    }

    func testTheSummaryComparesWithTheBestPeer() {
        var run = BenchRunJSONTests.sampleRun()
        run.results = [
            Self.result("index", "startup", "macmd", 10000, "ms", [400, 410, 390]),
            Self.result("index", "startup", "rumdl", 10000, "ms", [4000]),
            Self.result("index", "startup", "panache", 10000, "ms", [2000]),
            Self.result("index", "startup", "macmd", 1000, "ms", [40]),
            Self.result("index", "startup", "rumdl", 1000, "ms", [400]),
            Self.result("initialize", "startup", "macmd", 10000, "ms", [5.5]),
            Self.result("initialize", "startup", "panache", 10000, "ms", [5.0]),
            Self.result("alone", "completion", "macmd", 10000, "ms", [1]),
            Self.result("render", "render", "macmd", nil, "MB/s", [140]),
            Self.result("render", "render", "md4c", nil, "MB/s", [100]),
            Self.result("render", "render", "cmark-gfm", nil, "MB/s", [27]),
        ]
        let ratios = run.keyRatios(notes: 10000)
        XCTAssertEqual(ratios.map(\.title), ["index", "initialize", "render"], "only what a peer also did, at 10,000 notes")
        XCTAssertEqual(ratios.map(\.peer), ["panache", "panache", "md4c"], "the best peer: the fastest time, the highest throughput")
        XCTAssertEqual(ratios.map(\.ratio), [5, 5.0 / 5.5, 1.4])
        let section = run.readmeSection(plotsPath: "docs/bench", notes: 10000)
        XCTAssertTrue(section.contains("| index (ms) | 400 | panache: 2,000 | 5.00× faster |"), section)
        XCTAssertTrue(section.contains("| initialize (ms) | 5.50 | panache: 5.00 | 1.10× slower |"), section)
        XCTAssertTrue(section.contains("| render (MB/s) | 140 | md4c: 100 | 1.40× faster |"), section)
        XCTAssertTrue(section.contains("[docs/bench/results.md](docs/bench/results.md)"))
        XCTAssertTrue(section.contains("[docs/performance.md](docs/performance.md)"))
        XCTAssertEqual(section.components(separatedBy: "![").count - 1, 1, "one plot")
        XCTAssertFalse(section.contains("alone"), "a scenario no peer does is in the whole table only")
    }
}
