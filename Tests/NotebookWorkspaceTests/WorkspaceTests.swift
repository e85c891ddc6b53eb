import NotebookIndex
import XCTest
@testable import NotebookWorkspace

/// The notebooks of a session: which notebook a file belongs to, and work begun on a notebook
/// that was replaced meanwhile.
final class WorkspaceTests: XCTestCase {
    func testFilesBelongToTheInnermostNotebookAndSingleFoldersGiveWayToWorkspaceFolders() {
        var workspace = Workspace()
        XCTAssertTrue(workspace.addFolder("/notes/"))
        XCTAssertTrue(workspace.addFolder("/notes/work"))
        XCTAssertFalse(workspace.addFolder("/notes"), "a folder is a notebook once")
        XCTAssertEqual(workspace.locate(file: "/notes/a.md"), NoteRef(folder: "/notes", path: "a.md"))
        XCTAssertEqual(workspace.locate(file: "/notes/work/b.md"), NoteRef(folder: "/notes/work", path: "b.md"))
        XCTAssertNil(workspace.locate(file: "/elsewhere/c.md"))
        XCTAssertEqual(workspace.singleFolder(for: "/elsewhere/c.md"), "/elsewhere")
        XCTAssertTrue(workspace.addFolder("/elsewhere", singleFolder: true))
        XCTAssertNil(workspace.locate(file: "/elsewhere/deeper/d.md"), "a single folder holds only its own files")
        // The folder added as a workspace folder takes the single folder's place.
        XCTAssertTrue(workspace.addFolder("/elsewhere"))
        XCTAssertEqual(workspace.folders.filter { $0.path == "/elsewhere" }.map(\.isSingleFolder), [false])
        XCTAssertEqual(workspace.locate(file: "/elsewhere/deeper/d.md"), NoteRef(folder: "/elsewhere", path: "deeper/d.md"))
    }

    func testWorkOnANotebookThatWasReplacedLandsNowhere() throws {
        var workspace = Workspace()
        workspace.addFolder("/notes")
        let before = try XCTUnwrap(workspace.folder("/notes"))
        workspace.removeFolders(["/notes/"])
        workspace.addFolder("/notes")
        let note = NoteSymbols.parsing(Array("# Late\n".utf8), path: "late.md")
        // A scan begun on the first notebook files nothing into the second, which has the same path.
        XCTAssertNil(workspace.update(before) { $0.update(document: note) })
        XCTAssertNil(workspace.folder("/notes")?.notebook.notes["late.md"])
        let now = try XCTUnwrap(workspace.folder("/notes"))
        XCTAssertNotNil(workspace.update(now) { $0.update(document: note) })
        XCTAssertNotNil(workspace.folder("/notes")?.notebook.notes["late.md"])
    }
}
