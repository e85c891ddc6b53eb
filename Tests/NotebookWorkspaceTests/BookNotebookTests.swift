import JSON
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookWorkspace

/// A notebook that is a published book: where its notes are (`book.toml`, `mkdocs.yml`,
/// `sourceFolder`), and what that does to scanning and to links.
final class BookNotebookTests: XCTestCase {
    func testTheSourceFolderIsReadFromTheBooksSettings() {
        let toml: [(String, String?)] = [
            ("[book]\ntitle = \"Garden\"\nsrc = \"chapters\"\n", "chapters"),
            ("[book]\nsrc = 'chapters' # single quotes\n", "chapters"),
            ("[book]\nsrc = chapters # not TOML, read anyway\n", "chapters"),
            ("[output.html]\nsrc = \"elsewhere\"\n[book]\ntitle = \"x\"\n", nil),
            ("# src = \"commented\"\n[book]\n", nil),
            ("[ book ]\r\n  src   =   \"spaced\"  \r\n", "spaced"),
        ]
        for (text, expected) in toml {
            XCTAssertEqual(BookSettings.value(of: "src", inSection: "book", ofTOML: Array(text.utf8)), expected, text)
        }
        let yaml: [(String, String?)] = [
            ("site_name: Garden\ndocs_dir: pages\n", "pages"),
            ("docs_dir: \"my pages\" # quoted\n", "my pages"),
            ("nav:\n  docs_dir: nested\n", nil),
            ("site_name: x\n", nil),
        ]
        for (text, expected) in yaml {
            XCTAssertEqual(BookSettings.topLevelValue(of: "docs_dir", ofYAML: Array(text.utf8)), expected, text)
        }
    }

    func testABookFolderMustExistAndStayInside() {
        let cases: [([String: String], String?)] = [
            (["book.toml": "[book]\n", "src/a.md": "# A\n"], "src"),
            (["book.toml": "[book]\nsrc = \"text\"\n", "text/a.md": "# A\n"], "text"),
            (["book.toml": "[book]\nsrc = \"missing\"\n", "src/a.md": "# A\n"], nil),
            (["book.toml": "[book]\nsrc = \"../outside\"\n"], nil),
            (["book.toml": "[book]\nsrc = \"./src/\"\n", "src/a.md": "# A\n"], "src"),
            (["mkdocs.yml": "site_name: x\n", "docs/a.md": "# A\n"], "docs"),
            (["index.md": "# Not a book\n"], nil),
        ]
        for (files, expected) in cases {
            let folder = NotebookFixture(files)
            defer { folder.destroy() }
            XCTAssertEqual(NotebookConfiguration.load(folder: folder.root, editor: []).sourceFolder, expected, "\(files)")
        }
    }

    func testTheSettingNamesAFolderInsideTheNotebook() {
        func configuration(_ value: JSONValue) -> NotebookConfiguration {
            NotebookConfiguration(layers: [ConfigurationLayer(source: "test", value: value)])
        }
        XCTAssertEqual(configuration(["sourceFolder": "content/"]).sourceFolder, "content")
        for refused: JSONValue in ["/abs", "../up", "", 3, "."] {
            let refusing = configuration(["sourceFolder": refused])
            XCTAssertNil(refusing.sourceFolder, "\(refused)")
            XCTAssertEqual(refusing.problems.map(\.reason.english),
                           ["`sourceFolder`: expected a folder inside the notebook, such as \"src\", got \(refused)"])
        }
        // The setting wins over the book's own.
        var both = configuration(["sourceFolder": "content"])
        both.bookSourceFolder = "src"
        XCTAssertEqual(both.sourceFolder, "content")
    }

    /// Only the source folder is scanned, whatever lies beside it, at any depth.
    func testOnlyTheSourceFolderIsScanned() {
        let folder = NotebookFixture(["site/book/src/a.md": "# A\n", "site/book/src/img/p.png": "", "site/book/b.md": "# B\n",
                                      "site/c.md": "# C\n", "d.md": "# D\n", "site/book/src2/e.md": "# E\n"])
        defer { folder.destroy() }
        var configuration = NotebookConfiguration()
        configuration.configuredSourceFolder = "site/book/src"
        let result = WorkspaceScanner.scan(root: folder.root, options: configuration.scanOptions)
        XCTAssertEqual(result.files.map(\.path), ["site/book/src/a.md"])
        XCTAssertEqual(result.assets, ["site/book/src/img/p.png"])
    }
}
