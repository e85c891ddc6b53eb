// `macmd-bench codes [--write] [--root DIR]`: the places that list the diagnostic codes (the
// JSON Schema of `.macmd.json`, its copy for VS Code, the table of docs/notebook.md) against
// `DiagnosticCode` (`DiagnosticCodeDocs`). Without `--write` it names the files that are out of
// date and exits 1; with it, it rewrites them. Run from the package's root, or give `--root`.

import CommandLineIO
import MacMDBench

extension BenchCommand {
    static func codes(_ arguments: [String]) -> Int32 {
        var write = false
        var root = "."
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--write": write = true
            case "--root" where index + 1 < arguments.count:
                index += 1
                root = arguments[index]
            default:
                StandardStreams.writeError("macmd-bench codes: unknown argument '\(arguments[index])'\n" + usage)
                return 2
            }
            index += 1
        }
        var stale: [String] = []
        for path in DiagnosticCodeDocs.schemaFiles + [DiagnosticCodeDocs.docFile] {
            let file = root + "/" + path
            guard case .success(let bytes) = StandardStreams.readInput(path: file) else {
                StandardStreams.writeError("macmd-bench codes: cannot read \(file)\n")
                return 1
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let generated = DiagnosticCodeDocs.regenerated(text, path: path) else {
                StandardStreams.writeError("macmd-bench codes: \(file) has no place for the codes (see DiagnosticCodeDocs)\n")
                return 1
            }
            guard generated != text else { continue }
            if write {
                guard writeFile(file, Array(generated.utf8)) else {
                    StandardStreams.writeError("macmd-bench codes: cannot write \(file)\n")
                    return 1
                }
                _ = StandardStreams.writeOutput(Array("rewrote \(path)\n".utf8))
            } else {
                stale.append(path)
            }
        }
        if !stale.isEmpty {
            StandardStreams.writeError("macmd-bench codes: out of date (run `macmd-bench codes --write`): \(stale.joined(separator: ", "))\n")
            return 1
        }
        return 0
    }
}
