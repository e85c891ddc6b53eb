import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookIDE

/// Completion writes links that the resolver takes back to the chosen note from where they are
/// written, in the notebook's own style: the shortest name from the linking note's folder, a name
/// with `# | ^ ]` percent-encoded, a book's `chapter.html` for `chapter.md`.
final class CompletionLinkStyleTests: XCTestCase {
    static let vault = CompletionFixture.workspace(Fixture("""
        //- /work/Meeting.md
        # Work meeting
        //- /home/Meeting.md
        # Home meeting
        //- /C# notes.md
        # C sharp
        //- /Sq]uare.md
        # Bracket
        //- /x^2.md
        # Squares
        //- /book/intro.md
        # Intro
        //- /book/chapter.md
        # Chapter
        //- /book/appendix.md
        # Appendix

        """), files: ["attachments/clip #1.mp4"])

    /// The text each note item inserts for `[[` typed in the note at `path`, by note path.
    private func inserted(_ text: String, in path: String) -> [String: String] {
        let (_, _, list) = CompletionFixture.complete(text, in: path, workspace: Self.vault)
        var result: [String: String] = [:]
        for item in list.items where item.kind == .note { result[item.detail ?? ""] = item.newText }
        return result
    }

    /// Every inserted wiki target resolves, from `path`, to the note it was offered for.
    private func assertResolvesBack(_ inserted: [String: String], from path: String, file: StaticString = #filePath, line: UInt = #line) {
        for (note, text) in inserted {
            let symbols = CompletionFixture.symbols("[[" + text, path: path)
            guard let link = symbols.links.first else {
                XCTFail("no link in [[\(text)", file: file, line: line)
                continue
            }
            guard case .note(let found, _, _, _) = Self.vault.catalog.resolve(link, from: path) else {
                XCTFail("[[\(text) from \(path) reaches no note", file: file, line: line)
                continue
            }
            XCTAssertEqual(found, note, "[[\(text) from \(path)", file: file, line: line)
        }
    }

    func testASharedNameIsWrittenShortFromTheNotesOwnFolder() {
        let fromWork = inserted("[[Meet$0", in: "work/today.md")
        XCTAssertEqual(fromWork["work/Meeting.md"], "Meeting]]", "the own folder's note goes by its name")
        XCTAssertEqual(fromWork["home/Meeting.md"], "home/Meeting]]")
        assertResolvesBack(fromWork, from: "work/today.md")
        let fromRoot = inserted("[[Meet$0", in: "index.md")
        XCTAssertEqual(fromRoot["work/Meeting.md"], "work/Meeting]]", "two equally short paths: neither name alone")
        XCTAssertEqual(fromRoot["home/Meeting.md"], "home/Meeting]]")
        assertResolvesBack(fromRoot, from: "index.md")
    }

    func testNamesWithWikiLinkDelimitersArePercentEncoded() {
        assertCompletion("[[C$0", pick: "C sharp", gives: "[[C%23 notes]]", workspace: Self.vault)
        assertCompletion("[[Sq$0", pick: "Bracket", gives: "[[Sq%5Duare]]", workspace: Self.vault)
        assertCompletion("[[x$0", pick: "Squares", gives: "[[x%5E2]]", workspace: Self.vault)
        assertCompletion("![[clip$0", pick: "clip #1.mp4", gives: "![[attachments/clip %231.mp4]]", workspace: Self.vault)
        let all = inserted("[[$0", in: "index.md")
        XCTAssertEqual(all["C# notes.md"], "C%23 notes]]")
        assertResolvesBack(all, from: "index.md")
    }

    func testABookThatLinksPagesGetsPageLinks() {
        // The note already links its neighbours by their published pages: so does completion.
        assertCompletion("See [intro](intro.html) and [the chapter](cha$0", in: "book/appendix.md", pick: "chapter.md",
                         gives: "See [intro](intro.html) and [the chapter](chapter.html)", workspace: Self.vault)
        // A note that links files keeps files.
        assertCompletion("See [intro](intro.md) and [the chapter](cha$0", in: "book/appendix.md", pick: "chapter.md",
                         gives: "See [intro](intro.md) and [the chapter](chapter.md)", workspace: Self.vault)
        assertCompletion("[the chapter](cha$0", in: "book/appendix.md", pick: "chapter.md",
                         gives: "[the chapter](chapter.md)", workspace: Self.vault)
    }

    /// In a vault, Markdown link completion offers notes and files of other folders by name, as
    /// Obsidian writes them, where the name alone reaches them.
    func testAVaultGetsMarkdownLinksByName() {
        let fixture = Fixture("""
            //- /Daily/today.md
            # Today
            //- /Reference/Rust ownership.md
            # Rust ownership
            //- /work/Meeting.md
            # Work meeting
            //- /home/Meeting.md
            # Home meeting
            //- /Daily/Rust notes.md
            # Here

            """)
        var catalog = NoteCatalog(fixture.files.map { CompletionFixture.symbols($0.text, path: $0.path) })
        catalog.markdownResolution = .obsidian
        catalog.insertAsset("attachments/architecture diagram.png")
        let vault = CompletionWorkspace(catalog: catalog, files: ["attachments/architecture diagram.png"])
        assertCompletion("[own](Rust$0", in: "Daily/today.md", pick: "Rust ownership.md",
                         gives: "[own](Rust%20ownership.md)", workspace: vault)
        assertCompletion("![arch](archi$0", in: "Daily/today.md", pick: "architecture diagram.png",
                         gives: "![arch](architecture%20diagram.png)", workspace: vault)
        assertCompletion("[own](<Rust ow$0", in: "Daily/today.md", pick: "Rust ownership.md",
                         gives: "[own](<Rust ownership.md>)", workspace: vault)
        // The note of this folder comes first; a name two notes share is not offered by name.
        let (_, _, list) = CompletionFixture.complete("[x](Rust$0", in: "Daily/today.md", workspace: vault)
        XCTAssertEqual(list.items.map(\.label), ["Rust notes.md", "Rust ownership.md"])
        let (_, _, meeting) = CompletionFixture.complete("[x](Meet$0", in: "Daily/today.md", workspace: vault)
        XCTAssertEqual(meeting.items.map(\.label), [])
        // Outside a vault, paths only.
        let plain = CompletionWorkspace(catalog: NoteCatalog(fixture.files.map { CompletionFixture.symbols($0.text, path: $0.path) }))
        let (_, _, relative) = CompletionFixture.complete("[x](Rust$0", in: "Daily/today.md", workspace: plain)
        XCTAssertEqual(relative.items.map(\.label), ["Rust notes.md"])
    }
}
