// Formatting: `textDocument/formatting`, `rangeFormatting` and `onTypeFormatting`. MacMD formats
// only what the writer asked for (tables aligned, a list continued); the editor's options are
// read for the indentation it uses.

import JSONRPC

/// `{tabSize, insertSpaces, …}`: how the editor indents. Other members are ignored.
public struct FormattingOptions: Sendable, Equatable, LSPDecodable {
    public var tabSize: Int
    public var insertSpaces: Bool

    public init(tabSize: Int = 4, insertSpaces: Bool = true) {
        self.tabSize = tabSize
        self.insertSpaces = insertSpaces
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        tabSize = try reader.field("tabSize").optionalInt() ?? 4
        insertSpaces = try reader.field("insertSpaces").optionalBool() ?? true
    }
}

/// `{textDocument, options}`.
public struct DocumentFormattingParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var options: FormattingOptions

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        options = try reader.field("options").isPresent ? FormattingOptions(reader.field("options")) : FormattingOptions()
    }
}

/// `{textDocument, range, options}`.
public struct DocumentRangeFormattingParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var range: LSPRange
    public var options: FormattingOptions

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        range = try LSPRange(reader.field("range"))
        options = try reader.field("options").isPresent ? FormattingOptions(reader.field("options")) : FormattingOptions()
    }
}

/// `{textDocument, position, ch, options}`: `ch` is the character just typed; `position` is
/// where the cursor is after it.
public struct DocumentOnTypeFormattingParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var position: LSPPosition
    public var character: String
    public var options: FormattingOptions

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        position = try LSPPosition(reader.field("position"))
        character = try reader.field("ch").string()
        options = try reader.field("options").isPresent ? FormattingOptions(reader.field("options")) : FormattingOptions()
    }
}

public enum DocumentFormattingRequest: ClientRequest {
    public static let method = "textDocument/formatting"
    public typealias Params = DocumentFormattingParams
    public typealias Response = [TextEdit]?
}

public enum DocumentRangeFormattingRequest: ClientRequest {
    public static let method = "textDocument/rangeFormatting"
    public typealias Params = DocumentRangeFormattingParams
    public typealias Response = [TextEdit]?
}

public enum DocumentOnTypeFormattingRequest: ClientRequest {
    public static let method = "textDocument/onTypeFormatting"
    public typealias Params = DocumentOnTypeFormattingParams
    public typealias Response = [TextEdit]?
}
