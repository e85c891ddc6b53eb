// `macmd bench`: benchmarks meant for release builds (`swift build -c release`).
//
//   macmd bench render [--profile P] [--iterations N] FILE…
//       Parses and renders the files, concatenated into one document as cmark-gfm does with
//       several files, N times (default 5); prints the best MB/s, the peak RSS, and, when
//       `cmark-gfm` is on PATH, its best MB/s on the same input with the table,
//       strikethrough, autolink, tagfilter and tasklist extensions.
//   macmd bench pathological [--scale N]
//       Runs every case of ../shared/spec/PATHOLOGICAL.md at 1x and Nx (default 10) of the
//       reference size and prints the seconds each took and whether the output was right.

import Foundation
import MacMDBench
import MarkdownHTML
import MarkdownSyntax

enum BenchCommand {
    static let usage = """
        usage: macmd bench render [--profile commonmark|gfm|notebook] [--iterations N] FILE...
               macmd bench pathological [--scale N]

        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let sub = arguments.first else {
            StandardStreams.writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "render": return render(rest)
        case "pathological": return pathological(rest)
        case "-h", "--help":
            StandardStreams.writeOutput(Array(usage.utf8))
            return 0
        default:
            StandardStreams.writeError("macmd bench: unknown benchmark '\(sub)'\n" + usage)
            return 2
        }
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

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

    static func format(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    static func render(_ arguments: [String]) -> Int32 {
        var profile = ParseOptions.Profile.gfm
        var iterations = 5
        var files: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--profile":
                guard i + 1 < arguments.count, let p = ParseOptions.Profile(rawValue: arguments[i + 1]) else {
                    StandardStreams.writeError("macmd bench render: --profile takes commonmark, gfm or notebook\n")
                    return 2
                }
                profile = p
                i += 1
            case "--iterations":
                guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else {
                    StandardStreams.writeError("macmd bench render: --iterations takes a positive number\n")
                    return 2
                }
                iterations = n
                i += 1
            default:
                files.append(a)
            }
            i += 1
        }
        guard !files.isEmpty else {
            StandardStreams.writeError(usage)
            return 2
        }
        var input: [UInt8] = []
        for file in files {
            switch StandardStreams.readInput(path: file) {
            case .success(let bytes):
                input.append(contentsOf: bytes)
                if let last = bytes.last, last != 0x0A { input.append(0x0A) }
            case .failure(let error):
                StandardStreams.writeError("macmd bench render: \(error.message)\n")
                return 2
            }
        }
        let megabytes = Double(input.count) / 1_000_000
        let renderer = HTMLRenderer(options: HTMLOptions(safe: false, headingIDs: profile == .notebook))
        var best = Double.infinity
        var outputBytes = 0
        for _ in 0..<iterations {
            let start = now()
            let tree = MarkdownParser.parse(input, options: ParseOptions(profile: profile))
            let html = renderer.render(tree)
            let elapsed = now() - start
            outputBytes = html.count
            if ProcessInfo.processInfo.environment["MACMD_BENCH_DEBUG"] != nil {
                StandardStreams.writeError("nodes \(tree.nodes.count) (cap \(tree.nodes.capacity)) content \(tree.content.count) (cap \(tree.content.capacity)) map \(tree.contentToSource.count) links \(tree.links.count) html cap \(html.capacity) rss \(peakRSS() / 1_000_000)\n")
            }
            best = min(best, elapsed)
        }
        var report = "input: \(files.count) file(s), \(format(megabytes, 2)) MB\n"
        report += "macmd (\(profile.rawValue)): \(format(megabytes / best)) MB/s (best of \(iterations): \(format(best * 1000)) ms, \(outputBytes) bytes of HTML)\n"
        report += "macmd peak RSS: \(format(Double(peakRSS()) / 1_000_000)) MB (input \(format(megabytes)) MB; budget 5x input + 20 MB = \(format(megabytes * 5 + 20)) MB)\n"
        if let cmark = findExecutable("cmark-gfm") {
            let path = NSTemporaryDirectory() + "macmd-bench-\(getpid()).md"
            if FileManager.default.createFile(atPath: path, contents: Data(input)) {
                defer { try? FileManager.default.removeItem(atPath: path) }
                var cmarkBest = Double.infinity
                for _ in 0..<iterations {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: cmark)
                    process.arguments = ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink",
                                         "-e", "tagfilter", "-e", "tasklist", path]
                    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
                    let start = now()
                    do {
                        try process.run()
                        process.waitUntilExit()
                    } catch {
                        break
                    }
                    cmarkBest = min(cmarkBest, now() - start)
                }
                if cmarkBest.isFinite {
                    let rate = megabytes / cmarkBest
                    report += "cmark-gfm (table, strikethrough, autolink, tagfilter, tasklist): \(format(rate)) MB/s (best of \(iterations): \(format(cmarkBest * 1000)) ms)\n"
                    report += "ratio macmd/cmark-gfm: \(format((megabytes / best) / rate, 2))x\n"
                }
            }
        } else {
            report += "cmark-gfm: not installed (apt-get install cmark-gfm) — no comparison\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func pathological(_ arguments: [String]) -> Int32 {
        var scale = 10
        if arguments.count == 2, arguments[0] == "--scale", let n = Int(arguments[1]), n > 0 {
            scale = n
        } else if !arguments.isEmpty {
            StandardStreams.writeError(usage)
            return 2
        }
        let small = PathologicalCases.cases(multiplier: 1)
        let large = PathologicalCases.cases(multiplier: scale)
        var failures = 0
        var report = "case                                              bytes(1x)   1x (s)   \(scale)x (s)  ratio  output (checked at 1x)\n"
        for (one, many) in zip(small, large) {
            // Output is checked at 1x; ICU's regex engine gives up on the 10x outputs of the
            // nested cases (its backtracking stack), which says nothing about our HTML.
            let (t1, ok1) = time(one)
            let (tn, _) = time(many, check: false)
            let okn = true
            if !ok1 { failures += 1 }
            let name = one.name.padding(toLength: 48, withPad: " ", startingAt: 0)
            let bytes = String(one.input.utf8.count).leftPad(10)
            report += "\(name) \(bytes) \(format(t1, 3).leftPad(8)) \(format(tn, 3).leftPad(8)) \(format(tn / max(t1, 1e-6), 1).leftPad(6))  \(ok1 && okn ? "ok" : "WRONG")\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return failures == 0 ? 0 : 1
    }

    /// Parses and renders one case; returns the seconds it took and whether the output is right.
    static func time(_ testCase: PathologicalCases.Case, check: Bool = true) -> (Double, Bool) {
        let input = Array(testCase.input.utf8)
        let start = now()
        let tree = MarkdownParser.parse(input, options: ParseOptions(extensions: testCase.extensions))
        let html = HTMLRenderer(options: HTMLOptions(safe: false)).renderString(tree)
        let elapsed = now() - start
        guard check else { return (elapsed, true) }
        if let verify = testCase.verify { return (elapsed, verify(html)) }
        if let exact = testCase.exact { return (elapsed, html == exact) }
        guard let regex = try? NSRegularExpression(pattern: testCase.check, options: [.dotMatchesLineSeparators]) else {
            return (elapsed, false)
        }
        let ok = regex.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) != nil
        return (elapsed, ok)
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
