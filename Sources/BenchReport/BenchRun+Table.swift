// BenchRun as Markdown: one row per scenario (and notebook size), one column per subject.
// A cell is "median / p95 / p99" in the row's unit, then the subject's peak RSS; a subject that
// does not do the scenario shows "n/a", one that did not run "skipped", one that gave no usable
// answer "failed" — never 0. The reasons are listed under the table.

extension BenchRun {
    /// The subjects that have a column: those with at least one result, in the order of
    /// `subjects` (macmd first), then any others.
    var columns: [String] {
        var names = subjects.map(\.name).filter { name in results.contains { $0.subject == name } }
        for result in results where !names.contains(result.subject) { names.append(result.subject) }
        return names
    }

    /// The rows: each (scenario, notes) once, in the order results first name them.
    var rows: [(scenario: String, notes: Int?, title: String, unit: String)] {
        var seen: Set<String> = []
        var rows: [(scenario: String, notes: Int?, title: String, unit: String)] = []
        for result in results {
            let key = result.scenario + "@" + String(result.notes ?? -1)
            if seen.insert(key).inserted { rows.append((result.scenario, result.notes, result.title, result.unit)) }
        }
        return rows
    }

    /// The groups of the servers' and linters' table (the renderers have their own).
    public static let serverGroups: Set<String> = ["startup", "completion", "navigation", "editing", "preview", "check"]

    /// results.md: the summary line, the servers' table, the renderers' table.
    public var document: String {
        "# macmd-bench all\n\n" + summaryLine + "\n\n" + markdownTable(groups: Self.serverGroups) + "\n" + markdownTable(groups: ["render"])
    }

    /// One line: when, where, what was measured, how to re-run.
    public var summaryLine: String {
        let measured = subjects.filter { $0.skipped == nil }.map { $0.name + ($0.version.map { " (\($0))" } ?? "") }
        return "Run on \(date) on \(machine.cpuModel), \(machine.cores) cores, \(Self.number(Double(machine.memoryBytes) / 1_073_741_824)) GiB, "
            + "\(machine.system); \(macmdVersion); notebooks of " + notebookSizes.map { Self.grouped($0) }.joined(separator: ", ")
            + " notes (seed \(seed)). Measured: " + measured.joined(separator: ", ") + ". Command: `\(command)`."
    }

    /// The whole table, with the reasons for every figure that is missing.
    /// `reasons: false` leaves out the lists under the table (why a figure is missing, which
    /// scenarios the budget cut), for a summary that links to the whole table.
    public func markdownTable(groups: Set<String>? = nil, notes: Set<Int>? = nil, reasons showReasons: Bool = true) -> String {
        // The rows shown, and a column for each subject with a result in them.
        let shown = rows.filter { row in
            guard let first = results.first(where: { $0.scenario == row.scenario && $0.notes == row.notes }) else { return false }
            if let groups, !groups.contains(first.group) { return false }
            if let notes, let size = row.notes, !notes.contains(size) { return false }
            return true
        }
        let columns = columns.filter { column in
            shown.contains { row in results.contains { $0.scenario == row.scenario && $0.notes == row.notes && $0.subject == column } }
        }
        var out = "| Scenario | Notes | " + columns.joined(separator: " | ") + " |\n"
        out += "|---|---:|" + String(repeating: "---:|", count: columns.count) + "\n"
        var reasons: [String] = []
        var cut: [String] = []
        for row in shown {
            var cells: [String] = []
            for column in columns {
                guard let result = results.first(where: { $0.scenario == row.scenario && $0.subject == column && $0.notes == row.notes }) else {
                    cells.append("")
                    continue
                }
                switch result.outcome {
                case .measured(let samples):
                    cells.append(Self.cell(result))
                    if let planned = result.figures["roundsPlanned"] {
                        cut.append("\(column), \(row.title)\(row.notes.map { " (\(Self.grouped($0)) notes)" } ?? ""): "
                                   + "\(samples.count) of \(Int(planned)) rounds, stopped at the scenario's time budget")
                    }
                case .notApplicable(let why):
                    cells.append("n/a")
                    reasons.append("\(column), \(row.title): \(why)")
                case .skipped(let why):
                    cells.append("skipped")
                    reasons.append("\(column), \(row.title): \(why)")
                case .failed(let why):
                    cells.append("failed")
                    reasons.append("\(column), \(row.title): \(why)")
                }
            }
            let size = row.notes.map { Self.grouped($0) } ?? ""
            out += "| \(row.title) (\(row.unit)) | \(size) | " + cells.joined(separator: " | ") + " |\n"
        }
        for subject in subjects where groups?.contains(subject.kind == "renderer" ? "render" : "startup") ?? true {
            if let why = subject.skipped { reasons.append("\(subject.name): \(why)") }
        }
        guard showReasons else { return out }
        var unique: [String] = []
        for reason in reasons where !unique.contains(reason) { unique.append(reason) }
        if !unique.isEmpty {
            out += "\nWhy a figure is missing:\n\n" + unique.map { "- " + $0 + "\n" }.joined()
        }
        if !cut.isEmpty {
            out += "\nCut short (`--budget`: fewer rounds, the same measure):\n\n" + cut.map { "- " + $0 + "\n" }.joined()
        }
        return out
    }

    /// "median / p95 / p99" (one figure for throughput: the median, with the spread), then the peak RSS.
    static func cell(_ result: BenchResult) -> String {
        guard let spread = result.spread else { return "" }
        var text: String
        if result.unit == "MB/s" {
            text = number(spread.median) + (spread.count > 1 ? " (" + number(spread.min) + "–" + number(spread.max) + ")" : "")
        } else {
            text = [spread.median, spread.p95, spread.p99].map(number).joined(separator: " / ")
        }
        if let rss = result.figures["rssAfterIndexBytes"] ?? result.peakResidentBytes.map(Double.init) {
            text += ", " + number(rss / BenchRun.bytesPerMB) + " MB"
        }
        return text
    }

    /// Three significant figures or so: 0.032, 0.41, 2.48, 17.2, 291.
    public static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 0.1 ? 2 : 3
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return grouped(Int(rounded)) }
        let whole = Int(rounded.magnitude)
        var fraction = String(Int(((rounded.magnitude - Double(whole)) * scale).rounded()))
        while fraction.count < decimals { fraction = "0" + fraction }
        return (value < 0 ? "-" : "") + String(whole) + "." + fraction
    }

    /// 10000 → "10,000".
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// The README's performance section, a summary: where and when the run was made and how to
    /// re-run it, one row per scenario a peer also does (at one notebook size, and rendering)
    /// with macmd's median, the best peer's and the ratio between them, and one plot
    /// (`plotsPath`: the folder of the SVG files, relative to the README). The whole table is
    /// `results.md` in the same folder.
    public func readmeSection(plotsPath: String, notes size: Int?) -> String {
        var out = "Measured by `macmd-bench all` on \(date.prefix(10)), \(machine.cpuModel) (\(machine.cores) cores, "
        out += Self.number(Double(machine.memoryBytes) / 1_073_741_824) + " GiB), \(macmdVersion), release build"
        out += size.map { ", on notebooks of \(Self.grouped($0)) generated notes (seed \(seed))." } ?? "."
        out += " Medians; the ratio is the best peer's time over macmd's (for throughput, macmd's over the best peer's)."
        out += " Re-run: `swift build -c release && .build/release/macmd-bench all --out /tmp/bench --readme README.md`.\n\n"
        out += "| Scenario | macmd | The best peer | macmd is |\n|---|---:|---:|---:|\n"
        for row in keyRatios(notes: size) {
            let verdict = row.ratio >= 1 ? Self.number(row.ratio) + "× faster" : Self.number(1 / row.ratio) + "× slower"
            out += "| \(row.title) (\(row.unit)) | \(Self.number(row.macmd)) | \(row.peer): \(Self.number(row.best)) | \(verdict) |\n"
        }
        out += "\nEvery figure (p95, p99, memory, every notebook size, the scenarios no peer does) and why one is n/a: "
        out += "[\(plotsPath)/results.md](\(plotsPath)/results.md); what each scenario does and how to install the peers: "
        out += "[docs/performance.md](docs/performance.md).\n\n"
        out += "![latency](\(plotsPath)/latency.svg)\n"
        return out
    }

    /// One row of the summary: a scenario macmd and at least one peer measured, with the
    /// medians of macmd and of the best peer, and how many times better macmd is (below 1:
    /// worse). `higherIsBetter` for throughput (MB/s), where the ratio is macmd's over the peer's.
    public struct KeyRatio: Sendable, Equatable {
        public var title: String
        public var unit: String
        public var macmd: Double
        public var peer: String
        public var best: Double
        public var ratio: Double
        public var higherIsBetter: Bool
    }

    /// The summary's rows: the servers' scenarios at `size` notes, then the renderers', in the
    /// order of the table.
    public func keyRatios(notes size: Int?) -> [KeyRatio] {
        var ratios: [KeyRatio] = []
        for row in rows {
            guard let first = results.first(where: { $0.scenario == row.scenario && $0.notes == row.notes }) else { continue }
            if Self.serverGroups.contains(first.group), let size, row.notes != size { continue }
            let here = results.filter { $0.scenario == row.scenario && $0.notes == row.notes }
            guard let macmd = here.first(where: { $0.subject == "macmd" })?.spread?.median, macmd > 0 else { continue }
            let higherIsBetter = row.unit == "MB/s"
            let peers = here.filter { $0.subject != "macmd" }.compactMap { result in result.spread.map { (result.subject, $0.median) } }
            guard let best = higherIsBetter ? peers.max(by: { $0.1 < $1.1 }) : peers.min(by: { $0.1 < $1.1 }), best.1 > 0 else { continue }
            ratios.append(KeyRatio(title: row.title, unit: row.unit, macmd: macmd, peer: best.0, best: best.1,
                                   ratio: higherIsBetter ? macmd / best.1 : best.1 / macmd, higherIsBetter: higherIsBetter))
        }
        return ratios
    }

    /// `text` with the part between `begin` and `end` (the marker lines kept) replaced by
    /// `section`; nil when the markers are not both there, in that order.
    public static func replacingSection(in text: String, begin: String, end: String, with section: String) -> String? {
        guard let start = text.firstRange(of: begin), let stop = text[start.upperBound...].firstRange(of: end) else { return nil }
        return String(text[..<start.upperBound]) + "\n" + section + String(text[stop.lowerBound...])
    }
}
