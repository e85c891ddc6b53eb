// Where a `$` formula closes: the stops of one block's dollar scan, indexed once so that each
// opener finds its closer in constant time.
//
// Invariants:
// - The scan is the one commonmark-hs and pandoc share (`pDollarsMath`): a backslash takes the next
//   byte with it, unescaped `{` and `}` nest, and the formula ends at the first unescaped `$` at the
//   opener's brace level; an unescaped `}` at that level before it means there is no formula.
//   So the answer for an opener is "the next stop (`$` or `}`) at the opener's level".
// - Built at most once per block, from the block's first opener to its end, in one forward and one
//   backward pass: linear in the block whatever it holds (100,000 `${` no longer rescan the rest
//   of the block from every opener).
// - Lookups come in increasing order (the inline pass only moves forward), so finding an opener's
//   own stop is a step of a cursor. An opener the index does not hold (its backslash pairing read
//   otherwise, which needs a construct ending inside a run of backslashes) has no closer.

/// The unescaped `$` and `}` of a block from its first `$` opener on, each linked to the next stop
/// at its brace level. The inline parser keeps one and reuses its storage from block to block.
struct DollarMathStops {
    private struct Stop {
        var position: Int32
        /// Brace depth before the byte, counted from the first opener (may go below 0).
        var level: Int32
        /// Index of the next stop at the same level, -1 for none.
        var next: Int32
    }

    private var stops: [Stop] = []
    /// Scratch of the backward pass: the nearest stop seen so far at each level.
    private var nearestAtLevel: [Int32] = []
    private var cursor = 0
    /// False until `build` runs in the current block.
    private(set) var isBuilt = false

    /// Forgets the previous block (its storage is kept).
    mutating func reset() {
        isBuilt = false
    }

    /// Indexes the stops of `bytes[start..<end]`; `start` is the block's first `$` opener.
    mutating func build(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        isBuilt = true
        cursor = 0
        if !stops.isEmpty { stops.removeAll(keepingCapacity: true) }
        var level = 0
        var lowest = 0
        var highest = 0
        var index = start
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 2
                continue
            case UInt8(ascii: "{"):
                level += 1
            case UInt8(ascii: "}"), UInt8(ascii: "$"):
                stops.append(Stop(position: Int32(clamping: index), level: Int32(clamping: level), next: -1))
                lowest = min(lowest, level)
                highest = max(highest, level)
                if bytes[index] == UInt8(ascii: "}") { level -= 1 }
            default:
                break
            }
            index += 1
        }
        guard !stops.isEmpty else { return }
        // Backward: each stop learns the nearest stop after it at its level.
        let levels = highest - lowest + 1
        if nearestAtLevel.count < levels {
            nearestAtLevel = Array(repeating: -1, count: levels)
        } else {
            for slot in 0..<levels { nearestAtLevel[slot] = -1 }
        }
        for stop in stops.indices.reversed() {
            let slot = Int(stops[stop].level) - lowest
            stops[stop].next = nearestAtLevel[slot]
            nearestAtLevel[slot] = Int32(stop)
        }
    }

    /// The `$` that ends a formula whose content starts after the unescaped `$` at `dollar` (the
    /// opener of `$…$`, or the second `$` of `$$…$$`): the next stop at its brace level, when that
    /// stop is a `$`. Nil when a `}` closes the level first, when nothing does, or when `dollar` is
    /// not a stop of the index. `dollar` must not decrease between calls in one block.
    mutating func closer(after dollar: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        while cursor < stops.count, Int(stops[cursor].position) < dollar { cursor += 1 }
        guard cursor < stops.count, Int(stops[cursor].position) == dollar else { return nil }
        let next = stops[cursor].next
        guard next >= 0 else { return nil }
        let position = Int(stops[Int(next)].position)
        return bytes[position] == UInt8(ascii: "$") ? position : nil
    }
}
