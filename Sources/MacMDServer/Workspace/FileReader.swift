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

/// Why a file could not be read.
public struct FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    public var description: String {
        errno == EISDIR ? "cannot read \(path): it is a folder" : "cannot read \(path): \(String(cString: strerror(errno)))"
    }
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
        // Read straight into a buffer of the size fstat gives (no zero-filled scratch buffer per
        // file: a scan reads thousands); a file that grew meanwhile is read on in chunks.
        let expected = info.st_size > 0 ? min(Int(info.st_size), limit) : 0
        var failure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < expected {
                let n = read(fd, base + initialized, expected - initialized)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                initialized += n
            }
        }
        if failure != 0 { return .failure(FileReadError(path: path, errno: failure)) }
        // A regular file read to the size fstat gave is done (one read call for a note); a file
        // with no size (a pipe, /proc) or a short read is read on in chunks.
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        if (!regular || expected == 0) && result.count == expected && result.count < limit {
            let error = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 14) { chunk -> Int32 in
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
            if error != 0 { return .failure(FileReadError(path: path, errno: error)) }
        }
        return .success(result)
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
