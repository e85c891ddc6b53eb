// JSON: the codec's entry points, strict RFC 8259 in, compact deterministic JSON out.
//
// Invariants:
// - `parse` accepts exactly RFC 8259 JSON text (one value, surrounded by optional whitespace; an
//   optional leading UTF-8 byte order mark is skipped, as RFC 8259 §8.1 allows). It never traps:
//   every malformed input is a `JSONError` with the byte offset where the problem was seen.
// - Nesting deeper than `JSON.maxDepth` is an error; the parser and serializer use explicit
//   stacks, so depth never becomes recursion.
// - Invalid UTF-8 inside strings and lone UTF-16 surrogates in `\u` escapes become U+FFFD.
// - `serialize` writes no whitespace, sorts object keys (String ordering), writes integers
//   exactly and finite doubles in their shortest round-trip form; a non-finite double, which JSON
//   cannot express, is written as `null`.

import Localization

/// A malformed JSON text: what was wrong and the 0-based byte offset where it was seen.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, as a sentence fragment ("expected ':' after an object key"), for people.
    public var text: LocalizedText
    /// The 0-based UTF-8 byte offset in the input where the problem was seen.
    public var offset: Int

    public init(_ text: LocalizedText, offset: Int) {
        self.text = text
        self.offset = offset
    }

    /// What was wrong, given as it is (not translated).
    public init(message: String, offset: Int) {
        self.init(.verbatim(message), offset: offset)
    }

    /// What was wrong, in English.
    public var message: String { text.english }

    /// What was wrong and where: "unterminated string at byte 12".
    public var located: LocalizedText { LocalizedText("json.error.atByte", .text(text), .integer(offset)) }

    public var description: String { located.english }
}

/// The JSON codec: parsing bytes into `JSONValue` and serializing it back.
public enum JSON {
    /// The deepest nesting of arrays and objects `parse` accepts (the top-level container is 1).
    public static let maxDepth = 512

    /// Parses one JSON text.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in try parse(raw) }
        }
        return try result.get()
    }

    /// Parses one JSON text from raw memory (for example a read buffer, without copying it).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withMemoryRebound(to: UInt8.self) { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of a string (convenient in tests).
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Serializes `value` compactly, object keys sorted, so equal values give equal bytes.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        serialize(value, into: &output)
        return output
    }

    /// Appends the serialization of `value` to `output` (to build a frame in one buffer).
    public static func serialize(_ value: JSONValue, into output: inout [UInt8]) {
        var writer = JSONWriter()
        writer.write(value, into: &output)
    }
}
