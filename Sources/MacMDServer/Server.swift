// The language server: lifecycle, ordering, cancellation and the requests MacMD serves.
//
// Concurrency contract:
// - The connection's one reader thread calls `handle(_:)` for every incoming event, in stream
//   order. Everything that changes state (lifecycle, open documents, cancellation, responses to
//   our own requests) happens right there, in that order. An update to a document is therefore
//   a barrier for every later request on it: a request takes its snapshot on the reader thread,
//   after all earlier updates were applied.
// - Work that reads snapshots (rendering a preview) runs on a concurrent dispatch queue, side by
//   side; results go out through the connection's serial writer. No unstructured Task per message.
// - `$/cancelRequest` is handled on the reader thread as it arrives, so it overtakes queued and
//   running work; a cancelled request answers -32800 instead of its result.
// - A result computed from a document version that is no longer current answers -32801.
// - State lives in one `Mutex`; nothing else is shared.
//
// Bad input never stops the server: every failure is a `ResponseError` answer or a log line.

import Dispatch
import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ServerConfiguration: Sendable {
    public var version: String
    public var maxContentLength: Int
    public init(version: String, maxContentLength: Int = 64 << 20) {
        self.version = version
        self.maxContentLength = maxContentLength
    }
}

public final class Server: Sendable {
    enum Lifecycle: Sendable { case uninitialized, running, shutDown }

    struct ClientInfo: Sendable {
        var encoding: PositionEncoding = .utf16
        var supportsConfiguration = false
        var supportsDynamicConfigurationRegistration = false
        var supportsWorkDoneProgress = false
        var supportsPullDiagnostics = false
        var supportsDiagnosticRefresh = false
        var supportsWatchedFilesRegistration = false
        var supportsDocumentChanges = false
        var name: String?
    }

    struct ParsedTree: Sendable {
        var version: Int
        var profile: ParseOptions.Profile
        var tree: SyntaxTree
    }

    struct State: Sendable {
        var lifecycle = Lifecycle.uninitialized
        var client = ClientInfo()
        var documents: [String: OpenDocument] = [:]
        /// The last parsed tree of each open document (see `parsedTree`); dropped on any change.
        var parsedTrees: [String: ParsedTree] = [:]
        /// Requests being worked on, and those of them the client cancelled.
        var inFlight: Set<RequestID> = []
        var cancelled: Set<RequestID> = []
        /// Our own requests to the client awaiting their responses.
        var nextOutgoingID: Int64 = 1
        var pendingOutgoing: [RequestID: @Sendable (Result<JSONValue, ResponseError>) -> Void] = [:]
        var exitCode: Int32?
        /// The notebooks (see Server+Notebook.swift).
        var roots: [NotebookRoot] = []
        /// The editor's settings layers (section `macmd`).
        var initializationOptions: JSONValue?
        var editorSettings: JSONValue?
        /// The version of each open document the notebook holds the symbols of.
        var indexedVersions: [String: Int] = [:]
        /// Notes the last `workspace/diagnostic` reported problems for.
        var workspaceDiagnosticURIs: Set<String> = []
    }

    public let configuration: ServerConfiguration
    let connection: Connection
    let logger: Logger
    let state = Mutex(State())
    let workers = DispatchQueue(label: "macmd.requests", attributes: .concurrent)
    /// Notebook scans (see Server+Notebook.swift).
    let scanner = DispatchQueue(label: "macmd.scan")
    /// Re-indexing after edits and file events, one job at a time, in arrival order.
    let indexer = DispatchQueue(label: "macmd.index")
    let finished = DispatchSemaphore(value: 0)
    /// Tests hold queued work here to make cancellation and staleness deterministic; nil in use.
    let workGate: DispatchSemaphore?

    public init(connection: Connection, configuration: ServerConfiguration, logger: Logger,
                workGate: DispatchSemaphore? = nil) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        self.workGate = workGate
    }

    /// Serves until `exit` or end of input; returns the process exit status (0 after `shutdown`).
    public func run() -> Int32 {
        connection.start { [self] event in handle(event) }
        finished.wait()
        return state.withLock { $0.exitCode ?? 1 }
    }

    /// Finishes serving with `code` (the first call wins).
    func finish(_ code: Int32) {
        let first = state.withLock { state -> Bool in
            guard state.exitCode == nil else { return false }
            state.exitCode = code
            return true
        }
        if first {
            connection.close()
            finished.signal()
        }
    }

    // MARK: Events (reader thread)

    func handle(_ event: ConnectionEvent) {
        switch event {
        case .message(let message):
            switch message {
            case .request(let id, let method, let params): handleRequest(id: id, method: method, params: params)
            case .notification(let method, let params): handleNotification(method: method, params: params)
            case .response(let id, let result): handleResponse(id: id, result: result)
            }
        case .invalid(let failure):
            logger.warn("invalid message: \(failure.error.message)")
            connection.send(.response(id: failure.id, result: .failure(failure.error)))
        case .framingError(let error):
            logger.warn("framing error: \(error)")
            if case .tooLarge(let length) = error {
                connection.send(.response(id: nil, result: .failure(ResponseError(
                    code: ResponseError.invalidRequest,
                    message: "message of \(length) bytes is over the limit of \(configuration.maxContentLength) bytes"))))
            }
        case .endOfInput:
            let shutDown = state.withLock { $0.lifecycle == .shutDown }
            logger.info("end of input; exiting")
            finish(shutDown ? 0 : 1)
        }
    }

    func reply(_ id: RequestID, _ result: Result<JSONValue, ResponseError>) {
        let start = Server.monotonicSeconds()
        connection.send(.response(id: id, result: result))
        logger.debug("reply \(id) sent in \(Int((Server.monotonicSeconds() - start) * 1e6)) µs")
    }

    func handleRequest(id: RequestID, method: String, params: JSONValue?) {
        let lifecycle = state.withLock { $0.lifecycle }
        switch lifecycle {
        case .uninitialized where method != InitializeParams.method:
            reply(id, .failure(ResponseError(code: ResponseError.serverNotInitialized,
                                             message: "the server is not initialized: send `initialize` first")))
            return
        case .running where method == InitializeParams.method:
            reply(id, .failure(ResponseError(code: ResponseError.invalidRequest, message: "`initialize` may only be sent once")))
            return
        case .shutDown:
            reply(id, .failure(ResponseError(code: ResponseError.invalidRequest,
                                             message: "the server is shutting down: only `exit` is accepted")))
            return
        default:
            break
        }
        switch method {
        case InitializeParams.method:
            reply(id, initialize(params))
        case "shutdown":
            state.withLock { $0.lifecycle = .shutDown }
            reply(id, .success(.null))
        case PreviewParams.method:
            preview(id: id, params: params)
        case "textDocument/diagnostic":
            pullDiagnostics(id: id, params: params)
        case "workspace/diagnostic":
            pullWorkspaceDiagnostics(id: id)
        case "textDocument/definition":
            definition(id: id, params: params)
        case "textDocument/references":
            references(id: id, params: params)
        case "textDocument/hover":
            hover(id: id, params: params)
        case "textDocument/prepareRename":
            prepareRename(id: id, params: params)
        case "textDocument/rename":
            rename(id: id, params: params)
        case "workspace/willRenameFiles":
            willRenameFiles(id: id, params: params)
        case "textDocument/documentLink":
            documentLinks(id: id, params: params)
        case "textDocument/documentSymbol":
            documentSymbols(id: id, params: params)
        case "textDocument/foldingRange":
            foldingRanges(id: id, params: params)
        case "workspace/symbol":
            workspaceSymbols(id: id, params: params)
        case "textDocument/codeAction":
            codeActions(id: id, params: params)
        case "textDocument/completion":
            completion(id: id, params: params)
        case "completionItem/resolve":
            resolveCompletion(id: id, params: params)
        default:
            reply(id, .failure(ResponseError(code: ResponseError.methodNotFound, message: "unknown method `\(method)`")))
        }
    }

    func handleNotification(method: String, params: JSONValue?) {
        if method == "exit" {
            let shutDown = state.withLock { $0.lifecycle == .shutDown }
            finish(shutDown ? 0 : 1)
            return
        }
        if method == CancelParams.method {
            guard let cancel = try? CancelParams(params) else { return }
            state.withLock { state in
                if state.inFlight.contains(cancel.id) { state.cancelled.insert(cancel.id) }
            }
            return
        }
        guard state.withLock({ $0.lifecycle == .running }) else {
            logger.debug("ignoring `\(method)` outside the running state")
            return
        }
        do throws(ResponseError) {
            switch method {
            case "initialized":
                afterInitialized()
            case DidOpenParams.method:
                let opened = Server.monotonicSeconds()
                defer { logger.debug("didOpen applied in \(Int((Server.monotonicSeconds() - opened) * 1e6)) µs") }
                let p = try DidOpenParams(params)
                state.withLock {
                    $0.documents[p.uri] = OpenDocument(uri: p.uri, version: p.version, languageID: p.languageID, text: Array(p.text.utf8))
                    $0.parsedTrees[p.uri] = nil
                }
                scheduleIndexing(of: p.uri)
            case DidChangeParams.method:
                let p = try DidChangeParams(params)
                let applied = state.withLock { state -> Bool in
                    guard var document = state.documents[p.uri] else { return false }
                    document.text = TextEditing.apply(p.changes, to: document.text, encoding: state.client.encoding)
                    document.version = p.version ?? document.version + 1
                    state.documents[p.uri] = document
                    state.parsedTrees[p.uri] = nil
                    return true
                }
                if applied { scheduleIndexing(of: p.uri) } else { logger.warn("didChange for a document that is not open: \(p.uri)") }
            case "textDocument/didClose":
                let p = try DocumentParams(params)
                state.withLock {
                    _ = $0.documents.removeValue(forKey: p.uri)
                    $0.parsedTrees[p.uri] = nil
                }
                scheduleIndexing(of: p.uri)
                // Push clients keep what was published until it is cleared.
                if !state.withLock({ $0.client.supportsPullDiagnostics }) {
                    connection.send(.notification(method: "textDocument/publishDiagnostics",
                                                  params: ["uri": .string(p.uri), "diagnostics": []]))
                }
            case "textDocument/didSave":
                let p = try DocumentParams(params)
                if let text = p.text {
                    state.withLock {
                        $0.documents[p.uri]?.text = Array(text.utf8)
                        $0.parsedTrees[p.uri] = nil
                    }
                    scheduleIndexing(of: p.uri)
                }
                // Without a file watcher, a save is when other files' changes are looked for.
                if !state.withLock({ $0.client.supportsWatchedFilesRegistration }), let location = locate(p.uri) {
                    indexer.async { [self] in refreshFromDisk(location.root) }
                }
            case "workspace/didChangeWatchedFiles":
                handleFileEvents(try FileEvent.watched(params))
            case "workspace/didCreateFiles":
                handleFileEvents(try FileOperationParams(params, renames: false).files.map { FileEvent(uri: $0.new, kind: .created) })
            case "workspace/didDeleteFiles":
                handleFileEvents(try FileOperationParams(params, renames: false).files.map { FileEvent(uri: $0.new, kind: .deleted) })
            case "workspace/didRenameFiles":
                handleFileEvents(try FileOperationParams(params, renames: true).files.flatMap { file in
                    [FileEvent(uri: file.old ?? "", kind: .deleted), FileEvent(uri: file.new, kind: .created)]
                })
            case "workspace/didChangeWorkspaceFolders":
                let event = ParamReader(params).field("event")
                let added = try (event.field("added").optionalArray() ?? []).map { folder throws(ResponseError) in try folder.field("uri").string() }
                let removed = try (event.field("removed").optionalArray() ?? []).map { folder throws(ResponseError) in try folder.field("uri").string() }
                changeWorkspaceFolders(added: added, removed: removed)
            case "workspace/didChangeConfiguration":
                if let settings = params?["settings"]?["macmd"] { apply(settings: settings) }
                else { requestConfiguration() }
            default:
                // `$/…` and unknown notifications are ignored, as the protocol asks.
                logger.debug("ignoring notification `\(method)`")
            }
        } catch {
            logger.warn("`\(method)`: \(error.message)")
        }
    }

    func handleResponse(id: RequestID?, result: Result<JSONValue, ResponseError>) {
        guard let id else {
            logger.warn("response without an id: \(result)")
            return
        }
        let handler = state.withLock { $0.pendingOutgoing.removeValue(forKey: id) }
        guard let handler else {
            logger.warn("response to unknown request \(id)")
            return
        }
        handler(result)
    }

    // MARK: Our own requests to the client

    /// Sends a request to the client; `onResult` runs on the reader thread with its response.
    func sendRequest(_ method: String, params: JSONValue,
                     onResult: @escaping @Sendable (Result<JSONValue, ResponseError>) -> Void) {
        let id = state.withLock { state -> RequestID in
            let id = RequestID.string("macmd-\(state.nextOutgoingID)")
            state.nextOutgoingID += 1
            state.pendingOutgoing[id] = onResult
            return id
        }
        connection.send(.request(id: id, method: method, params: params))
    }

    func afterInitialized() {
        let client = state.withLock { $0.client }
        if client.supportsDynamicConfigurationRegistration {
            sendRequest("client/registerCapability", params: ["registrations": [[
                "id": "macmd-configuration", "method": "workspace/didChangeConfiguration",
                "registerOptions": ["section": "macmd"],
            ]]]) { [logger] result in
                if case .failure(let error) = result { logger.warn("registerCapability failed: \(error.message)") }
            }
        }
        if client.supportsWatchedFilesRegistration {
            let extensions = state.withLock { state in
                Set(state.roots.flatMap { $0.configuration.extensions + ScanOptions().assetExtensions }).sorted()
            }
            let glob = "**/*.{\((extensions.isEmpty ? NotebookConfiguration().extensions + ScanOptions().assetExtensions : extensions).joined(separator: ","))}"
            sendRequest("client/registerCapability", params: ["registrations": [[
                "id": "macmd-watched-files", "method": "workspace/didChangeWatchedFiles",
                // `.gitignore` files and the notebook's `.macmd.json` decide which files belong.
                "registerOptions": ["watchers": [["globPattern": .string(glob)], ["globPattern": "**/"],
                                                 ["globPattern": "**/.gitignore"], ["globPattern": "**/.macmd.json"]]],
            ]]]) { [logger] result in
                if case .failure(let error) = result { logger.warn("watching files failed: \(error.message)") }
            }
        }
        requestConfiguration()
        startScans()
    }

    func requestConfiguration() {
        guard state.withLock({ $0.client.supportsConfiguration }) else { return }
        sendRequest("workspace/configuration", params: ["items": [["section": "macmd"]]]) { [self] result in
            if case .success(let value) = result, let first = value[0], !first.isNull { apply(settings: first) }
        }
    }

    func apply(settings: JSONValue) {
        state.withLock { $0.editorSettings = settings }
        reloadConfigurations()
    }

    /// The editor's settings alone (`initializationOptions`, then the workspace settings): the
    /// configuration of a note that is in no notebook.
    func editorConfiguration() -> NotebookConfiguration {
        let editor = state.withLock { ($0.initializationOptions, $0.editorSettings) }
        var layers: [(name: String, value: JSONValue)] = []
        if let options = editor.0 { layers.append(("initializationOptions", options)) }
        if let settings = editor.1 { layers.append(("workspace settings", settings)) }
        return NotebookConfiguration.merged(layers)
    }

    /// Editor settings change every notebook's configuration; diagnostics follow at once.
    func reloadConfigurations() {
        let roots = state.withLock { $0.roots.map { ($0.path, $0.resolvedPath) } }
        guard !roots.isEmpty else {
            // No notebook logs them (`loadConfiguration`), so say here what was ignored.
            for problem in editorConfiguration().problems { logger.warn("configuration: \(problem)") }
            return
        }
        let configurations = roots.map { loadConfiguration(root: $0.1) }
        state.withLock { state in
            for (root, configuration) in zip(roots, configurations) {
                if let index = state.roots.firstIndex(where: { $0.path == root.0 }) { state.roots[index].configuration = configuration }
            }
        }
        publishDiagnostics(forOpenNotesIn: Set(roots.map(\.0)))
        // New ignore globs or size limits change which files belong: re-check the disk.
        for root in roots { indexer.async { [self] in refreshFromDisk(root.0) } }
    }

    // MARK: initialize

    /// Which files the file operations are about: notes, assets and folders.
    static let fileOperationFilters: JSONValue = ["filters": [
        ["pattern": ["glob": "**/*.{md,markdown}", "matches": "file", "options": ["ignoreCase": true]]],
        ["pattern": ["glob": "**/*.{png,jpg,jpeg,gif,svg,webp,avif,bmp,pdf}", "matches": "file", "options": ["ignoreCase": true]]],
        ["pattern": ["glob": "**", "matches": "folder"]],
    ]]

    /// The `did…` file operations also report the files that decide which notes belong
    /// (`.gitignore`, `.macmd.json`); renaming those rewrites no link, so `willRename` leaves them out.
    static let didFileOperationFilters: JSONValue = ["filters": [
        ["pattern": ["glob": "**/*.{md,markdown}", "matches": "file", "options": ["ignoreCase": true]]],
        ["pattern": ["glob": "**/*.{png,jpg,jpeg,gif,svg,webp,avif,bmp,pdf}", "matches": "file", "options": ["ignoreCase": true]]],
        ["pattern": ["glob": "**/{.gitignore,.macmd.json}", "matches": "file"]],
        ["pattern": ["glob": "**", "matches": "folder"]],
    ]]

    func initialize(_ params: JSONValue?) -> Result<JSONValue, ResponseError> {
        let p: InitializeParams
        do { p = try InitializeParams(params) } catch { return .failure(error) }
        let encoding = PositionEncoding.negotiate(offered: p.positionEncodings)
        state.withLock { state in
            state.lifecycle = .running
            state.client = ClientInfo(encoding: encoding, supportsConfiguration: p.supportsConfiguration,
                                      supportsDynamicConfigurationRegistration: p.supportsDynamicConfigurationRegistration,
                                      supportsWorkDoneProgress: p.supportsWorkDoneProgress,
                                      supportsPullDiagnostics: p.supportsPullDiagnostics,
                                      supportsDiagnosticRefresh: p.supportsDiagnosticRefresh,
                                      supportsWatchedFilesRegistration: p.supportsWatchedFilesRegistration,
                                      supportsDocumentChanges: p.supportsDocumentChanges, name: p.clientName)
            state.initializationOptions = p.initializationOptions
        }
        setUpRoots(p)
        if state.withLock({ $0.roots.isEmpty }) {
            for problem in editorConfiguration().problems { logger.warn("configuration: \(problem)") }
        }
        logger.info("initialized by \(p.clientName ?? "an unnamed client"); positions in \(encoding.rawValue)")
        return .success([
            "capabilities": [
                "positionEncoding": .string(encoding.rawValue),
                "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
                "diagnosticProvider": ["identifier": "macmd", "interFileDependencies": true, "workspaceDiagnostics": true],
                "definitionProvider": true,
                "referencesProvider": true,
                "hoverProvider": true,
                "renameProvider": ["prepareProvider": true],
                "documentLinkProvider": ["resolveProvider": false],
                "documentSymbolProvider": true,
                "completionProvider": ["triggerCharacters": Server.completionTriggers, "resolveProvider": true],
                "foldingRangeProvider": true,
                "workspaceSymbolProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix", "refactor.rewrite"]],
                "workspace": [
                    "workspaceFolders": ["supported": true, "changeNotifications": true],
                    "fileOperations": [
                        "didCreate": Server.didFileOperationFilters, "didDelete": Server.didFileOperationFilters,
                        "didRename": Server.didFileOperationFilters, "willRename": Server.fileOperationFilters,
                    ],
                ],
                "experimental": ["macmd": ["preview": true]],
            ],
            "serverInfo": ["name": "macmd", "version": .string(configuration.version)],
        ])
    }

    // MARK: Work on the queue

    /// Runs `work` off the reader thread; answers -32800 if the client cancels first.
    func schedule(_ id: RequestID, _ work: @escaping @Sendable () -> Result<JSONValue, ResponseError>) {
        state.withLock { _ = $0.inFlight.insert(id) }
        workers.async { [self] in
            if let workGate {
                workGate.wait()
                workGate.signal()
            }
            let cancelledBefore = state.withLock { $0.cancelled.contains(id) }
            let started = Server.monotonicSeconds()
            let result: Result<JSONValue, ResponseError> = cancelledBefore
                ? .failure(ResponseError(code: ResponseError.requestCancelled, message: "request cancelled"))
                : work()
            logger.debug("request \(id) computed in \(Int((Server.monotonicSeconds() - started) * 1_000_000)) µs")
            let cancelled = state.withLock { state -> Bool in
                state.inFlight.remove(id)
                return state.cancelled.remove(id) != nil
            }
            reply(id, cancelled ? .failure(ResponseError(code: ResponseError.requestCancelled, message: "request cancelled")) : result)
        }
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The current version of an open document, or nil.
    func currentVersion(of uri: String) -> Int? {
        state.withLock { $0.documents[uri]?.version }
    }
}
