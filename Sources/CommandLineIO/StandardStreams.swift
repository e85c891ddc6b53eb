// Whole-buffer reads and writes on file descriptors, looping on short transfers and EINTR: the
// standard streams of `macmd` and of `macmd-bench`, the two executables of the package.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Localization
import NotebookWorkspace
import TextCore

/// Reading input and writing output in one piece.
public enum StandardStreams {
    /// Why a read failed, as a message for the user.
    public struct ReadError: Error {
        public var message: LocalizedText
    }

    /// Writes all of `bytes` to stdout with as few `write(2)` calls as the kernel allows.
    /// Returns false when the write failed (e.g. a closed pipe).
    @discardableResult
    public static func writeOutput(_ bytes: [UInt8]) -> Bool {
        writeAll(bytes, to: 1)
    }

    /// Writes a message to stderr.
    public static func writeError(_ text: String) {
        writeAll(Array(text.utf8), to: 2)
    }

    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    }

    /// Writes all of `bytes` to `descriptor`, looping on short writes and EINTR.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads a whole file, or stdin when `path` is nil or `-`.
    public static func readInput(path: String?) -> Result<[UInt8], ReadError> {
        guard let path, path != "-" else { return readAll(from: 0, name: .message("cli.read.standardInput")) }
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            return .failure(ReadError(message: LocalizedText("cli.read.error", .string(path), .string(String(cString: strerror(errno))))))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return .failure(ReadError(message: LocalizedText("cli.read.error", .string(path), .message("cli.read.isFolder"))))
        }
        return readAll(from: descriptor, name: .string(path))
    }

    /// Reads `descriptor` to its end; `name` (a path, or "standard input") is for the message.
    private static func readAll(from descriptor: Int32, name: CatalogArgument) -> Result<[UInt8], ReadError> {
        func error(_ number: Int32) -> ReadError {
            ReadError(message: LocalizedText("cli.read.error", name, .string(String(cString: strerror(number)))))
        }
        var result: [UInt8] = []
        // A regular file's size is known: read it straight into a buffer of that size (plus one
        // byte to see EOF), which never doubles (1.5-2x the file at its peak) and is not copied
        // chunk by chunk; a large one in huge pages (TextCore's `HugePages`).
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
            let capacity = Int(status.st_size) + 1
            var failure: Int32 = 0
            result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: capacity)
                (initialized, failure) = FileReader.readFully(descriptor, into: buffer)
            }
            if failure != 0 { return .failure(error(failure)) }
            // The file grew while it was read: the rest comes in chunks below.
            if result.count < capacity { return .success(result) }
        }
        let failure = FileReader.readRest(descriptor, appendingTo: &result)
        if failure != 0 { return .failure(error(failure)) }
        return .success(result)
    }
}
