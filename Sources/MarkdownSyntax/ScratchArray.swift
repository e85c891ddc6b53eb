// A growable array of plain values for the parsers' own stacks and tables.
//
// Invariants: a `ScratchArray` is non-copyable, so it is the only owner of its memory and writes
// it in place: no copy-on-write and no uniqueness check per write (an `Array` in a parser's
// `mutating` method pays a call into the runtime for each element written). Indices are the
// parser's own (stack depths, node ids it made); they are checked by `assert` in debug builds.

import TextCore

/// A growable array of `BitwiseCopyable` values owned by one parser.
struct ScratchArray<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = HugePages.allocate(Element.self, capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The last element, if any.
    var last: Element? { count > 0 ? base[count - 1] : nil }

    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            // l10n-exempt: a programming error, never shown to a writer
            assert(index >= 0 && index < count, "ScratchArray: index out of range")
            return UnsafePointer(base + index)
        }
        @inline(__always) unsafeMutableAddress {
            // l10n-exempt: a programming error, never shown to a writer
            assert(index >= 0 && index < count, "ScratchArray: index out of range")
            return base + index
        }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends the elements of `elements`.
    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress else { return }
        let added = elements.count
        if count + added > capacity { grow(to: Swift.max(capacity * 2, count + added)) }
        (base + count).initialize(from: source, count: added)
        count += added
    }

    /// Calls `body` with the elements as a buffer.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Removes and returns the last element (the array must not be empty).
    @inline(__always) @discardableResult
    mutating func removeLast() -> Element {
        // l10n-exempt: a programming error, never shown to a writer
        assert(count > 0, "ScratchArray: removeLast of an empty array")
        count -= 1
        return base[count]
    }

    /// Empties the array, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// Makes room for `minimumCapacity` elements.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    @inline(never)
    private mutating func grow(to newCapacity: Int) {
        let newBase = HugePages.allocate(Element.self, capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
