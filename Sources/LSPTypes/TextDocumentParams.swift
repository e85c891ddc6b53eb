// Params of the messages about one document: text synchronisation and the requests on a document,
// a position or a range in it. Each reader names the field that is wrong
// (`params.position.line: expected an integer, got "x"`) and ignores members it does not read.

import JSONRPC
import Localization

/// `{textDocument: {uri}}`: the requests and notifications about a whole document.
public struct TextDocumentParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier

    public init(textDocument: TextDocumentIdentifier) { self.textDocument = textDocument }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
    }
}

/// `textDocument/didClose`.
public typealias DidCloseTextDocumentParams = TextDocumentParams
/// `textDocument/documentLink`.
public typealias DocumentLinkParams = TextDocumentParams
/// `textDocument/documentSymbol`.
public typealias DocumentSymbolParams = TextDocumentParams
/// `textDocument/foldingRange`.
public typealias FoldingRangeParams = TextDocumentParams
/// `textDocument/semanticTokens/full`.
public typealias SemanticTokensParams = TextDocumentParams
/// `textDocument/diagnostic` (MacMD always answers a full report, so `identifier` and
/// `previousResultId` are not read).
public typealias DocumentDiagnosticParams = TextDocumentParams

/// `{textDocument, position}`: definition, hover, prepareRename, completion.
public struct TextDocumentPositionParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var position: LSPPosition

    public init(textDocument: TextDocumentIdentifier, position: LSPPosition) {
        self.textDocument = textDocument
        self.position = position
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        position = try LSPPosition(reader.field("position"))
    }
}

/// `references`' `context`. An absent `includeDeclaration` (or context) reads as `true`.
public struct ReferenceContext: Sendable, Equatable, LSPDecodable {
    public var includeDeclaration: Bool

    public init(includeDeclaration: Bool) { self.includeDeclaration = includeDeclaration }

    public init(_ reader: ParamReader) throws(ResponseError) {
        includeDeclaration = try reader.field("includeDeclaration").optionalBool() ?? true
    }
}

/// `textDocument/references`: `{textDocument, position, context?: {includeDeclaration?}}`.
public struct ReferenceParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var position: LSPPosition
    public var context: ReferenceContext

    public init(textDocument: TextDocumentIdentifier, position: LSPPosition, context: ReferenceContext) {
        self.textDocument = textDocument
        self.position = position
        self.context = context
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let at = try TextDocumentPositionParams(reader)
        self.init(textDocument: at.textDocument, position: at.position, context: try ReferenceContext(reader.field("context")))
    }
}

/// `textDocument/rename`: `{textDocument, position, newName}`. Without a string `newName` (absent
/// or `null`) the error reads `params.newName: expected a string, got nothing`.
public struct RenameParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var position: LSPPosition
    public var newName: String

    public init(textDocument: TextDocumentIdentifier, position: LSPPosition, newName: String) {
        self.textDocument = textDocument
        self.position = position
        self.newName = newName
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let at = try TextDocumentPositionParams(reader)
        let field = reader.field("newName")
        guard let newName = try field.optionalString() else {
            throw ResponseError(code: ResponseError.invalidParams, text: LocalizedText(
                "lspParams.invalid", .string(field.path), .message("lspParams.expected.string"), .message("lspParams.got.nothing")))
        }
        self.init(textDocument: at.textDocument, position: at.position, newName: newName)
    }
}

/// `textDocument/codeAction` (the `context` is not read: MacMD's actions come from the text in
/// the range, not from the diagnostics the client shows).
public typealias CodeActionParams = TextDocumentRangeParams
/// `textDocument/semanticTokens/range`.
public typealias SemanticTokensRangeParams = TextDocumentRangeParams

/// `{textDocument, range}`: the requests about a range of a document.
public struct TextDocumentRangeParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var range: LSPRange

    public init(textDocument: TextDocumentIdentifier, range: LSPRange) {
        self.textDocument = textDocument
        self.range = range
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        range = try LSPRange(reader.field("range"))
    }
}

/// `textDocument/didOpen`: `{textDocument: {uri, languageId, version, text}}`.
public struct DidOpenTextDocumentParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentItem

    public init(textDocument: TextDocumentItem) { self.textDocument = textDocument }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentItem(reader.field("textDocument"))
    }
}

/// One entry of `contentChanges`: a range edit, or the whole text when `range` is absent
/// (`rangeLength`, deprecated, is not read).
public struct TextDocumentContentChangeEvent: Sendable, Equatable, LSPDecodable {
    public var range: LSPRange?
    public var text: String

    public init(range: LSPRange?, text: String) {
        self.range = range
        self.text = text
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        let change = try reader.object()
        range = try change.field("range").decodeIfPresent(LSPRange.self)
        text = try change.field("text").string()
    }
}

/// `textDocument/didChange`: `{textDocument: {uri, version}, contentChanges}`, the changes in
/// order. A missing version is accepted (see `OptionalVersionedTextDocumentIdentifier`).
public struct DidChangeTextDocumentParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: OptionalVersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]

    public init(textDocument: OptionalVersionedTextDocumentIdentifier, contentChanges: [TextDocumentContentChangeEvent]) {
        self.textDocument = textDocument
        self.contentChanges = contentChanges
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try OptionalVersionedTextDocumentIdentifier(reader.field("textDocument"))
        contentChanges = try [TextDocumentContentChangeEvent](reader.field("contentChanges"))
    }
}

/// `textDocument/didSave`: `{textDocument, text?}` (the text only when the client includes it).
public struct DidSaveTextDocumentParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var text: String?

    public init(textDocument: TextDocumentIdentifier, text: String? = nil) {
        self.textDocument = textDocument
        self.text = text
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        text = try reader.field("text").optionalString()
    }
}

/// `textDocument/completion`'s params: the position, and how completion was triggered
/// (`context.triggerKind`: 1 the writer asked for it, 2 a trigger character was typed, 3 the
/// list is being completed again; absent in clients that do not say).
public struct CompletionParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var position: LSPPosition
    public var triggerKind: Int?
    public var triggerCharacter: String?

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        position = try LSPPosition(reader.field("position"))
        triggerKind = try reader.field("context").field("triggerKind").optionalInt()
        triggerCharacter = try reader.field("context").field("triggerCharacter").optionalString()
    }

    /// The writer asked for completion (Ctrl-Space), or the client did not say how it came.
    public var isInvoked: Bool { triggerKind == nil || triggerKind == 1 }
}
