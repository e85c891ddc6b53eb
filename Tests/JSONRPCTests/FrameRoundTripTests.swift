import XCTest
@testable import JSON
@testable import JSONRPC

/// A message framed and read back through the framer is the same message.
final class FrameRoundTripTests: XCTestCase {
    func testFramedRequestReadsBack() throws {
        let message = Message.request(id: .int(7), method: "macmd/preview",
                                      params: .object(["textDocument": .object(["uri": .string("file:///a.md")])]))
        var framer = MessageFramer()
        framer.append(Framing.frame(message))
        guard case .body(let body)? = framer.next() else { return XCTFail("no body") }
        let decoded = try JSON.parse(body)
        XCTAssertEqual(try Message.decode(decoded).get(), message)
        XCTAssertNil(framer.next())
    }
}
