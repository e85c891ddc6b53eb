import Foundation
import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TestSupport
import XCTest
@testable import NotebookIDE

/// `DiagnosticCode` is the truth about the codes: a notebook that has every problem reports
/// every code, each with the default severity the type gives and a message from the type's
/// catalog keys; every key the type names is in the catalog, and every `diagnostic.` key of the
/// catalog belongs to a code.
final class DiagnosticCodeTests: XCTestCase {
    /// Whether `key` is one of `keys` (an entry ending in `.` stands for every key under it).
    static func matches(_ key: String, _ keys: [String]) -> Bool {
        keys.contains { $0.hasSuffix(".") ? key.hasPrefix($0) : key == $0 }
    }

    func testMessageKeysAreTheCatalogs() {
        let catalog = Set(Catalog.builtIn.entries.keys)
        for code in DiagnosticCode.allCases {
            XCTAssertFalse(code.facts.messageKeys.isEmpty, "\(code.rawValue) names its messages")
            for key in code.facts.messageKeys {
                XCTAssertTrue(catalog.contains { Self.matches($0, [key]) }, "\(code.rawValue): `\(key)` is in the catalog")
            }
            XCTAssertFalse(code.summary.isEmpty || code.summary.hasSuffix("."), "\(code.rawValue): a summary without a final full stop")
        }
        let claimed = DiagnosticCode.allCases.flatMap(\.facts.messageKeys) + DiagnosticCode.sharedMessageKeys
        for key in catalog where key.hasPrefix("diagnostic.") {
            XCTAssertTrue(Self.matches(key, claimed), "the catalog's `\(key)` belongs to no DiagnosticCode")
        }
    }

    /// One notebook with every problem MacMD finds in notes, as `macmd check` and the server
    /// list them; an open note over the size limit and a broken snippet file, as the editor's
    /// view of them reports them.
    func testEveryCodeIsReportedWithItsSeverityAndItsMessages() throws {
        let fixture = NotebookFixture([
            ".macmd.json": #"{"maxNestingDepth": 3, "diagnostics": {"math-error": "warning", "unlinked-mention": "hint"}}"#,
            "index.md": """
                # Home

                [[Soil]] [[Missing note]] [[Soil#No such heading]] [[Soil#^nope]] [[Dup]]
                [gone](gone.md) ![pic](missing.png) [pdf](missing.pdf) [up](../outside/page.md)
                [text][nowhere] [[Soil#Notes]] $\\fracc{1}{2}$

                [ref]: soil.md
                [REF]: other.md

                > > > > deep

                The soil is fine.
                """,
            "soil.md": "# Soil\n\n## Notes\n\n## Notes\n",
            "a/dup.md": "# A\n",
            "b/dup.md": "# B\n",
            "bad.md": "---\ntags: [a, b\n---\nBody\n",
        ])
        defer { fixture.destroy() }
        let (folder, _, refusal) = NotebookFolder.indexed(path: fixture.root)
        XCTAssertNil(refusal)
        var found: [(code: DiagnosticCode, severity: NoteDiagnostic.Severity, key: String)] = []
        for (path, symbols) in folder.notebook.notes {
            let results = DiagnosticResult.list(for: symbols, in: folder, configuration: folder.configuration, tree: {
                MarkdownParser.parse(Array(fixture.text(path).utf8), options: folder.configuration.parseOptions)
            }) { _ in false }
            found += results.map { ($0.code, $0.severity, $0.message.key ?? "") }
        }
        // An open note over `maxFileSize`, which the scan never reads.
        var options = folder.configuration.parseOptions
        options.maximumSize = 8
        let large = NoteSymbols.extract(from: MarkdownParser.parse("# A long note\n", options: options), path: "large.md")
        found += DiagnosticResult.list(for: large, in: folder, configuration: folder.configuration) { _ in false }
            .map { ($0.code, $0.severity, $0.message.key ?? "") }
        // A snippet file that cannot give its snippet.
        let snippets = UserSnippets.parseVSCodeJSON(Array(#"{"a": {"prefix": 1, "body": "x"}}"#.utf8), path: "s.code-snippets")
        XCTAssertFalse(snippets.problems.isEmpty)
        found += snippets.problems.map { (DiagnosticCode.snippetError, DiagnosticCode.snippetError.defaultSeverity ?? .error, $0.message.key ?? "") }

        XCTAssertEqual(Set(found.map(\.code.rawValue)), Set(DiagnosticCode.allCases.map(\.rawValue)), "every code is reported")
        for item in found {
            XCTAssertTrue(Self.matches(item.key, item.code.facts.messageKeys),
                          "\(item.code.rawValue) says `\(item.key)`, a key DiagnosticCode does not list for it")
            if let severity = item.code.defaultSeverity {
                XCTAssertEqual(item.severity, severity, "\(item.code.rawValue) is shown with its default severity")
            }
        }
    }
}
