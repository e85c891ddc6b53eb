import XCTest
@testable import JSON
import TestSupport

/// The JSON codec: what parses to what, how it serializes back, and where each error is found.
final class JSONTests: XCTestCase {
    // MARK: Parse and serialize

    /// (input, expected value, expected compact serialization).
    private let roundTrips: [(String, JSONValue, String)] = [
        ("null", nil, "null"),
        ("true", true, "true"),
        ("false", false, "false"),
        ("0", 0, "0"),
        ("-0", 0, "0"),
        ("123", 123, "123"),
        ("-42", -42, "-42"),
        ("9223372036854775807", .int(Int64.max), "9223372036854775807"),
        ("-9223372036854775808", .int(Int64.min), "-9223372036854775808"),
        ("9223372036854775808", .double(9223372036854775808), "9.223372036854776e+18"),
        ("1.5", 1.5, "1.5"),
        ("-0.0", .double(-0.0), "-0.0"),
        ("1e2", 100.0, "100.0"),
        ("1E-2", 0.01, "0.01"),
        ("2.5e+3", 2500.0, "2500.0"),
        ("0.1", 0.1, "0.1"),
        ("1.7976931348623157e308", .double(Double.greatestFiniteMagnitude), "1.7976931348623157e+308"),
        ("5e-324", .double(Double.leastNonzeroMagnitude), "5e-324"),
        ("\"\"", "", "\"\""),
        ("\"plain\"", "plain", "\"plain\""),
        (#""a\"b\\c""#, "a\"b\\c", #""a\"b\\c""#),
        (#""\/""#, "/", #""/""#),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t", #""\b\f\n\r\t""#),
        (#""\u0001\u001F""#, "\u{01}\u{1F}", #""\u0001\u001f""#),
        (#""\u00e9\u00C9""#, "éÉ", "\"éÉ\""),
        (#""\u0000""#, "\u{0}", #""\u0000""#),
        ("\"é日本🎉\"", "é日本🎉", "\"é日本🎉\""),
        (#""\ud83c\udf89""#, "🎉", "\"🎉\""),
        (#""\ud800""#, "\u{FFFD}", "\"\u{FFFD}\""),
        (#""\udc00x""#, "\u{FFFD}x", "\"\u{FFFD}x\""),
        (#""\ud800\u0041""#, "\u{FFFD}A", "\"\u{FFFD}A\""),
        (#""\ud800\ud800\udc00""#, "\u{FFFD}\u{10000}", "\"\u{FFFD}\u{10000}\""),
        (#""\ud800\n""#, "\u{FFFD}\n", "\"\u{FFFD}\\n\""),
        ("\"\u{7F}\"", "\u{7F}", "\"\u{7F}\""),
        ("[]", [], "[]"),
        ("{}", [:], "{}"),
        (" \t\r\n[ 1 , [ ] , { } ]\n ", [1, [], [:]], "[1,[],{}]"),
        (#"{"b":1,"a":[true,null],"c":{"z":"","y":-1.25}}"#,
         ["b": 1, "a": [true, nil], "c": ["z": "", "y": -1.25]],
         #"{"a":[true,null],"b":1,"c":{"y":-1.25,"z":""}}"#),
        (#"{"a":1,"a":2}"#, ["a": 2], #"{"a":2}"#),
        (#"[[[["deep"]]]]"#, [[[["deep"]]]], #"[[[["deep"]]]]"#),
        ("\u{FEFF}[1]", [1], "[1]"),
    ]

    func testParseAndSerializeTable() throws {
        for (input, expected, serialized) in roundTrips {
            let value: JSONValue
            do {
                value = try JSON.parse(input)
            } catch {
                XCTFail("\(input.debugDescription): unexpected \(error)")
                continue
            }
            XCTAssertEqual(value, expected, "parse \(input.debugDescription)")
            let output = String(decoding: JSON.serialize(value), as: UTF8.self)
            XCTAssertEqual(output, serialized, "serialize \(input.debugDescription)")
            XCTAssertEqual(try JSON.parse(output), value, "reparse \(output.debugDescription)")
        }
    }

    func testParsesFromRawBuffer() throws {
        let bytes = Array(#"{"k":[1,"v"]}"#.utf8)
        let value = try bytes.withUnsafeBytes { raw throws(JSONError) in try JSON.parse(raw) }
        XCTAssertEqual(value, ["k": [1, "v"]])
    }

    // MARK: Errors

    /// (input, offset, words the message contains).
    private let errors: [(String, Int, String)] = [
        ("", 0, "end of input"),
        ("   ", 3, "end of input"),
        ("[1,]", 3, "trailing comma"),
        (#"{"a":1,}"#, 7, "trailing comma"),
        ("[1,,2]", 3, "expected a value"),
        ("[,1]", 1, "expected a value"),
        ("]", 0, "expected a value"),
        ("NaN", 0, "expected a value"),
        ("Infinity", 0, "expected a value"),
        ("-Infinity", 1, "invalid number"),
        ("[1 2]", 3, "expected ',' or ']'"),
        (#"{"a" 1}"#, 5, "expected ':'"),
        (#"{"a":1 "b":2}"#, 7, "expected ',' or '}'"),
        ("{1:2}", 1, "string key"),
        ("{'a':1}", 1, "string key"),
        (#"{"a":}"#, 5, "expected a value"),
        ("01", 1, "after the JSON value"),
        ("-", 1, "invalid number"),
        ("1.", 2, "after '.'"),
        ("1.e5", 2, "after '.'"),
        ("1e", 2, "exponent"),
        ("1e+", 3, "exponent"),
        ("+1", 0, "expected a value"),
        (".5", 0, "expected a value"),
        ("1e400", 0, "out of range"),
        ("-1e400", 0, "out of range"),
        ("\"abc", 4, "unterminated string"),
        ("\"\\", 2, "unterminated string"),
        ("\"a\u{01}b\"", 2, "control character"),
        ("\"a\nb\"", 2, "control character"),
        ("\"a\tb\"", 2, "control character"),
        (#""\x""#, 1, "invalid escape"),
        (#""\U0041""#, 1, "invalid escape"),
        (#""\u12G4""#, 5, "hex digits"),
        (#""\u12""#, 5, "hex digits"),
        ("tru", 3, "'true'"),
        ("trUe", 2, "'true'"),
        ("nul", 3, "'null'"),
        ("falsey", 5, "after the JSON value"),
        ("[", 1, "end of input"),
        ("[1", 2, "unterminated array"),
        (#"{"a":1"#, 6, "unterminated object"),
        ("{", 1, "unterminated object"),
        ("{} {}", 3, "after the JSON value"),
        ("/* comment */ 1", 0, "expected a value"),
        ("'a'", 0, "expected a value"),
        ("\u{FEFF}", 3, "end of input"),
    ]

    func testErrorTable() {
        for (input, offset, words) in errors {
            do {
                let value = try JSON.parse(input)
                XCTFail("\(input.debugDescription) parsed as \(value)")
            } catch {
                XCTAssertEqual(error.offset, offset, "offset for \(input.debugDescription): \(error)")
                XCTAssertTrue(error.message.contains(words), "message for \(input.debugDescription): \(error.message)")
            }
        }
    }

    func testNestingLimit() throws {
        let limit = JSON.maxDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let value = try JSON.parse(deepest)
        XCTAssertEqual(String(decoding: JSON.serialize(value), as: UTF8.self), deepest)

        for opener in ["[", #"{"k":"#] {
            let tooDeep = String(repeating: opener, count: limit + 1)
            XCTAssertThrowsError(try JSON.parse(tooDeep)) { error in
                guard let error = error as? JSONError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.message.contains("nesting"), error.message)
                XCTAssertEqual(error.offset, limit * opener.utf8.count)
            }
        }
        // Far past the limit must still be an error, not a stack overflow.
        XCTAssertThrowsError(try JSON.parse(String(repeating: "[", count: 1_000_000)))
    }

    func testSerializingADeeplyNestedValueDoesNotRecurse() {
        var value: JSONValue = 1
        for _ in 0..<100_000 { value = [value] }
        let bytes = JSON.serialize(value)
        XCTAssertEqual(bytes.count, 200_001)
        // Let go of the nesting without deep recursion in the enum's destructor.
        var current = value
        value = nil
        while case .array(let elements) = current, let first = elements.first { current = first }
    }

    // MARK: UTF-8

    func testInvalidUTF8BecomesReplacementCharacters() throws {
        let cases: [([UInt8], String)] = [
            ([0x22, 0xFF, 0x22], "\u{FFFD}"),
            ([0x22, 0x61, 0xC3, 0x22], "a\u{FFFD}"),
            ([0x22, 0xC3, 0xA9, 0x80, 0x22], "é\u{FFFD}"),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "\u{FFFD}\u{FFFD}\u{FFFD}"),
            ([0x22, 0xE2, 0x5C, 0x6E, 0x22], "\u{FFFD}\n"),
            ([0x22, 0xF0, 0x9F, 0x8E, 0x22], "\u{FFFD}"),
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(try JSON.parse(bytes), .string(expected), "\(bytes)")
        }
        // Invalid bytes as object keys are repaired the same way.
        XCTAssertEqual(try JSON.parse([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D]), ["\u{FFFD}": 1])
    }

    func testRandomBytesNeverTrap() {
        var generator = SeededGenerator(state: 7)
        let alphabet = Array(#"{}[],:"\-0123456789.eE+truefalsnu \#u{FF}\#u{C3}"#.utf8) + [0x00, 0x0A, 0x80, 0xF0]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 24)
            let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            if let value = try? JSON.parse(bytes) {
                // Whatever parses must serialize to something that parses to the same value.
                XCTAssertEqual(try? JSON.parse(JSON.serialize(value)), value, "\(bytes)")
            }
        }
    }

    func testRandomValuesRoundTrip() throws {
        var generator = SeededGenerator(state: 42)
        for _ in 0..<300 {
            let value = randomValue(&generator, depth: 0)
            let bytes = JSON.serialize(value)
            XCTAssertEqual(try JSON.parse(bytes), value)
            XCTAssertEqual(JSON.serialize(try JSON.parse(bytes)), bytes, "serialization is deterministic")
        }
    }

    private func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
        let kind = generator.next() % (depth > 4 ? 5 : 7)
        switch kind {
        case 0: return nil
        case 1: return .bool(generator.next() & 1 == 0)
        case 2: return .int(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 64))
        case 3:
            let double = Double(bitPattern: generator.next())
            return .double(double.isFinite ? double : 0.5)
        case 4:
            let scalars = (0..<Int(generator.next() % 12)).map { _ -> Character in
                let pool: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\u{01}", "é", "\u{2028}", "🎉", "\u{FFFD}", "/"]
                return Character(pool[Int(generator.next() % UInt64(pool.count))])
            }
            return .string(String(scalars))
        case 5:
            return .array((0..<Int(generator.next() % 5)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int(generator.next() % 5) {
                members["k\(index)\(generator.next() % 3 == 0 ? "é\"" : "")"] = randomValue(&generator, depth: depth + 1)
            }
            return .object(members)
        }
    }

    // MARK: Serialization details

    func testSerializationOfValuesJSONCannotHold() {
        XCTAssertEqual(String(decoding: JSON.serialize([.double(.infinity), .double(-.infinity), .double(.nan)]), as: UTF8.self),
                       "[null,null,null]")
    }

    func testSerializeIntoAppends() {
        var output = Array("prefix:".utf8)
        JSON.serialize(["x": [1, 2.5, "s"]], into: &output)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), #"prefix:{"x":[1,2.5,"s"]}"#)
    }

    // MARK: Accessors

    func testAccessors() {
        let value: JSONValue = ["s": "text", "i": 7, "d": 2.0, "f": 2.5, "b": true, "n": nil, "a": [1, "two"], "o": ["k": "v"]]
        XCTAssertEqual(value["s"]?.stringValue, "text")
        XCTAssertEqual(value["i"]?.intValue, 7)
        XCTAssertEqual(value["d"]?.intValue, 2, "a double with an integer value reads as an Int")
        XCTAssertNil(value["f"]?.intValue)
        XCTAssertEqual(value["f"]?.doubleValue, 2.5)
        XCTAssertEqual(value["i"]?.doubleValue, 7)
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["n"]?.isNull, true)
        XCTAssertEqual(value["a"]?[1], "two")
        XCTAssertNil(value["a"]?[2])
        XCTAssertNil(value["a"]?[-1])
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["s"]?["k"])
        XCTAssertNil(value[0])
        XCTAssertEqual(value["o"]?.objectValue, ["k": "v"])
        XCTAssertEqual(value["a"]?.arrayValue?.count, 2)
        XCTAssertNil(value["s"]?.intValue)
        XCTAssertNil(JSONValue.double(1e300).intValue)
        XCTAssertNil(JSONValue.string("1").intValue)
        XCTAssertFalse(JSONValue.bool(false).isNull)
    }
}
