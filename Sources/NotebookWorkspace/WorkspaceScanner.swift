// Finds the notes of a workspace folder: a walk with an explicit stack over readdir/stat, no
// Foundation.
//
// Invariants: the walk never recurses (an explicit stack of folders) and never fails: a folder or
// file it cannot read, a broken symlink, a folder already visited and an entry that vanished are
// recorded in `skipped` with a reason. Folders are identified by (device, inode), so a symlink
// loop or a second link to a folder is entered once; real folders are walked before symlinked
// ones (then links in rounds sorted by path), so a folder is listed under its real path when it
// has one, whatever readdir's order. Symlinks to files are followed and recorded under the link's
// path. Hidden folders, excluded folder names (`node_modules`) and ignored paths
// are never entered and are not recorded (they are the user's intent, not a problem). The result
// is sorted by path bytes, so equal trees give equal results whatever order readdir returns.
// With `ScanOptions.inspectsFiles` off, a regular note (d_type DT_REG) costs no syscall at all:
// it is listed without size or time, and the size limit and readability are the reader's to
// check (`NotebookLoader.load`); every other entry is inspected as with the option on.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Locks
import TextCore

/// Walks a workspace folder and lists its Markdown notes.
public enum WorkspaceScanner {
    /// Scans `root` for files whose extension is in `options.extensions`, calling `onProgress`
    /// with the number of files found so far every `options.progressInterval` files.
    public static func scan(
        root: String,
        options: ScanOptions = ScanOptions(),
        onProgress: ((Int) -> Void)? = nil
    ) -> ScanResult {
        var result = ScanResult(root: root, resolvedRoot: "")
        guard let resolved = realPath(root) else {
            result.refusal = .notAFolder(errno: errno)
            return result
        }
        result.resolvedRoot = resolved
        var rootInfo = stat()
        let rootStatus = withCPath(Array(resolved.utf8)) { stat($0, &rootInfo) }
        guard rootStatus == 0 else {
            result.refusal = .notAFolder(errno: errno)
            return result
        }
        guard (rootInfo.st_mode & S_IFMT) == S_IFDIR else {
            result.refusal = .notAFolder(errno: ENOTDIR)
            return result
        }
        if !options.allowHomeOrRoot {
            if resolved == "/" {
                result.refusal = .fileSystemRoot
                return result
            }
            let home = options.homeDirectory ?? getenv("HOME").map { String(cString: $0) }
            if let home, !home.isEmpty, let resolvedHome = realPath(home), resolvedHome == resolved {
                result.refusal = .homeDirectory(resolvedHome)
                return result
            }
        }
        var walker = Walker(options: options, onProgress: onProgress)
        walker.walk(rootBytes: Array(resolved.utf8), rootInfo: rootInfo)
        result.files = walker.sortedFiles()
        result.assets = walker.sortedAssets()
        walker.skipped.sort { $0.path.lexicographicallyPrecedes($1.path) }
        result.skipped = walker.skipped.map {
            ScanSkip(path: String(decoding: $0.path, as: UTF8.self), reason: $0.reason)
        }
        result.nestedSettings = walker.nestedSettings.map { String(decoding: $0, as: UTF8.self) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        result.maxFileSize = options.maxFileSize
        result.parseOptions = options.parseOptions
        return result
    }

    /// Whether the entry `a` of a folder comes before its sibling `b` in the order of the paths
    /// below them: a folder's name compares as if followed by `/`, which its files' paths
    /// continue with (`b.md` < `b/` < `b0.md`).
    static func listsBefore(_ a: UnsafeBufferPointer<UInt8>, isFolder aIsFolder: Bool,
                            _ b: UnsafeBufferPointer<UInt8>, isFolder bIsFolder: Bool) -> Bool {
        let common = min(a.count, b.count)
        if common > 0, let aBase = a.baseAddress, let bBase = b.baseAddress {
            let order = memcmp(aBase, bBase, common)
            if order != 0 { return order < 0 }
        }
        // One name is the other's start: what follows it (nothing, or `/` for a folder) decides.
        func after(_ name: UnsafeBufferPointer<UInt8>, _ isFolder: Bool) -> Int {
            name.count > common ? Int(name[common]) : (isFolder ? Int(UInt8(ascii: "/")) : -1)
        }
        return after(a, aIsFolder) < after(b, bIsFolder)
    }

    /// Whether a file name ends in `.` plus one of `extensions` (given in ASCII lower case),
    /// compared ignoring ASCII case, with something before the dot: the walk's rule, which the
    /// watchers apply too.
    static func hasExtension(_ name: UnsafeBufferPointer<UInt8>, in extensions: [[UInt8]]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let suffix = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
        for wanted in extensions where wanted.count == suffix.count {
            if zip(wanted, suffix).allSatisfy({ $0 == ($1 &- 0x41 < 26 ? $1 | 0x20 : $1) }) { return true }
        }
        return false
    }

    /// The text of an errno value.
    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// Whether `path`, symlinks resolved, is `root` (itself resolved) or inside it; false when it
    /// cannot be resolved.
    static func isInside(root: [UInt8], path: [UInt8]) -> Bool {
        guard let resolved = withCPath(path, { realpath($0, nil) }) else { return false }
        defer { free(resolved) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved))
        guard bytes.count >= root.count, bytes.starts(with: root) else { return false }
        return bytes.count == root.count || bytes[root.count] == UInt8(ascii: "/") || root.last == UInt8(ascii: "/")
    }

    /// `realpath(3)` of a path, or nil (errno set).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Calls `body` with a NUL-terminated copy of `path`.
    static func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var bytes = path
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // A non-empty buffer always has a base address.
                guard let base = chars.baseAddress else { return body("") }
                return body(base)
            }
        }
    }
}

#if canImport(Darwin)
private typealias DirectoryHandle = UnsafeMutablePointer<DIR>
#else
private typealias DirectoryHandle = OpaquePointer
#endif

/// The mutable state of one walk.
///
/// Cost per entry matters here: this is the serial part of a cold index. A folder's entry names
/// go into one byte buffer per folder (NUL-terminated, so they serve as C strings), entries are
/// inspected with `fstatat`/`faccessat` relative to the open folder (no absolute path is built,
/// and the kernel resolves one component instead of the whole path), and found paths go into one
/// shared byte buffer sorted by `memcmp`, so a note costs no allocation until its `String`.
private struct Walker {
    struct Folder {
        var relative: [UInt8]
        var absolute: [UInt8]
        var depth: Int
        var rules: IgnoreRules
    }

    struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A file found: its path is `pathBytes[pathStart..<pathEnd]`; size and modification time
    /// are nil when the file was listed without a `stat`.
    struct Found {
        var pathStart: Int
        var pathEnd: Int
        var size: Int64?
        var mtime: Int64?
    }

    struct Skipped {
        var path: [UInt8]
        var reason: ScanSkipReason
    }

    /// A folder entry: its name is `names[nameStart..<nameEnd]`, followed by a NUL.
    struct Entry {
        var nameStart: Int
        var nameEnd: Int
        var type: UInt8
        /// The first eight bytes of the name (a folder's followed by `/`), big-endian, zeros
        /// after its end: most entries are ordered by this alone (`entryPrecedes`).
        var prefix: UInt64
    }

    let options: ScanOptions
    let onProgress: ((Int) -> Void)?
    let extensions: [[UInt8]]
    let excludedNames: [[UInt8]]
    /// The relative paths of every file and asset found, back to back.
    var pathBytes: [UInt8] = []
    var files: [Found] = []
    var assets: [Range<Int>] = []
    var skipped: [Skipped] = []
    /// The paths of `.macmd.json` files in folders below the root.
    var nestedSettings: [[UInt8]] = []
    var visited: Set<FolderID> = []
    var deferredLinks: [(folder: Folder, id: FolderID)] = []
    /// The root's folders while the walk goes side by side (`walkSideBySide`), each with how
    /// many files and assets of the root come before it.
    var leftFolders: [(folder: Folder, files: Int, assets: Int)] = []
    /// The relative path of the entry being visited (reused: one buffer for the whole walk).
    var relative: [UInt8] = []
    /// The notebook's folder, symlinks resolved: a symlink whose target is not inside it is not
    /// followed (a note must not read, nor show, a file outside the notebook).
    var root: [UInt8] = []

    init(options: ScanOptions, onProgress: ((Int) -> Void)?) {
        self.options = options
        self.onProgress = onProgress
        self.extensions = options.extensions.map { Array($0.utf8).map(Walker.lowercased) }
        self.excludedNames = options.excludedFolderNames.map { Array($0.utf8) }
    }

    /// A walker for a folder below `root`, the root itself visited.
    init(options: ScanOptions, onProgress: ((Int) -> Void)?, root: [UInt8], visited: Set<FolderID>) {
        self.init(options: options, onProgress: onProgress)
        self.root = root
        self.visited = visited
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Walks the real folders first and symlinked folders after, in rounds sorted by path, so
    /// which path a folder is found under (the real one, else the first link by path) does not
    /// depend on readdir order.
    mutating func walk(rootBytes: [UInt8], rootInfo: stat) {
        root = rootBytes
        let rootID = FolderID(device: UInt64(rootInfo.st_dev), inode: UInt64(rootInfo.st_ino))
        visited.insert(rootID)
        let rootFolder = Folder(relative: [], absolute: rootBytes, depth: 0, rules: IgnoreRules(globs: options.ignoreGlobs))
        if onProgress != nil || !walkSideBySide(rootFolder, rootID: rootID) {
            drain([rootFolder])
        }
        while !deferredLinks.isEmpty {
            let round = deferredLinks.sorted { $0.folder.relative.lexicographicallyPrecedes($1.folder.relative) }
            deferredLinks = []
            for link in round {
                if visited.contains(link.id) {
                    skipped.append(Skipped(path: link.folder.relative, reason: .alreadyVisited))
                    continue
                }
                visited.insert(link.id)
                drain([link.folder])
            }
        }
    }

    /// Walks the folders `initial` and everything below them except symlinked folders, which
    /// are deferred.
    mutating func drain(_ initial: [Folder]) {
        for folder in initial { walk(folder) }
    }

    /// Walks `folder` and what is below it, depth first, its entries in the order of their paths'
    /// bytes (a folder's name as if followed by `/`), so the files and assets are found in the
    /// order they are listed in and need no sort (`sortedFiles` checks). A folder stays open
    /// while its entries are visited, as they are inspected relative to it (one descriptor per
    /// level, at most `maxDepth`).
    mutating func walk(_ start: Folder) {
        walk(start, leavingFolders: false)
    }

    /// `walk(_:)`; with `leavingFolders`, the folders below `start` are not walked but listed in
    /// `leftFolders`, each with how many files and assets were found before it.
    mutating func walk(_ start: Folder, leavingFolders: Bool) {
        var folder = start
        guard let directory = WorkspaceScanner.withCPath(folder.absolute, { opendir($0) }) else {
            let code = errno
            skipped.append(Skipped(path: displayPath(folder.relative), reason: code == ENOENT ? .vanished : .unreadableFolder(errno: code)))
            return
        }
        defer { closedir(directory) }
        let listing = list(directory)
        let names = listing.names
        var entries = listing.entries
        names.withUnsafeBufferPointer { names in
            entries.sort { Walker.entryPrecedes($0, $1, in: names) }
        }
        if options.readsGitignore, entries.contains(where: { Walker.equals(names[$0.nameStart..<$0.nameEnd], Walker.gitignoreName) }) {
            if let contents = readSmallFile(join(folder.absolute, Walker.gitignoreName)) {
                folder.rules.addGitignore(contents: contents, folder: folder.relative)
            }
        }
        if !folder.relative.isEmpty, entries.contains(where: { Walker.equals(names[$0.nameStart..<$0.nameEnd], Walker.settingsName) }) {
            nestedSettings.append(folder.relative + [UInt8(ascii: "/")] + Walker.settingsName)
        }
        let descriptor = dirfd(directory)
        var children: [Folder] = []
        names.withUnsafeBufferPointer { names in
            guard let base = names.baseAddress else { return }
            for entry in entries {
                let name = UnsafeBufferPointer(rebasing: names[entry.nameStart..<entry.nameEnd])
                let cName = UnsafeRawPointer(base + entry.nameStart).assumingMemoryBound(to: CChar.self)
                visit(name: name, cName: cName, type: entry.type, in: folder, directory: descriptor, stack: &children)
                // A folder is walked where its path falls among its siblings'.
                while let child = children.popLast() {
                    if leavingFolders {
                        leftFolders.append((child, files.count, assets.count))
                    } else {
                        walk(child)
                    }
                }
            }
        }
    }

    /// Whether `a` comes before `b` in a folder listing ordered as their paths' bytes: a
    /// folder's name compares as if followed by `/` (what its files' paths continue with), so
    /// `b.md` < `b/` < `b0.md`. (An entry whose type the listing does not give compares as a
    /// file; were it a folder out of place, `sortedFiles` would sort.)
    static func entryPrecedes(_ a: Entry, _ b: Entry, in names: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        return WorkspaceScanner.listsBefore(UnsafeBufferPointer(rebasing: names[a.nameStart..<a.nameEnd]), isFolder: Int(a.type) == Int(DT_DIR),
                                     UnsafeBufferPointer(rebasing: names[b.nameStart..<b.nameEnd]), isFolder: Int(b.type) == Int(DT_DIR))
    }

    /// Walks the root, then its folders on all cores, each by a walker of its own, and joins
    /// what they found in the order of their paths: the same result as one walker's, sooner, as
    /// the cores share the folders (the walk is the serial start of a cold index). False, having
    /// found nothing, when a folder was reached twice from two of the root's folders (through
    /// a bind mount or a hard link): which one is walked then depends on the paths' order,
    /// which only one walker keeps, so the caller walks again alone.
    mutating func walkSideBySide(_ rootFolder: Folder, rootID: FolderID) -> Bool {
        var top = self
        top.walk(rootFolder, leavingFolders: true)
        // Each folder's walk in a slot of its own, taken in turn by whichever core is free.
        final class Slot: @unchecked Sendable { var walker: Walker? }
        let slots = top.leftFolders.map { _ in Slot() }
        let next = Locked(0)
        let folders = top.leftFolders.map(\.folder)
        let (options, root) = (options, root)
        let walk: @Sendable (Int) -> Void = { _ in
            let template = Walker(options: options, onProgress: nil, root: root, visited: [rootID])
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < folders.count else { return }
                var walker = template
                walker.walk(folders[index])
                slots[index].walker = walker
            }
        }
        if folders.count >= 2 {
            DispatchQueue.concurrentPerform(iterations: 2, execute: walk)
        } else {
            walk(0)
        }
        // A folder reached from two of the root's folders: walk again, alone.
        var seen = top.visited
        for slot in slots {
            guard let walker = slot.walker else { return false }
            for id in walker.visited where id != rootID {
                if !seen.insert(id).inserted { return false }
            }
        }
        // The root's files and assets, with each folder's spliced in where it falls.
        var joined = top
        joined.pathBytes.removeAll(keepingCapacity: true)
        joined.files = []
        joined.assets = []
        joined.leftFolders = []
        joined.visited = seen
        var rootFile = 0
        var rootAsset = 0
        func takeRoot(files fileEnd: Int, assets assetEnd: Int) {
            while rootFile < fileEnd { joined.append(file: top.files[rootFile], from: top.pathBytes); rootFile += 1 }
            while rootAsset < assetEnd { joined.append(asset: top.assets[rootAsset], from: top.pathBytes); rootAsset += 1 }
        }
        for (index, left) in top.leftFolders.enumerated() {
            takeRoot(files: left.files, assets: left.assets)
            guard let walker = slots[index].walker else { return false }
            for file in walker.files { joined.append(file: file, from: walker.pathBytes) }
            for asset in walker.assets { joined.append(asset: asset, from: walker.pathBytes) }
            joined.skipped += walker.skipped
            joined.nestedSettings += walker.nestedSettings
            joined.deferredLinks += walker.deferredLinks
        }
        takeRoot(files: top.files.count, assets: top.assets.count)
        self = joined
        return true
    }

    /// Adds a file found by another walker (its path in `bytes`).
    mutating func append(file: Found, from bytes: [UInt8]) {
        let start = pathBytes.count
        pathBytes.append(contentsOf: bytes[file.pathStart..<file.pathEnd])
        files.append(Found(pathStart: start, pathEnd: pathBytes.count, size: file.size, mtime: file.mtime))
    }

    /// Adds an asset found by another walker (its path in `bytes`).
    mutating func append(asset: Range<Int>, from bytes: [UInt8]) {
        let start = pathBytes.count
        pathBytes.append(contentsOf: bytes[asset])
        assets.append(start..<pathBytes.count)
    }

    static let gitignoreName = Array(".gitignore".utf8)
    static let settingsName = Array(NotebookConfiguration.fileName.utf8)

    /// The entries of an open folder, without `.` and `..`, and the bytes of their names.
    func list(_ directory: DirectoryHandle) -> (entries: [Entry], names: [UInt8]) {
        var entries: [Entry] = []
        var names: [UInt8] = []
        while let pointer = readdir(directory) {
            let type = pointer.pointee.d_type
            withUnsafeBytes(of: &pointer.pointee.d_name) { raw in
                guard let base = raw.baseAddress else { return }
                let length = strnlen(base.assumingMemoryBound(to: CChar.self), raw.count)
                let dot = UInt8(ascii: ".")
                if length == 0 || (length == 1 && raw[0] == dot) || (length == 2 && raw[0] == dot && raw[1] == dot) { return }
                let start = names.count
                names.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<length]))
                names.append(0)
                var prefix: UInt64 = 0
                for offset in 0..<8 {
                    let byte = offset < length ? raw[offset] : (offset == length && Int(type) == Int(DT_DIR) ? UInt8(ascii: "/") : 0)
                    prefix = prefix << 8 | UInt64(byte)
                }
                entries.append(Entry(nameStart: start, nameEnd: start + length, type: type, prefix: prefix))
            }
        }
        return (entries, names)
    }

    /// Sets `relative` to the entry's path relative to the root.
    mutating func setRelative(folder: [UInt8], name: UnsafeBufferPointer<UInt8>) {
        relative.removeAll(keepingCapacity: true)
        if !folder.isEmpty {
            relative.append(contentsOf: folder)
            relative.append(UInt8(ascii: "/"))
        }
        relative.append(contentsOf: name)
    }

    /// Looks at one entry of `folder` (open as `directory`): records a note or an asset, pushes
    /// a folder onto `stack` (or defers a symlinked one), or records why it is skipped.
    mutating func visit(name: UnsafeBufferPointer<UInt8>, cName: UnsafePointer<CChar>, type: UInt8,
                        in folder: Folder, directory: Int32, stack: inout [Folder]) {
        var info = stat()
        var haveInfo = false
        var isDirectory: Bool
        var isLink = false
        switch Int(type) {
        case Int(DT_DIR):
            isDirectory = true
        case Int(DT_REG):
            isDirectory = false
        case Int(DT_LNK), Int(DT_UNKNOWN):
            // Without d_type, lstat tells a link from the rest.
            if Int(type) == Int(DT_UNKNOWN), fstatat(directory, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                isLink = (info.st_mode & S_IFMT) == S_IFLNK
            } else {
                isLink = Int(type) == Int(DT_LNK)
            }
            // Follow the link (or learn the type) with stat; a failure is a broken link or a vanished entry.
            if fstatat(directory, cName, &info, 0) != 0 {
                let code = errno
                setRelative(folder: folder.relative, name: name)
                skipped.append(Skipped(path: relative, reason: isLink ? .brokenSymlink(errno: code) : (code == ENOENT ? .vanished : .unreadableFile(errno: code))))
                return
            }
            haveInfo = true
            if isLink, !WorkspaceScanner.isInside(root: root, path: join(folder.absolute, Array(name))) {
                setRelative(folder: folder.relative, name: name)
                skipped.append(Skipped(path: relative, reason: .linksOutside))
                return
            }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                isDirectory = true
            } else if kind == S_IFREG {
                isDirectory = false
            } else {
                return
            }
        default:
            return  // FIFOs, sockets and devices are never notes.
        }

        if isDirectory {
            if name.first == UInt8(ascii: ".") || excludedNames.contains(where: { Walker.equals(name, $0) }) { return }
            setRelative(folder: folder.relative, name: name)
            if folder.rules.decision(path: relative, isDirectory: true) == true { return }
            if !haveInfo, fstatat(directory, cName, &info, 0) != 0 {
                let code = errno
                skipped.append(Skipped(path: relative, reason: code == ENOENT ? .vanished : .unreadableFolder(errno: code)))
                return
            }
            let id = FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            if visited.contains(id) {
                skipped.append(Skipped(path: relative, reason: .alreadyVisited))
                return
            }
            if folder.depth + 1 > options.maxDepth {
                skipped.append(Skipped(path: relative, reason: .tooDeep(limit: options.maxDepth)))
                return
            }
            let child = Folder(relative: relative, absolute: join(folder.absolute, Array(name)), depth: folder.depth + 1, rules: folder.rules)
            if isLink {
                deferredLinks.append((child, id))
            } else {
                visited.insert(id)
                stack.append(child)
            }
            return
        }

        guard Walker.hasExtension(name, in: extensions) else {
            // Every other file is an asset, but hidden ones (`.gitignore`, `.DS_Store`).
            if name.first != UInt8(ascii: ".") {
                setRelative(folder: folder.relative, name: name)
                if folder.rules.decision(path: relative, isDirectory: false) != true {
                    let start = pathBytes.count
                    pathBytes.append(contentsOf: relative)
                    assets.append(start..<pathBytes.count)
                }
            }
            return
        }
        setRelative(folder: folder.relative, name: name)
        if folder.rules.decision(path: relative, isDirectory: false) == true { return }
        // A regular file needs no stat when the caller reads it anyway: the reader's fstat gives
        // the size and time (NotebookLoader). A symlink or an entry without d_type was stat'ed
        // above to learn what it is, so its size and time are known and free.
        if !haveInfo && !options.inspectsFiles {
            record(size: nil, mtime: nil)
            return
        }
        if !haveInfo, fstatat(directory, cName, &info, 0) != 0 {
            let code = errno
            skipped.append(Skipped(path: relative, reason: code == ENOENT ? .vanished : .unreadableFile(errno: code)))
            return
        }
        let size = Int64(info.st_size)
        if size > options.maxFileSize {
            skipped.append(Skipped(path: relative, reason: .tooLarge(size: size, limit: options.maxFileSize)))
            return
        }
        // Unreadable files are the reader's to report when the scan does not inspect files.
        if options.inspectsFiles, faccessat(directory, cName, R_OK, 0) != 0 {
            let code = errno
            skipped.append(Skipped(path: relative, reason: code == ENOENT ? .vanished : .unreadableFile(errno: code)))
            return
        }
        let mtime = FileReader.modificationTime(info)
        record(size: size, mtime: mtime)
    }

    /// Records the file at `relative` and reports progress.
    mutating func record(size: Int64?, mtime: Int64?) {
        let start = pathBytes.count
        pathBytes.append(contentsOf: relative)
        files.append(Found(pathStart: start, pathEnd: pathBytes.count, size: size, mtime: mtime))
        if let onProgress, options.progressInterval > 0, files.count % options.progressInterval == 0 {
            onProgress(files.count)
        }
    }

    /// The files found, sorted by path bytes (`ByteOrder.sortedIndices`: it sorts short keys,
    /// which costs fewer instructions than sorting the 48-byte files themselves by `memcmp`).
    /// The walk finds them in order (`walk`) but for symlinked folders, walked after, and
    /// entries whose type the listing did not give: a pass checks, and only then do they sort.
    func sortedFiles() -> [ScannedFile] {
        pathBytes.withUnsafeBufferPointer { bytes in
            let ranges = files.map { $0.pathStart..<$0.pathEnd }
            let order = Walker.isSorted(ranges, in: bytes) ? Array(ranges.indices) : ByteOrder.sortedIndices(ranges, in: bytes)
            return order.map { index in
                let file = files[index]
                return ScannedFile(path: String(decoding: UnsafeBufferPointer(rebasing: bytes[file.pathStart..<file.pathEnd]), as: UTF8.self),
                                   size: file.size, modificationTimeNanoseconds: file.mtime)
            }
        }
    }

    /// The assets found, sorted by path bytes (found so, but as `sortedFiles` says).
    mutating func sortedAssets() -> [String] {
        pathBytes.withUnsafeBufferPointer { bytes in
            if !Walker.isSorted(assets, in: bytes) { assets.sort { Walker.precedes($0, $1, in: bytes) } }
            return assets.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
    }

    /// Whether the paths `ranges` of `bytes` are in byte order.
    static func isSorted(_ ranges: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !ranges.indices.dropFirst().contains { precedes(ranges[$0], ranges[$0 - 1], in: bytes) }
    }

    /// Byte order of two paths in `bytes` (memcmp: sorting `[UInt8]` paths with the generic
    /// `lexicographicallyPrecedes` cost a large part of the walk, with a retain and release per
    /// element moved).
    static func precedes(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteOrder.precedes(a, b, in: bytes)
    }

    static func hasExtension(_ name: UnsafeBufferPointer<UInt8>, in extensions: [[UInt8]]) -> Bool {
        WorkspaceScanner.hasExtension(name, in: extensions)
    }

    static func equals(_ a: some Collection<UInt8>, _ b: [UInt8]) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
        var path = folder
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
        return path
    }

    func displayPath(_ relative: [UInt8]) -> [UInt8] {
        relative.isEmpty ? [UInt8(ascii: ".")] : relative
    }

    /// Reads a file of at most 1 MB (a `.gitignore`); nil when it cannot be read.
    func readSmallFile(_ path: [UInt8]) -> [UInt8]? {
        try? FileReader.contents(of: String(decoding: path, as: UTF8.self), limit: 1 << 20).get()
    }
}
