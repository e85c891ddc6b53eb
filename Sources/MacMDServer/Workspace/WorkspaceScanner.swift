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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        walker.files.sort { $0.path.lexicographicallyPrecedes($1.path) }
        walker.skipped.sort { $0.path.lexicographicallyPrecedes($1.path) }
        result.files = walker.files.map {
            ScannedFile(path: String(decoding: $0.path, as: UTF8.self), size: $0.size, modificationTimeNanoseconds: $0.mtime)
        }
        walker.assets.sort { $0.lexicographicallyPrecedes($1) }
        result.assets = walker.assets.map { String(decoding: $0, as: UTF8.self) }
        result.skipped = walker.skipped.map {
            ScanSkip(path: String(decoding: $0.path, as: UTF8.self), reason: $0.reason)
        }
        return result
    }

    /// The text of an errno value.
    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// `realpath(3)` of a path, or nil (errno set).
    static func realPath(_ path: String) -> String? {
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

/// The mutable state of one walk.
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

    struct Found {
        var path: [UInt8]
        var size: Int64
        var mtime: Int64
    }

    struct Skipped {
        var path: [UInt8]
        var reason: ScanSkipReason
    }

    let options: ScanOptions
    let onProgress: ((Int) -> Void)?
    let extensions: [[UInt8]]
    let assetExtensions: [[UInt8]]
    let excludedNames: [[UInt8]]
    var files: [Found] = []
    var assets: [[UInt8]] = []
    var skipped: [Skipped] = []
    var visited: Set<FolderID> = []
    var deferredLinks: [(folder: Folder, id: FolderID)] = []

    init(options: ScanOptions, onProgress: ((Int) -> Void)?) {
        self.options = options
        self.onProgress = onProgress
        self.extensions = options.extensions.map { Array($0.utf8).map(Walker.lowercased) }
        self.assetExtensions = options.assetExtensions.map { Array($0.utf8).map(Walker.lowercased) }
        self.excludedNames = options.excludedFolderNames.map { Array($0.utf8) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Walks the real folders first and symlinked folders after, in rounds sorted by path, so
    /// which path a folder is found under (the real one, else the first link by path) does not
    /// depend on readdir order.
    mutating func walk(rootBytes: [UInt8], rootInfo: stat) {
        visited.insert(FolderID(device: UInt64(rootInfo.st_dev), inode: UInt64(rootInfo.st_ino)))
        drain([Folder(relative: [], absolute: rootBytes, depth: 0, rules: IgnoreRules(globs: options.ignoreGlobs))])
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

    /// Walks the folders on `stack` and everything below them except symlinked folders, which
    /// are deferred.
    mutating func drain(_ initial: [Folder]) {
        var stack = initial
        while var folder = stack.popLast() {
            guard let entries = list(folder) else { continue }
            if options.readsGitignore, entries.contains(where: { $0.name == Walker.gitignoreName }) {
                if let contents = readSmallFile(join(folder.absolute, Walker.gitignoreName)) {
                    folder.rules.addGitignore(contents: contents, folder: folder.relative)
                }
            }
            for entry in entries {
                visit(entry, in: folder, stack: &stack)
            }
        }
    }

    static let gitignoreName = Array(".gitignore".utf8)

    struct Entry {
        var name: [UInt8]
        var type: UInt8
    }

    /// The entries of a folder, without `.` and `..`; nil (and a skip) when it cannot be opened.
    mutating func list(_ folder: Folder) -> [Entry]? {
        guard let directory = WorkspaceScanner.withCPath(folder.absolute, { opendir($0) }) else {
            let code = errno
            skipped.append(Skipped(path: displayPath(folder.relative), reason: code == ENOENT ? .vanished : .unreadableFolder(errno: code)))
            return nil
        }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let pointer = readdir(directory) {
            let type = pointer.pointee.d_type
            let name: [UInt8] = withUnsafeBytes(of: &pointer.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return Array(bytes[0..<length])
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] || name.isEmpty { continue }
            entries.append(Entry(name: name, type: type))
        }
        return entries
    }

    mutating func visit(_ entry: Entry, in folder: Folder, stack: inout [Folder]) {
        let relative = folder.relative.isEmpty ? entry.name : join(folder.relative, entry.name)
        let absolute = join(folder.absolute, entry.name)
        var info = stat()
        var haveInfo = false
        var isDirectory: Bool
        var isLink = false
        switch Int(entry.type) {
        case Int(DT_DIR):
            isDirectory = true
        case Int(DT_REG):
            isDirectory = false
        case Int(DT_LNK), Int(DT_UNKNOWN):
            // Without d_type, lstat tells a link from the rest.
            if Int(entry.type) == Int(DT_UNKNOWN), WorkspaceScanner.withCPath(absolute, { lstat($0, &info) }) == 0 {
                isLink = (info.st_mode & S_IFMT) == S_IFLNK
            } else {
                isLink = Int(entry.type) == Int(DT_LNK)
            }
            // Follow the link (or learn the type) with stat; a failure is a broken link or a vanished entry.
            if WorkspaceScanner.withCPath(absolute, { stat($0, &info) }) != 0 {
                let code = errno
                skipped.append(Skipped(path: relative, reason: isLink ? .brokenSymlink(errno: code) : (code == ENOENT ? .vanished : .unreadableFile(errno: code))))
                return
            }
            haveInfo = true
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
            if entry.name.first == UInt8(ascii: ".") || excludedNames.contains(entry.name) { return }
            if folder.rules.decision(path: relative, isDirectory: true) == true { return }
            if !haveInfo, WorkspaceScanner.withCPath(absolute, { stat($0, &info) }) != 0 {
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
            let child = Folder(relative: relative, absolute: absolute, depth: folder.depth + 1, rules: folder.rules)
            if isLink {
                deferredLinks.append((child, id))
            } else {
                visited.insert(id)
                stack.append(child)
            }
            return
        }

        guard Walker.hasExtension(entry.name, in: extensions) else {
            if Walker.hasExtension(entry.name, in: assetExtensions),
               folder.rules.decision(path: relative, isDirectory: false) != true {
                assets.append(relative)
            }
            return
        }
        if folder.rules.decision(path: relative, isDirectory: false) == true { return }
        if !haveInfo, WorkspaceScanner.withCPath(absolute, { stat($0, &info) }) != 0 {
            let code = errno
            skipped.append(Skipped(path: relative, reason: code == ENOENT ? .vanished : .unreadableFile(errno: code)))
            return
        }
        let size = Int64(info.st_size)
        if size > options.maxFileSize {
            skipped.append(Skipped(path: relative, reason: .tooLarge(size: size, limit: options.maxFileSize)))
            return
        }
        if WorkspaceScanner.withCPath(absolute, { access($0, R_OK) }) != 0 {
            let code = errno
            skipped.append(Skipped(path: relative, reason: code == ENOENT ? .vanished : .unreadableFile(errno: code)))
            return
        }
        #if canImport(Darwin)
        let mtime = Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
        #else
        let mtime = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        #endif
        files.append(Found(path: relative, size: size, mtime: mtime))
        if let onProgress, options.progressInterval > 0, files.count % options.progressInterval == 0 {
            onProgress(files.count)
        }
    }

    /// Whether the name ends in `.` plus one of `extensions`, compared case-insensitively.
    static func hasExtension(_ name: [UInt8], in extensions: [[UInt8]]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let suffix = name[(dot + 1)...]
        for wanted in extensions where wanted.count == suffix.count {
            if zip(wanted, suffix).allSatisfy({ $0 == Walker.lowercased($1) }) { return true }
        }
        return false
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
