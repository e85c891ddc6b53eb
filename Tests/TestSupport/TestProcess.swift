import Foundation
import XCTest

/// A failure that says what to do about it.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The `macmd` executable the test build produced.
public enum MacmdBinary {
    /// `$MACMD_BIN`, else `macmd` beside the test bundle (`.build/<triple>/<config>/`), else
    /// `.build/debug/macmd`; throws, saying where it looked, when there is none. The tests never
    /// build it themselves: `swift test` builds it with them.
    public static func url() throws -> URL {
        try url(named: "macmd", variable: "MACMD_BIN")
    }

    /// `macmd-bench`, the benchmarks' executable, found as `macmd` is (`$MACMD_BENCH_BIN` first).
    public static func benchURL() throws -> URL {
        try url(named: "macmd-bench", variable: "MACMD_BENCH_BIN")
    }

    static func url(named name: String, variable: String) throws -> URL {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw TestSupportError("\(variable) names \(path), which is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            // On Linux the runner is `.build/<triple>/<config>/MacMDPackageTests.xctest` itself.
            folders.append(executable.deletingLastPathComponent())
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(TestPaths.packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestSupportError("no \(name) executable in \(folders.map(\.path)): run the tests with `swift test` "
                               + "(which builds it), or name one with \(variable)")
    }
}

/// Runs a program to completion, with a deadline.
public enum TestProcess {
    /// What a run left: its status (nil when it was killed at the deadline) and its output.
    public struct Result: Sendable {
        public let status: Int32?
        public let stdout: String
        public let stderr: String
        public var timedOut: Bool { status == nil }
    }

    /// The environment of a child: this process's, in English whatever the developer's shell
    /// speaks (`LC_ALL`, `LC_MESSAGES` and `LANG` replaced by `LANG=C.UTF-8`, since MacMD writes
    /// its messages in the language they name), then `overrides`.
    public static func childEnvironment(_ overrides: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[name] = nil }
        environment["LANG"] = "C.UTF-8"
        for (key, value) in overrides { environment[key] = value }
        return environment
    }

    /// Runs `executable` with `arguments`, `input` on its stdin (nothing when nil), and kills it
    /// after `timeout` seconds. Output goes to files, not pipes, so a chatty child never blocks.
    public static func run(_ executable: URL, _ arguments: [String], input: [UInt8]? = nil,
                           environment: [String: String] = [:], in folder: URL? = nil,
                           timeout: TimeInterval = 60) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        let inURL = scratch.appendingPathComponent("stdin")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil),
              FileManager.default.createFile(atPath: inURL.path, contents: Data(input ?? [])) else {
            throw TestSupportError("cannot create files in \(scratch.path)")
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? inHandle.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = TestProcess.childEnvironment(environment)
        process.standardInput = input == nil ? FileHandle.nullDevice : inHandle
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var status: Int32?
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            status = process.terminationStatus
        }
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Result(status: status, stdout: stdout, stderr: stderr)
    }

    /// A home of its own for an editor a test runs: `HOME` and the XDG folders in `folder`, so no
    /// configuration of the developer's is read and nothing of the test's is left behind.
    public static func isolatedHome(in folder: URL) -> [String: String] {
        [
            "HOME": folder.path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
        ]
    }

    /// Runs `executable` with `arguments` in a child that inherits no file descriptor but its
    /// standard input (from /dev/null) and output (to files), waiting at most `timeout` seconds.
    /// For programs that leave a daemon behind (a tmux client starts its server): Foundation's
    /// `Process` waits for every holder of a descriptor it gives the child, so a daemon that
    /// inherits one keeps `waitUntilExit` waiting for as long as the daemon runs.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             timeout: TimeInterval = 20) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path, errPath = scratch.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Every other descriptor this process has open now (glibc's closefrom action is not
        // visible to Swift).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, variables)
        guard spawned == 0 else { throw TestSupportError("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var exited: Int32?
        while exited == nil {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            } else if waited < 0 && errno != EINTR {
                break
            } else if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            } else {
                usleep(1_000)
            }
        }
        return Result(status: exited, stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// Runs the built `macmd-bench` with `arguments`; a run that outlives `timeout` fails the test.
    public static func macmdBench(_ arguments: [String], in folder: URL? = nil, timeout: TimeInterval = 60,
                                  file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let result = try run(try MacmdBinary.benchURL(), arguments, in: folder, timeout: timeout)
        if result.timedOut {
            XCTFail("macmd-bench \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s and was killed", file: file, line: line)
        }
        return result
    }

    /// Runs the built `macmd` with `arguments`; a run that outlives `timeout` fails the test.
    public static func macmd(_ arguments: [String], input: [UInt8]? = nil, in folder: URL? = nil, timeout: TimeInterval = 60,
                             file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let result = try run(try MacmdBinary.url(), arguments, input: input, in: folder, timeout: timeout)
        if result.timedOut {
            XCTFail("macmd \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s and was killed", file: file, line: line)
        }
        return result
    }
}

/// The CommonMark and GFM spec data (CC-BY-SA, kept outside the repository).
public enum SpecData {
    /// `$MACMD_SPEC_DIR`, else `../shared/spec` beside the package (or `../../shared/spec` for a
    /// worktree one level deeper); throws `XCTSkip`, saying where it looked, when none holds
    /// `file`.
    public static func url(_ file: String) throws -> URL {
        let candidates = folders("spec", variable: "MACMD_SPEC_DIR")
        for folder in candidates {
            let url = folder.appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw XCTSkip("spec data \(file) not found in \(candidates.map(\.path)) (set MACMD_SPEC_DIR)")
    }

    /// Where a folder `name` of `../shared` may be: `$variable`, else `../shared/name` beside the
    /// package, else `../../shared/name` (for a worktree one level deeper).
    static func folders(_ name: String, variable: String) -> [URL] {
        var candidates: [URL] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment[variable], !fromEnvironment.isEmpty {
            candidates.append(URL(fileURLWithPath: fromEnvironment))
        }
        candidates.append(TestPaths.packageRoot.appendingPathComponent("../shared/" + name).standardizedFileURL)
        candidates.append(TestPaths.packageRoot.appendingPathComponent("../../shared/" + name).standardizedFileURL)
        return candidates
    }
}

/// The real Markdown of `../shared/corpus` (the Rust book, the tldr pages), unpacked once per
/// machine under the temporary folder; kept outside the repository like the spec data.
public enum CorpusData {
    /// The folder `name` (`rust-book`, `tldr`) of the corpus, unpacked from `name.tar.gz` in
    /// `$MACMD_CORPUS_DIR`, else `../shared/corpus` beside the package; throws `XCTSkip`, saying
    /// where it looked, when no archive is there or it cannot be unpacked.
    public static func folder(_ name: String) throws -> URL {
        let candidates = SpecData.folders("corpus", variable: "MACMD_CORPUS_DIR")
        guard let archive = candidates.map({ $0.appendingPathComponent(name + ".tar.gz") })
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw XCTSkip("corpus \(name).tar.gz not found in \(candidates.map(\.path)) (set MACMD_CORPUS_DIR)")
        }
        let target = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("macmd-corpus-\(getuid())")
        let folder = target.appendingPathComponent(name)
        let done = target.appendingPathComponent(name + ".unpacked")
        if FileManager.default.fileExists(atPath: done.path) { return folder }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["tar", "-xzf", archive.path, "-C", target.path])
        guard result.status == 0 else { throw XCTSkip("cannot unpack \(archive.path): \(result.stderr)") }
        _ = FileManager.default.createFile(atPath: done.path, contents: Data())
        return folder
    }

    /// The Markdown files under `folder`, sorted by path.
    public static func markdownFiles(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
    }
}
