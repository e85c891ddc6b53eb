// TextCore: the text primitives every other MacMD module builds on.
//
// Invariants of this module:
// - Offsets are UTF-8 byte offsets into a document's bytes, 0-based, and named `utf8Offset`.
// - Lines are 0-based everywhere in MacMD (`line` 0 is the first line); columns are 0-based too
//   and carry their unit in the name (`utf8Column`, `utf16Column`, `utf32Column`).
// - `\n`, `\r\n` and `\r` each end a line; `\r\n` is one line ending, never two.
// - UTF-16 exists only here (in `LineIndex`) and in the server, which speaks LSP.
// - Nothing in this module traps on any input: positions are clamped, and invalid UTF-8 is read
//   as one U+FFFD (one code point, one UTF-16 unit) per invalid byte.

/// The unit of a column: what a client counts when it says "character 5 of line 3".
///
/// LSP 3.17 calls this the position encoding (`utf-8`, `utf-16`, `utf-32`).
public enum ColumnUnit: String, Sendable, CaseIterable {
    /// Bytes of UTF-8.
    case utf8 = "utf-8"
    /// UTF-16 code units: a character outside the Basic Multilingual Plane counts 2.
    case utf16 = "utf-16"
    /// Unicode code points (scalars).
    case utf32 = "utf-32"
}

extension String {
    /// A String of the UTF-8 bytes `body` writes into a scratch buffer of `capacity` bytes (on
    /// the stack when it is small), returning how many it wrote; invalid bytes are repaired.
    ///
    /// Cheaper than `String(unsafeUninitializedCapacity:initializingUTF8With:)`, which calls
    /// its closure through a function pointer and validates in a second pass: index keys and
    /// slugs are made this way by the thousand during a scan.
    @inlinable
    public static func writingUTF8(capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) { buffer in
            let count = Swift.min(Swift.max(body(buffer), 0), buffer.count)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }
}
