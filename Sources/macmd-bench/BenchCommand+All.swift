// `macmd-bench all --out DIR`: MacMD and its peers on the same notebooks in the same run.
//
// It generates the notebooks of `macmd-bench generate` (1,000, 10,000 and 50,000 notes, seed 1,
// plus a hub note whose heading 500 notes link), runs every scenario against `macmd lsp` and
// against each peer server installed (`panache lsp`, `rumdl server`, `marksman server`,
// `markdown-oxide`) over stdio as an editor would, times `macmd check` against `rumdl check` and
// `panache lint`, and MacMD's renderer against cmark-gfm, md4c, pulldown-cmark and comrak; then
// writes DIR/results.json (raw samples), DIR/results.md (the table) and DIR/*.svg (the plots),
// and with `--readme FILE` the performance section of the README.
//
// Invariants:
// - A subject that is not installed is skipped with the reason (and how to install it); a
//   scenario a subject does not support is "n/a" with the reason; one that gave no usable answer
//   is "failed". None is ever a 0.
// - Every scenario warms up before it counts (the first rounds are thrown away) and repeats;
//   the JSON keeps every sample.
// - Peers run with their documented defaults (only their caches are turned off for the cold
//   check: `--no-cache`).
// - Each wait has a deadline (`--timeout`), so a peer that hangs costs seconds, not the run.
// - Each scenario has a time budget (`--budget`): past it, its rounds stop (after at least three
//   counted ones, or one when a single round outlasts the budget) and the table says how many of
//   how many ran, so one slow peer on a large
//   notebook costs minutes, not hours.
// - results.json is written after each server and notebook: a run stopped part way keeps what it
//   measured (`--from` draws it).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchReport
import CommandLineIO
import MacMDBench

extension BenchCommand {
    static let allUsage = """
    usage: macmd-bench all --out DIR [--sizes N,N,…] [--seed S] [--keystrokes N] [--rounds N]
                           [--starts N] [--peers NAME,…|none] [--corpus FILE] [--readme FILE]
                           [--timeout SECONDS] [--budget SECONDS] [--smoke] [--from RESULTS.json]
      --sizes       notebook sizes in notes (default 1000,10000,50000)
      --keystrokes  keystrokes of the editing session (default 2000)
      --rounds      repetitions of each completion, navigation and preview scenario (default 50)
      --starts      cold starts per server and notebook (default 3)
      --peers       which peers to run (default: every one installed; `none`: MacMD only)
      --corpus      the Markdown to render (default: built from ../shared/corpus, ≥ 10 MB)
      --readme      write the table and plots into this README's performance section
      --timeout     the longest wait for one answer (default 30 s)
      --budget      the time one scenario may take on one server before its rounds stop (default 60 s)
      --smoke       a quick run: 200 notes, 20 keystrokes, 3 rounds, 1 start, a small corpus
      --from        measure nothing: write the table, plots and README section of an earlier run

    """

    struct AllOptions {
        var out = ""
        var sizes = [1_000, 10_000, 50_000]
        var seed: UInt64 = 1
        var keystrokes = 2_000
        var rounds = 50
        var starts = 3
        var peers: Set<String>?
        var corpus: String?
        var readme: String?
        var timeout = 30.0
        /// Seconds a scenario may run on one server before its remaining rounds are dropped.
        var budget = 60.0
        var smoke = false
        /// `--from FILE`: no measuring, the files made again from an earlier run's results.json.
        var from: String?
        var command = ""

        /// Warm-up rounds thrown away before each scenario counts.
        var warmUp: Int { smoke ? 1 : 5 }
    }

    static func parseAllOptions(_ arguments: [String]) -> AllOptions? {
        var options = AllOptions()
        options.command = (["macmd-bench", "all"] + arguments).joined(separator: " ")
        var explicit: Set<String> = []
        var i = 0
        func value() -> String? {
            guard i + 1 < arguments.count else { return nil }
            i += 1
            return arguments[i]
        }
        func fail(_ message: String) -> AllOptions? {
            StandardStreams.writeError("macmd-bench all: \(message)\n" + allUsage)
            return nil
        }
        while i < arguments.count {
            let argument = arguments[i]
            explicit.insert(argument)
            switch argument {
            case "--out":
                guard let v = value() else { return fail("--out takes a folder") }
                options.out = v
            case "--sizes":
                guard let v = value() else { return fail("--sizes takes numbers") }
                let sizes = v.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 1 }), sizes.count == v.split(separator: ",").count else {
                    return fail("--sizes takes numbers ≥ 1, separated by commas")
                }
                options.sizes = sizes.sorted()
            case "--seed":
                guard let v = value().flatMap({ UInt64($0) }) else { return fail("--seed takes a number ≥ 0") }
                options.seed = v
            case "--keystrokes", "--rounds", "--starts":
                guard let v = value().flatMap({ Int($0) }), v >= 1 else { return fail("\(argument) takes a number ≥ 1") }
                if argument == "--keystrokes" { options.keystrokes = v } else if argument == "--rounds" { options.rounds = v } else { options.starts = v }
            case "--peers":
                guard let v = value() else { return fail("--peers takes names or none") }
                options.peers = v == "none" ? [] : Set(v.split(separator: ",").map(String.init))
            case "--corpus":
                guard let v = value() else { return fail("--corpus takes a file") }
                options.corpus = v
            case "--readme":
                guard let v = value() else { return fail("--readme takes a file") }
                options.readme = v
            case "--timeout":
                guard let v = value().flatMap({ Double($0) }), v > 0 else { return fail("--timeout takes seconds > 0") }
                options.timeout = v
            case "--budget":
                guard let v = value().flatMap({ Double($0) }), v > 0 else { return fail("--budget takes seconds > 0") }
                options.budget = v
            case "--smoke":
                options.smoke = true
            case "--from":
                guard let v = value() else { return fail("--from takes a results.json") }
                options.from = v
            case "-h", "--help":
                StandardStreams.writeOutput(Array(allUsage.utf8))
                return nil
            default:
                return fail("unexpected argument '\(argument)'")
            }
            i += 1
        }
        guard !options.out.isEmpty else { return fail("--out DIR is required") }
        if options.smoke {
            if !explicit.contains("--sizes") { options.sizes = [200] }
            if !explicit.contains("--keystrokes") { options.keystrokes = 20 }
            if !explicit.contains("--rounds") { options.rounds = 3 }
            if !explicit.contains("--starts") { options.starts = 1 }
        }
        return options
    }

    static func all(_ arguments: [String]) -> Int32 {
        guard var options = parseAllOptions(arguments) else {
            return arguments.contains("-h") || arguments.contains("--help") ? 0 : 2
        }
        while options.out.count > 1, options.out.hasSuffix("/") { options.out.removeLast() }
        guard makeDirectories(options.out + "/notebooks") else {
            StandardStreams.writeError("macmd-bench all: cannot create \(options.out): \(String(cString: strerror(errno)))\n")
            return 1
        }
        if !options.out.hasPrefix("/"), let here = currentDirectory() {
            options.out = here + "/" + options.out
        }
        if let from = options.from {
            guard case .success(let bytes) = StandardStreams.readInput(path: from),
                  let run = BenchRun(json: String(decoding: bytes, as: UTF8.self)) else {
                StandardStreams.writeError("macmd-bench all: \(from) is not the results.json of a run\n")
                return 1
            }
            return AllBench(options: options).finish(run)
        }
        var bench = AllBench(options: options)
        bench.run()
        return bench.finish()
    }
}

/// One run of `macmd-bench all`: the subjects found, the results so far.
struct AllBench {
    typealias Bench = BenchCommand
    var options: BenchCommand.AllOptions
    var subjects: [BenchSubject] = []
    var results: [BenchResult] = []
    var servers: [(name: String, arguments: [String])] = []
    var failures = 0
    /// The small program that runs each linter and renderer so its peak RSS is its own
    /// (`goBetweenSource`); nil without a C compiler (then figures at or under this process's
    /// size are left out).
    var goBetween: String?

    init(options: BenchCommand.AllOptions) {
        self.options = options
    }

    func log(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }

    /// Whether the run includes peer `name` (MacMD always runs).
    func wants(_ name: String) -> Bool { name == "macmd" || options.peers.map { $0.contains(name) } ?? true }

    mutating func run() {
        goBetween = Self.buildGoBetween(in: options.out)
        if goBetween == nil { log("no C compiler: peak RSS of programs at or under this process's size is left out") }
        findServers()
        let previewSize = options.sizes.contains(10_000) ? 10_000 : options.sizes.last ?? 0
        for size in options.sizes {
            let root = options.out + "/notebooks/n\(size)"
            log("notebook of \(size) notes in \(root)")
            guard let notebook = BenchNotebook.write(root: root, notes: size, seed: options.seed) else {
                log("macmd-bench all: cannot write the notebook \(root)")
                failures += 1
                continue
            }
            for server in servers {
                log("  \(server.name): \(server.arguments.joined(separator: " "))")
                var session = ServerBench(name: server.name, arguments: server.arguments, notebook: notebook, options: options)
                session.run(preview: size == previewSize)
                results += session.results
                savePartial()
            }
            check(notebook)
            savePartial()
        }
        render()
    }

    /// results.json of the run so far, so that a run stopped part way keeps its figures.
    func savePartial() {
        if !Bench.writeFile(options.out + "/results.json", Array(currentRun().json().utf8)) {
            log("macmd-bench all: cannot write \(options.out)/results.json")
        }
    }

    /// The servers to measure, and the peers skipped with the reason.
    mutating func findServers() {
        servers.append(("macmd", [Bench.macmdPath(), "lsp"]))
        subjects.append(BenchSubject(name: "macmd", kind: "server", version: Self.version([Bench.macmdPath(), "--version"])))
        let peers: [(name: String, command: String, arguments: [String], install: String)] = [
            ("panache", "panache", ["lsp"], "pip install panache-cli"),
            ("rumdl", "rumdl", ["server"], "pip install rumdl"),
            ("marksman", "marksman", ["server"], "not installable on this machine: put marksman on PATH"),
            ("markdown-oxide", "markdown-oxide", [], "not installable on this machine: put markdown-oxide on PATH"),
        ]
        for peer in peers {
            guard wants(peer.name) else {
                subjects.append(BenchSubject(name: peer.name, kind: "server", skipped: "left out by --peers"))
                continue
            }
            guard let path = Self.findPeer(peer.command) else {
                subjects.append(BenchSubject(name: peer.name, kind: "server", skipped: "not installed (\(peer.install))"))
                continue
            }
            servers.append((peer.name, [path] + peer.arguments))
            subjects.append(BenchSubject(name: peer.name, kind: "server", version: Self.version([path, "--version"])))
        }
    }

    /// A peer's executable: on PATH, or in `.build/peers/bin` (where docs/performance.md
    /// installs the PyPI peers).
    static func findPeer(_ name: String) -> String? {
        BenchCommand.findExecutable(name) ?? installedPeer(name)
    }

    /// `name` in `.build/peers/bin` of the working folder, when it is there.
    static func installedPeer(_ name: String) -> String? {
        guard let here = BenchCommand.currentDirectory() else { return nil }
        let candidate = here + "/.build/peers/bin/" + name
        return access(candidate, X_OK) == 0 ? candidate : nil
    }
}

extension AllBench {
    /// Writes results.json, results.md and the plots into `--out` (and the README's section with
    /// `--readme`), prints the table; 1 when a part of the run could not be made.
    func finish() -> Int32 {
        finish(currentRun())
    }

    /// The run as measured so far.
    func currentRun() -> BenchRun {
        BenchRun(date: Self.isoDate(), macmdVersion: Self.version([Bench.macmdPath(), "--version"]) ?? "macmd",
                 machine: Self.machine(), notebookSizes: options.sizes, seed: Int(options.seed),
                 command: options.command, subjects: subjects, results: results)
    }

    /// Writes the files of `run`.
    func finish(_ run: BenchRun) -> Int32 {
        let table = run.document
        var files: [(name: String, text: String)] = [("results.json", run.json()), ("results.md", table)]
        for plot in run.plots() { files.append((plot.name, plot.svg)) }
        var status: Int32 = failures > 0 ? 1 : 0
        for file in files where !Bench.writeFile(options.out + "/" + file.name, Array(file.text.utf8)) {
            log("macmd-bench all: cannot write \(options.out)/\(file.name)")
            status = 1
        }
        if let readme = options.readme {
            status = max(status, Self.updateReadme(readme, run: run, out: options.out))
        }
        _ = StandardStreams.writeOutput(Array((table + "\nwritten: " + files.map { options.out + "/" + $0.name }.joined(separator: ", ") + "\n").utf8))
        return status
    }

    static let readmeBegin = "<!-- bench results: begin (generated, do not edit) -->"
    static let readmeEnd = "<!-- bench results: end -->"

    /// Replaces the README's generated section; the plots are copied beside it, into
    /// `docs/bench/` of the README's folder.
    static func updateReadme(_ path: String, run: BenchRun, out: String) -> Int32 {
        guard case .success(let bytes) = StandardStreams.readInput(path: path) else {
            StandardStreams.writeError("macmd-bench all: cannot read \(path)\n")
            return 1
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard BenchCommand.makeDirectories(folder + "/docs/bench") else {
            StandardStreams.writeError("macmd-bench all: cannot create \(folder)/docs/bench\n")
            return 1
        }
        for plot in run.plots() where !Bench.writeFile(folder + "/docs/bench/" + plot.name, Array(plot.svg.utf8)) {
            StandardStreams.writeError("macmd-bench all: cannot write \(folder)/docs/bench/\(plot.name)\n")
            return 1
        }
        _ = Bench.writeFile(folder + "/docs/bench/results.json", Array(run.json().utf8))
        _ = Bench.writeFile(folder + "/docs/bench/results.md", Array((run.document).utf8))
        let size = run.notebookSizes.contains(10_000) ? 10_000 : run.notebookSizes.last
        let section = run.readmeSection(plotsPath: "docs/bench", notes: size)
        guard let text = BenchRun.replacingSection(in: String(decoding: bytes, as: UTF8.self), begin: readmeBegin, end: readmeEnd, with: section) else {
            StandardStreams.writeError("macmd-bench all: \(path) has no section between \(readmeBegin) and \(readmeEnd)\n")
            return 1
        }
        return Bench.writeFile(path, Array(text.utf8)) ? 0 : 1
    }

    /// Now, as 2026-11-24T21:05:09Z.
    static func isoDate() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// The CPU model, cores, memory and system of this machine (Linux /proc; "?" elsewhere).
    static func machine() -> BenchMachine {
        func read(_ path: String) -> String {
            if case .success(let bytes) = StandardStreams.readInput(path: path) { return String(decoding: bytes, as: UTF8.self) }
            return ""
        }
        func field(_ text: String, _ name: String) -> String? {
            for line in text.split(separator: "\n") where line.hasPrefix(name) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                return line[line.index(after: colon)...].trimmingPrefix(while: { $0 == " " || $0 == "\t" }).description
            }
            return nil
        }
        let cpu = field(read("/proc/cpuinfo"), "model name") ?? "?"
        let memory = field(read("/proc/meminfo"), "MemTotal").flatMap { Int($0.filter(\.isNumber)) }.map { $0 * 1024 } ?? 0
        var names = utsname()
        uname(&names)
        func text<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let system = text(names.sysname) + " " + text(names.release)
        return BenchMachine(cpuModel: cpu, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), memoryBytes: memory, system: system)
    }
}
