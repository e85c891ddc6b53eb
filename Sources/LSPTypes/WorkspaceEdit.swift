// Workspace edits: text edits per document (`changes`), or document changes that may also create,
// rename and delete files (`documentChanges`, which the client must support).

import JSON

/// A change to the workspace. The server writes one of the two members; a client that supports
/// `documentChanges` prefers them when both are present.
public struct WorkspaceEdit: Sendable, Equatable, LSPEncodable {
    /// Text edits by document URI.
    public var changes: [String: [TextEdit]]?
    /// Edits and file operations, applied in order.
    public var documentChanges: [DocumentChange]?
    /// The annotations the edits name by `annotationId` (a client with `changeAnnotationSupport`
    /// shows them, and asks before applying those that need confirmation).
    public var changeAnnotations: [String: ChangeAnnotation]?

    public init(changes: [String: [TextEdit]]? = nil, documentChanges: [DocumentChange]? = nil,
                changeAnnotations: [String: ChangeAnnotation]? = nil) {
        self.changes = changes
        self.documentChanges = documentChanges
        self.changeAnnotations = changeAnnotations
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "changes": changes?.json,
            "documentChanges": documentChanges?.json,
            "changeAnnotations": changeAnnotations.map { annotations in .object(annotations.mapValues(\.json)) },
        ])
    }
}

/// `{label, needsConfirmation?, description?}`: what a group of edits does, for the client to show.
public struct ChangeAnnotation: Sendable, Equatable, LSPEncodable {
    public var label: String
    public var needsConfirmation: Bool
    public var description: String?

    public init(label: String, needsConfirmation: Bool, description: String? = nil) {
        self.label = label
        self.needsConfirmation = needsConfirmation
        self.description = description
    }

    public var json: JSONValue {
        .object(omittingNil: ["label": .string(label), "needsConfirmation": .bool(needsConfirmation),
                              "description": description.map { .string($0) }])
    }
}

/// One entry of `documentChanges`.
public enum DocumentChange: Sendable, Equatable, LSPEncodable {
    case edit(TextDocumentEdit)
    case create(CreateFile)
    case rename(RenameFile)
    case delete(DeleteFile)

    public var json: JSONValue {
        switch self {
        case .edit(let edit): return edit.json
        case .create(let create): return create.json
        case .rename(let rename): return rename.json
        case .delete(let delete): return delete.json
        }
    }
}

/// `{textDocument: {uri, version}, edits}`: edits to one document at a version (`null`: a file
/// that is not open, or one the same edit creates).
public struct TextDocumentEdit: Sendable, Equatable, LSPEncodable {
    public var textDocument: OptionalVersionedTextDocumentIdentifier
    public var edits: [TextEdit]

    public init(textDocument: OptionalVersionedTextDocumentIdentifier, edits: [TextEdit]) {
        self.textDocument = textDocument
        self.edits = edits
    }

    public var json: JSONValue { ["textDocument": textDocument.json, "edits": edits.json] }
}

/// The options of a `CreateFile` and of a `RenameFile` (LSP's `CreateFileOptions` and
/// `RenameFileOptions` have the same two members); each is written only when set.
public struct CreateFileOptions: Sendable, Equatable, LSPEncodable {
    /// Overwrite an existing file (wins over `ignoreIfExists`).
    public var overwrite: Bool?
    /// Do nothing when the file exists.
    public var ignoreIfExists: Bool?

    public init(overwrite: Bool? = nil, ignoreIfExists: Bool? = nil) {
        self.overwrite = overwrite
        self.ignoreIfExists = ignoreIfExists
    }

    public var json: JSONValue { .object(omittingNil: ["overwrite": overwrite?.json, "ignoreIfExists": ignoreIfExists?.json]) }
}

public typealias RenameFileOptions = CreateFileOptions

/// `{kind: "create", uri, options?}`.
public struct CreateFile: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var options: CreateFileOptions?

    public init(uri: String, options: CreateFileOptions? = nil) {
        self.uri = uri
        self.options = options
    }

    public var json: JSONValue { .object(omittingNil: ["kind": "create", "uri": .string(uri), "options": options?.json]) }
}

/// `{kind: "rename", oldUri, newUri, options?}`.
public struct RenameFile: Sendable, Equatable, LSPEncodable {
    public var oldURI: String
    public var newURI: String
    public var options: RenameFileOptions?

    public init(oldURI: String, newURI: String, options: RenameFileOptions? = nil) {
        self.oldURI = oldURI
        self.newURI = newURI
        self.options = options
    }

    public var json: JSONValue {
        .object(omittingNil: ["kind": "rename", "oldUri": .string(oldURI), "newUri": .string(newURI), "options": options?.json])
    }
}

/// `{recursive?, ignoreIfNotExists?}`.
public struct DeleteFileOptions: Sendable, Equatable, LSPEncodable {
    /// Delete a folder's content too.
    public var recursive: Bool?
    /// Do nothing when the file is not there.
    public var ignoreIfNotExists: Bool?

    public init(recursive: Bool? = nil, ignoreIfNotExists: Bool? = nil) {
        self.recursive = recursive
        self.ignoreIfNotExists = ignoreIfNotExists
    }

    public var json: JSONValue {
        .object(omittingNil: ["recursive": recursive?.json, "ignoreIfNotExists": ignoreIfNotExists?.json])
    }
}

/// `{kind: "delete", uri, options?}`.
public struct DeleteFile: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var options: DeleteFileOptions?

    public init(uri: String, options: DeleteFileOptions? = nil) {
        self.uri = uri
        self.options = options
    }

    public var json: JSONValue { .object(omittingNil: ["kind": "delete", "uri": .string(uri), "options": options?.json]) }
}
