import XCTest
import Foundation
@testable import JSON
@testable import JSONRPC
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Connection over two pipes, driven like a client would: framed bytes in, frames out.
final class ConnectionTests: XCTestCase {
    /// The two pipes of one connection: the test writes `toServer` and reads `fromServer`.
    /// Each descriptor is closed at most once.
    private final class Pipes {
        let serverInput: Int32
        let toServer: Int32
        let fromServer: Int32
        let serverOutput: Int32
        private var open: Set<Int32>

        init() throws {
            var inbound: [Int32] = [0, 0]
            var outbound: [Int32] = [0, 0]
            guard pipe(&inbound) == 0, pipe(&outbound) == 0 else { throw POSIXError(.EMFILE) }
            serverInput = inbound[0]
            toServer = inbound[1]
            fromServer = outbound[0]
            serverOutput = outbound[1]
            open = [serverInput, toServer, fromServer, serverOutput]
        }

        func close(_ descriptor: Int32) {
            if open.remove(descriptor) != nil { _ = systemClose(descriptor) }
        }

        func closeAll() {
            for descriptor in open { close(descriptor) }
        }
    }

    /// Collects events from the reader thread; `wait` returns once `.endOfInput` arrived.
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [ConnectionEvent] = []
        private let finished = DispatchSemaphore(value: 0)

        func record(_ event: ConnectionEvent) {
            lock.lock()
            recorded.append(event)
            lock.unlock()
            if event == .endOfInput { finished.signal() }
        }

        /// The events, once `.endOfInput` arrived; none within `seconds` fails the test.
        func wait(seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> [ConnectionEvent]? {
            guard finished.wait(timeout: .now() + seconds) == .success else {
                XCTFail("no end of input within \(seconds) s", file: file, line: line)
                return nil
            }
            lock.lock()
            defer { lock.unlock() }
            return recorded
        }
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Reads until `count` frames arrived, the output ended, or `seconds` passed (which fails
    /// the test).
    private func readFrames(from descriptor: Int32, count: Int, seconds: Double = 20,
                            file: StaticString = #filePath, line: UInt = #line) -> [FramedItem] {
        var framer = MessageFramer()
        var items: [FramedItem] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while items.count < count {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                XCTFail("\(items.count) of \(count) frames within \(seconds) s", file: file, line: line)
                break
            }
            var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(min(remaining, 1) * 1000)) <= 0 { continue }
            let read = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if read <= 0 { break }
            framer.append(Array(chunk[0..<read]))
            while let item = framer.next() { items.append(item) }
        }
        return items
    }

    func testReceivesEveryKindOfInputThenEndOfInput() throws {
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput, maxContentLength: 1000)
        let recorder = Recorder()
        connection.start { recorder.record($0) }

        func frame(_ text: String) -> [UInt8] { Framing.frame(Array(text.utf8)) }
        var input: [UInt8] = []
        input += frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        input += Array("Content-Length: nope\r\n\r\n".utf8)
        input += frame("this is not json")
        input += frame("[1,2,3]")
        input += frame(#"{"jsonrpc":"2.0","id":4,"method":7}"#)
        input += Array("Content-Length: 5000\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: 5000)
        input += frame(#"{"jsonrpc":"2.0","id":"big","method":"m","params":{"text":""# + String(repeating: "y", count: 2000) + "\"}}")
        input += frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
        // Feed it in awkward pieces, as a pipe may deliver it.
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + 7)
            writeAll(Array(input[offset..<end]), to: pipes.toServer)
            offset = end
        }
        pipes.close(pipes.toServer)

        guard let events = recorder.wait() else { return }
        XCTAssertEqual(events.count, 9)
        XCTAssertEqual(events.first, .message(.request(id: .int(1), method: "initialize", params: [:])))
        XCTAssertEqual(events.dropFirst(1).first, .framingError(.invalidContentLength("nope")))
        if case .invalid(let failure)? = events.dropFirst(2).first {
            XCTAssertNil(failure.id)
            XCTAssertEqual(failure.error.code, ResponseError.parseError)
        } else {
            XCTFail("expected a parse error, got \(events)")
        }
        if case .invalid(let failure)? = events.dropFirst(3).first {
            XCTAssertNil(failure.id)
            XCTAssertEqual(failure.error.code, ResponseError.invalidRequest)
        } else {
            XCTFail("expected an invalid request, got \(events)")
        }
        if case .invalid(let failure)? = events.dropFirst(4).first {
            XCTAssertEqual(failure.id, .int(4))
            XCTAssertEqual(failure.error.code, ResponseError.invalidRequest)
        } else {
            XCTFail("expected an invalid request with id 4, got \(events)")
        }
        XCTAssertEqual(events.dropFirst(5).first, .framingError(.tooLarge(5000)))
        if case .invalid(let failure)? = events.dropFirst(6).first {
            XCTAssertEqual(failure.id, .string("big"), "a too-large request is answered with its own id")
            XCTAssertEqual(failure.error.code, ResponseError.invalidRequest)
            XCTAssertTrue(failure.error.message.contains("over the limit"), failure.error.message)
        } else {
            XCTFail("expected the too-large request as invalid, got \(events)")
        }
        XCTAssertEqual(events.dropFirst(7).first, .message(.notification(method: "exit", params: nil)))
        XCTAssertEqual(events.last, .endOfInput)
    }

    func testSendsFramesThatAClientCanRead() throws {
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput)
        let messages: [Message] = [
            .response(id: .int(1), result: .success(["capabilities": [:]])),
            .request(id: .string("s1"), method: "workspace/configuration", params: ["items": []]),
            .notification(method: "window/logMessage", params: ["type": 3, "message": "é \"quoted\"\n"]),
            .response(id: nil, result: .failure(ResponseError(code: ResponseError.parseError, message: "bad"))),
        ]
        for message in messages { connection.send(message) }
        let items = readFrames(from: pipes.fromServer, count: messages.count)
        let decoded = items.compactMap { item -> Message? in
            guard case .body(let body) = item, let value = try? JSON.parse(body) else { return nil }
            return try? Message.decode(value).get()
        }
        XCTAssertEqual(decoded, messages)
    }

    func testLargeMessageAndConcurrentSendersKeepFramesWhole() throws {
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput)
        // About 300 KB of text with quotes, backslashes, tabs and non-ASCII to escape.
        let text = String(repeating: "## \"Quoted\" back\\slash\tcafé, 日本語 🎉 and a line of plain ASCII text\n", count: 3_500)
        let big = Message.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": "file:///tmp/large-note.md", "languageId": "markdown", "version": 1, "text": .string(text)],
        ])
        let senders = 8
        let perSender = 25
        // The pipe holds only 64 KB, so the client must read while the senders write.
        let writers = DispatchGroup()
        DispatchQueue.global().async(group: writers) {
            DispatchQueue.concurrentPerform(iterations: senders) { sender in
                for index in 0..<perSender {
                    if index == 3 { connection.send(big) }
                    connection.send(.notification(method: "m", params: ["sender": .int(Int64(sender)), "index": .int(Int64(index))]))
                }
            }
        }
        let items = readFrames(from: pipes.fromServer, count: senders * (perSender + 1))
        XCTAssertEqual(writers.wait(timeout: .now() + 20), .success, "the senders did not finish within 20 s")
        XCTAssertEqual(items.count, senders * (perSender + 1))
        var nextIndex = [Int](repeating: 0, count: senders)
        var bigCount = 0
        for item in items {
            guard case .body(let body) = item, let value = try? JSON.parse(body),
                  let message = try? Message.decode(value).get() else {
                return XCTFail("a frame was damaged")
            }
            if message == big {
                bigCount += 1
                continue
            }
            guard case .notification(_, let params?) = message,
                  let sender = params["sender"]?.intValue, let index = params["index"]?.intValue else {
                return XCTFail("unexpected \(message)")
            }
            // Each sender's messages arrive in the order it sent them.
            XCTAssertEqual(index, nextIndex[sender])
            nextIndex[sender] += 1
        }
        XCTAssertEqual(bigCount, senders)
    }

    func testWritingToAClosedPipeFailsQuietly() throws {
        // The server ignores SIGPIPE; so does this test process.
        signal(SIGPIPE, SIG_IGN)
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        pipes.close(pipes.fromServer)
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput)
        XCTAssertFalse(connection.isBroken)
        connection.send(.notification(method: "a", params: nil))
        XCTAssertTrue(connection.isBroken)
        connection.send(.notification(method: "b", params: nil))
        XCTAssertFalse(connection.sendFrame(Framing.frame(Array("{}".utf8))))
    }

    func testEndOfInputImmediately() throws {
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput)
        let recorder = Recorder()
        connection.start { recorder.record($0) }
        connection.start { _ in XCTFail("a second start must do nothing") }
        writeAll(Array("Content-Length: 10\r\n\r\n{}".utf8), to: pipes.toServer)
        pipes.close(pipes.toServer)
        XCTAssertEqual(recorder.wait(), [.endOfInput], "a partial message at EOF is dropped")
    }

    func testCloseStopsSending() throws {
        let pipes = try Pipes()
        defer { pipes.closeAll() }
        let connection = Connection(input: pipes.serverInput, output: pipes.serverOutput)
        connection.close()
        XCTAssertFalse(connection.sendFrame(Framing.frame(Array("{}".utf8))))
        XCTAssertFalse(connection.isBroken)
    }
}

// Inside the test classes `close` and `read` would resolve to their own methods, so the C
// functions get names of their own.
#if canImport(Glibc)
private func systemClose(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    Glibc.read(descriptor, buffer, count)
}
#elseif canImport(Darwin)
private func systemClose(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    Darwin.read(descriptor, buffer, count)
}
#endif
