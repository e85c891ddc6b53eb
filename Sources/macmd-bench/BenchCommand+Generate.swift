// `macmd-bench generate [--notes N] [--seed S] [--force] DIR`: writes a synthetic notebook
// (`NotebookGenerator`) for the index benchmarks and prints one line: notes, bytes, median note
// size, folders and the time taken.
//
// Invariants:
// - A DIR that exists and holds anything is refused unless `--force` (then files are
//   overwritten in place; files the generator does not write are left alone).
// - Files are written with open/write/close and folders made with mkdir, no Foundation; each
//   folder is created once, parents first.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import MacMDBench

extension BenchCommand {
    static let generateUsage = "usage: macmd-bench generate [--notes N] [--seed S] [--force] DIR\n"

    static func generate(_ arguments: [String]) -> Int32 {
        var notes = 1_000
        var seed: UInt64 = 1
        var force = false
        var directory: String?
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            switch argument {
            case "--notes":
                guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n >= 0 else {
                    StandardStreams.writeError("macmd-bench generate: --notes takes a number ≥ 0\n")
                    return 2
                }
                notes = n
                i += 1
            case "--seed":
                guard i + 1 < arguments.count, let s = UInt64(arguments[i + 1]) else {
                    StandardStreams.writeError("macmd-bench generate: --seed takes a number ≥ 0\n")
                    return 2
                }
                seed = s
                i += 1
            case "--force":
                force = true
            case "-h", "--help":
                StandardStreams.writeOutput(Array(generateUsage.utf8))
                return 0
            default:
                guard directory == nil, !argument.hasPrefix("-") else {
                    StandardStreams.writeError("macmd-bench generate: unexpected argument '\(argument)'\n" + generateUsage)
                    return 2
                }
                directory = argument
            }
            i += 1
        }
        guard var root = directory, !root.isEmpty else {
            StandardStreams.writeError(generateUsage)
            return 2
        }
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        switch directoryState(root) {
        case .missing:
            guard makeDirectories(root) else {
                StandardStreams.writeError("macmd-bench generate: cannot create \(root): \(String(cString: strerror(errno)))\n")
                return 1
            }
        case .notADirectory:
            StandardStreams.writeError("macmd-bench generate: \(root) exists and is not a directory\n")
            return 1
        case .nonEmpty where !force:
            StandardStreams.writeError("macmd-bench generate: \(root) is not empty (use --force to write into it anyway)\n")
            return 1
        case .empty, .nonEmpty:
            break
        }

        let start = now()
        let written: GeneratedNotebook
        switch writeNotebook(root: root, notes: notes, seed: seed) {
        case .success(let notebook): written = notebook
        case .failure(let failure):
            StandardStreams.writeError("macmd-bench generate: \(failure.message)\n")
            return 1
        }
        var sizes = written.noteSizes
        let totalBytes = written.totalBytes, attachmentCount = written.attachments, folders = written.folders
        let elapsed = now() - start
        sizes.sort()
        let median: Double
        if sizes.isEmpty {
            median = 0
        } else if sizes.count % 2 == 1 {
            median = Double(sizes[sizes.count / 2])
        } else {
            median = Double(sizes[sizes.count / 2 - 1] + sizes[sizes.count / 2]) / 2
        }
        let line = "generated \(sizes.count) notes + \(attachmentCount) images in \(root): \(format(Double(totalBytes) / 1_000_000, 2)) MB, "
            + "median note \(format(median / 1000, 2)) KB, \(folders) folders, seed \(seed), \(format(elapsed, 2)) s\n"
        StandardStreams.writeOutput(Array(line.utf8))
        return 0
    }

    /// What `writeNotebook` wrote.
    struct GeneratedNotebook {
        var noteSizes: [Int] = []
        var notePaths: [String] = []
        var totalBytes = 0
        var attachments = 0
        var folders = 0
    }

    struct WriteFailure: Error {
        var message: String
    }

    /// Writes the notebook of `NotebookGenerator(notes:seed:)` into `root` (which exists), each
    /// file's bytes through `adjust` (the benchmarks add links to a note); folders are made
    /// parents first, once each.
    static func writeNotebook(root: String, notes: Int, seed: UInt64,
                              adjust: (NotebookGenerator.File) -> [UInt8] = { $0.bytes }) -> Result<GeneratedNotebook, WriteFailure> {
        var created: Set<String> = []
        var result = GeneratedNotebook()
        result.noteSizes.reserveCapacity(notes)
        var failure: String?
        NotebookGenerator(notes: notes, seed: seed).generate { file in
            guard failure == nil else { return }
            // Parents first: `a/`, then `a/b/`.
            var folderEnd = file.path.utf8.startIndex
            var index = file.path.utf8.startIndex
            while index != file.path.utf8.endIndex {
                if file.path.utf8[index] == UInt8(ascii: "/") { folderEnd = index }
                index = file.path.utf8.index(after: index)
            }
            if folderEnd != file.path.utf8.startIndex {
                var component = file.path.utf8.startIndex
                while component < folderEnd {
                    var next = file.path.utf8.index(after: component)
                    while next < folderEnd, file.path.utf8[next] != UInt8(ascii: "/") { next = file.path.utf8.index(after: next) }
                    let folder = String(file.path[..<next])
                    if created.insert(folder).inserted {
                        if mkdir(root + "/" + folder, 0o755) != 0, errno != EEXIST {
                            failure = "cannot create \(root)/\(folder): \(String(cString: strerror(errno)))"
                            return
                        }
                        result.folders += 1
                    }
                    component = next
                }
            }
            let path = root + "/" + file.path
            let bytes = adjust(file)
            guard writeFile(path, bytes) else {
                failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                return
            }
            result.totalBytes += bytes.count
            if file.isNote {
                result.noteSizes.append(bytes.count)
                result.notePaths.append(file.path)
            } else {
                result.attachments += 1
            }
        }
        if let failure { return .failure(WriteFailure(message: failure)) }
        return .success(result)
    }

    private enum DirectoryState {
        case missing, notADirectory, empty, nonEmpty
    }

    private static func directoryState(_ path: String) -> DirectoryState {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return .notADirectory }
        guard let handle = opendir(path) else { return .nonEmpty }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { return .nonEmpty }
        }
        return .empty
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) -> Bool {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { return false }
            prefix += "/"
        }
        return true
    }
}
