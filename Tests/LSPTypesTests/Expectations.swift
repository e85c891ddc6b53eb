import JSON
import JSONRPC
import LSPTypes
import XCTest

/// What reading params gives: a value, or the -32602 error with its exact message.
enum Decoded<Value> {
    case value(Value)
    case error(String)
}

/// Parses JSON text written in a test (`nil`: the message had no params).
func json(_ text: String?, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
    guard let text else { return nil }
    do { return try JSON.parse(text) } catch {
        XCTFail("bad JSON in the test: \(error): \(text)", file: file, line: line)
        return nil
    }
}

/// Reads each params text as `T` and compares with what is expected.
func checkDecoding<T: LSPDecodable & Equatable>(_ type: T.Type, _ cases: [(params: String?, expected: Decoded<T>)],
                                                 file: StaticString = #filePath, line: UInt = #line) {
    for (params, expected) in cases {
        let label = "\(T.self) from \(params ?? "no params")"
        let result: Result<T, ResponseError>
        do { result = .success(try T(params: json(params, file: file, line: line))) } catch { result = .failure(error) }
        switch (expected, result) {
        case (.value(let value), .success(let decoded)):
            XCTAssertEqual(decoded, value, label, file: file, line: line)
        case (.error(let message), .failure(let error)):
            XCTAssertEqual(error.message, message, label, file: file, line: line)
            XCTAssertEqual(error.code, ResponseError.invalidParams, label, file: file, line: line)
        case (.value, .failure(let error)):
            XCTFail("\(label): expected a value, got the error \(error.message)", file: file, line: line)
        case (.error(let message), .success(let decoded)):
            XCTFail("\(label): expected the error \(message), got \(decoded)", file: file, line: line)
        }
    }
}

/// Compares what each value writes with the JSON text, as parsed values (key order and spacing
/// do not count; a member present as `null` differs from one left out).
func checkEncoding(_ cases: [(value: any LSPEncodable, json: String)], file: StaticString = #filePath, line: UInt = #line) {
    for (value, text) in cases {
        guard let expected = json(text, file: file, line: line) else { continue }
        XCTAssertEqual(value.json, expected, "\(type(of: value))", file: file, line: line)
    }
}

/// A range on one line, for short tables.
func range(_ line: Int, _ start: Int, _ end: Int) -> LSPRange {
    LSPRange(start: LSPPosition(line: line, character: start), end: LSPPosition(line: line, character: end))
}

/// `range(line, start, end)` as JSON text.
func rangeJSON(_ line: Int, _ start: Int, _ end: Int) -> String {
    #"{"start":{"line":\#(line),"character":\#(start)},"end":{"line":\#(line),"character":\#(end)}}"#
}
