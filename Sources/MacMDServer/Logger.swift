// The server's log: one line per event to stderr or a file, never to stdout (which carries only
// protocol frames). Thread-safe; a write failure is ignored (logging must never stop the server).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locks

public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 0, warn, info, debug

    public init?(name: String) {
        switch name.lowercased() {
        case "error": self = .error
        case "warn", "warning": self = .warn
        case "info": self = .info
        case "debug", "trace": self = .debug
        default: return nil
        }
    }

    public var name: String { ["error", "warn", "info", "debug"][rawValue] }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

public final class Logger: Sendable {
    public let level: LogLevel
    private let descriptor: Int32
    private let lock = Lock()

    /// Logs to `descriptor` (2 for stderr) at `level` and above.
    public init(level: LogLevel, descriptor: Int32 = 2) {
        self.level = level
        self.descriptor = descriptor
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        let line = Array("[macmd \(level.name)] \(message())\n".utf8)
        lock.withLock {
            line.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let n = write(descriptor, base + offset, buffer.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += n
                }
            }
        }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
