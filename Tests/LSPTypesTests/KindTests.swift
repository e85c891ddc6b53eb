import JSON
import JSONRPC
import LSPTypes
import XCTest

/// Every kind against the values of the LSP 3.17 specification: a wrong number is a wrong icon,
/// severity or fold in every client.
final class KindTests: XCTestCase {
    /// Checks that `T` has exactly the specification's cases, by name (case-insensitively, as
    /// Swift spells `EnumMember` `enumMember`) and value.
    func check<T: LSPEnumeration>(_ type: T.Type, _ spec: [(String, JSONValue)], file: StaticString = #filePath, line: UInt = #line) {
        let ours = T.allCases.map { (String(describing: $0).lowercased(), $0.json) }
        XCTAssertEqual(ours.count, spec.count, "\(T.self): number of cases", file: file, line: line)
        for ((name, value), (specName, specValue)) in zip(ours, spec) {
            XCTAssertEqual(name, specName.lowercased(), "\(T.self)", file: file, line: line)
            XCTAssertEqual(value, specValue, "\(T.self).\(specName)", file: file, line: line)
            XCTAssertEqual(try T(ParamReader(specValue)).json, specValue, "\(T.self) reads \(specValue)", file: file, line: line)
        }
    }

    func testNumberedKinds() {
        check(DiagnosticSeverity.self, [("Error", 1), ("Warning", 2), ("Information", 3), ("Hint", 4)])
        check(DiagnosticTag.self, [("Unnecessary", 1), ("Deprecated", 2)])
        check(CompletionItemKind.self, [
            ("Text", 1), ("Method", 2), ("Function", 3), ("Constructor", 4), ("Field", 5), ("Variable", 6), ("Class", 7),
            ("Interface", 8), ("Module", 9), ("Property", 10), ("Unit", 11), ("Value", 12), ("Enum", 13), ("Keyword", 14),
            ("Snippet", 15), ("Color", 16), ("File", 17), ("Reference", 18), ("Folder", 19), ("EnumMember", 20),
            ("Constant", 21), ("Struct", 22), ("Event", 23), ("Operator", 24), ("TypeParameter", 25),
        ])
        check(SymbolKind.self, [
            ("File", 1), ("Module", 2), ("Namespace", 3), ("Package", 4), ("Class", 5), ("Method", 6), ("Property", 7),
            ("Field", 8), ("Constructor", 9), ("Enum", 10), ("Interface", 11), ("Function", 12), ("Variable", 13),
            ("Constant", 14), ("String", 15), ("Number", 16), ("Boolean", 17), ("Array", 18), ("Object", 19), ("Key", 20),
            ("Null", 21), ("EnumMember", 22), ("Struct", 23), ("Event", 24), ("Operator", 25), ("TypeParameter", 26),
        ])
        check(InsertTextFormat.self, [("PlainText", 1), ("Snippet", 2)])
        check(TextDocumentSyncKind.self, [("None", 0), ("Full", 1), ("Incremental", 2)])
        check(FileChangeType.self, [("Created", 1), ("Changed", 2), ("Deleted", 3)])
        check(MessageType.self, [("Error", 1), ("Warning", 2), ("Info", 3), ("Log", 4)])
        XCTAssertEqual([WatchKind.create, .change, .delete].map(\.json), [1, 2, 4])
    }

    func testNamedKinds() {
        check(MarkupKind.self, [("PlainText", "plaintext"), ("Markdown", "markdown")])
        check(FileOperationPatternKind.self, [("File", "file"), ("Folder", "folder")])
        XCTAssertEqual([FoldingRangeKind.comment, .imports, .region].map(\.json), ["comment", "imports", "region"])
        XCTAssertEqual([CodeActionKind.empty, .quickFix, .refactor, .refactorExtract, .refactorInline, .refactorRewrite, .source,
                        .sourceOrganizeImports, .sourceFixAll].map(\.json),
                       ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source",
                        "source.organizeImports", "source.fixAll"])
        // Open sets: a kind the specification does not name reads and writes as it is.
        XCTAssertEqual(try CodeActionKind(ParamReader("refactor.macmd")).json, "refactor.macmd")
    }

    /// A closed set refuses what it does not have, listing what it has.
    func testAValueOutsideTheSetIsRefused() {
        let refused: [(String, () throws -> Any)] = [
            ("params: expected 1, 2, 3 or 4, got 5", { try DiagnosticSeverity(ParamReader(5)) }),
            (#"params: expected "plaintext" or "markdown", got "html""#, { try MarkupKind(ParamReader("html")) }),
            ("params: expected an integer, got true", { try MessageType(ParamReader(true)) }),
            ("params: expected a string, got 1", { try FoldingRangeKind(ParamReader(1)) }),
        ]
        for (message, read) in refused {
            XCTAssertThrowsError(try read()) { error in XCTAssertEqual((error as? ResponseError)?.message, message) }
        }
    }
}
