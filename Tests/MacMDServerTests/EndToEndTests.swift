import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest

/// Spawns the built `macmd lsp` and talks to it through real pipes, byte by byte as editors do.
/// Every read has a deadline: a server that hangs fails the test, it never hangs the suite.
final class EndToEndTests: XCTestCase {
    final class Child {
        let process = Process()
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        var framer = MessageFramer()
        var rawStdout: [UInt8] = []

        init(environment: [String: String] = [:], arguments: [String] = ["lsp", "--stdio"]) throws {
            process.executableURL = try MacmdBinary.url()
            process.arguments = arguments
            process.environment = TestProcess.childEnvironment(environment)
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
        }

        func write(_ text: String) { stdin.fileHandleForWriting.write(Data(text.utf8)) }
        func write(_ bytes: [UInt8]) { stdin.fileHandleForWriting.write(Data(bytes)) }

        /// The next message, or nil at the end of the output; waiting longer than `timeout`
        /// seconds for it fails the test.
        func next(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Message? {
            let deadline = Date().addingTimeInterval(timeout)
            let descriptor = stdout.fileHandleForReading.fileDescriptor
            while true {
                if case .body(let body)? = framer.next() {
                    guard let json = try? JSON.parse(body), case .success(let m) = Message.decode(json) else { return nil }
                    return m
                }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else {
                    XCTFail("macmd lsp sent nothing within \(timeout) s", file: file, line: line)
                    return nil
                }
                var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, Int32(min(remaining, 1) * 1000)) <= 0 { continue }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return nil }
                rawStdout.append(contentsOf: chunk[0..<count])
                framer.append(Array(chunk[0..<count]))
            }
        }

        /// Everything the server wrote to stderr; call it once the process has ended.
        func errorOutput() -> String { String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

        func closeInput() { try? stdin.fileHandleForWriting.close() }

        /// The exit status; nil (after killing the process) when it outlives `timeout`.
        func waitForExit(timeout: TimeInterval = 10) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                return nil
            }
            return process.terminationStatus
        }
    }

    static func frame(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n" + json }
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#

    func testHeadersSplitAcrossReadsAndPartialBodies() throws {
        let child = try Child()
        let framed = Array(Self.frame(Self.initialize).utf8)
        // Header split mid-word, then the blank line, then the body in two pieces.
        for piece in [framed[0..<7], framed[7..<20], framed[20..<(framed.count - 30)], framed[(framed.count - 30)...]] {
            child.write(Array(piece))
            usleep(30_000)
        }
        guard case .response(let id, let result)? = child.next() else { return XCTFail("no response") }
        XCTAssertEqual(id, .int(1))
        XCTAssertEqual(try result.get()["serverInfo"]?["name"], "macmd")
        child.closeInput()
        XCTAssertEqual(child.waitForExit(), 1, "end of input without shutdown")
    }

    func testSeveralMessagesInOneReadAreAnsweredInOrder() throws {
        let child = try Child(environment: ["MACMD_LOG": "debug"])
        child.write(Self.frame(Self.initialize)
                    + Self.frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
                    + Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"no/such","params":{}}"#)
                    + Self.frame(#"{"jsonrpc":"2.0","id":"three","method":"shutdown"}"#)
                    + Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
        var ids: [RequestID?] = []
        while let message = child.next() {
            if case .response(let id, _) = message { ids.append(id) }
        }
        XCTAssertEqual(ids, [.int(1), .int(2), .string("three")])
        XCTAssertEqual(child.waitForExit(), 0, "exit after shutdown")
        // Everything on stdout was a frame; the debug log went to stderr.
        var framer = MessageFramer()
        framer.append(child.rawStdout)
        var frames = 0
        while let item = framer.next() {
            guard case .body = item else { return XCTFail("stdout held something that is not a frame: \(item)") }
            frames += 1
        }
        XCTAssertEqual(frames, 3)
        XCTAssertEqual(framer.bufferedByteCount, 0)
        let log = child.errorOutput()
        XCTAssertTrue(log.contains("[macmd"), log)
    }

    func testLogFileAndLevelAndBadOptions() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try Child(arguments: ["lsp", "--log-file", log.path, "--log-level", "info"])
        child.write(Self.frame(Self.initialize) + Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
        while child.next() != nil {}
        XCTAssertEqual(child.waitForExit(), 1, "exit without shutdown")
        let text = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(text.contains("[macmd info] initialized"), text)
        XCTAssertEqual(child.errorOutput(), "", "logs went to the file, not stderr")

        for arguments in [["lsp", "--bogus"], ["lsp", "--log-level", "loud"], ["lsp", "--log-file"],
                          ["lsp", "--log-file", "/nonexistent-dir/x.log"]] {
            let bad = try Child(arguments: arguments)
            bad.closeInput()
            XCTAssertEqual(bad.waitForExit(), 2, "\(arguments)")
            let message = bad.errorOutput()
            XCTAssertTrue(message.hasPrefix("macmd lsp: "), message)
            XCTAssertTrue(bad.stdout.fileHandleForReading.readDataToEndOfFile().isEmpty, "nothing on stdout")
        }
    }

    /// `macmd lsp` without `--max-message-size` refuses a message over 64 MB (67,108,864 bytes)
    /// with an error that answers the request, skips its body, and goes on serving.
    func testTheDefaultMessageSizeLimitIs64MB() throws {
        let child = try Child()
        child.write(Self.frame(Self.initialize))
        guard case .response(.int(1)?, .success)? = child.next() else { return XCTFail("initialize was not answered") }
        let limit = 64 << 20
        let head = Array(#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"pad":""#.utf8)
        let tail = Array(#""}}"#.utf8)
        var body = head + [UInt8](repeating: UInt8(ascii: "x"), count: limit + 1 - head.count - tail.count) + tail
        XCTAssertEqual(body.count, limit + 1)
        body = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            + Array(Self.frame(#"{"jsonrpc":"2.0","id":8,"method":"no/such","params":{}}"#).utf8)
        // A writer of its own: the pipe takes 64 KB at a time while the server reads.
        let written = DispatchSemaphore(value: 0)
        let input = child.stdin.fileHandleForWriting
        let frames = body
        Thread.detachNewThread {
            input.write(Data(frames))
            written.signal()
        }
        guard case .response(let tooLarge, let refused)? = child.next(timeout: 60) else { return XCTFail("the large message was not answered") }
        XCTAssertEqual(tooLarge, .int(7), "the error answers the request it refuses")
        XCTAssertEqual(refused.errorCode, -32600)
        XCTAssertEqual(refused.errorMessage, "message of \(limit + 1) bytes is over the limit of \(limit) bytes")
        guard case .response(let next, let answer)? = child.next(timeout: 60) else { return XCTFail("the server stopped after the large message") }
        XCTAssertEqual(next, .int(8))
        XCTAssertEqual(answer.errorCode, -32601, "the next request is served")
        XCTAssertEqual(written.wait(timeout: .now() + 60), .success, "the server did not read the whole large message")
        child.closeInput()
        XCTAssertEqual(child.waitForExit(), 1)
    }

    /// What a person sees of bad framing: the log says it in a sentence of the writer's language
    /// (not a Swift enum's name), and a message over the limit is refused even when the input
    /// ends before its body has come.
    func testFramingProblemsAreSaidInSentences() throws {
        let garbage = try TestProcess.run(try MacmdBinary.url(), ["lsp"], input: Array("hello\r\n\r\n".utf8))
        XCTAssertEqual(garbage.stderr, "[macmd warn] cannot read a message from the editor: not a header line: hello\n")
        let german = try TestProcess.run(try MacmdBinary.url(), ["lsp"], input: Array("hello\r\n\r\n".utf8), environment: ["LANG": "de_DE.UTF-8"])
        XCTAssertTrue(german.stderr.contains("keine Header-Zeile: hello"), german.stderr)
        let cut = try TestProcess.run(try MacmdBinary.url(), ["lsp"],
                                      input: Array(#"Content-Length: 99999999999\#r\#n\#r\#n{"jsonrpc":"2.0","id":7,"method":"x""#.utf8))
        XCTAssertTrue(cut.stdout.contains(#""id":7"#) && cut.stdout.contains("over the limit"), "refused, with its id: \(cut.stdout)")
    }

    func testGarbageThenAValidRequest() throws {
        let child = try Child()
        child.write("this is not a header\r\n\r\nContent-Length: nope\r\n\r\n")
        child.write(Self.frame("{oops"))
        child.write(Self.frame(Self.initialize))
        var sawParseError = false
        var sawInitialize = false
        while !sawInitialize, let message = child.next() {
            if case .response(let id, let result) = message {
                if id == nil, case .failure(let e) = result, e.code == -32700 { sawParseError = true }
                if id == .int(1) { sawInitialize = true }
            }
        }
        XCTAssertTrue(sawParseError)
        XCTAssertTrue(sawInitialize)
        child.closeInput()
        XCTAssertNotNil(child.waitForExit())
    }

    /// A note opened while a big notebook is still being scanned: the built server, unhooked.
    /// Every push before the scan's progress ends has the note's own problems only; after it,
    /// the link to a note that does not exist is reported and the link to the last note the scan
    /// reads is not. (The test fails if the scan ended before the first push: it would then prove
    /// nothing.)
    func testANoteOpenedDuringTheFirstScanGetsNoFalseErrors() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-bigscan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let filler = String(repeating: "Soil, water and light; the [[note-1]] of it. #garden\n\n", count: 20)
        for index in 0..<6000 {
            let folder = root.appendingPathComponent("part-\(index % 60)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "# Note \(index)\n\n\(filler)".write(to: folder.appendingPathComponent("note-\(index).md"), atomically: false, encoding: .utf8)
        }
        try "{}\n".write(to: root.appendingPathComponent(".macmd.json"), atomically: false, encoding: .utf8)
        let index = root.appendingPathComponent("index.md")
        let text = "# Home\n\nSee [[note-5999]] and [[no-such-note]].\n"
        try text.write(to: index, atomically: false, encoding: .utf8)
        let uri = "file://" + index.path

        let child = try Child()
        defer { _ = child.waitForExit(timeout: 1) }
        let folders = #"[{"uri":"file://\#(root.path)","name":"big"}]"#
        child.write(Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"window":{"workDoneProgress":true}},"workspaceFolders":\#(folders)}}"#)
                    + Self.frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#))
        let open = #"{"textDocument":{"uri":"\#(uri)","languageId":"markdown","version":1,"text":"\#(text.replacingOccurrences(of: "\n", with: "\\n"))"}}"#
        var opened = false
        var scanEnded = false
        var pushesDuringScan: [[String]] = []
        var pushesAfter: [[String]] = []
        while pushesAfter.isEmpty, let message = child.next(timeout: 60) {
            switch message {
            case .request(let id, _, _):
                child.write(Self.frame(#"{"jsonrpc":"2.0","id":\#(id.json),"result":null}"#))
            case .notification("$/progress", let params):
                let kind = params?["value"]?["kind"]?.stringValue
                if kind == "begin", !opened {
                    opened = true
                    child.write(Self.frame(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":\#(open)}"#))
                }
                if kind == "end" { scanEnded = true }
            case .notification("textDocument/publishDiagnostics", let params) where params?["uri"]?.stringValue == uri:
                let codes = (params?["diagnostics"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
                if scanEnded { pushesAfter.append(codes) } else { pushesDuringScan.append(codes) }
            default:
                break
            }
        }
        child.closeInput()
        XCTAssertFalse(pushesDuringScan.isEmpty, "the note's diagnostics came only after the scan: make the notebook bigger")
        XCTAssertEqual(pushesDuringScan.flatMap { $0 }, [], "no problem with other notes while the scan runs")
        XCTAssertEqual(pushesAfter.last, ["broken-wikilink"], "after the scan, the one link that is really broken")
    }
}
