import XCTest
@testable import BenchReport
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG plots of a realistic run: three notebooks, three servers measured and two skipped,
/// five renderers. `MACMD_PLOTS_OUT=/some/folder` keeps the plots and their screenshots there.
final class BenchPlotsTests: XCTestCase {
    static let cpu = "AMD EPYC 7B13"

    /// `count` samples, the nearest-rank median exactly `median`, the slowest tenth from 1.2 to
    /// `tail` times it.
    static func samples(_ median: Double, count: Int = 100, tail: Double = 4) -> [Double] {
        let middle = (count - 1) / 2, slow = count * 9 / 10
        return (0..<count).map { index in
            index < slow ? median * (1 + 0.2 * Double(index - middle) / Double(max(middle, 1)))
                : median * (1.2 + (tail - 1.2) * Double(index - slow + 1) / Double(count - slow))
        }
    }

    static func sampleRun() -> BenchRun {
        let sizes = [1000, 10000, 50000]
        let servers = ["macmd", "panache", "rumdl", "marksman", "markdown-oxide"]
        var results: [BenchResult] = []
        /// One scenario on every server: `ms[subject]` is the median at 1000 notes (nil: n/a),
        /// `growth` what 10 and 50 times the notes multiply it by; `notes: false` for no notebook.
        func scenario(_ id: String, _ title: String, _ ms: [String: Double?], growth: [Double] = [1, 1.6, 3.2],
                      notes: Bool = true, why: String = "does not answer this request") {
            let group = String(id.prefix { $0 != "." })
            for (size, factor) in notes ? Array(zip(sizes.map(Optional.some), growth)) : [(nil, 1)] {
                for subject in servers {
                    let outcome: BenchOutcome
                    switch ms[subject] {
                    case .some(.some(let median)): outcome = .measured(samples(median * factor))
                    case .some(.none): outcome = .notApplicable(why)
                    case .none: outcome = .skipped("not on PATH")
                    }
                    results.append(BenchResult(scenario: id, title: title, group: group, subject: subject, notes: size,
                                               unit: "ms", outcome: outcome))
                }
            }
        }
        scenario("startup.initialize", "Initialize", ["macmd": 12, "panache": 25, "rumdl": 31], notes: false)
        // The cold index, with the server's memory after it.
        let index: [String: [(ms: Double, mb: Double)]] = ["macmd": [(45, 42), (390, 160), (2100, 610)],
                                                           "rumdl": [(140, 55), (1350, 300), (7600, 1250)]]
        for (position, size) in sizes.enumerated() {
            for subject in servers {
                let outcome: BenchOutcome = index[subject].map { .measured(samples($0[position].ms, count: 5, tail: 1.3)) }
                    ?? (subject == "panache" ? .notApplicable("indexes no workspace") : .skipped("not on PATH"))
                results.append(BenchResult(scenario: "startup.index", title: "Cold index", group: "startup", subject: subject,
                                           notes: size, unit: "ms", outcome: outcome,
                                           peakResidentBytes: index[subject].map { Int($0[position].mb * 1.1e6) },
                                           figures: index[subject].map { ["rssAfterIndexBytes": $0[position].mb * 1e6] } ?? [:]))
            }
        }
        scenario("editing.diagnostics", "Diagnostics after a keystroke", ["macmd": 1.8, "panache": 12, "rumdl": 6.5])
        scenario("editing.completion", "Completion while typing", ["macmd": 0.9, "panache": 4.2, "rumdl": nil])
        scenario("completion.wikilink", "Completion of `[[`", ["macmd": 2.4, "panache": nil, "rumdl": nil])
        scenario("completion.link", "Completion of `](`", ["macmd": 1.6, "panache": 5.5, "rumdl": nil])
        scenario("completion.tag", "Completion of `#`", ["macmd": 0.6, "panache": nil, "rumdl": nil])
        scenario("completion.snippet", "Completion of a snippet", ["macmd": 0.06, "panache": 0.9, "rumdl": nil])
        scenario("navigation.references", "References to a heading", ["macmd": 3.1, "panache": nil, "rumdl": 45], growth: [1, 8, 40])
        scenario("navigation.rename-heading", "Rename of a heading", ["macmd": 8.5, "panache": nil, "rumdl": 120], growth: [1, 8, 40])
        scenario("navigation.will-rename-files", "Rename of a note (links updated)", ["macmd": 14, "panache": nil, "rumdl": nil])
        for (size, ms) in [("10k", 0.4), ("100k", 3.5), ("1m", 38)] {
            scenario("preview.\(size)", "Preview of \(size.dropLast()) \(size.last == "k" ? "KB" : "MB")", ["macmd": ms, "panache": nil, "rumdl": nil],
                     notes: false, why: "no macmd/preview")
        }
        let renderers: [(String, Double, Int)] = [("macmd", 87.9, 31), ("cmark-gfm", 118, 9), ("md4c", 141.5, 6),
                                                  ("pulldown-cmark", 104, 12), ("comrak", 36.2, 48)]
        for (id, title, factor) in [("render.one-core", "Render, one core", 1.0), ("render.all-cores", "Render, all cores (2)", 1.75)] {
            for (subject, speed, mb) in renderers {
                let median = (speed * factor * 10).rounded() / 10
                results.append(BenchResult(scenario: id, title: title, group: "render", subject: subject, unit: "MB/s",
                                           outcome: .measured([median * 0.96, median * 0.98, median, median * 1.01, median * 1.03]),
                                           peakResidentBytes: mb * 1_048_576, figures: ["inputBytes": 52_000_000]))
            }
        }
        return BenchRun(date: "2026-11-24T12:00:00Z", macmdVersion: "macmd 0.1.0 (commit abc)",
                        machine: BenchMachine(cpuModel: cpu, cores: 2, memoryBytes: 24 << 30, system: "Linux 6.1"),
                        notebookSizes: sizes, seed: 1, command: "macmd-bench all --out /tmp/b",
                        subjects: [BenchSubject(name: "macmd", kind: "server", version: "0.1.0"),
                                   BenchSubject(name: "panache", kind: "server", version: "2.3.0"),
                                   BenchSubject(name: "rumdl", kind: "linter", version: "0.0.170"),
                                   BenchSubject(name: "marksman", kind: "server", skipped: "not on PATH"),
                                   BenchSubject(name: "markdown-oxide", kind: "server", skipped: "not on PATH")]
                            + ["cmark-gfm", "md4c", "pulldown-cmark", "comrak"].map { BenchSubject(name: $0, kind: "renderer") },
                        results: results)
    }

    /// The plots of `run`, parsed, by file name.
    func parsedPlots(_ run: BenchRun = sampleRun()) throws -> [String: Element] {
        var plots: [String: Element] = [:]
        for plot in run.plots() { plots[plot.name] = try Element.parse(plot.svg, name: plot.name) }
        return plots
    }

    func testTheRunMakesThreeWellFormedPlotsWithTitleLegendAndFootnote() throws {
        let run = Self.sampleRun()
        XCTAssertEqual(run.plots().map(\.name), ["index.svg", "latency.svg", "render.svg"])
        for (name, svg) in try parsedPlots(run) {
            XCTAssertEqual(svg.name, "svg", name)
            let width = Double(svg.attributes["width"] ?? "") ?? 0
            XCTAssertTrue((900...1000).contains(width), "\(name) is \(width) px wide")
            XCTAssertEqual(svg.attributes["font-family"], "system-ui, sans-serif", name)
            XCTAssertFalse(svg.all(class: "title").first?.text.isEmpty ?? true, "\(name) has no title")
            XCTAssertFalse(svg.all(class: "legend-item").isEmpty, "\(name) has no legend")
            XCTAssertEqual(svg.all(class: "footnote").map(\.text), ["macmd-bench all, 2026-11-24T12:00:00Z, \(Self.cpu) (2 cores)"], name)
        }
    }

    func testASubjectHasOneColourInEveryPlotAndItsLegendSaysIt() throws {
        let measured = ["index.svg": ["macmd", "rumdl"], "latency.svg": ["macmd", "panache", "rumdl"],
                        "render.svg": ["macmd", "cmark-gfm", "md4c", "pulldown-cmark", "comrak"]]
        var everywhere: [String: String] = [:]
        for (name, svg) in try parsedPlots() {
            let legend = Dictionary(svg.all(class: "legend-item").map { ($0.attributes["data-subject"]!, $0.children[0].attributes["fill"]!) },
                                    uniquingKeysWith: { first, _ in first })
            XCTAssertEqual(Set(legend.filter { $0.value != SubjectColours.grey }.keys), Set(measured[name]!), name)
            XCTAssertEqual(Set(measured[name]!.map { legend[$0] }).count, measured[name]!.count, "\(name): two subjects share a colour")
            // The marks of a subject are in its legend colour.
            for mark in svg.all(class: "series") + svg.all(class: "row") {
                let subject = mark.attributes["data-subject"]!
                for painted in mark.descendants where painted.attributes["class"] == "bar" || painted.name == "polyline" {
                    XCTAssertEqual(painted.attributes["fill"] == "none" ? painted.attributes["stroke"] : painted.attributes["fill"],
                                   legend[subject], "\(name): \(subject)")
                }
            }
            for subject in measured[name]! {
                if let other = everywhere[subject] { XCTAssertEqual(legend[subject], other, "\(subject) changes colour in \(name)") }
                everywhere[subject] = legend[subject]
            }
        }
        XCTAssertEqual(everywhere["macmd"], "#0072B2")
        XCTAssertEqual(everywhere.count, 7)
    }

    func testAxisLabelsCarryTheirUnits() throws {
        let plots = try parsedPlots()
        let labels = plots.mapValues { $0.all(class: "axis-label").map(\.text) }
        XCTAssertEqual(labels["index.svg"], ["notebook size (notes)", "cold index time (ms), log scale",
                                             "notebook size (notes)", "resident memory (MB), log scale"])
        XCTAssertEqual(labels["latency.svg"], ["latency (ms, log scale)"])
        XCTAssertEqual(labels["render.svg"], ["throughput (MB/s)"])
    }

    func testAReaderFindsTheFiguresSheLooksFor() throws {
        let plots = try parsedPlots()
        let texts = plots.mapValues { Set($0.descendants.filter { $0.name == "text" }.map(\.text)) }
        XCTAssertTrue(texts["render.svg"]!.isSuperset(of: ["87.9 MB/s", "peak RSS 31 MB", "154 MB/s", "63.4 MB/s", "Render, one core"]))
        // The notebook sizes on a log axis, 1-2-5 ticks.
        XCTAssertTrue(texts["index.svg"]!.isSuperset(of: ["1k", "2k", "5k", "10k", "20k", "50k"]))
        // Latency at the largest notebook: the wikilink completion's median (2.4 ms × 3.2).
        let wikilink = try XCTUnwrap(plots["latency.svg"]!.all(class: "scenario").first { $0.attributes["data-scenario"] == "completion.wikilink" })
        let median = try XCTUnwrap(Self.sampleRun().result("completion.wikilink", "macmd", notes: 50000)?.spread?.median)
        XCTAssertEqual(Canvas.readable(median), "7.68")
        XCTAssertTrue(wikilink.descendants.contains { $0.text == "7.68 ms" })
        XCTAssertTrue(wikilink.descendants.contains { $0.text == "50000 notes" })
        XCTAssertEqual(wikilink.all(class: "scenario-title").map(\.text), ["Completion of `[[`"])
        // No scenario of the startup group, and each scenario once.
        let scenarios = plots["latency.svg"]!.all(class: "scenario").compactMap { $0.attributes["data-scenario"] }
        XCTAssertEqual(scenarios.count, 12)
        XCTAssertFalse(scenarios.contains { $0.hasPrefix("startup.") })
    }

    func testWhatWasNotMeasuredIsSaidAndNeverDrawn() throws {
        var run = Self.sampleRun()
        let comrak = try XCTUnwrap(run.results.firstIndex { $0.scenario == "render.all-cores" && $0.subject == "comrak" })
        run.results[comrak].outcome = .failed("killed by signal 9")
        let rumdl = try XCTUnwrap(run.results.firstIndex { $0.scenario == "startup.index" && $0.subject == "rumdl" && $0.notes == 50000 })
        run.results[rumdl].outcome = .failed("timed out after 60 s")
        let plots = try parsedPlots(run)
        func row(_ plot: String, _ scenario: String, _ subject: String) -> Element? {
            plots[plot]?.all(class: "scenario").first { $0.attributes["data-scenario"] == scenario }?
                .all(class: "row").first { $0.attributes["data-subject"] == subject }
        }
        for (plot, scenario, subject, word) in [("latency.svg", "completion.wikilink", "panache", "n/a"),
                                                ("latency.svg", "preview.1m", "rumdl", "n/a"),
                                                ("render.svg", "render.all-cores", "comrak", "failed")] {
            let found = try XCTUnwrap(row(plot, scenario, subject), "\(plot): no row for \(subject) in \(scenario)")
            XCTAssertEqual(found.all(class: "status").map(\.text), [word], "\(scenario) \(subject)")
            XCTAssertTrue(found.all(class: "bar").isEmpty, "\(scenario): \(subject) has a bar")
        }
        XCTAssertEqual(row("render.svg", "render.one-core", "comrak")?.all(class: "bar").count, 1)
        // A subject measured in no scenario of a plot (not installed) has no rows there, only its
        // grey legend entry.
        XCTAssertNil(row("latency.svg", "completion.wikilink", "marksman"))
        XCTAssertTrue(plots["latency.svg"]?.all(class: "legend-item").map(\.text).contains("marksman: skipped") ?? false)
        // A subject without any point is in the legend, in grey, and has no line.
        let index = try XCTUnwrap(plots["index.svg"])
        let legend = index.all(class: "legend-item").map(\.text)
        XCTAssertEqual(legend, ["macmd", "panache: n/a", "rumdl", "marksman: skipped", "markdown-oxide: skipped"])
        XCTAssertEqual(index.all(class: "series").map { $0.attributes["data-subject"]! }, ["macmd", "rumdl", "macmd", "rumdl"])
        // rumdl failed at 50000 notes: two points in each panel, and two whiskers in the first.
        XCTAssertEqual(index.all(class: "series").map { $0.children.filter { $0.name == "circle" }.count }, [3, 2, 3, 2])
    }

    func testMemoryFallsBackToThePeakResidentSet() throws {
        var run = Self.sampleRun()
        run.results = run.results.map { result in
            var result = result
            result.figures["rssAfterIndexBytes"] = nil
            return result
        }
        let series = try XCTUnwrap(parsedPlots(run)["index.svg"]).all(class: "series")
        XCTAssertEqual(series.map { $0.attributes["data-subject"]! }, ["macmd", "rumdl", "macmd", "rumdl"])
        // Panel (b) draws the peak instead (1.1 times the RSS after the index in the sample run); panel (a) is unchanged.
        let before = try XCTUnwrap(parsedPlots()["index.svg"]).all(class: "series")
        XCTAssertEqual(series[0].children.filter { $0.name == "circle" }.count, 3)
        XCTAssertEqual(series[2].children.filter { $0.name == "circle" }.count, 3)
        XCTAssertNotEqual(series[2].children.first?.attributes["points"], before[2].children.first?.attributes["points"])
        XCTAssertEqual(series[0].children.first?.attributes["points"], before[0].children.first?.attributes["points"])
    }

    func testTextIsEscapedForXML() throws {
        var run = Self.sampleRun()
        run.results = run.results.map { result in
            var result = result
            if result.scenario == "completion.link" { result.title = "Completion of `](` <fast> & \"sound\"" }
            return result
        }
        run.machine.cpuModel = "Intel(R) <Xeon> & co"
        let latency = try XCTUnwrap(run.plots().first { $0.name == "latency.svg" }?.svg)
        XCTAssertTrue(latency.contains("Completion of `](` &lt;fast&gt; &amp; &quot;sound&quot;"))
        let parsed = try Element.parse(latency, name: "latency.svg")
        XCTAssertEqual(parsed.all(class: "scenario").first { $0.attributes["data-scenario"] == "completion.link" }?
            .all(class: "scenario-title").map(\.text), ["Completion of `](` <fast> & \"sound\""])
        XCTAssertEqual(parsed.all(class: "footnote").map(\.text), ["macmd-bench all, 2026-11-24T12:00:00Z, Intel(R) <Xeon> & co (2 cores)"])
    }

    func testTheSameRunGivesTheSameBytes() throws {
        // Read back from JSON (samples rounded as the JSON keeps them, figures in new dictionaries).
        let run = try XCTUnwrap(BenchRun(json: Self.sampleRun().json()))
        let first = run.plots()
        for other in [run.plots(), try XCTUnwrap(BenchRun(json: run.json())).plots()] {
            XCTAssertEqual(other.map(\.name), first.map(\.name))
            for (made, again) in zip(first, other) { XCTAssertTrue(made.svg == again.svg, "\(made.name) differs") }
        }
    }

    func testARunWithoutFiguresOrWithZerosStillGivesThreePlots() throws {
        var run = Self.sampleRun()
        run.results = run.results.map { result in
            var result = result
            result.outcome = result.subject == "macmd" ? .measured(result.group == "startup" ? [] : [0]) : .failed("crashed")
            return result
        }
        // A figure read from a results.json too small for its power of ten (a subnormal, about 5e-318: its
        // power of ten underflows to 0).
        var tiny = Self.sampleRun()
        tiny.results = tiny.results.map { result in
            var result = result
            if result.scenario == "startup.index" { result.figures["rssAfterIndexBytes"] = Double.leastNonzeroMagnitude * 1_000_000 }
            return result
        }
        for candidate in [run, tiny, BenchRun(date: "", macmdVersion: "", machine: run.machine, notebookSizes: [], seed: 0, command: "",
                                              subjects: [], results: [])] {
            let plots = candidate.plots()
            XCTAssertEqual(plots.map(\.name), ["index.svg", "latency.svg", "render.svg"])
            for plot in plots {
                let parsed = try Element.parse(plot.svg, name: plot.name)
                XCTAssertFalse(plot.svg.contains("nan") || plot.svg.contains("inf"), plot.name)
                XCTAssertFalse(parsed.all(class: "axis-label").isEmpty, plot.name)
            }
        }
        // Zero is a figure: macmd has rows with bars (of no length); an empty sample list is not.
        let latency = try Element.parse(try XCTUnwrap(run.plots().first { $0.name == "latency.svg" }?.svg), name: "latency.svg")
        XCTAssertEqual(latency.all(class: "row").filter { $0.attributes["data-subject"] == "macmd" }.map { $0.all(class: "bar").count },
                       Array(repeating: 1, count: 12))
        let index = try Element.parse(try XCTUnwrap(run.plots().first?.svg), name: "index.svg")
        XCTAssertEqual(index.all(class: "legend-item").first?.text, "macmd: no samples")
        XCTAssertTrue(index.descendants.contains { $0.text == "no figures" })
    }

    func testScalesTickAtOneTwoFive() {
        let linear = Scale.linear(246, from: 0, to: 100)
        XCTAssertEqual(linear.ticks, [0, 50, 100, 150, 200, 250])
        XCTAssertEqual(linear(125), 50)
        let short = Scale.log(1000, 50000, from: 0, to: 1)
        XCTAssertEqual(short.labelled.map(Canvas.short), ["1000", "2000", "5000", "10000", "20000", "50000"])
        // Over more than three decades only the powers of ten are labelled; the 2s and 5s are grid lines.
        let long = Scale.log(0.054, 2300, from: 0, to: 500)
        XCTAssertEqual(long.ticks.map(Canvas.short).first, "0.05")
        XCTAssertEqual(long.ticks.map(Canvas.short).last, "5000")
        XCTAssertEqual(long.labelled.map(Canvas.short), ["0.1", "1", "10", "100", "1000"])
        XCTAssertEqual(long(1), 500 * (log10(1 / 0.05) / log10(5000 / 0.05)), accuracy: 1e-9)
        XCTAssertEqual([Canvas.readable(87.94), Canvas.readable(0.0543), Canvas.readable(1234.5), Canvas.fixed(-0.04, 1), Canvas.fixed(-2.5, 2)],
                       ["87.9", "0.054", "1235", "0.0", "-2.50"])
    }

    /// In a real browser at 100 %: no text leaves the picture and no two texts overlap.
    func testThePlotsReadInABrowser() throws {
        let folder: URL
        if let out = ProcessInfo.processInfo.environment["MACMD_PLOTS_OUT"], !out.isEmpty {
            folder = URL(fileURLWithPath: out)
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-plots-\(UUID().uuidString)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keep = ProcessInfo.processInfo.environment["MACMD_PLOTS_OUT"] != nil
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        let browser = try Chromium(width: 1000, height: 800)
        defer { browser.close() }
        for plot in Self.sampleRun().plots() {
            let file = folder.appendingPathComponent(plot.name)
            try plot.svg.write(to: file, atomically: true, encoding: .utf8)
            try browser.load(file)
            let problems = try browser.evaluate("""
                (() => {
                  const svg = document.documentElement, box = svg.getBoundingClientRect(), out = [];
                  const texts = [...document.querySelectorAll('text')].map((t) => [t.textContent, t.getBoundingClientRect()]);
                  for (const [s, r] of texts) {
                    if (r.width === 0) out.push('empty: ' + s);
                    if (r.left < box.left || r.top < box.top || r.right > box.right || r.bottom > box.bottom) out.push('cut: ' + s);
                  }
                  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
                    const [a, p] = texts[i], [b, q] = texts[j];
                    if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1)
                      out.push('overlap: ' + a + ' / ' + b);
                  }
                  return out;
                })()
                """) as? [String]
            XCTAssertEqual(problems, [], plot.name)
            if keep {
                try browser.screenshot(wholePage: true).write(to: folder.appendingPathComponent(plot.name.replacingOccurrences(of: ".svg", with: ".png")))
            }
        }
    }
}

/// An XML element parsed by Foundation's `XMLParser`, with what the tests ask of it.
final class Element {
    let name: String
    let attributes: [String: String]
    var children: [Element] = []
    private var ownText = ""

    init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

    /// The text of the element and its descendants.
    var text: String { ownText + children.map(\.text).joined() }
    var descendants: [Element] { children.flatMap { [$0] + $0.descendants } }
    func all(class name: String) -> [Element] { descendants.filter { $0.attributes["class"] == name } }

    static func parse(_ text: String, name: String) throws -> Element {
        final class Builder: NSObject, XMLParserDelegate {
            var stack: [Element] = [Element(name: "#document", attributes: [:])]
            func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String]) {
                let element = Element(name: elementName, attributes: attributes)
                stack.last!.children.append(element)
                stack.append(element)
            }
            func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
                stack.removeLast()
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                // The line breaks between elements are not text.
                if !string.allSatisfy(\.isNewline) { stack.last!.ownText += string }
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.stack.first?.children.first else {
            throw TestSupportError("\(name) is not well-formed XML (line \(parser.lineNumber)): \(String(describing: parser.parserError))")
        }
        return root
    }
}
