// ByteSpan: a half-open range of UTF-8 bytes, the unit of every range below the server.
//
// Invariants: `start` and `end` are byte offsets into one buffer (which one is said where the
// span is stored); Int32 keeps the syntax tree's nodes small, so a buffer is under 2 GiB (the
// readers refuse larger files); a span with `end <= start` is empty and its `range` is empty.

/// A half-open byte range. The unit is UTF-8 bytes; which buffer it indexes (source or content)
/// is said where the range is stored.
public struct ByteSpan: Sendable, Equatable, Hashable {
    public var start: Int32
    public var end: Int32
    public init(_ start: Int32, _ end: Int32) { self.start = start; self.end = end }
    public init(_ start: Int, _ end: Int) { self.start = Int32(clamping: start); self.end = Int32(clamping: end) }
    public static let empty = ByteSpan(Int32(0), Int32(0))
    @inlinable public var isEmpty: Bool { end <= start }
    @inlinable public var count: Int { Int(end - start) }
    @inlinable public var range: Range<Int> { Int(start)..<Int(max(start, end)) }
}
