// `macmd-bench fuzz [TARGET…] [--seconds N] [--seed S] [--save DIR]`: hours of fuzzing of
// every reader of untrusted input (`MacMDFuzz`), where `swift test` runs a small budget.
//
// A supervisor and a worker. The worker (`--worker`) makes input after input of one target
// (`FuzzTarget.input(seed:index:)`, a function of the seed and the index) and checks each,
// writing the index to the supervisor's pipe before it starts on it. When the worker reports a
// failed check, dies (a trap, a crash) or goes quiet for 10 s (a hang), the supervisor makes the
// same input again from the seed and the index, saves it as `DIR/<target>/<seed>-<index>.bin`
// (default `Fixtures/fuzz`: `FuzzTests` replays every file there), says how to reproduce it,
// and starts a new worker after it. With no target named, every target gets an equal share of
// the time.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import MacMDFuzz

extension BenchCommand {
    static let fuzzUsage = "usage: macmd-bench fuzz [TARGET...] [--seconds N] [--seed S] [--save DIR]\n"
        + "       macmd-bench fuzz --worker TARGET [--seed S] [--from N] [--count N]\n"
        + "targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n"

    static func fuzz(_ arguments: [String]) -> Int32 {
        if arguments.first == "--worker" { return fuzzWorker(Array(arguments.dropFirst())) }
        var targets: [FuzzTarget] = []
        var seconds = 60.0
        var clock = timeval()
        gettimeofday(&clock, nil)
        var seed = UInt64(clock.tv_sec) &* 1_000_000 &+ UInt64(clock.tv_usec)
        var saveFolder = "Fixtures/fuzz"
        var i = 0
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch arguments[i] {
            case "--seconds":
                guard let value, let n = Double(value), n > 0 else { StandardStreams.writeError(fuzzUsage); return 2 }
                seconds = n
                i += 1
            case "--seed":
                guard let value, let n = UInt64(value) else { StandardStreams.writeError(fuzzUsage); return 2 }
                seed = n
                i += 1
            case "--save":
                guard let value else { StandardStreams.writeError(fuzzUsage); return 2 }
                saveFolder = value
                i += 1
            case "all":
                targets = FuzzTarget.allCases
            default:
                guard let target = FuzzTarget(rawValue: arguments[i]) else { StandardStreams.writeError(fuzzUsage); return 2 }
                targets.append(target)
            }
            i += 1
        }
        if targets.isEmpty { targets = FuzzTarget.allCases }
        var failures = 0
        StandardStreams.writeError("fuzzing \(targets.map(\.rawValue).joined(separator: ", ")) for \(format(seconds, 0)) s, seed \(seed)\n")
        for target in targets {
            let share = seconds / Double(targets.count)
            let (inputs, found) = superviseFuzzing(target, seed: seed, seconds: share, saveFolder: saveFolder)
            failures += found
            StandardStreams.writeError("\(target.rawValue): \(inputs) inputs in \(format(share, 0)) s (\(format(Double(inputs) / share, 0))/s), \(found) failures\n")
        }
        return failures == 0 ? 0 : 1
    }

    /// Runs workers for `target` for `seconds`; the inputs tried and the failures found.
    static func superviseFuzzing(_ target: FuzzTarget, seed: UInt64, seconds: Double, saveFolder: String) -> (Int, Int) {
        let deadline = now() + seconds
        var next: UInt64 = 0
        var inputs = 0
        var failures = 0
        while now() < deadline {
            guard let worker = FuzzWorkerProcess.spawn(benchPath(), target: target, seed: seed, from: next) else {
                StandardStreams.writeError("macmd-bench fuzz: cannot start a worker\n")
                return (inputs, failures + 1)
            }
            var current = next
            var started = false
            var outcome = "a hang (no progress for 10 s)"
            var status: Int32 = 0
            var finished = false
            reading: while true {
                if now() >= deadline {
                    worker.terminate()
                    return (inputs + (started ? 1 : 0), failures)
                }
                switch worker.next(timeout: min(10, max(0.05, deadline - now()))) {
                case .index(UInt64.max):
                    // The worker's clean end (a `--count` run).
                    finished = true
                    status = worker.wait()
                    break reading
                case .index(let index):
                    if started { inputs += 1 }
                    current = index
                    started = true
                case .ended:
                    status = worker.wait()
                    break reading
                case .silent where now() >= deadline:
                    continue
                case .silent:
                    worker.terminate()
                    break reading
                }
            }
            if finished { break }
            if status == 3 { outcome = "a failed check" } else if status >= 128 { outcome = "a crash (signal \(status - 128))" }
            else if status == 0 && !started { break }
            failures += 1
            let input = target.input(seed: seed, index: current)
            let folder = saveFolder + "/" + target.rawValue
            let path = folder + "/\(seed)-\(current).bin"
            _ = mkdir(saveFolder, 0o755)
            _ = mkdir(folder, 0o755)
            let saved = writeFile(path, input)
            StandardStreams.writeError("\(target.rawValue): \(outcome) on input \(current) of seed \(seed); "
                                       + (saved ? "saved as \(path) (FuzzTests replays it)" : "could not save \(path)")
                                       + "; again: macmd-bench fuzz --worker \(target.rawValue) --seed \(seed) --from \(current) --count 1\n")
            next = current + 1
        }
        return (inputs, failures)
    }

    /// The worker: checks inputs from `--from` on (`--count` of them, or until stopped),
    /// writing each index to fd 3 before checking it; exits 3 on a failed check.
    static func fuzzWorker(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            StandardStreams.writeError(fuzzUsage)
            return 2
        }
        var seed: UInt64 = 0
        var from: UInt64 = 0
        var count = UInt64.max
        var i = 1
        while i + 1 < arguments.count {
            guard let value = UInt64(arguments[i + 1]) else { StandardStreams.writeError(fuzzUsage); return 2 }
            switch arguments[i] {
            case "--seed": seed = value
            case "--from": from = value
            case "--count": count = value
            default: StandardStreams.writeError(fuzzUsage); return 2
            }
            i += 2
        }
        let reporting = fcntl(3, F_GETFD) != -1
        var index = from
        while index &- from < count {
            if reporting {
                var value = index
                guard write(3, &value, 8) == 8 else { return 0 }
            }
            let input = target.input(seed: seed, index: index)
            if let failure = target.check(input) {
                StandardStreams.writeError("\(target.rawValue) input \(index) of seed \(seed): \(failure)\n")
                return 3
            }
            index += 1
        }
        if reporting {
            var end = UInt64.max
            _ = write(3, &end, 8)
        }
        return 0
    }

    /// Writes `bytes` to a new file at `path`.
    static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return StandardStreams.writeAll(bytes, to: descriptor)
    }

    /// A worker process and the pipe it reports on.
    struct FuzzWorkerProcess {
        var pid: pid_t
        var progress: Int32

        static func spawn(_ executable: String, target: FuzzTarget, seed: UInt64, from: UInt64) -> FuzzWorkerProcess? {
            var pipeFDs: [Int32] = [0, 0]
            guard pipe(&pipeFDs) == 0 else { return nil }
            let arguments = [executable, "fuzz", "--worker", target.rawValue, "--seed", String(seed), "--from", String(from)]
            guard let pid = BenchCommand.spawn(arguments, arrange: { actions in
                // The read end first: it may be fd 3 itself, which the write end then takes.
                posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
                posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 3)
            }) else {
                close(pipeFDs[0])
                close(pipeFDs[1])
                return nil
            }
            close(pipeFDs[1])
            return FuzzWorkerProcess(pid: pid, progress: pipeFDs[0])
        }

        enum Report { case index(UInt64), ended, silent }

        /// What the worker said next: the index it started on, its end (the pipe closed), or
        /// nothing for `timeout` seconds.
        func next(timeout: Double) -> Report {
            var poller = pollfd(fd: progress, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(timeout * 1000))
            if ready == 0 { return .silent }
            var value: UInt64 = 0
            var got = 0
            while got < 8 {
                let n = withUnsafeMutableBytes(of: &value) { buffer -> Int in
                    guard let base = buffer.baseAddress else { return -1 }
                    return read(progress, base + got, 8 - got)
                }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return .ended }
                got += n
            }
            return .index(value)
        }

        /// Waits for the worker's end; its exit code, or 128 + the signal that ended it.
        func wait() -> Int32 {
            close(progress)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let signal = status & 0x7F
            return signal != 0 ? 128 + signal : (status >> 8) & 0xFF
        }

        /// Ends a worker that is still running.
        func terminate() {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }
}
