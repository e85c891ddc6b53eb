import Localization
import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookIDE
import TextCore

/// Fixtures for the completion tests: `$0` marks the cursor (TestSupport's `Fixture`),
/// workspaces are built in memory, and `applied` performs an item's edit so tests assert the
/// line the user sees.
enum CompletionFixture {
    /// The text of a one-note fixture without its `$0`, and the cursor's UTF-8 offset (a
    /// fixture without a cursor fails the test).
    static func cursor(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (bytes: [UInt8], cursor: Int) {
        let fixture = Fixture(text, file: file, line: line)
        let bytes = Array(fixture.text.utf8)
        guard let cursor = fixture.cursor else {
            XCTFail("no `$0` in \(text.debugDescription)", file: file, line: line)
            return (bytes, bytes.count)
        }
        return (bytes, cursor.utf8Offset)
    }

    static func symbols(_ text: String, path: String) -> NoteSymbols {
        NoteSymbols.extract(from: MarkdownParser.parse(Array(text.utf8), options: .notebook), path: path)
    }

    /// A notebook: notes parsed from text, plus other files by path.
    static func workspace(_ notes: [(path: String, text: String)], files: [String] = []) -> CompletionWorkspace {
        CompletionWorkspace(notes: notes.map { symbols($0.text, path: $0.path) }, files: files)
    }

    /// The notes of a fixture, plus other files by path.
    static func workspace(_ fixture: Fixture, files: [String] = []) -> CompletionWorkspace {
        workspace(fixture.files.map { ($0.path, $0.text) }, files: files)
    }

    /// The shared test notebook.
    static let notebook = Fixture("""
        //- /index.md
        # Home

        Intro text. ^intro

        ## Getting Started

        ### Install

        ## Usage

        ### Install
        //- /garden/soil tests.md
        ---
        title: Soil Testing
        aliases: [Dirt, Earth]
        tags: [garden, soil]
        ---
        # Soil

        ## pH & lime

        Acid soils need lime. ^ph-block

        More #garden notes.
        //- /garden/plants/tomato.md
        # Tomato

        #garden #veg
        //- /archive/tomato.md
        # Old tomato
        //- /recipes/tomato.md
        # Tomato sauce

        #recipe #veg
        //- /Note title.md
        # Note title
        //- /日本/東京.md
        # 東京メモ
        //- /journal/2024-01-01.md
        ---
        title: New Year
        status: draft
        tags:
          - journal
          - garden
        ---
        Text #garden
        //- /journal/2024-01-02.md
        ---
        status: done
        ---
        //- /journal/2024-01-03.md
        ---
        status: draft
        ---

        """)

    static let files = ["images/photo one.png", "garden/bed.jpg", "docs/manual.pdf"]

    static let sharedWorkspace = workspace(notebook, files: files)

    /// The context and items at `$0` of `text`, written in the note at `path` (the text is that
    /// note's current content), MacMD's own words in `locale`.
    static func complete(_ text: String, in path: String = "scratch.md",
                         workspace: CompletionWorkspace = sharedWorkspace, limit: Int = 200, locale: SupportedLocale = .en,
                         templateFolder: String? = nil, file: StaticString = #filePath, line: UInt = #line)
        -> (bytes: [UInt8], context: CompletionContext?, list: CompletionList) {
        let (bytes, cursor) = self.cursor(text, file: file, line: line)
        guard let context = CompletionContext.detect(text: bytes, cursor: cursor) else {
            return (bytes, nil, CompletionList())
        }
        let current = NoteSymbols.extract(from: MarkdownParser.parse(bytes, options: .notebook), path: path)
        let sources = CompletionSources(workspace: workspace, currentNote: current, limit: limit, locale: locale,
                                        templateFolder: templateFolder)
        return (bytes, context, CompletionEngine.complete(context: context, in: path, sources: sources))
    }

    /// `bytes` with `item`'s edit applied: the whole text.
    static func appliedText(_ item: CompletionCandidate, to bytes: [UInt8]) -> String {
        let start = Int(item.replace.start)
        let end = Int(item.replace.end)
        guard start >= 0, start <= end, end <= bytes.count else { return "<bad range \(start)..<\(end)>" }
        return String(decoding: bytes[..<start] + Array(item.newText.utf8) + bytes[end...], as: UTF8.self)
    }

    /// The documentation the user sees for the item labelled `label` at `$0` of `text` (in the
    /// note at `path`): the item's own, else its target's preview as `completionItem/resolve`
    /// makes it, from the fixture notebook's text (or `text` for the note itself).
    static func documentation(_ text: String, in path: String = "scratch.md", pick label: String,
                              workspace: CompletionWorkspace = sharedWorkspace) -> String? {
        let (bytes, _, list) = complete(text, in: path, workspace: workspace)
        guard let item = list.items.first(where: { $0.label == label }) else { return "<no item \(label)>" }
        guard let target = item.target else { return item.documentation }
        let source = target.path == path ? bytes : notebook.files.first { $0.path == target.path }.map { Array($0.text.utf8) }
        guard let source else { return "<no note \(target.path)>" }
        let note = NoteSymbols.extract(from: MarkdownParser.parse(source, options: .notebook), path: target.path)
        return target.documentation(note: note, source: source)
    }

    /// `bytes` with `item`'s edit applied: the line where the edit starts.
    static func applied(_ item: CompletionCandidate, to bytes: [UInt8]) -> String {
        let start = Int(item.replace.start)
        let end = Int(item.replace.end)
        guard start >= 0, start <= end, end <= bytes.count else { return "<bad range \(start)..<\(end)>" }
        var result = Array(bytes[..<start])
        result += Array(item.newText.utf8)
        result += Array(bytes[end...])
        var lineStart = start
        while lineStart > 0, result[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = start
        while lineEnd < result.count, result[lineEnd] != 0x0A { lineEnd += 1 }
        return String(decoding: result[lineStart..<lineEnd], as: UTF8.self)
    }
}

extension XCTestCase {
    /// Completes at `$0`, picks the item labelled `label` and asserts the line after the edit.
    func assertCompletion(_ text: String, in path: String = "scratch.md", pick label: String, gives expected: String,
                          workspace: CompletionWorkspace = CompletionFixture.sharedWorkspace,
                          file: StaticString = #filePath, line: UInt = #line) {
        let (bytes, context, list) = CompletionFixture.complete(text, in: path, workspace: workspace, file: file, line: line)
        guard context != nil else {
            XCTFail("no completion context in \(text.debugDescription)", file: file, line: line)
            return
        }
        guard let item = list.items.first(where: { $0.label == label }) else {
            XCTFail("no item \(label.debugDescription) in \(list.items.map(\.label)) for \(text.debugDescription)",
                    file: file, line: line)
            return
        }
        XCTAssertEqual(CompletionFixture.applied(item, to: bytes), expected, text, file: file, line: line)
    }

    /// The labels offered at `$0`, in order.
    func labels(_ text: String, in path: String = "scratch.md") -> [String] {
        CompletionFixture.complete(text, in: path).list.items.map(\.label)
    }
}

/// The fixture helpers themselves: the cursor marker and the applied edit.
final class CompletionFixtureTests: XCTestCase {
    func testCursorMarkerIsRemovedAndGivesTheByteOffset() {
        let (bytes, cursor) = CompletionFixture.cursor("é[[a$0b")
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "é[[ab")
        XCTAssertEqual(cursor, 5)
    }

    func testTheSharedNotebookIsTheNotesItNames() {
        XCTAssertEqual(CompletionFixture.notebook.files.count, 10)
        XCTAssertEqual(CompletionFixture.notebook.text("archive/tomato.md"), "# Old tomato\n")
        XCTAssertEqual(CompletionFixture.notebook.text("journal/2024-01-03.md"), "---\nstatus: draft\n---\n")
        XCTAssertTrue(CompletionFixture.notebook.text("index.md").hasSuffix("## Usage\n\n### Install\n"))
    }

    func testAppliedReplacesTheRangeAndShowsTheLine() {
        let bytes = Array("one\ntwo [[no]] x\nthree".utf8)
        let item = CompletionCandidate(label: "n", kind: .note, newText: "Note", replace: ByteSpan(10, 12), filterText: "n")
        XCTAssertEqual(CompletionFixture.applied(item, to: bytes), "two [[Note]] x")
    }
}
