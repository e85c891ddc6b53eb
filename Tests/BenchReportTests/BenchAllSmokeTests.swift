import Foundation
import XCTest
import BenchReport
import TestSupport

/// The smoke version of `macmd-bench all` (200 notes, 20 keystrokes): what the full run writes,
/// with MacMD measured in every scenario and the peers said to be skipped, not zero.
final class BenchAllSmokeTests: XCTestCase {
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-bench-all-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func testTheSmokeRunMeasuresEveryScenarioOfMacMDAndWritesTheTableAndPlots() throws {
        let folder = try scratch()
        let out = folder.appendingPathComponent("out")
        let readme = folder.appendingPathComponent("README.md")
        try "# Notes\n\n## Performance\n\n\(String.begin)\nold figures\n\(String.end)\n\n## After\n".write(to: readme, atomically: true, encoding: .utf8)
        let result = try TestProcess.macmdBench(["all", "--smoke", "--peers", "none", "--out", out.path, "--readme", readme.path],
                                           in: folder, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)
        let run = try XCTUnwrap(BenchRun(json: json), "results.json reads back")
        XCTAssertEqual(run.notebookSizes, [200])
        XCTAssertEqual(run.machine.cores, ProcessInfo.processInfo.activeProcessorCount)

        // Every server scenario of MacMD is measured, with a spread and its peak RSS.
        let scenarios = ["startup.initialize", "startup.index", "completion.wiki-link", "completion.md-link", "completion.hash-tag",
                         "completion.snippet-prefix", "navigation.references", "navigation.rename-heading", "navigation.will-rename-files",
                         "editing.diagnostics", "editing.completion", "preview.10k", "preview.100k", "preview.1m", "check.notebook"]
        for scenario in scenarios {
            let found = try XCTUnwrap(run.result(scenario, "macmd", notes: 200), "\(scenario) for macmd")
            let spread = try XCTUnwrap(found.spread, "\(scenario): \(found.outcome)")
            XCTAssertGreaterThan(spread.median, 0, scenario)
            XCTAssertLessThanOrEqual(spread.median, spread.p99, scenario)
            XCTAssertGreaterThan(found.peakResidentBytes ?? 0, 1_000_000, "\(scenario): the server's peak RSS")
        }
        // The notebook's hub is linked from every note of a 200-note notebook, twice.
        XCTAssertEqual(run.result("navigation.references", "macmd")?.figures["locations"], 400)
        XCTAssertEqual(run.result("navigation.rename-heading", "macmd")?.figures["files"], 201, "the 200 notes and the hub")
        XCTAssertEqual(run.result("navigation.will-rename-files", "macmd")?.figures["files"], 200)
        XCTAssertGreaterThan(run.result("startup.index", "macmd")?.figures["rssAfterIndexBytes"] ?? 0, 1_000_000)
        XCTAssertEqual(run.result("editing.diagnostics", "macmd")?.spread?.count, 20, "one figure per keystroke")
        for scenario in ["render.one-core", "render.all-cores"] {
            let render = try XCTUnwrap(run.result(scenario, "macmd"))
            XCTAssertGreaterThan(render.spread?.median ?? 0, 0.5, "\(scenario): MB/s")
        }

        // Peers left out are listed with the reason, never given a figure.
        for peer in ["panache", "rumdl", "marksman", "markdown-oxide"] {
            XCTAssertEqual(run.subjects.first { $0.name == peer }?.skipped, "left out by --peers", peer)
            XCTAssertFalse(run.results.contains { $0.subject == peer }, peer)
        }

        let table = try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8)
        XCTAssertTrue(table.contains("| Scenario | Notes | macmd |"), table)
        XCTAssertTrue(table.contains("| Completion of `[[` (ms) | 200 | "), table)
        XCTAssertTrue(table.contains("panache: left out by --peers"), table)
        for plot in ["index.svg", "latency.svg", "render.svg"] {
            let svg = try String(contentsOf: out.appendingPathComponent(plot), encoding: .utf8)
            XCTAssertTrue(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"), plot)
            XCTAssertTrue(svg.contains("macmd"), "\(plot) names the server")
        }

        // Drawn again from results.json alone, the table and plots are the same bytes.
        let redrawn = folder.appendingPathComponent("redrawn")
        let redraw = try TestProcess.macmdBench(["all", "--from", out.appendingPathComponent("results.json").path, "--out", redrawn.path],
                                           in: folder, timeout: 120)
        XCTAssertEqual(redraw.status, 0, redraw.stderr)
        for file in ["results.md", "index.svg", "latency.svg", "render.svg"] {
            XCTAssertEqual(try Data(contentsOf: redrawn.appendingPathComponent(file)), try Data(contentsOf: out.appendingPathComponent(file)), file)
        }

        // The README's section is replaced, the rest kept; the plots are beside it.
        let updated = try String(contentsOf: readme, encoding: .utf8)
        XCTAssertFalse(updated.contains("old figures"))
        XCTAssertTrue(updated.hasPrefix("# Notes\n\n## Performance\n\n\(String.begin)\nMeasured by `macmd-bench all` on "), updated)
        XCTAssertTrue(updated.hasSuffix("\(String.end)\n\n## After\n"), updated)
        XCTAssertTrue(updated.contains("![latency](docs/bench/latency.svg)"), updated)
        XCTAssertTrue(updated.contains("[docs/bench/results.md](docs/bench/results.md)"), "the README links the whole table")
        XCTAssertFalse(updated.contains("Why a figure is missing"), "the reasons stay in results.md")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("docs/bench/latency.svg").path))
    }

    /// Past its time budget a scenario stops early, and the table says so: here every round
    /// outlasts the whole budget, so each scenario counts one round.
    func testAScenarioPastItsBudgetStopsEarlyAndTheTableSaysSo() throws {
        let folder = try scratch()
        let out = folder.appendingPathComponent("out")
        let result = try TestProcess.macmdBench(["all", "--smoke", "--peers", "none", "--rounds", "10", "--keystrokes", "50",
                                            "--budget", "0.001", "--out", out.path], in: folder, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let run = try XCTUnwrap(BenchRun(json: try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)))
        for scenario in ["completion.wiki-link", "preview.10k", "editing.diagnostics"] {
            let found = try XCTUnwrap(run.result(scenario, "macmd"), scenario)
            XCTAssertEqual(found.spread?.count, 1, "\(scenario): \(found.outcome)")
        }
        XCTAssertEqual(run.result("completion.wiki-link", "macmd")?.figures["roundsPlanned"], 10)
        XCTAssertEqual(run.result("editing.diagnostics", "macmd")?.figures["roundsPlanned"], 50)
        XCTAssertNil(run.result("startup.initialize", "macmd")?.figures["roundsPlanned"], "start-ups are not cut")
        let table = try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8)
        XCTAssertTrue(table.contains("macmd, Completion of `[[` (200 notes): 1 of 10 rounds, stopped at the scenario's time budget"), table)
    }

    /// A peer that never answers costs the deadline, is reported failed, and the run goes on.
    func testAPeerThatNeverAnswersIsReportedFailedWithinTheDeadline() throws {
        let folder = try scratch()
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("rumdl")
        try "#!/bin/sh\ncase \"$1\" in\n--version) echo 'rumdl 9.9 (a fake that never answers)'; exit 0;;\ncheck) exit 2;;\nesac\nexec sleep 600\n"
            .write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let out = folder.appendingPathComponent("out")
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let started = Date()
        let result = try TestProcess.run(try MacmdBinary.benchURL(),
                                         ["all", "--smoke", "--peers", "rumdl", "--timeout", "2", "--out", out.path],
                                         environment: TestProcess.childEnvironment(["PATH": path]), in: folder, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 200)
        let run = try XCTUnwrap(BenchRun(json: try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)))
        XCTAssertEqual(run.subjects.first { $0.name == "rumdl" }?.version, "rumdl 9.9 (a fake that never answers)")
        XCTAssertEqual(run.result("startup.initialize", "rumdl")?.outcome, .failed("no answer to initialize in 2 s"))
        XCTAssertEqual(run.result("completion.wiki-link", "rumdl")?.outcome, .failed("the server did not start"))
        XCTAssertEqual(run.result("check.notebook", "rumdl")?.outcome, .failed("exit status 2"))
        XCTAssertNotNil(run.result("completion.wiki-link", "macmd")?.spread, "MacMD is measured all the same")
        let table = try String(contentsOf: out.appendingPathComponent("results.md"), encoding: .utf8)
        XCTAssertTrue(table.contains("| failed |"), table)
    }
}

private extension String {
    static let begin = "<!-- bench results: begin (generated, do not edit) -->"
    static let end = "<!-- bench results: end -->"
}
