// What the server asks the client to send it: dynamic registrations (`client/registerCapability`)
// with their options, and the file operation filters of the `workspace.fileOperations`
// capabilities.

import JSON
import JSONRPC

/// `{id, method, registerOptions?}`: one capability registered at run time.
public struct Registration: Sendable, Equatable, LSPEncodable {
    /// The id to unregister it by.
    public var id: String
    public var method: String
    public var registerOptions: JSONValue?

    public init(id: String, method: String, registerOptions: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.registerOptions = registerOptions
    }

    /// Registers `Message`'s method with typed options.
    public init<Message: LSPMessage>(id: String, _ message: Message.Type, registerOptions: some LSPEncodable) {
        self.init(id: id, method: Message.method, registerOptions: registerOptions.json)
    }

    public var json: JSONValue { .object(omittingNil: ["id": .string(id), "method": .string(method), "registerOptions": registerOptions]) }
}

/// `client/registerCapability`: `{registrations}`.
public struct RegistrationParams: Sendable, Equatable, LSPEncodable {
    public var registrations: [Registration]

    public init(registrations: [Registration]) { self.registrations = registrations }

    public var json: JSONValue { ["registrations": registrations.json] }
}

/// `workspace/didChangeConfiguration`'s options: `{section?}`, the settings section to push.
public struct DidChangeConfigurationRegistrationOptions: Sendable, Equatable, LSPEncodable {
    public var section: String?

    public init(section: String?) { self.section = section }

    public var json: JSONValue { .object(omittingNil: ["section": section?.json]) }
}

/// `{globPattern, kind?}`: files the client watches (`kind` absent: created, changed and deleted).
public struct FileSystemWatcher: Sendable, Equatable, LSPEncodable {
    /// A glob relative to the workspace folders (`**/*.md`); LSP also allows a relative pattern.
    public var globPattern: String
    public var kind: WatchKind?

    public init(globPattern: String, kind: WatchKind? = nil) {
        self.globPattern = globPattern
        self.kind = kind
    }

    public var json: JSONValue { .object(omittingNil: ["globPattern": .string(globPattern), "kind": kind?.json]) }
}

/// `workspace/didChangeWatchedFiles`'s options: `{watchers}`.
public struct DidChangeWatchedFilesRegistrationOptions: Sendable, Equatable, LSPEncodable {
    public var watchers: [FileSystemWatcher]

    public init(watchers: [FileSystemWatcher]) { self.watchers = watchers }

    public var json: JSONValue { ["watchers": watchers.json] }
}

/// `{ignoreCase?}`.
public struct FileOperationPatternOptions: Sendable, Equatable, LSPEncodable {
    public var ignoreCase: Bool?

    public init(ignoreCase: Bool? = nil) { self.ignoreCase = ignoreCase }

    public var json: JSONValue { .object(omittingNil: ["ignoreCase": ignoreCase?.json]) }
}

/// `{glob, matches?, options?}`: which paths a file operation is sent for (`matches` absent:
/// files and folders).
public struct FileOperationPattern: Sendable, Equatable, LSPEncodable {
    public var glob: String
    public var matches: FileOperationPatternKind?
    public var options: FileOperationPatternOptions?

    public init(glob: String, matches: FileOperationPatternKind? = nil, options: FileOperationPatternOptions? = nil) {
        self.glob = glob
        self.matches = matches
        self.options = options
    }

    public var json: JSONValue { .object(omittingNil: ["glob": .string(glob), "matches": matches?.json, "options": options?.json]) }
}

/// `{scheme?, pattern}`.
public struct FileOperationFilter: Sendable, Equatable, LSPEncodable {
    /// A URI scheme (`file`); absent: any.
    public var scheme: String?
    public var pattern: FileOperationPattern

    public init(scheme: String? = nil, pattern: FileOperationPattern) {
        self.scheme = scheme
        self.pattern = pattern
    }

    public var json: JSONValue { .object(omittingNil: ["scheme": scheme?.json, "pattern": pattern.json]) }
}

/// `{filters}`: the options of each `workspace.fileOperations` capability.
public struct FileOperationRegistrationOptions: Sendable, Equatable, LSPEncodable {
    public var filters: [FileOperationFilter]

    public init(filters: [FileOperationFilter]) { self.filters = filters }

    public var json: JSONValue { ["filters": filters.json] }
}
