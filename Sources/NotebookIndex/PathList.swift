// A list of paths kept in byte order, for the catalog's tables.

/// The paths listed under one key of a catalog table, in byte order, once each. The first is
/// kept inline: most keys (a path, a stem, a title) belong to one note, and an array of one
/// costs an allocation and 48 bytes per key. (Paths are never empty: an empty `head` is the
/// empty list.)
struct PathList: RandomAccessCollection, Sendable, Equatable {
    private var head: String
    private var tail: [String] = []

    init(_ path: String = "") { head = path }

    var startIndex: Int { 0 }
    var endIndex: Int { head.isEmpty && tail.isEmpty ? 0 : tail.count + 1 }
    subscript(position: Int) -> String { position == 0 ? head : tail[position - 1] }

    /// Inserts `path` in order, unless it is there already.
    mutating func insertSorted(_ path: String) {
        if isEmpty {
            head = path
            return
        }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < path { low = middle + 1 } else { high = middle }
        }
        if low < count && self[low] == path { return }
        if low == 0 {
            tail.insert(head, at: 0)
            head = path
        } else {
            tail.insert(path, at: low - 1)
        }
    }

    /// Removes `path`; false when nothing would be left (the caller drops the key).
    mutating func remove(_ path: String) -> Bool {
        guard let index = firstIndex(of: path) else { return true }
        if index > 0 {
            tail.remove(at: index - 1)
            return true
        }
        guard !tail.isEmpty else { return false }
        head = tail.removeFirst()
        return true
    }
}
