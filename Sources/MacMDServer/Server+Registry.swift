// The one list of what the server handles: each request and notification by its type (its
// method, params and response come from LSPTypes), with what `initialize` advertises for it.
//
// Invariants:
// - No method name is written anywhere else in this module: dispatch looks handlers up here.
// - The `capabilities` of `initialize` are derived from this list: a handler that is registered
//   is advertised, and nothing is advertised that has no handler. (`positionEncoding` is the
//   one capability that is negotiated rather than handled.)
// - A request's params are decoded here, before its handler runs; a decoding error answers
//   -32602 naming the field, and the handler never sees bad params.

import JSON
import JSONRPC
import LSPTypes
import NotebookIDE
import NotebookWorkspace

extension Server {
    /// What a handler adds to `initialize`'s capabilities: `value` at `path` (objects merge).
    struct Capability: Sendable {
        var path: [String]
        var value: JSONValue

        init(_ path: String..., value: JSONValue) {
            self.path = path
            self.value = value
        }
    }

    struct RequestHandler: Sendable {
        var method: String
        var capabilities: [Capability]
        /// The feature the editor can switch off with it (`features`), if any.
        var feature: EditorFeature? = nil
        var handle: @Sendable (Server, RequestID, JSONValue?) -> Void
    }

    struct NotificationHandler: Sendable {
        var method: String
        var capabilities: [Capability]
        /// False for the few notifications that count in any state (`exit`, `$/cancelRequest`).
        var needsRunningServer: Bool
        var handle: @Sendable (Server, JSONValue?) throws(ResponseError) -> Void
    }

    /// The handlers by method.
    struct Registry: Sendable {
        var requests: [String: @Sendable (Server, RequestID, JSONValue?) -> Void] = [:]
        var notifications: [String: NotificationHandler] = [:]
        /// Every handler's capabilities, in registration order, with the feature each belongs to.
        var capabilities: [(capability: Capability, feature: EditorFeature?)] = []
        /// The feature of each request that has one.
        var features: [String: EditorFeature] = [:]
        /// The methods, in registration order (for tests and the docs).
        var methods: [String] = []

        init(requests: [RequestHandler], notifications: [NotificationHandler]) {
            for handler in requests {
                self.requests[handler.method] = handler.handle
                capabilities += handler.capabilities.map { ($0, handler.feature) }
                if let feature = handler.feature { features[handler.method] = feature }
                methods.append(handler.method)
            }
            for handler in notifications {
                self.notifications[handler.method] = handler
                capabilities += handler.capabilities.map { ($0, nil) }
                methods.append(handler.method)
            }
        }

        /// The capabilities object: every handler's capabilities merged, but those of the
        /// features switched off.
        func capabilitiesObject(without disabled: Set<EditorFeature> = []) -> JSONValue {
            var result: JSONValue = .object([:])
            for (capability, feature) in capabilities where feature.map({ !disabled.contains($0) }) ?? true {
                Registry.merge(capability.value, at: capability.path[...], into: &result)
            }
            return result
        }

        private static func merge(_ value: JSONValue, at path: ArraySlice<String>, into target: inout JSONValue) {
            guard case .object(var members) = target else {
                target = value
                return
            }
            guard let key = path.first else {
                // Objects merge member by member; anything else replaces.
                if case .object(let added) = value {
                    for (name, member) in added {
                        var existing = members[name] ?? .object([:])
                        if case .object = member { merge(member, at: [], into: &existing) } else { existing = member }
                        members[name] = existing
                    }
                    target = .object(members)
                } else {
                    target = value
                }
                return
            }
            var child = members[key] ?? .object([:])
            merge(value, at: path.dropFirst(), into: &child)
            members[key] = child
            target = .object(members)
        }
    }

    /// A request handler: `handle` gets the decoded params.
    static func request<Request: ClientRequest>(_ type: Request.Type, _ capabilities: Capability..., feature: EditorFeature? = nil,
                                                 handle: @escaping @Sendable (Server, RequestID, Request.Params) -> Void) -> RequestHandler {
        RequestHandler(method: Request.method, capabilities: capabilities, feature: feature) { server, id, params in
            let decoded: Request.Params
            do throws(ResponseError) { decoded = try Request.Params(params: params) } catch {
                server.reply(id, .failure(error))
                return
            }
            handle(server, id, decoded)
        }
    }

    /// A notification handler: `handle` gets the decoded params; a decoding error is logged.
    static func notification<Notification: ClientNotification>(_ type: Notification.Type, _ capabilities: Capability...,
                                                                 inAnyState: Bool = false,
                                                                 handle: @escaping @Sendable (Server, Notification.Params) -> Void) -> NotificationHandler {
        NotificationHandler(method: Notification.method, capabilities: capabilities, needsRunningServer: !inAnyState) { server, params throws(ResponseError) in
            handle(server, try Notification.Params(params: params))
        }
    }

    /// Which files the file operations are about: notes and every other file (links may name a
    /// file of any kind), and folders.
    static let noteAndAssetFilters: [JSONValue] = [
        ["pattern": ["glob": "**/*", "matches": "file"]],
    ]
    static let folderFilter: JSONValue = ["pattern": ["glob": "**", "matches": "folder"]]
    /// `willRename` edits links: notes, assets and folders.
    static let willRenameFilters: JSONValue = ["filters": .array(noteAndAssetFilters + [folderFilter])]
    /// The `did…` operations also report the files that decide which notes belong (`.gitignore`,
    /// `.macmd.json`).
    static let didFileOperationFilters: JSONValue = ["filters": .array(noteAndAssetFilters + [
        ["pattern": ["glob": "**/{.gitignore,.macmd.json}", "matches": "file"]], folderFilter,
    ])]

    /// The characters that start a completion.
    static let completionTriggers: JSONValue = ["[", "#", "(", "/", "^", "|"]

    /// Everything the server handles.
    static let registry = Registry(requests: [
        request(InitializeRequest.self) { server, id, params in
            let result = server.initialize(params)
            server.reply(id, result.map(\.json))
            // The notebooks are read and indexed from now on, not from `initialized`: the answer
            // is on its way (queued first), and the client's round trip overlaps the walk.
            if case .success = result { server.openAndScanNotebooks() }
        },
        request(ShutdownRequest.self) { server, id, _ in
            server.state.withLock { $0.lifecycle = .shutDown }
            server.reply(id, .success(NullResult().json))
        },
        request(MacMDPreviewRequest.self, Capability("experimental", "macmd", value: ["preview": true]), feature: .preview) { server, id, params in
            server.preview(id, params)
        },
        request(DocumentDiagnosticRequest.self,
                Capability("diagnosticProvider", value: ["identifier": "macmd", "interFileDependencies": true]), feature: .diagnostics) { server, id, params in
            server.pullDiagnostics(id, params)
        },
        request(WorkspaceDiagnosticRequest.self, Capability("diagnosticProvider", value: ["workspaceDiagnostics": true]), feature: .diagnostics) { server, id, _ in
            server.pullWorkspaceDiagnostics(id)
        },
        request(DefinitionRequest.self, Capability("definitionProvider", value: true), feature: .definition) { server, id, params in
            server.definition(id, params)
        },
        request(ReferencesRequest.self, Capability("referencesProvider", value: true), feature: .references) { server, id, params in
            server.references(id, params)
        },
        request(HoverRequest.self, Capability("hoverProvider", value: true), feature: .hover) { server, id, params in server.hover(id, params) },
        request(RenameRequest.self, Capability("renameProvider", value: [:]), feature: .rename) { server, id, params in server.rename(id, params) },
        request(PrepareRenameRequest.self, Capability("renameProvider", value: ["prepareProvider": true]), feature: .rename) { server, id, params in
            server.prepareRename(id, params)
        },
        request(WillRenameFilesRequest.self, Capability("workspace", "fileOperations", value: ["willRename": willRenameFilters])) { server, id, params in
            server.willRenameFiles(id, params)
        },
        request(DocumentLinkRequest.self, Capability("documentLinkProvider", value: ["resolveProvider": false]), feature: .documentLinks) { server, id, params in
            server.documentLinks(id, params)
        },
        request(DocumentSymbolRequest.self, Capability("documentSymbolProvider", value: true), feature: .documentSymbols) { server, id, params in
            server.documentSymbols(id, params)
        },
        request(FoldingRangeRequest.self, Capability("foldingRangeProvider", value: true), feature: .foldingRanges) { server, id, params in
            server.foldingRanges(id, params)
        },
        request(WorkspaceSymbolRequest.self, Capability("workspaceSymbolProvider", value: true), feature: .workspaceSymbols) { server, id, params in
            server.workspaceSymbols(id, params)
        },
        request(CodeActionRequest.self,
                Capability("codeActionProvider", value: ["codeActionKinds": .array([CodeActionKind.quickFix.json, CodeActionKind.refactorRewrite.json])]), feature: .codeActions) { server, id, params in
            server.codeActions(id, params)
        },
        request(CodeActionResolveRequest.self, Capability("codeActionProvider", value: ["resolveProvider": true]), feature: .codeActions) { server, id, params in
            server.resolveCodeAction(id, params)
        },
        request(CompletionRequest.self, Capability("completionProvider", value: ["triggerCharacters": completionTriggers]), feature: .completion) { server, id, params in
            server.completion(id, params)
        },
        request(CompletionItemResolveRequest.self, Capability("completionProvider", value: ["resolveProvider": true]), feature: .completion) { server, id, params in
            server.resolveCompletion(id, params)
        },
        request(DocumentOnTypeFormattingRequest.self,
                Capability("documentOnTypeFormattingProvider", value: ["firstTriggerCharacter": .string(OnTypeFormatting.firstTriggerCharacter),
                                                                       "moreTriggerCharacter": .array(OnTypeFormatting.moreTriggerCharacters.map { .string($0) })]), feature: .onTypeFormatting) { server, id, params in
            server.onTypeFormatting(id, params)
        },
        request(DocumentFormattingRequest.self, Capability("documentFormattingProvider", value: true), feature: .formatting) { server, id, params in
            server.formatting(id, params)
        },
        request(DocumentRangeFormattingRequest.self, Capability("documentRangeFormattingProvider", value: true), feature: .formatting) { server, id, params in
            server.rangeFormatting(id, params)
        },
        request(MacMDPairsRequest.self, Capability("experimental", "macmd", value: ["pairs": true]), feature: .pairs) { server, id, params in
            server.pairs(id, params)
        },
        request(DocumentHighlightRequest.self, Capability("documentHighlightProvider", value: true), feature: .documentHighlight) { server, id, params in
            server.documentHighlight(id, params)
        },
        request(SelectionRangeRequest.self, Capability("selectionRangeProvider", value: true), feature: .selectionRange) { server, id, params in
            server.selectionRanges(id, params)
        },
        request(SemanticTokensFullRequest.self, Capability("semanticTokensProvider", value: ["legend": ToLSP.semanticTokensLegend.json, "full": true]),
                feature: .semanticTokens) { server, id, params in
            server.semanticTokens(id, params)
        },
        request(SemanticTokensRangeRequest.self, Capability("semanticTokensProvider", value: ["range": true]),
                feature: .semanticTokens) { server, id, params in
            server.semanticTokens(id, params)
        },
        request(MacMDUnlinkedMentionsRequest.self, Capability("experimental", "macmd", value: ["unlinkedMentions": true]),
                feature: .unlinkedMentions) { server, id, params in
            server.unlinkedMentions(id, params)
        },
        request(MacMDStatisticsRequest.self, Capability("experimental", "macmd", value: ["statistics": true]),
                feature: .statistics) { server, id, params in
            server.statistics(id, params)
        },
        request(MacMDSearchRequest.self, Capability("experimental", "macmd", value: ["search": true]),
                feature: .search) { server, id, params in
            server.search(id, params)
        },
        request(CallHierarchyPrepareRequest.self, Capability("callHierarchyProvider", value: true), feature: .callHierarchy) { server, id, params in
            server.prepareCallHierarchy(id, params)
        },
        request(CallHierarchyIncomingCallsRequest.self, feature: .callHierarchy) { server, id, params in
            server.incomingCalls(id, params)
        },
        request(CallHierarchyOutgoingCallsRequest.self, feature: .callHierarchy) { server, id, params in
            server.outgoingCalls(id, params)
        },
        request(CodeLensRequest.self, Capability("codeLensProvider", value: ["resolveProvider": true]), feature: .codeLens) { server, id, params in
            server.codeLenses(id, params)
        },
        request(CodeLensResolveRequest.self, feature: .codeLens) { server, id, params in
            server.resolveCodeLens(id, params)
        },
    ], notifications: [
        notification(ExitNotification.self, inAnyState: true) { server, _ in
            let shutDown = server.state.withLock { $0.lifecycle == .shutDown }
            server.finish(shutDown ? 0 : 1)
        },
        notification(CancelRequestNotification.self, inAnyState: true) { server, params in
            server.state.withLock { state in
                if state.inFlight.contains(params.id) { state.cancelled.insert(params.id) }
            }
        },
        notification(InitializedNotification.self) { server, _ in server.afterInitialized() },
        notification(DidOpenTextDocumentNotification.self, Capability("textDocumentSync", value: ["openClose": true])) { server, params in
            server.didOpen(params)
        },
        notification(DidChangeTextDocumentNotification.self,
                     Capability("textDocumentSync", value: ["change": TextDocumentSyncKind.incremental.json])) { server, params in
            server.didChange(params)
        },
        notification(DidCloseTextDocumentNotification.self, Capability("textDocumentSync", value: ["openClose": true])) { server, params in
            server.didClose(params)
        },
        notification(DidSaveTextDocumentNotification.self, Capability("textDocumentSync", value: ["save": ["includeText": false]])) { server, params in
            server.didSave(params)
        },
        // Registered dynamically once the client has said it can watch files (`afterInitialized`).
        notification(DidChangeWatchedFilesNotification.self) { server, params in
            server.fileEvents(params.changes.map { ($0.uri, $0.kind) })
        },
        notification(DidCreateFilesNotification.self, Capability("workspace", "fileOperations", value: ["didCreate": didFileOperationFilters])) { server, params in
            server.fileEvents(params.files.map { ($0.uri, .created) })
        },
        notification(DidDeleteFilesNotification.self, Capability("workspace", "fileOperations", value: ["didDelete": didFileOperationFilters])) { server, params in
            server.fileEvents(params.files.map { ($0.uri, .deleted) })
        },
        notification(DidRenameFilesNotification.self, Capability("workspace", "fileOperations", value: ["didRename": didFileOperationFilters])) { server, params in
            server.fileEvents(params.files.flatMap { [($0.oldURI, .deleted), ($0.newURI, .created)] })
        },
        notification(DidChangeWorkspaceFoldersNotification.self,
                     Capability("workspace", "workspaceFolders", value: ["supported": true, "changeNotifications": true])) { server, params in
            server.changeWorkspaceFolders(added: params.event.added.map(\.uri), removed: params.event.removed.map(\.uri))
        },
        // Registered dynamically when the client allows it (`afterInitialized`).
        notification(DidChangeConfigurationNotification.self) { server, params in
            if let settings = params.settings?["macmd"] { server.apply(settings: settings) } else { server.requestConfiguration() }
        },
    ])
}
