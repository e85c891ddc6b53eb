import JSON
import JSONRPC
import LSPTypes
import XCTest

/// The messages: their method names, and a registry's use of their types.
final class MessageTests: XCTestCase {
    /// Every method name as the specification (or MacMD, for `macmd/…`) spells it: a client sends
    /// exactly these, and a misspelt one is a feature that silently never runs.
    func testMethodNames() {
        let expected: [(any LSPMessage.Type, String)] = [
            (InitializeRequest.self, "initialize"), (ShutdownRequest.self, "shutdown"),
            (DefinitionRequest.self, "textDocument/definition"), (ReferencesRequest.self, "textDocument/references"),
            (HoverRequest.self, "textDocument/hover"), (PrepareRenameRequest.self, "textDocument/prepareRename"),
            (RenameRequest.self, "textDocument/rename"), (WillRenameFilesRequest.self, "workspace/willRenameFiles"),
            (DocumentLinkRequest.self, "textDocument/documentLink"), (DocumentSymbolRequest.self, "textDocument/documentSymbol"),
            (FoldingRangeRequest.self, "textDocument/foldingRange"), (WorkspaceSymbolRequest.self, "workspace/symbol"),
            (CodeActionRequest.self, "textDocument/codeAction"), (CompletionRequest.self, "textDocument/completion"),
            (CompletionItemResolveRequest.self, "completionItem/resolve"),
            (DocumentDiagnosticRequest.self, "textDocument/diagnostic"), (WorkspaceDiagnosticRequest.self, "workspace/diagnostic"),
            (MacMDPreviewRequest.self, "macmd/preview"),
            (DocumentFormattingRequest.self, "textDocument/formatting"),
            (DocumentRangeFormattingRequest.self, "textDocument/rangeFormatting"),
            (DocumentOnTypeFormattingRequest.self, "textDocument/onTypeFormatting"),
            (MacMDPairsRequest.self, "macmd/pairs"),
            (CallHierarchyPrepareRequest.self, "textDocument/prepareCallHierarchy"),
            (CallHierarchyIncomingCallsRequest.self, "callHierarchy/incomingCalls"),
            (CallHierarchyOutgoingCallsRequest.self, "callHierarchy/outgoingCalls"),
            (DocumentHighlightRequest.self, "textDocument/documentHighlight"),
            (SelectionRangeRequest.self, "textDocument/selectionRange"),
            (CodeLensRequest.self, "textDocument/codeLens"), (CodeLensResolveRequest.self, "codeLens/resolve"),
            (SemanticTokensFullRequest.self, "textDocument/semanticTokens/full"),
            (SemanticTokensRangeRequest.self, "textDocument/semanticTokens/range"),
            (CodeActionResolveRequest.self, "codeAction/resolve"),
            (MacMDUnlinkedMentionsRequest.self, "macmd/unlinkedMentions"),
            (MacMDStatisticsRequest.self, "macmd/statistics"),
            (MacMDSearchRequest.self, "macmd/search"),
            (InitializedNotification.self, "initialized"), (ExitNotification.self, "exit"),
            (CancelRequestNotification.self, "$/cancelRequest"),
            (DidOpenTextDocumentNotification.self, "textDocument/didOpen"),
            (DidChangeTextDocumentNotification.self, "textDocument/didChange"),
            (DidCloseTextDocumentNotification.self, "textDocument/didClose"),
            (DidSaveTextDocumentNotification.self, "textDocument/didSave"),
            (DidChangeWatchedFilesNotification.self, "workspace/didChangeWatchedFiles"),
            (DidCreateFilesNotification.self, "workspace/didCreateFiles"),
            (DidDeleteFilesNotification.self, "workspace/didDeleteFiles"),
            (DidRenameFilesNotification.self, "workspace/didRenameFiles"),
            (DidChangeWorkspaceFoldersNotification.self, "workspace/didChangeWorkspaceFolders"),
            (DidChangeConfigurationNotification.self, "workspace/didChangeConfiguration"),
            (RegisterCapabilityRequest.self, "client/registerCapability"),
            (WorkspaceConfigurationRequest.self, "workspace/configuration"),
            (WorkDoneProgressCreateRequest.self, "window/workDoneProgress/create"),
            (DiagnosticRefreshRequest.self, "workspace/diagnostic/refresh"),
            (SemanticTokensRefreshRequest.self, "workspace/semanticTokens/refresh"),
            (ShowMessageRequest.self, "window/showMessageRequest"), (CodeLensRefreshRequest.self, "workspace/codeLens/refresh"),
            (PublishDiagnosticsNotification.self, "textDocument/publishDiagnostics"),
            (ProgressNotification.self, "$/progress"), (LogMessageNotification.self, "window/logMessage"),
            (ShowMessageNotification.self, "window/showMessage"),
        ]
        for (message, method) in expected { XCTAssertEqual(message.method, method) }
        let listed: [any LSPMessage.Type] = LSPMessages.clientRequests + LSPMessages.clientNotifications
            + LSPMessages.serverRequests + LSPMessages.serverNotifications
        XCTAssertEqual(listed.map { $0.method }, expected.map(\.1), "LSPMessages lists every message once, in this order")
    }

    /// How a registry uses the types: it keys a typed handler by `R.method`, reads `R.Params` and
    /// writes `R.Response`, so the handler never sees JSON.
    func testARegistryDispatchesThroughTheTypes() throws {
        var registry = Registry()
        registry.register(DefinitionRequest.self) { params in
            guard params.position.line == 0 else { return .success(nil) }
            return .success([Location(uri: "file:///n/soil.md", range: range(2, 0, 6))])
        }
        registry.register(ShutdownRequest.self) { _ in .success(NullResult()) }
        let found = try XCTUnwrap(json(#"[{"uri":"file:///n/soil.md","range":\#(rangeJSON(2, 0, 6))}]"#))
        XCTAssertEqual(registry.handle("textDocument/definition", ["textDocument": ["uri": "file:///n/a.md"],
                                                                   "position": ["line": 0, "character": 3]]),
                       .success(found))
        XCTAssertEqual(registry.handle("textDocument/definition", ["textDocument": ["uri": "file:///n/a.md"],
                                                                   "position": ["line": 1, "character": 3]]),
                       .success(.null), "nothing there: null")
        XCTAssertEqual(registry.handle("textDocument/definition", ["textDocument": ["uri": "file:///n/a.md"], "position": 3]),
                       .failure(ResponseError(code: ResponseError.invalidParams, message: "params.position: expected an object, got 3")))
        XCTAssertEqual(registry.handle("shutdown", nil), .success(.null))
        XCTAssertNil(registry.handle("textDocument/hover", nil), "not registered")
    }
}

/// The server's registry, reduced to what the types decide.
private struct Registry {
    var handlers: [String: @Sendable (JSONValue?) -> Result<JSONValue, ResponseError>] = [:]

    mutating func register<R: ClientRequest>(_ request: R.Type,
                                             _ handler: @escaping @Sendable (R.Params) -> Result<R.Response, ResponseError>) {
        handlers[R.method] = { params in
            do throws(ResponseError) {
                return handler(try R.Params(params: params)).map(\.json)
            } catch {
                return .failure(error)
            }
        }
    }

    func handle(_ method: String, _ params: JSONValue?) -> Result<JSONValue, ResponseError>? {
        handlers[method]?(params)
    }
}
