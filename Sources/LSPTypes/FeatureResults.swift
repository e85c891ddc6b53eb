// What the language features answer: hover, rename preparation, symbols, folding ranges, links
// and code actions. Optional members are left out when absent unless a type says otherwise.

import JSON
import JSONRPC
import Localization

/// `{contents, range?}`: what the client shows under the pointer, over `range`.
public struct Hover: Sendable, Equatable, LSPEncodable {
    public var contents: MarkupContent
    public var range: LSPRange?

    public init(contents: MarkupContent, range: LSPRange? = nil) {
        self.contents = contents
        self.range = range
    }

    public var json: JSONValue { .object(omittingNil: ["contents": contents.json, "range": range?.json]) }
}

/// `{range, placeholder}`: the text a rename replaces and the name the client proposes. (LSP also
/// allows a bare range or `{defaultBehavior}`; MacMD always names both.)
public struct PrepareRenameResult: Sendable, Equatable, LSPEncodable {
    public var range: LSPRange
    public var placeholder: String

    public init(range: LSPRange, placeholder: String) {
        self.range = range
        self.placeholder = placeholder
    }

    public var json: JSONValue { ["range": range.json, "placeholder": .string(placeholder)] }
}

/// A symbol of the document outline, with its children. `detail` and `children` are written
/// when set (an empty `children` as `[]`).
public struct DocumentSymbol: Sendable, Equatable, LSPEncodable {
    /// Must not be empty (VS Code refuses the whole outline otherwise).
    public var name: String
    public var detail: String?
    public var kind: SymbolKind
    /// The whole symbol (a heading's section).
    public var range: LSPRange
    /// The part to select and reveal (a heading's text); inside `range`.
    public var selectionRange: LSPRange
    public var children: [DocumentSymbol]?

    public init(name: String, detail: String? = nil, kind: SymbolKind, range: LSPRange, selectionRange: LSPRange,
                children: [DocumentSymbol]? = nil) {
        self.name = name
        self.detail = detail
        self.kind = kind
        self.range = range
        self.selectionRange = selectionRange
        self.children = children
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "name": .string(name), "detail": detail?.json, "kind": kind.json,
            "range": range.json, "selectionRange": selectionRange.json, "children": children?.json,
        ])
    }
}

/// A `workspace/symbol` result: `{name, kind, containerName?, location}`. Its location is
/// `{uri, range}`, or `{uri}` alone when `range` is nil (a whole note).
public struct WorkspaceSymbol: Sendable, Equatable, LSPEncodable {
    public var name: String
    public var kind: SymbolKind
    public var containerName: String?
    public var uri: String
    public var range: LSPRange?

    public init(name: String, kind: SymbolKind, containerName: String? = nil, uri: String, range: LSPRange? = nil) {
        self.name = name
        self.kind = kind
        self.containerName = containerName
        self.uri = uri
        self.range = range
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "name": .string(name), "kind": kind.json, "containerName": containerName?.json,
            "location": .object(omittingNil: ["uri": .string(uri), "range": range?.json]),
        ])
    }
}

/// `{startLine, startCharacter?, endLine, endCharacter?, kind?}`: lines 0-based; the end line
/// folds away, the start line stays visible.
public struct FoldingRange: Sendable, Equatable, LSPEncodable {
    public var startLine: Int
    public var startCharacter: Int?
    public var endLine: Int
    public var endCharacter: Int?
    public var kind: FoldingRangeKind?

    public init(startLine: Int, startCharacter: Int? = nil, endLine: Int, endCharacter: Int? = nil,
                kind: FoldingRangeKind? = nil) {
        self.startLine = startLine
        self.startCharacter = startCharacter
        self.endLine = endLine
        self.endCharacter = endCharacter
        self.kind = kind
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "startLine": startLine.json, "startCharacter": startCharacter?.json,
            "endLine": endLine.json, "endCharacter": endCharacter?.json, "kind": kind?.json,
        ])
    }
}

/// `{range, target?, tooltip?}`: a link the client makes clickable.
public struct DocumentLink: Sendable, Equatable, LSPEncodable {
    public var range: LSPRange
    public var target: String?
    public var tooltip: String?

    public init(range: LSPRange, target: String? = nil, tooltip: String? = nil) {
        self.range = range
        self.target = target
        self.tooltip = tooltip
    }

    public var json: JSONValue { .object(omittingNil: ["range": range.json, "target": target?.json, "tooltip": tooltip?.json]) }
}

/// `{title, kind?, diagnostics?, isPreferred?, edit?, data?}`: a fix or refactoring the client
/// offers. An action sent without its `edit` carries in `data` what `codeAction/resolve` needs
/// to make it.
public struct CodeAction: Sendable, Equatable, LSPEncodable {
    public var title: String
    public var kind: CodeActionKind?
    /// The diagnostics this action fixes (written when non-empty).
    public var diagnostics: [Diagnostic]
    public var isPreferred: Bool?
    public var edit: WorkspaceEdit?
    public var data: JSONValue?

    public init(title: String, kind: CodeActionKind? = nil, diagnostics: [Diagnostic] = [], isPreferred: Bool? = nil,
                edit: WorkspaceEdit? = nil, data: JSONValue? = nil) {
        self.title = title
        self.kind = kind
        self.diagnostics = diagnostics
        self.isPreferred = isPreferred
        self.edit = edit
        self.data = data
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "title": .string(title), "kind": kind?.json, "diagnostics": diagnostics.jsonUnlessEmpty,
            "isPreferred": isPreferred?.json, "edit": edit?.json, "data": data,
        ])
    }
}

/// A code action as the client sends it back to `codeAction/resolve`: kept member by member, so
/// the answer returns what the client sent with the edit added.
///
/// Read, any object is an action; anything else is refused (`params: expected an object`).
public struct EchoedCodeAction: Sendable, Equatable, LSPDecodable, LSPEncodable {
    /// Every member, as the client sent it.
    public var members: [String: JSONValue]

    public init(members: [String: JSONValue]) { self.members = members }

    /// An action the server wrote (to test a resolve).
    public init(_ action: CodeAction) { members = action.json.objectValue ?? [:] }

    public init(_ reader: ParamReader) throws(ResponseError) {
        guard let members = reader.value?.objectValue else { throw reader.invalid(LocalizedText("lspParams.expected.object")) }
        self.members = members
    }

    public var json: JSONValue { .object(members) }

    /// The action's `data`, where the server put what resolving needs.
    public var data: JSONValue? { members["data"] }

    /// Sets the edit, leaving every other member as it came.
    public mutating func setEdit(_ edit: WorkspaceEdit) {
        members["edit"] = edit.json
    }
}

// MARK: Unlinked mentions

/// `{uri, range, text}`: a place in a note whose plain text names another note without linking
/// it (`macmd/unlinkedMentions`); `text` is the line it is on, as written.
public struct UnlinkedMention: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var range: LSPRange
    public var text: String

    public init(uri: String, range: LSPRange, text: String) {
        self.uri = uri
        self.range = range
        self.text = text
    }

    public var json: JSONValue { .object(omittingNil: ["uri": .string(uri), "range": range.json, "text": .string(text)]) }
}

// MARK: Call hierarchy

/// `CallHierarchyItem`: a note (`file`) or one of its headings (`string`), with the note's folder
/// as `detail` and what names it again in `data` (`{"heading": …}`).
public struct CallHierarchyItem: Sendable, Equatable, LSPEncodable, LSPDecodable {
    public var name: String
    public var kind: SymbolKind
    public var detail: String?
    public var uri: String
    public var range: LSPRange
    public var selectionRange: LSPRange
    public var data: JSONValue?

    public init(name: String, kind: SymbolKind, detail: String?, uri: String, range: LSPRange, selectionRange: LSPRange,
                data: JSONValue? = nil) {
        self.name = name
        self.kind = kind
        self.detail = detail
        self.uri = uri
        self.range = range
        self.selectionRange = selectionRange
        self.data = data
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        name = try reader.field("name").string()
        kind = try SymbolKind(reader.field("kind"))
        detail = try reader.field("detail").optionalString()
        uri = try reader.field("uri").string()
        range = try LSPRange(reader.field("range"))
        selectionRange = try LSPRange(reader.field("selectionRange"))
        data = reader.field("data").value
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "name": .string(name), "kind": kind.json, "detail": detail.map { .string($0) }, "uri": .string(uri),
            "range": range.json, "selectionRange": selectionRange.json, "data": data,
        ])
    }
}

/// `callHierarchy/incomingCalls` and `outgoingCalls` params: `{item}`.
public struct CallHierarchyCallsParams: Sendable, Equatable, LSPDecodable {
    public var item: CallHierarchyItem

    public init(item: CallHierarchyItem) { self.item = item }

    public init(_ reader: ParamReader) throws(ResponseError) {
        item = try CallHierarchyItem(reader.field("item"))
    }
}

/// `{from, fromRanges}`: a note that links to the item, and its links (in `from`).
public struct CallHierarchyIncomingCall: Sendable, Equatable, LSPEncodable {
    public var from: CallHierarchyItem
    public var fromRanges: [LSPRange]

    public init(from: CallHierarchyItem, fromRanges: [LSPRange]) {
        self.from = from
        self.fromRanges = fromRanges
    }

    public var json: JSONValue { .object("from", from.json, "fromRanges", fromRanges.json) }
}

/// `{to, fromRanges}`: a note the item links to, and the links (in the item's note).
public struct CallHierarchyOutgoingCall: Sendable, Equatable, LSPEncodable {
    public var to: CallHierarchyItem
    public var fromRanges: [LSPRange]

    public init(to: CallHierarchyItem, fromRanges: [LSPRange]) {
        self.to = to
        self.fromRanges = fromRanges
    }

    public var json: JSONValue { .object("to", to.json, "fromRanges", fromRanges.json) }
}

// MARK: Document highlight

/// `DocumentHighlightKind`: 1 text, 2 read, 3 write.
public enum DocumentHighlightKind: Int, LSPEnumeration {
    case text = 1, read = 2, write = 3
}

/// `{range, kind}`: a use (`read`) or the declaration (`write`) of the symbol under the cursor.
public struct DocumentHighlight: Sendable, Equatable, LSPEncodable {
    public var range: LSPRange
    public var kind: DocumentHighlightKind

    public init(range: LSPRange, kind: DocumentHighlightKind) {
        self.range = range
        self.kind = kind
    }

    public var json: JSONValue { .object("range", range.json, "kind", kind.json) }
}

// MARK: Selection range

/// `textDocument/selectionRange` params: `{textDocument, positions}`.
public struct SelectionRangeParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    public var positions: [LSPPosition]

    public init(textDocument: TextDocumentIdentifier, positions: [LSPPosition]) {
        self.textDocument = textDocument
        self.positions = positions
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        var positions: [LSPPosition] = []
        for item in try reader.field("positions").array() { positions.append(try LSPPosition(item)) }
        self.positions = positions
    }
}

/// `{range, parent?}`: a range to select, and the larger one around it.
public final class SelectionRange: Sendable, Equatable, LSPEncodable {
    public let range: LSPRange
    public let parent: SelectionRange?

    public init(range: LSPRange, parent: SelectionRange?) {
        self.range = range
        self.parent = parent
    }

    public static func == (a: SelectionRange, b: SelectionRange) -> Bool { a.range == b.range && a.parent == b.parent }

    public var json: JSONValue { .object(omittingNil: ["range": range.json, "parent": parent?.json]) }
}

/// `{title, command, arguments?}`: what a client runs when the writer picks a code lens.
public struct Command: Sendable, Equatable, LSPEncodable, LSPDecodable {
    public var title: String
    public var command: String
    public var arguments: [JSONValue]?

    public init(title: String, command: String, arguments: [JSONValue]? = nil) {
        self.title = title
        self.command = command
        self.arguments = arguments
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        title = try reader.field("title").string()
        command = try reader.field("command").string()
        arguments = reader.field("arguments").value?.arrayValue
    }

    public var json: JSONValue {
        .object(omittingNil: ["title": .string(title), "command": .string(command), "arguments": arguments.map { .array($0) }])
    }
}

/// A code lens: a line of text an editor shows above `range`, with the `command` it runs; a
/// lens sent without one is completed by `codeLens/resolve`, which the client sends back with
/// its `data`.
public struct CodeLens: Sendable, Equatable, LSPEncodable, LSPDecodable {
    public var range: LSPRange
    public var command: Command?
    public var data: JSONValue?

    public init(range: LSPRange, command: Command? = nil, data: JSONValue? = nil) {
        self.range = range
        self.command = command
        self.data = data
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        range = try LSPRange(reader.field("range"))
        command = try reader.field("command").decodeIfPresent(Command.self)
        data = reader.field("data").value
    }

    public var json: JSONValue {
        .object(omittingNil: ["range": range.json, "command": command?.json, "data": data])
    }
}

// MARK: Semantic tokens

/// `{data}`: five integers a token (line delta, start delta, length, type, modifier bits), each
/// token's line and start relative to the token before it.
public struct SemanticTokens: Sendable, Equatable, LSPEncodable {
    public var data: [Int]

    public init(data: [Int]) { self.data = data }

    public var json: JSONValue { .object(["data": .array(data.map { .int(Int64($0)) })]) }
}

/// `{tokenTypes, tokenModifiers}`: what a token's type index and modifier bits stand for.
public struct SemanticTokensLegend: Sendable, Equatable, LSPEncodable {
    public var tokenTypes: [String]
    public var tokenModifiers: [String]

    public init(tokenTypes: [String], tokenModifiers: [String]) {
        self.tokenTypes = tokenTypes
        self.tokenModifiers = tokenModifiers
    }

    public var json: JSONValue { .object("tokenTypes", tokenTypes.json, "tokenModifiers", tokenModifiers.json) }
}

// MARK: Writing statistics

/// `macmd/statistics` params: `{textDocument, range?, options?: {code?, urls?, frontMatter?}}`.
public struct StatisticsParams: Sendable, Equatable, LSPDecodable {
    public var textDocument: TextDocumentIdentifier
    /// The selection to count; nil: the whole note.
    public var range: LSPRange?
    /// Whether code and maths, bare URLs, and front matter count (defaults: yes, yes, no).
    public var code: Bool?
    public var urls: Bool?
    public var frontMatter: Bool?

    public init(_ reader: ParamReader) throws(ResponseError) {
        textDocument = try TextDocumentIdentifier(reader.field("textDocument"))
        range = try reader.field("range").isPresent ? LSPRange(reader.field("range")) : nil
        let options = reader.field("options")
        code = try options.field("code").optionalBool()
        urls = try options.field("urls").optionalBool()
        frontMatter = try options.field("frontMatter").optionalBool()
    }
}

/// `macmd/statistics` result: what the note (or the selection) holds, as a writer counts it.
public struct Statistics: Sendable, Equatable, LSPEncodable {
    public var words: Int
    public var characters: Int
    public var charactersWithoutSpaces: Int
    public var paragraphs: Int
    public var readingSeconds: Int

    public init(words: Int, characters: Int, charactersWithoutSpaces: Int, paragraphs: Int, readingSeconds: Int) {
        self.words = words
        self.characters = characters
        self.charactersWithoutSpaces = charactersWithoutSpaces
        self.paragraphs = paragraphs
        self.readingSeconds = readingSeconds
    }

    public var json: JSONValue {
        ["words": .int(Int64(words)), "characters": .int(Int64(characters)),
         "charactersWithoutSpaces": .int(Int64(charactersWithoutSpaces)), "paragraphs": .int(Int64(paragraphs)),
         "readingSeconds": .int(Int64(readingSeconds))]
    }
}

// MARK: Full-text search

/// `macmd/search` params: `{query, limit?}`.
public struct SearchParams: Sendable, Equatable, LSPDecodable {
    /// Words, `"phrases"`, `tag:`, `path:` and `title:` filters (docs/notebook.md, "Search").
    public var query: String
    /// At most this many hits (default 50, at most 1000).
    public var limit: Int?

    public init(query: String, limit: Int? = nil) {
        self.query = query
        self.limit = limit
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        query = try reader.field("query").string()
        limit = try reader.field("limit").optionalInt()
    }
}

/// A place of an excerpt, `{start, end}`, in the negotiated position encoding's units of the
/// excerpt (UTF-16 code units unless the client chose UTF-8 or UTF-32).
public struct SearchMatch: Sendable, Equatable, LSPEncodable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var json: JSONValue { ["start": .int(Int64(start)), "end": .int(Int64(end))] }
}

/// A `macmd/search` hit: `{uri, range, title, excerpt, score, matches}`.
public struct SearchResult: Sendable, Equatable, LSPEncodable {
    public var uri: String
    /// The best match in the note.
    public var range: LSPRange
    public var title: String
    /// One line of the note's text around `range`.
    public var excerpt: String
    /// BM25 (0 when the query has filters alone).
    public var score: Double
    /// The matched words inside `excerpt`.
    public var matches: [SearchMatch]

    public init(uri: String, range: LSPRange, title: String, excerpt: String, score: Double, matches: [SearchMatch]) {
        self.uri = uri
        self.range = range
        self.title = title
        self.excerpt = excerpt
        self.score = score
        self.matches = matches
    }

    public var json: JSONValue {
        ["uri": .string(uri), "range": range.json, "title": .string(title), "excerpt": .string(excerpt),
         "score": .double(score), "matches": .array(matches.map(\.json))]
    }
}
