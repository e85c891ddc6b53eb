// `macmd-bench scan DIR [--rounds N] [--no-inspect]`: the serial part of a cold index alone, the
// workspace walk (`WorkspaceScanner.scan`), timed over N rounds (default 20) on a warm page
// cache; `--no-inspect` walks as the server's cold index does (`ScanOptions.inspectsFiles` off).
// Run it under `valgrind --tool=callgrind` or `strace -c` with `--rounds 1` for instruction and
// syscall counts that do not depend on a noisy machine.

import CommandLineIO
import NotebookWorkspace

extension BenchCommand {
    static func scan(_ arguments: [String]) -> Int32 {
        let usage = "usage: macmd-bench scan DIR [--rounds N] [--no-inspect]\n"
        var folder: String?
        var rounds = 20
        var inspects = true
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--rounds", i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
                rounds = n
                i += 1
            } else if arguments[i] == "--no-inspect" {
                inspects = false
            } else if !arguments[i].hasPrefix("-") {
                folder = arguments[i]
            } else {
                StandardStreams.writeError(usage)
                return 2
            }
            i += 1
        }
        guard let folder else {
            StandardStreams.writeError(usage)
            return 2
        }
        var options = ScanOptions()
        options.allowHomeOrRoot = true
        options.inspectsFiles = inspects
        var seconds: [Double] = []
        var found = 0
        for _ in 0..<rounds {
            let start = now()
            let result = WorkspaceScanner.scan(root: folder, options: options)
            seconds.append(now() - start)
            guard result.refusal == nil else {
                StandardStreams.writeError("macmd-bench scan: \(result.logLines.joined(separator: "\n"))\n")
                return 2
            }
            found = result.files.count
        }
        seconds.sort()
        let report = "scan of \(folder)\(inspects ? "" : " (notes not inspected)"): \(found) notes, \(rounds) rounds: median \(format(seconds[seconds.count / 2] * 1000, 2)) ms, "
            + "min \(format((seconds.first ?? 0) * 1000, 2)) ms, max \(format((seconds.last ?? 0) * 1000, 2)) ms\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}
