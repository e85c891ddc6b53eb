// Reading request parameters from JSON with errors that name the field, so a client author sees
// `params.textDocument.uri: expected a string, got 42` instead of a generic failure.

import JSON
import JSONRPC
import Localization

/// A cursor into a params value that remembers its path.
public struct ParamReader: Sendable {
    public let value: JSONValue?
    public let path: String

    public init(_ value: JSONValue?, path: String = "params") {
        self.value = value
        self.path = path
    }

    /// True when the field exists and is not `null`.
    public var isPresent: Bool {
        guard let value else { return false }
        return !value.isNull
    }

    public func field(_ name: String) -> ParamReader {
        ParamReader(value?[name], path: path + "." + name)
    }

    /// The error for a value that is not `expected` (a phrase such as "a string", for people).
    public func invalid(_ expected: LocalizedText) -> ResponseError {
        let got: CatalogArgument
        switch value {
        case nil: got = .message("lspParams.got.nothing")
        case .null?: got = "null"
        case .bool(let b)?: got = .string(String(b))
        case .int(let i)?: got = .string(String(i))
        case .double(let d)?: got = .string(String(d))
        case .string(let s)?: got = .string("\"" + String(s.prefix(40)) + "\"")
        case .array?: got = .message("lspParams.got.array")
        case .object?: got = .message("lspParams.got.object")
        }
        return ResponseError(code: ResponseError.invalidParams,
                             text: LocalizedText("lspParams.invalid", .string(path), .text(expected), got))
    }

    public func string() throws(ResponseError) -> String {
        guard let s = value?.stringValue else { throw invalid(LocalizedText("lspParams.expected.string")) }
        return s
    }

    public func optionalString() throws(ResponseError) -> String? {
        guard isPresent else { return nil }
        return try string()
    }

    public func int() throws(ResponseError) -> Int {
        guard let i = value?.intValue else { throw invalid(LocalizedText("lspParams.expected.integer")) }
        return i
    }

    public func optionalInt() throws(ResponseError) -> Int? {
        guard isPresent else { return nil }
        return try int()
    }

    public func bool() throws(ResponseError) -> Bool {
        guard let b = value?.boolValue else { throw invalid(LocalizedText("lspParams.expected.bool")) }
        return b
    }

    public func optionalBool() throws(ResponseError) -> Bool? {
        guard isPresent else { return nil }
        return try bool()
    }

    public func array() throws(ResponseError) -> [ParamReader] {
        guard let items = value?.arrayValue else { throw invalid(LocalizedText("lspParams.expected.array")) }
        return items.enumerated().map { ParamReader($0.element, path: "\(path)[\($0.offset)]") }
    }

    public func optionalArray() throws(ResponseError) -> [ParamReader]? {
        guard isPresent else { return nil }
        return try array()
    }

    public func object() throws(ResponseError) -> ParamReader {
        guard value?.objectValue != nil else { throw invalid(LocalizedText("lspParams.expected.object")) }
        return self
    }

    /// The value as `T` when it is present (neither absent nor `null`), else `nil`.
    public func decodeIfPresent<T: LSPDecodable>(_ type: T.Type) throws(ResponseError) -> T? {
        guard isPresent else { return nil }
        return try T(self)
    }

    /// A field that must be an object.
    public func requiredObject(_ name: String) throws(ResponseError) -> ParamReader {
        try field(name).object()
    }
}
