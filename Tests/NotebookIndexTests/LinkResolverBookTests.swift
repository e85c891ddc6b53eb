import MarkdownSyntax
import NotebookIndex
import XCTest

/// Links in a notebook that is a published book (`NoteCatalog.sourceFolder`).
final class LinkResolverBookTests: XCTestCase {
    /// In a book, `/` is the source folder and a path out of it is outside, for notes inside it.
    func testLinksOfABook() {
        var catalog = NoteCatalog(["src/a.md", "src/sub/b.md", "notes/c.md"].map {
            NoteSymbols(path: $0, title: "", titleSource: .fileStem)
        })
        catalog.sourceFolder = "src"
        let cases: [(link: String, from: String, expected: String)] = [
            ("[x](sub/b.md)", "src/a.md", "note src/sub/b.md"),
            ("[x](/sub/b.md)", "src/a.md", "note src/sub/b.md"),
            ("[x](../std/index.html)", "src/a.md", "outside ../std/index.html"),
            ("[x](../../index.html)", "src/sub/b.md", "outside ../../index.html"),
            ("[x](../a.md)", "src/sub/b.md", "note src/a.md"),
            // A note outside the book reads links as any note does.
            ("[x](../src/a.md)", "notes/c.md", "note src/a.md"),
        ]
        for (link, from, expected) in cases {
            let symbols = NoteSymbols.extract(from: MarkdownParser.parse(Array(link.utf8)), path: from)
            guard let first = symbols.links.first else { XCTFail("no link in \(link)"); continue }
            XCTAssertEqual(catalog.resolve(first, from: from).described, expected, link)
        }
    }
}
