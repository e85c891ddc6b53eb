// The structures that name documents and places in them: identifiers, items, locations, edits and
// Markdown content.

import JSON
import JSONRPC

/// `{uri}`: a document. Read, it must be an object with a string `uri`.
public struct TextDocumentIdentifier: Sendable, Equatable, LSPDecodable, LSPEncodable {
    public var uri: String

    public init(uri: String) { self.uri = uri }

    public init(_ reader: ParamReader) throws(ResponseError) {
        uri = try reader.object().field("uri").string()
    }

    public var json: JSONValue { ["uri": .string(uri)] }
}

/// `{uri, version}`: a document at a version, or `version: null` for a file that is not open
/// (always written, `null` included). Read for `didChange`, where a missing version is accepted
/// (the server then counts the open document's version up by one).
public struct OptionalVersionedTextDocumentIdentifier: Sendable, Equatable, LSPDecodable, LSPEncodable {
    public var uri: String
    public var version: Int?

    public init(uri: String, version: Int?) {
        self.uri = uri
        self.version = version
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let document = try reader.object()
        uri = try document.field("uri").string()
        version = try document.field("version").optionalInt()
    }

    public var json: JSONValue { ["uri": .string(uri), "version": version.json] }
}

/// `didOpen`'s document: `{uri, languageId, version, text}`. A missing `languageId` reads as
/// `markdown`.
public struct TextDocumentItem: Sendable, Equatable, LSPDecodable {
    public var uri: String
    public var languageID: String
    public var version: Int
    public var text: String

    public init(uri: String, languageID: String, version: Int, text: String) {
        self.uri = uri
        self.languageID = languageID
        self.version = version
        self.text = text
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let document = try reader.object()
        uri = try document.field("uri").string()
        languageID = try document.field("languageId").optionalString() ?? "markdown"
        version = try document.field("version").int()
        text = try document.field("text").string()
    }
}

/// `{uri, range}`.
public struct Location: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var range: LSPRange

    public init(uri: String, range: LSPRange) {
        self.uri = uri
        self.range = range
    }

    public var json: JSONValue { .object("uri", .string(uri), "range", range.json) }
}

/// `{range, newText}`.
public struct TextEdit: Sendable, Equatable, LSPEncodable {
    public var range: LSPRange
    public var newText: String
    /// `annotationId` (an `AnnotatedTextEdit`): the change annotation the edit belongs to.
    public var annotationID: String?
    /// `macmd.cursorBefore`, MacMD's extension for `textDocument/onTypeFormatting`: this edit, an
    /// insertion at the cursor, puts its text after the cursor (at the very end of a note, where
    /// no character follows to carry it); absent when false.
    public var cursorBefore: Bool

    public init(range: LSPRange, newText: String, annotationID: String? = nil, cursorBefore: Bool = false) {
        self.range = range
        self.newText = newText
        self.annotationID = annotationID
        self.cursorBefore = cursorBefore
    }

    public var json: JSONValue {
        .object(omittingNil: ["range": range.json, "newText": .string(newText), "annotationId": annotationID.map { .string($0) },
                              "macmd.cursorBefore": cursorBefore ? .bool(true) : nil])
    }
}

/// `{kind, value}`: text for the client to show, Markdown or plain.
public struct MarkupContent: Sendable, Equatable, LSPEncodable {
    public var kind: MarkupKind
    public var value: String

    public init(kind: MarkupKind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// Markdown, the kind MacMD writes.
    public static func markdown(_ value: String) -> MarkupContent { MarkupContent(kind: .markdown, value: value) }

    public var json: JSONValue { .object("kind", kind.json, "value", .string(value)) }
}
