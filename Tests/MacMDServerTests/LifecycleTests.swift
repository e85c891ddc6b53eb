import JSON
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer

/// The lifecycle and the error codes of the base protocol, as a client sees them.
final class LifecycleTests: XCTestCase {
    func testRequestBeforeInitializeIsRejectedWithServerNotInitialized() {
        let client = LSPTestClient()
        defer { client.close() }
        XCTAssertEqual(client.request("macmd/preview", ["textDocument": ["uri": "file:///x.md"]])?.errorCode, -32002)
        XCTAssertEqual(client.request("shutdown")?.errorCode, -32002)
    }

    func testInitializeAnswersCapabilitiesAndServerInfo() throws {
        let client = LSPTestClient()
        defer { client.close() }
        let result = try XCTUnwrap(client.initialize())
        XCTAssertEqual(result["serverInfo"]?["name"], "macmd")
        XCTAssertEqual(result["serverInfo"]?["version"], "test")
        XCTAssertEqual(result["capabilities"]?["textDocumentSync"]?["change"], 2)
        XCTAssertEqual(result["capabilities"]?["textDocumentSync"]?["openClose"], true)
        XCTAssertEqual(result["capabilities"]?["experimental"]?["macmd"]?["preview"], true)
        XCTAssertEqual(client.request("initialize", ["capabilities": [:]])?.errorCode, -32600, "a second initialize")
    }

    func testUnknownRequestsFailAndUnknownNotificationsAreIgnored() {
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        client.notify("$/setTrace", ["value": "verbose"])
        client.notify("custom/unknownNotification", ["x": 1])
        let result = client.request("textDocument/unknownThing", [:])
        XCTAssertEqual(result?.errorCode, -32601)
        XCTAssertTrue(result?.errorMessage?.contains("textDocument/unknownThing") ?? false)
        XCTAssertEqual(client.request("$/unknownRequest", [:])?.errorCode, -32601)
    }

    func testShutdownThenExitEndsWithStatusZero() {
        let client = LSPTestClient()
        client.initialize()
        XCTAssertEqual(client.request("shutdown")?.value, .null)
        XCTAssertEqual(client.request("macmd/preview", ["textDocument": ["uri": "file:///x.md"]])?.errorCode, -32600,
                       "requests after shutdown")
        client.notify("exit")
        XCTAssertEqual(client.waitForExit(), 0)
        client.close()
    }

    func testExitWithoutShutdownEndsWithStatusOne() {
        let client = LSPTestClient()
        client.initialize()
        client.notify("exit")
        XCTAssertEqual(client.waitForExit(), 1)
        client.close()
    }

    func testEndOfInputEndsTheServer() {
        let client = LSPTestClient()
        client.initialize()
        close(client.toServer)
        XCTAssertEqual(client.waitForExit(), 1)
        close(client.fromServer)
    }

    func testPositionEncodingIsNegotiated() {
        let cases: [([JSONValue], String)] = [
            (["utf-16", "utf-8"], "utf-8"),
            (["utf-32", "utf-16"], "utf-32"),
            (["utf-16"], "utf-16"),
            ([], "utf-16"),
            (["latin-1"], "utf-16"),
        ]
        for (offered, chosen) in cases {
            let client = LSPTestClient()
            let result = client.initialize(capabilities: ["general": ["positionEncodings": .array(offered)]])
            XCTAssertEqual(result?["capabilities"]?["positionEncoding"], .string(chosen), "offered \(offered)")
            client.close()
        }
    }

    func testServerAsksTheClientForConfigurationRegistrationAndProgress() {
        let fixture = NotebookFixture(["a.md": "# A\n"])
        defer { fixture.destroy() }
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize(capabilities: [
            "workspace": ["configuration": true, "didChangeConfiguration": ["dynamicRegistration": true]],
            "window": ["workDoneProgress": true],
        ], workspaceFolders: [fixture.root])
        var methods: [String: RequestID] = [:]
        while methods.count < 3, let message = client.nextMessage(timeout: 5) {
            if case .request(let id, let method, _) = message { methods[method] = id }
        }
        XCTAssertEqual(Set(methods.keys), ["client/registerCapability", "workspace/configuration", "window/workDoneProgress/create"])
        // Answer them; the server must take the answers without complaint and keep serving.
        if let id = methods["workspace/configuration"] { client.send(.response(id: id, result: .success([["preview": ["theme": "ocean"]]]))) }
        if let id = methods["client/registerCapability"] { client.send(.response(id: id, result: .success(.null))) }
        if let id = methods["window/workDoneProgress/create"] { client.send(.response(id: id, result: .success(.null))) }
        // The notebook scan reports its progress through the token.
        var progress: [String] = []
        while progress.last != "end", let params = client.notification("$/progress", timeout: 5) {
            progress.append(params["value"]?["kind"]?.stringValue ?? "?")
        }
        XCTAssertEqual(progress.first, "begin")
        XCTAssertEqual(progress.last, "end")
        // The configured theme is the preview's default.
        client.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///t.md", "version": 1, "text": "# T\n"]])
        let page = client.request("macmd/preview", ["textDocument": ["uri": "file:///t.md"], "options": ["fullPage": true]])
        XCTAssertTrue(page?.value?["html"]?.stringValue?.contains("data-theme=\"ocean\"") ?? false)
        XCTAssertEqual(client.request("textDocument/nothing")?.errorCode, -32601)
    }
}
