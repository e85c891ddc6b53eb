import XCTest
@testable import JSON
@testable import JSONRPC
import Localization
import TestSupport

/// The incremental framer: every case is checked fed whole, byte by byte and in random chunks,
/// which must all give the same items.
final class MessageFramerTests: XCTestCase {
    private static func frame(_ body: String) -> String {
        "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    private static func body(_ text: String) -> FramedItem { .body(Array(text.utf8)) }

    private struct Case {
        var name: String
        var input: [UInt8]
        var expected: [FramedItem]
        var maxContentLength = 64 << 20

        init(_ name: String, _ input: String, _ expected: [FramedItem], maxContentLength: Int = 64 << 20) {
            self.init(name, Array(input.utf8), expected, maxContentLength: maxContentLength)
        }

        init(_ name: String, _ input: [UInt8], _ expected: [FramedItem], maxContentLength: Int = 64 << 20) {
            self.name = name
            self.input = input
            self.expected = expected
            self.maxContentLength = maxContentLength
        }
    }

    private static let good = #"{"jsonrpc":"2.0","method":"ok"}"#

    private let cases: [Case] = [
        Case("one message", frame(good), [body(good)]),
        Case("several messages", frame("{}") + frame("[1]") + frame(good), [body("{}"), body("[1]"), body(good)]),
        Case("partial body waits", "Content-Length: 10\r\n\r\n12345", []),
        Case("partial header waits", "Content-Len", []),
        Case("Content-Type accepted",
             "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", [body("{}")]),
        Case("Content-Type first", "Content-Type: application/vscode-jsonrpc; charset=utf8\r\nContent-Length: 2\r\n\r\n{}",
             [body("{}")]),
        Case("header names are case-insensitive", "content-length: 2\r\n\r\n{}CONTENT-LENGTH:2\r\n\r\n[]",
             [body("{}"), body("[]")]),
        Case("bare newlines", "Content-Length: 2\n\n{}Content-Length: 2\r\n\n[]", [body("{}"), body("[]")]),
        Case("whitespace around the value", "Content-Length: \t 2 \t\r\n\r\n{}", [body("{}")]),
        Case("blank lines between messages", "\r\n" + frame("{}") + "\r\n\r\n" + frame("[]"), [body("{}"), body("[]")]),
        Case("unknown headers ignored", "X-Trace: abc\r\nContent-Length: 2\r\n\r\n{}", [body("{}")]),
        Case("zero length", "Content-Length: 0\r\n\r\n" + frame("{}"), [body(""), body("{}")]),
        Case("body with CRLF and header text inside", frame("a\r\n\r\nContent-Length: 5\r\n\r\n"),
             [body("a\r\n\r\nContent-Length: 5\r\n\r\n")]),
        Case("missing Content-Length", "Content-Type: x\r\n\r\n{}" + frame(good),
             [.error(.missingContentLength), body(good)]),
        Case("negative Content-Length", "Content-Length: -5\r\n\r\n{}" + frame(good),
             [.error(.invalidContentLength("-5")), body(good)]),
        Case("non-numeric Content-Length", "Content-Length: abc\r\n\r\n{}" + frame(good),
             [.error(.invalidContentLength("abc")), body(good)]),
        Case("trailing junk in Content-Length", "Content-Length: 12x\r\n\r\n{}" + frame(good),
             [.error(.invalidContentLength("12x")), body(good)]),
        Case("empty Content-Length", "Content-Length:\r\n\r\n" + frame(good),
             [.error(.invalidContentLength("")), body(good)]),
        Case("plus sign", "Content-Length: +2\r\n\r\n{}" + frame(good),
             [.error(.invalidContentLength("+2")), body(good)]),
        Case("huge Content-Length", "Content-Length: 99999999999999999999999\r\n\r\n{}" + frame(good),
             [.error(.invalidContentLength("99999999999999999999999")), body(good)]),
        Case("conflicting Content-Length", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}" + frame(good),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.conflictingContentLength"))), body(good)]),
        Case("repeated equal Content-Length", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", [body("{}")]),
        Case("garbage line then a good message", "garbage bytes!!\r\n" + frame(good),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.notHeaderLine", "garbage bytes!!"))), body(good)]),
        Case("garbage glued to a header", "xyz" + frame(good), [.error(.missingContentLength), body(good)]),
        Case("raw JSON without headers", good + "\n" + frame(good),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.invalidName", .string(good)))), body(good)]),
        Case("invalid header name", "Bad Name: 1\r\n" + frame(good),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.invalidName", "Bad Name: 1"))), body(good)]),
        Case("too large, then a good message", "Content-Length: 20\r\n\r\n" + String(repeating: "x", count: 20) + frame("{}"),
             [.error(.tooLarge(20)), body("{}")], maxContentLength: 10),
        Case("at the limit", frame("0123456789"), [body("0123456789")], maxContentLength: 10),
        Case("header section that never ends", String(repeating: "a", count: MessageFramer.maxHeaderLength + 1) + "\n" + frame(good),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.tooLong", .integer(MessageFramer.maxHeaderLength)))), body(good)]),
        Case("binary garbage", [0xFF, 0x00, 0xC3, 0x0D, 0x0A] + Array(frame(good).utf8),
             [.error(.invalidHeader(LocalizedText("jsonrpc.header.notHeaderLine", "\u{FFFD}\u{0}\u{FFFD}"))), body(good)]),
        Case("garbage only", "\u{1}\u{2}garbage\r\n\r\nmore garbage", [.error(.invalidHeader(LocalizedText("jsonrpc.header.notHeaderLine", "\u{1}\u{2}garbage")))]),
    ]

    private func run(_ framer: inout MessageFramer, chunks: [ArraySlice<UInt8>]) -> [FramedItem] {
        var items: [FramedItem] = []
        for chunk in chunks {
            framer.append(Array(chunk))
            while let item = framer.next() { items.append(item) }
        }
        return items
    }

    func testTableWholeByteByByteAndChunked() {
        var generator = SeededGenerator(state: 3)
        for testCase in cases {
            var whole = MessageFramer(maxContentLength: testCase.maxContentLength)
            XCTAssertEqual(run(&whole, chunks: [testCase.input[...]]), testCase.expected, "\(testCase.name), whole")

            var byByte = MessageFramer(maxContentLength: testCase.maxContentLength)
            let bytes = testCase.input.indices.map { testCase.input[$0...$0] }
            XCTAssertEqual(run(&byByte, chunks: bytes), testCase.expected, "\(testCase.name), byte by byte")

            for _ in 0..<5 {
                var chunks: [ArraySlice<UInt8>] = []
                var offset = 0
                while offset < testCase.input.count {
                    let end = min(testCase.input.count, offset + 1 + Int(generator.next() % 40))
                    chunks.append(testCase.input[offset..<end])
                    offset = end
                }
                var chunked = MessageFramer(maxContentLength: testCase.maxContentLength)
                XCTAssertEqual(run(&chunked, chunks: chunks), testCase.expected, "\(testCase.name), chunks \(chunks.map(\.count))")
            }
        }
    }

    /// A message over the limit is refused even when the input ends before its body's first
    /// kilobyte: `finish` reports it, with the id the bytes that came show.
    func testTooLargeAtTheEndOfInputIsStillRefused() {
        var framer = MessageFramer(maxContentLength: 1000)
        framer.append(Array(#"Content-Length: 99999999999\#r\#n\#r\#n{"jsonrpc":"2.0","id":7,"method":"x""#.utf8))
        XCTAssertNil(framer.next())
        XCTAssertEqual(framer.finish(), .error(.tooLarge(99_999_999_999)))
        XCTAssertEqual(framer.oversizedRequestID, .int(7))
        XCTAssertNil(framer.finish(), "once")
        var clean = MessageFramer(maxContentLength: 1000)
        clean.append(Array(Self.frame("{}").utf8))
        XCTAssertEqual(clean.next(), Self.body("{}"))
        XCTAssertNil(clean.finish(), "nothing pending: nothing to say")
    }

    func testTooLargeBodyIsSkippedWithoutBuffering() {
        var framer = MessageFramer(maxContentLength: 1000)
        framer.append(Array("Content-Length: 1000000\r\n\r\n".utf8))
        XCTAssertNil(framer.next(), "the error waits for the body's first bytes (to read its id)")
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        framer.append(chunk)
        XCTAssertEqual(framer.next(), .error(.tooLarge(1_000_000)))
        XCTAssertNil(framer.oversizedRequestID)
        for _ in 1..<100 {
            framer.append(chunk)
            XCTAssertNil(framer.next())
            XCTAssertEqual(framer.bufferedByteCount, 0)
        }
        framer.append(Array(Self.frame("{}").utf8))
        XCTAssertEqual(framer.next(), Self.body("{}"))
        XCTAssertNil(framer.next())
    }

    func testResyncFindsAHeaderSplitAcrossAppends() {
        var framer = MessageFramer()
        var items: [FramedItem] = []
        for chunk in ["noise\r\n", String(repeating: "z", count: 100), "Cont", "ent-Len", "gth: 2\r\n\r\n{}"] {
            framer.append(Array(chunk.utf8))
            while let item = framer.next() { items.append(item) }
        }
        XCTAssertEqual(items, [.error(.invalidHeader(LocalizedText("jsonrpc.header.notHeaderLine", "noise"))), Self.body("{}")])
    }

    func testGarbageStreamStaysBounded() {
        var framer = MessageFramer()
        var generator = SeededGenerator(state: 11)
        for _ in 0..<200 {
            let chunk = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            framer.append(chunk)
            while framer.next() != nil {}
            XCTAssertLessThanOrEqual(framer.bufferedByteCount, MessageFramer.maxHeaderLength + 4096)
        }
        framer.append(Array(("\r\n\r\n" + Self.frame("{}")).utf8))
        var last: FramedItem?
        while let item = framer.next() { last = item }
        XCTAssertEqual(last, Self.body("{}"), "the stream heals after random garbage")
    }

    func testFramingWritesHeaderAndBody() {
        XCTAssertEqual(String(decoding: Framing.frame(Array("{}".utf8)), as: UTF8.self), "Content-Length: 2\r\n\r\n{}")
        let message = Message.notification(method: "é", params: nil)
        let framed = Framing.frame(message)
        var framer = MessageFramer()
        framer.append(framed)
        XCTAssertEqual(framer.next(), .body(JSON.serialize(message.json)))
    }
}

/// A long random stream of good frames, garbage and bad headers: chunking never changes the
/// items, and every good frame that follows a well-terminated piece of garbage comes through.
final class MessageFramerStreamTests: XCTestCase {
    func testRandomStreamsAreChunkingIndependent() {
        var generator = SeededGenerator(state: 99)
        for round in 0..<40 {
            var stream: [UInt8] = []
            var goodBodies: [[UInt8]] = []
            for index in 0..<30 {
                switch generator.next() % 6 {
                case 0:
                    stream += Array("garbage \(index)\r\n".utf8)
                case 1:
                    stream += Array("Content-Length: \(["-1", "x", "", "1e3"][Int(generator.next() % 4)])\r\n\r\n".utf8)
                case 2:
                    stream += (0..<Int(generator.next() % 50)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    stream += Array("\r\n\r\n".utf8)
                default:
                    let body = Array(#"{"jsonrpc":"2.0","method":"m","params":{"i":\#(index),"s":"a\r\n\r\nb"}}"#.utf8)
                    goodBodies.append(body)
                    stream += Framing.frame(body)
                }
            }
            var whole = MessageFramer(maxContentLength: 1000)
            whole.append(stream)
            var expected: [FramedItem] = []
            while let item = whole.next() { expected.append(item) }

            var chunked = MessageFramer(maxContentLength: 1000)
            var items: [FramedItem] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + 1 + Int(generator.next() % 64))
                chunked.append(Array(stream[offset..<end]))
                while let item = chunked.next() { items.append(item) }
                offset = end
            }
            XCTAssertEqual(items, expected, "round \(round)")
            let bodies = expected.compactMap { item -> [UInt8]? in
                if case .body(let body) = item { return body }
                return nil
            }
            // Garbage may swallow a good frame only when it declared a plausible length; here
            // every bad header is rejected, so all good frames arrive, in order.
            XCTAssertEqual(bodies, goodBodies, "round \(round)")
        }
    }
}

/// Reading the request id of a body too large to keep, from its first bytes.
final class OversizedRequestIDTests: XCTestCase {
    /// (prefix of a body, the id found).
    private let cases: [(String, RequestID?)] = [
        (#"{"jsonrpc":"2.0","id":5,"method":"textDocument/didOpen","params":{"text":"#, .int(5)),
        (#"{ "id" : "abc-1" , "method":"m""#, .string("abc-1")),
        (#"{"id":"a\"b","#, .string("a\"b")),
        (#"{"jsonrpc":"2.0","method":"m","params":{"id":3,"x":[1,{"id":4}]},"id":-9}"#, .int(-9)),
        (#"{"method":"m","params":{"text":"tricky \"id\": 7 , ","#, nil),
        (#"{"jsonrpc":"2.0","id":12"#, nil),
        (#"{"jsonrpc":"2.0","id":"unterminated"#, nil),
        (#"{"jsonrpc":"2.0","id":null,"#, nil),
        (#"{"jsonrpc":"2.0","id":true,"#, nil),
        (#"{"jsonrpc":"2.0","method":"didOpen","params":{"text":"#, nil),
        (#"[{"id":1}]"#, nil),
        ("", nil),
        ("garbage", nil),
        (#"{"a":}}}}}"id":1,"#, nil),
    ]

    func testFindsTheTopLevelID() {
        for (prefix, expected) in cases {
            let bytes = Array(prefix.utf8)
            XCTAssertEqual(RequestIDPeek.find(in: bytes[...]), expected, prefix)
        }
    }

    func testFramerReportsTheIDWithTooLarge() {
        var framer = MessageFramer(maxContentLength: 100)
        let body = #"{"jsonrpc":"2.0","id":42,"method":"textDocument/didOpen","params":{"text":""# +
            String(repeating: "x", count: 5000) + #""}}"#
        var items: [FramedItem] = []
        for byte in Array((Self.frame(body) + Self.frame("{}")).utf8) {
            framer.append([byte])
            while let item = framer.next() {
                items.append(item)
                if case .error(.tooLarge) = item { XCTAssertEqual(framer.oversizedRequestID, .int(42)) }
            }
        }
        XCTAssertEqual(items, [.error(.tooLarge(body.utf8.count)), .body(Array("{}".utf8))])
    }

    private static func frame(_ body: String) -> String {
        "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
