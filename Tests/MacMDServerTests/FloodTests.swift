import Foundation
import JSON
import TestSupport
import XCTest

/// The real `macmd lsp` on pipes under load, as ten busy clients' worth of traffic would be: a
/// burst of requests sent without waiting is answered in full, a storm of keystrokes leaves the
/// server answering at once with the text the client holds, and an idle server uses no CPU.
final class FloodTests: XCTestCase {
    typealias Child = EndToEndTests.Child

    static func frame(_ value: JSONValue) -> [UInt8] {
        var body: [UInt8] = []
        JSON.serialize(value, into: &body)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// Starts a server on `fixture` and opens `note`.
    func start(_ fixture: NotebookFixture, note: String, text: String) throws -> Child {
        let child = try Child()
        child.write(Self.frame(["jsonrpc": "2.0", "id": 0, "method": "initialize",
                                "params": ["processId": .null, "rootUri": .string(fixture.uri("")), "capabilities": [:]]]))
        guard case .response(id: .int(0), _)? = child.next() else {
            XCTFail("no answer to initialize")
            return child
        }
        child.write(Self.frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]]))
        child.write(Self.frame(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": ["textDocument": [
            "uri": .string(fixture.uri(note)), "languageId": "markdown", "version": 1, "text": .string(text)]]]))
        return child
    }

    func testTenThousandPipelinedRequestsAreAllAnswered() throws {
        let fixture = NotebookFixture(["index.md": "# Home\n\nSee [[other#Part]] and #tag.\n", "other.md": "# Other\n\n## Part\n"])
        defer { fixture.destroy() }
        let child = try start(fixture, note: "index.md", text: "# Home\n\nSee [[other#Part]] and #tag.\n")
        let uri = JSONValue.string(fixture.uri("index.md"))
        let methods: [(String, JSONValue)] = [
            ("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 2, "character": 8]]),
            ("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 2, "character": 6]]),
            ("textDocument/documentSymbol", ["textDocument": ["uri": uri]]),
            ("textDocument/definition", ["textDocument": ["uri": uri], "position": ["line": 2, "character": 8]]),
            ("textDocument/foldingRange", ["textDocument": ["uri": uri]]),
        ]
        var burst: [UInt8] = []
        for id in 1...10_000 {
            let (method, params) = methods[id % methods.count]
            burst += Self.frame(["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": params])
        }
        // Written from another thread: the server answers while the burst is still arriving, and
        // a full pipe must not stall the test's reading.
        let handle = child.stdin.fileHandleForWriting
        let data = Data(burst)
        let writer = Thread { handle.write(data) }
        writer.start()
        var answered = Set<Int64>()
        var errors = 0
        while answered.count < 10_000, let message = child.next(timeout: 30) {
            if case .response(id: .int(let id), let result) = message {
                XCTAssertTrue(answered.insert(id).inserted, "request \(id) answered twice")
                if case .failure = result { errors += 1 }
            }
        }
        XCTAssertEqual(answered.count, 10_000, "every request of the burst is answered")
        XCTAssertEqual(errors, 0)
        child.write(Self.frame(["jsonrpc": "2.0", "id": 99_999, "method": "shutdown"]))
        child.write(Self.frame(["jsonrpc": "2.0", "method": "exit"]))
        XCTAssertEqual(child.waitForExit(), 0)
    }

    func testAStormOfKeystrokesLeavesTheServerAnsweringWithTheClientsText() throws {
        let fixture = NotebookFixture(["index.md": "# Home\n"])
        defer { fixture.destroy() }
        let child = try start(fixture, note: "index.md", text: "# Home\n")
        let uri = JSONValue.string(fixture.uri("index.md"))
        // 20,000 keystrokes at the end of the second line, sent without waiting.
        var storm: [UInt8] = []
        var typed = ""
        var line = 1
        var column = 0
        for version in 2...20_001 {
            let character = version % 50 == 0 ? "\n" : "a"
            let position: JSONValue = ["line": .int(Int64(line)), "character": .int(Int64(column))]
            storm += Self.frame(["jsonrpc": "2.0", "method": "textDocument/didChange", "params": [
                "textDocument": ["uri": uri, "version": .int(Int64(version))],
                "contentChanges": [["range": ["start": position, "end": position], "text": .string(character)]]]])
            typed += character
            if character == "\n" { line += 1; column = 0 } else { column += 1 }
        }
        let handle = child.stdin.fileHandleForWriting
        let data = Data(storm)
        let writer = Thread { handle.write(data) }
        writer.start()
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        let sent = Date()
        child.write(Self.frame(["jsonrpc": "2.0", "id": 1, "method": "macmd/preview",
                                "params": ["textDocument": ["uri": uri], "options": ["sourceLines": false]]]))
        var html: String?
        while let message = child.next(timeout: 30) {
            if case .response(id: .int(1), let result) = message {
                html = (try? result.get())?["html"]?.stringValue
                break
            }
        }
        // Under a sanitizer (`.ci/run` sets MACMD_TEST_TIME_SCALE) every instruction costs several
        // times more: the bound scales, the promise it checks (no queue of stale work) does not.
        let scale = Double(ProcessInfo.processInfo.environment["MACMD_TEST_TIME_SCALE"] ?? "") ?? 1
        XCTAssertLessThan(Date().timeIntervalSince(sent), 1.0 * scale, "answered within a second of the last keystroke")
        // The page's text is every keystroke: as many `a`s (the rest of the page has none) and
        // line breaks as were typed.
        XCTAssertEqual(html?.filter { $0 == "a" }.count, typed.filter { $0 == "a" }.count, "the preview is of the client's text")
        XCTAssertEqual(html.map { $0.components(separatedBy: "a\n").count - 1 }, typed.components(separatedBy: "a\n").count - 1)
    }
}
