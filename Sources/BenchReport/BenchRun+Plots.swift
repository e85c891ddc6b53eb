// BenchRun+Plots: the SVG plots of `macmd-bench all`, drawn here without dependencies.
//
// - index.svg: (a) cold index time against notebook size (median, whisker min..max), (b) the
//   server's resident memory after the index; one line per subject, log-10 notes axis.
// - latency.svg: for each scenario of the editing, completion, navigation and preview groups, at
//   its largest notebook, one row per subject: a bar to the median, a pale box to p95 and a
//   whisker to p99, on a log-10 ms axis.
// - render.svg: render throughput (MB/s) on one core and on all cores: a bar to the median, a
//   whisker from min to max, the value and the peak RSS printed at the bar's end.
//
// Invariants:
// - A subject has one colour in every plot of a run: macmd the Okabe-Ito blue, the others the
//   palette's other colours in the run's order of subjects (renderers counted apart from the
//   servers and linters, with which they never share a plot). Grey means "not measured".
// - What was not measured is never drawn as a value: no point, no bar, but a grey word ("n/a",
//   "skipped", "failed") in its row, or in the legend when the subject has no figure at all.
// - Text is escaped for XML; numbers are written with fixed decimals and no locale, and nothing
//   is drawn in a dictionary's order: the same run gives the same bytes.
// - Room for text is reserved by an estimate of its width (0.62 em a character, a little above
//   the widest common sans-serif faces), so labels neither overlap nor leave the canvas.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BenchRun {
    /// The plots of the run: file name ("index.svg", "latency.svg", "render.svg") and SVG text.
    public func plots() -> [(name: String, svg: String)] {
        let colours = SubjectColours(self)
        return [("index.svg", indexPlot(colours)), ("latency.svg", latencyPlot(colours)), ("render.svg", renderPlot(colours))]
    }

    /// The last line of every plot: what ran, when, and on what.
    var plotFootnote: String {
        "macmd-bench all, \(date), \(machine.cpuModel) (\(machine.cores) \(machine.cores == 1 ? "core" : "cores"))"
    }

    /// Every subject of the run once: those it looked for, then the others in the results' order.
    var subjectOrder: [String] {
        var seen = Set<String>()
        return (subjects.map(\.name) + results.map(\.subject)).filter { seen.insert($0).inserted }
    }

    /// The results that pass `keep`, by scenario in the results' order, subjects in run order.
    func scenarios(_ keep: (BenchResult) -> Bool) -> [(scenario: String, results: [BenchResult])] {
        let kept = results.filter(keep)
        var seen = Set<String>()
        let order = subjectOrder
        return kept.map(\.scenario).filter { seen.insert($0).inserted }.map { scenario in
            (scenario, kept.filter { $0.scenario == scenario }
                .sorted { (order.firstIndex(of: $0.subject) ?? 0) < (order.firstIndex(of: $1.subject) ?? 0) })
        }
    }

    /// Legend entries for the subjects of `results`: coloured when `measured` (by default: it has
    /// a figure), else grey with the word that says why not ("rumdl: n/a", "marksman: skipped").
    func legendItems(_ results: [BenchResult], colours: SubjectColours, measured: ((String) -> Bool)? = nil) -> [LegendItem] {
        let measured = measured ?? { name in results.contains { $0.subject == name && $0.spread != nil } }
        return subjectOrder.filter { name in results.contains { $0.subject == name } }.map { name in
            if measured(name) { return LegendItem(subject: name, label: name, colour: colours[name], measured: true) }
            let words = Set(results.filter { $0.subject == name }.compactMap(\.outcome.word))
            return LegendItem(subject: name, label: "\(name): \((words.count == 1 ? words.first : nil) ?? "n/a")",
                              colour: SubjectColours.grey, measured: false)
        }
    }

    // MARK: The plots

    /// index.svg: cold index time and memory after it against notebook size, two panels.
    func indexPlot(_ colours: SubjectColours) -> String {
        let results = self.results.filter { $0.scenario == "startup.index" }
        let names = subjectOrder.filter { name in results.contains { $0.subject == name } }
        func series(_ point: (BenchResult, Spread) -> LinePoint?) -> [(String, [LinePoint])] {
            names.map { name in
                (name, results.filter { $0.subject == name }
                    .compactMap { result in result.spread.flatMap { point(result, $0) } }.sorted { $0.x < $1.x })
            }.filter { !$0.1.isEmpty }
        }
        let time = series { result, spread in
            result.notes.map { LinePoint(x: Double($0), y: spread.median, low: spread.min, high: spread.max) }
        }
        let memory = series { result, _ in
            guard let notes = result.notes,
                  let bytes = result.figures["rssAfterIndexBytes"] ?? result.peakResidentBytes.map(Double.init) else { return nil }
            return LinePoint(x: Double(notes), y: bytes / BenchRun.bytesPerMB, low: nil, high: nil)
        }
        var canvas = Canvas(width: 960)
        var top = canvas.heading("Cold index of a notebook, and the server's memory after it")
        top = canvas.legend(legendItems(results, colours: colours) { name in
            (time + memory).contains { $0.0 == name }
        }, top: top)
        top = canvas.key("Points: the median of the runs; whisker: min to max. Memory: the server's resident set after the index.",
                         top: top)
        var bottom = top
        for (index, panel) in [("(a) Cold index time", "cold index time (ms)", time),
                               ("(b) Server RSS after the index", "resident memory (MB)", memory)].enumerated() {
            bottom = canvas.linePanel(panel.0, yLabel: panel.1, series: panel.2, colours: colours,
                                      left: 16 + Double(index) * 472, width: 456, top: top + 4)
        }
        canvas.footnote(plotFootnote, top: bottom + 8)
        return canvas.document(title: "macmd-bench all: cold index and memory")
    }

    /// latency.svg: a row per subject and scenario at the scenario's largest notebook.
    func latencyPlot(_ colours: SubjectColours) -> String {
        let allGroups = scenarios { $0.unit == "ms" && !["startup", "check", "render"].contains($0.group) }.map { group in
            let largest = group.results.compactMap(\.notes).max()
            let rows = group.results.filter { $0.notes == nil || $0.notes == largest }
            return RowGroup(scenario: group.scenario, title: rows.first?.title ?? group.scenario,
                            note: largest.map { "\($0) notes" } ?? "", rows: rows)
        }
        // A subject with no figure in any scenario (not installed) is in the legend, not a row.
        let all = allGroups.flatMap(\.rows)
        let measured = Set(all.filter { $0.spread != nil }.map(\.subject))
        let groups = allGroups.map { group in
            var group = group
            group.rows = group.rows.filter { measured.contains($0.subject) }
            return group
        }
        let spreads = groups.flatMap(\.rows).compactMap(\.spread)
        let scale = Scale.log(spreads.map(\.median).min().map { $0 * 0.9 } ?? 0.1, spreads.map(\.p99).max() ?? 1000,
                              from: 0, to: 1)
        var canvas = Canvas(width: 960)
        var top = canvas.heading("Latency of each request, at the largest notebook")
        top = canvas.legend(legendItems(all, colours: colours), top: top)
        top = canvas.key("Bar: the median; pale box: median to p95; whisker: p95 to p99; number: the median. Log scale.", top: top)
        let right = 960.0 - 16 - Canvas.textWidth("00000 ms", size: 11) - 8
        let bottom = canvas.rowChart(groups, scale: scale.placed(from: Canvas.rowStart(all), to: right), top: top,
                                     axisLabel: "latency (ms, log scale)") { canvas, result, scale, y in
            guard let spread = result.spread else { return }
            let colour = colours[result.subject]
            canvas.rect(x: scale.start, y: y + 4, width: scale(spread.median) - scale.start, height: 10, fill: colour,
                        attributes: [("class", "bar")])
            canvas.rect(x: scale(spread.median), y: y + 6, width: scale(spread.p95) - scale(spread.median), height: 6,
                        fill: colour, attributes: [("fill-opacity", "0.35")])
            canvas.line(scale(spread.p95), y + 9, scale(spread.p99), y + 9, colour: colour, width: 1.5)
            canvas.line(scale(spread.p99), y + 5, scale(spread.p99), y + 13, colour: colour, width: 1.5)
            canvas.text(Canvas.readable(spread.median) + " ms", x: scale(spread.p99) + 6, y: y + 13, size: 11)
        }
        canvas.footnote(plotFootnote, top: bottom + 8)
        return canvas.document(title: "macmd-bench all: latency")
    }

    /// render.svg: a row per renderer and render scenario.
    func renderPlot(_ colours: SubjectColours) -> String {
        let groups = scenarios { $0.group == "render" && $0.unit == "MB/s" }.map { group in
            RowGroup(scenario: group.scenario, title: group.results.first?.title ?? group.scenario, note: "", rows: group.results)
        }
        let all = groups.flatMap(\.rows)
        func labels(_ result: BenchResult) -> (value: String, memory: String)? {
            result.spread.map { spread in
                (Canvas.readable(spread.median) + " MB/s",
                 result.peakResidentBytes.map { bytes in
                    let mb = Double(bytes) / BenchRun.bytesPerMB
                    return "peak RSS " + Canvas.fixed(mb, mb >= 10 ? 0 : 1) + " MB"
                } ?? "")
            }
        }
        let labelWidth = all.compactMap(labels).map { Canvas.textWidth($0.value, size: 11) + 8 + Canvas.textWidth($0.memory, size: 10) }.max() ?? 0
        var canvas = Canvas(width: 960)
        var top = canvas.heading("Render throughput: Markdown to HTML (higher is better)")
        top = canvas.legend(legendItems(all, colours: colours), top: top)
        let runs = Set(all.compactMap(\.spread?.count)).sorted().map(String.init).joined(separator: " or ")
        top = canvas.key("Bar: the median of \(runs.isEmpty ? "the" : runs) runs; whisker: min to max; peak RSS: the renderer's resident memory.",
                         top: top)
        let scale = Scale.linear(all.compactMap(\.spread?.max).max() ?? 1, from: Canvas.rowStart(all), to: 960 - 16 - labelWidth - 8)
        let bottom = canvas.rowChart(groups, scale: scale, top: top, axisLabel: "throughput (MB/s)") { canvas, result, scale, y in
            guard let spread = result.spread, let label = labels(result) else { return }
            canvas.rect(x: scale.start, y: y + 4, width: scale(spread.median) - scale.start, height: 10,
                        fill: colours[result.subject], attributes: [("class", "bar")])
            canvas.line(scale(spread.min), y + 9, scale(spread.max), y + 9, colour: "#333333", width: 1)
            for end in [spread.min, spread.max] { canvas.line(scale(end), y + 6, scale(end), y + 12, colour: "#333333", width: 1) }
            let x = Swift.max(scale(spread.median), scale(spread.max)) + 6
            canvas.text(label.value, x: x, y: y + 13, size: 11)
            canvas.text(label.memory, x: x + Canvas.textWidth(label.value, size: 11) + 8, y: y + 13, size: 10, colour: "#666666")
        }
        canvas.footnote(plotFootnote, top: bottom + 8)
        return canvas.document(title: "macmd-bench all: render throughput")
    }
}

extension BenchOutcome {
    /// The grey word shown instead of a figure; nil when there is a figure.
    var word: String? {
        switch self {
        case .measured(let samples): samples.isEmpty ? "no samples" : nil
        case .notApplicable: "n/a"
        case .skipped: "skipped"
        case .failed: "failed"
        }
    }
}

// MARK: The chart layer

/// One colour per subject of a run, the same in every plot.
struct SubjectColours: Sendable {
    static let macmd = "#0072B2"
    static let grey = "#9A9A9A"
    /// Okabe-Ito without macmd's blue, its pale yellow last.
    static let palette = ["#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
    private var byName: [String: String] = [:]

    /// The subjects `macmd-bench all` knows keep their colour from run to run (servers and
    /// renderers never share a plot, so they share colours).
    static let fixed = ["panache": "#E69F00", "rumdl": "#009E73", "marksman": "#D55E00", "markdown-oxide": "#CC79A7",
                        "cmark-gfm": "#E69F00", "md4c": "#000000", "pulldown-cmark": "#009E73", "comrak": "#CC79A7"]

    init(_ run: BenchRun) {
        var next: [Bool: Int] = [:]
        byName = Self.fixed
        for name in run.subjectOrder where name != "macmd" && Self.fixed[name] == nil {
            let renderer = run.subjects.first { $0.name == name }.map { $0.kind == "renderer" }
                ?? run.results.allSatisfy { $0.subject != name || $0.group == "render" }
            byName[name] = Self.palette[next[renderer, default: 0] % Self.palette.count]
            next[renderer, default: 0] += 1
        }
    }

    subscript(name: String) -> String { name == "macmd" ? Self.macmd : byName[name] ?? Self.grey }
}

struct LegendItem: Sendable {
    var subject: String, label: String, colour: String, measured: Bool
}

struct LinePoint: Sendable {
    var x: Double, y: Double, low: Double?, high: Double?
}

/// A scenario's rows in a row chart.
struct RowGroup: Sendable {
    var scenario: String, title: String, note: String, rows: [BenchResult]
}

/// A linear or log-10 scale from a domain to pixels, with ticks at 1-2-5 steps.
struct Scale: Sendable {
    var low: Double, high: Double, start: Double, end: Double, isLog: Bool
    var ticks: [Double]
    /// The ticks that get a label (on a log scale over more than 3 decades, the powers of ten).
    var labelled: [Double]

    func callAsFunction(_ value: Double) -> Double {
        let t = isLog ? (log10(Swift.max(value, low)) - log10(low)) / (log10(high) - log10(low)) : (value - low) / (high - low)
        return start + (end - start) * t
    }

    func placed(from start: Double, to end: Double) -> Scale {
        var scale = self
        scale.start = start; scale.end = end
        return scale
    }

    /// 0 to `max` rounded up to a step of 1, 2 or 5 times a power of ten (3 to 6 steps).
    static func linear(_ max: Double, from start: Double, to end: Double) -> Scale {
        let max = max > 0 && max.isFinite ? max : 1
        let raw = max / 6
        let power = pow(10, floor(log10(raw)))
        let candidate = ([1.0, 2, 5, 10].first { $0 * power >= raw * (1 - 1e-9) } ?? 10) * power
        // A figure so small that the power of ten underflows to 0 gets one step of its own size.
        let step = candidate > 0 && candidate.isFinite ? candidate : max
        let count = Swift.max(1, Swift.min(1000, Int((max / step - 1e-9).rounded(.up))))
        let ticks = (0...count).map { Double($0) * step }
        return Scale(low: 0, high: ticks.last ?? max, start: start, end: end, isLog: false, ticks: ticks, labelled: ticks)
    }

    /// `low` to `high` widened to the nearest 1-2-5 values; values under 0.001 are taken as 0.001.
    static func log(_ low: Double, _ high: Double, from start: Double, to end: Double) -> Scale {
        let (low, high) = (Swift.max(low, 1e-3), Swift.max(high, low, 1e-3))
        let steps = (Int(floor(log10(low))) - 1...Int(ceil(log10(high))) + 1).flatMap { e in [1.0, 2, 5].map { $0 * pow(10, Double(e)) } }
        var a = steps.last { $0 <= low * (1 + 1e-9) } ?? steps[0]
        var b = steps.first { $0 >= high * (1 - 1e-9) } ?? steps[steps.count - 1]
        if a >= b { a = steps.last { $0 < a } ?? a; b = steps.first { $0 > b } ?? b }
        let ticks = steps.filter { $0 >= a * (1 - 1e-9) && $0 <= b * (1 + 1e-9) }
        let powers = ticks.filter { abs(log10($0) - log10($0).rounded()) < 1e-9 }
        return Scale(low: a, high: b, start: start, end: end, isLog: true, ticks: ticks,
                     labelled: log10(b / a) > 3 ? powers : ticks)
    }
}

/// An SVG picture being drawn: elements in drawing order, the height growing with the content.
struct Canvas: Sendable {
    var width: Double
    var height: Double = 0
    private var body = ""

    init(width: Double) { self.width = width }

    /// The SVG document, `title` as its accessible name.
    func document(title: String) -> String {
        let size = "width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" \(size) viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" "
            + "font-family=\"system-ui, sans-serif\" font-size=\"12\">\n<title>\(Self.escape(title))</title>\n"
            + "<rect \(size) fill=\"#ffffff\"/>\n" + body + "</svg>\n"
    }

    // Elements

    mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        let open = "<" + name + Self.attributes(attributes)
        body += text.map { open + ">" + Self.escape($0) + "</\(name)>\n" } ?? open + "/>\n"
    }
    mutating func open(_ attributes: [(String, String)]) { body += "<g" + Self.attributes(attributes) + ">\n" }
    mutating func close() { body += "</g>\n" }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, width: Double = 1) {
        element("line", [("x1", Self.number(x1)), ("y1", Self.number(y1)), ("x2", Self.number(x2)), ("y2", Self.number(y2)),
                         ("stroke", colour), ("stroke-width", Self.number(width))])
    }
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, attributes: [(String, String)] = []) {
        element("rect", [("x", Self.number(x)), ("y", Self.number(y)), ("width", Self.number(Swift.max(width, 0))),
                         ("height", Self.number(height)), ("fill", fill)] + attributes)
    }
    mutating func text(_ text: String, x: Double, y: Double, size: Double = 12, anchor: String = "start", colour: String = "#222222",
                       bold: Bool = false, attributes: [(String, String)] = []) {
        guard !text.isEmpty else { return }
        var list = [("x", Self.number(x)), ("y", Self.number(y)), ("font-size", Self.number(size)), ("fill", colour)]
        if anchor != "start" { list.append(("text-anchor", anchor)) }
        if bold { list.append(("font-weight", "bold")) }
        element("text", list + attributes, text: text)
    }

    // Parts of a plot; each takes the top it starts at and returns the top of what follows.

    mutating func heading(_ title: String) -> Double {
        text(title, x: 16, y: 30, size: 18, bold: true, attributes: [("class", "title")])
        return 44
    }

    mutating func legend(_ items: [LegendItem], top: Double) -> Double {
        var x = 16.0, y = top
        for item in items {
            let advance = 18 + Self.textWidth(item.label, size: 12) + 14
            if x + advance > width - 16 && x > 16 { x = 16; y += 20 }
            open([("class", "legend-item"), ("data-subject", item.subject)])
            rect(x: x, y: y + 3, width: 12, height: 12, fill: item.colour)
            text(item.label, x: x + 18, y: y + 13, colour: item.measured ? "#222222" : "#6E6E6E")
            close()
            x += advance
        }
        return y + 24
    }

    mutating func key(_ text: String, top: Double) -> Double {
        self.text(text, x: 16, y: top + 10, size: 11, colour: "#555555", attributes: [("class", "key")])
        return top + 22
    }

    mutating func footnote(_ text: String, top: Double) {
        self.text(text, x: 16, y: top + 12, size: 11, colour: "#666666", attributes: [("class", "footnote")])
        height = top + 22
    }

    /// Vertical grid lines at the ticks, from `top` to `bottom`.
    mutating func verticalGrid(_ scale: Scale, top: Double, bottom: Double) {
        for tick in scale.ticks {
            line(scale(tick), top, scale(tick), bottom, colour: scale.labelled.contains(tick) ? "#DDDDDD" : "#F0F0F0")
        }
    }

    /// The labels of the ticks, centred on them, their baseline at `y`.
    mutating func tickLabels(_ scale: Scale, y: Double, format: (Double) -> String = Canvas.short) {
        for tick in scale.labelled { text(format(tick), x: scale(tick), y: y, size: 11, anchor: "middle", colour: "#444444") }
    }

    /// A panel of lines: a log-10 x axis of notes, a y axis log-10 when the values span over
    /// 20 times, else linear from 0; returns the panel's bottom.
    mutating func linePanel(_ title: String, yLabel: String, series: [(String, [LinePoint])], colours: SubjectColours,
                            left: Double, width: Double, top: Double) -> Double {
        text(title, x: left, y: top + 14, size: 13, bold: true)
        let (x0, x1, y0, y1) = (left + 66, left + width - 12, top + 30, top + 330)
        let points = series.flatMap(\.1)
        let xs = points.map(\.x), ys = points.flatMap { [$0.low ?? $0.y, $0.high ?? $0.y] }
        let logY = (ys.max() ?? 1) > 20 * Swift.max(ys.min() ?? 1, 1e-9)
        let x = Scale.log(xs.min() ?? 1000, xs.max() ?? 10000, from: x0 + 16, to: x1 - 16)
        let y = logY ? Scale.log(ys.min()!, ys.max()!, from: y1, to: y0) : Scale.linear(ys.max() ?? 1, from: y1, to: y0)
        verticalGrid(x, top: y0, bottom: y1)
        tickLabels(x, y: y1 + 16) { $0 >= 1000 ? Self.short($0 / 1000) + "k" : Self.short($0) }
        for tick in y.ticks {
            line(x0, y(tick), x1, y(tick), colour: y.labelled.contains(tick) ? "#DDDDDD" : "#F0F0F0")
        }
        for tick in y.labelled { text(Self.short(tick), x: x0 - 6, y: y(tick) + 4, size: 11, anchor: "end", colour: "#444444") }
        line(x0, y1, x1, y1, colour: "#444444")
        line(x0, y0, x0, y1, colour: "#444444")
        text("notebook size (notes)", x: (x0 + x1) / 2, y: y1 + 34, anchor: "middle", attributes: [("class", "axis-label")])
        text(yLabel + (logY ? ", log scale" : ""), x: left + 12, y: (y0 + y1) / 2, anchor: "middle",
             attributes: [("class", "axis-label"), ("transform", "rotate(-90 \(Self.number(left + 12)) \(Self.number((y0 + y1) / 2)))")])
        if points.isEmpty { text("no figures", x: (x0 + x1) / 2, y: (y0 + y1) / 2, anchor: "middle", colour: "#6E6E6E") }
        for (index, (subject, points)) in series.enumerated() {
            let dodge = (Double(index) - Double(series.count - 1) / 2) * 5, colour = colours[subject]
            open([("class", "series"), ("data-subject", subject)])
            element("polyline", [("points", points.map { "\(Self.number(x($0.x) + dodge)),\(Self.number(y($0.y)))" }.joined(separator: " ")),
                                 ("fill", "none"), ("stroke", colour), ("stroke-width", "2")])
            for point in points {
                let px = x(point.x) + dodge
                if let low = point.low, let high = point.high {
                    line(px, y(low), px, y(high), colour: colour, width: 1.5)
                    for end in [low, high] { line(px - 3, y(end), px + 3, y(end), colour: colour, width: 1.5) }
                }
                element("circle", [("cx", Self.number(px)), ("cy", Self.number(y(point.y))), ("r", "4"), ("fill", colour),
                                   ("stroke", "#ffffff"), ("stroke-width", "1")])
            }
            close()
        }
        return y1 + 44
    }

    /// Groups of rows: the group's title, each row's subject at the left, a grey word for a row
    /// without figures, `draw` for the others; grid lines behind the rows only (not the titles),
    /// the scale's labels above and below. Returns the bottom.
    mutating func rowChart(_ groups: [RowGroup], scale: Scale, top: Double, axisLabel: String,
                           draw: (inout Canvas, BenchResult, Scale, Double) -> Void) -> Double {
        tickLabels(scale, y: top + 14)
        var y = top + 20
        var marks = Canvas(width: width)
        for group in groups {
            marks.open([("class", "scenario"), ("data-scenario", group.scenario)])
            marks.text(group.title, x: 16, y: y + 14, bold: true, attributes: [("class", "scenario-title")])
            marks.text(group.note, x: 16 + Self.textWidth(group.title, size: 12, bold: true) + 10, y: y + 14, size: 11, colour: "#666666")
            y += 22
            verticalGrid(scale, top: y - 2, bottom: y + 18 * Double(group.rows.count) + 2)
            line(scale.start, y - 2, scale.start, y + 18 * Double(group.rows.count) + 2, colour: "#444444")
            for result in group.rows {
                marks.open([("class", "row"), ("data-subject", result.subject)])
                marks.text(result.subject, x: scale.start - 8, y: y + 13, anchor: "end")
                if let word = result.outcome.word {
                    marks.text(word, x: scale.start + 6, y: y + 13, size: 11, colour: "#6E6E6E", attributes: [("class", "status")])
                } else {
                    draw(&marks, result, scale, y)
                }
                marks.close()
                y += 18
            }
            marks.close()
            y += 6
        }
        body += marks.body
        tickLabels(scale, y: y + 14)
        text(axisLabel, x: (scale.start + scale.end) / 2, y: y + 34, anchor: "middle", attributes: [("class", "axis-label")])
        return y + 42
    }

    // Text

    /// Where the bars of `rows` start: right of the longest subject name.
    static func rowStart(_ rows: [BenchResult]) -> Double {
        16 + Swift.max(rows.map { textWidth($0.subject, size: 12) }.max() ?? 0, 80) + 12
    }

    /// The width `text` takes, estimated on the generous side.
    static func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        Double(text.count) * size * (bold ? 0.68 : 0.62)
    }

    static func attributes(_ list: [(String, String)]) -> String {
        list.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `value` with `decimals` decimals, no locale and no exponent.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        let scale = Int(pow(10, Double(decimals)))
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / scale)
            + (decimals > 0 ? "." + String(repeating: "0", count: decimals - fraction.count) + fraction : "")
    }

    /// A coordinate: one decimal at most.
    static func number(_ value: Double) -> String { short((value * 10).rounded() / 10) }

    /// The fewest decimals (up to 4) that write `value` exactly enough: a tick's label.
    static func short(_ value: Double) -> String {
        let decimals = (0...4).first { abs(value * pow(10, Double($0)) - (value * pow(10, Double($0))).rounded()) < 1e-6 } ?? 4
        return fixed(value, decimals)
    }

    /// A measured value with about three significant digits: "87.9", "1.23", "0.054", "1234".
    static func readable(_ value: Double) -> String {
        fixed(value, value >= 100 ? 0 : value >= 10 ? 1 : value >= 0.1 ? 2 : 3)
    }
}
