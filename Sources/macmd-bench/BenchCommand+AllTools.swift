// `macmd-bench all`, the parts that run programs to completion: `macmd check` against
// `rumdl check` and `panache lint` on each notebook, and the renderers on one corpus (MacMD,
// cmark-gfm, md4c through a C driver the benchmark compiles, pulldown-cmark and comrak through
// their Python bindings timed in process), on one core (`taskset -c 0`) and on all cores. Then
// the files: results.json, results.md, the plots, the README's section.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchReport
import CommandLineIO
import MacMDBench

extension AllBench {
    /// What a finished child did.
    struct ChildRun {
        var output: String
        var seconds: Double
        var peakRSS: Int
        var exitStatus: Int32
    }

    /// Runs `arguments` to the end (stdin and stderr /dev/null, stdout read), within `seconds`;
    /// through `goBetween` (`AllBench.peakGoBetween`) when its peak RSS is a figure of the run.
    static func runCaptured(_ arguments: [String], seconds: Double, directory: String? = nil, goBetween: String? = nil) -> ChildRun? {
        var fromChild: [Int32] = [0, 0]
        guard pipe(&fromChild) == 0 else { return nil }
        let started = BenchCommand.now()
        // Through the go-between when there is one: the peak RSS is then the
        // program's own. Without it, Linux floors the figure at what this process holds when it
        // starts the program (posix_spawn shares its memory until the exec): a figure not above
        // that floor is left out rather than reported as the program's.
        let report = "/tmp/macmd-bench-rss-\(getpid()).txt"
        let command = goBetween.map { [$0, report] + arguments } ?? arguments
        let floor = goBetween == nil ? BenchCommand.statusBytes(of: getpid(), "VmRSS:") ?? 0 : 0
        defer { if goBetween != nil { unlink(report) } }
        let pid = BenchCommand.spawn(command) { actions in
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addclose(&actions, fromChild[0])
            if let directory { BenchCommand.spawnIn(directory, &actions) }
        }
        close(fromChild[1])
        guard let pid else {
            close(fromChild[0])
            return nil
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = started + seconds
        var timedOut = false
        while true {
            let remaining = deadline - BenchCommand.now()
            if remaining <= 0 {
                timedOut = true
                kill(-pid, SIGKILL)  // `rss-of` and the program it runs
                kill(pid, SIGKILL)
                break
            }
            var descriptor = pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 60_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let n = chunk.withUnsafeMutableBytes { read(fromChild[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            // Only the start of a linter's report is kept: the timing lines come first or alone.
            if output.count < 1 << 20 { output += chunk[0..<n] }
        }
        close(fromChild[0])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        var elapsed = BenchCommand.now() - started
        guard !timedOut else { return nil }
        #if os(Linux)
        var peak = usage.ru_maxrss * 1024
        #else
        var peak = usage.ru_maxrss
        #endif
        if goBetween != nil {
            // "BYTES SECONDS": the program's own peak and its time from fork to exit.
            guard case .success(let bytes) = StandardStreams.readInput(path: report) else { return nil }
            let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard fields.count == 2, let bytes = Int(fields[0]), let seconds = Double(fields[1]) else { return nil }
            peak = bytes
            elapsed = seconds
        } else if peak <= floor {
            peak = 0
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildRun(output: String(decoding: output, as: UTF8.self), seconds: elapsed, peakRSS: Int(peak), exitStatus: exit)
    }

    /// The first line a command prints (`--version`), or nil.
    static func version(_ arguments: [String]) -> String? {
        guard let run = runCaptured(arguments, seconds: 10) else { return nil }
        let line = run.output.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? nil : line
    }

    // MARK: check

    /// Reads the notebook and reports its problems: `macmd check`, `rumdl check`, `panache lint`.
    mutating func check(_ notebook: BenchNotebook) {
        let linters: [(name: String, command: String, arguments: [String], install: String)] = [
            ("macmd", BenchCommand.macmdPath(), ["check"], ""),
            ("rumdl", "rumdl", ["check", "--no-cache"], "pip install rumdl"),
            ("panache", "panache", ["lint", "--no-cache"], "pip install panache-cli"),
        ]
        let title = "Check the notebook (`macmd check`, `rumdl check`, `panache lint`)"
        let size = notebook.notes.count
        for linter in linters {
            guard wants(linter.name) else { continue }
            guard let path = linter.name == "macmd" ? linter.command : Self.findPeer(linter.command) else {
                results.append(BenchResult(scenario: "check.notebook", title: title, group: "check", subject: linter.name, notes: size,
                                           unit: "s", outcome: .skipped("not installed (\(linter.install))")))
                continue
            }
            var samples: [Double] = []
            var peak = 0
            var failure: String?
            var rounds = ScenarioRounds(warmUp: 1, planned: options.smoke ? 1 : 3, budget: options.budget)
            while let counted = rounds.next() {
                guard let run = Self.runCaptured([path] + linter.arguments + [notebook.root], seconds: options.timeout * 20,
                                                 goBetween: goBetween) else {
                    failure = "did not finish in \(BenchCommand.format(options.timeout * 20, 0)) s"
                    break
                }
                // Problems found exit 1; a crash or a usage error is no figure.
                guard run.exitStatus <= 1 else {
                    failure = "exit status \(run.exitStatus)"
                    break
                }
                if counted {
                    samples.append(run.seconds)
                    peak = max(peak, run.peakRSS)
                }
            }
            log("  \(linter.name) check: " + (failure ?? samples.map { BenchCommand.format($0, 2) + " s" }.joined(separator: ", ")))
            results.append(BenchResult(scenario: "check.notebook", title: title, group: "check", subject: linter.name, notes: size, unit: "s",
                                       outcome: failure.map { .failed($0) } ?? .measured(samples), peakResidentBytes: failure == nil ? peak : nil,
                                       figures: rounds.figures(["notebookBytes": Double(notebook.bytes)])))
        }
    }

    // MARK: render

    static let md4cDriver = """
    /* The md4c side of `macmd-bench all`: FILE ROUNDS → the seconds of each render (GFM). */
    #include <md4c-html.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <time.h>
    static FILE *sink;
    static void out(const MD_CHAR *text, MD_SIZE size, void *data) { fwrite(text, 1, size, sink); }
    int main(int argc, char **argv) {
        FILE *f = fopen(argv[1], "rb"); if (!f) return 2;
        fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
        char *text = malloc(n); if (fread(text, 1, n, f) != (size_t)n) return 2; fclose(f);
        sink = fopen("/dev/null", "wb");
        for (int round = 0; round < atoi(argv[2]); round++) {
            struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
            md_html(text, n, out, NULL, MD_DIALECT_GITHUB, 0);
            fflush(sink); clock_gettime(CLOCK_MONOTONIC, &b);
            printf("%.9f\\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
        }
        return 0;
    }

    """

    /// The go-between through which programs whose peak RSS is a figure are run: FILE COMMAND…
    /// → runs COMMAND (a fork of this small process, so Linux's floor on its peak RSS is this
    /// process's megabyte, not the benchmark's hundreds), writes "BYTES SECONDS" to FILE, exits
    /// as COMMAND did. It leads its own process group, so a timeout kills COMMAND with it.
    static let goBetweenSource = """
    #include <stdio.h>
    #include <sys/resource.h>
    #include <sys/wait.h>
    #include <time.h>
    #include <unistd.h>
    int main(int argc, char **argv) {
        if (argc < 3) return 2;
        setpgid(0, 0);
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
        pid_t pid = fork();
        if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
        if (pid < 0) return 127;
        int status; struct rusage usage;
        while (wait4(pid, &status, 0, &usage) < 0) {}
        clock_gettime(CLOCK_MONOTONIC, &b);
        FILE *f = fopen(argv[1], "w");
        if (f) { fprintf(f, "%ld %.9f\\n", usage.ru_maxrss * 1024L, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9); fclose(f); }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

    """

    /// Compiles `goBetweenSource` into the output folder; nil without a C compiler.
    static func buildGoBetween(in folder: String) -> String? {
        let path = folder + "/rss-of"
        guard BenchCommand.writeFile(path + ".c", Array(goBetweenSource.utf8)), let cc = cCompiler(),
              let run = runCaptured([cc, "-O2", "-o", path, path + ".c"], seconds: 120), run.exitStatus == 0 else { return nil }
        return path
    }

    /// cc, gcc or clang, the first on PATH.
    static func cCompiler() -> String? {
        BenchCommand.findExecutable("cc") ?? BenchCommand.findExecutable("gcc") ?? BenchCommand.findExecutable("clang")
    }

    static let pythonDriver = """
    import sys, time
    name, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = open(path, encoding="utf-8").read()
    if name == "pyromark":
        import pyromark
        options = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH | pyromark.Options.ENABLE_TASKLISTS
        render = lambda: pyromark.html(text, options=options)
    else:
        import comrak
        extensions = comrak.ExtensionOptions()
        for flag in ("table", "strikethrough", "autolink", "tagfilter", "tasklist"):
            setattr(extensions, flag, True)
        render = lambda: comrak.render_markdown(text, extension_options=extensions)
    for _ in range(rounds):
        start = time.perf_counter()
        render()
        print("%.9f" % (time.perf_counter() - start), flush=True)

    """

    /// The corpus to render: `--corpus`, else the one `Fixtures/bench/make-corpus.sh` builds from
    /// ../shared/corpus, else (and for `--smoke`) the notes of the largest notebook.
    mutating func corpus() -> (path: String, bytes: Int, what: String)? {
        if let corpus = options.corpus {
            guard case .success(let bytes) = StandardStreams.readInput(path: corpus) else { return nil }
            return (corpus, bytes.count, corpus)
        }
        let path = options.out + "/corpus.md"
        // The script is bash (`set -o pipefail`); under /bin/sh (dash) it failed, and runs used
        // the largest notebook's notes instead of the real-world corpus.
        if !options.smoke, access("Fixtures/bench/make-corpus.sh", R_OK) == 0, let bash = BenchCommand.findExecutable("bash"),
           let run = Self.runCaptured([bash, "Fixtures/bench/make-corpus.sh", path], seconds: 300), run.exitStatus == 0,
           case .success(let bytes) = StandardStreams.readInput(path: path), bytes.count > 1_000_000 {
            return (path, bytes.count, "Fixtures/bench/make-corpus.sh (the Rust book and the tldr pages of ../shared/corpus)")
        }
        guard let size = options.sizes.last else { return nil }
        let notebook = options.out + "/notebooks/n\(size)"
        var all: [UInt8] = []
        NotebookGenerator(notes: size, seed: options.seed).generate { file in
            guard file.isNote else { return }
            all += file.bytes
            all.append(0x0A)
        }
        guard BenchCommand.writeFile(path, all) else { return nil }
        return (path, all.count, "the notes of \(notebook)")
    }

    mutating func render() {
        guard let corpus = corpus() else {
            log("macmd-bench all: no corpus to render")
            failures += 1
            return
        }
        log("render: \(BenchCommand.format(Double(corpus.bytes) / 1_000_000, 2)) MB from \(corpus.what)")
        let rounds = options.smoke ? 2 : 5
        var renderers: [(name: String, arguments: [String]?, skipped: String?)] = []
        renderers.append(("macmd", [BenchCommand.benchPath(), "render", "--samples", "--iterations", String(rounds), corpus.path], nil))
        if wants("cmark-gfm") {
            if let cmark = BenchCommand.findExecutable("cmark-gfm") {
                renderers.append(("cmark-gfm", [cmark, "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter", "-e", "tasklist", corpus.path], nil))
                subjects.append(BenchSubject(name: "cmark-gfm", kind: "renderer", version: Self.version([cmark, "--version"])))
            } else {
                renderers.append(("cmark-gfm", nil, "not installed (apt-get install cmark-gfm)"))
            }
        }
        if wants("md4c") {
            let driver = options.out + "/md4c-driver"
            let source = driver + ".c"
            if BenchCommand.writeFile(source, Array(Self.md4cDriver.utf8)),
               let cc = Self.cCompiler(),
               let run = Self.runCaptured([cc, "-O2", "-o", driver, source, "-lmd4c-html", "-lmd4c"], seconds: 120), run.exitStatus == 0 {
                renderers.append(("md4c", [driver, corpus.path, String(rounds)], nil))
                subjects.append(BenchSubject(name: "md4c", kind: "renderer", version: "libmd4c-html (MD_DIALECT_GITHUB)"))
            } else {
                renderers.append(("md4c", nil, "cannot build the driver (apt-get install libmd4c-html0-dev and a C compiler)"))
            }
        }
        let python = Self.peerPython()
        for (name, module) in [("pulldown-cmark", "pyromark"), ("comrak", "comrak")] where wants(name) {
            let script = options.out + "/render.py"
            guard let python, BenchCommand.writeFile(script, Array(Self.pythonDriver.utf8)),
                  let probe = Self.runCaptured([python, "-c", "import \(module); print(getattr(\(module), '__version__', ''))"], seconds: 30),
                  probe.exitStatus == 0 else {
                renderers.append((name, nil, "not installed (pip install \(module))"))
                continue
            }
            renderers.append((name, [python, script, module, corpus.path, String(rounds)], nil))
            let version = probe.output.split(separator: "\n").first.map { "\(module) \($0)" } ?? module
            subjects.append(BenchSubject(name: name, kind: "renderer", version: version))
        }
        // `taskset -c 0` before a command on one core; nil without taskset.
        let pin = BenchCommand.findExecutable("taskset").map { [$0, "-c", "0"] }
        // Each renderer runs `repetitions` times, the renderers in turn (md4c, macmd, cmark-gfm,
        // md4c, macmd, …), so a drift of this machine's speed during the scenario falls on all
        // of them alike instead of on whichever ran while the machine was slow.
        let repetitions = options.smoke ? 1 : 5
        for (scenario, title, pinned) in [("render.one-core", "Render throughput, one core", true), ("render.all-cores", "Render throughput, all cores", false)] {
            let prefix = pinned ? pin ?? [] : []
            var samples = [[Double]](repeating: [], count: renderers.count)
            var peaks = [Int](repeating: 0, count: renderers.count)
            var failures = [String?](repeating: nil, count: renderers.count)
            for repetition in 0..<repetitions {
                for (index, renderer) in renderers.enumerated() {
                    guard let arguments = renderer.arguments, !pinned || pin != nil, failures[index] == nil else { continue }
                    // A process-timed renderer (cmark-gfm) runs once per sample, after one run
                    // that warms up; the others time each render in process, one line per
                    // round, the first round a warm-up.
                    let inProcess = renderer.name != "cmark-gfm"
                    for run in 0..<(inProcess || repetition > 0 ? 1 : 2) {
                        guard let result = Self.runCaptured(prefix + arguments, seconds: 600, goBetween: goBetween), result.exitStatus == 0 else {
                            failures[index] = "did not run to the end"
                            break
                        }
                        peaks[index] = max(peaks[index], result.peakRSS)
                        if inProcess {
                            samples[index] += result.output.split(separator: "\n").compactMap { Double($0) }.dropFirst().map { Double(corpus.bytes) / 1_000_000 / $0 }
                        } else if run == 1 || repetition > 0 {
                            samples[index].append(Double(corpus.bytes) / 1_000_000 / result.seconds)
                        }
                    }
                }
            }
            for (index, renderer) in renderers.enumerated() {
                func add(_ outcome: BenchOutcome, peak: Int? = nil) {
                    results.append(BenchResult(scenario: scenario, title: title, group: "render", subject: renderer.name, unit: "MB/s",
                                               outcome: outcome, peakResidentBytes: peak, figures: ["inputBytes": Double(corpus.bytes)]))
                }
                guard renderer.arguments != nil else {
                    add(.skipped(renderer.skipped ?? "not installed"))
                    continue
                }
                guard !pinned || pin != nil else {
                    add(.notApplicable("taskset is not installed"))
                    continue
                }
                var failure = failures[index]
                var peak = peaks[index]
                // MacMD's memory is that of `macmd render FILE` as a user runs it (it streams the
                // HTML), not of the timing loop, which keeps the input and a tree between rounds.
                if renderer.name == "macmd", failure == nil,
                   let run = Self.runCaptured(prefix + [BenchCommand.macmdPath(), "render", "--profile", "gfm", corpus.path],
                                              seconds: 600, goBetween: goBetween), run.exitStatus == 0 {
                    peak = run.peakRSS
                }
                if samples[index].isEmpty && failure == nil { failure = "printed no timings" }
                log("  \(renderer.name) \(pinned ? "one core" : "all cores"): " + (failure ?? samples[index].map { BenchCommand.format($0, 1) }.joined(separator: ", ") + " MB/s"))
                add(failure.map { .failed($0) } ?? .measured(samples[index]), peak: failure == nil ? peak : nil)
            }
        }
    }

    /// The Python with the PyPI peers: `.build/peers/bin/python3` when there, else python3.
    static func peerPython() -> String? {
        installedPeer("python3") ?? BenchCommand.findExecutable("python3")
    }
}
