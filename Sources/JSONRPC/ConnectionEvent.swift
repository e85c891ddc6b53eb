// ConnectionEvent: what the reader thread of a Connection reports, in stream order.

/// One event read from a connection's input.
public enum ConnectionEvent: Sendable, Equatable {
    /// A well-formed message.
    case message(Message)
    /// A framed body that is not a valid message: answer `failure.response` (-32700 with id null
    /// for a body that is not JSON, -32600 for JSON that is not a valid message). A message over
    /// the size limit whose request id could be read from its first bytes also comes as this
    /// (-32600 with that id), so the answer reaches the request that is waiting for it.
    case invalid(DecodingFailure)
    /// A framing problem (the framer has already resynchronized). `.tooLarge` comes here only
    /// when the skipped body's id is unknown; the server may answer it with id null.
    case framingError(FramingError)
    /// The input ended (EOF or a read error); reported once, as the last event.
    case endOfInput
}
