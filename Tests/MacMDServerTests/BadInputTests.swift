import Foundation
import JSON
import JSONRPC
import XCTest
@testable import MacMDServer

/// Whatever a client sends, the server answers what it can and keeps serving.
final class BadInputTests: XCTestCase {
    /// After `bytes`, a well-formed request must still get its answer.
    func assertStillServing(_ client: LSPTestClient, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let result = client.request("no/such/method")
        XCTAssertEqual(result?.errorCode, -32601, "server stopped answering after \(label)", file: file, line: line)
    }

    func testMalformedFramesAndBodies() {
        let cases: [(String, [UInt8], Int?)] = [
            // (label, raw bytes, expected error code of a response with id null, if any)
            ("garbage bytes", Array("\u{01}\u{02}garbage\r\n\r\n".utf8) + [0xFF, 0xFE], nil),
            ("missing Content-Length", Array("Content-Type: application/json\r\n\r\n{}".utf8), nil),
            ("negative Content-Length", Array("Content-Length: -5\r\n\r\n".utf8), nil),
            ("non-numeric Content-Length", Array("Content-Length: abc\r\n\r\n".utf8), nil),
            ("huge Content-Length", Array("Content-Length: 99999999999999999999999\r\n\r\n".utf8), nil),
            ("body that is not JSON", Framing.frame(Array("{not json".utf8)), -32700),
            ("JSON that is not an object", Framing.frame(Array("[1,2,3]".utf8)), -32600),
            ("invalid UTF-8 in a string", Framing.frame(Array("{\"jsonrpc\":\"2.0\",\"method\":\"x/\u{0}".utf8.dropLast()) + [0xC3, 0x28] + Array("\"}".utf8)), nil),
            ("request without a method", Framing.frame(Array("{\"jsonrpc\":\"2.0\",\"id\":5}".utf8)), nil),
        ]
        for (label, bytes, code) in cases {
            let client = LSPTestClient()
            client.initialize()
            client.writeRaw(bytes)
            if let code {
                let response = client.response(to: nil)
                XCTAssertEqual(response?.errorCode, code, label)
            }
            assertStillServing(client, label)
            client.close()
        }
    }

    func testParamsOfTheWrongTypes() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let notifications: [(String, JSONValue)] = [
            ("textDocument/didOpen", ["textDocument": ["uri": "file:///a.md", "version": "one", "text": 5]]),
            ("textDocument/didChange", ["textDocument": ["uri": "file:///a.md"], "contentChanges": [["range": "bad", "text": "x"]]]),
            ("textDocument/didChange", ["contentChanges": 12]),
            ("$/cancelRequest", ["id": ["nested": true]]),
            ("textDocument/didClose", [1, 2, 3]),
        ]
        for (method, params) in notifications {
            client.notify(method, params)
            assertStillServing(client, method)
        }
        XCTAssertEqual(client.request("macmd/preview", [1, 2])?.errorCode, -32602)
    }

    /// The first `initialize` with params of the wrong shape is answered with an error naming
    /// the field (not the "second initialize" rule, which a fresh server has not met), and the
    /// server is still waiting for a good one.
    func testABadInitializeOnAFreshServerNamesTheField() {
        let cases: [(params: JSONValue?, code: Int, message: String)] = [
            (["processId": "x", "capabilities": [:]], -32602, "params.processId: expected an integer, got \"x\""),
            (["capabilities": [:], "rootUri": 7], -32602, "params.rootUri: expected a string, got 7"),
            (["capabilities": [:], "workspaceFolders": [["uri": 5]]], -32602, "params.workspaceFolders[0].uri: expected a string, got 5"),
            ([1, 2], -32602, "params: expected an object, got an array"),
            (nil, -32602, "params: expected an object, got nothing"),
            // JSON-RPC itself refuses params that are neither an object nor an array.
            ("not an object", -32600, "\"params\" must be an object or an array"),
        ]
        for (params, code, message) in cases {
            let client = LSPTestClient()
            let answer = client.request("initialize", params)
            XCTAssertEqual(answer?.errorCode, code, "\(String(describing: params))")
            XCTAssertEqual(answer?.errorMessage, message, "\(String(describing: params))")
            XCTAssertEqual(client.request("shutdown")?.errorCode, -32002, "still not initialized after \(String(describing: params))")
            XCTAssertEqual(client.initialize()?["serverInfo"]?["name"], "macmd", "a good initialize still works")
            client.close()
        }
    }

    func testAMessageOverTheLimitIsAnsweredWithAnError() {
        let client = LSPTestClient(maxContentLength: 1024)
        defer { client.close() }
        client.initialize()
        let big = String(repeating: "x", count: 4096)
        client.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///big.md", "version": 1, "text": .string(big)]])
        let response = client.response(to: nil)
        XCTAssertEqual(response?.errorCode, -32600)
        XCTAssertTrue(response?.errorMessage?.contains("1024") ?? false, response?.errorMessage ?? "")
        assertStillServing(client, "a message over the limit")
    }

    func testPositionsOutsideTheDocumentAreClamped() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        let uri: JSONValue = "file:///clamp.md"
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": "abc\n"]])
        for (line, character) in [(-1, -1), (0, 999), (5, 0), (Int64.max, Int64.max), (0, -3)] {
            client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [[
                "range": ["start": ["line": .int(line), "character": .int(character)],
                          "end": ["line": .int(line), "character": .int(character)]],
                "text": "!",
            ]]])
        }
        let html = client.request("macmd/preview", ["textDocument": ["uri": uri]])?.value?["html"]?.stringValue ?? ""
        XCTAssertTrue(html.contains("abc"), html)
        XCTAssertEqual(html.filter { $0 == "!" }.count, 5, html)
    }
}
