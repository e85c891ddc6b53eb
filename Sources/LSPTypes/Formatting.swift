// Formatting: `textDocument/formatting`, `rangeFormatting` and `onTypeFormatting`. MacMD formats
// only what the writer asked for (tables aligned, a list continued); the editor's options are
// read for the indentation it uses.

import JSON
import JSONRPC

/// `{tabSize, insertSpaces, …}`: how the editor indents. Other members are ignored.
public struct FormattingOptions: Sendable, Equatable, LSPDecodable {
    public var tabSize: Int
    public var insertSpaces: Bool
    /// `macmd.textWidth`, MacMD's own option (LSP lets formatting options carry more
    /// properties): fill the paragraphs of the range to this many columns, as `gq` does; absent
    /// or 0 leaves prose alone.
    public var textWidth: Int?

    public init(tabSize: Int = 4, insertSpaces: Bool = true, textWidth: Int? = nil) {
        self.tabSize = tabSize
        self.insertSpaces = insertSpaces
        self.textWidth = textWidth
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        tabSize = try reader.field("tabSize").optionalInt() ?? 4
        insertSpaces = try reader.field("insertSpaces").optionalBool() ?? true
        textWidth = try reader.field("macmd.textWidth").optionalInt().flatMap { $0 > 0 ? $0 : nil }
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

/// One pair an editor should close at a position: typing `open` inserts `close` after the cursor.
public struct AutoPairItem: Sendable, Equatable, LSPEncodable {
    public var open: String
    public var close: String
    /// What the pair writes (`wikiLink`, `emphasis`, `codeSpan`, …).
    public var kind: String
    /// `withdrawOn`: the characters that, typed right after the open, take the close back (a
    /// `$` followed by a digit or a space is money, not maths); absent when none do.
    public var withdrawOn: String?

    public init(open: String, close: String, kind: String, withdrawOn: String? = nil) {
        self.open = open
        self.close = close
        self.kind = kind
        self.withdrawOn = withdrawOn
    }

    public var json: JSONValue {
        .object(omittingNil: ["open": .string(open), "close": .string(close), "kind": .string(kind),
                              "withdrawOn": withdrawOn.map { .string($0) }])
    }
}

/// `macmd/pairs`' answer: what the position is in (`text`, `codeSpan`, `fencedCode`, `math`,
/// `frontMatter`, `url`, …), the fenced code's language there, and the pairs to close, longest
/// open first.
public struct PairsResult: Sendable, Equatable, LSPEncodable {
    public var context: String
    public var language: String?
    public var pairs: [AutoPairItem]

    public init(context: String, language: String? = nil, pairs: [AutoPairItem]) {
        self.context = context
        self.language = language
        self.pairs = pairs
    }

    public var json: JSONValue {
        .object(omittingNil: ["context": .string(context), "language": language?.json, "pairs": pairs.json])
    }
}

/// MacMD's `macmd/pairs`: `{textDocument, position}` → the pairs to auto-close there.
public enum MacMDPairsRequest: ClientRequest {
    public static let method = "macmd/pairs"
    public typealias Params = TextDocumentPositionParams
    public typealias Response = PairsResult
}
