// JSONParser: a strict RFC 8259 parser over a byte buffer, with explicit stacks.
//
// Invariants:
// - `position` only grows and every read checks it against `bytes.count` first.
// - Open containers live in `frames`; their finished children wait on `values` (and, for
//   objects, their keys on `keys`) until the closing bracket folds them into one value. So the
//   nesting depth costs heap, never call stack, and is capped at `JSON.maxDepth`.
// - Strings without escapes become `String`s straight from their byte range; strings with
//   escapes are assembled in one reused scratch buffer. `String(decoding:as:)` replaces
//   invalid UTF-8 with U+FFFD.

import Localization

struct JSONParser {
    private struct Frame {
        var isObject: Bool
        var valueStart: Int
        var keyStart: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var frames: [Frame] = []
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Document structure

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        while true {
            // A value is expected at `position`.
            if try parseValueOrOpen() {
                // A container was opened and its first child is expected next.
                continue
            }
            // A value is complete: close containers as long as their closing bracket follows.
            while true {
                skipWhitespace()
                guard let frame = frames.last else {
                    guard position == bytes.count else {
                        throw JSONError(LocalizedText("json.error.characterAfterValue"), offset: position)
                    }
                    return values.last ?? .null
                }
                guard position < bytes.count else {
                    throw JSONError(LocalizedText(frame.isObject ? "json.error.unterminatedObject" : "json.error.unterminatedArray"), offset: position)
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if frame.isObject {
                        try parseKeyAndColon(afterComma: true)
                    } else if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                        throw JSONError(LocalizedText("json.error.trailingCommaInArray"), offset: position)
                    }
                    break
                } else if frame.isObject, byte == UInt8(ascii: "}") {
                    position += 1
                    closeObject()
                } else if !frame.isObject, byte == UInt8(ascii: "]") {
                    position += 1
                    closeArray()
                } else {
                    throw JSONError(
                        LocalizedText(frame.isObject ? "json.error.expectedCommaInObject" : "json.error.expectedCommaInArray"),
                        offset: position)
                }
            }
        }
    }

    /// Parses a scalar onto `values`, or opens a container; returns true when a non-empty
    /// container was opened (so its first child comes next).
    private mutating func parseValueOrOpen() throws(JSONError) -> Bool {
        guard position < bytes.count else {
            throw JSONError(LocalizedText("json.error.endOfInput"), offset: position)
        }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try openFrame(isObject: true)
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                closeObject()
                return false
            }
            try parseKeyAndColon(afterComma: false)
            return true
        case UInt8(ascii: "["):
            try openFrame(isObject: false)
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                closeArray()
                return false
            }
            return true
        case UInt8(ascii: "\""):
            values.append(.string(try parseString()))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            values.append(.bool(true))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            values.append(.bool(false))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            values.append(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            values.append(try parseNumber())
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            throw JSONError(LocalizedText("json.error.expectedValue"), offset: position)
        default:
            throw JSONError(LocalizedText("json.error.unexpectedCharacter"), offset: position)
        }
        return false
    }

    private mutating func openFrame(isObject: Bool) throws(JSONError) {
        guard frames.count < JSON.maxDepth else {
            throw JSONError(LocalizedText("json.error.tooDeep", .integer(JSON.maxDepth)), offset: position)
        }
        position += 1
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
    }

    /// Reads `"key"` then `:` (and the whitespace around it) inside an object.
    private mutating func parseKeyAndColon(afterComma: Bool) throws(JSONError) {
        guard position < bytes.count else {
            throw JSONError(LocalizedText("json.error.unterminatedObject"), offset: position)
        }
        guard bytes[position] == UInt8(ascii: "\"") else {
            if afterComma, bytes[position] == UInt8(ascii: "}") {
                throw JSONError(LocalizedText("json.error.trailingCommaInObject"), offset: position)
            }
            throw JSONError(LocalizedText("json.error.expectedKey"), offset: position)
        }
        keys.append(try parseString())
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw JSONError(LocalizedText("json.error.expectedColon"), offset: position)
        }
        position += 1
        skipWhitespace()
    }

    private mutating func closeArray() {
        guard let frame = frames.popLast() else { return }
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        values.append(.array(elements))
    }

    private mutating func closeObject() {
        guard let frame = frames.popLast() else { return }
        let count = min(values.count - frame.valueStart, keys.count - frame.keyStart)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(count)
        for index in 0..<count {
            members[keys[frame.keyStart + index]] = values[frame.valueStart + index]
        }
        values.removeSubrange(frame.valueStart...)
        keys.removeSubrange(frame.keyStart...)
        values.append(.object(members))
    }

    // MARK: Scalars

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            guard position + index < bytes.count, bytes[position + index] == start[index] else {
                throw JSONError(LocalizedText("json.error.invalidLiteral", .string("\(literal)")), offset: position + index)
            }
        }
        position += count
    }

    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = position
        var index = position
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count else {
            throw JSONError(LocalizedText("json.error.expectedDigit"), offset: index)
        }
        var integer: Int64 = 0
        var overflow = false
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            index += 1
        } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                // Accumulate negatively so Int64.min is representable.
                let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
                let (times10, o1) = integer.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(digit)
                if o1 || o2 { overflow = true } else { integer = next }
                index += 1
            }
        } else {
            throw JSONError(LocalizedText("json.error.expectedDigit"), offset: index)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digitsStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart else {
                throw JSONError(LocalizedText("json.error.digitAfterPoint"), offset: index)
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart else {
                throw JSONError(LocalizedText("json.error.digitInExponent"), offset: index)
            }
        }
        position = index
        if isInteger && !overflow {
            if negative { return .int(integer) }
            if integer != Int64.min { return .int(-integer) }
        }
        // The grammar was checked above, so the standard library's decimal conversion (which
        // rounds correctly) only ever sees JSON number syntax.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw JSONError(LocalizedText("json.error.numberOutOfRange"), offset: start)
        }
        return .double(double)
    }

    // MARK: Strings

    /// Parses a string whose opening quote is at `position`.
    private mutating func parseString() throws(JSONError) -> String {
        let contentStart = position + 1
        // Fast path: no escapes, the string is one byte range.
        var index = ByteScan.firstSpecial(bytes, from: contentStart, to: bytes.count)
        guard index < bytes.count else {
            throw JSONError(LocalizedText("json.error.unterminatedString"), offset: index)
        }
        if bytes[index] == UInt8(ascii: "\"") {
            position = index + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while true {
            guard index < bytes.count else {
                throw JSONError(LocalizedText("json.error.unterminatedString"), offset: index)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                index = try parseEscape(at: index)
            } else if byte < 0x20 {
                throw JSONError(LocalizedText("json.error.controlCharacter"), offset: index)
            } else {
                let runStart = index
                index = ByteScan.firstSpecial(bytes, from: index + 1, to: bytes.count)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
        }
    }

    /// Decodes the escape whose backslash is at `index` into `scratch`; returns the index after it.
    private mutating func parseEscape(at index: Int) throws(JSONError) -> Int {
        guard index + 1 < bytes.count else {
            throw JSONError(LocalizedText("json.error.unterminatedString"), offset: index + 1)
        }
        let simple: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let unit = try readHex4(at: index + 2)
            var next = index + 6
            var scalar: UInt32
            if unit >= 0xD800, unit <= 0xDBFF {
                // A high surrogate counts only with a low surrogate escape right after it;
                // otherwise it is replaced and whatever follows is read on its own.
                if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u"),
                   let low = try? readHex4(at: next + 2), low >= 0xDC00, low <= 0xDFFF {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    next += 6
                } else {
                    scalar = 0xFFFD
                }
            } else if unit >= 0xDC00, unit <= 0xDFFF {
                scalar = 0xFFFD
            } else {
                scalar = unit
            }
            appendUTF8(scalar)
            return next
        default:
            throw JSONError(LocalizedText("json.error.invalidEscape"), offset: index)
        }
        scratch.append(simple)
        return index + 2
    }

    private func readHex4(at index: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard index + offset < bytes.count else {
                throw JSONError(LocalizedText("json.error.invalidUnicodeEscape"), offset: index + offset)
            }
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default:
                throw JSONError(LocalizedText("json.error.invalidUnicodeEscape"), offset: index + offset)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        }
    }
}
