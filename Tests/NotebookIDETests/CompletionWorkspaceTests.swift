import MarkdownSyntax
import NotebookIndex
import XCTest
@testable import NotebookIDE

/// The workspace index: built from a `Notebook`, and refreshed cheaply after edits that keep
/// every note's name.
final class CompletionWorkspaceTests: XCTestCase {
    func testBuiltFromANotebookAndRefreshedAfterAnEdit() {
        var notebook = Notebook()
        for note in CompletionFixture.notebook.files {
            notebook.update(CompletionFixture.symbols(note.text, path: note.path))
        }
        notebook.addAsset("images/photo one.png")
        var workspace = CompletionWorkspace(notebook: notebook)
        let sources = { CompletionSources(workspace: workspace) }
        func items(_ fixture: String) -> [String] {
            let (bytes, cursor) = CompletionFixture.cursor(fixture)
            guard let context = CompletionContext.detect(text: bytes, cursor: cursor) else { return [] }
            return CompletionEngine.complete(context: context, in: "scratch.md", sources: sources()).items.map(\.label)
        }
        XCTAssertEqual(items("[[Note title#$0"), ["Note title"])
        XCTAssertEqual(items("![[pho$0").first, "photo one.png")
        XCTAssertEqual(items("#ve$0"), ["veg"])

        // An edit that keeps the note's name: the cheap refresh sees its new heading and tag.
        notebook.update(CompletionFixture.symbols("# Note title\n\n## Added later\n\n#vegan\n", path: "Note title.md"))
        workspace = workspace.updating(from: notebook)
        XCTAssertEqual(items("[[Note title#$0"), ["Note title", "Added later"])
        XCTAssertEqual(items("#ve$0"), ["veg", "vegan"])
    }
}
