// Protected: a value behind a lock, the one place this module shares mutable state.

import Foundation

/// A value that threads may share: every access goes through `withLock`, which holds an
/// `NSLock` (used instead of `Synchronization.Mutex` because the package still builds for
/// macOS 14, where `Mutex` is not available).
final class Protected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
