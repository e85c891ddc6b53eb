// DiagnosticCodeDocs: the places that list the diagnostic codes, generated from `DiagnosticCode`:
// the `diagnostics` property of the JSON Schema of `.macmd.json` (editors/macmd.schema.json and
// its copy for VS Code) and the table of docs/notebook.md. `macmd-bench codes --write` rewrites
// them; DiagnosticCodeDocsTests fails when they drift.
//
// Invariants:
// - Only the generated part of each file changes: in the schema, the description and the
//   properties of `diagnostics` (one line per code, in `DiagnosticCode.allCases` order); in the
//   doc, the lines between `tableStart` and `tableEnd`. Everything else is kept byte for byte.
// - A file without the expected shape is reported (nil), never rewritten by guess.

import JSON
import NotebookIndex

public enum DiagnosticCodeDocs {
    /// The files to rewrite, relative to the package's root, with the kind of each.
    public static let schemaFiles = ["editors/macmd.schema.json", "editors/vscode/macmd.schema.json"]
    public static let docFile = "docs/notebook.md"

    /// The comments around the generated table of `docFile`.
    public static let tableStart = "<!-- The table is generated from DiagnosticCode: edit Sources/NotebookIndex/DiagnosticCode*.swift and run `macmd-bench codes --write`. -->"
    public static let tableEnd = "<!-- End of the generated table. -->"

    /// `text` with what the generator writes in place of the old, or nil when the file does not
    /// have the expected shape (which one it is, by `path`).
    public static func regenerated(_ text: String, path: String) -> String? {
        path == docFile ? regeneratedDoc(text) : regeneratedSchema(text)
    }

    // MARK: The doc's table

    /// The Markdown table of every code.
    public static func table() -> String {
        var lines = ["| Code | Default | Across notes | What |", "|------|---------|--------------|------|"]
        for code in DiagnosticCode.allCases {
            let severity = code.defaultSeverity?.rawValue ?? "off"
            lines.append("| `\(code.rawValue)` | \(severity) | \(code.dependsOnOtherNotes ? "yes" : "") | \(code.summary) |")
        }
        return lines.joined(separator: "\n")
    }

    static func regeneratedDoc(_ text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: tableStart),
              let end = lines[start...].firstIndex(of: tableEnd) else { return nil }
        lines.replaceSubrange((start + 1)..<end, with: table().split(separator: "\n").map(String.init))
        return lines.joined(separator: "\n")
    }

    // MARK: The schema

    /// The schema's description of `diagnostics`.
    public static func schemaDescription() -> String {
        let off = DiagnosticCode.allCases.filter { $0.defaultSeverity == nil }.map { "`\($0.rawValue)`" }
        var text = "How each diagnostic code is shown: a severity, or `off`. Codes not listed keep their own severity"
        if !off.isEmpty {
            text += "; " + off.joined(separator: ", ") + (off.count == 1 ? " is" : " are") + " off until given one"
        }
        return text + ". See docs/notebook.md#diagnostics."
    }

    /// The schema's description of one code: its summary as a sentence, links reduced to their
    /// text, and its default severity.
    public static func schemaDescription(of code: DiagnosticCode) -> String {
        var summary = withoutLinkDestinations(code.summary)
        if let first = summary.first { summary.replaceSubrange(...summary.startIndex, with: first.uppercased()) }
        return summary + ". Default: \(code.defaultSeverity?.rawValue ?? "off")."
    }

    static func regeneratedSchema(_ text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func trimmed(_ index: Int) -> Substring { lines[index].drop { $0 == " " } }
        // The `diagnostics` object opens a line of its own (a `features.diagnostics` switch is
        // a one-line property).
        guard let owner = lines.indices.first(where: { trimmed($0) == "\"diagnostics\": {" }),
              let description = lines.indices.dropFirst(owner + 1).first(where: { trimmed($0).hasPrefix("\"description\": ") }),
              let properties = lines.indices.dropFirst(owner + 1).first(where: { trimmed($0) == "\"properties\": {" }),
              description < properties,
              let close = lines.indices.dropFirst(properties + 1).first(where: { trimmed($0).hasPrefix("}") })
        else { return nil }
        let indent = String(lines[properties].prefix { $0 == " " })
        lines[description] = indent + "\"description\": " + quoted(schemaDescription()) + ","
        let codes = DiagnosticCode.allCases.enumerated().map { index, code in
            indent + "  " + quoted(code.rawValue) + ": { \"$ref\": \"#/definitions/severity\", \"description\": "
                + quoted(schemaDescription(of: code)) + " }" + (index + 1 < DiagnosticCode.allCases.count ? "," : "")
        }
        lines.replaceSubrange((properties + 1)..<close, with: codes)
        return lines.joined(separator: "\n")
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        String(decoding: JSON.serialize(.string(text)), as: UTF8.self)
    }

    /// `[text](destination)` → `text`, outside code spans.
    static func withoutLinkDestinations(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        var inCode = false
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "`" { inCode.toggle() }
            if !inCode, character == "]", rest.first == "(", let close = rest.firstIndex(of: ")"),
               let open = result.lastIndex(of: "[") {
                result.remove(at: open)
                rest = rest[rest.index(after: close)...]
                continue
            }
            result.append(character)
        }
        return result
    }
}
