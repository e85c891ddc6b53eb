import Foundation
import JSON
import MacMDBench
import NotebookIndex
import TestSupport
import XCTest

/// The JSON Schema of `.macmd.json` (and its copy for VS Code) and the table of docs/notebook.md
/// list the diagnostic codes as `DiagnosticCode` has them: each file is what
/// `macmd-bench codes --write` makes of it (`MACMD_BLESS=1` rewrites them too).
final class DiagnosticCodeDocsTests: XCTestCase {
    static let root = TestPaths.packageRoot

    func testTheSchemaAndTheDocAreGeneratedFromTheType() throws {
        for path in DiagnosticCodeDocs.schemaFiles + [DiagnosticCodeDocs.docFile] {
            let url = Self.root.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            let generated = try XCTUnwrap(DiagnosticCodeDocs.regenerated(text, path: path), "\(path) has a place for the codes")
            if Golden.isBlessing, generated != text {
                try Data(generated.utf8).write(to: url)
                continue
            }
            XCTAssertEqual(generated, text, "\(path) is out of date: run `macmd-bench codes --write` (or MACMD_BLESS=1)")
        }
    }

    /// What the generator writes: a schema that is still JSON, with one property per code and
    /// its default severity; a doc table with one row per code.
    func testTheGeneratedPlacesNameEveryCode() throws {
        let schemaPath = DiagnosticCodeDocs.schemaFiles[0]
        let schemaText = try String(contentsOf: Self.root.appendingPathComponent(schemaPath), encoding: .utf8)
        let schema = try JSON.parse(try XCTUnwrap(DiagnosticCodeDocs.regenerated(schemaText, path: schemaPath)))
        let properties = try XCTUnwrap(schema["properties"]?["diagnostics"]?["properties"]?.objectValue)
        XCTAssertEqual(properties.keys.sorted(), DiagnosticCode.allCases.map(\.rawValue).sorted())
        for code in DiagnosticCode.allCases {
            let description = properties[code.rawValue]?["description"]?.stringValue ?? ""
            XCTAssertTrue(description.hasSuffix(". Default: \(code.defaultSeverity?.rawValue ?? "off")."), description)
            let prose = description.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            XCTAssertFalse(prose.contains { $0.contains("](") }, "links keep only their text in the schema: \(description)")
        }
        let table = DiagnosticCodeDocs.table().split(separator: "\n")
        XCTAssertEqual(table.count, DiagnosticCode.allCases.count + 2)
        XCTAssertTrue(table.contains { $0.hasPrefix("| `math-error` | off |") })
        XCTAssertTrue(table.contains { $0.hasPrefix("| `broken-link` | error | yes |") })
        XCTAssertNil(DiagnosticCodeDocs.regenerated("# No table here\n", path: DiagnosticCodeDocs.docFile), "no markers: nothing rewritten")
        XCTAssertNil(DiagnosticCodeDocs.regenerated("{}", path: schemaPath), "no `diagnostics`: nothing rewritten")
    }
}
