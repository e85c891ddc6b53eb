// A notebook's settings: the defaults, then the editor's (`initializationOptions`, then
// `workspace/didChangeConfiguration` or `workspace/configuration`, section `macmd`), then the
// notebook's own `.macmd.json` at its root, each layer overriding the keys it sets.
//
// Invariants:
// - Typed and parsed once: every value is an enum or a number checked here (a theme is a
//   `PreviewTheme`, a severity a `DiagnosticSetting`), so no later reader parses or falls back.
// - Reading settings never fails. A layer that is not a JSON object, a key with the wrong type or
//   an unknown value is ignored (the earlier layers' value stays) and recorded in `problems` with
//   where it came from and why it was refused, so whoever loads it can say why it fell back.

import JSONRPC
import MarkdownHTML
import NotebookIndex

/// How a diagnostic code is shown: with a severity, or not at all.
public enum DiagnosticSetting: Sendable, Equatable {
    case off
    case severity(NoteDiagnostic.Severity)

    /// `error`, `warning`, `information`, `hint` or `off`; nil for anything else.
    public init?(name: String) {
        if name == "off" {
            self = .off
        } else if let severity = NoteDiagnostic.Severity(rawValue: name) {
            self = .severity(severity)
        } else {
            return nil
        }
    }
}

/// A value a settings layer holds that was refused, and why.
public struct ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// Where the layer came from (`initializationOptions`, `workspace settings`, a file path).
    public var source: String
    /// What was wrong with it, in a sentence that names the key.
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { source + ": " + reason }
}

/// One layer of settings: where it came from and its JSON.
public struct ConfigurationLayer: Sendable, Equatable {
    public var source: String
    public var value: JSONValue

    public init(source: String, value: JSONValue) {
        self.source = source
        self.value = value
    }
}

/// Every key is documented in the README ("Configuration").
public struct NotebookConfiguration: Sendable, Equatable {
    /// The name of the notebook's own settings file, at its root.
    public static let fileName = ".macmd.json"

    /// File extensions of notes, without the dot.
    public var extensions: [String] = ["md", "markdown"]
    /// Extra ignore globs (gitignore syntax), on top of `.gitignore` files.
    public var ignore: [String] = []
    /// Files larger than this are not indexed.
    public var maxFileSize: Int64 = 5 * 1024 * 1024
    /// Whether the home folder or `/` may be indexed.
    public var allowHomeOrRoot = false
    /// How each configured diagnostic code is shown (codes not listed keep their own severity).
    public var diagnostics: [String: DiagnosticSetting] = [:]
    /// The preview's theme when a request names none (`preview.theme`).
    public var previewTheme = PreviewTheme.light
    /// A folder of the notebook (relative to its root) whose notes are snippets
    /// (`snippets.folder`): a note's front matter gives its `prefix`, its body the snippet.
    public var snippetsFolder: String? = nil

    /// Why values were refused, one per value, in the order the layers were read.
    public var problems: [ConfigurationProblem] = []

    public init() {}

    /// The settings from `layers`, earliest first.
    public init(layers: [ConfigurationLayer]) {
        for layer in layers { apply(layer) }
    }

    /// The severity `code` is shown with (`severity` when not configured), or nil when it is off.
    public func severity(of code: String, default severity: NoteDiagnostic.Severity) -> NoteDiagnostic.Severity? {
        switch diagnostics[code] {
        case nil: return severity
        case .off?: return nil
        case .severity(let configured)?: return configured
        }
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

    private mutating func refuse(_ layer: ConfigurationLayer, _ reason: String) {
        problems.append(ConfigurationProblem(source: layer.source, reason: reason))
    }

    private mutating func apply(_ layer: ConfigurationLayer) {
        guard case .object(let object) = layer.value else {
            if !layer.value.isNull { refuse(layer, "expected a JSON object; using the defaults") }
            return
        }
        for (key, item) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "extensions":
                guard let list = Self.strings(item), !list.isEmpty else {
                    refuse(layer, "`extensions` must be a non-empty list of strings")
                    continue
                }
                extensions = list.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
            case "ignore":
                guard let list = Self.strings(item) else {
                    refuse(layer, "`ignore` must be a list of glob strings")
                    continue
                }
                ignore = list
            case "maxFileSize":
                guard case .int(let bytes) = item, bytes > 0 else {
                    refuse(layer, "`maxFileSize` must be a positive number of bytes")
                    continue
                }
                maxFileSize = bytes
            case "allowHomeOrRoot":
                guard case .bool(let flag) = item else {
                    refuse(layer, "`allowHomeOrRoot` must be true or false")
                    continue
                }
                allowHomeOrRoot = flag
            case "diagnostics":
                guard case .object(let codes) = item else {
                    refuse(layer, "`diagnostics` must map codes to error, warning, information, hint or off")
                    continue
                }
                for (code, level) in codes.sorted(by: { $0.key < $1.key }) {
                    guard let text = level.stringValue else {
                        refuse(layer, "`diagnostics.\(code)` must be a string")
                        continue
                    }
                    guard let setting = DiagnosticSetting(name: text) else {
                        refuse(layer, "`diagnostics.\(code)`: expected error, warning, information, hint or off, got `\(text)`")
                        continue
                    }
                    diagnostics[code] = setting
                }
            case "preview":
                guard case .object(let preview) = item else {
                    refuse(layer, "`preview` must be an object such as {\"theme\": \"dark\"}")
                    continue
                }
                for (subkey, value) in preview.sorted(by: { $0.key < $1.key }) {
                    guard subkey == "theme" else {
                        refuse(layer, "unknown key `preview.\(subkey)` ignored")
                        continue
                    }
                    guard let theme = value.stringValue.flatMap(PreviewTheme.init(rawValue:)) else {
                        refuse(layer, "`preview.theme`: expected one of \(PreviewTheme.namesList), got \(value)")
                        continue
                    }
                    previewTheme = theme
                }
            case "snippets":
                guard case .object(let snippets) = item else {
                    refuse(layer, "`snippets` must be an object such as {\"folder\": \"Snippets\"}")
                    continue
                }
                for (subkey, value) in snippets.sorted(by: { $0.key < $1.key }) {
                    guard subkey == "folder" else {
                        refuse(layer, "unknown key `snippets.\(subkey)` ignored")
                        continue
                    }
                    guard let folder = value.stringValue.flatMap(NotebookPath.normalized), !folder.isEmpty,
                          value.stringValue?.hasPrefix("/") == false else {
                        refuse(layer, "`snippets.folder`: expected a folder inside the notebook, such as \"Snippets\", got \(value)")
                        continue
                    }
                    snippetsFolder = folder
                }
            default:
                refuse(layer, "unknown key `\(key)` ignored")
            }
        }
    }

    private static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let items) = value else { return nil }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else { return nil }
            result.append(text)
        }
        return result
    }
}

extension NotebookConfiguration {
    /// The settings of the notebook at `folder`: the editor's `layers`, then the folder's
    /// `.macmd.json` when it has one. A file that cannot be read as JSON is refused as a whole,
    /// with the parser's reason.
    public static func load(folder: String, editor layers: [ConfigurationLayer]) -> NotebookConfiguration {
        var all = layers
        let file = folder + "/" + fileName
        if case .success(let bytes) = FileReader.contents(of: file, limit: 1 << 20) {
            do {
                all.append(ConfigurationLayer(source: file, value: try JSON.parse(bytes)))
            } catch {
                var configuration = NotebookConfiguration(layers: layers)
                configuration.problems.append(ConfigurationProblem(source: file, reason: "not valid JSON (\(error.message)); using the defaults"))
                return configuration
            }
        }
        return NotebookConfiguration(layers: all)
    }
}
