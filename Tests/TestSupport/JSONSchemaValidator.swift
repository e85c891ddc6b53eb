import Foundation
import JSON

/// A validator for the subset of JSON Schema (draft-07) that `editors/macmd.schema.json` uses:
/// `type` (one name), `properties`, `additionalProperties` (`false` or a schema), `required`,
/// `items`, `minItems`, `enum`, `minimum`, `minLength`, `pattern`, and `$ref` to
/// `#/definitions/…`. Annotations (`description`, `default`, `title`, `$schema`, `$id`) are
/// skipped. A keyword it does not know is itself a problem, so the schema cannot quietly use
/// more than the tests check.
public struct JSONSchemaValidator {
    public let schema: JSONValue

    public init(schema: JSONValue) { self.schema = schema }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "default", "definitions"]
    private static let assertions: Set<String> = ["type", "properties", "additionalProperties", "required", "items", "minItems",
                                                  "enum", "minimum", "maximum", "minLength", "pattern", "$ref"]

    /// Why `value` does not match the schema, one line per problem, each starting with the
    /// JSON pointer of the value (`/diagnostics/broken-link`); empty when it matches.
    public func problems(of value: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, against: schema, at: "", into: &problems)
        return problems
    }

    private func resolve(_ reference: String) -> JSONValue? {
        let prefix = "#/definitions/"
        guard reference.hasPrefix(prefix) else { return nil }
        return schema["definitions"]?[String(reference.dropFirst(prefix.count))]
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at pointer: String, into problems: inout [String]) {
        let here = pointer.isEmpty ? "/" : pointer
        if case .bool(let accepts) = schema {
            if !accepts { problems.append("\(here): not allowed") }
            return
        }
        guard let keywords = schema.objectValue else {
            problems.append("\(here): the schema is not an object or a boolean")
            return
        }
        for keyword in keywords.keys.sorted() where !Self.annotations.contains(keyword) && !Self.assertions.contains(keyword) {
            problems.append("\(here): the validator does not know the keyword `\(keyword)`")
        }
        if let reference = keywords["$ref"]?.stringValue {
            if let target = resolve(reference) {
                check(value, against: target, at: pointer, into: &problems)
            } else {
                problems.append("\(here): cannot resolve `\(reference)`")
            }
        }
        if let type = keywords["type"]?.stringValue, !Self.value(value, hasType: type) {
            problems.append("\(here): expected \(type), got \(value)")
            return
        }
        if let allowed = keywords["enum"]?.arrayValue, !allowed.contains(value) {
            problems.append("\(here): \(value) is not one of \(allowed)")
        }
        if let minimum = keywords["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            problems.append("\(here): \(number) is less than \(minimum)")
        }
        if let maximum = keywords["maximum"]?.doubleValue, let number = value.doubleValue, number > maximum {
            problems.append("\(here): \(number) is more than \(maximum)")
        }
        if case .string(let text) = value {
            if let length = keywords["minLength"]?.doubleValue, Double(text.count) < length {
                problems.append("\(here): shorter than \(Int(length)) characters")
            }
            if let pattern = keywords["pattern"]?.stringValue {
                if let expression = try? NSRegularExpression(pattern: pattern),
                   expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    // matches
                } else {
                    problems.append("\(here): \"\(text)\" does not match \(pattern)")
                }
            }
        }
        if case .array(let items) = value {
            if let minimum = keywords["minItems"]?.doubleValue, Double(items.count) < minimum {
                problems.append("\(here): fewer than \(Int(minimum)) items")
            }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() { check(item, against: itemSchema, at: pointer + "/\(index)", into: &problems) }
            }
        }
        if case .object(let members) = value {
            let properties = keywords["properties"]?.objectValue ?? [:]
            for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(here): `\(name)` is required")
            }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let path = pointer + "/" + name
                if let propertySchema = properties[name] {
                    check(member, against: propertySchema, at: path, into: &problems)
                } else if let additional = keywords["additionalProperties"] {
                    if case .bool(false) = additional {
                        problems.append("\(path): unknown key `\(name)`")
                    } else {
                        check(member, against: additional, at: path, into: &problems)
                    }
                }
            }
        }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
             ("integer", .int), ("number", .int), ("number", .double):
            return true
        default:
            // Stricter than JSON Schema, where `1.0` is an integer: the server reads a whole
            // number only when it is written without a fraction.
            return false
        }
    }
}
