// Params of the workspace messages: symbol queries, file events and operations, workspace folders
// and settings. Each reader names the field that is wrong and ignores members it does not read.

import JSON
import JSONRPC

/// `workspace/symbol`: `{query}`.
public struct WorkspaceSymbolParams: Sendable, Equatable, LSPDecodable {
    public var query: String

    public init(query: String) { self.query = query }

    public init(_ reader: ParamReader) throws(ResponseError) {
        query = try reader.field("query").string()
    }
}

/// A file event of `workspace/didChangeWatchedFiles`: `{uri, type}` (`type` read first, as 1, 2
/// or 3). The server also makes them of file operations and of its own rescans.
public struct FileEvent: Sendable, Equatable, LSPDecodable {
    /// LSP's `FileChangeType`, the member `type`.
    public typealias Kind = FileChangeType
    public var uri: String
    public var kind: Kind

    public init(uri: String, kind: Kind) {
        self.uri = uri
        self.kind = kind
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        kind = try FileChangeType(reader.field("type"))
        uri = try reader.field("uri").string()
    }
}

/// `workspace/didChangeWatchedFiles`: `{changes}`.
public struct DidChangeWatchedFilesParams: Sendable, Equatable, LSPDecodable {
    public var changes: [FileEvent]

    public init(changes: [FileEvent]) { self.changes = changes }

    public init(_ reader: ParamReader) throws(ResponseError) {
        changes = try [FileEvent](reader.field("changes"))
    }
}

/// `{uri}`: a file created or deleted (LSP's `FileCreate` and `FileDelete` are the same).
public struct FileCreate: Sendable, Equatable, LSPDecodable {
    public var uri: String

    public init(uri: String) { self.uri = uri }

    public init(_ reader: ParamReader) throws(ResponseError) {
        uri = try reader.field("uri").string()
    }
}

public typealias FileDelete = FileCreate

/// `{oldUri, newUri}`: a file or folder renamed.
public struct FileRename: Sendable, Equatable, LSPDecodable {
    public var oldURI: String
    public var newURI: String

    public init(oldURI: String, newURI: String) {
        self.oldURI = oldURI
        self.newURI = newURI
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        oldURI = try reader.field("oldUri").string()
        newURI = try reader.field("newUri").string()
    }
}

/// The params of the file operations: `{files}`, the files created, deleted or renamed.
public struct FilesParams<File: LSPDecodable & Equatable>: Sendable, Equatable, LSPDecodable {
    public var files: [File]

    public init(files: [File]) { self.files = files }

    public init(_ reader: ParamReader) throws(ResponseError) {
        files = try [File](reader.field("files"))
    }
}

/// `workspace/didCreateFiles`: `{files: [{uri}]}`.
public typealias CreateFilesParams = FilesParams<FileCreate>
/// `workspace/didDeleteFiles`: `{files: [{uri}]}`.
public typealias DeleteFilesParams = FilesParams<FileDelete>
/// `workspace/willRenameFiles` and `workspace/didRenameFiles`: `{files: [{oldUri, newUri}]}`.
public typealias RenameFilesParams = FilesParams<FileRename>

/// `{uri}`: a workspace folder (its `name` is not read: MacMD names a notebook by its path).
public struct WorkspaceFolder: Sendable, Equatable, LSPDecodable {
    public var uri: String

    public init(uri: String) { self.uri = uri }

    public init(_ reader: ParamReader) throws(ResponseError) {
        uri = try reader.field("uri").string()
    }
}

/// `{added, removed}`: workspace folders that came and went; a missing list is empty.
public struct WorkspaceFoldersChangeEvent: Sendable, Equatable, LSPDecodable {
    public var added: [WorkspaceFolder]
    public var removed: [WorkspaceFolder]

    public init(added: [WorkspaceFolder], removed: [WorkspaceFolder]) {
        self.added = added
        self.removed = removed
    }

    /// Any value reads (a missing `event` changes nothing); only a list that is there is checked.
    public init(_ reader: ParamReader) throws(ResponseError) {
        added = try reader.field("added").decodeIfPresent([WorkspaceFolder].self) ?? []
        removed = try reader.field("removed").decodeIfPresent([WorkspaceFolder].self) ?? []
    }
}

/// `workspace/didChangeWorkspaceFolders`: `{event: {added, removed}}`.
public struct DidChangeWorkspaceFoldersParams: Sendable, Equatable, LSPDecodable {
    public var event: WorkspaceFoldersChangeEvent

    public init(event: WorkspaceFoldersChangeEvent) { self.event = event }

    public init(_ reader: ParamReader) throws(ResponseError) {
        event = try WorkspaceFoldersChangeEvent(reader.field("event"))
    }
}

/// `workspace/didChangeConfiguration`: `{settings}`, raw (nil when absent). Reading never fails:
/// a client without settings to push sends anything, and the server then asks for them.
public struct DidChangeConfigurationParams: Sendable, Equatable, LSPDecodable {
    public var settings: JSONValue?

    public init(settings: JSONValue?) { self.settings = settings }

    public init(_ reader: ParamReader) {
        settings = reader.field("settings").value
    }
}
