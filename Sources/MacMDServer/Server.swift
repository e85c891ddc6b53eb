// The language server: it translates LSP to the view model (`NotebookIDE`) and back, and
// schedules the work. Every feature is computed in NotebookIDE; every disk access goes through
// NotebookWorkspace; this module knows LSP and JSON and nothing else does.
//
// Concurrency contract:
// - The connection's one reader thread calls `handle(_:)` for every incoming message, in stream
//   order. It reads and decodes messages and applies what must happen in order, in memory: the
//   lifecycle, open documents' text and versions, cancellation, responses to the server's own
//   requests. It does no disk IO and no analysis (no parse, no symbols, no diagnostics).
// - A document update is a barrier for that document only: a request captures the document as
//   the reader thread has it when the request arrives, so it sees every earlier edit of it and
//   none after; it waits for nothing else.
// - Requests run on `workers`, a concurrent queue, side by side, each on an immutable snapshot
//   (`AnalysisSnapshot`) taken from the host when it starts. A request never waits for the disk
//   or a rescan: it answers from the notebooks as they are. It never creates a notebook or starts
//   a scan. The one thing a request may do to the host is file its own document's version into
//   its notebook when the document's index job has not done so yet (`fileDocument`), so what it
//   reads about its note is current.
// - `indexer` (serial) files document versions into their notebooks and publishes the
//   diagnostics they change. `disk` (serial) does everything that reads the disk: opening
//   notebooks (settings), cold indexes, refreshes, watched-file events, re-reading closed notes.
//   Both do their IO and analysis outside the lock and hold it only to apply the result.
// - `$/cancelRequest` is handled on the reader thread as it arrives, so it overtakes queued and
//   running work; a cancelled request answers -32800 instead of its result.
// - All shared state is in one `Locked` (`state`), held briefly; nothing else is shared.
//
// Bad input never stops the server: every failure is a `ResponseError` answer or a log line.

import Dispatch
import JSON
import JSONRPC
import LSPTypes
import Localization
import NotebookIDE
import NotebookWorkspace
import Locks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ServerConfiguration: Sendable {
    public var version: String
    public var maxContentLength: Int
    /// How often, at most, a completion has the user's snippet folder looked at again.
    public var userSnippetsCheckSeconds: Double
    /// The process's environment, for the writer's language when the client names none
    /// (`LANG` and friends; `LocaleChoice.forServer`). Empty in tests: English.
    public var environment: [String: String]
    /// How long a completion that needs the notebook waits for its first scan to end; then it
    /// answers from the notes indexed so far, marked incomplete, so the client asks again.
    public var completionScanWaitSeconds: Double
    public init(version: String, maxContentLength: Int = 64 << 20, userSnippetsCheckSeconds: Double = 2,
                environment: [String: String] = [:], completionScanWaitSeconds: Double = 1) {
        self.version = version
        self.maxContentLength = maxContentLength
        self.userSnippetsCheckSeconds = userSnippetsCheckSeconds
        self.environment = environment
        self.completionScanWaitSeconds = completionScanWaitSeconds
    }
}

public final class Server: Sendable {
    enum Lifecycle: Sendable { case uninitialized, running, shutDown }

    /// What the client said it can do, in `initialize`.
    struct ClientInfo: Sendable {
        var encoding: PositionEncoding = .utf16
        var supportsConfiguration = false
        var supportsDynamicConfigurationRegistration = false
        var supportsWorkDoneProgress = false
        var supportsPullDiagnostics = false
        var supportsDiagnosticRefresh = false
        /// `workspace/codeLens/refresh` is accepted (`InitializeParams.supportsCodeLensRefresh`).
        var supportsCodeLensRefresh = false
        /// `workspace/semanticTokens/refresh` is accepted (`InitializeParams.supportsSemanticTokensRefresh`).
        var supportsSemanticTokensRefresh = false
        var supportsWatchedFilesRegistration = false
        var supportsDocumentChanges = false
        var supportsSnippets = false
        var supportsChangeAnnotations = false
        /// `window/showMessageRequest` is answered (`InitializeParams.supportsShowMessageRequest`).
        var supportsShowMessageRequest = false
        /// Hovers as plain text, not Markdown (`InitializeParams.wantsPlainTextHover`).
        var wantsPlainTextHover = false
        /// Code actions may come without their edit (`InitializeParams.supportsCodeActionResolve`).
        var supportsCodeActionResolve = false
        var name: String?
        /// The writer's language, for the month and day names of snippets (`LocaleChoice.dateLanguage`).
        var language = "en"
        /// The language of every text for people: the client's `locale`, overridden by
        /// `initializationOptions.locale` (`LocaleChoice.forServer`).
        var locale = SupportedLocale.en
    }

    struct State: Sendable {
        var lifecycle = Lifecycle.uninitialized
        var client = ClientInfo()
        /// The notebooks and open documents.
        var host = AnalysisHost()
        /// Requests being worked on, and those of them the client cancelled.
        var inFlight: Set<RequestID> = []
        /// The editor's `maxRequestsInFlight` (read again when its settings change).
        var maxRequestsInFlight = NotebookConfiguration().maxRequestsInFlight
        /// The features the editor's settings switched off when it started the server
        /// (`features`): not announced, and their requests refused.
        var disabledFeatures: Set<EditorFeature> = []
        var cancelled: Set<RequestID> = []
        /// The server's own requests to the client awaiting their responses.
        var nextOutgoingID: Int64 = 1
        var pendingOutgoing: [RequestID: @Sendable (Result<JSONValue, ResponseError>) -> Void] = [:]
        var exitCode: Int32?
        /// The editor's settings (section `macmd`): `initializationOptions` and the workspace's.
        var initializationOptions: JSONValue?
        /// Why the writer's language is not served as asked (`LocaleResolution.notice`), until
        /// it is shown after `initialized`.
        var localeNotice: String?
        var editorSettings: JSONValue?
        /// Documents that `workspace/diagnostic` reported problems for last time.
        var workspaceDiagnosticURIs: Set<String> = []
        /// Requests about notes of a notebook whose first scan has not ended, by the notebook's
        /// path, each as the work that answers it, run when the scan ends (or is refused, or the
        /// notebook is closed): `textDocument/diagnostic` of a client that cannot be asked to pull
        /// again (no `refreshSupport`, as Neovim 0.10–0.12), and `macmd/preview` (its links show
        /// what they reach in the whole notebook).
        var awaitingScan: [String: [@Sendable () -> Void]] = [:]
        /// The refresh requests (`workspace/semanticTokens/refresh`, `workspace/codeLens/refresh`)
        /// waiting to be sent, by method (`scheduleRefresh`): the changes of a moment ask for one.
        var refreshesDue: Set<String> = []
        /// What was last pushed for each open document: the same push is not sent twice.
        var lastPushes: [String: PublishDiagnosticsParams] = [:]
        /// When the last `didChange` arrived or request was answered, and whether a memory trim
        /// waits for a pause (`noteActivity`).
        var lastActivity: Double = 0
        var trimScheduled = false
        /// When the user's snippet folder was last looked at, and what it held then.
        var userSnippetsChecked: Double = -.infinity
        var userSnippetsStamp: [Int64]?
    }

    public let configuration: ServerConfiguration
    let connection: Connection
    let logger: Logger
    let state = Locked(State())
    /// Held while one note's pushed diagnostics are computed and sent, so pushes go out in the
    /// order of the snapshots they come from: a push computed from an older snapshot (a filing
    /// job's, taken before the first scan ended) can never follow, and undo, a newer one (the
    /// complete set the scan's end publishes). Never held with `state` waiting on it.
    let pushing = Lock()
    let workers = DispatchQueue(label: "macmd.requests", attributes: .concurrent)
    /// Files document versions into their notebooks (see the contract above).
    let indexer = DispatchQueue(label: "macmd.index")
    /// Everything that reads the disk (see the contract above).
    let disk = DispatchQueue(label: "macmd.disk")
    let finished = DispatchSemaphore(value: 0)
    /// Tests hold queued work here to make cancellation and staleness deterministic; nil in use.
    let workGate: DispatchSemaphore?
    /// Tests hold a cold index here, its notes read but the scan not ended, to see what the
    /// server answers while a notebook is still being indexed; nil in use.
    let scanGate: DispatchSemaphore?

    public init(connection: Connection, configuration: ServerConfiguration, logger: Logger,
                workGate: DispatchSemaphore? = nil, scanGate: DispatchSemaphore? = nil) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        self.workGate = workGate
        self.scanGate = scanGate
        // Until `initialize` names one, the writer's language is the environment's: what the
        // server logs about bytes that are no message comes before any `initialize`.
        let early = LocaleChoice.forCommandLine(environment: configuration.environment).locale
        state.withLock { $0.client.locale = early }
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
            logger.warn("invalid message: \(failure.error.message)") // l10n-exempt: developer log
            connection.send(.response(id: failure.id, result: .failure(failure.error.localized(in: locale))))
        case .framingError(let error):
            logger.warn(LocalizedText("server.log.framingError", .text(error.text)).string(in: locale))
            if case .tooLarge(let length) = error {
                connection.send(.response(id: nil, result: .failure(ResponseError(
                    code: ResponseError.invalidRequest,
                    text: LocalizedText("jsonrpc.message.tooLarge", .string(String(length)), .string(String(configuration.maxContentLength))))
                    .localized(in: locale))))
            }
        case .endOfInput:
            let shutDown = state.withLock { $0.lifecycle == .shutDown }
            logger.info("end of input; exiting") // l10n-exempt: developer log
            finish(shutDown ? 0 : 1)
        }
    }

    func handleRequest(id: RequestID, method: String, params: JSONValue?) {
        logger.debug("request \(id): \(method)")
        let lifecycle = state.withLock { $0.lifecycle }
        switch lifecycle {
        case .uninitialized where method != InitializeRequest.method:
            reply(id, .failure(ResponseError(code: ResponseError.serverNotInitialized,
                                             text: LocalizedText("server.request.notInitialized"))))
            return
        case .running where method == InitializeRequest.method:
            reply(id, .failure(ResponseError(code: ResponseError.invalidRequest, text: LocalizedText("server.request.initializeTwice"))))
            return
        case .shutDown:
            reply(id, .failure(ResponseError(code: ResponseError.invalidRequest,
                                             text: LocalizedText("server.request.shuttingDown"))))
            return
        default:
            break
        }
        guard let handler = Server.registry.requests[method] else {
            reply(id, .failure(ResponseError(code: ResponseError.methodNotFound, text: LocalizedText("server.request.unknownMethod", .string(method)))))
            return
        }
        if let feature = Server.registry.features[method], state.withLock({ $0.disabledFeatures.contains(feature) }) {
            reply(id, .failure(ResponseError(code: ResponseError.methodNotFound,
                                             text: LocalizedText("server.request.featureOff", .string(method), .string(feature.rawValue)))))
            return
        }
        // Requests are held (queued or worked on) up to the editor's `maxRequestsInFlight`; one
        // more is refused at once, so a flood cannot grow the server without bound. `shutdown`
        // always gets through.
        let (held, limit) = state.withLock { ($0.inFlight.count, $0.maxRequestsInFlight) }
        if held >= limit, method != ShutdownRequest.method {
            reply(id, .failure(ResponseError(code: ResponseError.requestFailed,
                                             text: LocalizedText("server.request.tooMany", .string(String(held)), .string(String(limit))))))
            return
        }
        handler(self, id, params)
    }

    func handleNotification(method: String, params: JSONValue?) {
        guard let handler = Server.registry.notifications[method] else {
            // `$/…` and unknown notifications are ignored, as the protocol asks.
            logger.debug("ignoring notification `\(method)`") // l10n-exempt: developer log
            return
        }
        if handler.needsRunningServer, !state.withLock({ $0.lifecycle == .running }) {
            logger.debug("ignoring `\(method)` outside the running state") // l10n-exempt: developer log
            return
        }
        do throws(ResponseError) {
            try handler.handle(self, params)
        } catch {
            logger.warn("`\(method)`: \(error.message)")
        }
    }

    func handleResponse(id: RequestID?, result: Result<JSONValue, ResponseError>) {
        guard let id else {
            logger.warn("response without an id: \(result)") // l10n-exempt: developer log
            return
        }
        let handler = state.withLock { $0.pendingOutgoing.removeValue(forKey: id) }
        guard let handler else {
            logger.warn("response to unknown request \(id)") // l10n-exempt: developer log
            return
        }
        handler(result)
    }

    // MARK: Answers, and the server's own messages

    /// Answers request `id`; an error is written in the client's language.
    func reply(_ id: RequestID, _ result: Result<JSONValue, ResponseError>) {
        let start = Server.monotonicSeconds()
        connection.send(.response(id: id, result: result.mapError { $0.localized(in: locale) }))
        logger.debug("reply \(id) sent in \(Int((Server.monotonicSeconds() - start) * 1e6)) µs") // l10n-exempt: developer log
    }

    /// The language of the texts the client is sent (English until `initialize`).
    var locale: SupportedLocale { state.withLock { $0.client.locale } }

    /// Sends a request to the client; `onResult` runs on the reader thread with its response.
    func send<Request: ServerRequest>(_ request: Request.Type, _ params: Request.Params,
                                      onResult: @escaping @Sendable (Result<Request.Response, ResponseError>) -> Void) {
        let id = state.withLock { state -> RequestID in
            let id = RequestID.string("macmd-\(state.nextOutgoingID)")
            state.nextOutgoingID += 1
            state.pendingOutgoing[id] = { result in
                onResult(result.flatMap { value -> Result<Request.Response, ResponseError> in
                    do throws(ResponseError) { return .success(try Request.Response(params: value)) } catch { return .failure(error) }
                })
            }
            return id
        }
        connection.send(.request(id: id, method: Request.method, params: Server.params(params.json)))
    }

    /// A message's params as JSON-RPC wants them: an object or an array, else left out (a
    /// message without params, such as `workspace/diagnostic/refresh`, has none).
    static func params(_ json: JSONValue) -> JSONValue? {
        json.isNull ? nil : json
    }

    /// Sends a notification to the client.
    func send<Notification: ServerNotification>(_ notification: Notification.Type, _ params: Notification.Params) {
        connection.send(.notification(method: Notification.method, params: Server.params(params.json)))
    }

    // MARK: Work on the queue

    /// Runs `work` off the reader thread and answers with its result; answers -32800 if the
    /// client cancels first.
    func schedule<Request: ClientRequest>(_ id: RequestID, _ request: Request.Type,
                                          _ work: @escaping @Sendable () -> Result<Request.Response, ResponseError>) {
        scheduleParts(id) { work().map { Framing.frame(.response(id: id, result: .success($0.json))) }.map { [$0] } }
    }

    /// Like `schedule`, for work whose answer is a ready frame in parts (a preview, whose large
    /// HTML is escaped in pieces): the parts are written back to back through the serial writer.
    func scheduleParts(_ id: RequestID, _ work: @escaping @Sendable () -> Result<[[UInt8]], ResponseError>) {
        scheduleDeferrable(id) { _ in work() }
    }

    /// Like `schedule`, for work that may answer only later, once the client has answered a
    /// question of the server's (`window/showMessageRequest`): `work` returns nil and calls
    /// `answer` then, on any thread. Until it answers, the request is in flight: a
    /// `$/cancelRequest` makes its late answer -32800.
    func scheduleDeferrable<Request: ClientRequest>(_ id: RequestID, _ request: Request.Type,
                                                    _ work: @escaping @Sendable (_ answer: @escaping @Sendable (Result<Request.Response, ResponseError>) -> Void)
                                                        -> Result<Request.Response, ResponseError>?) {
        let frame: @Sendable (Result<Request.Response, ResponseError>) -> Result<[[UInt8]], ResponseError> = { result in
            result.map { [Framing.frame(.response(id: id, result: .success($0.json)))] }
        }
        scheduleDeferrable(id) { answer in work { answer(frame($0)) }.map(frame) }
    }

    private func scheduleDeferrable(_ id: RequestID,
                                    _ work: @escaping @Sendable (_ answer: @escaping @Sendable (Result<[[UInt8]], ResponseError>) -> Void)
                                        -> Result<[[UInt8]], ResponseError>?) {
        state.withLock { _ = $0.inFlight.insert(id) }
        workers.async { [self] in
            if let workGate {
                workGate.wait()
                workGate.signal()
            }
            let cancelledBefore = state.withLock { $0.cancelled.contains(id) }
            let started = Server.monotonicSeconds()
            let result = cancelledBefore ? .failure(Server.cancelledError) : work { [self] in finish(id, $0) }
            logger.debug("request \(id) computed in \(Int((Server.monotonicSeconds() - started) * 1_000_000)) µs") // l10n-exempt: developer log
            if let result { finish(id, result) }
        }
    }

    /// Sends the answer to `id` (-32800 if the client cancelled it meanwhile) and forgets it.
    private func finish(_ id: RequestID, _ result: Result<[[UInt8]], ResponseError>) {
        let (cancelled, trim) = state.withLock { state -> (Bool, Bool) in
            state.inFlight.remove(id)
            return (state.cancelled.remove(id) != nil, Server.noteActivity(&state))
        }
        switch result {
        case .success(let parts) where !cancelled:
            let sendStart = Server.monotonicSeconds()
            connection.sendFrame(parts: parts)
            logger.debug("reply \(id) sent in \(Int((Server.monotonicSeconds() - sendStart) * 1e6)) µs") // l10n-exempt: developer log
        case .success:
            reply(id, .failure(Server.cancelledError))
        case .failure(let error):
            reply(id, .failure(cancelled ? Server.cancelledError : error))
        }
        if trim { trimWhenIdle(after: Server.trimPause) }
    }

    /// Waits until the disk and index jobs queued so far, and those they queue, are done (for
    /// tests: the server itself never waits for them).
    func settle() {
        for _ in 0..<3 {
            disk.sync {}
            indexer.sync {}
        }
    }

    static let cancelledError = ResponseError(code: ResponseError.requestCancelled, text: LocalizedText("server.request.cancelled"))

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
