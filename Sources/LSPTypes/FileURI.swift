// `file://` URIs to paths and back (percent-encoding per RFC 3986), without Foundation.

public enum FileURI {
    /// The path of a `file:` URI, percent-decoded; nil for other schemes or malformed URIs.
    public static func path(of uri: String) -> String? {
        var bytes = Array(uri.utf8)
        let prefix = Array("file://".utf8)
        guard bytes.count >= prefix.count, Array(bytes[0..<prefix.count]).map({ $0 | 0x20 }) == prefix.map({ $0 | 0x20 }) else {
            return nil
        }
        bytes.removeFirst(prefix.count)
        // Skip an authority ("localhost" or empty) up to the path's first slash.
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        bytes.removeFirst(slash)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "?") || c == UInt8(ascii: "#") { break }
            if c == UInt8(ascii: "%"), i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
        // Windows drive letters: /C:/x -> C:/x.
        if out.count >= 3, out[0] == UInt8(ascii: "/"), out[2] == UInt8(ascii: ":"),
           (out[1] | 0x20) >= UInt8(ascii: "a"), (out[1] | 0x20) <= UInt8(ascii: "z") {
            out.removeFirst()
        }
        guard !out.contains(0) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// A `file://` URI for an absolute path.
    public static func uri(ofPath path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    private static func isUnreserved(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
