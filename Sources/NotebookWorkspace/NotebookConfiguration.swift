// A notebook's settings: the defaults, then the editor's (`initializationOptions`, then
// `workspace/didChangeConfiguration` or `workspace/configuration`, section `macmd`), then the
// notebook's own `.macmd.json` at its root, each layer overriding the keys it sets.
//
// Invariant: reading settings never fails. A layer that is not a JSON object, a key with the
// wrong type or an unknown value is ignored (the earlier layers' value stays) and named in
// `problems`, so the server can log why it fell back.

import JSONRPC
import MarkdownHTML
import NotebookIndex

/// Every key is documented in the README ("Configuration").
public struct NotebookConfiguration: Sendable, Equatable {
    /// File extensions of notes, without the dot.
    public var extensions: [String] = ["md", "markdown"]
    /// Extra ignore globs (gitignore syntax), on top of `.gitignore` files.
    public var ignore: [String] = []
    /// Files larger than this are not indexed.
    public var maxFileSize: Int64 = 5 * 1024 * 1024
    /// Whether the home folder or `/` may be indexed.
    public var allowHomeOrRoot = false
    /// Severity per diagnostic code; nil switches the code off.
    public var severities: [String: NoteDiagnostic.Severity?] = [:]
    /// The preview's theme when a request names none (`preview.theme`), one of `PreviewTheme`'s
    /// names.
    public var previewTheme = "light"

    /// Why layers or keys were ignored, one sentence each.
    public var problems: [String] = []

    public init() {}

    /// The settings from `layers`, earliest first; `names` say where each layer came from.
    public static func merged(_ layers: [(name: String, value: JSONValue)]) -> NotebookConfiguration {
        var result = NotebookConfiguration()
        for (name, value) in layers { result.apply(value, from: name) }
        return result
    }

    /// The severity `code` is shown with (`severity` when not configured), or nil when it is off.
    public func severity(of code: String, default severity: NoteDiagnostic.Severity) -> NoteDiagnostic.Severity? {
        if let configured = severities[code] { return configured }
        return severity
    }

    /// The scanner options these settings ask for.
    public var scanOptions: ScanOptions {
        var options = ScanOptions()
        options.extensions = extensions
        options.ignoreGlobs = ignore
        options.maxFileSize = maxFileSize
        options.allowHomeOrRoot = allowHomeOrRoot
        return options
    }

    mutating func apply(_ value: JSONValue, from name: String) {
        guard case .object(let object) = value else {
            if !value.isNull { problems.append("\(name): expected a JSON object; using the defaults") }
            return
        }
        for (key, item) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "extensions":
                guard let list = strings(item), !list.isEmpty else {
                    problems.append("\(name): `extensions` must be a non-empty list of strings")
                    continue
                }
                extensions = list.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
            case "ignore":
                guard let list = strings(item) else {
                    problems.append("\(name): `ignore` must be a list of glob strings")
                    continue
                }
                ignore = list
            case "maxFileSize":
                guard case .int(let bytes) = item, bytes > 0 else {
                    problems.append("\(name): `maxFileSize` must be a positive number of bytes")
                    continue
                }
                maxFileSize = bytes
            case "allowHomeOrRoot":
                guard case .bool(let flag) = item else {
                    problems.append("\(name): `allowHomeOrRoot` must be true or false")
                    continue
                }
                allowHomeOrRoot = flag
            case "diagnostics":
                guard case .object(let codes) = item else {
                    problems.append("\(name): `diagnostics` must map codes to error, warning, information, hint or off")
                    continue
                }
                for (code, level) in codes.sorted(by: { $0.key < $1.key }) {
                    guard let text = level.stringValue else {
                        problems.append("\(name): `diagnostics.\(code)` must be a string")
                        continue
                    }
                    if text == "off" {
                        severities[code] = .some(nil)
                    } else if let severity = NoteDiagnostic.Severity(rawValue: text) {
                        severities[code] = severity
                    } else {
                        problems.append("\(name): `diagnostics.\(code)`: expected error, warning, information, hint or off, got `\(text)`")
                    }
                }
            case "preview":
                guard case .object(let preview) = item else {
                    problems.append("\(name): `preview` must be an object such as {\"theme\": \"dark\"}")
                    continue
                }
                for (subkey, value) in preview.sorted(by: { $0.key < $1.key }) {
                    guard subkey == "theme" else {
                        problems.append("\(name): unknown key `preview.\(subkey)` ignored")
                        continue
                    }
                    // Checked here, so a bad theme in a settings file falls back with a log line
                    // instead of failing every preview that names no theme.
                    guard let theme = value.stringValue, PreviewTheme(rawValue: theme) != nil else {
                        problems.append("\(name): `preview.theme`: expected one of \(PreviewTheme.namesList), got \(value)")
                        continue
                    }
                    previewTheme = theme
                }
            default:
                problems.append("\(name): unknown key `\(key)` ignored")
            }
        }
    }

    private func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let items) = value else { return nil }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else { return nil }
            result.append(text)
        }
        return result
    }
}
