// Whole-file reads for the notebook: notes, `.gitignore`s, `.macmd.json`.
//
// Invariant: a read never traps (folders and failures are errors with the errno text); EINTR is
// retried. A regular file is read as large as fstat says it is: a file that grows while it is
// read is read as it was (the watcher reports the change).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Localization

/// Why a file could not be read.
public struct FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    /// What went wrong, with the operating system's text for `errno` as it gives it.
    public var text: LocalizedText {
        errno == EISDIR ? LocalizedText("fileRead.isFolder", .string(path))
            : LocalizedText("fileRead.failed", .string(path), .string(String(cString: strerror(errno))))
    }

    /// What went wrong, in English (the log).
    public var description: String { text.english }
}

/// A file's bytes with the size and modification time that the same `fstat` gave.
public struct FileSnapshot: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The size in bytes when the file was opened.
    public var size: Int64
    /// The modification time in nanoseconds since the Unix epoch, as of the open: a write after
    /// it changes the time again, so a rescan comparing times reads the file again.
    public var modificationTimeNanoseconds: Int64
}

/// What `FileReader.snapshot` found.
public enum FileSnapshotOutcome: Sendable, Equatable {
    case read(FileSnapshot)
    /// The file is larger than the limit asked for: it was opened, not read.
    case tooLarge(size: Int64)
    case failed(FileReadError)
}

public enum FileReader {
    /// The bytes of the file at `path`, at most `limit` of them.
    public static func contents(of path: String, limit: Int = Int.max) -> Result<[UInt8], FileReadError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileReadError(path: path, errno: errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(FileReadError(path: path, errno: EISDIR))
        }
        var failure: Int32 = 0
        let bytes = readAll(fd, info: info, limit: limit, failure: &failure)
        return failure == 0 ? .success(bytes) : .failure(FileReadError(path: path, errno: failure))
    }

    /// The whole file at `path` with its size and modification time, in the same three syscalls
    /// as `contents` (open, fstat, read) and a close; a file over `maxSize` bytes is not read.
    /// This is how a cold index learns sizes and times without a `stat` per note in the walk.
    /// The open does not block: a note replaced by a FIFO since it was listed fails or reads
    /// empty instead of hanging a loader thread (regular files ignore the flag).
    public static func snapshot(of path: String, maxSize: Int64 = Int64.max) -> FileSnapshotOutcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failed(FileReadError(path: path, errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(FileReadError(path: path, errno: errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failed(FileReadError(path: path, errno: EISDIR)) }
        let size = Int64(info.st_size)
        if size > maxSize { return .tooLarge(size: size) }
        let mtime = modificationTime(info)
        var failure: Int32 = 0
        let bytes = readAll(fd, info: info, limit: Int.max, failure: &failure)
        guard failure == 0 else { return .failed(FileReadError(path: path, errno: failure)) }
        return .read(FileSnapshot(bytes: bytes, size: size, modificationTimeNanoseconds: mtime))
    }

    /// Reads the open file `fd` (of which fstat said `info`, or nothing when it failed) to its
    /// end or to `limit` bytes; on an error, `failure` is set to its errno.
    private static func readAll(_ fd: Int32, info: stat, limit: Int, failure: inout Int32) -> [UInt8] {
        // Read straight into a buffer of the size fstat gives (no zero-filled scratch buffer per
        // file: a scan reads thousands); a file that grew meanwhile is read on in chunks.
        let expected = info.st_size > 0 ? min(Int(info.st_size), limit) : 0
        var readFailure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            (initialized, readFailure) = readFully(fd, into: buffer)
        }
        if readFailure != 0 {
            failure = readFailure
            return []
        }
        // A regular file read to the size fstat gave is done (one read call for a note); a file
        // with no size (a pipe, /proc) or a short read is read on in chunks.
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        if (!regular || expected == 0) && result.count == expected && result.count < limit {
            let error = readRest(fd, appendingTo: &result, limit: limit)
            if error != 0 {
                failure = error
                return []
            }
        }
        return result
    }

    /// Reads from `fd` into `buffer` until it is full or the file ends, retrying on EINTR:
    /// how many bytes it read, and the errno of the read that failed (0 when none did).
    public static func readFully(_ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> (count: Int, failure: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var count = 0
        while count < buffer.count {
            let n = read(fd, base + count, buffer.count - count)
            if n < 0 {
                if errno == EINTR { continue }
                return (count, errno)
            }
            if n == 0 { break }
            count += n
        }
        return (count, 0)
    }

    /// Reads the rest of `fd` in chunks, appending to `result` until the file ends or `result`
    /// holds `limit` bytes, retrying on EINTR: the errno of the read that failed, or 0.
    public static func readRest(_ fd: Int32, appendingTo result: inout [UInt8], limit: Int = Int.max) -> Int32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 14) { chunk -> Int32 in
            while result.count < limit {
                let n = read(fd, chunk.baseAddress, min(chunk.count, limit - result.count))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { break }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<n]))
            }
            return 0
        }
    }

    /// The modification time `stat` gave, in nanoseconds since the Unix epoch.
    public static func modificationTime(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        return Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
        #else
        return Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether a folder (or a link to one) is at `path`.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

/// The files the analysis reads besides the open documents: the notes' text on disk, and whether
/// a file is there. The disk's (`DiskFiles`) in use; tests give files from memory.
public protocol NotebookFiles: Sendable {
    /// The bytes of the file at the absolute `path`, nil when it cannot be read.
    func contents(of path: String) -> [UInt8]?
    /// Whether something exists at the absolute `path`.
    func exists(_ path: String) -> Bool
}

/// The disk, through `FileReader`.
public struct DiskFiles: NotebookFiles {
    public init() {}
    public func contents(of path: String) -> [UInt8]? { try? FileReader.contents(of: path).get() }
    public func exists(_ path: String) -> Bool { FileReader.exists(path) }
}
