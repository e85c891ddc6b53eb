// Where the values of a JSON text lie, for reporting a snippet file's problems at their line.
//
// The project's JSON parser (`JSON.parse`) gives values without positions, and one bad value
// fails the whole text. VS Code's snippet files are also JSON with comments and trailing commas.
// So the text is first made plain JSON of the same length (comments and trailing commas become
// spaces, line breaks stay, so every offset keeps its line and column); then the members of an
// object and the elements of an array are found lexically (strings skipped, brackets counted),
// and each value is handed to `JSON.parse` on its own. A bad value is then one problem at its
// own offset, and the values after it still load.
//
// Invariants:
// - Never traps; linear in the text (each byte is read a bounded number of times per level the
//   caller descends, and the caller descends two levels).
// - Offsets are UTF-8 bytes of the original text.

import JSON
import Localization

struct JSONLayout {
    /// The text with comments, trailing commas and a byte order mark blanked.
    let bytes: [UInt8]

    /// One `"key": value` of an object.
    struct Member {
        var key: String
        /// The offset of the key's opening quote.
        var keyOffset: Int
        /// The value's bytes.
        var value: Range<Int>
    }

    /// Why a scan of an object's members stopped early, and where.
    struct Problem {
        /// The text is not an object at all (a snippet file says so in its own words).
        var isNotObject = false
        var message: LocalizedText
        var offset: Int
    }

    init(jsonWithComments text: [UInt8]) {
        bytes = JSONLayout.plainJSON(text)
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// `text` with `//` and `/* */` comments, commas before `}` or `]`, and a leading byte
    /// order mark replaced by spaces (line breaks inside comments kept).
    static func plainJSON(_ text: [UInt8]) -> [UInt8] {
        var bytes = text
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20]) }
        var index = 0
        var pendingComma: Int? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index = stringEnd(bytes, from: index) ?? bytes.count
                pendingComma = nil
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
                let isLine = bytes[index + 1] == UInt8(ascii: "/")
                var end = index + 2
                if isLine {
                    while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                } else {
                    while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                    end = min(end + 2, bytes.count)
                }
                for blank in index..<end where bytes[blank] != 0x0A && bytes[blank] != 0x0D { bytes[blank] = 0x20 }
                index = end
                continue
            }
            if byte == UInt8(ascii: ",") {
                pendingComma = index
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                if let comma = pendingComma { bytes[comma] = 0x20 }
                pendingComma = nil
            } else if !isWhitespace(byte) {
                pendingComma = nil
            }
            index += 1
        }
        return bytes
    }

    /// The offset after the closing quote of the string whose opening quote is at `start`; nil
    /// when it is not closed.
    static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == backslash {
                index += 2
                continue
            }
            if bytes[index] == quote { return index + 1 }
            index += 1
        }
        return nil
    }

    func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < bytes.count, JSONLayout.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The end of the value starting at `start`, found lexically: a string to its closing quote,
    /// an object or array to its matching bracket, anything else to the next `,`, `}`, `]` or
    /// white space. Nil when the text ends first.
    func valueEnd(from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case JSONLayout.quote:
            return JSONLayout.stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case JSONLayout.quote:
                    guard let end = JSONLayout.stringEnd(bytes, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || JSONLayout.isWhitespace(byte) { break }
                index += 1
            }
            return index
        }
    }

    /// The value in `range` parsed; an error's offset is in the whole text.
    func parse(_ range: Range<Int>) -> Result<JSONValue, JSONError> {
        do throws(JSONError) {
            return .success(try JSON.parse(Array(bytes[range])))
        } catch {
            return .failure(JSONError(message: error.message, offset: range.lowerBound + error.offset))
        }
    }

    /// The members of the object whose `{` is the first non-blank byte at or after `start`, in
    /// order; `problem` says why the scan stopped early (the members before it are kept).
    func members(from start: Int) -> (members: [Member], problem: Problem?) {
        var members: [Member] = []
        var index = skipWhitespace(from: start)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            return ([], Problem(isNotObject: true, message: LocalizedText("snippet.json.expectedObject"), offset: index))
        }
        index = skipWhitespace(from: index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return ([], nil) }
        while true {
            guard index < bytes.count, bytes[index] == JSONLayout.quote, let keyEnd = JSONLayout.stringEnd(bytes, from: index) else {
                return (members, Problem(message: LocalizedText("snippet.json.expectedKey"), offset: index))
            }
            let key = (try? parse(index..<keyEnd).get())?.stringValue ?? ""
            let keyOffset = index
            index = skipWhitespace(from: keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                return (members, Problem(message: LocalizedText("snippet.json.expectedColon"), offset: index))
            }
            let valueStart = skipWhitespace(from: index + 1)
            guard let valueEnd = valueEnd(from: valueStart) else {
                return (members, Problem(message: LocalizedText("snippet.json.valueNotClosed"), offset: valueStart))
            }
            members.append(Member(key: key, keyOffset: keyOffset, value: valueStart..<valueEnd))
            index = skipWhitespace(from: valueEnd)
            guard index < bytes.count else { return (members, Problem(message: LocalizedText("snippet.json.objectNotClosed"), offset: index)) }
            if bytes[index] == UInt8(ascii: "}") { return (members, nil) }
            guard bytes[index] == UInt8(ascii: ",") else {
                return (members, Problem(message: LocalizedText("snippet.json.expectedCommaOrBrace"), offset: index))
            }
            index = skipWhitespace(from: index + 1)
        }
    }

    /// The elements of the array in `range` (already parsed, so well formed), in order.
    func elements(of range: Range<Int>) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var index = skipWhitespace(from: range.lowerBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "[") else { return [] }
        index = skipWhitespace(from: index + 1)
        while index < range.upperBound, bytes[index] != UInt8(ascii: "]"), let end = valueEnd(from: index), end > index,
              end <= range.upperBound {
            elements.append(index..<end)
            index = skipWhitespace(from: end)
            if index < range.upperBound, bytes[index] == UInt8(ascii: ",") { index = skipWhitespace(from: index + 1) }
        }
        return elements
    }

    /// The offset in the text of the byte that is `decodedOffset` bytes into the decoded value
    /// of the string whose opening quote is at `quote` (escapes counted as what they decode to).
    func sourceOffset(ofDecoded decodedOffset: Int, inStringAt quote: Int) -> Int {
        var index = quote + 1
        var decoded = 0
        while index < bytes.count, decoded < decodedOffset, bytes[index] != JSONLayout.quote {
            guard bytes[index] == JSONLayout.backslash, index + 1 < bytes.count else {
                decoded += 1
                index += 1
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "u") else {
                decoded += 1
                index += 2
                continue
            }
            let unit = hex4(at: index + 2) ?? 0xFFFD
            if (0xD800..<0xDC00).contains(unit), index + 11 < bytes.count, bytes[index + 6] == JSONLayout.backslash,
               bytes[index + 7] == UInt8(ascii: "u"), let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low) {
                decoded += 4
                index += 12
            } else {
                decoded += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
                index += 6
            }
        }
        return index
    }

    private func hex4(at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
