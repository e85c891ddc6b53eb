import Foundation
import JSON
import NotebookIDE
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookWorkspace
import Themes

/// The settings reader (`NotebookConfiguration`), the JSON Schema of `.macmd.json`
/// (`editors/macmd.schema.json`, copied for the VS Code extension) and docs/configuration.md
/// name the same keys; the sample notebook's `.macmd.json` and the doc's example are accepted by
/// both the schema and the reader; a wrong file fails the schema.
final class ConfigurationSchemaTests: XCTestCase {
    static let root = TestPaths.packageRoot
    static let readerSource = "Sources/NotebookWorkspace/NotebookConfiguration.swift"

    /// Every key, with a value the reader takes. `section.key` is a key inside the object
    /// `section`. The test checks this list against the reader's source and behaviour.
    static let settings: [(key: String, value: JSONValue)] = [
        ("$schema", "../editors/macmd.schema.json"),
        ("extensions", ["md", ".txt"]),
        ("ignore", ["drafts/**", "!drafts/keep.md"]),
        ("maxFileSize", 1024),
        ("allowHomeOrRoot", true),
        ("sourceFolder", "src"),
        ("maxNestingDepth", 50),
        ("maxCompletionItems", 20),
        ("maxRequestsInFlight", 100),
        ("locale", "de"),
        ("diagnostics", ["broken-link": "off", "math-error": "warning"]),
        ("features", ["hover": false, "completion": true]),
        ("preview.theme", "dark"),
        ("preview.embedDepth", 2),
        ("snippets.folder", "Snippets"),
        ("links.markdownResolution", "obsidian"),
    ]

    /// The diagnostic codes MacMD reports; each is a property of the schema's `diagnostics`.
    static let codes = DiagnosticCode.allCases.map(\.rawValue)

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func json(_ path: String) throws -> JSONValue { try JSON.parse(try text(path)) }

    static func schema() throws -> JSONSchemaValidator { JSONSchemaValidator(schema: try json("editors/macmd.schema.json")) }

    static func object(_ key: String, _ value: JSONValue) -> JSONValue {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? [parts[0]: [parts[1]: value]] : [key: value]
    }

    static func reasons(_ value: JSONValue) -> [String] {
        NotebookConfiguration(layers: [ConfigurationLayer(source: "test", value: value)]).problems.map(\.reason.english)
    }

    /// The ```json block of docs/configuration.md.
    static func documentedExample() throws -> JSONValue {
        let doc = try text("docs/configuration.md")
        let start = try XCTUnwrap(doc.range(of: "```json\n"), "docs/configuration.md has a ```json example")
        let end = try XCTUnwrap(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        return try JSON.parse(String(doc[start.upperBound..<end.lowerBound]))
    }

    /// The first cells of the rows of the doc's tables whose header starts with `| header |`.
    static func documentedRows(header: String) throws -> [String] {
        var rows: [String] = []
        var inTable = false
        for line in try text("docs/configuration.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| \(header) |") {
                inTable = true
            } else if inTable, line.hasPrefix("|") {
                let cell = line.dropFirst().prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
                if cell.hasPrefix("`") { rows.append(cell.trimmingCharacters(in: CharacterSet(charactersIn: "`"))) }
            } else {
                inTable = false
            }
        }
        return rows
    }

    // (a) and the copy the VS Code extension ships.
    func testTheSchemaParsesAndTheExtensionShipsTheSameFile() throws {
        let schema = try Self.json("editors/macmd.schema.json")
        XCTAssertEqual(schema["$schema"]?.stringValue, "http://json-schema.org/draft-07/schema#")
        XCTAssertEqual(try Self.text("editors/vscode/macmd.schema.json"), try Self.text("editors/macmd.schema.json"),
                       "cp editors/macmd.schema.json editors/vscode/macmd.schema.json")
    }

    // (b)
    func testTheSampleAndTheDocumentedExampleAreAcceptedByTheSchemaAndTheReader() throws {
        let validator = try Self.schema()
        let sample = try Self.json("Fixtures/notebook/.macmd.json")
        let example = try Self.documentedExample()
        for (name, value) in [("Fixtures/notebook/.macmd.json", sample), ("docs/configuration.md example", example)] {
            XCTAssertEqual(validator.problems(of: value), [], name)
            XCTAssertEqual(Self.reasons(value), [], name)
        }
        // The example sets every key, so it shows them all; `locale`, `maxRequestsInFlight` and `features`
        // are the editor's alone (a `.macmd.json` that set them would be told so).
        for (key, _) in Self.settings where key != "locale" && key != "maxRequestsInFlight" && key != "features" {
            let parts = key.split(separator: ".").map(String.init)
            let found = parts.reduce(Optional(example)) { (value: JSONValue?, part: String) -> JSONValue? in value?[part] }
            XCTAssertNotNil(found, "the example sets \(key)")
        }
        // The sample's file as the reader loads it from disk.
        let loaded = NotebookConfiguration.load(folder: TestPaths.fixture("notebook").path, editor: [])
        XCTAssertEqual(loaded.problems, [])
        XCTAssertEqual(loaded.snippetsFolder, "Snippets")
    }

    // (c): the reader's keys, from its source, are the list's.
    func testTheListNamesEveryKeyTheReaderReads() throws {
        let source = try Self.text(Self.readerSource)
        let body = try XCTUnwrap(source.range(of: "private mutating func apply(").map { String(source[$0.lowerBound...]) })
        var keys: [String] = []
        var section: String? = nil
        var keyIndent: Int? = nil
        for line in body.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count
            if trimmed.hasPrefix("case \""), trimmed.hasSuffix("\":") {
                let key = String(trimmed.dropFirst(6).dropLast(2))
                if let top = keyIndent, indent > top, let section {
                    // A key inside a section's own `switch`.
                    if keys.last == section { keys.removeLast() }
                    keys.append(section + "." + key)
                    continue
                }
                keyIndent = indent
                keys.append(key)
                section = key
            } else if let range = trimmed.range(of: "section(item, key, \""), let section {
                let subkey = trimmed[range.upperBound...].prefix { $0 != "\"" }
                keys[keys.count - 1] = section + "." + subkey
            }
        }
        XCTAssertEqual(keys.sorted(), Self.settings.map(\.key).sorted(), "the keys `apply` reads")
    }

    // (c): the reader takes each key, and refuses its neighbours.
    func testTheReaderTakesEveryListedKeyAndRefusesOthers() {
        for (key, value) in Self.settings {
            XCTAssertEqual(Self.reasons(Self.object(key, value)), [], key)
            let parts = key.split(separator: ".").map(String.init)
            let unknown = parts.count == 2 ? parts[0] + ".nope" : "nope"
            XCTAssertEqual(Self.reasons(Self.object(unknown, 1)), ["unknown key `\(unknown)` ignored"], unknown)
        }
        XCTAssertEqual(Self.reasons(["$schema": 1]), ["`$schema` must be a string (the schema's URL or path)"])
    }

    // (c): the schema and the doc name the same keys as the list, and the same codes.
    func testTheSchemaAndTheDocNameEveryKeyAndCode() throws {
        let schema = try Self.json("editors/macmd.schema.json")
        var schemaKeys: [String] = []
        for (key, property) in schema["properties"]?.objectValue ?? [:] {
            if key != "diagnostics", key != "features", let inner = property["properties"]?.objectValue {
                XCTAssertEqual(property["additionalProperties"], false, "the reader refuses unknown keys of \(key)")
                schemaKeys += inner.keys.map { key + "." + $0 }
            } else {
                schemaKeys.append(key)
            }
        }
        XCTAssertEqual(schema["additionalProperties"], false, "the reader refuses unknown keys")
        XCTAssertEqual(schemaKeys.sorted(), Self.settings.map(\.key).sorted(), "the schema's keys")
        XCTAssertEqual(try Self.documentedRows(header: "Key").sorted(), Self.settings.map(\.key).sorted(), "docs/configuration.md's keys")

        // Codes: the schema offers every code (its descriptions: DiagnosticCodeDocsTests).
        let diagnostics = schema["properties"]?["diagnostics"]
        XCTAssertEqual(diagnostics?["properties"]?.objectValue?.keys.sorted(), Self.codes.sorted(), "the schema's codes")
        // The server takes any code; the schema too, with the same severities.
        XCTAssertEqual(Self.reasons(["diagnostics": ["not-a-code": "hint"]]), [])
        XCTAssertEqual(try Self.schema().problems(of: ["diagnostics": ["not-a-code": "hint"]]), [])

        // The enums are the reader's values.
        XCTAssertEqual(schema["definitions"]?["severity"]?["enum"], .array(["error", "warning", "information", "hint", "off"].map { .string($0) }))
        XCTAssertEqual(schema["properties"]?["preview"]?["properties"]?["theme"]?["enum"],
                       .array(PreviewTheme.allCases.map { .string($0.rawValue) }))
        XCTAssertEqual(schema["properties"]?["links"]?["properties"]?["markdownResolution"]?["enum"], ["relative", "obsidian"])
        for severity in ["error", "warning", "information", "hint", "off"] {
            XCTAssertNotNil(DiagnosticSetting(name: severity), severity)
        }
        for mode in ["relative", "obsidian"] { XCTAssertNotNil(MarkdownResolution(rawValue: mode), mode) }
    }

    // (d): the validator can fail, where the reader fails too.
    func testWrongFilesFailTheSchemaAsTheyFailTheReader() throws {
        let validator = try Self.schema()
        let cases: [(JSONValue, String)] = [
            (["previw": ["theme": "dark"]], "/previw: unknown key `previw`"),
            (["preview": ["colour": "dark"]], "/preview/colour: unknown key `colour`"),
            (["preview": ["theme": "sepia"]], #"/preview/theme: "sepia" is not one of"#),
            (["preview": ["embedDepth": 17]], "/preview/embedDepth: 17.0 is more than 16.0"),
            (["maxFileSize": "5MB"], "/maxFileSize: expected integer"),
            (["maxFileSize": 0], "/maxFileSize: 0.0 is less than 1.0"),
            (["extensions": []], "/extensions: fewer than 1 items"),
            (["ignore": ["ok", 3]], "/ignore/1: expected string"),
            (["allowHomeOrRoot": "yes"], "/allowHomeOrRoot: expected boolean"),
            (["diagnostics": ["broken-link": "loud"]], "/diagnostics/broken-link: \"loud\" is not one of"),
            (["diagnostics": ["not-a-code": "loud"]], "/diagnostics/not-a-code: \"loud\" is not one of"),
            (["snippets": ["folder": "/abs"]], "/snippets/folder: \"/abs\" does not match"),
            (["links": ["markdownResolution": "wiki"]], "/links/markdownResolution: \"wiki\" is not one of"),
            (["$schema": 1], "/$schema: expected string"),
            ([1, 2], "/: expected object"),
        ]
        for (value, expected) in cases {
            let problems = validator.problems(of: value)
            XCTAssertEqual(problems.count, 1, "\(value): \(problems)")
            XCTAssertTrue(problems.first?.hasPrefix(expected) == true, "\(value): \(problems)")
            XCTAssertFalse(Self.reasons(value).isEmpty, "the reader refuses \(value) too")
        }
    }
}
