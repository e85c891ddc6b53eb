// ResponseError: the `error` member of a JSON-RPC response, with the JSON-RPC and LSP codes.
//
// Its message is a `LocalizedText`: the server writes it in the client's language
// (`localized(in:)`) when it answers; `json` writes English (before `initialize` there is no
// language yet). Two errors are equal when their code, English message and data are.

import JSON
import Localization

/// An error answered to a request (or received in a response to one of ours).
public struct ResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error code; see the constants below.
    public var code: Int
    /// A short sentence for people; it names the offending field for invalid params.
    public var text: LocalizedText
    /// Optional extra information.
    public var data: JSONValue?

    public init(code: Int, text: LocalizedText, data: JSONValue? = nil) {
        self.code = code
        self.text = text
        self.data = data
    }

    /// An error whose message is given as it is (one received from the other side).
    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.init(code: code, text: .verbatim(message), data: data)
    }

    /// The message in English.
    public var message: String { text.english }

    /// The same error with its message written in `locale`, as it is sent.
    public func localized(in locale: SupportedLocale) -> ResponseError {
        ResponseError(code: code, message: text.string(in: locale), data: data)
    }

    public static func == (lhs: ResponseError, rhs: ResponseError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.data == rhs.data
    }

    /// Invalid JSON was received (JSON-RPC).
    public static let parseError = -32700
    /// The JSON sent is not a valid request object, or a request came after `shutdown`.
    public static let invalidRequest = -32600
    /// The method does not exist or is not available.
    public static let methodNotFound = -32601
    /// Invalid method parameters.
    public static let invalidParams = -32602
    /// An internal error of the server.
    public static let internalError = -32603
    /// A request came before `initialize` (LSP).
    public static let serverNotInitialized = -32002
    /// Reserved by LSP for errors without a better code.
    public static let unknownErrorCode = -32001
    /// The request was cancelled by `$/cancelRequest` (LSP).
    public static let requestCancelled = -32800
    /// The document changed while the request ran, so its result would be stale (LSP).
    public static let contentModified = -32801
    /// The request was valid but failed (LSP 3.17).
    public static let requestFailed = -32803

    /// The same codes under a namespace, for call sites that read better as
    /// `ResponseError.Code.invalidParams`.
    public enum Code {
        public static let parseError = ResponseError.parseError
        public static let invalidRequest = ResponseError.invalidRequest
        public static let methodNotFound = ResponseError.methodNotFound
        public static let invalidParams = ResponseError.invalidParams
        public static let internalError = ResponseError.internalError
        public static let serverNotInitialized = ResponseError.serverNotInitialized
        public static let unknownErrorCode = ResponseError.unknownErrorCode
        public static let requestCancelled = ResponseError.requestCancelled
        public static let contentModified = ResponseError.contentModified
        public static let requestFailed = ResponseError.requestFailed
    }

    /// The error as the JSON object of a response's `error` member.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }

    /// Reads a response's `error` member; `nil` unless it has an integer `code` and a string
    /// `message`.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
        self.init(code: code, message: message, data: json["data"])
    }

    public var description: String { "\(code): \(message)" }
}
