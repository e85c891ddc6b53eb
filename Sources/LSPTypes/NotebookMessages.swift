// Params of the notebook requests: positions in documents, renames, symbol queries, file events.
// Each reader names the field that is wrong (`params.position.line: expected an integer …`).

import JSONRPC

/// `{ textDocument: {uri}, position }`: definition, references, hover, completion, rename.
public struct DocumentPositionParams: Sendable, Equatable {
    public var uri: String
    public var position: LSPPosition
    /// `rename`'s new name.
    public var newName: String?
    /// `references`' `context.includeDeclaration`.
    public var includeDeclaration: Bool

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        uri = try reader.requiredObject("textDocument").field("uri").string()
        position = try LSPPosition(reader.requiredObject("position"))
        newName = try reader.field("newName").optionalString()
        includeDeclaration = try reader.field("context").field("includeDeclaration").optionalBool() ?? true
    }
}

/// `{ textDocument: {uri}, range }`: code actions.
public struct DocumentRangeParams: Sendable, Equatable {
    public var uri: String
    public var range: LSPRange

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        uri = try reader.requiredObject("textDocument").field("uri").string()
        range = try LSPRange(reader.requiredObject("range"))
    }
}

/// A file event: `workspace/didChangeWatchedFiles` changes and file operations.
public struct FileEvent: Sendable, Equatable {
    public enum Kind: Int, Sendable { case created = 1, changed = 2, deleted = 3 }
    public var uri: String
    public var kind: Kind

    public init(uri: String, kind: Kind) {
        self.uri = uri
        self.kind = kind
    }

    /// `workspace/didChangeWatchedFiles`: `{ changes: [{uri, type}] }`.
    public static func watched(_ params: JSONValue?) throws(ResponseError) -> [FileEvent] {
        try ParamReader(params).field("changes").array().map { change throws(ResponseError) in
            let type = try change.field("type").int()
            guard let kind = Kind(rawValue: type) else { throw change.field("type").invalid("1, 2 or 3") }
            return FileEvent(uri: try change.field("uri").string(), kind: kind)
        }
    }
}

/// `didCreateFiles`/`didDeleteFiles` (`files: [{uri}]`) and `didRenameFiles`/`willRenameFiles`
/// (`files: [{oldUri, newUri}]`).
public struct FileOperationParams: Sendable, Equatable {
    public var files: [(old: String?, new: String)]

    public init(_ params: JSONValue?, renames: Bool) throws(ResponseError) {
        files = try ParamReader(params).field("files").array().map { file throws(ResponseError) in
            renames ? (try file.field("oldUri").string(), try file.field("newUri").string()) : (nil, try file.field("uri").string())
        }
    }

    public static func == (a: FileOperationParams, b: FileOperationParams) -> Bool {
        a.files.elementsEqual(b.files) { $0.old == $1.old && $0.new == $1.new }
    }
}
