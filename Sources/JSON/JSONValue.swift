// JSONValue: one JSON document as a plain Swift value.
//
// Invariants:
// - Integers that JSON wrote without a fraction or exponent and that fit in Int64 are `.int`;
//   every other number is `.double`. A `.double` is always finite when it came from `JSON.parse`.
// - Object keys are unique (a parsed object with a repeated key keeps the last value).
// - Accessors never trap: a wrong kind, a missing key or an index out of range reads as `nil`.

/// A JSON value: the codec's only data type, sent between threads freely.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member named `key`, or `nil` unless this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index`, or `nil` unless this is an array with that index.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if it is an integer (a double counts when its value is an exact
    /// integer that fits in `Int`, since some clients write `1.0` for `1`).
    public var intValue: Int? {
        switch self {
        case .int(let value):
            return Int(exactly: value)
        case .double(let value):
            return Int(exactly: value)
        default:
            return nil
        }
    }

    /// The number as a `Double`, if this is a number (integers convert, rounding past 2^53).
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Builds an object; a repeated key keeps its last value (as parsing does).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(elements.count)
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialized form, for logs and test failures.
    public var description: String {
        String(decoding: JSON.serialize(self), as: UTF8.self)
    }
}
