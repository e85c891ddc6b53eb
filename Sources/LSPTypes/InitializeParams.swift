// What MacMD reads from `initialize`: the client's position encodings and the capabilities that
// decide which requests the server may send it.

import JSONRPC

public struct InitializeParams: Sendable, Equatable {
    public static let method = "initialize"
    public var processID: Int?
    public var clientName: String?
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
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`: the server may register watchers.
    public var supportsWatchedFilesRegistration: Bool
    /// `workspace.workspaceEdit.documentChanges`: edits may create and rename files.
    public var supportsDocumentChanges: Bool

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        _ = try reader.object()
        processID = try reader.field("processId").optionalInt()
        clientName = try reader.field("clientInfo").field("name").optionalString()
        rootURI = try reader.field("rootUri").optionalString()
        workspaceFolders = try (reader.field("workspaceFolders").optionalArray() ?? []).map { folder throws(ResponseError) in
            try folder.field("uri").string()
        }
        let capabilities = reader.field("capabilities")
        positionEncodings = try (capabilities.field("general").field("positionEncodings").optionalArray() ?? [])
            .map { item throws(ResponseError) in try item.string() }
        let workspace = capabilities.field("workspace")
        supportsConfiguration = try workspace.field("configuration").optionalBool() ?? false
        supportsDynamicConfigurationRegistration =
            try workspace.field("didChangeConfiguration").field("dynamicRegistration").optionalBool() ?? false
        supportsWorkDoneProgress = try capabilities.field("window").field("workDoneProgress").optionalBool() ?? false
        initializationOptions = reader.field("initializationOptions").value
        supportsPullDiagnostics = capabilities.field("textDocument").field("diagnostic").isPresent
        supportsDiagnosticRefresh = try workspace.field("diagnostics").field("refreshSupport").optionalBool() ?? false
        supportsWatchedFilesRegistration =
            try workspace.field("didChangeWatchedFiles").field("dynamicRegistration").optionalBool() ?? false
        supportsDocumentChanges = try workspace.field("workspaceEdit").field("documentChanges").optionalBool() ?? false
    }
}
