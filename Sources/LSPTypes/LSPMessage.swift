// The typed protocol: every message MacMD handles or sends is a caseless enum that names its
// method, its params and its response; every structure reads itself from JSON (`LSPDecodable`,
// the FromLSP side) or writes itself to JSON (`LSPEncodable`, the ToLSP side).
//
// Invariants:
// - Decoding never traps. A value that does not fit is a `ResponseError` (-32602) whose message
//   names the field by its path from `params` (`params.position.line: expected an integer,
//   got "x"`), as `ParamReader` writes it.
// - Encoding writes exactly the members the server wrote by hand before these types existed: an
//   optional member left out when absent (`x?.json`), or written as `null` where LSP wants the
//   key present (`x.json` on an `Optional`, which encodes `nil` as `null`). Each type says which.
// - A type reads or writes only the members MacMD uses; members it does not know are ignored on
//   the way in (except a completion item, which is echoed whole: see `EchoedCompletionItem`).

import JSON
import JSONRPC

/// A message type and its method name.
public protocol LSPMessage: Sendable {
    static var method: String { get }
}

/// A value read from JSON (FromLSP). Errors name the field, by the reader's path.
public protocol LSPDecodable: Sendable {
    init(_ reader: ParamReader) throws(ResponseError)
}

/// A value written to JSON (ToLSP).
public protocol LSPEncodable: Sendable {
    var json: JSONValue { get }
}

/// A request from the client; the server answers `Response`.
///
/// The associated type is `Response`, not `Result`: a `Result` member would hide `Swift.Result`
/// in every extension of the protocol, where a registry writes `Result<Response, ResponseError>`.
public protocol ClientRequest: LSPMessage {
    associatedtype Params: LSPDecodable
    associatedtype Response: LSPEncodable
}

/// A notification from the client.
public protocol ClientNotification: LSPMessage {
    associatedtype Params: LSPDecodable
}

/// A request the server sends to the client; the client answers `Response`.
public protocol ServerRequest: LSPMessage {
    associatedtype Params: LSPEncodable
    associatedtype Response: LSPDecodable
}

/// A notification the server sends to the client.
public protocol ServerNotification: LSPMessage {
    associatedtype Params: LSPEncodable
}

extension LSPDecodable {
    /// Reads a message's `params` (absent params read as `nil`), naming fields from `params`.
    public init(params: JSONValue?) throws(ResponseError) {
        try self.init(ParamReader(params))
    }
}

// MARK: Conveniences

/// Params of a message that has none (`shutdown`, `exit`, `initialized`, `workspace/diagnostic/
/// refresh`). Reading accepts anything, as the server ignores what comes; it writes `null`,
/// which is what the server sends today as `workspace/diagnostic/refresh`'s params.
public struct NoParams: LSPDecodable, LSPEncodable, Equatable {
    public init() {}
    public init(_ reader: ParamReader) {}
    public var json: JSONValue { .null }
}

/// The result of a request that answers nothing (`shutdown`, `client/registerCapability`):
/// written as `null`; any answer the client sends is accepted.
public struct NullResult: LSPDecodable, LSPEncodable, Equatable {
    public init() {}
    public init(_ reader: ParamReader) {}
    public var json: JSONValue { .null }
}

/// `nil` is `null` when written; read, `null` or an absent member is `nil`.
extension Optional: LSPEncodable where Wrapped: LSPEncodable {
    public var json: JSONValue { self?.json ?? .null }
}

extension Optional: LSPDecodable where Wrapped: LSPDecodable {
    public init(_ reader: ParamReader) throws(ResponseError) {
        self = try reader.decodeIfPresent(Wrapped.self)
    }
}

extension Array: LSPEncodable where Element: LSPEncodable {
    public var json: JSONValue { .array(map(\.json)) }
}

extension Array: LSPDecodable where Element: LSPDecodable {
    public init(_ reader: ParamReader) throws(ResponseError) {
        self = try reader.array().map { item throws(ResponseError) in try Element(item) }
    }
}

extension Array where Element: LSPEncodable {
    /// The array as JSON, or `nil` (a member left out) when it is empty. (A ternary cannot say
    /// this: `isEmpty ? nil : json` makes its `nil` a `JSONValue.null`, which is written.)
    var jsonUnlessEmpty: JSONValue? {
        guard !isEmpty else { return .none }
        return json
    }
}

/// An object keyed by strings (`WorkspaceEdit.changes`, a preview's members).
extension Dictionary: LSPEncodable where Key == String, Value: LSPEncodable {
    public var json: JSONValue { .object(mapValues(\.json)) }
}

/// Raw JSON passes through as it is (settings, completion `data`, capabilities). Read, an
/// absent member is `null`.
extension JSONValue: LSPEncodable, LSPDecodable {
    public var json: JSONValue { self }
    public init(_ reader: ParamReader) { self = reader.value ?? .null }
}

extension Int: LSPEncodable, LSPDecodable {
    public var json: JSONValue { .int(Int64(self)) }
    public init(_ reader: ParamReader) throws(ResponseError) { self = try reader.int() }
}

extension String: LSPEncodable, LSPDecodable {
    public var json: JSONValue { .string(self) }
    public init(_ reader: ParamReader) throws(ResponseError) { self = try reader.string() }
}

extension Bool: LSPEncodable, LSPDecodable {
    public var json: JSONValue { .bool(self) }
    public init(_ reader: ParamReader) throws(ResponseError) { self = try reader.bool() }
}

extension JSONValue {
    /// An object of `members`, leaving out those that are `nil`: write `x?.json` for a member
    /// LSP leaves out when absent, and `x.json` (an `Optional`'s, `null` when absent) for one it
    /// wants present.
    static func object(omittingNil members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(members.count)
        for case (let key, let value?) in members { object[key] = value }
        return .object(object)
    }

    /// An object of two members, made without the lists a literal allocates first: the
    /// encoders of positions, ranges and edits run thousands of times per answer.
    static func object(_ key1: String, _ value1: JSONValue, _ key2: String, _ value2: JSONValue) -> JSONValue {
        var object = [String: JSONValue](minimumCapacity: 2)
        object[key1] = value1
        object[key2] = value2
        return .object(object)
    }
}
