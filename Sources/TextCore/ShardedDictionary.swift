// A dictionary split into shards by key hash, so a copy shares all but the shard a change
// touches: the notebook's big tables (every note's symbols by path) are held by snapshots that
// requests read while edits change the tables, and with one `Dictionary`, an edit made while any
// snapshot is alive copied the whole table (every note's fields retained, under the state
// lock).
//
// Invariants:
// - A key lives in shard `shardHash & (shardCount - 1)`: a hash of its own, cheaper than
//   `hashValue` (a key is hashed twice, once to find its shard and once in it), and the same
//   in every process; nothing may depend on the order of iteration all the same.
// - `count` is the sum of the shards' counts.
// - A change copies (when shared) the shard of its key and the array of shard references: a cost
//   of about `count / shardCount` entries, not `count`.

/// A key of a `ShardedDictionary`: `shardHash` picks its shard.
public protocol ShardKey: Hashable {
    /// Any well-mixed hash of the key that equal keys share (its low bits pick the shard).
    var shardHash: UInt64 { get }
}

extension String: ShardKey {
    /// The UTF-8 bytes, eight at a time, mixed by multiplication (FxHash's step), then folded so
    /// the low bits depend on all of them: a few nanoseconds for a path, where `hashValue` runs
    /// SipHash.
    @inlinable
    public var shardHash: UInt64 {
        var copy = self
        return copy.withUTF8 { bytes -> UInt64 in
            var hash: UInt64 = UInt64(bytes.count)
            var index = 0
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self)
                hash = (hash.rotatedLeft(5) ^ word) &* 0x517C_C1B7_2722_0A95
                index += 8
            }
            while index < bytes.count {
                hash = (hash.rotatedLeft(5) ^ UInt64(bytes[index])) &* 0x517C_C1B7_2722_0A95
                index += 1
            }
            return hash ^ (hash >> 29) ^ (hash >> 47)
        }
    }
}

extension UInt64 {
    @usableFromInline
    func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}

/// A `Dictionary` in `shardCount` parts; its API is the part of `Dictionary`'s the notebook uses.
public struct ShardedDictionary<Key: ShardKey, Value>: Sequence {
    public typealias Element = (key: Key, value: Value)

    /// How many shards: a copy made by a change costs about `count / shardCount` entries and
    /// this many references.
    public static var shardCount: Int { 256 }

    private var shards: [[Key: Value]]
    public private(set) var count: Int = 0

    public init() {
        shards = Array(repeating: [:], count: Self.shardCount)
    }

    @inline(__always)
    static func shard(of key: Key) -> Int { Int(truncatingIfNeeded: key.shardHash) & (shardCount - 1) }

    public var isEmpty: Bool { count == 0 }

    public subscript(key: Key) -> Value? {
        get { shards[Self.shard(of: key)][key] }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    public subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get { shards[Self.shard(of: key)][key] ?? defaultValue() }
        _modify {
            let shard = Self.shard(of: key)
            let before = shards[shard].count
            yield &shards[shard][key, default: defaultValue()]
            count += shards[shard].count - before
        }
    }

    /// Sets the value of `key`; returns the value it replaced, nil when it had none.
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let old = shards[Self.shard(of: key)].updateValue(value, forKey: key)
        if old == nil { count += 1 }
        return old
    }

    /// Removes `key`; returns its value, nil when it had none.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        let old = shards[Self.shard(of: key)].removeValue(forKey: key)
        if old != nil { count -= 1 }
        return old
    }

    /// Makes room for `capacity` entries in all (spread over the shards).
    public mutating func reserveCapacity(_ capacity: Int) {
        let each = (capacity + Self.shardCount - 1) / Self.shardCount
        for index in shards.indices where shards[index].capacity < each { shards[index].reserveCapacity(each) }
    }

    public var keys: LazyMapSequence<ShardedDictionary, Key> { lazy.map(\.key) }
    public var values: LazyMapSequence<ShardedDictionary, Value> { lazy.map(\.value) }

    /// The shards, for work split over threads (each one a part of the whole, disjoint).
    public var parts: [[Key: Value]] { shards }

    public var underestimatedCount: Int { count }

    public struct Iterator: IteratorProtocol {
        private let shards: [[Key: Value]]
        private var shard = 0
        private var inner: Dictionary<Key, Value>.Iterator?

        init(_ shards: [[Key: Value]]) {
            self.shards = shards
            inner = shards.first?.makeIterator()
        }

        public mutating func next() -> Element? {
            while inner != nil {
                if let element = inner?.next() { return element }
                shard += 1
                inner = shard < shards.count ? shards[shard].makeIterator() : nil
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(shards) }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}
extension ShardedDictionary.Iterator: Sendable where Key: Sendable, Value: Sendable {}

extension ShardedDictionary: Equatable where Value: Equatable {
    public static func == (a: ShardedDictionary, b: ShardedDictionary) -> Bool {
        a.count == b.count && a.shards == b.shards
    }
}

extension ShardedDictionary: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}
