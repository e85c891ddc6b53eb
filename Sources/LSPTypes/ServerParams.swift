// Params of what the server sends on its own: settings queries, progress, and messages for the
// user or the log.

import JSON
import JSONRPC

/// `{scopeUri?, section?}`: a settings section to ask for.
public struct ConfigurationItem: Sendable, Equatable, LSPEncodable {
    public var scopeURI: String?
    public var section: String?

    public init(scopeURI: String? = nil, section: String? = nil) {
        self.scopeURI = scopeURI
        self.section = section
    }

    public var json: JSONValue { .object(omittingNil: ["scopeUri": scopeURI?.json, "section": section?.json]) }
}

/// `workspace/configuration`: `{items}`; the client answers one value per item, in order.
public struct ConfigurationParams: Sendable, Equatable, LSPEncodable {
    public var items: [ConfigurationItem]

    public init(items: [ConfigurationItem]) { self.items = items }

    public var json: JSONValue { ["items": items.json] }
}

/// A progress token: an integer or a string, chosen by whoever creates the progress.
public enum ProgressToken: Sendable, Hashable, LSPEncodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case int(Int)
    case string(String)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }

    public var json: JSONValue {
        switch self {
        case .int(let value): return value.json
        case .string(let value): return .string(value)
        }
    }
}

/// `window/workDoneProgress/create`: `{token}`; the token may be used once the client answered.
public struct WorkDoneProgressCreateParams: Sendable, Equatable, LSPEncodable {
    public var token: ProgressToken

    public init(token: ProgressToken) { self.token = token }

    public var json: JSONValue { ["token": token.json] }
}

/// `{kind: "begin", title, cancellable?, message?, percentage?}`.
public struct WorkDoneProgressBegin: Sendable, Equatable {
    public var title: String
    public var cancellable: Bool?
    public var message: String?
    /// 0 to 100.
    public var percentage: Int?

    public init(title: String, cancellable: Bool? = nil, message: String? = nil, percentage: Int? = nil) {
        self.title = title
        self.cancellable = cancellable
        self.message = message
        self.percentage = percentage
    }
}

/// `{kind: "report", cancellable?, message?, percentage?}`.
public struct WorkDoneProgressReport: Sendable, Equatable {
    public var cancellable: Bool?
    public var message: String?
    /// 0 to 100, never less than the last one reported.
    public var percentage: Int?

    public init(cancellable: Bool? = nil, message: String? = nil, percentage: Int? = nil) {
        self.cancellable = cancellable
        self.message = message
        self.percentage = percentage
    }
}

/// `{kind: "end", message?}`.
public struct WorkDoneProgressEnd: Sendable, Equatable {
    public var message: String?

    public init(message: String? = nil) { self.message = message }
}

/// The value of a work-done `$/progress`: its beginning, a report, or its end.
public enum WorkDoneProgress: Sendable, Equatable, LSPEncodable {
    case begin(WorkDoneProgressBegin)
    case report(WorkDoneProgressReport)
    case end(WorkDoneProgressEnd)

    public var json: JSONValue {
        switch self {
        case .begin(let begin):
            return .object(omittingNil: [
                "kind": "begin", "title": .string(begin.title), "cancellable": begin.cancellable?.json,
                "message": begin.message?.json, "percentage": begin.percentage?.json,
            ])
        case .report(let report):
            return .object(omittingNil: [
                "kind": "report", "cancellable": report.cancellable?.json, "message": report.message?.json,
                "percentage": report.percentage?.json,
            ])
        case .end(let end):
            return .object(omittingNil: ["kind": "end", "message": end.message?.json])
        }
    }
}

/// `$/progress`: `{token, value}`.
public struct ProgressParams: Sendable, Equatable, LSPEncodable {
    public var token: ProgressToken
    public var value: WorkDoneProgress

    public init(token: ProgressToken, value: WorkDoneProgress) {
        self.token = token
        self.value = value
    }

    public var json: JSONValue { ["token": token.json, "value": value.json] }
}

/// `window/logMessage` and `window/showMessage` (LSP's `LogMessageParams` and
/// `ShowMessageParams` are the same): `{type, message}`.
public struct LogMessageParams: Sendable, Equatable, LSPEncodable {
    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
        self.type = type
        self.message = message
    }

    public var json: JSONValue { ["type": type.json, "message": .string(message)] }
}

public typealias ShowMessageParams = LogMessageParams

/// `window/showMessageRequest`: a message with the actions the user may choose between.
public struct ShowMessageRequestParams: Sendable, Equatable, LSPEncodable {
    public var type: MessageType
    public var message: String
    public var actions: [MessageActionItem]

    public init(type: MessageType, message: String, actions: [MessageActionItem]) {
        self.type = type
        self.message = message
        self.actions = actions
    }

    public var json: JSONValue {
        ["type": type.json, "message": .string(message), "actions": .array(actions.map(\.json))]
    }
}

/// An action of a `window/showMessageRequest`, and the client's answer (the chosen one; `null`
/// when the user closed the message without choosing).
public struct MessageActionItem: Sendable, Equatable, LSPDecodable, LSPEncodable {
    public var title: String

    public init(title: String) { self.title = title }

    public init(_ reader: ParamReader) throws(ResponseError) {
        title = try reader.field("title").string()
    }

    public var json: JSONValue { ["title": .string(title)] }
}
