// The node arena of a syntax tree: every `Node` of a document in one block of memory.
//
// Invariants:
// - `NodeArena` is a value: a copy shares its storage until one of them is written, which then
//   copies it first (copy-on-write, as an array does). Every public write checks.
// - The parsers build a tree that nothing else holds yet; they make its storage their own once
//   (`makeUniqueForBuilding`) and then write nodes in place through `SyntaxTree.arena`, with no
//   uniqueness check per write: a check per write was a call into the runtime for most fields the
//   parsers set. Node ids they use are ids they made, checked by `assert` in debug builds (the
//   tests').

import TextCore

/// The nodes of a `SyntaxTree`, indexed by `NodeID` (as `Int`): a random-access, mutable
/// collection with the value semantics of `[Node]`.
public struct NodeArena: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    // @unchecked: the storage is a class, written only when this arena holds the one reference
    // to it (a public write copies it first; the parsers write trees that are theirs alone).

    /// The memory of the nodes (`Node` is a plain value: no initialisation or deinitialisation
    /// is needed beyond writing it). Its fields are read and written without the runtime's
    /// exclusivity check (a call per access): only the arena that holds the storage alone
    /// writes them, and never while reading them.
    @usableFromInline final class Storage {
        @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<Node>
        @exclusivity(unchecked) @usableFromInline var count = 0
        @exclusivity(unchecked) @usableFromInline var capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = Swift.max(capacity, 1)
            base = HugePages.allocate(Node.self, capacity: self.capacity)
        }

        deinit { base.deallocate() }

        /// A copy holding the same nodes, with room for at least `capacity`.
        @usableFromInline func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(capacity, count))
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }

        /// Moves the nodes to a block with room for `newCapacity` (at least `count`).
        @usableFromInline @inline(never) func grow(to newCapacity: Int) {
            let newBase = HugePages.allocate(Node.self, capacity: Swift.max(newCapacity, count, 1))
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = Swift.max(newCapacity, count, 1)
        }
    }

    @usableFromInline var storage: Storage

    /// An empty arena.
    public init() { storage = Storage(capacity: 1) }

    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.count }
    @inlinable public var count: Int { storage.count }
    @inlinable public var indices: Range<Int> { 0..<storage.count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    /// How many nodes fit before the memory has to grow.
    public var capacity: Int { storage.capacity }

    @inlinable public subscript(position: Int) -> Node {
        get {
            // l10n-exempt: a programming error, never shown to a writer
            precondition(UInt(bitPattern: position) < UInt(bitPattern: storage.count), "NodeArena: index out of range")
            return storage.base[position]
        }
        _modify {
            makeUnique()
            // l10n-exempt: a programming error, never shown to a writer
            precondition(UInt(bitPattern: position) < UInt(bitPattern: storage.count), "NodeArena: index out of range")
            yield &storage.base[position]
        }
    }

    /// Makes the storage this arena's own (a copy when it is shared).
    @inlinable mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(capacity: storage.capacity) }
    }

    /// Makes the storage this arena's own, for a parser that then writes it in place.
    mutating func makeUniqueForBuilding() { makeUnique() }

    /// Appends a node.
    public mutating func append(_ node: Node) {
        makeUnique()
        appendUnique(node)
    }

    /// Appends a node to storage that is this arena's own. Grows by half rather than doubling:
    /// the arena is the largest structure of a big document, and doubling would briefly hold
    /// three times its size.
    @inline(__always)
    mutating func appendUnique(_ node: Node) {
        let count = storage.count
        if count == storage.capacity { storage.grow(to: count + count / 2 + 64) }
        (storage.base + count).initialize(to: node)
        storage.count = count + 1
    }

    /// Makes room for `minimumCapacity` nodes.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(capacity: Swift.max(minimumCapacity, storage.count))
        } else if minimumCapacity > storage.capacity {
            storage.grow(to: minimumCapacity)
        }
    }

    /// Removes every node, keeping the memory when asked (and when it is this arena's own).
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        if keepCapacity && isKnownUniquelyReferenced(&storage) {
            storage.count = 0
        } else {
            storage = Storage(capacity: keepCapacity ? storage.capacity : 1)
        }
    }

    /// Calls `body` with the nodes as a buffer.
    public func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Node>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) {
            try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
        }
    }

    /// The parsers' view of the nodes (see the file comment): valid until the next node is
    /// appended, which may move them.
    @inline(__always)
    var unsafeSlots: NodeSlots { NodeSlots(base: storage.base, count: storage.count) }
}

/// The nodes of an arena under construction, read and written in place by node id.
struct NodeSlots {
    let base: UnsafeMutablePointer<Node>
    let count: Int

    @inline(__always)
    subscript(id: NodeID) -> Node {
        unsafeAddress {
            // l10n-exempt: a programming error, never shown to a writer
            assert(id >= 0 && Int(id) < count, "NodeSlots: no such node")
            return UnsafePointer(base + Int(id))
        }
        nonmutating unsafeMutableAddress {
            // l10n-exempt: a programming error, never shown to a writer
            assert(id >= 0 && Int(id) < count, "NodeSlots: no such node")
            return base + Int(id)
        }
    }
}

extension NodeSlots {
    /// Appends `child` (a node with no parent) as the last child of `parent`.
    @inline(__always)
    func link(_ child: NodeID, under parent: NodeID) {
        let last = self[parent].lastChild
        self[child].parent = parent
        self[child].previous = last
        self[child].next = .none
        if last == .none {
            self[parent].firstChild = child
        } else {
            self[last].next = child
        }
        self[parent].lastChild = child
    }

    /// Inserts `node` (with no parent) right after `sibling`.
    func insert(_ node: NodeID, after sibling: NodeID) {
        let parent = self[sibling].parent
        let next = self[sibling].next
        self[node].parent = parent
        self[node].previous = sibling
        self[node].next = next
        self[sibling].next = node
        if next == .none {
            if parent != .none { self[parent].lastChild = node }
        } else {
            self[next].previous = node
        }
    }

    /// Unlinks `node` from its parent and siblings (it stays in the arena, detached).
    func unlink(_ node: NodeID) {
        let n = self[node]
        if n.previous != .none { self[n.previous].next = n.next }
        else if n.parent != .none { self[n.parent].firstChild = n.next }
        if n.next != .none { self[n.next].previous = n.previous }
        else if n.parent != .none { self[n.parent].lastChild = n.previous }
        self[node].parent = .none
        self[node].next = .none
        self[node].previous = .none
    }
}

extension SyntaxTree {
    /// The parsers' in-place view of `nodes`, for a tree under construction whose arena is
    /// theirs alone (`NodeArena.makeUniqueForBuilding`); valid until the next `buildNode`.
    var arena: NodeSlots {
        @inline(__always) get { nodes.unsafeSlots }
    }

    /// Appends a node to a tree under construction and returns its id.
    @inline(__always)
    mutating func buildNode(_ node: Node) -> NodeID {
        nodes.appendUnique(node)
        return NodeID(truncatingIfNeeded: nodes.count - 1)
    }
}
