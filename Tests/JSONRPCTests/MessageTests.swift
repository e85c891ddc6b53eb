import XCTest
@testable import JSON
@testable import JSONRPC

/// Classifying JSON bodies as JSON-RPC messages, and writing messages back.
final class MessageTests: XCTestCase {
    /// (body, the message it decodes to).
    private let valid: [(String, Message)] = [
        (#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1}}"#,
         .request(id: .int(1), method: "initialize", params: ["a": 1])),
        (#"{"jsonrpc":"2.0","id":"abc","method":"m","params":[1]}"#,
         .request(id: .string("abc"), method: "m", params: [1])),
        (#"{"jsonrpc":"2.0","id":2.0,"method":"shutdown","params":null}"#,
         .request(id: .int(2), method: "shutdown", params: nil)),
        (#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
         .request(id: .int(3), method: "shutdown", params: nil)),
        (#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
         .notification(method: "initialized", params: [:])),
        (#"{"method":"exit"}"#,
         .notification(method: "exit", params: nil)),
        (#"{"jsonrpc":"2.0","id":7,"result":null}"#,
         .response(id: .int(7), result: .success(nil))),
        (#"{"jsonrpc":"2.0","id":"s","result":{"ok":true}}"#,
         .response(id: .string("s"), result: .success(["ok": true]))),
        (#"{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"no","data":[1]}}"#,
         .response(id: .int(8), result: .failure(ResponseError(code: -32601, message: "no", data: [1])))),
        (#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#,
         .response(id: nil, result: .failure(ResponseError(code: ResponseError.parseError, message: "bad")))),
    ]

    func testValidMessages() throws {
        for (body, expected) in valid {
            let value = try JSON.parse(body)
            XCTAssertEqual(Message.decode(value), .success(expected), body)
            // Writing the message and reading it back gives the same message.
            XCTAssertEqual(Message.decode(expected.json), .success(expected), body)
            XCTAssertEqual(expected.json["jsonrpc"], "2.0")
        }
    }

    /// (body, expected id in the failure, expected code, words of the message).
    private let invalid: [(String, RequestID?, Int, String)] = [
        ("[1,2]", nil, ResponseError.invalidRequest, "not a JSON object"),
        ("42", nil, ResponseError.invalidRequest, "not a JSON object"),
        (#""text""#, nil, ResponseError.invalidRequest, "not a JSON object"),
        ("{}", nil, ResponseError.invalidRequest, "neither"),
        (#"{"jsonrpc":"1.0","id":5,"method":"m"}"#, .int(5), ResponseError.invalidRequest, "2.0"),
        (#"{"jsonrpc":2,"id":"x","method":"m"}"#, .string("x"), ResponseError.invalidRequest, "2.0"),
        (#"{"jsonrpc":"2.0","id":6,"method":5}"#, .int(6), ResponseError.invalidRequest, "\"method\""),
        (#"{"jsonrpc":"2.0","id":7,"method":"m","params":"x"}"#, .int(7), ResponseError.invalidRequest, "\"params\""),
        (#"{"jsonrpc":"2.0","id":7,"method":"m","params":3}"#, .int(7), ResponseError.invalidRequest, "\"params\""),
        (#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, nil, ResponseError.invalidRequest, "\"id\""),
        (#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, nil, ResponseError.invalidRequest, "\"id\""),
        (#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, nil, ResponseError.invalidRequest, "null"),
        (#"{"jsonrpc":"2.0","id":9}"#, .int(9), ResponseError.invalidRequest, "no \"method\""),
        (#"{"jsonrpc":"2.0","id":9,"result":1,"error":{"code":1,"message":"m"}}"#, .int(9), ResponseError.invalidRequest, "both"),
        (#"{"jsonrpc":"2.0","id":9,"error":{"code":"x","message":"m"}}"#, .int(9), ResponseError.invalidRequest, "\"error\""),
        (#"{"jsonrpc":"2.0","id":9,"error":"boom"}"#, .int(9), ResponseError.invalidRequest, "\"error\""),
        (#"{"jsonrpc":"2.0","result":1}"#, nil, ResponseError.invalidRequest, "neither"),
    ]

    func testInvalidMessages() throws {
        for (body, id, code, words) in invalid {
            switch Message.decode(try JSON.parse(body)) {
            case .success(let message):
                XCTFail("\(body) decoded as \(message)")
            case .failure(let failure):
                XCTAssertEqual(failure.id, id, body)
                XCTAssertEqual(failure.error.code, code, body)
                XCTAssertTrue(failure.error.message.contains(words), "\(body): \(failure.error.message)")
                XCTAssertEqual(failure.response.json["id"], id?.json ?? .null, body)
            }
        }
    }

    func testSerializedFormsAreExact() {
        let cases: [(Message, String)] = [
            (.request(id: .int(1), method: "m", params: nil), #"{"id":1,"jsonrpc":"2.0","method":"m"}"#),
            (.notification(method: "n", params: ["x": 1]), #"{"jsonrpc":"2.0","method":"n","params":{"x":1}}"#),
            (.response(id: .string("a"), result: .success(nil)), #"{"id":"a","jsonrpc":"2.0","result":null}"#),
            (.response(id: nil, result: .failure(ResponseError(code: -32700, message: "bad"))),
             #"{"error":{"code":-32700,"message":"bad"},"id":null,"jsonrpc":"2.0"}"#),
        ]
        for (message, text) in cases {
            XCTAssertEqual(String(decoding: JSON.serialize(message.json), as: UTF8.self), text)
        }
    }

    func testErrorCodes() {
        XCTAssertEqual(
            [ResponseError.parseError, ResponseError.invalidRequest, ResponseError.methodNotFound,
             ResponseError.invalidParams, ResponseError.internalError, ResponseError.serverNotInitialized,
             ResponseError.unknownErrorCode, ResponseError.requestCancelled, ResponseError.contentModified,
             ResponseError.requestFailed],
            [-32700, -32600, -32601, -32602, -32603, -32002, -32001, -32800, -32801, -32803])
        XCTAssertEqual(ResponseError.Code.requestCancelled, -32800)
    }
}
