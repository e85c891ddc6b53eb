// Framing: builds outgoing `Content-Length` frames, header and body in one buffer (or, for a
// response carrying one very large string, in consecutive buffers written back to back).

import JSON

/// Builds frames to write: `Content-Length: N\r\n\r\n` followed by the body, in one buffer so
/// one `write(2)` loop sends it whole.
public enum Framing {
    /// The frame for a body.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(body.count + 32)
        appendHeader(contentLength: body.count, to: &output)
        output.append(contentsOf: body)
        return output
    }

    /// The frame for a message (serialized compactly, keys sorted).
    public static func frame(_ message: Message) -> [UInt8] {
        frame(JSON.serialize(message.json))
    }

    /// The frame of a successful response whose `result` is the object `members` plus one
    /// string member `stringKey` given as already escaped pieces (`JSON.escapedStringContents`
    /// of consecutive parts of the string), as a list of buffers to write one after the other.
    /// Their concatenation is byte for byte
    /// `frame(.response(id: id, result: .success(.object(members + [stringKey: string]))))`,
    /// but the large string is neither copied into one buffer nor escaped here. A member of
    /// `members` named `stringKey` is replaced.
    public static func responseParts(id: RequestID, members: [String: JSONValue], stringKey: String,
                                     escapedPieces: [[UInt8]]) -> [[UInt8]] {
        var before: [UInt8] = []
        var after: [UInt8] = []
        before.append(contentsOf: #"{"id":"#.utf8)
        JSON.serialize(id.json, into: &before)
        before.append(contentsOf: #","jsonrpc":"2.0","result":{"#.utf8)
        // Keys in sorted order, as `JSON.serialize` writes them.
        let keys = (Array(members.keys.filter { $0 != stringKey }) + [stringKey]).sorted()
        var output = before
        for (index, key) in keys.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSON.serialize(.string(key), into: &output)
            output.append(UInt8(ascii: ":"))
            if key == stringKey {
                output.append(UInt8(ascii: "\""))
                before = output
                output = [UInt8(ascii: "\"")]
            } else {
                JSON.serialize(members[key] ?? .null, into: &output)
            }
        }
        output.append(contentsOf: "}}".utf8)
        after = output
        let length = before.count + escapedPieces.reduce(0) { $0 + $1.count } + after.count
        var head: [UInt8] = []
        head.reserveCapacity(before.count + 32)
        appendHeader(contentLength: length, to: &head)
        head.append(contentsOf: before)
        return [head] + escapedPieces.filter { !$0.isEmpty } + [after]
    }

    private static func appendHeader(contentLength: Int, to output: inout [UInt8]) {
        output.append(contentsOf: "Content-Length: ".utf8)
        JSON.serialize(.int(Int64(contentLength)), into: &output)
        output.append(contentsOf: "\r\n\r\n".utf8)
    }
}
