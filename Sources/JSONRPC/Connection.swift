// Connection: JSON-RPC over a pair of file descriptors (stdin/stdout for `macmd lsp`).
//
// Invariants (the concurrency contract):
// - One dedicated reader thread does blocking read(2) on `input`, frames, parses and decodes,
//   and calls `onEvent` on itself, in stream order, one event at a time. `.endOfInput` is the
//   last event and comes at most once.
// - Writes are serialized by one lock: each frame (header + body in one buffer) is written whole,
//   looping on short writes, EINTR and EAGAIN, so frames from different threads never interleave.
//   Serialization to bytes happens before taking the lock.
// - A failed write (EPIPE, EBADF, …) marks the connection broken; that send and all later ones
//   are dropped quietly. (The process must ignore SIGPIPE, or a write to a closed pipe kills it;
//   that is the server's job.)
// - `close()` stops event delivery and drops later sends. It does not close the descriptors,
//   which belong to the caller; a reader blocked in read(2) ends at its next read result.

// No Foundation here: the executable stays free of it (it costs megabytes of RSS), so the
// thread is a plain pthread and the locks are `Locks.Locked` (POSIX mutexes the thread sanitizer sees).

import JSON
import Localization
import Locks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON-RPC connection: a reader thread for incoming messages and a serial writer.
public final class Connection: Sendable {
    private struct ReaderState: Sendable {
        var started = false
        var closed = false
    }

    private struct WriterState: Sendable {
        var closed = false
        var broken = false
    }

    private let input: Int32
    private let output: Int32
    private let maxContentLength: Int
    private let readerState = Locked(ReaderState())
    private let writerState = Locked(WriterState())

    /// The bytes asked of each read(2).
    private static let readChunkSize = 1 << 17

    /// A connection reading `input` and writing `output`; bodies longer than `maxContentLength`
    /// are reported as `.framingError(.tooLarge)` and skipped.
    public init(input: Int32, output: Int32, maxContentLength: Int = 64 << 20) {
        self.input = input
        self.output = output
        self.maxContentLength = maxContentLength
        Self.enlargePipe(input)
        Self.enlargePipe(output)
    }

    /// The pipe capacity asked for (Linux's default is 64 KiB; 1 MiB is the unprivileged limit).
    private static let pipeCapacity: Int32 = 1 << 20

    /// Makes a pipe's kernel buffer larger, so a megabyte message (a note's `didOpen`, a
    /// preview's HTML) crosses in a few large writes instead of sixteen or more rounds of
    /// "writer blocks, reader wakes". Best effort: does nothing for a descriptor that is not a
    /// pipe or when the system refuses.
    private static func enlargePipe(_ descriptor: Int32) {
        #if os(Linux)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
        // F_SETPIPE_SZ (1031): Glibc does not export the constant to Swift.
        _ = fcntl(descriptor, 1031, pipeCapacity)
        #endif
    }

    /// Starts the reader thread; `onEvent` is called on that thread, in order, once per event.
    /// A second call does nothing. Should the system refuse a thread, `.endOfInput` is delivered
    /// at once on the calling thread, so the server ends instead of waiting forever.
    public func start(onEvent: @escaping @Sendable (ConnectionEvent) -> Void) {
        let shouldStart = readerState.withLock { state -> Bool in
            guard !state.started, !state.closed else { return false }
            state.started = true
            return true
        }
        guard shouldStart else { return }
        let started = ReaderThread.start { [self] in
            self.readLoop(onEvent: onEvent)
        }
        if !started { onEvent(.endOfInput) }
    }

    /// Sends a message; safe to call from any thread. Dropped quietly once the connection is
    /// closed or broken.
    public func send(_ message: Message) {
        sendFrame(Framing.frame(message))
    }

    /// Writes an already framed message whole; returns false when it was not (fully) written
    /// because the connection is closed or broken.
    @discardableResult
    public func sendFrame(_ frame: [UInt8]) -> Bool {
        writerState.withLock { state -> Bool in
            guard !state.closed, !state.broken else { return false }
            let written = frame.withUnsafeBytes { bytes in Self.writeAll(bytes, to: output) }
            if !written { state.broken = true }
            return written
        }
    }

    /// Writes a frame given as consecutive buffers (`Framing.responseParts`) whole, with no
    /// other frame between them; returns false when it was not (fully) written.
    @discardableResult
    public func sendFrame(parts: [[UInt8]]) -> Bool {
        writerState.withLock { state -> Bool in
            guard !state.closed, !state.broken else { return false }
            for part in parts {
                let written = part.withUnsafeBytes { bytes in Self.writeAll(bytes, to: output) }
                if !written {
                    state.broken = true
                    return false
                }
            }
            return true
        }
    }

    /// Whether a write has failed (the peer went away); later sends are dropped.
    public var isBroken: Bool {
        writerState.withLock { $0.broken }
    }

    /// Stops event delivery and drops later sends. The descriptors stay open (the caller owns
    /// them).
    public func close() {
        readerState.withLock { $0.closed = true }
        writerState.withLock { $0.closed = true }
    }

    private var isClosed: Bool {
        readerState.withLock { $0.closed }
    }

    // MARK: Reading

    private func readLoop(onEvent: @Sendable (ConnectionEvent) -> Void) {
        var framer = MessageFramer(maxContentLength: maxContentLength)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunkSize, alignment: 16)
        defer { chunk.deallocate() }
        reading: while true {
            let count = read(input, chunk.baseAddress, chunk.count)
            if count > 0 {
                framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                while let item = framer.next() {
                    if isClosed { return }
                    onEvent(Self.event(for: item, oversizedRequestID: framer.oversizedRequestID,
                                       maxContentLength: maxContentLength))
                }
            } else if count == 0 {
                break reading
            } else {
                switch errno {
                case EINTR:
                    continue reading
                case EAGAIN, EWOULDBLOCK:
                    Self.waitUntilReady(input, events: Int16(POLLIN))
                default:
                    break reading
                }
            }
            if isClosed { return }
        }
        if !isClosed, let item = framer.finish() {
            onEvent(Self.event(for: item, oversizedRequestID: framer.oversizedRequestID, maxContentLength: maxContentLength))
        }
        if !isClosed { onEvent(.endOfInput) }
    }

    /// Turns a framed item into an event: parse, then classify. A too-large request whose id
    /// could be read becomes `.invalid` with that id, so the error answers the request.
    static func event(for item: FramedItem, oversizedRequestID: RequestID?, maxContentLength: Int) -> ConnectionEvent {
        switch item {
        case .error(.tooLarge(let length)):
            guard let id = oversizedRequestID else { return .framingError(.tooLarge(length)) }
            return .invalid(DecodingFailure(id: id, error: ResponseError(
                code: ResponseError.invalidRequest,
                text: LocalizedText("jsonrpc.message.tooLarge", .string(String(length)), .string(String(maxContentLength))))))
        case .error(let error):
            return .framingError(error)
        case .body(let body):
            let value: JSONValue
            do {
                value = try JSON.parse(body)
            } catch {
                return .invalid(DecodingFailure(id: nil, error: ResponseError(
                    code: ResponseError.parseError, text: LocalizedText("jsonrpc.message.invalidJSON", .text(error.located)))))
            }
            switch Message.decode(value) {
            case .success(let message): return .message(message)
            case .failure(let failure): return .invalid(failure)
            }
        }
    }

    // MARK: Writing

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                waitUntilReady(descriptor, events: Int16(POLLOUT))
            } else {
                return false
            }
        }
        return true
    }

    /// Blocks until a non-blocking descriptor is ready (or in error, which the retry reports).
    private static func waitUntilReady(_ descriptor: Int32, events: Int16) {
        var request = pollfd(fd: descriptor, events: events, revents: 0)
        _ = poll(&request, 1, -1)
    }
}

/// Starts detached pthreads running a Swift closure.
private enum ReaderThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread; false when the thread could not be created.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        #else
        var thread: pthread_t?
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0, let thread else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        #endif
        return true
    }
}
