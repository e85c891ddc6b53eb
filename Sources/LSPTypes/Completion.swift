// Completion: the list the server answers, and the item the client sends back to be resolved.

import JSON
import JSONRPC
import Localization

/// `{isIncomplete, items}`. `isIncomplete` asks the client to ask again as the user types.
public struct CompletionList: Sendable, Equatable, LSPEncodable {
    public var isIncomplete: Bool
    public var items: [CompletionItem]

    public init(isIncomplete: Bool, items: [CompletionItem]) {
        self.isIncomplete = isIncomplete
        self.items = items
    }

    public var json: JSONValue { ["isIncomplete": .bool(isIncomplete), "items": items.json] }
}

/// One completion, as the server writes it; members that are nil are left out.
public struct CompletionItem: Sendable, Equatable, LSPEncodable {
    public var label: String
    public var kind: CompletionItemKind?
    public var detail: String?
    public var documentation: MarkupContent?
    public var sortText: String?
    public var filterText: String?
    public var insertText: String?
    public var insertTextFormat: InsertTextFormat?
    /// What is replaced (the range must be on one line and contain the cursor) and by what.
    public var textEdit: TextEdit?
    /// Kept by the client and sent back in `completionItem/resolve`.
    public var data: CompletionItemData?

    public init(label: String, kind: CompletionItemKind? = nil, detail: String? = nil, documentation: MarkupContent? = nil,
                sortText: String? = nil, filterText: String? = nil, insertText: String? = nil,
                insertTextFormat: InsertTextFormat? = nil, textEdit: TextEdit? = nil, data: CompletionItemData? = nil) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.documentation = documentation
        self.sortText = sortText
        self.filterText = filterText
        self.insertText = insertText
        self.insertTextFormat = insertTextFormat
        self.textEdit = textEdit
        self.data = data
    }

    public var json: JSONValue {
        // Member by member (no list of pairs first): a completion list writes hundreds of items.
        var object = [String: JSONValue](minimumCapacity: 8)
        object["label"] = .string(label)
        if let kind { object["kind"] = kind.json }
        if let detail { object["detail"] = .string(detail) }
        if let documentation { object["documentation"] = documentation.json }
        if let sortText { object["sortText"] = .string(sortText) }
        if let filterText { object["filterText"] = .string(filterText) }
        if let insertText { object["insertText"] = .string(insertText) }
        if let insertTextFormat { object["insertTextFormat"] = insertTextFormat.json }
        if let textEdit { object["textEdit"] = textEdit.json }
        if let data { object["data"] = data.json }
        return .object(object)
    }
}

/// A completion item as the client sends it back in `completionItem/resolve`, and as the server
/// answers it: the answer must carry every member the client sent, known to MacMD or not, as it
/// was sent (a client may keep its own members on the item, and some send `"documentation":
/// null`). So the item is kept as its JSON members, and resolving only adds documentation.
///
/// Read, any object is an item (a malformed member is the client's to keep); anything else is
/// refused with `params: expected a completion item`.
public struct EchoedCompletionItem: Sendable, Equatable, LSPDecodable, LSPEncodable {
    /// Every member, as the client sent it.
    public var members: [String: JSONValue]

    public init(members: [String: JSONValue]) { self.members = members }

    /// An item the server wrote (to test a resolve, or to answer one it built itself).
    public init(_ item: CompletionItem) { members = item.json.objectValue ?? [:] }

    public init(_ reader: ParamReader) throws(ResponseError) {
        guard let members = reader.value?.objectValue else {
            throw ResponseError(code: ResponseError.invalidParams, text: LocalizedText("lspParams.expectedCompletionItem", .string(reader.path)))
        }
        self.members = members
    }

    public var json: JSONValue { .object(members) }

    /// The item's `data`, where the server put what resolving needs; nil when it is not one
    /// MacMD wrote (absent, or changed by the client).
    public var data: CompletionItemData? { members["data"].flatMap(CompletionItemData.init(json:)) }

    /// True when the item has documentation already (any non-null value): resolving then adds none.
    public var hasDocumentation: Bool { members["documentation"].map { !$0.isNull } ?? false }

    /// Sets the documentation, leaving every other member as it came.
    public mutating func setDocumentation(_ documentation: MarkupContent) {
        members["documentation"] = documentation.json
    }
}

/// What MacMD keeps in a completion item's `data` for `completionItem/resolve`: the notebook
/// (`root`) and the note (`path`) the item links to, with its heading or block; `uri` names the
/// open document when the target is in the note the item was offered in (a buffer that is not a
/// file has no notebook path).
public struct CompletionItemData: Sendable, Equatable, LSPEncodable {
    public enum Anchor: Sendable, Equatable {
        case note
        /// The heading's index among the note's headings when offered, and its text.
        case heading(index: Int, text: String)
        case block(id: String)
    }

    public var root: String
    public var path: String
    public var uri: String?
    public var anchor: Anchor

    public init(root: String, path: String, uri: String? = nil, anchor: Anchor = .note) {
        self.root = root
        self.path = path
        self.uri = uri
        self.anchor = anchor
    }

    /// Read back from what the client echoes: nil unless `root` and `path` are strings (any
    /// other member of the wrong kind reads as absent).
    public init?(json: JSONValue) {
        guard let root = json["root"]?.stringValue, let path = json["path"]?.stringValue else { return nil }
        self.root = root
        self.path = path
        uri = json["uri"]?.stringValue
        if let text = json["heading"]?.stringValue {
            anchor = .heading(index: json["headingIndex"]?.intValue ?? -1, text: text)
        } else if let id = json["block"]?.stringValue {
            anchor = .block(id: id)
        } else {
            anchor = .note
        }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["root": .string(root), "path": .string(path)]
        if let uri { object["uri"] = .string(uri) }
        switch anchor {
        case .note:
            break
        case .heading(let index, let text):
            object["headingIndex"] = .int(Int64(index))
            object["heading"] = .string(text)
        case .block(let id):
            object["block"] = .string(id)
        }
        return .object(object)
    }
}
