// Framing: builds outgoing `Content-Length` frames, header and body in one buffer.

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

    private static func appendHeader(contentLength: Int, to output: inout [UInt8]) {
        output.append(contentsOf: "Content-Length: ".utf8)
        JSONWriter.writeInteger(Int64(contentLength), into: &output)
        output.append(contentsOf: "\r\n\r\n".utf8)
    }
}
