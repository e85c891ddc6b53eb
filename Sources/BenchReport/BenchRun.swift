// BenchRun: the figures of one `macmd-bench all`, as data. The command measures; this module
// keeps the figures, writes them as JSON, a Markdown table and SVG plots, and reads them back
// (the README's performance section is made from the last run's JSON).
//
// Invariants:
// - A result is measured, or says why not: `notApplicable` (the subject does not do this: a
//   linter has no preview), `skipped` (the subject is not installed, or the run left it out)
//   or `failed` (it was asked and gave no usable answer). None of them is ever shown as 0.
// - Latencies are milliseconds; percentiles are nearest-rank over the raw samples, which the
//   JSON keeps.
// - Nothing here reads a clock or the machine: the command hands everything in, so tests build
//   runs from literals and the output is the same bytes for the same run.


/// The spread of a set of samples (nearest-rank percentiles).
public struct Spread: Sendable, Equatable {
    public var count: Int
    public var min: Double
    public var median: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    /// nil for no samples.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            // Nearest rank: the smallest sample with at least p of the samples at or below it.
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        count = sorted.count
        min = sorted[0]
        median = rank(0.5)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted[sorted.count - 1]
    }

    public init(count: Int, min: Double, median: Double, p95: Double, p99: Double, max: Double) {
        self.count = count; self.min = min; self.median = median; self.p95 = p95; self.p99 = p99; self.max = max
    }
}

/// What became of one scenario for one subject.
public enum BenchOutcome: Sendable, Equatable {
    /// Samples in the result's unit.
    case measured([Double])
    /// The subject does not do this (the reason says what it lacks).
    case notApplicable(String)
    /// Not run: the subject is not installed, or the run left it out.
    case skipped(String)
    /// Asked, with no usable answer (an error, a timeout, a crash).
    case failed(String)

    public var samples: [Double]? {
        if case .measured(let samples) = self { return samples }
        return nil
    }

    /// Samples to three decimals, as results.json writes them: a result holds only this form,
    /// so the table and plots of a run and of its redraw (`--from`) are the same.
    var asWritten: BenchOutcome {
        guard case .measured(let samples) = self else { return self }
        return .measured(samples.map { ($0 * 1000).rounded() / 1000 })
    }
}

/// One scenario measured on one subject (a server, a linter, a renderer).
public struct BenchResult: Sendable, Equatable {
    /// A stable id: "startup.initialize", "completion.wikilink", "render.one-core", …
    public var scenario: String
    /// What a reader sees: "Completion of `[[`".
    public var title: String
    /// "startup", "editing", "completion", "navigation", "preview", "check", "render".
    public var group: String
    /// "macmd", "panache", "rumdl", "cmark-gfm", "md4c", …
    public var subject: String
    /// The notebook's number of notes, when the scenario runs on a notebook.
    public var notes: Int?
    /// "ms", "MB/s", "s".
    public var unit: String
    /// Measured samples are kept to three decimals (`BenchOutcome.asWritten`).
    public var outcome: BenchOutcome { didSet { outcome = outcome.asWritten } }
    /// The subject's peak resident set size in bytes (VmHWM of /proc/PID/status, or ru_maxrss).
    public var peakResidentBytes: Int?
    /// Other figures, by name: "rssAfterIndexBytes", "items", "files", "inputBytes", …
    public var figures: [String: Double]

    public init(scenario: String, title: String, group: String, subject: String, notes: Int? = nil, unit: String,
                outcome: BenchOutcome, peakResidentBytes: Int? = nil, figures: [String: Double] = [:]) {
        self.scenario = scenario; self.title = title; self.group = group; self.subject = subject
        self.notes = notes; self.unit = unit; self.outcome = outcome.asWritten
        self.peakResidentBytes = peakResidentBytes; self.figures = figures
    }

    /// The spread of the samples; nil unless measured.
    public var spread: Spread? { outcome.samples.flatMap(Spread.init) }
}

/// A subject the run looked for: its name, version and whether it ran.
public struct BenchSubject: Sendable, Equatable {
    public var name: String
    /// "server", "linter", "renderer".
    public var kind: String
    /// The version it reported, or nil.
    public var version: String?
    /// nil when it ran; otherwise why not ("not installed: pip install rumdl").
    public var skipped: String?

    public init(name: String, kind: String, version: String? = nil, skipped: String? = nil) {
        self.name = name; self.kind = kind; self.version = version; self.skipped = skipped
    }
}

/// The machine a run measured on.
public struct BenchMachine: Sendable, Equatable {
    public var cpuModel: String
    public var cores: Int
    public var memoryBytes: Int
    public var system: String

    public init(cpuModel: String, cores: Int, memoryBytes: Int, system: String) {
        self.cpuModel = cpuModel; self.cores = cores; self.memoryBytes = memoryBytes; self.system = system
    }
}

/// Everything one `macmd-bench all` measured.
public struct BenchRun: Sendable, Equatable {
    /// The "MB" of memory figures in the table and the plots alike (MiB, as `bench index` and
    /// the memory targets count it).
    public static let bytesPerMB = 1_048_576.0

    /// When it ran, ISO 8601 (UTC).
    public var date: String
    /// `macmd --version`: the version and commit measured.
    public var macmdVersion: String
    public var machine: BenchMachine
    /// The notebooks' sizes, in notes, smallest first.
    public var notebookSizes: [Int]
    /// The seed of `macmd-bench generate`.
    public var seed: Int
    /// The command line that made this run.
    public var command: String
    public var subjects: [BenchSubject]
    public var results: [BenchResult]

    public init(date: String, macmdVersion: String, machine: BenchMachine, notebookSizes: [Int], seed: Int,
                command: String, subjects: [BenchSubject], results: [BenchResult]) {
        self.date = date; self.macmdVersion = macmdVersion; self.machine = machine
        self.notebookSizes = notebookSizes; self.seed = seed; self.command = command
        self.subjects = subjects; self.results = results
    }

    /// The result of `scenario` for `subject` (on `notes` notes when given).
    public func result(_ scenario: String, _ subject: String, notes: Int? = nil) -> BenchResult? {
        results.first { $0.scenario == scenario && $0.subject == subject && (notes == nil || $0.notes == notes) }
    }
}
