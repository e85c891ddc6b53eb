// The specification's kinds, with its values (LSP 3.17). A closed set is an enum, written as its
// value and read only from one of its values; an open set (`FoldingRangeKind`, `CodeActionKind`,
// which the specification lets servers extend) is a struct over its string with constants.

import JSON
import JSONRPC
import Localization

/// A closed set of values: written as its raw value, read only from one of them (the error lists
/// them: `params.changes[0].type: expected 1, 2 or 3, got 7`).
public protocol LSPEnumeration: RawRepresentable, CaseIterable, LSPEncodable, LSPDecodable
where RawValue: LSPEncodable & LSPDecodable {}

extension LSPEnumeration {
    public var json: JSONValue { rawValue.json }

    public init(_ reader: ParamReader) throws(ResponseError) {
        guard let value = Self(rawValue: try RawValue(reader)) else { throw reader.invalid(Self.valueList) }
        self = value
    }

    /// The values as JSON, for an error: `1, 2 or 3`, `"plaintext" or "markdown"`.
    static var valueList: LocalizedText {
        let values = allCases.map(\.json.description)
        guard let last = values.last, values.count > 1 else {
            return values.first.map(LocalizedText.verbatim) ?? LocalizedText("lspParams.got.nothing")
        }
        return LocalizedText("lspParams.expected.either", .string(values.dropLast().joined(separator: ", ")), .string(last))
    }
}

/// An open set of strings: any string is read; the specification's values are constants.
public protocol LSPOpenStringSet: RawRepresentable, Hashable, ExpressibleByStringLiteral, LSPEncodable, LSPDecodable
where RawValue == String {
    init(rawValue: String)
}

extension LSPOpenStringSet {
    public var json: JSONValue { .string(rawValue) }
    public init(_ reader: ParamReader) throws(ResponseError) { self.init(rawValue: try reader.string()) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

public enum DiagnosticSeverity: Int, LSPEnumeration {
    case error = 1, warning = 2, information = 3, hint = 4
}

public enum DiagnosticTag: Int, LSPEnumeration {
    /// Unused or unnecessary code: clients fade it out.
    case unnecessary = 1
    /// Deprecated or obsolete code: clients strike it through.
    case deprecated = 2
}

public enum CompletionItemKind: Int, LSPEnumeration {
    case text = 1, method = 2, function = 3, constructor = 4, field = 5, variable = 6, `class` = 7, interface = 8
    case module = 9, property = 10, unit = 11, value = 12, `enum` = 13, keyword = 14, snippet = 15, color = 16
    case file = 17, reference = 18, folder = 19, enumMember = 20, constant = 21, `struct` = 22, event = 23
    case `operator` = 24, typeParameter = 25
}

public enum SymbolKind: Int, LSPEnumeration {
    case file = 1, module = 2, namespace = 3, package = 4, `class` = 5, method = 6, property = 7, field = 8
    case constructor = 9, `enum` = 10, interface = 11, function = 12, variable = 13, constant = 14, string = 15
    case number = 16, boolean = 17, array = 18, object = 19, key = 20, null = 21, enumMember = 22, `struct` = 23
    case event = 24, `operator` = 25, typeParameter = 26
}

public enum InsertTextFormat: Int, LSPEnumeration {
    case plainText = 1, snippet = 2
}

public enum TextDocumentSyncKind: Int, LSPEnumeration {
    case none = 0, full = 1, incremental = 2
}

public enum FileChangeType: Int, LSPEnumeration {
    case created = 1, changed = 2, deleted = 3
}

public enum MessageType: Int, LSPEnumeration {
    case error = 1, warning = 2, info = 3, log = 4
}

public enum MarkupKind: String, LSPEnumeration {
    case plainText = "plaintext", markdown
}

/// Whether a file operation pattern matches files or folders.
public enum FileOperationPatternKind: String, LSPEnumeration {
    case file, folder
}

/// Which events a file system watcher reports (a bit set; all three when absent).
public struct WatchKind: OptionSet, Sendable, Hashable, LSPEncodable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let create = WatchKind(rawValue: 1)
    public static let change = WatchKind(rawValue: 2)
    public static let delete = WatchKind(rawValue: 4)

    public var json: JSONValue { rawValue.json }
}

public struct FoldingRangeKind: LSPOpenStringSet {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let comment: FoldingRangeKind = "comment"
    public static let imports: FoldingRangeKind = "imports"
    public static let region: FoldingRangeKind = "region"
}

/// A code action's kind: a dotted hierarchy (`refactor.rewrite` is a `refactor`).
public struct CodeActionKind: LSPOpenStringSet {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let empty: CodeActionKind = ""
    public static let quickFix: CodeActionKind = "quickfix"
    public static let refactor: CodeActionKind = "refactor"
    public static let refactorExtract: CodeActionKind = "refactor.extract"
    public static let refactorInline: CodeActionKind = "refactor.inline"
    public static let refactorRewrite: CodeActionKind = "refactor.rewrite"
    public static let source: CodeActionKind = "source"
    public static let sourceOrganizeImports: CodeActionKind = "source.organizeImports"
    public static let sourceFixAll: CodeActionKind = "source.fixAll"
}
