// MessageFramer: splits a byte stream into `Content-Length` framed bodies, incrementally.
//
// Invariants:
// - Pure: bytes in through `append`, items out through `next`; no IO, no clocks, no threads.
// - Header names are case-insensitive; lines end in `\r\n` or a bare `\n`; blank lines between
//   messages are skipped; `Content-Type` and any other well-formed header are accepted and
//   ignored. Only `Content-Length` matters.
// - A bad header section yields exactly one `.error` and then the framer RESYNCS: it discards
//   bytes up to the next occurrence of `Content-Length` (any case) after the bad line and reads
//   headers from there, so a confused client stream heals at its next message.
// - A body longer than `maxContentLength` yields `.error(.tooLarge(n))` once its first
//   `oversizedPeekLength` bytes have arrived (they are searched for the request id, see
//   `oversizedRequestID`); the rest of its `n` bytes are skipped as they arrive, never buffered. A Content-Length that
//   does not even fit in 18 digits is treated as invalid (resync), not as a body to skip.
// - A header section (its blank line included) longer than `maxHeaderLength` is an error.
// - The items produced do not depend on how the stream was split into appends.
// - Memory is bounded: at most one body (≤ `maxContentLength`) plus one header section
//   (≤ `maxHeaderLength`) plus the last appended chunk is buffered.

import Localization

/// One item cut from the byte stream.
public enum FramedItem: Sendable, Equatable {
    /// A complete message body (its bytes, not yet parsed).
    case body([UInt8])
    /// A framing problem; the framer has already recovered and continues with later bytes.
    case error(FramingError)
}

/// What was wrong with a message's header section or length.
public enum FramingError: Error, Sendable, Equatable {
    /// A header section ended without a `Content-Length` header.
    case missingContentLength
    /// A `Content-Length` whose value is not a plain non-negative decimal number (the value).
    case invalidContentLength(String)
    /// A `Content-Length` over the limit (the declared length); the body is skipped.
    case tooLarge(Int)
    /// A header line that is not `Name: value`, or a header section that never ends (what was
    /// wrong).
    case invalidHeader(LocalizedText)

    /// What was wrong, for people.
    public var text: LocalizedText {
        switch self {
        case .missingContentLength: LocalizedText("jsonrpc.header.missingContentLength")
        case .invalidContentLength(let value): LocalizedText("jsonrpc.header.invalidContentLength", .string(value))
        case .tooLarge(let length): LocalizedText("jsonrpc.header.bodyTooLarge", .string(String(length)))
        case .invalidHeader(let text): text
        }
    }
}

/// An incremental `Content-Length` framer: feed bytes as they are read, take bodies and errors.
public struct MessageFramer {
    /// Bodies longer than this are reported as `.tooLarge` and skipped.
    public let maxContentLength: Int
    /// A header section longer than this without its terminating blank line is an error.
    public static let maxHeaderLength = 8192

    private enum State {
        /// Expecting a header section at `start`.
        case header
        /// The headers are read; a body of this many bytes starts at `start`.
        case body(Int)
        /// A too-large body of this length starts at `start`: waiting for its first bytes
        /// (up to `oversizedPeekLength`) to look for its request id.
        case peeking(Int)
        /// Dropping this many more bytes of a too-large body.
        case skipping(Int)
        /// Discarding bytes until the next `Content-Length`.
        case resyncing
    }

    private var buffer: [UInt8] = []
    /// The first byte of `buffer` not yet consumed.
    private var start = 0
    private var state: State = .header

    /// How far the header section at `start` has been read, so bytes that trickle in one at a
    /// time are each looked at once: offsets from `start` of the first line not yet read and of
    /// the first byte not yet searched for a newline, and the Content-Length read so far.
    /// Offsets from `start` stay valid when `compact` moves the bytes.
    private struct SectionProgress {
        var lineOffset = 0
        var searchedOffset = 0
        var contentLength: Int?
    }

    private var sectionProgress = SectionProgress()

    /// How many leading bytes of a too-large body are read to find its request id.
    public static let oversizedPeekLength = 1024

    /// The request id read from the first bytes of the body most recently reported as
    /// `.tooLarge`, when its top-level `"id"` lies within them (so the error can answer that
    /// request); `nil` otherwise.
    public private(set) var oversizedRequestID: RequestID?

    public init(maxContentLength: Int = 64 << 20) {
        self.maxContentLength = max(0, maxContentLength)
    }

    /// How many bytes are held, waiting for the rest of a header section or body.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var incoming = bytes[...]
        dropSkippedBytes()
        if case .skipping(let remaining) = state {
            // The buffer is empty here: skip straight from the incoming bytes.
            let dropped = min(remaining, incoming.count)
            incoming = incoming.dropFirst(dropped)
            state = remaining == dropped ? .header : .skipping(remaining - dropped)
        }
        compact()
        if incoming.isEmpty { return }
        UnsafeRawBufferPointer(rebasing: incoming).withMemoryRebound(to: UInt8.self) { chunk in
            buffer.append(contentsOf: chunk)
        }
    }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// What the end of the input leaves: a message over the limit whose body did not come in
    /// full is still refused (with the request id when the bytes that came show it), as when
    /// its header was read; nil otherwise.
    public mutating func finish() -> FramedItem? {
        guard case .peeking(let length) = state else { return nil }
        oversizedRequestID = RequestIDPeek.find(in: buffer[start..<buffer.count])
        state = .skipping(length)
        return .error(.tooLarge(length))
    }

    /// The next complete body or framing error, or `nil` when more bytes are needed.
    public mutating func next() -> FramedItem? {
        while true {
            switch state {
            case .skipping:
                dropSkippedBytes()
                if case .skipping = state { return nil }
            case .resyncing:
                if let found = indexOfContentLength(from: start) {
                    start = found
                    state = .header
                } else {
                    // Keep a tail that may be the beginning of a split "Content-Length".
                    start = max(start, buffer.count - (Self.contentLengthName.count - 1))
                    return nil
                }
            case .peeking(let length):
                let prefixLength = min(length, Self.oversizedPeekLength)
                guard buffer.count - start >= prefixLength else { return nil }
                oversizedRequestID = RequestIDPeek.find(in: buffer[start..<(start + prefixLength)])
                state = .skipping(length)
                return .error(.tooLarge(length))
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<(start + length)])
                start += length
                state = .header
                return .body(body)
            case .header:
                while start < buffer.count, buffer[start] == 0x0A || buffer[start] == 0x0D { start += 1 }
                guard start < buffer.count else { return nil }
                switch readHeaderSection() {
                case .incomplete:
                    return nil
                case .tooLong:
                    return fail(.invalidHeader(LocalizedText("jsonrpc.header.tooLong", .integer(Self.maxHeaderLength))),
                                resyncFrom: start + 1)
                case .failure(let error, let resyncFrom):
                    return fail(error, resyncFrom: resyncFrom)
                case .complete(let length, let end):
                    start = end
                    if length > maxContentLength {
                        state = .peeking(length)
                        continue
                    }
                    state = .body(length)
                }
            }
        }
    }

    // MARK: Header section

    private enum HeaderResult {
        case incomplete
        /// No blank line within the first `maxHeaderLength` bytes.
        case tooLong
        case complete(contentLength: Int, end: Int)
        case failure(FramingError, resyncFrom: Int)
    }

    private static let contentLengthName = Array("content-length".utf8)

    /// Reads the header section at `start`. Only its first `maxHeaderLength` bytes are looked
    /// at, so the outcome does not depend on how the bytes were split into appends.
    /// Lines already read are not read again when more bytes arrive (see `SectionProgress`).
    private mutating func readHeaderSection() -> HeaderResult {
        var lineStart = start + sectionProgress.lineOffset
        var contentLength = sectionProgress.contentLength
        let windowEnd = min(buffer.count, start + Self.maxHeaderLength)
        var searchFrom = max(lineStart, start + sectionProgress.searchedOffset)
        sectionProgress = SectionProgress()
        while true {
            guard let newline = buffer[searchFrom..<windowEnd].firstIndex(of: 0x0A) else {
                if buffer.count - start >= Self.maxHeaderLength { return .tooLong }
                sectionProgress = SectionProgress(
                    lineOffset: lineStart - start, searchedOffset: windowEnd - start, contentLength: contentLength)
                return .incomplete
            }
            var lineEnd = newline
            if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart {
                guard let contentLength else {
                    return .failure(.missingContentLength, resyncFrom: start + 1)
                }
                return .complete(contentLength: contentLength, end: newline + 1)
            }
            let line = buffer[lineStart..<lineEnd]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(.invalidHeader(LocalizedText("jsonrpc.header.notHeaderLine", .string(Self.printable(line)))), resyncFrom: lineStart + 1)
            }
            let name = Self.trimmed(buffer[lineStart..<colon])
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                return .failure(.invalidHeader(LocalizedText("jsonrpc.header.invalidName", .string(Self.printable(line)))), resyncFrom: lineStart + 1)
            }
            if Self.equalsIgnoringCase(name, Self.contentLengthName) {
                let value = Self.trimmed(buffer[(colon + 1)..<lineEnd])
                guard let length = Self.decimal(value) else {
                    return .failure(.invalidContentLength(Self.printable(value)), resyncFrom: lineStart + 1)
                }
                if let contentLength, contentLength != length {
                    return .failure(.invalidHeader(LocalizedText("jsonrpc.header.conflictingContentLength")), resyncFrom: lineStart + 1)
                }
                contentLength = length
            }
            lineStart = newline + 1
            searchFrom = lineStart
        }
    }

    private mutating func fail(_ error: FramingError, resyncFrom index: Int) -> FramedItem {
        start = min(index, buffer.count)
        state = .resyncing
        return .error(error)
    }

    private mutating func dropSkippedBytes() {
        guard case .skipping(let remaining) = state else { return }
        let dropped = min(remaining, buffer.count - start)
        start += dropped
        state = remaining == dropped ? .header : .skipping(remaining - dropped)
    }

    /// Drops consumed bytes, cheaply: all at once when everything is consumed, otherwise only
    /// when the consumed prefix is large, so each byte moves O(1) times on average.
    private mutating func compact() {
        if start == buffer.count {
            if buffer.capacity > 4 << 20 {
                buffer = []
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
            start = 0
        } else if start >= 65536, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    private func indexOfContentLength(from index: Int) -> Int? {
        let name = Self.contentLengthName
        guard buffer.count - index >= name.count else { return nil }
        var candidate = index
        let last = buffer.count - name.count
        while candidate <= last {
            if buffer[candidate] | 0x20 == name[0],
               Self.equalsIgnoringCase(buffer[candidate..<(candidate + name.count)], name) {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    // MARK: Byte helpers

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return bytes[lower..<upper]
    }

    /// ASCII case-insensitive comparison with a lowercase name.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercaseName: [UInt8]) -> Bool {
        guard bytes.count == lowercaseName.count else { return false }
        var index = bytes.startIndex
        for expected in lowercaseName {
            let byte = bytes[index]
            let lowered = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
            if lowered != expected { return false }
            index += 1
        }
        return true
    }

    /// A plain decimal of 1 to 18 digits (so it always fits in Int), else `nil`.
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static let tokenPunctuation: [UInt8] = Array("!#$%&'*+-.^_`|~".utf8)

    /// RFC 7230 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return tokenPunctuation.contains(byte)
        }
    }

    /// Up to 64 bytes of a header line as text, for error messages.
    private static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        let shown = bytes.prefix(64)
        let text = String(decoding: shown, as: UTF8.self)
        return bytes.count > shown.count ? text + "…" : text
    }
}
