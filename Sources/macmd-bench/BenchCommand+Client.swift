// The client of `macmd-bench all`: any language server (MacMD or a peer) as an editor meets it,
// a child process on two pipes, started in the notebook's folder.
//
// Invariants:
// - Every wait has a deadline: a peer that does not answer makes a scenario `failed`, never a
//   hang. A late answer to a request given up on is read and dropped.
// - The server's own requests are answered as a plain editor would (`workspace/configuration`
//   with one null per item, everything else with null), so no server waits on the client.
// - `$/progress` is followed per token: a token that began and ended is an index that finished.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import JSONRPC

extension BenchCommand {
    struct LSPClient {
        let pid: pid_t
        let input: Int32
        let output: Int32
        var framer = MessageFramer()
        var nextID: Int64 = 1
        /// The `capabilities` of the initialize answer.
        var capabilities: JSONValue = .null
        var progressBegun: Set<String> = []
        var progressEnded: Set<String> = []
        /// Answers that arrived while waiting for something else: id → (result, arrival time).
        var answers: [RequestID: (result: Result<JSONValue, ResponseError>, at: Double)] = [:]
        /// Pushed diagnostics by URI: how many times, and the last version (if the server sent one).
        var pushes: [String: (count: Int, version: Int?)] = [:]
        var exited = false

        /// Starts `arguments` in `directory`, stdin and stdout on pipes, stderr to /dev/null.
        static func start(_ arguments: [String], in directory: String) -> LSPClient? {
            var toChild: [Int32] = [0, 0]
            var fromChild: [Int32] = [0, 0]
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { return nil }
            let pid = BenchCommand.spawn(arguments) { actions in
                posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
                posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addclose(&actions, toChild[1])
                posix_spawn_file_actions_addclose(&actions, fromChild[0])
                BenchCommand.spawnIn(directory, &actions)
            }
            close(toChild[0])
            close(fromChild[1])
            guard let pid else {
                close(toChild[1])
                close(fromChild[0])
                return nil
            }
            // A server that dies must not kill the benchmark with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            return LSPClient(pid: pid, input: toChild[1], output: fromChild[0])
        }

        /// The initialize request an editor sends for a notebook at `root`.
        static func initializeParams(root: String) -> JSONValue {
            let uri = BenchCommand.fileURI(root)
            return [
                "processId": .int(Int64(getpid())), "rootUri": .string(uri), "rootPath": .string(root),
                "workspaceFolders": [["uri": .string(uri), "name": "notebook"]],
                "clientInfo": ["name": "macmd-bench all"],
                "capabilities": [
                    "textDocument": [
                        "synchronization": ["didSave": true, "dynamicRegistration": false],
                        "completion": ["completionItem": ["snippetSupport": true, "labelDetailsSupport": true],
                                       "contextSupport": true],
                        "publishDiagnostics": ["versionSupport": true, "relatedInformation": true],
                        "diagnostic": ["dynamicRegistration": false, "relatedDocumentSupport": false],
                        "rename": ["prepareSupport": true],
                        "references": [:], "definition": ["linkSupport": true], "hover": ["contentFormat": ["markdown", "plaintext"]],
                    ],
                    "window": ["workDoneProgress": true],
                    "workspace": [
                        "configuration": true, "workspaceFolders": true,
                        "workspaceEdit": ["documentChanges": true, "resourceOperations": ["create", "rename", "delete"]],
                        "fileOperations": ["willRename": true, "didRename": true],
                        "diagnostics": ["refreshSupport": false],
                    ],
                    "general": ["positionEncodings": ["utf-16"]],
                ],
            ]
        }

        func send(_ message: Message) {
            _ = StandardStreams.writeAll(Framing.frame(message), to: input)
        }

        /// Sends a request and returns its id.
        mutating func request(_ method: String, _ params: JSONValue) -> RequestID {
            let id = RequestID.int(nextID)
            nextID += 1
            send(.request(id: id, method: method, params: params))
            return id
        }

        func notify(_ method: String, _ params: JSONValue) {
            send(.notification(method: method, params: params))
        }

        /// Waits for the answers to `ids` until `deadline` (a `now()` time); each with the time it
        /// arrived. nil when one of them did not arrive in time.
        mutating func answers(to ids: [RequestID], deadline: Double) -> [RequestID: (result: Result<JSONValue, ResponseError>, at: Double)]? {
            while !ids.allSatisfy({ answers[$0] != nil }) {
                guard readMessage(until: deadline) else { return nil }
            }
            var found: [RequestID: (result: Result<JSONValue, ResponseError>, at: Double)] = [:]
            for id in ids { found[id] = answers.removeValue(forKey: id) }
            return found
        }

        /// One request, answered within `seconds`: its result and latency, or nil.
        mutating func call(_ method: String, _ params: JSONValue, seconds: Double = 30) -> (result: Result<JSONValue, ResponseError>, seconds: Double)? {
            let start = BenchCommand.now()
            let id = request(method, params)
            guard let answer = answers(to: [id], deadline: start + seconds)?[id] else { return nil }
            return (answer.result, answer.at - start)
        }

        /// Reads messages until `condition` holds or `deadline` passes; true when it held.
        mutating func wait(until deadline: Double, for condition: (LSPClient) -> Bool) -> Bool {
            while !condition(self) {
                guard readMessage(until: deadline) else { return false }
            }
            return true
        }

        /// Reads and handles one message; false when none came before `deadline` or the server
        /// has gone.
        mutating func readMessage(until deadline: Double) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                while let item = framer.next() {
                    guard case .body(let body) = item, let json = try? JSON.parse(body),
                          case .success(let message) = Message.decode(json) else { continue }
                    handle(message)
                    return true
                }
                if exited { return false }
                let remaining = deadline - BenchCommand.now()
                guard remaining > 0 else { return false }
                var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(min(remaining * 1000 + 1, 60_000)))
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { continue }
                let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    exited = true
                    return false
                }
                chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }

        private mutating func handle(_ message: Message) {
            switch message {
            case .response(let id?, let result):
                answers[id] = (result, BenchCommand.now())
            case .response(nil, _):
                break
            case .request(let id, let method, let params):
                if method == "workspace/configuration" {
                    let count = params?["items"]?.arrayValue?.count ?? 0
                    send(.response(id: id, result: .success(.array(Array(repeating: .null, count: count)))))
                } else {
                    send(.response(id: id, result: .success(.null)))
                }
            case .notification("$/progress", let params):
                guard let token = params?["token"].flatMap(Self.token), let kind = params?["value"]?["kind"]?.stringValue else { return }
                if kind == "begin" { progressBegun.insert(token) }
                if kind == "end" { progressEnded.insert(token) }
            case .notification("textDocument/publishDiagnostics", let params):
                guard let uri = params?["uri"]?.stringValue else { return }
                let count = (pushes[uri]?.count ?? 0) + 1
                pushes[uri] = (count, params?["version"]?.intValue)
            case .notification:
                break
            }
        }

        private static func token(_ value: JSONValue) -> String? {
            value.stringValue ?? value.intValue.map { "#\($0)" }
        }

        /// A progress that began has ended (an index finished).
        var indexed: Bool { !progressBegun.isEmpty && progressBegun.isSubset(of: progressEnded) }

        /// The server's `completionProvider.triggerCharacters`.
        var triggerCharacters: Set<String> {
            Set(capabilities["completionProvider"]?["triggerCharacters"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }

        /// Whether the server takes incremental changes (`textDocumentSync` 2).
        var incremental: Bool {
            let sync = capabilities["textDocumentSync"]
            return (sync?.intValue ?? sync?["change"]?.intValue) == 2
        }

        var pullsDiagnostics: Bool { capabilities["diagnosticProvider"].map { !$0.isNull } ?? false }

        /// Whether the server advertises `name` (a capability present and not false/null).
        func supports(_ name: String) -> Bool {
            guard let value = capabilities[name] else { return false }
            return !value.isNull && value.boolValue != false
        }

        func status(_ field: String) -> Int? {
            BenchCommand.statusBytes(of: pid, field)
        }

        /// Shuts the server down politely, then for good after two seconds.
        mutating func stop() {
            if !exited {
                let id = request("shutdown", .null)
                _ = answers(to: [id], deadline: BenchCommand.now() + 2)
                notify("exit", .null)
            }
            close(input)
            let deadline = BenchCommand.now() + 2
            var status: Int32 = 0
            while true {
                let done = waitpid(pid, &status, WNOHANG)
                if done == pid || (done < 0 && errno != EINTR) { break }
                if BenchCommand.now() > deadline {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    break
                }
                usleep(5_000)
            }
            close(output)
        }
    }
}

extension BenchCommand {
    #if canImport(Glibc)
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which Swift's Glibc module does not show.
    private static let addChdir: AddChdir? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }
    #endif

    /// Makes the child start in `directory` (false where the C library cannot).
    @discardableResult
    static func spawnIn(_ directory: String, _ actions: inout posix_spawn_file_actions_t) -> Bool {
        #if canImport(Glibc)
        guard let addChdir else { return false }
        return addChdir(&actions, directory) == 0
        #else
        return posix_spawn_file_actions_addchdir_np(&actions, directory) == 0
        #endif
    }
}
