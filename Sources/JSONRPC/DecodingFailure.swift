// DecodingFailure: a body that could not be read as a message, with what to answer.

/// A body that is not a valid message: the error to answer, and the request id when one could be
/// read (`nil` means the error response carries `"id": null`).
public struct DecodingFailure: Error, Sendable, Equatable {
    /// The id of the offending request, when it could be read.
    public var id: RequestID?
    /// The error to answer: -32700 (not JSON) or -32600 (not a valid message).
    public var error: ResponseError

    public init(id: RequestID?, error: ResponseError) {
        self.id = id
        self.error = error
    }

    /// The error response to send back for this failure.
    public var response: Message {
        .response(id: id, result: .failure(error))
    }
}
