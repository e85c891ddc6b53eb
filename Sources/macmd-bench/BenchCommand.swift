// `macmd-bench`: benchmarks meant for release builds (`swift build -c release`).
//
//   macmd-bench render [--profile P] [--iterations N] FILE…
//       Parses and renders the files, concatenated into one document as cmark-gfm does with
//       several files, N times (default 5), streaming the HTML to /dev/null as
//       `cmark-gfm FILE > /dev/null` does; prints the best MB/s; then runs `macmd render` on the
//       same input as a child process and prints its peak RSS (from wait4). When `cmark-gfm`
//       is on PATH, it gets the same treatment with the table, strikethrough, autolink,
//       tagfilter and tasklist extensions.
//
// No Foundation here or anywhere in the executable: it would add megabytes to every process's RSS.
//   macmd-bench lsp [--rounds N]    (see BenchCommand+LSP.swift)
//   macmd-bench editing [--rounds N]    (see BenchCommand+Editing.swift)
//   macmd-bench index DIR, macmd-bench scan DIR    (see BenchCommand+Index.swift, +Scan.swift)
//   macmd-bench math [--rounds N] [FILE]    (see BenchCommand+Math.swift)
//   macmd-bench preview --maths [--rounds N]    (see BenchCommand+MathPreview.swift)
//   macmd-bench completion DIR [--builds N] [--servers N] [--rounds N]    (see BenchCommand+Completion.swift)
//   macmd-bench tokens DIR [--rounds N] [--bytes B] [--server PATH]    (see BenchCommand+Tokens.swift)
//   macmd-bench mentions DIR [--notes N] [--rounds N] [--server PATH]    (see BenchCommand+Mentions.swift)
//   macmd-bench search DIR [--queries N] [--rounds N] [--export DIR] [--no-server] [--server PATH]    (see BenchCommand+Search.swift)
//   macmd-bench fuzz [TARGET…] [--seconds N] [--seed S] [--save DIR]    (see BenchCommand+Fuzz.swift)
//   macmd-bench flood [--edits N] [--note-bytes B] [--server PATH]    (see BenchCommand+Flood.swift)
//   macmd-bench all --out DIR [--sizes …] [--peers …] [--readme FILE] [--smoke]    (see BenchCommand+All.swift)
//   macmd-bench codes [--write] [--root DIR]    (see BenchCommand+Codes.swift)
//   macmd-bench pathological [--scale N] [--divisor D] [--case TEXT]... [--phases]
//       Runs every case of ../shared/spec/PATHOLOGICAL.md, and the maths, front-matter and
//       notebook cases, at 1x and Nx (default 10) of the reference size; prints the bytes and
//       seconds of each, whether the output was right, and the verdict: QUADRATIC when the Nx
//       time is over twice the 1x time times the growth of the input in bytes (best of three),
//       unless it is under 20 ms. The notebook cases are served as notes (`ServedNote`): index,
//       diagnostics, outline, folding, hover, completion, formatting, LSP positions, preview;
//       `--phases` prints the time of each; `--divisor D` makes 1x a D-th of the reference (to
//       profile a case small). Exits 1 on a wrong output or a superlinear case.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import MacMDBench
import MarkdownHTML
import MarkdownSyntax

enum BenchCommand {
    static let usage = """
        usage: macmd-bench all --out DIR [--sizes N,…] [--seed S] [--keystrokes N] [--rounds N] [--starts N]
               macmd-bench all --out DIR [--peers NAME,…|none] [--corpus FILE] [--readme FILE] [--timeout S] [--smoke] [--from FILE]
               macmd-bench render [--profile commonmark|gfm|notebook] [--iterations N] [--samples] FILE...
               macmd-bench pathological [--scale N] [--divisor D] [--case TEXT]... [--phases]
               macmd-bench math [--rounds N] [FILE]
               macmd-bench lsp [--rounds N] [--note FILE | --write-note FILE]
               macmd-bench editing [--rounds N] [--note FILE] [--server PATH]
               macmd-bench preview FILE [--notebook DIR]
               macmd-bench preview --maths [--rounds N] [--write-note FILE [--without-maths]]
               macmd-bench index DIR [--rounds N] [--servers N] [--server PATH]
               macmd-bench completion DIR [--builds N] [--servers N] [--rounds N] [--pause MS] [--server PATH]
               macmd-bench graph DIR [--rounds N] [--server PATH]
               macmd-bench notes DIR [--rounds N]
               macmd-bench tokens DIR [--rounds N] [--bytes B] [--server PATH]
               macmd-bench mentions DIR [--notes N] [--rounds N] [--server PATH]
               macmd-bench search DIR [--queries N] [--rounds N] [--export DIR] [--no-server] [--server PATH]
               macmd-bench scan DIR [--rounds N] [--no-inspect]
               macmd-bench generate [--notes N] [--seed S] [--force] DIR
               macmd-bench codes [--write] [--root DIR]
               macmd-bench fuzz [TARGET...] [--seconds N] [--seed S] [--save DIR]
               macmd-bench flood [--edits N] [--note-bytes B] [--server PATH]
               macmd-bench fuzz --worker TARGET [--seed S] [--from N] [--count N]

        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let sub = arguments.first else {
            StandardStreams.writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "render": return render(rest)
        case "fuzz": return fuzz(rest)
        case "pathological": return pathological(rest)
        case "flood": return flood(rest)
        case "all": return all(rest)
        case "math": return math(rest)
        case "lsp": return lsp(rest)
        case "editing": return editing(rest)
        case "preview": return previewPhases(rest)
        case "index": return index(rest)
        case "completion": return completion(rest)
        case "graph": return graph(rest)
        case "notes": return notes(rest)
        case "tokens": return tokens(rest)
        case "mentions": return mentions(rest)
        case "search": return search(rest)
        case "scan": return scan(rest)
        case "generate": return generate(rest)
        case "codes": return codes(rest)
        case "-h", "--help":
            StandardStreams.writeOutput(Array(usage.utf8))
            return 0
        default:
            StandardStreams.writeError("macmd-bench: unknown benchmark '\(sub)'\n" + usage)
            return 2
        }
    }

    /// `arguments` without `--server PATH`, and that path: the other build's `macmd` a benchmark
    /// measures with its own client.
    static func takingServer(_ arguments: [String]) -> (arguments: [String], server: String?) {
        var arguments = arguments
        guard let flag = arguments.firstIndex(of: "--server"), flag + 1 < arguments.count else { return (arguments, nil) }
        let server = arguments[flag + 1]
        arguments.removeSubrange(flag...(flag + 1))
        return (arguments, server)
    }

    /// Reads `DIR [--flag N]…` for the notebook benchmarks: the folder and each flag's value, at
    /// least `minimum` (defaults kept for flags not given); nil after writing `usage` when they do
    /// not fit.
    static func folderAndCounts(_ arguments: [String], _ counts: [String: Int], minimum: Int = 1,
                                usage: String) -> (folder: String, counts: [String: Int])? {
        var folder: String?
        var values = counts
        var i = 0
        while i < arguments.count {
            if values[arguments[i]] != nil, i + 1 < arguments.count, let n = Int(arguments[i + 1]), n >= minimum {
                values[arguments[i]] = n
                i += 1
            } else if !arguments[i].hasPrefix("-"), folder == nil {
                folder = arguments[i]
            } else {
                folder = nil
                break
            }
            i += 1
        }
        guard let folder else {
            StandardStreams.writeError(usage)
            return nil
        }
        return (folder, values)
    }

    /// Monotonic seconds.
    static func now() -> Double { BenchClock.now() }

    /// Peak resident set size of this process, in bytes.
    static func peakRSS() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if os(Linux)
        return usage.ru_maxrss * 1024
        #else
        return usage.ru_maxrss
        #endif
    }

    /// `value` with `digits` decimals (no Foundation `String(format:)`).
    static func format(_ value: Double, _ digits: Int = 1) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(rounded) - whole * Int(scale)
        var text = (value < 0 && rounded > 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - f.count)) + f
        }
        return text
    }

    /// Starts `arguments[0]` with `arguments` and this process's environment, its descriptors
    /// arranged by `arrange` (the file actions of `posix_spawn`); the child's pid, or nil.
    static func spawn(_ arguments: [String], arrange: (inout posix_spawn_file_actions_t) -> Void) -> pid_t? {
        guard !arguments.isEmpty else { return nil }
        // Linux carries the parent's RSS high-water mark into the child across exec (posix_spawn
        // shares the parent's memory until then), so a child's peak RSS (`wait4`) would be at
        // least this process's peak: bring that down to what it holds now ("5": reset VmHWM).
        #if os(Linux)
        let clear = open("/proc/self/clear_refs", O_WRONLY)
        if clear >= 0 {
            _ = write(clear, "5", 1)
            close(clear)
        }
        #endif
        return Subprocess.spawn(arguments, arrange: arrange)
    }

    /// Runs `arguments[0]` with stdout to /dev/null; returns the wall time and peak RSS in bytes.
    static func runChild(_ arguments: [String]) -> (seconds: Double, peakRSS: Int)? {
        let start = now()
        guard let pid = spawn(arguments, arrange: { posix_spawn_file_actions_addopen(&$0, 1, "/dev/null", O_WRONLY, 0) }) else {
            return nil
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return nil }
        }
        let elapsed = now() - start
        #if os(Linux)
        return (elapsed, usage.ru_maxrss * 1024)
        #else
        return (elapsed, usage.ru_maxrss)
        #endif
    }

    /// This executable's path (to run its own subcommands as children: fuzz workers, renders).
    static func benchPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments.first ?? "macmd-bench"
    }

    /// The product binary the benchmarks measure: `$MACMD` when set, else the `macmd` built
    /// beside this executable (`swift build -c release` builds both into `.build/release/`).
    static func macmdPath() -> String {
        if let path = getenv("MACMD").map({ String(cString: $0) }), !path.isEmpty { return path }
        let bench = benchPath()
        guard let slash = bench.lastIndex(of: "/") else { return "macmd" }
        return String(bench[...slash]) + "macmd"
    }

    static func render(_ arguments: [String]) -> Int32 {
        var profile = ParseOptions.Profile.gfm
        var iterations = 5
        var samples = false
        var files: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--profile":
                guard i + 1 < arguments.count, let p = ParseOptions.Profile(rawValue: arguments[i + 1]) else {
                    StandardStreams.writeError("macmd-bench render: --profile takes commonmark, gfm or notebook\n")
                    return 2
                }
                profile = p
                i += 1
            case "--iterations":
                guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else {
                    StandardStreams.writeError("macmd-bench render: --iterations takes a positive number\n")
                    return 2
                }
                iterations = n
                i += 1
            case "--samples":
                samples = true
            default:
                files.append(a)
            }
            i += 1
        }
        guard !files.isEmpty else {
            StandardStreams.writeError(usage)
            return 2
        }
        // Peak RSS of `macmd render` first, while this process is still small: Linux keeps a
        // process's RSS high-water mark across exec, so a child spawned from a parent that holds
        // the input would report the parent's size.
        var childRSS: Int?
        if files.count == 1 && !samples {
            childRSS = runChild([macmdPath(), "render", "--unsafe", "--profile", profile.rawValue, files[0]])?.peakRSS
        }
        var contents: [[UInt8]] = []
        for file in files {
            switch StandardStreams.readInput(path: file) {
            case .success(let bytes): contents.append(bytes)
            case .failure(let error):
                StandardStreams.writeError("macmd-bench render: \(error.message)\n")
                return 2
            }
        }
        var input: [UInt8] = []
        if contents.count == 1 {
            input = contents[0]
        } else {
            input.reserveCapacity(contents.reduce(0) { $0 + $1.count + 1 })
            for bytes in contents {
                input.append(contentsOf: bytes)
                if let last = bytes.last, last != 0x0A { input.append(0x0A) }
            }
        }
        contents = []
        let megabytes = Double(input.count) / 1_000_000
        let renderer = HTMLRenderer(options: HTMLOptions(safe: false, headingIDs: profile == .notebook))
        // Like `cmark-gfm FILE > /dev/null`, and like `macmd render`: HTML streams to a sink.
        let devNull = open("/dev/null", O_WRONLY)
        defer { if devNull >= 0 { close(devNull) } }
        var best = Double.infinity
        var outputBytes = 0
        // Round after round on one thread, as a server renders a note again and again: the
        // arrays of the last tree and of the parsers are reused (`ParseScratch`), not allocated
        // and faulted in again for each round. The first round, which allocates them, is the
        // cold one a one-shot `macmd render` runs.
        var scratch = MarkdownParser.ParseScratch()
        for _ in 0..<iterations {
            var written = 0
            let start = now()
            let tree = MarkdownParser.parse(input, options: ParseOptions(profile: profile), scratch: &scratch)
            renderer.render(tree) { chunk in
                written += chunk.count
                StandardStreams.writeAll(chunk, to: devNull)
            }
            scratch.recycle(tree)
            let elapsed = now() - start
            outputBytes = written
            best = min(best, elapsed)
            // `--samples` (for `bench all`): the seconds of each round, one a line, and no more.
            if samples { _ = StandardStreams.writeOutput(Array("\(elapsed)\n".utf8)) }
        }
        if samples { return 0 }
        var report = "input: \(files.count) file(s), \(format(megabytes, 2)) MB\n"
        report += "macmd (\(profile.rawValue)): \(format(megabytes / best)) MB/s (best of \(iterations): \(format(best * 1000)) ms, \(outputBytes) bytes of HTML)\n"
        // The same input as one file, for the child processes.
        let path = "/tmp/macmd-bench-\(getpid()).md"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0, StandardStreams.writeAll(input, to: fd) else {
            StandardStreams.writeError("macmd-bench render: cannot write \(path)\n")
            if fd >= 0 { close(fd) }
            return 1
        }
        close(fd)
        defer { unlink(path) }
        if childRSS == nil {
            childRSS = runChild([macmdPath(), "render", "--unsafe", "--profile", profile.rawValue, path])?.peakRSS
        }
        if let childRSS {
            report += "macmd render peak RSS: \(format(Double(childRSS) / 1_000_000)) MB (budget 5x input + 20 MB = \(format(megabytes * 5 + 20)) MB)\n"
        }
        if let cmark = findExecutable("cmark-gfm") {
            var cmarkBest = Double.infinity
            var cmarkRSS = 0
            for _ in 0..<iterations {
                guard let run = runChild([cmark, "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink",
                                          "-e", "tagfilter", "-e", "tasklist", path]) else { break }
                cmarkBest = min(cmarkBest, run.seconds)
                cmarkRSS = max(cmarkRSS, run.peakRSS)
            }
            if cmarkBest.isFinite {
                let rate = megabytes / cmarkBest
                report += "cmark-gfm (table, strikethrough, autolink, tagfilter, tasklist): \(format(rate)) MB/s (best of \(iterations): \(format(cmarkBest * 1000)) ms), peak RSS \(format(Double(cmarkRSS) / 1_000_000)) MB\n"
                report += "ratio macmd/cmark-gfm throughput: \(format((megabytes / best) / rate, 2))x\n"
            }
        } else {
            report += "cmark-gfm: not installed (apt-get install cmark-gfm): no comparison\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// The working folder, or nil.
    static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func findExecutable(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
