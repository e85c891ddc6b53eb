import XCTest
import BenchReport

final class BenchRunJSONTests: XCTestCase {
    static func sampleRun() -> BenchRun {
        BenchRun(date: "2026-11-24T12:00:00Z", macmdVersion: "macmd 0.1.0 (commit abc)",
                 machine: BenchMachine(cpuModel: "AMD EPYC", cores: 2, memoryBytes: 24 << 30, system: "Linux 6.1"),
                 notebookSizes: [1000, 10000], seed: 1, command: "macmd-bench all --out /tmp/b",
                 subjects: [BenchSubject(name: "macmd", kind: "server", version: "0.1.0"),
                            BenchSubject(name: "marksman", kind: "server", skipped: "not on PATH")],
                 results: [
                    BenchResult(scenario: "completion.wikilink", title: "Completion of `[[`", group: "completion",
                                subject: "macmd", notes: 1000, unit: "ms", outcome: .measured([3, 1, 2, 4, 100]),
                                peakResidentBytes: 50_000_000, figures: ["items": 200]),
                    BenchResult(scenario: "completion.wikilink", title: "Completion of `[[`", group: "completion",
                                subject: "rumdl", notes: 1000, unit: "ms", outcome: .notApplicable("returns no items")),
                    BenchResult(scenario: "preview.10k", title: "Preview of 10 KB", group: "preview",
                                subject: "marksman", unit: "ms", outcome: .skipped("not on PATH")),
                    BenchResult(scenario: "preview.10k", title: "Preview of 10 KB", group: "preview",
                                subject: "panache", unit: "ms", outcome: .failed("timed out after 10 s")),
                 ])
    }

    func testSpreadIsNearestRank() {
        let spread = Spread((1...100).map(Double.init))!
        XCTAssertEqual([spread.min, spread.median, spread.p95, spread.p99, spread.max], [1, 50, 95, 99, 100])
        let small = Spread([5, 1, 3])!
        XCTAssertEqual([small.median, small.p95, small.p99], [3, 5, 5])
        XCTAssertNil(Spread([]))
    }

    func testARunSurvivesJSONAndSaysWhyAFigureIsMissing() throws {
        let run = Self.sampleRun()
        let text = run.json()
        XCTAssertEqual(BenchRun(json: text), run)
        XCTAssertEqual(text, BenchRun(json: text)?.json(), "the same run is the same bytes")
        XCTAssertTrue(text.contains("\"notApplicable\": \"returns no items\""))
        XCTAssertTrue(text.contains("\"skipped\": \"not on PATH\""))
        XCTAssertTrue(text.contains("\"p99\": 100"))
        XCTAssertNil(BenchRun(json: "{\"date\": 1}"))
        XCTAssertNil(BenchRun(json: "not json"))
    }
}
