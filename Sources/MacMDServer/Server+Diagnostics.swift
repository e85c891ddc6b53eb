// Diagnostics out of the notebook index: pushed (`textDocument/publishDiagnostics`) for open
// notes, or pulled (`textDocument/diagnostic`, `workspace/diagnostic`) by clients that ask.
//
// Invariants: every diagnostic has `source: "macmd"` and a stable `code`; the configured
// severity (or `off`) is applied here, in one place; ranges are converted with the text the
// diagnostics were computed from, so a pushed set always matches the version it names.

import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownSyntax
import NotebookIndex
import TextCore

extension Server {
    /// A note's text: the open buffer (with its version) or the file on disk.
    func text(of location: NoteLocation) -> (text: [UInt8], version: Int?, uri: String)? {
        let found = state.withLock { state -> (OpenDocument?, String, String?) in
            let uri = Server.uri(of: location, state: state)
            let root = state.roots.first { $0.path == location.root }
            return (state.documents[uri], uri, root?.absolutePath(location.path))
        }
        if let document = found.0 { return (document.text, document.version, found.1) }
        guard let path = found.2, case .success(let bytes) = FileReader.contents(of: path) else { return nil }
        return (bytes, nil, found.1)
    }

    /// The LSP diagnostics of a note, for `text`.
    func diagnostics(of location: NoteLocation, text: [UInt8]) -> [JSONValue] {
        let snapshot = state.withLock { state -> (NotebookRoot?, PositionEncoding) in
            (state.roots.first { $0.path == location.root }, state.client.encoding)
        }
        guard let root = snapshot.0 else { return [] }
        let lines = LineIndex(utf8: text)
        let encoding = snapshot.1
        var result: [JSONValue] = []
        let found = root.notebook.diagnostics(for: location.path) { FileReader.exists(root.absolutePath($0)) }
        for diagnostic in found {
            guard let severity = root.configuration.severity(of: diagnostic.code, default: diagnostic.severity) else { continue }
            var item: [String: JSONValue] = [
                "range": lspRange(diagnostic.range, lines, encoding).json,
                "severity": .int(Int64(Server.severityNumber(severity))),
                "code": .string(diagnostic.code),
                "source": "macmd",
                "message": .string(diagnostic.message),
            ]
            if !diagnostic.related.isEmpty {
                item["relatedInformation"] = .array(diagnostic.related.map { path in
                    ["location": ["uri": .string(FileURI.uri(ofPath: root.path + "/" + path)),
                                  "range": LSPRange(start: .init(line: 0, character: 0), end: .init(line: 0, character: 0)).json],
                     "message": .string("candidate: \(path)")]
                })
            }
            if diagnostic.code == "unused-definition" { item["tags"] = [1] }
            result.append(.object(item))
        }
        return result
    }

    func lspRange(_ span: ByteSpan, _ lines: LineIndex, _ encoding: PositionEncoding) -> LSPRange {
        LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(span.start), encoding: encoding),
                 end: lines.lspPosition(ofUTF8Offset: Int(span.end), encoding: encoding))
    }

    static func severityNumber(_ severity: NoteDiagnostic.Severity) -> Int {
        switch severity {
        case .error: return 1
        case .warning: return 2
        case .information: return 3
        case .hint: return 4
        }
    }

    /// Sends fresh diagnostics for those of `locations` that are open (push clients), or asks a
    /// pull client to pull again.
    func publishDiagnostics(_ locations: [NoteLocation]) {
        let (pull, refresh) = state.withLock { ($0.client.supportsPullDiagnostics, $0.client.supportsDiagnosticRefresh) }
        if pull {
            if refresh && !locations.isEmpty {
                sendRequest("workspace/diagnostic/refresh", params: .null) { _ in }
            }
            return
        }
        var seen: Set<NoteLocation> = []
        for location in locations where seen.insert(location).inserted {
            guard state.withLock({ Server.isOpen(location, $0) }), let (text, version, uri) = text(of: location) else { continue }
            var params: [String: JSONValue] = ["uri": .string(uri), "diagnostics": .array(diagnostics(of: location, text: text))]
            if let version { params["version"] = .int(Int64(version)) }
            // Only the latest version's diagnostics go out; a newer job will publish its own.
            if let version, state.withLock({ $0.documents[uri]?.version }) != version { continue }
            connection.send(.notification(method: "textDocument/publishDiagnostics", params: .object(params)))
        }
    }

    /// Publishes for every open note of the given notebooks.
    func publishDiagnostics(forOpenNotesIn roots: Set<String>) {
        let open = state.withLock { state in
            state.documents.keys.compactMap { FileURI.path(of: $0).flatMap { Server.locate(file: $0, in: state.roots) } }
        }
        publishDiagnostics(open.filter { roots.contains($0.root) })
    }

    /// `textDocument/diagnostic`: the full report for one note.
    func pullDiagnostics(id: RequestID, params: JSONValue?) {
        let uri: String
        do { uri = try DocumentParams(params).uri } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in
            guard let location = locate(uri), let (text, _, _) = text(of: location) else {
                return .success(["kind": "full", "items": []])
            }
            return .success(["kind": "full", "items": .array(diagnostics(of: location, text: text))])
        }
    }

    /// `workspace/diagnostic`: every note with problems, and empty reports for notes whose
    /// problems went away since the last pull.
    func pullWorkspaceDiagnostics(id: RequestID) {
        schedule(id) { [self] in
            let roots = state.withLock { $0.roots }
            var reports: [JSONValue] = []
            var reported: Set<String> = []
            for root in roots {
                for path in root.notebook.notes.keys.sorted() {
                    let location = NoteLocation(root: root.path, path: path)
                    guard !root.notebook.diagnostics(for: path, fileExists: { FileReader.exists(root.absolutePath($0)) }).isEmpty,
                          let (text, version, uri) = text(of: location) else { continue }
                    let items = diagnostics(of: location, text: text)
                    if items.isEmpty { continue }
                    reported.insert(uri)
                    reports.append(["kind": "full", "uri": .string(uri), "version": version.map { .int(Int64($0)) } ?? .null,
                                    "items": .array(items)])
                }
            }
            let cleared = state.withLock { state -> Set<String> in
                let previous = state.workspaceDiagnosticURIs
                state.workspaceDiagnosticURIs = reported
                return previous.subtracting(reported)
            }
            for uri in cleared.sorted() { reports.append(["kind": "full", "uri": .string(uri), "version": .null, "items": []]) }
            return .success(["items": .array(reports)])
        }
    }
}
