// Diagnostics, pushed (`textDocument/publishDiagnostics`) or pulled (`textDocument/diagnostic`,
// `workspace/diagnostic`).

import JSON

/// A problem in a document. `relatedInformation` and `tags` are written only when non-empty.
public struct Diagnostic: Sendable, Equatable, LSPEncodable {
    public var range: LSPRange
    public var severity: DiagnosticSeverity?
    /// A stable name of the problem (LSP allows a number too; MacMD's codes are names).
    public var code: String?
    /// Who reports it (`macmd`).
    public var source: String?
    public var message: String
    public var tags: [DiagnosticTag]
    public var relatedInformation: [DiagnosticRelatedInformation]

    public init(range: LSPRange, severity: DiagnosticSeverity? = nil, code: String? = nil, source: String? = nil,
                message: String, tags: [DiagnosticTag] = [], relatedInformation: [DiagnosticRelatedInformation] = []) {
        self.range = range
        self.severity = severity
        self.code = code
        self.source = source
        self.message = message
        self.tags = tags
        self.relatedInformation = relatedInformation
    }

    public var json: JSONValue {
        .object(omittingNil: [
            "range": range.json,
            "severity": severity?.json,
            "code": code?.json,
            "source": source?.json,
            "message": .string(message),
            "tags": tags.jsonUnlessEmpty,
            "relatedInformation": relatedInformation.jsonUnlessEmpty,
        ])
    }
}

/// `{location, message}`: another place that explains a diagnostic.
public struct DiagnosticRelatedInformation: Sendable, Equatable, LSPEncodable {
    public var location: Location
    public var message: String

    public init(location: Location, message: String) {
        self.location = location
        self.message = message
    }

    public var json: JSONValue { ["location": location.json, "message": .string(message)] }
}

/// `textDocument/publishDiagnostics`: `{uri, version?, diagnostics}`; `version` is left out when
/// unknown (a note that is not open).
public struct PublishDiagnosticsParams: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var version: Int?
    public var diagnostics: [Diagnostic]

    public init(uri: String, version: Int? = nil, diagnostics: [Diagnostic]) {
        self.uri = uri
        self.version = version
        self.diagnostics = diagnostics
    }

    public var json: JSONValue {
        .object(omittingNil: ["uri": .string(uri), "version": version?.json, "diagnostics": diagnostics.json])
    }
}

/// `{kind: "full", resultId?, items}`: every diagnostic of a document (`textDocument/diagnostic`).
public struct FullDocumentDiagnosticReport: Sendable, Equatable, LSPEncodable {
    public var resultID: String?
    public var items: [Diagnostic]

    public init(resultID: String? = nil, items: [Diagnostic]) {
        self.resultID = resultID
        self.items = items
    }

    public var json: JSONValue { members.json }

    /// The members, for the workspace report that adds `uri` and `version` to them.
    var members: [String: JSONValue] {
        var members: [String: JSONValue] = ["kind": "full", "items": items.json]
        members["resultId"] = resultID?.json
        return members
    }
}

/// A full report of one document in `workspace/diagnostic`: `{kind: "full", uri, version, items}`,
/// `version` written as `null` for a note that is not open. An empty `items` clears what the
/// client showed for the note.
public struct WorkspaceFullDocumentDiagnosticReport: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var version: Int?
    public var report: FullDocumentDiagnosticReport

    public init(uri: String, version: Int?, report: FullDocumentDiagnosticReport) {
        self.uri = uri
        self.version = version
        self.report = report
    }

    public var json: JSONValue {
        var members = report.members
        members["uri"] = .string(uri)
        members["version"] = version.json
        return .object(members)
    }
}

/// `workspace/diagnostic`'s result: `{items}`.
public struct WorkspaceDiagnosticReport: Sendable, Equatable, LSPEncodable {
    public var items: [WorkspaceFullDocumentDiagnosticReport]

    public init(items: [WorkspaceFullDocumentDiagnosticReport]) { self.items = items }

    public var json: JSONValue { ["items": items.json] }
}
