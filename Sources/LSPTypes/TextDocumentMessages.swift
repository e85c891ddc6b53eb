// Parameters of the text synchronisation notifications and of the requests MacMD serves.

import JSONRPC

/// `textDocument/didOpen`.
public struct DidOpenParams: Sendable, Equatable {
    public static let method = "textDocument/didOpen"
    public var uri: String
    public var languageID: String
    public var version: Int
    public var text: String

    public init(_ params: JSONValue?) throws(ResponseError) {
        let document = try ParamReader(params).requiredObject("textDocument")
        uri = try document.field("uri").string()
        languageID = try document.field("languageId").optionalString() ?? "markdown"
        version = try document.field("version").int()
        text = try document.field("text").string()
    }
}

/// One entry of `contentChanges`: a range edit, or the whole text when `range` is absent.
public struct TextChange: Sendable, Equatable {
    public var range: LSPRange?
    public var text: String
}

/// `textDocument/didChange`.
public struct DidChangeParams: Sendable, Equatable {
    public static let method = "textDocument/didChange"
    public var uri: String
    public var version: Int?
    public var changes: [TextChange]

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        let document = try reader.requiredObject("textDocument")
        uri = try document.field("uri").string()
        version = try document.field("version").optionalInt()
        var changes: [TextChange] = []
        for change in try reader.field("contentChanges").array() {
            _ = try change.object()
            let range = change.field("range").isPresent ? try LSPRange(change.field("range")) : nil
            changes.append(TextChange(range: range, text: try change.field("text").string()))
        }
        self.changes = changes
    }
}

/// `textDocument/didClose`, `textDocument/didSave` and other notifications about one document.
public struct DocumentParams: Sendable, Equatable {
    public var uri: String
    /// `didSave`'s optional full text.
    public var text: String?

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        uri = try reader.requiredObject("textDocument").field("uri").string()
        text = try reader.field("text").optionalString()
    }
}

/// `$/cancelRequest`.
public struct CancelParams: Sendable, Equatable {
    public static let method = "$/cancelRequest"
    public var id: RequestID

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params).field("id")
        guard let value = reader.value, let id = RequestID(json: value) else { throw reader.invalid("an integer or a string") }
        self.id = id
    }
}

/// `macmd/preview`: `{ textDocument: {uri}, options?: {profile?, theme?, fullPage?, sourceLines?, safe?} }`.
public struct PreviewParams: Sendable, Equatable {
    public static let method = "macmd/preview"
    public var uri: String
    public var profile: String?
    public var theme: String?
    public var fullPage: Bool?
    public var sourceLines: Bool?
    public var safe: Bool?

    public init(_ params: JSONValue?) throws(ResponseError) {
        let reader = ParamReader(params)
        _ = try reader.object()
        uri = try reader.requiredObject("textDocument").field("uri").string()
        let options = reader.field("options")
        if options.isPresent {
            _ = try options.object()
            profile = try options.field("profile").optionalString()
            theme = try options.field("theme").optionalString()
            fullPage = try options.field("fullPage").optionalBool()
            sourceLines = try options.field("sourceLines").optionalBool()
            safe = try options.field("safe").optionalBool()
        }
    }
}
