// `macmd-bench flood`: the server under a flood of `didChange` notifications (issue 15, items 3,
// 5 and 8), measured on a real `macmd lsp` through pipes.
//
//   1. A 5 KB note is opened and edited 1,000 times (warm-up), then, after a pause, the server's
//      RSS is read: "start".
//   2. 1,001 edits are written without waiting for anything, then a `macmd/preview`: the time
//      from the last edit written to the answer, and the RSS after it.
//   3. N edits (default 100,000) the same way.
// After each, the RSS at the answer and after a pause of 1.5 s (the server hands the memory the
// edits freed back a second after the last one), and at the end the peak RSS (VmHWM).
//   4. Idle: the CPU the server uses in 3 s of nothing to do (from /proc/PID/stat), after the
//      pause: at most one clock tick, or something polls.
//
// Each edit types one character at the end of the note or takes the last one back, so the
// note stays about its size and the server re-parses it whenever it gets to it. The client
// declares pull diagnostics without refresh, so the server writes nothing while the edits
// arrive; the writes still drain the server's output, so nothing can block either side.
// Verdicts: the answer within a second of the last edit, the preview of exactly the text the
// client holds, the RSS after N edits within 10% of the RSS before them (after the 1,001), at
// most one clock tick of CPU while idle.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import JSONRPC

extension BenchCommand {
    static let floodUsage = "usage: macmd-bench flood [--edits N] [--note-bytes B] [--server PATH]\n"

    static func flood(_ arguments: [String]) -> Int32 {
        var edits = 100_000
        var noteBytes = 5_000
        var serverPath: String?
        var i = 0
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch (arguments[i], value) {
            case ("--edits", let value?) where Int(value).map({ $0 > 0 }) == true: edits = Int(value) ?? edits
            case ("--note-bytes", let value?) where Int(value).map({ $0 > 0 }) == true: noteBytes = Int(value) ?? noteBytes
            case ("--server", let value?): serverPath = value
            case ("-h", _), ("--help", _):
                StandardStreams.writeOutput(Array(floodUsage.utf8))
                return 0
            default:
                StandardStreams.writeError("macmd-bench flood: unexpected argument '\(arguments[i])'\n" + floodUsage)
                return 2
            }
            i += 2
        }
        guard var server = ServerProcess.started(serverPath ?? macmdPath(), capabilities: ["textDocument": ["diagnostic": [:]]],
                                                 command: "flood") else { return 1 }
        let uri = "file:///bench/flood/note.md"
        var text = Array(largeNote(bytes: noteBytes).utf8)
        if text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        server.send(.notification(method: "textDocument/didOpen", params: ["textDocument": [
            "uri": .string(uri), "languageId": "markdown", "version": 1, "text": .string(String(decoding: text, as: UTF8.self))]]))
        // The last line is empty: edits type at its start and take the character back.
        let lastLine = text.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        var version = 1
        var typed = 0
        /// `count` edits as frames: type `x`, take it back, and so on.
        func editFrames(_ count: Int) -> [UInt8] {
            var frames: [UInt8] = []
            for _ in 0..<count {
                version += 1
                let position: JSONValue = ["line": .int(Int64(lastLine)), "character": 0]
                let change: JSONValue
                if typed == 0 {
                    change = ["range": ["start": position, "end": position], "text": "x"]
                    typed = 1
                } else {
                    change = ["range": ["start": position, "end": ["line": .int(Int64(lastLine)), "character": 1]], "text": ""]
                    typed = 0
                }
                frames += Framing.frame(.notification(method: "textDocument/didChange", params: [
                    "textDocument": ["uri": .string(uri), "version": .int(Int64(version))], "contentChanges": [change]]))
            }
            return frames
        }
        var nextID = 0
        /// The preview's character count of the note as opened (set by the warm-up, which ends
        /// with nothing typed): with a character typed, the count is one more.
        var baseCount: Int?
        /// Writes the edits without waiting, then asks for a preview; the seconds from the last
        /// byte written to the answer, and whether the answer is of the client's text (its
        /// version, and its character count with or without the typed character).
        func flood(_ count: Int) -> (seconds: Double, exact: Bool)? {
            let frames = editFrames(count)
            guard server.sendDraining(frames) else { return nil }
            let written = now()
            nextID += 1
            let id = RequestID.string("flood-\(nextID)")
            server.send(.request(id: id, method: "macmd/preview", params: ["textDocument": ["uri": .string(uri)]]))
            guard case .success(let result)? = server.response(to: id) else { return nil }
            let elapsed = now() - written
            let characters = result["characterCount"]?.intValue
            if baseCount == nil, typed == 0 { baseCount = characters }
            return (elapsed, result["version"]?.intValue == version && characters != nil && characters == baseCount.map { $0 + typed })
        }
        func megabytes(_ bytes: Int?) -> String { bytes.map { format(Double($0) / 1_048_576, 1) + " MB" } ?? "?" }

        /// The RSS once the server has paused (it hands freed memory back a second after the
        /// last edit).
        func settled() -> Int? {
            usleep(1_500_000)
            return server.residentBytes()
        }
        guard flood(1_000) != nil else { return server.failedFlood("the warm-up got no answer") }
        let start = settled()
        // An odd count leaves a character typed: the preview must show it.
        guard let thousand = flood(1_001) else { return server.failedFlood("no answer after 1,000 edits") }
        let rightAfterThousand = server.residentBytes()
        let afterThousand = settled()
        guard let many = flood(edits) else { return server.failedFlood("no answer after \(edits) edits") }
        let rightAfterMany = server.residentBytes()
        let afterMany = settled()
        let idleBefore = server.cpuTicks()
        usleep(3_000_000)
        let idleAfter = server.cpuTicks()
        let idleTicks = idleBefore.flatMap { before in idleAfter.map { $0 - before } }
        let peak = server.peakResidentBytes()
        let threads = server.statusBytes("Threads:").map { $0 / 1024 }
        server.stop()

        var report = "macmd lsp under a flood of didChange (release build recommended): a \(text.count)-byte note, edits written without waiting\n"
        report += "  RSS at the start (1,000 edits of warm-up, then a pause): \(megabytes(start))\n"
        func phase(_ name: String, _ result: (seconds: Double, exact: Bool), _ rightAfter: Int?, _ after: Int?) {
            report += "  \(name): answer \(format(result.seconds * 1000, 1)) ms after the last, \(result.exact ? "exact text" : "WRONG TEXT"), "
                + "RSS \(megabytes(rightAfter)) at the answer, \(megabytes(after)) after a pause\n"
        }
        phase("1,001 edits", thousand, rightAfterThousand, afterThousand)
        phase("\(edits) edits", many, rightAfterMany, afterMany)
        report += "  peak RSS of the run (VmHWM): \(megabytes(peak)); threads at the end: \(threads.map(String.init) ?? "?")\n"
        report += "  idle: \(idleTicks.map(String.init) ?? "?") clock ticks of CPU in 3 s with nothing to do\n"
        var failures: [String] = []
        if !thousand.exact || !many.exact { failures.append("a preview was not of the client's text") }
        if many.seconds > 1 { failures.append("the answer came more than a second after the last edit") }
        if let a = afterThousand, let b = afterMany, Double(b) > Double(a) * 1.1 { failures.append("RSS after \(edits) edits is over 110% of RSS after 1,000") }
        if let idleTicks, idleTicks > 1 { failures.append("the idle server used \(idleTicks) clock ticks in 3 s: something polls") }
        report += failures.isEmpty ? "  ok: answered within a second, RSS within 10%, idle when idle\n" : failures.map { "  FAILED: \($0)\n" }.joined()
        StandardStreams.writeOutput(Array(report.utf8))
        return failures.isEmpty ? 0 : 1
    }
}

extension BenchCommand.ServerProcess {
    /// Writes `bytes` without waiting for the server, reading (and keeping for `nextBody`) what
    /// it writes meanwhile, so neither side can block the other. False when the pipe closed.
    mutating func sendDraining(_ bytes: [UInt8]) -> Bool {
        let flags = fcntl(input, F_GETFL)
        _ = fcntl(input, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(input, F_SETFL, flags) }
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while offset < bytes.count {
            var fds = [pollfd(fd: input, events: Int16(POLLOUT), revents: 0), pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 10_000) > 0 else { return false }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if n > 0 { chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
            }
            if fds[0].revents & Int16(POLLOUT) != 0 {
                let n = bytes.withUnsafeBytes { write(input, $0.baseAddress! + offset, min(bytes.count - offset, 1 << 16)) }
                if n > 0 { offset += n } else if n < 0 && errno != EAGAIN && errno != EINTR { return false }
            } else if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 {
                return false
            }
        }
        return true
    }

    /// The CPU the process has used, user and system, in clock ticks (`/proc/PID/stat` fields 14
    /// and 15); nil where /proc cannot say.
    func cpuTicks() -> Int? {
        guard let stat = BenchCommand.procFile(of: pid, "stat", capacity: 4096),
              let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the command name (in parentheses, which may hold spaces): field 3, the state, on.
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 12, let user = Int(String(decoding: fields[11], as: UTF8.self)),
              let system = Int(String(decoding: fields[12], as: UTF8.self)) else { return nil }
        return user + system
    }

    mutating func failedFlood(_ message: String) -> Int32 {
        StandardStreams.writeError("macmd-bench flood: \(message)\n")
        stop()
        return 1
    }
}
