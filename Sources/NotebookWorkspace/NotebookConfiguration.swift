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

import JSON
import Localization
import MarkdownSyntax
import NotebookIndex
import Themes

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
    /// What was wrong with it, in a sentence that names the key (`settings.problem.*` keys).
    public var reason: LocalizedText

    public init(source: String, reason: LocalizedText) {
        self.source = source
        self.reason = reason
    }

    /// `source: reason`, the reason in `locale`.
    public func string(in locale: SupportedLocale) -> String { source + ": " + reason.string(in: locale) }

    /// `source: reason` in English (the log).
    public var description: String { string(in: .en) }
}

/// One layer of settings: where it came from and its JSON.
public struct ConfigurationLayer: Sendable, Equatable {
    public var source: String
    public var value: JSONValue
    /// A notebook's `.macmd.json` (not the editor's settings): it cannot choose the writer's
    /// language.
    public var isNotebookFile: Bool

    public init(source: String, value: JSONValue, isNotebookFile: Bool = false) {
        self.source = source
        self.value = value
        self.isNotebookFile = isNotebookFile
    }
}

/// Every key is documented in docs/configuration.md, and described by the JSON Schema
/// `editors/macmd.schema.json`; a test keeps the three in step.
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
    /// Quotes, list items, footnote definitions and alerts nested deeper than this are read as
    /// text (a `nesting-limit` warning says where): no real note comes near, a nesting bomb
    /// stops here.
    public var maxNestingDepth = NotebookConfiguration.defaultMaxNestingDepth
    /// At most this many link, tag and path completion items are sent; more set `isIncomplete`,
    /// so the editor asks again as the writer types.
    public var maxCompletionItems = 200
    /// Requests the server holds at once (waiting or being answered); one more is refused with
    /// RequestFailed saying so. An editor setting: a notebook's `.macmd.json` cannot set it.
    public var maxRequestsInFlight = 10_000

    public static let defaultMaxNestingDepth = 100

    /// How the notes of this notebook are parsed: the notebook profile, nested at most
    /// `maxNestingDepth` deep; a note over `maxFileSize` (open in the editor) is not read.
    public var parseOptions: ParseOptions {
        var options = ParseOptions.notebook
        options.maximumNesting = maxNestingDepth
        options.maximumSize = Int(clamping: maxFileSize)
        return options
    }
    /// The language of messages the editor's settings name (`de`, `es-419`), if any. The
    /// server reads it (`initializationOptions.locale` at start, the `macmd` section when it
    /// changes); a notebook's `.macmd.json` cannot set it.
    public var locale: String?
    /// How each configured diagnostic code is shown (codes not listed keep their own severity).
    public var diagnostics: [String: DiagnosticSetting] = [:]
    /// The features the editor's settings switch off (`features`); the server reads them when
    /// it answers `initialize`. A notebook's `.macmd.json` cannot set them.
    public var disabledFeatures: Set<EditorFeature> = []
    /// The preview's theme when a request names none (`preview.theme`).
    public var previewTheme = PreviewTheme.light
    /// `preview.embedDepth`: how deep embeds inside embeds are shown (0: every embed is a link).
    public var previewEmbedDepth = 4
    /// The depths `preview.embedDepth` takes.
    public static let embedDepths = 0...16
    /// A folder of the notebook (relative to its root) whose notes are snippets
    /// (`snippets.folder`): a note's front matter gives its `prefix`, its body the snippet.
    public var snippetsFolder: String? = nil
    /// How Markdown links whose path reaches nothing are read (`links.markdownResolution`); nil
    /// when no layer sets it: then `obsidian` in a notebook whose root holds an `.obsidian`
    /// folder, `relative` elsewhere (`markdownResolution`).
    public var linksMarkdownResolution: MarkdownResolution? = nil
    /// Whether the notebook's root holds an `.obsidian` folder (an Obsidian vault), as `load`
    /// found it.
    public var isObsidianVault = false
    /// The folder (relative to the root) that holds the notes when the notebook is a published
    /// book (`sourceFolder`): the notes are the files inside it, and a link from one of them that
    /// leaves it points at the site the book is published in, beside it (`../std/index.html`),
    /// not at a file of the notebook. Nil: every folder of the notebook holds notes.
    public var configuredSourceFolder: String? = nil
    /// The source folder a book's own settings name, as `load` found them: `book.toml`'s
    /// `[book] src` (mdBook, default `src`), else `mkdocs.yml`'s `docs_dir` (MkDocs, default
    /// `docs`), when that folder exists.
    public var bookSourceFolder: String? = nil

    /// The source folder in force: the configured one, else the book's.
    public var sourceFolder: String? { configuredSourceFolder ?? bookSourceFolder }

    /// The Markdown link resolution in force: the configured one, else the vault's default.
    public var markdownResolution: MarkdownResolution {
        linksMarkdownResolution ?? (isObsidianVault ? .obsidian : .relative)
    }

    /// Why values were refused, one per value, in the order the layers were read.
    public var problems: [ConfigurationProblem] = []

    public init() {}

    /// The settings from `layers`, earliest first.
    public init(layers: [ConfigurationLayer]) {
        for layer in layers { apply(layer) }
    }

    /// The severity `code` is shown with: its default severity when not configured, nil when
    /// it is off (or off until configured, and not configured).
    public func severity(of code: DiagnosticCode) -> NoteDiagnostic.Severity? {
        severity(of: code, default: code.defaultSeverity ?? .warning)
    }

    /// The severity `code` is shown with (`severity` when not configured, nil for the codes that
    /// are off until configured: those with no `defaultSeverity`), or nil when it is off.
    public func severity(of code: DiagnosticCode, default severity: NoteDiagnostic.Severity) -> NoteDiagnostic.Severity? {
        switch diagnostics[code.rawValue] {
        case nil: return code.defaultSeverity == nil ? nil : severity
        case .off?: return nil
        case .severity(let configured)?: return configured
        }
    }

    /// The scanner options these settings ask for.
    public var scanOptions: ScanOptions {
        var options = ScanOptions()
        options.extensions = extensions
        options.ignoreGlobs = ignore
        if let sourceFolder {
            // Only the source folder is scanned: every entry of each folder on the way to it is
            // ignored but the next folder of the way.
            var globs: [String] = []
            var prefix = ""
            for part in sourceFolder.split(separator: "/") {
                globs += ["\(prefix)/*", "!\(prefix)/\(part)/"]
                prefix += "/\(part)"
            }
            options.ignoreGlobs = globs + ignore
        }
        options.maxFileSize = maxFileSize
        options.allowHomeOrRoot = allowHomeOrRoot
        options.parseOptions = parseOptions
        return options
    }

    /// The value of `subkey` in the object `item` (the setting `key`, such as `preview`),
    /// read by `parse`; nil when it is missing or refused. Unknown keys and values `parse` does
    /// not take are refused with a reason, in the order of the keys.
    private mutating func section<Value>(_ item: JSONValue, _ key: String, _ subkey: String, example: String, expected: CatalogArgument,
                                         layer: ConfigurationLayer, _ parse: (JSONValue) -> Value?) -> Value? {
        guard case .object(let object) = item else {
            refuse(layer, LocalizedText("settings.problem.notAnObject", .string(key), .string(example)))
            return nil
        }
        var result: Value? = nil
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard name == subkey else {
                refuse(layer, LocalizedText("settings.problem.unknownKey", .string(key + "." + name)))
                continue
            }
            guard let parsed = parse(value) else {
                refuse(layer, LocalizedText("settings.problem.unexpectedValue", .string(key + "." + subkey), expected, .string("\(value)")))
                continue
            }
            result = parsed
        }
        return result
    }

    /// A count setting's value: a whole number from 1 to 2^31 - 1; nil, refused, otherwise.
    private mutating func positiveCount(_ item: JSONValue, _ key: String, _ layer: ConfigurationLayer) -> Int? {
        guard case .int(let count) = item, count > 0, count <= Int64(Int32.max) else {
            refuse(layer, LocalizedText("settings.problem.positiveCount", .string(key)))
            return nil
        }
        return Int(count)
    }

    private mutating func refuse(_ layer: ConfigurationLayer, _ reason: LocalizedText) {
        problems.append(ConfigurationProblem(source: layer.source, reason: reason))
    }

    private mutating func apply(_ layer: ConfigurationLayer) {
        guard case .object(let object) = layer.value else {
            if !layer.value.isNull { refuse(layer, LocalizedText("settings.problem.notJSONObject")) }
            return
        }
        for (key, item) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "$schema":
                // Names the JSON Schema for the editor's JSON server (completion and checks in
                // `.macmd.json`); MacMD has nothing to read in it.
                guard item.stringValue != nil else {
                    refuse(layer, LocalizedText("settings.problem.schema"))
                    continue
                }
            case "extensions":
                guard let list = Self.strings(item), !list.isEmpty else {
                    refuse(layer, LocalizedText("settings.problem.extensions"))
                    continue
                }
                extensions = list.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
            case "ignore":
                guard let list = Self.strings(item) else {
                    refuse(layer, LocalizedText("settings.problem.ignore"))
                    continue
                }
                ignore = list
            case "maxFileSize":
                guard case .int(let bytes) = item, bytes > 0 else {
                    refuse(layer, LocalizedText("settings.problem.maxFileSize"))
                    continue
                }
                maxFileSize = bytes
            case "maxNestingDepth":
                if let count = positiveCount(item, key, layer) { maxNestingDepth = count }
            case "maxCompletionItems":
                if let count = positiveCount(item, key, layer) { maxCompletionItems = count }
            case "maxRequestsInFlight":
                if layer.isNotebookFile {
                    refuse(layer, LocalizedText("settings.problem.editorOnly", .string(key)))
                    continue
                }
                if let count = positiveCount(item, key, layer) { maxRequestsInFlight = count }
            case "allowHomeOrRoot":
                guard case .bool(let flag) = item else {
                    refuse(layer, LocalizedText("settings.problem.allowHomeOrRoot"))
                    continue
                }
                allowHomeOrRoot = flag
            case "locale":
                if layer.isNotebookFile {
                    refuse(layer, LocalizedText("settings.problem.localeInNotebook"))
                    continue
                }
                guard let text = item.stringValue else {
                    refuse(layer, LocalizedText("settings.problem.locale"))
                    continue
                }
                locale = text
            case "diagnostics":
                guard case .object(let codes) = item else {
                    refuse(layer, LocalizedText("settings.problem.diagnostics"))
                    continue
                }
                for (code, level) in codes.sorted(by: { $0.key < $1.key }) {
                    guard let text = level.stringValue else {
                        refuse(layer, LocalizedText("settings.problem.diagnosticNotString", .string(code)))
                        continue
                    }
                    guard let setting = DiagnosticSetting(name: text) else {
                        refuse(layer, LocalizedText("settings.problem.diagnosticSeverity", .string(code), .string(text)))
                        continue
                    }
                    diagnostics[code] = setting
                }
            case "preview":
                guard case .object(let fields) = item else {
                    refuse(layer, LocalizedText("settings.problem.notAnObject", .string(key), .string(#"{"theme": "dark"}"#)))
                    continue
                }
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    switch name {
                    case "theme":
                        guard let theme = value.stringValue.flatMap(PreviewTheme.init(rawValue:)) else {
                            refuse(layer, LocalizedText("settings.problem.unexpectedValue", .string(key + "." + name),
                                                        .message("settings.expected.oneOf", .string(PreviewTheme.namesList)), .string("\(value)")))
                            continue
                        }
                        previewTheme = theme
                    case "embedDepth":
                        guard case .int(let depth) = value, NotebookConfiguration.embedDepths.contains(Int(depth)) else {
                            refuse(layer, LocalizedText("settings.problem.unexpectedValue", .string(key + "." + name),
                                                        .message("settings.expected.wholeNumber", .string(String(NotebookConfiguration.embedDepths.lowerBound)),
                                                                 .string(String(NotebookConfiguration.embedDepths.upperBound))),
                                                        .string("\(value)")))
                            continue
                        }
                        previewEmbedDepth = Int(depth)
                    default:
                        refuse(layer, LocalizedText("settings.problem.unknownKey", .string(key + "." + name)))
                    }
                }
            case "links":
                if let mode = section(item, key, "markdownResolution", example: #"{"markdownResolution": "obsidian"}"#,
                                      expected: .message("settings.expected.either", #""relative""#, #""obsidian""#), layer: layer,
                                      { $0.stringValue.flatMap(MarkdownResolution.init(rawValue:)) }) {
                    linksMarkdownResolution = mode
                }
            case "features":
                if layer.isNotebookFile {
                    refuse(layer, LocalizedText("settings.problem.editorOnly", .string(key)))
                    continue
                }
                guard case .object(let switches) = item else {
                    refuse(layer, LocalizedText("settings.problem.notAnObject", .string(key), .string(#"{"hover": false}"#)))
                    continue
                }
                for (name, value) in switches.sorted(by: { $0.key < $1.key }) {
                    guard let feature = EditorFeature(rawValue: name) else {
                        refuse(layer, LocalizedText("settings.problem.unknownKey", .string(key + "." + name)))
                        continue
                    }
                    guard case .bool(let on) = value else {
                        refuse(layer, LocalizedText("settings.problem.unexpectedValue", .string(key + "." + name),
                                                    .message("settings.expected.either", "`true`", "`false`"), .string("\(value)")))
                        continue
                    }
                    if on { disabledFeatures.remove(feature) } else { disabledFeatures.insert(feature) }
                }
            case "sourceFolder":
                guard let text = item.stringValue, !text.hasPrefix("/"), let folder = NotebookPath.normalized(text), !folder.isEmpty else {
                    refuse(layer, LocalizedText("settings.problem.unexpectedValue", .string(key), .message("settings.expected.sourceFolder"),
                                                .string("\(item)")))
                    continue
                }
                configuredSourceFolder = folder
            case "snippets":
                let folder = section(item, key, "folder", example: #"{"folder": "Snippets"}"#,
                                     expected: .message("settings.expected.snippetsFolder"), layer: layer) { value -> String? in
                    guard let text = value.stringValue, !text.hasPrefix("/"), let folder = NotebookPath.normalized(text),
                          !folder.isEmpty else { return nil }
                    return folder
                }
                if let folder { snippetsFolder = folder }
            default:
                refuse(layer, LocalizedText("settings.problem.unknownKey", .string(key)))
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

/// A feature of the server the editor can switch off (`"features": {"hover": false}`): it is
/// then not announced in the capabilities, so nothing appears twice beside another Markdown
/// server, and a request for it is refused.
public enum EditorFeature: String, CaseIterable, Sendable {
    case completion, hover, definition, references, rename, documentLinks, documentSymbols, foldingRanges
    case workspaceSymbols, codeActions, formatting, onTypeFormatting, diagnostics, preview, pairs, callHierarchy
    case documentHighlight, selectionRange, codeLens, semanticTokens, unlinkedMentions, statistics, search
}

extension NotebookConfiguration {
    /// The settings of the notebook at `folder`: the editor's `layers`, then the folder's
    /// `.macmd.json` when it has one. A file that cannot be read as JSON is refused as a whole,
    /// with the parser's reason.
    public static func load(folder: String, editor layers: [ConfigurationLayer]) -> NotebookConfiguration {
        var all = layers
        let isVault = FileReader.isDirectory(folder + "/.obsidian")
        let file = folder + "/" + fileName
        if case .success(let bytes) = FileReader.contents(of: file, limit: 1 << 20) {
            do {
                all.append(ConfigurationLayer(source: file, value: try JSON.parse(bytes), isNotebookFile: true))
            } catch {
                var configuration = NotebookConfiguration(layers: layers)
                configuration.isObsidianVault = isVault
                configuration.problems.append(ConfigurationProblem(source: file, reason: LocalizedText("settings.problem.invalidJSON", .string(error.message))))
                return configuration
            }
        }
        var configuration = NotebookConfiguration(layers: all)
        configuration.isObsidianVault = isVault
        configuration.bookSourceFolder = bookSourceFolder(of: folder)
        return configuration
    }

    /// The source folder of a book at `folder`: mdBook's `book.toml` (`[book]`'s `src`, default
    /// `src`), else MkDocs' `mkdocs.yml` (`docs_dir`, default `docs`); nil when neither is
    /// there, or the folder it names does not exist or climbs out of `folder`.
    static func bookSourceFolder(of folder: String) -> String? {
        let named: String
        if case .success(let bytes) = FileReader.contents(of: folder + "/book.toml", limit: 1 << 20) {
            named = BookSettings.value(of: "src", inSection: "book", ofTOML: bytes) ?? "src"
        } else if case .success(let bytes) = FileReader.contents(of: folder + "/mkdocs.yml", limit: 1 << 20) {
            named = BookSettings.topLevelValue(of: "docs_dir", ofYAML: bytes) ?? "docs"
        } else {
            return nil
        }
        guard !named.hasPrefix("/"), let normalized = NotebookPath.normalized(named), !normalized.isEmpty,
              FileReader.isDirectory(folder + "/" + normalized) else { return nil }
        return normalized
    }
}

/// The one setting MacMD reads from a book's own settings file: no TOML or YAML reader, only
/// the line that names the source folder (a plain or quoted string on one line).
enum BookSettings {
    /// The string value of `key` in the `[section]` table of a TOML file.
    static func value(of key: String, inSection section: String, ofTOML bytes: [UInt8]) -> String? {
        var current = ""
        for line in lines(bytes) {
            if line.hasPrefix("[") {
                current = String(line.dropFirst().prefix { $0 != "]" }).trimmingSpaces
                continue
            }
            guard current == section, let value = assignment(line, key: key, separator: "=") else { continue }
            return value
        }
        return nil
    }

    /// The string value of the top-level `key` of a YAML file (`docs_dir: docs`).
    static func topLevelValue(of key: String, ofYAML bytes: [UInt8]) -> String? {
        for line in lines(bytes) where !line.hasPrefix(" ") && !line.hasPrefix("\t") {
            if let value = assignment(line, key: key, separator: ":") { return value }
        }
        return nil
    }

    /// The lines of `bytes`, comments (`#` at a line's start) dropped.
    private static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
            .filter { !$0.trimmingSpaces.hasPrefix("#") }
    }

    /// The value of `key separator value` on `line`, unquoted, with a trailing comment removed.
    private static func assignment(_ line: String, key: String, separator: Character) -> String? {
        guard let split = line.firstIndex(of: separator), line[..<split].trimmingSpaces == key else { return nil }
        var value = line[line.index(after: split)...].trimmingSpaces
        if let quote = value.first, quote == "\"" || quote == "'" {
            let body = value.dropFirst()
            guard let close = body.firstIndex(of: quote) else { return nil }
            return String(body[..<close])
        }
        let characters = Array(value)
        if let comment = characters.indices.first(where: { $0 > 0 && characters[$0] == "#" && (characters[$0 - 1] == " " || characters[$0 - 1] == "\t") }) {
            value = String(characters[..<comment]).trimmingSpaces
        }
        return value.isEmpty ? nil : value
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
