// Whole-file reads for the notebook: notes, `.gitignore`s, `.macmd.json`.
//
// Invariant: a read never traps and never blocks on a FIFO forever (folders and failures are
// errors with the errno text); EINTR is retried.

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
        var result: [UInt8] = []
        if info.st_size > 0 { result.reserveCapacity(min(Int(info.st_size), limit) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while result.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - result.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileReadError(path: path, errno: errno))
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return .success(result)
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
