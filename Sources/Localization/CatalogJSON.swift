// CatalogJSON: a small JSON reader for the string catalog, so Localization needs neither
// Foundation nor another module.
//
// Invariants:
// - It reads RFC 8259 JSON over UTF-8 bytes and throws `CatalogError` (with the byte offset) on
//   anything else; it never traps. Nesting is bounded by `maximumDepth`.
// - Numbers are kept as their text: the catalog uses them nowhere but `version`.
// - Object members keep their order; a repeated member name is an error, since a catalog with
//   the same key twice would silently lose a translation.

/// A JSON value as the catalog reader sees it.
enum CatalogJSON: Equatable {
    case object([(String, CatalogJSON)])
    case array([CatalogJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: CatalogJSON, rhs: CatalogJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)), let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The member `name` of an object; nil for other values or a missing member.
    subscript(name: String) -> CatalogJSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// How deep arrays and objects may nest; a catalog needs six levels.
    static let maximumDepth = 32

    static func parse(_ text: String) throws(CatalogError) -> CatalogJSON {
        var reader = Reader(bytes: Array(text.utf8), skip: { _, _ in false }, checksDuplicates: true)
        return try reader.document()
    }

    /// Reads `text`, leaving out the members of objects for which `skip(depth, name)` is true
    /// (their values are checked for well-formedness only, and never become Strings): a catalog
    /// read for one language need not hold the other twelve, nor the comments.
    /// A member name given twice is not looked for: a catalog read in part was read whole by the
    /// tests.
    static func parse(_ text: String, skipping skip: @escaping (Int, String) -> Bool) throws(CatalogError) -> CatalogJSON {
        var reader = Reader(bytes: Array(text.utf8), skip: skip, checksDuplicates: false)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        let skip: (Int, String) -> Bool
        let checksDuplicates: Bool
        var at = 0

        mutating func document() throws(CatalogError) -> CatalogJSON {
            skipSpace()
            let value = try value(depth: 0)
            skipSpace()
            guard at == bytes.count else { throw error("text after the JSON value") }
            return value
        }

        func error(_ message: String) -> CatalogError { CatalogError(message: message, utf8Offset: at) }

        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { at += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(CatalogError) {
            guard peek == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
            at += 1
        }

        mutating func literal(_ word: String, _ value: CatalogJSON) throws(CatalogError) -> CatalogJSON {
            let wordBytes = Array(word.utf8)
            guard bytes.count - at >= wordBytes.count, Array(bytes[at..<(at + wordBytes.count)]) == wordBytes else {
                throw error("expected a JSON value")
            }
            at += wordBytes.count
            return value
        }

        mutating func value(depth: Int) throws(CatalogError) -> CatalogJSON {
            guard depth <= CatalogJSON.maximumDepth else { throw error("nested deeper than \(CatalogJSON.maximumDepth)") }
            switch peek {
            case UInt8(ascii: "{"):
                at += 1
                var members: [(String, CatalogJSON)] = []
                var names: Set<String> = []
                skipSpace()
                if peek == UInt8(ascii: "}") { at += 1; return .object(members) }
                while true {
                    skipSpace()
                    let nameOffset = at
                    let name = try string()
                    guard !checksDuplicates || names.insert(name).inserted else {
                        throw CatalogError(message: "the member \"\(name)\" appears twice", utf8Offset: nameOffset)
                    }
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    if skip(depth, name) {
                        try skipValue(depth: depth + 1)
                    } else {
                        members.append((name, try value(depth: depth + 1)))
                    }
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .object(members)
                }
            case UInt8(ascii: "["):
                at += 1
                var elements: [CatalogJSON] = []
                skipSpace()
                if peek == UInt8(ascii: "]") { at += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte):
                let start = at
                while let byte = peek, "+-.eE0123456789".utf8.contains(byte) { at += 1 }
                return .number(String(decoding: bytes[start..<at], as: UTF8.self))
            default:
                throw error("expected a JSON value")
            }
        }

        mutating func string() throws(CatalogError) -> String {
            try expect(UInt8(ascii: "\""))
            // Most strings have no escape: one String straight from the bytes.
            let start = at
            while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { at += 1 }
            if peek == UInt8(ascii: "\"") {
                at += 1
                return String(decoding: bytes[start..<(at - 1)], as: UTF8.self)
            }
            var utf8 = Array(bytes[start..<at])
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    at += 1
                    return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    at += 1
                    utf8.append(contentsOf: String(try escape()).utf8)
                case 0..<0x20:
                    throw error("a control character in a string")
                default:
                    utf8.append(byte)
                    at += 1
                }
            }
            throw error("a string without its closing quote")
        }

        /// Moves past one value, checking its shape (strings closed, brackets matched, escapes
        /// valid) without keeping it.
        mutating func skipValue(depth: Int) throws(CatalogError) {
            guard depth <= CatalogJSON.maximumDepth else { throw error("nested deeper than \(CatalogJSON.maximumDepth)") }
            switch peek {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = peek == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let isObject = close == UInt8(ascii: "}")
                at += 1
                skipSpace()
                if peek == close { at += 1; return }
                while true {
                    skipSpace()
                    if isObject {
                        try skipString()
                        skipSpace()
                        try expect(UInt8(ascii: ":"))
                        skipSpace()
                    }
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    if peek == UInt8(ascii: ",") { at += 1; continue }
                    try expect(close)
                    return
                }
            case UInt8(ascii: "\""):
                try skipString()
            default:
                _ = try value(depth: depth)
            }
        }

        mutating func skipString() throws(CatalogError) {
            try expect(UInt8(ascii: "\""))
            // Up to the next quote, backslash or control character in one tight loop.
            at = bytes.withUnsafeBufferPointer { buffer in
                var index = at
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    index += 1
                }
                return index
            }
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    at += 1
                    return
                case UInt8(ascii: "\\"):
                    at += 1
                    _ = try escape()
                case 0..<0x20:
                    throw error("a control character in a string")
                default:
                    at += 1
                }
            }
            throw error("a string without its closing quote")
        }

        /// The character of the escape after a backslash.
        mutating func escape() throws(CatalogError) -> Unicode.Scalar {
            guard let byte = peek else { throw error("a string without its closing quote") }
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                if (0xD800..<0xDC00).contains(unit), peek == UInt8(ascii: "\\"),
                   at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "u") {
                    at += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate") }
                    guard let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                        throw error("a UTF-16 surrogate pair out of range")
                    }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(unit) else { throw error("a lone UTF-16 surrogate") }
                return scalar
            default:
                throw error("an unknown escape")
            }
        }

        mutating func hexUnit() throws(CatalogError) -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                    throw error("expected four hex digits after \\u")
                }
                unit = unit * 16 + UInt32(digit)
                at += 1
            }
            return unit
        }
    }
}

/// Why a catalog could not be read: what was wrong, and where (a UTF-8 offset, or -1 when the
/// JSON was well formed but not a catalog).
public struct CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var utf8Offset: Int

    public var description: String { utf8Offset >= 0 ? "\(message) (at byte \(utf8Offset))" : message }
}
