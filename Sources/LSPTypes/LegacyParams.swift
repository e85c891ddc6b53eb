// The readers the server used before the typed messages, kept with their API while it moves to a
// registry of typed handlers, and now made of the typed params so both read the same. Delete each
// once no handler uses it.

import JSONRPC

/// `{ textDocument: {uri}, position }` for every position request, with `rename`'s `newName` and
/// `references`' `context.includeDeclaration` (so a malformed `newName` fails a hover too; the
/// typed params read only their own members).
public struct DocumentPositionParams: Sendable, Equatable {
    public var uri: String
    public var position: LSPPosition
    /// `rename`'s new name.
    public var newName: String?
    /// `references`' `context.includeDeclaration`.
    public var includeDeclaration: Bool

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        let at = try TextDocumentPositionParams(reader)
        uri = at.textDocument.uri
        position = at.position
        newName = try reader.field("newName").optionalString()
        includeDeclaration = try ReferenceContext(reader.field("context")).includeDeclaration
    }
}

/// `{ textDocument: {uri}, range }`: code actions.
public struct DocumentRangeParams: Sendable, Equatable {
    public var uri: String
    public var range: LSPRange

    public init(_ params: JSONValue?) throws(ResponseError) {
        let typed = try CodeActionParams(params: params)
        uri = typed.textDocument.uri
        range = typed.range
    }
}

/// `{ textDocument: {uri}, text? }`: `didClose`, `didSave` and the requests on a whole document.
public struct DocumentParams: Sendable, Equatable {
    public var uri: String
    /// `didSave`'s optional full text.
    public var text: String?

    public init(_ params: JSONValue?) throws(ResponseError) {
        let typed = try DidSaveTextDocumentParams(params: params)
        uri = typed.textDocument.uri
        text = typed.text
    }
}

extension FileEvent {
    /// `workspace/didChangeWatchedFiles`: `{ changes: [{uri, type}] }`.
    public static func watched(_ params: JSONValue?) throws(ResponseError) -> [FileEvent] {
        try DidChangeWatchedFilesParams(params: params).changes
    }
}

/// `didCreateFiles`/`didDeleteFiles` (`files: [{uri}]`) and `didRenameFiles`/`willRenameFiles`
/// (`files: [{oldUri, newUri}]`).
public struct FileOperationParams: Sendable, Equatable {
    public var files: [(old: String?, new: String)]

    public init(_ params: JSONValue?, renames: Bool) throws(ResponseError) {
        files = renames
            ? try RenameFilesParams(params: params).files.map { ($0.oldURI, $0.newURI) }
            : try CreateFilesParams(params: params).files.map { (nil, $0.uri) }
    }

    public static func == (a: FileOperationParams, b: FileOperationParams) -> Bool {
        a.files.elementsEqual(b.files) { $0.old == $1.old && $0.new == $1.new }
    }
}

/// `textDocument/didOpen`, flattened.
public struct DidOpenParams: Sendable, Equatable {
    public static let method = DidOpenTextDocumentNotification.method
    public var uri: String
    public var languageID: String
    public var version: Int
    public var text: String

    public init(_ params: JSONValue?) throws(ResponseError) {
        let document = try DidOpenTextDocumentParams(params: params).textDocument
        uri = document.uri
        languageID = document.languageID
        version = document.version
        text = document.text
    }
}

/// One entry of `contentChanges`.
public typealias TextChange = TextDocumentContentChangeEvent

/// `textDocument/didChange`, flattened.
public struct DidChangeParams: Sendable, Equatable {
    public static let method = DidChangeTextDocumentNotification.method
    public var uri: String
    public var version: Int?
    public var changes: [TextChange]

    public init(_ params: JSONValue?) throws(ResponseError) {
        let typed = try DidChangeTextDocumentParams(params: params)
        uri = typed.textDocument.uri
        version = typed.textDocument.version
        changes = typed.contentChanges
    }
}
