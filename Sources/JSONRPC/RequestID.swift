// RequestID: the `id` of a JSON-RPC request, an integer or a string (never null once read).

import JSON

/// A JSON-RPC request id. Ids the server invents are integers; ids from the client are kept
/// exactly as sent, because the response must echo them.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .int(let value): return .int(value)
        case .string(let value): return .string(value)
        }
    }

    /// Reads an id: an integer (or a double with an exact integer value) or a string;
    /// `nil` for anything else, `null` included.
    public init?(json: JSONValue) {
        switch json {
        case .int(let value):
            self = .int(value)
        case .double(let value):
            guard let integer = Int64(exactly: value) else { return nil }
            self = .int(integer)
        case .string(let value):
            self = .string(value)
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        }
    }
}
