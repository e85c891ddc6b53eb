// `macmd-bench lsp`: the language server's own numbers, measured the way an editor meets them:
// a child `macmd lsp` on pipes.
//   - round trip of a trivial request (an unknown method, answered with -32601): p50 and p99;
//   - `didOpen` of a 1 MB note followed by `macmd/preview`, from the first byte the client
//     writes until the last byte of the answer has arrived. Both frames are serialized before the
//     clock starts and the answer's JSON is parsed after it stops: that is the editor's own work,
//     not the server's latency, so it is timed and reported on its own line;
//     `--rounds N` (default 10) sets how many times; the server's minor page faults per round
//     are reported too; `--server PATH` measures another build's `macmd lsp` with this client;
//   - RSS of the server at idle after initialize (VmRSS from /proc).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import JSONRPC
import MacMDServer
import NotebookWorkspace
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import NotebookIndex

extension BenchCommand {
    /// A `macmd lsp` child process on two pipes.
    struct ServerProcess {
        var pid: pid_t
        var input: Int32
        var output: Int32
        var framer = MessageFramer()

        /// `macmd lsp` at `executable`, initialized on the notebook at `root` (progress, UTF-8
        /// positions asked for) and past the end of its scan's progress; its requests answered
        /// with null meanwhile.
        static func afterScan(_ executable: String, root: String) -> ServerProcess? {
            guard var server = spawn(executable) else { return nil }
            server.send(.request(id: .string("init"), method: "initialize", params: [
                "processId": .null, "rootUri": .null,
                "workspaceFolders": [["uri": .string(BenchCommand.fileURI(root)), "name": "bench"]],
                "capabilities": ["window": ["workDoneProgress": true], "general": ["positionEncodings": ["utf-8", "utf-16"]]],
            ]))
            _ = server.response(to: .string("init"))
            server.send(.notification(method: "initialized", params: [:]))
            while let message = server.nextMessage() {
                if case .request(let id, _, _) = message { server.send(.response(id: id, result: .success(.null))) }
                if case .notification("$/progress", let params) = message, params?["value"]?["kind"]?.stringValue == "end" { break }
            }
            return server
        }

        static func spawn(_ executable: String) -> ServerProcess? {
            var toChild: [Int32] = [0, 0]
            var fromChild: [Int32] = [0, 0]
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { return nil }
            guard let pid = BenchCommand.spawn([executable, "lsp"], arrange: { actions in
                posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
                posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
                posix_spawn_file_actions_addclose(&actions, toChild[1])
                posix_spawn_file_actions_addclose(&actions, fromChild[0])
            }) else { return nil }
            close(toChild[0])
            close(fromChild[1])
            return ServerProcess(pid: pid, input: toChild[1], output: fromChild[0])
        }

        /// A server started and initialized (no workspace) with `capabilities`; nil, with the
        /// reason written for `command` (`macmd-bench NAME`), when it could not be.
        static func started(_ executable: String, capabilities: JSONValue, command: String) -> ServerProcess? {
            guard var server = spawn(executable) else {
                StandardStreams.writeError("macmd-bench \(command): cannot start \(executable) lsp\n")
                return nil
            }
            server.send(.request(id: .int(0), method: "initialize", params: ["processId": .null, "rootUri": .null, "capabilities": capabilities]))
            guard server.response(to: .int(0)) != nil else {
                StandardStreams.writeError("macmd-bench \(command): no answer to initialize\n")
                return nil
            }
            server.send(.notification(method: "initialized", params: [:]))
            return server
        }

        func send(_ message: Message) {
            send(frame: Framing.frame(message))
        }

        /// Writes an already serialized frame.
        func send(frame: [UInt8]) {
            _ = StandardStreams.writeAll(frame, to: input)
        }

        /// Reads until the response to `id` arrives.
        mutating func response(to id: RequestID) -> Result<JSONValue, ResponseError>? {
            while let body = nextBody() {
                guard let json = try? JSON.parse(body),
                      case .success(.response(let rid, let result)) = Message.decode(json), rid == id else { continue }
                return result
            }
            return nil
        }

        /// Reads until the next complete frame has arrived and returns its body, unparsed (nil at
        /// the end of the stream). It returns as soon as the read that completed the frame
        /// returns, so a clock read right after it is "the last byte has arrived".
        mutating func nextBody() -> [UInt8]? {
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                while let item = framer.next() {
                    if case .body(let body) = item { return body }
                }
                let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return nil }
                chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }

        /// Resident set size in bytes (Linux /proc).
        func residentBytes() -> Int? { statusBytes("VmRSS:") }

        /// The highest resident set size so far, in bytes (Linux /proc).
        func peakResidentBytes() -> Int? { statusBytes("VmHWM:") }

        /// A size field of /proc/PID/status, in bytes.
        func statusBytes(_ field: String) -> Int? { BenchCommand.statusBytes(of: pid, field) }

        /// The server's minor page faults so far (field 10 of /proc/PID/stat): each is a page the
        /// kernel had to map (and zero) on first touch, the cost of memory not being reused.
        func minorFaults() -> Int? {
            guard let stat = BenchCommand.procFile(of: pid, "stat", capacity: 4096) else { return nil }
            // The command name (field 2) may hold spaces: count fields after its closing ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            // fields[0] is field 3 (state), so field 10 is fields[7].
            guard fields.count > 7 else { return nil }
            return Int(String(decoding: fields[7], as: UTF8.self))
        }

        mutating func stop() {
            send(.request(id: .string("shutdown"), method: "shutdown", params: nil))
            _ = response(to: .string("shutdown"))
            send(.notification(method: "exit", params: nil))
            close(input)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            close(output)
        }
    }

    /// A deterministic note of about `target` bytes shaped like real notes: mostly prose, with
    /// a heading every few kilobytes, lists, links, wiki-links, tags, code, a table and math now
    /// and then. (Pass `--note FILE` to measure a real one.)
    static func largeNote(bytes target: Int) -> String {
        let words = ["soil", "tomato", "compost", "the", "plot", "water", "and", "seedlings", "harvest", "of",
                     "rain", "in", "mulch", "beds", "notes", "a", "week", "roots", "light", "frost", "with", "to"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        func sentence() -> String {
            var parts: [String] = []
            for i in 0..<(8 + next() % 12) {
                var word = words[next() % words.count]
                switch next() % 40 {
                case 0: word = "*\(word)*"
                case 1: word = "**\(word)**"
                case 2: word = "[\(word)](https://example.org/\(word))"
                case 3: word = "[[\(word.prefix(1).uppercased() + word.dropFirst())]]"
                case 4: word = "#\(word)"
                case 5: word = "`\(word)`"
                default: break
                }
                parts.append(i == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word)
            }
            return parts.joined(separator: " ") + "."
        }
        var text = "---\ntitle: A large note\ntags: [bench, garden]\n---\n# A large note\n\n"
        var section = 0
        while text.utf8.count < target {
            section += 1
            text += "## Section \(section)\n\n"
            for _ in 0..<(3 + next() % 4) {
                text += (0..<(3 + next() % 4)).map { _ in sentence() }.joined(separator: " ") + "\n\n"
            }
            switch section % 6 {
            case 0: text += (0..<4).map { _ in "- " + sentence() }.joined(separator: "\n") + "\n\n"
            case 1: text += "```swift\nlet harvest = \(section) // kilograms\nprint(harvest)\n```\n\n"
            case 2: text += "| Bed | Yield |\n|-----|------:|\n| \(section) | \(next() % 90) kg |\n\n"
            case 3: text += "> " + sentence() + "\n\n"
            case 4: text += "The area is $a = \\pi r^2$ for bed \(section).\n\n"
            default: text += "1. " + sentence() + "\n2. " + sentence() + "\n\n"
            }
        }
        return text
    }

    /// The note of `--note FILE`, or else the generated 1 MB note; nil (after saying why) when
    /// the file cannot be read.
    static func largeNote(file: String?, command: String) -> String? {
        guard let file else { return largeNote(bytes: 1_000_000) }
        guard case .success(let bytes) = StandardStreams.readInput(path: file) else {
            StandardStreams.writeError("macmd-bench \(command): cannot read \(file)\n")
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func lsp(_ arguments: [String]) -> Int32 {
        var iterations = 2000
        var rounds = 10
        var serverPath: String?
        var noteFile: String?
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--iterations", i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
                iterations = n
            } else if arguments[i] == "--rounds", i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
                rounds = n
            } else if arguments[i] == "--server", i + 1 < arguments.count {
                // Another build's `macmd` as the server (to compare builds with one client).
                serverPath = arguments[i + 1]
            } else if arguments[i] == "--note", i + 1 < arguments.count {
                noteFile = arguments[i + 1]
            } else if arguments[i] == "--write-note", i + 1 < arguments.count {
                // Writes the generated note (to profile it) and stops.
                let fd = open(arguments[i + 1], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard fd >= 0, StandardStreams.writeAll(Array(largeNote(bytes: 1_000_000).utf8), to: fd) else { return 1 }
                close(fd)
                return 0
            } else {
                StandardStreams.writeError(usage)
                return 2
            }
            i += 2
        }
        guard let note = largeNote(file: noteFile, command: "lsp") else { return 2 }
        guard var server = ServerProcess.started(serverPath ?? macmdPath(), capabilities: [:], command: "lsp") else { return 1 }
        usleep(300_000)
        let idleRSS = server.residentBytes()

        // Round trips.
        var times: [Double] = []
        times.reserveCapacity(iterations)
        for i in 0..<iterations {
            let id = RequestID.int(Int64(i + 1))
            let start = now()
            server.send(.request(id: id, method: "macmd/noSuchMethod", params: [:]))
            _ = server.response(to: id)
            times.append(now() - start)
        }
        times.sort()
        let p50 = times[times.count / 2] * 1000
        let p99 = times[min(times.count - 1, times.count * 99 / 100)] * 1000

        // didOpen of the note, then preview. Both frames are serialized before the clock starts
        // (an editor has its buffer's JSON ready or streams it; either way it is not the server's
        // time), and the answer is parsed after the clock stops, timed on its own.
        var previewTimes: [Double] = []
        var encodeTimes: [Double] = []
        var decodeTimes: [Double] = []
        var htmlBytes = 0
        var answerBytes = 0
        let faultsBefore = server.minorFaults()
        for round in 0..<rounds {
            let uri = "file:///bench/large-\(round).md"
            let id = RequestID.string("preview-\(round)")
            let encodeStart = now()
            let openFrame = Framing.frame(.notification(method: "textDocument/didOpen", params: ["textDocument": [
                "uri": .string(uri), "languageId": "markdown", "version": 1, "text": .string(note)]]))
            let previewFrame = Framing.frame(.request(id: id, method: "macmd/preview", params: ["textDocument": ["uri": .string(uri)]]))
            encodeTimes.append(now() - encodeStart)
            let start = now()
            server.send(frame: openFrame)
            server.send(frame: previewFrame)
            // Notifications (diagnostics of the opened note) may come first; the clock stops
            // when the last byte of the answer to the preview has arrived.
            var answer: [UInt8]?
            while answer == nil {
                guard let next = server.nextBody() else {
                    StandardStreams.writeError("macmd-bench lsp: the server closed the stream\n")
                    return 1
                }
                if RequestID.peek(in: next) == id { answer = next }
            }
            let arrived = now()
            let body = answer ?? []
            previewTimes.append(arrived - start)
            answerBytes = body.count
            let result: Result<JSONValue, ResponseError>?
            if let json = try? JSON.parse(body), case .success(.response(let rid, let answer)) = Message.decode(json), rid == id {
                result = answer
            } else {
                result = nil
            }
            decodeTimes.append(now() - arrived)
            guard case .success(let value)? = result, let html = value["html"]?.stringValue else {
                StandardStreams.writeError("macmd-bench lsp: round \(round): no preview in the answer\n")
                return 1
            }
            htmlBytes = html.utf8.count
            server.send(.notification(method: "textDocument/didClose", params: ["textDocument": ["uri": .string(uri)]]))
        }
        let faultsAfter = server.minorFaults()
        previewTimes.sort()
        encodeTimes.sort()
        decodeTimes.sort()
        server.stop()

        func median(_ sorted: [Double]) -> String { format(sorted[sorted.count / 2] * 1000) }
        var report = "macmd lsp (release build recommended)\n"
        report += "round trip of a trivial request (\(iterations)x): p50 \(format(p50, 3)) ms, p99 \(format(p99, 3)) ms (targets 0.2 / 1 ms)\n"
        report += "didOpen \(noteFile ?? "a generated 1 MB note") + macmd/preview (\(rounds)x, \(format(Double(note.utf8.count) / 1_000_000, 2)) MB, "
        report += "\(htmlBytes) bytes of HTML in a \(answerBytes)-byte answer), first byte sent to last byte of the answer received: "
        report += "median \(median(previewTimes)) ms, min \(format((previewTimes.first ?? 0) * 1000)) ms, max \(format((previewTimes.last ?? 0) * 1000)) ms (target 30 ms)\n"
        report += "  not included, the client's own JSON work: serializing the didOpen and preview frames before, median \(median(encodeTimes)) ms; "
        report += "parsing the answer after, median \(median(decodeTimes)) ms\n"
        if let faultsBefore, let faultsAfter {
            report += "  server page faults per round: \((faultsAfter - faultsBefore) / rounds)\n"
        }
        report += "RSS at idle after initialize: " + (idleRSS.map { format(Double($0) / 1_000_000) + " MB" } ?? "unknown") + " (target 15 MB)\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}

extension BenchCommand {
    /// `macmd-bench preview FILE`: where a preview's time goes (parse, render, outline, counts).
    /// `macmd-bench preview FILE [--notebook DIR]`: the phases of one preview, best of 5. With
    /// `--notebook`, the wiki-links are also resolved against DIR's notebook (FILE taken as a note
    /// at its root), as the server's preview does.
    static func previewPhases(_ arguments: [String]) -> Int32 {
        if arguments.contains("--maths") { return mathPreview(arguments) }
        var paths: [String] = []
        var folder: String?
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--notebook", index + 1 < arguments.count {
                folder = arguments[index + 1]
                index += 2
            } else {
                paths.append(arguments[index])
                index += 1
            }
        }
        guard paths.count == 1, case .success(let source) = StandardStreams.readInput(path: paths[0]) else {
            StandardStreams.writeError("usage: macmd-bench preview FILE [--notebook DIR]\n")
            return 2
        }
        var notebook: (Notebook, root: String)?
        if let folder {
            let indexed = NotebookFolder.indexed(path: folder)
            guard indexed.refusal == nil else {
                StandardStreams.writeError("macmd-bench preview: cannot scan \(folder)\n")
                return 2
            }
            notebook = (indexed.folder.notebook, indexed.folder.resolvedPath)
        }
        var best: [String: Double] = [:]
        func measure(_ name: String, _ body: () -> Void) {
            let start = now()
            body()
            best[name] = min(best[name] ?? .infinity, now() - start)
        }
        let html = HTMLOptions(safe: true, sourceLines: true, headingIDs: true, collapseNestedStrong: true)
        var size = 0
        for _ in 0..<5 {
            var tree = MarkdownParser.parse([UInt8](), options: .notebook)
            measure("parse") { tree = MarkdownParser.parse(source, options: .notebook) }
            measure("render") { size = HTMLRenderer(options: html).render(tree).count }
            measure("outline") { _ = tree.headingAnchors() }
            measure("counts") { _ = TextStatistics(tree: tree) }
            measure("whole preview") {
                _ = PreviewBuilder.build(tree: tree, fileName: "x.md", html: html)
            }
            if let (notebook, root) = notebook {
                var resolved = html
                measure("wiki-link destinations") {
                    resolved.wikiLinkDestinations = PreviewLinks.destinations(of: tree, notebook: notebook, notePath: "bench.md") {
                        FileReader.exists(root + "/" + $0)
                    }
                }
                measure("render, wiki-links resolved") { _ = HTMLRenderer(options: resolved).render(tree) }
            }
            let text = String(decoding: HTMLRenderer(options: html).render(tree), as: UTF8.self)
            measure("JSON of the HTML") { _ = JSON.serialize(.object(["html": .string(text)])) }
        }
        var report = "\(source.count) bytes in, \(size) bytes of HTML; best of 5:\n"
        for name in ["parse", "render", "outline", "counts", "whole preview", "wiki-link destinations",
                     "render, wiki-links resolved", "JSON of the HTML"] where best[name] != nil {
            report += "  \(name): \(format((best[name] ?? 0) * 1000, 2)) ms\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }
}

extension BenchCommand {
    /// The start of /proc/PID/NAME (one read of up to `capacity` bytes); nil when it cannot be read.
    static func procFile(of pid: pid_t, _ name: String, capacity: Int) -> ArraySlice<UInt8>? {
        let fd = open("/proc/\(pid)/\(name)", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? buffer[0..<n] : nil
    }

    /// A size field ("VmRSS:", "VmHWM:") of /proc/PID/status, in bytes; nil where there is none.
    static func statusBytes(of pid: pid_t, _ field: String) -> Int? {
        guard let status = procFile(of: pid, "status", capacity: 8192) else { return nil }
        let text = String(decoding: status, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let digits = line.filter { $0.isNumber }
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
