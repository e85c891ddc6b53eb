// Message: one JSON-RPC 2.0 message (request, notification or response) and its JSON form.
//
// Invariants:
// - `decode` never traps and classifies every JSON value: a message, or a `DecodingFailure`
//   carrying the code to answer (-32600 for a non-object or a malformed message) and the request
//   id whenever one could be read, so the error response can echo it.
// - `params: null` reads as absent (`nil`), because some clients send it for `shutdown`;
//   otherwise params must be an object or an array, as JSON-RPC requires.
// - A missing `"jsonrpc"` member is tolerated (lenient to odd clients); a present one must be
//   exactly `"2.0"`.
// - `json` always writes `"jsonrpc": "2.0"`, omits absent params, and writes `"id": null` for a
//   response whose request id could not be read.

import JSON
import Localization

/// A JSON-RPC 2.0 message.
public enum Message: Sendable, Equatable {
    /// A request: expects exactly one response with the same id.
    case request(id: RequestID, method: String, params: JSONValue?)
    /// A notification: no response.
    case notification(method: String, params: JSONValue?)
    /// A response; `id` is `nil` only for an error about a message whose id could not be read.
    case response(id: RequestID?, result: Result<JSONValue, ResponseError>)

    /// Classifies a decoded JSON body. A body that is valid JSON but not a valid message gives
    /// `.failure` with the request id when one could be read (so the error response can carry it).
    public static func decode(_ value: JSONValue) -> Result<Message, DecodingFailure> {
        guard case .object(let members) = value else {
            return .failure(DecodingFailure(id: nil, error: ResponseError(
                code: ResponseError.invalidRequest, text: LocalizedText("jsonrpc.message.notObject"))))
        }
        let idValue = members["id"]
        let id = idValue.flatMap(RequestID.init(json:))
        func invalid(_ key: String) -> Result<Message, DecodingFailure> {
            .failure(DecodingFailure(id: id, error: ResponseError(code: ResponseError.invalidRequest, text: LocalizedText(key))))
        }
        if let version = members["jsonrpc"], version != .string("2.0") {
            return invalid("jsonrpc.message.version")
        }
        if let idValue, id == nil, !idValue.isNull {
            return invalid("jsonrpc.message.idType")
        }
        if let methodValue = members["method"] {
            guard let method = methodValue.stringValue else {
                return invalid("jsonrpc.message.methodType")
            }
            var params = members["params"]
            switch params {
            case nil, .object?, .array?:
                break
            case .null?:
                params = nil
            default:
                return invalid("jsonrpc.message.paramsType")
            }
            guard idValue != nil else {
                return .success(.notification(method: method, params: params))
            }
            guard let id else {
                return invalid("jsonrpc.message.nullID")
            }
            return .success(.request(id: id, method: method, params: params))
        }
        let result = members["result"]
        let error = members["error"]
        if idValue == nil {
            return invalid("jsonrpc.message.noMethodNorID")
        }
        switch (result, error) {
        case (let result?, nil):
            return .success(.response(id: id, result: .success(result)))
        case (nil, let error?):
            guard let responseError = ResponseError(json: error) else {
                return invalid("jsonrpc.message.errorShape")
            }
            return .success(.response(id: id, result: .failure(responseError)))
        case (_?, _?):
            return invalid("jsonrpc.message.resultAndError")
        case (nil, nil):
            return invalid("jsonrpc.message.noMethodResultError")
        }
    }

    /// The message as JSON, `"jsonrpc": "2.0"` included.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            members["id"] = id.json
            members["method"] = .string(method)
            if let params { members["params"] = params }
        case .notification(let method, let params):
            members["method"] = .string(method)
            if let params { members["params"] = params }
        case .response(let id, let result):
            members["id"] = id?.json ?? .null
            switch result {
            case .success(let value): members["result"] = value
            case .failure(let error): members["error"] = error.json
            }
        }
        return .object(members)
    }

    /// The method of a request or notification; `nil` for a response.
    public var method: String? {
        switch self {
        case .request(_, let method, _), .notification(let method, _): return method
        case .response: return nil
        }
    }
}
