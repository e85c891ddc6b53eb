// The lifecycle: what MacMD reads from `initialize` (the client's position encodings and the
// capabilities that decide which requests the server may send it), what it answers, and
// `$/cancelRequest`.

import JSON
import JSONRPC
import Localization

public struct InitializeParams: Sendable, Equatable, LSPDecodable {
    public static let method = InitializeRequest.method
    public var processID: Int?
    public var clientName: String?
    /// `locale`: the language the client's user interface is in (`de`, `en-GB`), when it says.
    public var locale: String?
    public var rootURI: String?
    public var workspaceFolders: [String]
    public var positionEncodings: [String]
    public var supportsConfiguration: Bool
    public var supportsDynamicConfigurationRegistration: Bool
    public var supportsWorkDoneProgress: Bool
    public var initializationOptions: JSONValue?
    /// `textDocument.diagnostic`: the client pulls diagnostics.
    public var supportsPullDiagnostics: Bool
    /// `workspace.diagnostics.refreshSupport`: the client accepts `workspace/diagnostic/refresh`.
    public var supportsDiagnosticRefresh: Bool
    /// `workspace.codeLens.refreshSupport`: the client accepts `workspace/codeLens/refresh`.
    public var supportsCodeLensRefresh: Bool
    /// `workspace.semanticTokens.refreshSupport`: the client accepts
    /// `workspace/semanticTokens/refresh`.
    public var supportsSemanticTokensRefresh: Bool
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`: the server may register watchers.
    public var supportsWatchedFilesRegistration: Bool
    /// `workspace.workspaceEdit.documentChanges`, or `resourceOperations` naming any operation:
    /// edits may be `documentChanges`, which create and rename files. Resource operations exist
    /// only inside `documentChanges`, so a client that lists them takes that form (Neovim lists
    /// `create`, `rename` and `delete`, applies `documentChanges`, and announces no
    /// `documentChanges` flag).
    public var supportsDocumentChanges: Bool
    /// `textDocument.completion.completionItem.snippetSupport`: completion items may be snippets.
    public var supportsSnippets: Bool
    /// `workspace.workspaceEdit.changeAnnotationSupport`: edits may carry annotations, and the
    /// client asks the user before applying those that need confirmation.
    public var supportsChangeAnnotations: Bool
    /// `window.showMessage` is named (with any value: lsp-mode says `null` and answers): the
    /// server may ask the user with `window/showMessageRequest` and wait for the answer.
    public var supportsShowMessageRequest: Bool
    /// `textDocument.hover.contentFormat` names formats and not `markdown`: hovers go as plain
    /// text (Vim's ALE shows Markdown as it is written).
    public var wantsPlainTextHover: Bool
    /// `textDocument.codeAction.resolveSupport.properties` holds `edit`: an action may come
    /// without its edit, which `codeAction/resolve` then makes.
    public var supportsCodeActionResolve: Bool

    public init(_ params: JSONValue?) throws(ResponseError) {
        try self.init(params: params)
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        _ = try reader.object()
        processID = try reader.field("processId").optionalInt()
        clientName = try reader.field("clientInfo").field("name").optionalString()
        locale = try reader.field("locale").optionalString()
        rootURI = try reader.field("rootUri").optionalString()
        workspaceFolders = try (reader.field("workspaceFolders").decodeIfPresent([WorkspaceFolder].self) ?? []).map(\.uri)
        let capabilities = reader.field("capabilities")
        positionEncodings = try capabilities.field("general").field("positionEncodings").decodeIfPresent([String].self) ?? []
        let workspace = capabilities.field("workspace")
        supportsConfiguration = try workspace.field("configuration").optionalBool() ?? false
        supportsDynamicConfigurationRegistration =
            try workspace.field("didChangeConfiguration").field("dynamicRegistration").optionalBool() ?? false
        supportsWorkDoneProgress = try capabilities.field("window").field("workDoneProgress").optionalBool() ?? false
        initializationOptions = reader.field("initializationOptions").value
        supportsPullDiagnostics = capabilities.field("textDocument").field("diagnostic").isPresent
        supportsDiagnosticRefresh = try workspace.field("diagnostics").field("refreshSupport").optionalBool() ?? false
        supportsCodeLensRefresh = try workspace.field("codeLens").field("refreshSupport").optionalBool() ?? false
        supportsSemanticTokensRefresh = try workspace.field("semanticTokens").field("refreshSupport").optionalBool() ?? false
        supportsWatchedFilesRegistration =
            try workspace.field("didChangeWatchedFiles").field("dynamicRegistration").optionalBool() ?? false
        let resourceOperations = try workspace.field("workspaceEdit").field("resourceOperations").decodeIfPresent([String].self) ?? []
        supportsDocumentChanges = try workspace.field("workspaceEdit").field("documentChanges").optionalBool()
            ?? !resourceOperations.isEmpty
        supportsSnippets = try capabilities.field("textDocument").field("completion").field("completionItem")
            .field("snippetSupport").optionalBool() ?? false
        supportsChangeAnnotations = workspace.field("workspaceEdit").field("changeAnnotationSupport").isPresent
        supportsShowMessageRequest = capabilities.field("window").value?["showMessage"] != nil
        let hoverFormats = try capabilities.field("textDocument").field("hover").field("contentFormat").decodeIfPresent([String].self) ?? []
        wantsPlainTextHover = !hoverFormats.isEmpty && !hoverFormats.contains("markdown")
        let resolvable = try capabilities.field("textDocument").field("codeAction").field("resolveSupport").field("properties")
            .decodeIfPresent([String].self) ?? []
        supportsCodeActionResolve = resolvable.contains("edit")
    }
}

/// `{name, version?}`: the server as the client shows it.
public struct ServerInfo: Sendable, Equatable, LSPEncodable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }

    public var json: JSONValue { .object(omittingNil: ["name": .string(name), "version": version?.json]) }
}

/// `initialize`'s result: `{capabilities, serverInfo?}`. The capabilities stay JSON: the server
/// derives them from the handlers it registers.
public struct InitializeResult: Sendable, Equatable, LSPEncodable {
    public var capabilities: JSONValue
    public var serverInfo: ServerInfo?

    public init(capabilities: JSONValue, serverInfo: ServerInfo? = nil) {
        self.capabilities = capabilities
        self.serverInfo = serverInfo
    }

    public var json: JSONValue { .object(omittingNil: ["capabilities": capabilities, "serverInfo": serverInfo?.json]) }
}

/// `$/cancelRequest`: `{id}`, an integer or a string.
public struct CancelParams: Sendable, Equatable, LSPDecodable {
    public static let method = CancelRequestNotification.method
    public var id: RequestID

    public init(id: RequestID) { self.id = id }

    public init(_ params: JSONValue?) throws(ResponseError) {
        try self.init(params: params)
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let field = reader.field("id")
        guard let value = field.value, let id = RequestID(json: value) else { throw field.invalid(LocalizedText("lspParams.expected.integerOrString")) }
        self.id = id
    }
}
