// Locked: a value only reachable while its lock is held, on a POSIX mutex.
//
// Why not `Synchronization.Mutex`: on Linux it waits with raw futex system calls, which the
// thread sanitizer cannot see, so `swift test --sanitize=thread` reported every access under it
// as a race and hid the real ones. A `pthread_mutex_t` is what the sanitizer (and every debugger)
// understands; uncontended, it costs about what `Mutex` costs.
//
// Invariants:
// - The value is read and written only inside `withLock`, with the mutex held; the type is
//   `Sendable` because of that, whatever the value.
// - The mutex lives at a fixed address for the object's life (allocated once, destroyed in
//   `deinit`); it is not recursive: `withLock` inside `withLock` of the same object deadlocks.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a mutex: `withLock { value in … }`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, the mutex held; what `body` returns.
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in try body(&value) }
    }
}

/// A mutex that guards no value of its own: it orders sections of code (`withLock { … }`).
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held; what `body` returns.
    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
