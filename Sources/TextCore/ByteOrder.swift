// Byte order for byte strings kept in one buffer, as ranges of it: how the folder walk sorts the
// paths it finds, and completion the notes of a notebook. For UTF-8 text in NFC it is the order
// of `String`, without a Unicode comparison each time.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum ByteOrder {
    /// Whether the bytes of `bytes` in `a` come before those in `b` (`memcmp`; a prefix first).
    public static func precedes(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return a.count < b.count }
        let order = memcmp(base + a.lowerBound, base + b.lowerBound, min(a.count, b.count))
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// The indices of `ranges` in the byte order of what they cover in `bytes` (stable: equal
    /// bytes keep their indices' order).
    ///
    /// The sort moves 16-byte keys, each the range's first 8 bytes as a big-endian number (zero
    /// padded, which orders a shorter range first where byte order does) and its index; only
    /// keys with equal numbers compare whole ranges, so most comparisons are one integer
    /// comparison rather than a `memcmp` call.
    public static func sortedIndices(_ ranges: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        struct Key {
            var prefix: UInt64
            var index: Int
        }
        var keys: [Key] = []
        keys.reserveCapacity(ranges.count)
        for (index, range) in ranges.enumerated() {
            var prefix: UInt64 = 0
            for offset in 0..<8 {
                let position = range.lowerBound + offset
                prefix = prefix << 8 | UInt64(position < range.upperBound ? bytes[position] : 0)
            }
            keys.append(Key(prefix: prefix, index: index))
        }
        keys.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            return precedes(ranges[a.index], ranges[b.index], in: bytes)
        }
        return keys.map(\.index)
    }
}
