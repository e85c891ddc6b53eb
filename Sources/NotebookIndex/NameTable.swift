// A table from names (a note's stem, title, alias, path without extension) to the notes having
// them, that keeps no name: each entry is a 32-bit hash of the name and the note's number.
//
// Invariants:
// - One open-addressed array of 64-bit slots (linear probing, at most three quarters used,
//   removed entries left as tombstones until the next resize): the hash in the high half, the
//   note's number plus one in the low half (0: empty; `tombstone`: removed).
// - The table answers candidates by hash only: the catalog compares each candidate's name,
//   worked out from the note, with the name asked for (`NoteCatalog.paths(_:_:)`). So a hash
//   collision costs a comparison, never a wrong note.
// - An entry (hash, number) is in the table at most once.
//
// Where a `[String: PathList]` kept every key's String and a 40-byte bucket per key, a slot is
// 8 bytes.

import TextCore
struct NameTable: Sendable {
    private var slots: [UInt64] = []
    /// Entries in the table.
    private(set) var count = 0
    /// Entries and tombstones: what probing walks over.
    private var used = 0

    private static let tombstone: UInt64 = 0xFFFF_FFFF

    init() {}

    var isEmpty: Bool { count == 0 }

    /// The hash a name is filed under (the String hash `Dictionary` uses, so canonically
    /// equivalent names share it; made by `quickHashValue`, which gives the same).
    static func hash(_ name: String) -> UInt32 {
        fold(name.quickHashValue)
    }

    /// A String hash folded to 32 bits.
    private static func fold(_ hash: Int) -> UInt32 {
        let full = UInt64(bitPattern: Int64(hash))
        return UInt32(truncatingIfNeeded: full ^ (full >> 32))
    }

    /// `hash(name.folded)` for the UTF-8 `name`, without making either String, when folding
    /// changes nothing but ASCII capitals and the text hashes as its bytes (`isInertInNFC`);
    /// nil otherwise (hash the folded String).
    static func hashOfFolded(_ name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let hasCapitals = String.foldingKind(of: name), String.isInertInNFC(name) else { return nil }
        var hasher = Hasher()
        if hasCapitals {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count) { folded in
                for index in 0..<name.count {
                    let byte = name[index]
                    folded[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                }
                String.hashInNFC(UnsafeBufferPointer(folded), into: &hasher)
            }
        } else {
            String.hashInNFC(name, into: &hasher)
        }
        return fold(hasher.finalize())
    }

    /// Makes room for `capacity` entries without a resize.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = NameTable.slotCount(for: capacity)
        if needed > slots.count { resize(to: needed) }
    }

    /// Files the note `number` under `hash` (nothing when it is filed there already).
    mutating func insert(_ number: Int32, hash: UInt32) {
        if (used + 1) * 4 > slots.count * 3 { resize(to: NameTable.slotCount(for: count + 1)) }
        let entry = NameTable.entry(number, hash)
        let mask = slots.count - 1
        var index = Int(hash) & mask
        var free: Int?
        while slots[index] != 0 {
            if slots[index] == entry { return }
            if free == nil, slots[index] & 0xFFFF_FFFF == NameTable.tombstone { free = index }
            index = (index + 1) & mask
        }
        if let free {
            slots[free] = entry
        } else {
            slots[index] = entry
            used += 1
        }
        count += 1
    }

    /// Takes the note `number` out from under `hash` (nothing when it is not there).
    mutating func remove(_ number: Int32, hash: UInt32) {
        guard !slots.isEmpty else { return }
        let entry = NameTable.entry(number, hash)
        let mask = slots.count - 1
        var index = Int(hash) & mask
        while slots[index] != 0 {
            if slots[index] == entry {
                slots[index] = UInt64(hash) << 32 | NameTable.tombstone
                count -= 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Calls `body` with the number of every note filed under `hash` (some may have another
    /// name with the same hash).
    func forEachCandidate(hash: UInt32, _ body: (Int32) -> Void) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var index = Int(hash) & mask
        while slots[index] != 0 {
            let slot = slots[index]
            if slot >> 32 == UInt64(hash), slot & 0xFFFF_FFFF != NameTable.tombstone {
                body(Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1)
            }
            index = (index + 1) & mask
        }
    }

    /// The entries whose hash another entry has too, grouped by hash: where names may be shared.
    /// (The slots sorted, runs of one hash read off: no table of every entry.)
    func entriesSharingHashes() -> [[Int32]] {
        var entries = slots.filter { $0 != 0 && $0 & 0xFFFF_FFFF != NameTable.tombstone }
        entries.sort()
        var groups: [[Int32]] = []
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end] >> 32 == entries[start] >> 32 { end += 1 }
            if end - start > 1 { groups.append(entries[start..<end].map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) - 1 }) }
            start = end
        }
        return groups
    }

    private static func entry(_ number: Int32, _ hash: UInt32) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(bitPattern: number) &+ 1)
    }

    /// A power of two with room for `count` entries at three quarters full.
    private static func slotCount(for count: Int) -> Int {
        var size = 8
        while size * 3 < count * 4 + 4 { size *= 2 }
        return size
    }

    /// Moves the entries into `size` slots, dropping the tombstones.
    private mutating func resize(to size: Int) {
        let old = slots
        slots = [UInt64](repeating: 0, count: size)
        used = 0
        count = 0
        let mask = size - 1
        for slot in old where slot != 0 && slot & 0xFFFF_FFFF != NameTable.tombstone {
            var index = Int(slot >> 32) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = slot
            used += 1
            count += 1
        }
    }
}
