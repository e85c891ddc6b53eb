// Every message MacMD handles or sends: its method name, its params and its response. A registry
// of handlers keys them by `method` and decodes, encodes through the associated types:
//
//     registry.register(DefinitionRequest.self) { params, snapshot in   // params: TextDocumentPositionParams
//         ...                                                           // returns [Location]?
//     }
//
// `LSPMessages` lists them all, so a test can check that each is handled.

import JSON

// MARK: Client requests

public enum InitializeRequest: ClientRequest {
    public static let method = "initialize"
    public typealias Params = InitializeParams
    public typealias Response = InitializeResult
}

public enum ShutdownRequest: ClientRequest {
    public static let method = "shutdown"
    public typealias Params = NoParams
    public typealias Response = NullResult
}

public enum DefinitionRequest: ClientRequest {
    public static let method = "textDocument/definition"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = [Location]?
}

public enum ReferencesRequest: ClientRequest {
    public static let method = "textDocument/references"
    public typealias Params = ReferenceParams
    public typealias Response = [Location]?
}

public enum HoverRequest: ClientRequest {
    public static let method = "textDocument/hover"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = Hover?
}

public enum PrepareRenameRequest: ClientRequest {
    public static let method = "textDocument/prepareRename"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = PrepareRenameResult?
}

public enum RenameRequest: ClientRequest {
    public static let method = "textDocument/rename"
    public typealias Params = RenameParams
    public typealias Response = WorkspaceEdit?
}

public enum DocumentHighlightRequest: ClientRequest {
    public static let method = "textDocument/documentHighlight"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = [DocumentHighlight]?
}

public enum SelectionRangeRequest: ClientRequest {
    public static let method = "textDocument/selectionRange"
    public typealias Params = SelectionRangeParams
    public typealias Response = [SelectionRange]?
}

public enum SemanticTokensFullRequest: ClientRequest {
    public static let method = "textDocument/semanticTokens/full"
    public typealias Params = SemanticTokensParams
    public typealias Response = SemanticTokens?
}

public enum SemanticTokensRangeRequest: ClientRequest {
    public static let method = "textDocument/semanticTokens/range"
    public typealias Params = SemanticTokensRangeParams
    public typealias Response = SemanticTokens?
}

public enum CallHierarchyPrepareRequest: ClientRequest {
    public static let method = "textDocument/prepareCallHierarchy"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = [CallHierarchyItem]?
}

public enum CallHierarchyIncomingCallsRequest: ClientRequest {
    public static let method = "callHierarchy/incomingCalls"
    public typealias Params = CallHierarchyCallsParams
    public typealias Response = [CallHierarchyIncomingCall]?
}

public enum CallHierarchyOutgoingCallsRequest: ClientRequest {
    public static let method = "callHierarchy/outgoingCalls"
    public typealias Params = CallHierarchyCallsParams
    public typealias Response = [CallHierarchyOutgoingCall]?
}

public enum CodeLensRequest: ClientRequest {
    public static let method = "textDocument/codeLens"
    public typealias Params = TextDocumentParams
    public typealias Response = [CodeLens]?
}

public enum CodeLensResolveRequest: ClientRequest {
    public static let method = "codeLens/resolve"
    public typealias Params = CodeLens
    public typealias Response = CodeLens
}

public enum WillRenameFilesRequest: ClientRequest {
    public static let method = "workspace/willRenameFiles"
    public typealias Params = RenameFilesParams
    public typealias Response = WorkspaceEdit?
}

public enum DocumentLinkRequest: ClientRequest {
    public static let method = "textDocument/documentLink"
    public typealias Params = DocumentLinkParams
    public typealias Response = [DocumentLink]?
}

public enum DocumentSymbolRequest: ClientRequest {
    public static let method = "textDocument/documentSymbol"
    public typealias Params = DocumentSymbolParams
    public typealias Response = [DocumentSymbol]?
}

public enum FoldingRangeRequest: ClientRequest {
    public static let method = "textDocument/foldingRange"
    public typealias Params = FoldingRangeParams
    public typealias Response = [FoldingRange]?
}

public enum WorkspaceSymbolRequest: ClientRequest {
    public static let method = "workspace/symbol"
    public typealias Params = WorkspaceSymbolParams
    public typealias Response = [WorkspaceSymbol]?
}

public enum CodeActionRequest: ClientRequest {
    public static let method = "textDocument/codeAction"
    public typealias Params = CodeActionParams
    public typealias Response = [CodeAction]?
}

public enum CodeActionResolveRequest: ClientRequest {
    public static let method = "codeAction/resolve"
    public typealias Params = EchoedCodeAction
    public typealias Response = EchoedCodeAction
}

public enum CompletionRequest: ClientRequest {
    public static let method = "textDocument/completion"
    public typealias Params = CompletionParams
    public typealias Response = CompletionList?
}

public enum CompletionItemResolveRequest: ClientRequest {
    public static let method = "completionItem/resolve"
    public typealias Params = EchoedCompletionItem
    public typealias Response = EchoedCompletionItem
}

public enum DocumentDiagnosticRequest: ClientRequest {
    public static let method = "textDocument/diagnostic"
    public typealias Params = DocumentDiagnosticParams
    public typealias Response = FullDocumentDiagnosticReport
}

/// MacMD answers every pull with full reports, so it reads none of the params (`identifier`,
/// `previousResultIds`).
public enum WorkspaceDiagnosticRequest: ClientRequest {
    public static let method = "workspace/diagnostic"
    public typealias Params = NoParams
    public typealias Response = WorkspaceDiagnosticReport
}

/// MacMD's own request (named so, not `PreviewRequest`, which the server uses for its helpers).
/// The places in the other notes of a note's notebook whose plain text names the note (its
/// title, an alias, its file name) without a link, by note path, then position.
public enum MacMDUnlinkedMentionsRequest: ClientRequest {
    public static let method = "macmd/unlinkedMentions"
    public typealias Params = TextDocumentParams
    public typealias Response = [UnlinkedMention]
}

public enum MacMDStatisticsRequest: ClientRequest {
    public static let method = "macmd/statistics"
    public typealias Params = StatisticsParams
    public typealias Response = Statistics
}

/// Full-text search over every notebook: the notes holding a query's words, best first, each
/// with an excerpt around its best match.
public enum MacMDSearchRequest: ClientRequest {
    public static let method = "macmd/search"
    public typealias Params = SearchParams
    public typealias Response = [SearchResult]
}

public enum MacMDPreviewRequest: ClientRequest {
    public static let method = "macmd/preview"
    public typealias Params = PreviewParams
    public typealias Response = PreviewResult
}

// MARK: Client notifications

public enum InitializedNotification: ClientNotification {
    public static let method = "initialized"
    public typealias Params = NoParams
}

public enum ExitNotification: ClientNotification {
    public static let method = "exit"
    public typealias Params = NoParams
}

public enum CancelRequestNotification: ClientNotification {
    public static let method = "$/cancelRequest"
    public typealias Params = CancelParams
}

public enum DidOpenTextDocumentNotification: ClientNotification {
    public static let method = "textDocument/didOpen"
    public typealias Params = DidOpenTextDocumentParams
}

public enum DidChangeTextDocumentNotification: ClientNotification {
    public static let method = "textDocument/didChange"
    public typealias Params = DidChangeTextDocumentParams
}

public enum DidCloseTextDocumentNotification: ClientNotification {
    public static let method = "textDocument/didClose"
    public typealias Params = DidCloseTextDocumentParams
}

public enum DidSaveTextDocumentNotification: ClientNotification {
    public static let method = "textDocument/didSave"
    public typealias Params = DidSaveTextDocumentParams
}

public enum DidChangeWatchedFilesNotification: ClientNotification {
    public static let method = "workspace/didChangeWatchedFiles"
    public typealias Params = DidChangeWatchedFilesParams
}

public enum DidCreateFilesNotification: ClientNotification {
    public static let method = "workspace/didCreateFiles"
    public typealias Params = CreateFilesParams
}

public enum DidDeleteFilesNotification: ClientNotification {
    public static let method = "workspace/didDeleteFiles"
    public typealias Params = DeleteFilesParams
}

public enum DidRenameFilesNotification: ClientNotification {
    public static let method = "workspace/didRenameFiles"
    public typealias Params = RenameFilesParams
}

public enum DidChangeWorkspaceFoldersNotification: ClientNotification {
    public static let method = "workspace/didChangeWorkspaceFolders"
    public typealias Params = DidChangeWorkspaceFoldersParams
}

public enum DidChangeConfigurationNotification: ClientNotification {
    public static let method = "workspace/didChangeConfiguration"
    public typealias Params = DidChangeConfigurationParams
}

// MARK: Server requests

public enum RegisterCapabilityRequest: ServerRequest {
    public static let method = "client/registerCapability"
    public typealias Params = RegistrationParams
    public typealias Response = NullResult
}

/// The client answers one value per item (`null` for a section it does not have).
public enum WorkspaceConfigurationRequest: ServerRequest {
    public static let method = "workspace/configuration"
    public typealias Params = ConfigurationParams
    public typealias Response = [JSONValue]
}

public enum WorkDoneProgressCreateRequest: ServerRequest {
    public static let method = "window/workDoneProgress/create"
    public typealias Params = WorkDoneProgressCreateParams
    public typealias Response = NullResult
}

/// The user picks one of `actions` (nil: closed without a choice).
public enum ShowMessageRequest: ServerRequest {
    public static let method = "window/showMessageRequest"
    public typealias Params = ShowMessageRequestParams
    public typealias Response = MessageActionItem?
}

public enum DiagnosticRefreshRequest: ServerRequest {
    public static let method = "workspace/diagnostic/refresh"
    public typealias Params = NoParams
    public typealias Response = NullResult
}

/// The client asks again for the code lenses of the notes it shows.
public enum CodeLensRefreshRequest: ServerRequest {
    public static let method = "workspace/codeLens/refresh"
    public typealias Params = NoParams
    public typealias Response = NullResult
}

/// The client asks for the semantic tokens of the notes it shows again.
public enum SemanticTokensRefreshRequest: ServerRequest {
    public static let method = "workspace/semanticTokens/refresh"
    public typealias Params = NoParams
    public typealias Response = NullResult
}

// MARK: Server notifications

public enum PublishDiagnosticsNotification: ServerNotification {
    public static let method = "textDocument/publishDiagnostics"
    public typealias Params = PublishDiagnosticsParams
}

public enum ProgressNotification: ServerNotification {
    public static let method = "$/progress"
    public typealias Params = ProgressParams
}

public enum LogMessageNotification: ServerNotification {
    public static let method = "window/logMessage"
    public typealias Params = LogMessageParams
}

public enum ShowMessageNotification: ServerNotification {
    public static let method = "window/showMessage"
    public typealias Params = ShowMessageParams
}

// MARK: All of them

/// Every message type, by direction.
public enum LSPMessages {
    public static let clientRequests: [any ClientRequest.Type] = [
        InitializeRequest.self, ShutdownRequest.self, DefinitionRequest.self, ReferencesRequest.self, HoverRequest.self,
        PrepareRenameRequest.self, RenameRequest.self, WillRenameFilesRequest.self, DocumentLinkRequest.self,
        DocumentSymbolRequest.self, FoldingRangeRequest.self, WorkspaceSymbolRequest.self, CodeActionRequest.self,
        CompletionRequest.self, CompletionItemResolveRequest.self, DocumentDiagnosticRequest.self,
        WorkspaceDiagnosticRequest.self, MacMDPreviewRequest.self, DocumentFormattingRequest.self,
        DocumentRangeFormattingRequest.self, DocumentOnTypeFormattingRequest.self, MacMDPairsRequest.self,
        CallHierarchyPrepareRequest.self, CallHierarchyIncomingCallsRequest.self, CallHierarchyOutgoingCallsRequest.self,
        DocumentHighlightRequest.self, SelectionRangeRequest.self, CodeLensRequest.self, CodeLensResolveRequest.self,
        SemanticTokensFullRequest.self, SemanticTokensRangeRequest.self,
        CodeActionResolveRequest.self,
        MacMDUnlinkedMentionsRequest.self, MacMDStatisticsRequest.self, MacMDSearchRequest.self,
    ]

    public static let clientNotifications: [any ClientNotification.Type] = [
        InitializedNotification.self, ExitNotification.self, CancelRequestNotification.self,
        DidOpenTextDocumentNotification.self, DidChangeTextDocumentNotification.self, DidCloseTextDocumentNotification.self,
        DidSaveTextDocumentNotification.self, DidChangeWatchedFilesNotification.self, DidCreateFilesNotification.self,
        DidDeleteFilesNotification.self, DidRenameFilesNotification.self, DidChangeWorkspaceFoldersNotification.self,
        DidChangeConfigurationNotification.self,
    ]

    public static let serverRequests: [any ServerRequest.Type] = [
        RegisterCapabilityRequest.self, WorkspaceConfigurationRequest.self, WorkDoneProgressCreateRequest.self,
        DiagnosticRefreshRequest.self, SemanticTokensRefreshRequest.self, ShowMessageRequest.self, CodeLensRefreshRequest.self,
    ]

    public static let serverNotifications: [any ServerNotification.Type] = [
        PublishDiagnosticsNotification.self, ProgressNotification.self, LogMessageNotification.self,
        ShowMessageNotification.self,
    ]
}
