// Building `CompletionWorkspace` from a catalog: what the server does when a scan ends and when
// names change (off the request path), so its cost is the delay before the first `[[` after
// either can be answered.
//
// Invariants:
// - Linear in the notebook (plus one sort of the paths), whatever names notes share: a note
//   whose stem others share is only marked so; its link text depends on the linking note, and
//   is worked out when a request shows it (`linkTarget(of:from:)`), from a table of its stem's
//   notes made once (`NoteCatalog.StemTable`), never by asking the resolver (which filters every
//   note of the stem each time: N² for N notes of one name).
// - The same index whether its parts are built side by side or one after the other.
// - Notes are in the order of their paths as `String` compares them.

import Dispatch
import NotebookIndex
import Locks
import TextCore

extension CompletionWorkspace {
    /// From this many notes on, the parts of the index are built side by side on the cores.
    static let sideBySideThreshold = 2_000

    /// `init(catalog:files:tagCounts:frontMatterValues:)`, its parts built side by side or one
    /// after the other.
    init(catalog: NoteCatalog, files: [String], tagCounts: [String: Int]?, frontMatterValues: [String: [String: Int]]?,
         sideBySide: Bool) {
        self.catalog = catalog
        // The paths sorted once; then parts that need nothing of each other: the notes with
        // their match keys (in two halves), and the notes that share a stem (with the files). The server builds the index when the cores are otherwise idle (a scan has
        // ended), so a large notebook has them built side by side. What `[[` does not read (the
        // folder tree, tags and front-matter values by use) is made when first read.
        let sorted = SortedNotes(catalog, sideBySide: sideBySide)
        let half = sorted.records.count / 2
        let tables = [ResultBox<NoteTable>(), ResultBox<NoteTable>()]
        let sharing = ResultBox<Set<String>>()
        let fileEntries = ResultBox<[File]>()
        let build: @Sendable (Int) -> Void = { part in
            switch part {
            case 0:
                sharing.value = catalog.pathsSharingStems()
                fileEntries.value = CompletionWorkspace.fileEntries(files, catalog: catalog)
            case 1: tables[0].value = NoteTable(sorted, 0..<half, noteExtensions: catalog.noteExtensions)
            default: tables[1].value = NoteTable(sorted, half..<sorted.records.count, noteExtensions: catalog.noteExtensions)
            }
        }
        if sideBySide {
            DispatchQueue.concurrentPerform(iterations: 3, execute: build)
        } else {
            for part in 0..<3 { build(part) }
        }
        var table = tables[0].value ?? NoteTable()
        table.append(tables[1].value ?? NoteTable())
        // A note whose stem others share is reached by a longer text than its stem, which
        // depends on where the link is written (`linkTarget(of:from:)`).
        if let sharing = sharing.value, !sharing.isEmpty {
            for index in table.notes.indices where sharing.contains(table.notes[index].path) { table.notes[index].sharesStem = true }
        }
        notes = table.notes
        noteKeys = table.keys
        keyArena = table.arena
        aliasKeys = table.aliasKeys
        let files = fileEntries.value ?? []
        self.files = files
        folderTree = LazyValue { CompletionWorkspace.folderTree(sorted, files: files) }
        // Given counts, the lists capture only them: an index kept between requests holds no
        // catalog (`CompletionIndexes`), or an edit would copy the notes it shares.
        let tagsIgnoreCase = CompletionWorkspace.tagsIgnoreCase(catalog)
        if let tagCounts {
            tagsByUse = LazyValue { CompletionWorkspace.tagsByUse(tagCounts, ignoringCase: tagsIgnoreCase) }
        } else {
            tagsByUse = LazyValue {
                CompletionWorkspace.tagsByUse(CompletionWorkspace.tagCounts(of: catalog.notes.values), ignoringCase: tagsIgnoreCase)
            }
        }
        if let frontMatterValues {
            frontMatterKeysByUse = LazyValue { CompletionWorkspace.keysByUse(frontMatterValues) }
        } else {
            frontMatterKeysByUse = LazyValue { CompletionWorkspace.keysByUse(CompletionWorkspace.frontMatterValues(of: catalog.notes.values)) }
        }
    }

    /// The catalog's notes as small records (three references each, not whole `NoteSymbols`)
    /// sorted by path, with the paths' bytes in one buffer.
    struct SortedNotes: Sendable {
        typealias Record = (path: String, title: String, aliases: [String])
        var records: [Record] = []
        /// The paths' bytes, one after another (not in `records`' order: see `pathRanges`).
        var pathBytes: [UInt8] = []
        /// Where `records[i].path` lies in `pathBytes`.
        var pathRanges: [Range<Int>] = []

        /// The notes of `catalog`, its two halves gathered and sorted side by side (or one after
        /// the other), then merged.
        init(_ catalog: NoteCatalog, sideBySide: Bool) {
            let parts = catalog.notes.parts
            let middle = parts.count / 2
            let halves = [ResultBox<SortedNotes>(), ResultBox<SortedNotes>()]
            let gather: @Sendable (Int) -> Void = { half in
                halves[half].value = SortedNotes(parts[half == 0 ? 0..<middle : middle..<parts.count])
            }
            if sideBySide {
                DispatchQueue.concurrentPerform(iterations: 2, execute: gather)
            } else {
                for half in 0..<2 { gather(half) }
            }
            self = SortedNotes(merging: halves[0].value ?? SortedNotes(), halves[1].value ?? SortedNotes())
            // By the paths' bytes is the order of `String` for text in NFC (what file systems
            // give, but for macOS's older ones), without a Unicode comparison each time: checked,
            // and sorted again as `String`s when some path out of NFC orders otherwise.
            if records.indices.dropFirst().contains(where: { records[$0].path < records[$0 - 1].path }) {
                let order = records.indices.sorted { records[$0].path < records[$1].path }
                records = order.map { records[$0] }
                pathRanges = order.map { pathRanges[$0] }
            }
        }

        init() {}

        /// The notes of some parts of the catalog, sorted by the bytes of their paths.
        init(_ parts: ArraySlice<[String: NoteSymbols]>) {
            var records: [Record] = []
            let count = parts.reduce(0) { $0 + $1.count }
            records.reserveCapacity(count)
            pathRanges.reserveCapacity(count)
            // Each note's fields read in place: a whole `NoteSymbols` copied out of the
            // dictionary is a retain and a release of every one of its fields.
            for part in parts {
                var position = part.startIndex
                while position != part.endIndex {
                    let path = part.keys[position]
                    records.append((path, part.values[position].title, part.values[position].aliases))
                    part.formIndex(after: &position)
                    let start = pathBytes.count
                    pathBytes.append(contentsOf: path.utf8)
                    pathRanges.append(start..<pathBytes.count)
                }
            }
            let order = pathBytes.withUnsafeBufferPointer { ByteOrder.sortedIndices(pathRanges, in: $0) }
            self.records = order.map { records[$0] }
            pathRanges = order.map { pathRanges[$0] }
        }

        /// The notes of `first` and `second` (each sorted by the bytes of their paths) in one
        /// list so sorted.
        init(merging first: SortedNotes, _ second: SortedNotes) {
            pathBytes = first.pathBytes + second.pathBytes
            let shift = first.pathBytes.count
            let secondRanges = second.pathRanges.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
            records.reserveCapacity(first.records.count + second.records.count)
            pathRanges.reserveCapacity(first.records.count + second.records.count)
            var (i, j) = (0, 0)
            pathBytes.withUnsafeBufferPointer { bytes in
                while i < first.records.count || j < second.records.count {
                    // The first list's note on equal bytes, so the merge is stable.
                    if j == second.records.count
                        || (i < first.records.count && !ByteOrder.precedes(secondRanges[j], first.pathRanges[i], in: bytes)) {
                        records.append(first.records[i])
                        pathRanges.append(first.pathRanges[i])
                        i += 1
                    } else {
                        records.append(second.records[j])
                        pathRanges.append(secondRanges[j])
                        j += 1
                    }
                }
            }
        }
    }

    /// The notes sorted by path, each reached by its stem (notes sharing a stem get their longer
    /// link text afterwards), with their match keys in one arena.
    struct NoteTable: Sendable {
        var notes: [Note] = []
        var keys: [NoteKeys] = []
        var arena: [UInt8] = []
        var aliasKeys: [Slice] = []

        init() {}

        /// The notes `records` of `sorted`.
        init(_ sorted: SortedNotes, _ records: Range<Int>, noteExtensions extensions: [String]) {
            notes.reserveCapacity(records.count)
            keys.reserveCapacity(records.count)
            arena.reserveCapacity(sorted.records[records].reduce(0) { $0 + $1.path.utf8.count * 2 + $1.title.utf8.count })
            // The folder of the note before, and its key: notes come by path, so most share it,
            // and its key is copied rather than folded again.
            var lastFolder: (path: Range<Int>, key: [UInt8], mask: UInt64)?
            sorted.pathBytes.withUnsafeBufferPointer { pathBytes in
                for index in records {
                    let (path, title, aliases) = sorted.records[index]
                    let range = sorted.pathRanges[index]
                    let bytes = UnsafeBufferPointer(rebasing: pathBytes[range])
                    var mask: UInt64 = 0
                    let titleKey = storeKey(title, &mask)
                    // The folder (up to the last `/`), the name, and how many folders deep.
                    var nameStart = 0
                    var depth = 0
                    for position in bytes.indices where bytes[position] == UInt8(ascii: "/") {
                        nameStart = position + 1
                        depth += 1
                    }
                    let folderEnd = max(nameStart - 1, 0)
                    // The path without its note extension (`NotebookPath.removingExtension`).
                    var bareCount = bytes.count
                    if let ext = NotebookPath.pathExtension(path), extensions.contains(ext.folded) {
                        bareCount -= ext.utf8.count + 1
                    }
                    // The path's key is its folder's folded, then its name's: lowercasing maps
                    // each scalar on its own. The folder's is the last note's when they share it.
                    let pathStart = arena.count
                    if nameStart > 0 {
                        let folder = (range.lowerBound..<(range.lowerBound + folderEnd))
                        if let last = lastFolder, last.path.count == folder.count,
                           !ByteOrder.precedes(last.path, folder, in: pathBytes), !ByteOrder.precedes(folder, last.path, in: pathBytes) {
                            arena.append(contentsOf: last.key)
                            mask |= last.mask
                        } else {
                            var folderMask: UInt64 = 0
                            let key = storeKey(UnsafeBufferPointer(rebasing: bytes[..<folderEnd]), &folderMask)
                            lastFolder = (folder, Array(arena[Int(key.start)...]), folderMask)
                            mask |= folderMask
                        }
                        arena.append(UInt8(ascii: "/"))
                        mask |= 1 << UInt64(UInt8(ascii: "/") & 63)
                    }
                    let nameKey = storeKey(UnsafeBufferPointer(rebasing: bytes[nameStart..<max(bareCount, nameStart)]), &mask)
                    let pathKey = Slice(start: Int32(clamping: pathStart), count: Int32(clamping: arena.count - pathStart))
                    // The stem is the name without its extension: its key is the end of the
                    // path's, but for a name whose extension is not a note's or that holds a `\`.
                    let stemKey: Slice
                    if bareCount < bytes.count, !bytes[nameStart..<bareCount].contains(UInt8(ascii: "\\")) {
                        stemKey = nameKey
                    } else {
                        stemKey = storeKey(NotebookPath.fileStem(of: path), &mask)
                    }
                    let aliasStart = Int32(clamping: aliasKeys.count)
                    for alias in aliases { aliasKeys.append(storeKey(alias, &mask)) }
                    // The folder as written, for closeness.
                    let folderStart = Int32(clamping: arena.count)
                    arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<folderEnd]))
                    notes.append(Note(path: path, title: title, aliases: aliases, sharesStem: false))
                    keys.append(NoteKeys(mask: mask, title: titleKey, stem: stemKey, path: pathKey,
                                         folder: Slice(start: folderStart, count: Int32(clamping: folderEnd)),
                                         aliasStart: aliasStart, aliasCount: Int32(clamping: aliases.count),
                                         depth: Int32(clamping: depth), pathLength: Int32(clamping: bytes.count)))
                }
            }
        }

        /// Appends `other`'s notes after these, its slices moved along.
        mutating func append(_ other: NoteTable) {
            let arenaBase = Int32(clamping: arena.count)
            let aliasBase = Int32(clamping: aliasKeys.count)
            func moved(_ slice: Slice) -> Slice { Slice(start: slice.start + arenaBase, count: slice.count) }
            notes += other.notes
            arena += other.arena
            aliasKeys += other.aliasKeys.map(moved)
            keys.reserveCapacity(keys.count + other.keys.count)
            for var key in other.keys {
                (key.title, key.stem, key.path, key.folder) = (moved(key.title), moved(key.stem), moved(key.path), moved(key.folder))
                key.aliasStart += aliasBase
                keys.append(key)
            }
        }

        /// Appends `bytes` folded (`CompletionMatcher.key`) to the arena, adding them to `mask`
        /// (`CompletionMatcher.mask`): ASCII in place, anything else through `String.folded`.
        mutating func storeKey(_ bytes: UnsafeBufferPointer<UInt8>, _ mask: inout UInt64) -> Slice {
            let start = arena.count
            arena.append(contentsOf: bytes)
            var isASCII = true
            var keyMask: UInt64 = 0
            arena.withUnsafeMutableBufferPointer { arena in
                for index in start..<arena.count {
                    let byte = arena[index]
                    guard byte < 0x80 else {
                        isASCII = false
                        return
                    }
                    let folded = byte &- 0x41 < 26 ? byte | 0x20 : byte
                    arena[index] = folded
                    keyMask |= 1 << UInt64(folded & 63)
                }
            }
            if !isASCII {
                arena.removeSubrange(start...)
                arena.append(contentsOf: String(decoding: bytes, as: UTF8.self).folded.utf8)
                keyMask = 0
                for byte in arena[start...] { keyMask |= 1 << UInt64(byte & 63) }
            }
            mask |= keyMask
            return Slice(start: Int32(clamping: start), count: Int32(clamping: arena.count - start))
        }

        mutating func storeKey(_ text: String, _ mask: inout UInt64) -> Slice {
            var text = text
            return text.withUTF8 { storeKey($0, &mask) }
        }
    }

    /// The files that are not notes, sorted by path.
    static func fileEntries(_ files: [String], catalog: NoteCatalog) -> [File] {
        var entries: [File] = []
        var seen: Set<String> = []
        for raw in files {
            let path = CompletionPath.normalized(raw) ?? raw
            guard !path.isEmpty, catalog.notes[path] == nil, seen.insert(path).inserted else { continue }
            let folder = CompletionPath.folder(of: path)
            let key = CompletionMatcher.key(path)
            entries.append(File(path: path, key: key, mask: CompletionMatcher.mask(key), folder: Array(folder.utf8),
                                depth: folder.isEmpty ? 0 : folder.utf8.count(where: { $0 == 0x2F }) + 1,
                                isImage: CompletionPath.isImage(path)))
        }
        entries.sort { $0.path < $1.path }
        return entries
    }
}

/// A value made the first time it is read (under a lock: a second reader meanwhile waits for
/// it), then kept; what it was made from is let go then.
final class LazyValue<Value: Sendable>: Sendable {
    private enum State {
        case pending(@Sendable () -> Value)
        case made(Value)
    }

    private let state: Locked<State>

    init(_ make: @escaping @Sendable () -> Value) {
        state = Locked(.pending(make))
    }

    var value: Value {
        state.withLock { state in
            switch state {
            case .made(let value): return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}

extension CompletionWorkspace {
    /// Every note and file, and every folder above them, by folder, sorted by name.
    static func folderTree(_ sorted: SortedNotes, files: [File]) -> [String: [FolderEntry]] {
        var entries: [[FolderEntry]] = []
        var folderIndex: [String: Int] = [:]
        // A loop up the folders rather than recursion, so a deep path is no deep stack.
        func add(_ path: String, kind: EntryKind, isImage: Bool) -> Int {
            var path = path
            var kind = kind
            var isImage = isImage
            var first: Int?
            while true {
                let folder = CompletionPath.folder(of: path)
                let entry = FolderEntry(name: CompletionPath.name(of: path), path: path, kind: kind,
                                        key: CompletionMatcher.key(CompletionPath.name(of: path)), isImage: isImage)
                if let index = folderIndex[folder] {
                    entries[index].append(entry)
                    return first ?? index
                }
                // A folder seen for the first time: it is an entry of the folder above it.
                folderIndex[folder] = entries.count
                first = first ?? entries.count
                entries.append([entry])
                guard !folder.isEmpty else { return first ?? 0 }
                path = folder
                kind = .folder
                isImage = false
            }
        }
        // Notes come by path, so most follow one of the same folder: that folder's list is
        // found by comparing bytes, without making the folder's `String` or hashing it.
        var last: (folder: Range<Int>, index: Int)?
        sorted.pathBytes.withUnsafeBufferPointer { bytes in
            for (index, record) in sorted.records.enumerated() {
                let range = sorted.pathRanges[index]
                var nameStart = range.lowerBound
                for position in range where bytes[position] == UInt8(ascii: "/") { nameStart = position + 1 }
                let folder = range.lowerBound..<max(nameStart - 1, range.lowerBound)
                if let (lastFolder, listIndex) = last, lastFolder.count == folder.count,
                   !ByteOrder.precedes(lastFolder, folder, in: bytes), !ByteOrder.precedes(folder, lastFolder, in: bytes) {
                    let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<range.upperBound])
                    entries[listIndex].append(FolderEntry(name: String(decoding: name, as: UTF8.self), path: record.path,
                                                          kind: .note, key: CompletionMatcher.key(name), isImage: false))
                    continue
                }
                last = (folder, add(record.path, kind: .note, isImage: false))
            }
        }
        for file in files { _ = add(file.path, kind: .file, isImage: file.isImage) }
        var folders: [String: [FolderEntry]] = [:]
        folders.reserveCapacity(folderIndex.count)
        for (folder, index) in folderIndex {
            entries[index].sort { $0.name < $1.name }
            folders[folder] = entries[index]
        }
        return folders
    }
}

/// The stem tables of a `CompletionWorkspace`, each made the first time a request shows one of
/// its notes, then kept (under a lock: a second request meanwhile waits for it).
final class StemTables: Sendable {
    private let tables = Locked<[String: NoteCatalog.StemTable]>([:])

    func table(_ stem: String, in catalog: NoteCatalog) -> NoteCatalog.StemTable? {
        tables.withLock { tables in
            if let table = tables[stem] { return table }
            let table = catalog.stemTable(stem)
            tables[stem] = table
            return table
        }
    }
}
