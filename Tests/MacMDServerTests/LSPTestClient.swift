import Dispatch
import Foundation
import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// Drives an in-process `Server` over two pipes, as an editor would over stdio.
final class LSPTestClient: @unchecked Sendable {
    let server: Server
    let toServer: Int32
    let fromServer: Int32
    var framer = MessageFramer()
    /// Everything the server sent that was not the response being waited for.
    var received: [Message] = []
    var nextID: Int64 = 1
    /// The result of the last successful `initialize`.
    var initializeResult: JSONValue?
    let exitCode = Protected<Int32?>(nil)
    let gate: DispatchSemaphore?
    let done = DispatchSemaphore(value: 0)

    /// Holds cold indexes before their end until `releaseScan()` (`holdScan`).
    let scanGate: DispatchSemaphore?

    /// `environment` is the server's (`ServerConfiguration.environment`): the writer's language
    /// when the client names none, and the language of dates.
    init(maxContentLength: Int = 64 << 20, holdWork: Bool = false, holdScan: Bool = false, logger: Logger = Logger(level: .error),
         environment: [String: String] = [:], completionScanWaitSeconds: Double = 60) {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        pipe(&input)
        pipe(&output)
        toServer = input[1]
        fromServer = output[0]
        gate = holdWork ? DispatchSemaphore(value: 0) : nil
        scanGate = holdScan ? DispatchSemaphore(value: 0) : nil
        let connection = Connection(input: input[0], output: output[1], maxContentLength: maxContentLength)
        server = Server(connection: connection, configuration: ServerConfiguration(version: "test", maxContentLength: maxContentLength,
                                                                                userSnippetsCheckSeconds: 0, environment: environment,
                                                                                completionScanWaitSeconds: completionScanWaitSeconds),
                        logger: logger, workGate: gate, scanGate: scanGate)
        let server = self.server
        let exitCode = self.exitCode
        let done = self.done
        Thread.detachNewThread {
            let code = server.run()
            exitCode.set(code)
            done.signal()
        }
    }

    /// Lets held work run.
    func releaseWork() { gate?.signal() }
    /// Lets held cold indexes end.
    func releaseScan() { scanGate?.signal() }

    func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = write(toServer, base + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    func send(_ message: Message) { writeRaw(Framing.frame(message)) }

    func notify(_ method: String, _ params: JSONValue? = nil) { send(.notification(method: method, params: params)) }

    /// Sends a request and returns its id.
    @discardableResult
    func sendRequest(_ method: String, _ params: JSONValue? = nil) -> RequestID {
        let id = RequestID.int(nextID)
        nextID += 1
        send(.request(id: id, method: method, params: params))
        return id
    }

    /// Reads the next message from the server, waiting up to `timeout` seconds.
    func nextMessage(timeout: Double = 10) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let item = framer.next() {
                switch item {
                case .body(let body):
                    guard let json = try? JSON.parse(body), case .success(let message) = Message.decode(json) else { continue }
                    return message
                case .error:
                    continue
                }
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fromServer, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 1) * 1000))
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fromServer, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            framer.append(Array(chunk[0..<n]))
        }
    }

    /// Waits for the response to `id` (looking first at what arrived earlier: responses to
    /// requests answered side by side come in any order), keeping anything else in `received`;
    /// no response within `timeout` seconds fails the test.
    func response(to id: RequestID?, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Result<JSONValue, ResponseError>? {
        if let index = received.firstIndex(where: { if case .response(id, _) = $0 { return true } else { return false } }),
           case .response(_, let result) = received.remove(at: index) {
            return result
        }
        while let message = nextMessage(timeout: timeout) {
            if case .response(let rid, let result) = message, rid == id { return result }
            received.append(message)
        }
        XCTFail("no response to request \(id.map { "\($0)" } ?? "null") within \(timeout) s", file: file, line: line)
        return nil
    }

    /// Waits for a notification `method` whose params satisfy `accept`, looking first at what
    /// arrived earlier. The server's own requests met on the way are answered (null results;
    /// `workspace/configuration` gets `[null]`) when `answerRequests` is set. None within
    /// `timeout` seconds fails the test.
    func notification(_ method: String, timeout: Double = 10, answerRequests: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line,
                      where accept: (JSONValue?) -> Bool = { _ in true }) -> JSONValue? {
        if let index = received.firstIndex(where: {
            if case .notification(method, let params) = $0 { return accept(params) }
            return false
        }) {
            guard case .notification(_, let params) = received.remove(at: index) else { return nil }
            return params ?? .null
        }
        while let message = nextMessage(timeout: timeout) {
            if case .notification(method, let params) = message, accept(params) { return params ?? .null }
            if answerRequests, case .request(let id, let requested, _) = message {
                send(.response(id: id, result: .success(requested == "workspace/configuration" ? [.null] : .null)))
            }
            received.append(message)
        }
        let seen = received.compactMap { message -> String? in
            guard case .notification(method, let params) = message else { return nil }
            return params.map { "\($0)" } ?? "null"
        }
        XCTFail("no `\(method)` the test waits for within \(timeout) s; those received: \(seen.suffix(5))", file: file, line: line)
        return nil
    }

    /// Waits for the server's request `method` and answers it with `null`, looking first at what
    /// arrived earlier; the server's other requests met on the way are answered too. None within
    /// `timeout` seconds fails the test.
    func serverRequest(_ method: String, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
        if let index = received.firstIndex(where: { if case .request(_, method, _) = $0 { return true } else { return false } }),
           case .request(let id, _, _) = received.remove(at: index) {
            send(.response(id: id, result: .success(.null)))
            return
        }
        while let message = nextMessage(timeout: timeout) {
            guard case .request(let id, let requested, _) = message else {
                received.append(message)
                continue
            }
            send(.response(id: id, result: .success(requested == "workspace/configuration" ? [.null] : .null)))
            if requested == method { return }
        }
        XCTFail("no `\(method)` request from the server within \(timeout) s", file: file, line: line)
    }

    /// Diagnostics published for `uri` that satisfy `accept` (the codes, in order); none within
    /// `timeout` seconds fails the test.
    func diagnostics(for uri: String, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                     where accept: ([String]) -> Bool = { _ in true }) -> [JSONValue]? {
        let params = notification("textDocument/publishDiagnostics", timeout: timeout, file: file, line: line) { params in
            guard params?["uri"]?.stringValue == uri, let items = params?["diagnostics"]?.arrayValue else { return false }
            return accept(items.compactMap { $0["code"]?.stringValue })
        }
        return params?["diagnostics"]?.arrayValue
    }

    /// Waits for the end of the notebook scan's progress (a client that shows progress); a scan
    /// that does not end within `timeout` seconds fails the test.
    func waitForScanEnd(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
        var kind = ""
        while kind != "end", let params = notification("$/progress", timeout: timeout, file: file, line: line) {
            kind = params["value"]?["kind"]?.stringValue ?? ""
        }
    }

    func request(_ method: String, _ params: JSONValue? = nil, file: StaticString = #filePath, line: UInt = #line) -> Result<JSONValue, ResponseError>? {
        response(to: sendRequest(method, params), file: file, line: line)
    }

    /// Initializes with the given client capabilities; an error answer fails the test.
    @discardableResult
    func initialize(capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil,
                    workspaceFolders: [String] = [], rootURI: String? = nil,
                    file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        var params: [String: JSONValue] = ["processId": .null, "rootUri": rootURI.map { .string($0) } ?? .null, "capabilities": capabilities]
        if !workspaceFolders.isEmpty {
            params["workspaceFolders"] = .array(workspaceFolders.map { ["uri": .string("file://" + $0), "name": "notes"] })
        }
        if let initializationOptions { params["initializationOptions"] = initializationOptions }
        let result = request("initialize", .object(params), file: file, line: line)
        notify("initialized", [:])
        if case .failure(let error)? = result { XCTFail("initialize failed: \(error.code) \(error.message)", file: file, line: line) }
        initializeResult = result?.value
        return result?.value
    }

    /// A client that initialized a server on `fixture`'s folder, showing progress (merged into
    /// `capabilities`), and waited for the end of its scan: the whole notebook is indexed.
    static func started(on fixture: NotebookFixture, capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil,
                        logger: Logger = Logger(level: .error), environment: [String: String] = [:],
                        file: StaticString = #filePath, line: UInt = #line) -> LSPTestClient {
        let client = LSPTestClient(logger: logger, environment: environment)
        var withProgress = capabilities.objectValue ?? [:]
        withProgress["window"] = .object((withProgress["window"]?.objectValue ?? [:]).merging(["workDoneProgress": true]) { $1 })
        client.initialize(capabilities: .object(withProgress), initializationOptions: initializationOptions,
                          workspaceFolders: [fixture.root], file: file, line: line)
        client.waitForScanEnd(file: file, line: line)
        return client
    }

    /// Opens a file of `fixture` in the editor with its text on disk.
    func open(_ fixture: NotebookFixture, _ path: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(fixture.uri(path)), "languageId": "markdown",
                                                         "version": .int(Int64(version)), "text": .string(fixture.text(path))]])
    }

    /// Waits for the server to exit and returns its status; not exiting within `timeout`
    /// seconds fails the test.
    func waitForExit(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("the server did not exit within \(timeout) s", file: file, line: line)
            return nil
        }
        return exitCode.get()
    }

    /// Closes the server's input: it must end within 10 s.
    func close(file: StaticString = #filePath, line: UInt = #line) {
        Glibc.close(toServer)
        if exitCode.get() == nil { _ = waitForExit(file: file, line: line) }
        Glibc.close(fromServer)
    }
}

/// A value shared with the server thread.
final class Protected<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

extension Result where Success == JSONValue, Failure == ResponseError {
    var errorCode: Int? {
        if case .failure(let e) = self { return e.code }
        return nil
    }
    var errorMessage: String? {
        if case .failure(let e) = self { return e.message }
        return nil
    }
    var value: JSONValue? { try? get() }
}

/// A log file for an in-process server's `Logger`, read back by the test.
final class LogFile {
    let path = NSTemporaryDirectory() + "macmd-log-\(UUID().uuidString).log"
    let descriptor: Int32

    init() { descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }

    /// A logger writing to this file at `level` and above.
    func logger(_ level: LogLevel = .info) -> Logger { Logger(level: level, descriptor: descriptor) }

    /// The log so far.
    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The log once it holds `line` (a whole line, without its `\n`); not within `timeout`
    /// seconds fails the test.
    @discardableResult
    func waitFor(line: String, timeout: Double = 10, file: StaticString = #filePath, line testLine: UInt = #line) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let log = text
            if log.split(separator: "\n").contains(where: { $0 == line }) { return log }
            usleep(10_000)
        }
        XCTFail("the log has no line \(line.debugDescription) after \(timeout) s:\n\(text)", file: file, line: testLine)
        return text
    }

    deinit {
        Glibc.close(descriptor)
        unlink(path)
    }
}
