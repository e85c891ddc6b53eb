// LSP positions and ranges, and the position encodings a client may negotiate.

import JSON
import JSONRPC
import TextCore

/// `general.positionEncodings` values. MacMD prefers UTF-8 (no conversion), then UTF-32, and
/// falls back to UTF-16, the protocol's default.
public enum PositionEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"

    public var columnUnit: ColumnUnit {
        switch self {
        case .utf8: return .utf8
        case .utf16: return .utf16
        case .utf32: return .utf32
        }
    }

    /// Picks from what the client offers (in any order): utf-8, else utf-32, else utf-16.
    public static func negotiate(offered: [String]) -> PositionEncoding {
        if offered.contains(PositionEncoding.utf8.rawValue) { return .utf8 }
        if offered.contains(PositionEncoding.utf32.rawValue) { return .utf32 }
        return .utf16
    }
}

/// A 0-based line and a column in the negotiated encoding.
public struct LSPPosition: Sendable, Equatable, LSPDecodable, LSPEncodable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        _ = try reader.object()
        line = try reader.field("line").int()
        character = try reader.field("character").int()
    }

    public var json: JSONValue { .object("line", .int(Int64(line)), "character", .int(Int64(character))) }
}

public struct LSPRange: Sendable, Equatable, LSPDecodable, LSPEncodable {
    public var start: LSPPosition
    public var end: LSPPosition

    public init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        _ = try reader.object()
        start = try LSPPosition(reader.field("start"))
        end = try LSPPosition(reader.field("end"))
    }

    public var json: JSONValue { .object("start", start.json, "end", end.json) }
}

extension LineIndex {
    /// The UTF-8 offset of an LSP position (clamped as `utf8Offset(of:unit:)` clamps).
    public func utf8Offset(of position: LSPPosition, encoding: PositionEncoding) -> Int {
        utf8Offset(of: LineColumn(line: position.line, column: position.character), unit: encoding.columnUnit)
    }

    /// The LSP position of a UTF-8 offset.
    public func lspPosition(ofUTF8Offset offset: Int, encoding: PositionEncoding) -> LSPPosition {
        let lc = lineColumn(ofUTF8Offset: offset, unit: encoding.columnUnit)
        return LSPPosition(line: lc.line, character: lc.column)
    }
}
