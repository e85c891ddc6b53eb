// RequestIDPeek: finds the top-level "id" of a JSON-RPC message from the first bytes of its
// body, so an error about a body too large to read can still answer the right request.
//
// Invariants:
// - Looks only at the bytes given (a prefix of a body that may be cut anywhere) and never traps.
// - Returns an id only when the top-level member "id" and its whole value (an integer or a
//   string, followed by a delimiter) lie inside the prefix; otherwise `nil`.
// - Uses no recursion: nested values are skipped with a counter.

import JSON

enum RequestIDPeek {
    static func find(in bytes: ArraySlice<UInt8>) -> RequestID? {
        var index = bytes.startIndex
        let end = bytes.endIndex

        func skipWhitespace() {
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }
        /// With `index` on an opening quote, moves past the closing one; false if cut off.
        func skipString() -> Bool {
            index += 1
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): index += 1; return true
                default: index += 1
                }
            }
            return false
        }

        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index
            guard skipString() else { return nil }
            let key = bytes[keyStart..<index]
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard index < end else { return nil }
            if key.elementsEqual(#""id""#.utf8) {
                let valueStart = index
                if bytes[index] == UInt8(ascii: "\"") {
                    guard skipString() else { return nil }
                } else {
                    while index < end, !Self.isDelimiter(bytes[index]) { index += 1 }
                    // A number cut off by the end of the prefix might be longer.
                    guard index < end else { return nil }
                }
                guard let value = try? JSON.parse(Array(bytes[valueStart..<index])) else { return nil }
                return RequestID(json: value)
            }
            // Skip this member's value, then its comma.
            var nesting = 0
            while true {
                guard index < end else { return nil }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard skipString() else { return nil }
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    nesting += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if nesting == 0 { return nil }
                    nesting -= 1
                } else if byte == UInt8(ascii: ","), nesting == 0 {
                    index += 1
                    break
                }
                index += 1
            }
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return true
        default: return false
        }
    }
}

extension RequestID {
    /// The top-level `id` of a message body, found without parsing the rest (nil when there is
    /// none or it is cut off).
    public static func peek(in body: [UInt8]) -> RequestID? {
        RequestIDPeek.find(in: body[...])
    }
}
