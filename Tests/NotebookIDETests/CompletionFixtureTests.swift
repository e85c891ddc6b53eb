import MarkdownSyntax
import NotebookIndex
import XCTest
@testable import NotebookIDE

/// Fixtures for the completion tests: `$0` marks the cursor, workspaces are built in memory, and
/// `applied` performs an item's edit so tests assert the line the user sees.
enum CompletionFixture {
    /// The text without `$0`, and the UTF-8 offset where `$0` was.
    static func cursor(_ text: String) -> (bytes: [UInt8], cursor: Int) {
        var bytes = Array(text.utf8)
        let marker = Array("$0".utf8)
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == marker[0] && bytes[index + 1] == marker[1] {
                bytes.removeSubrange(index..<(index + 2))
                return (bytes, index)
            }
            index += 1
        }
        return (bytes, bytes.count)
    }

    static func symbols(_ text: String, path: String) -> NoteSymbols {
        NoteSymbols.extract(from: MarkdownParser.parse(Array(text.utf8), options: .notebook), path: path)
    }

    /// A notebook: notes parsed from text, plus other files by path.
    static func workspace(_ notes: [(path: String, text: String)], files: [String] = []) -> CompletionWorkspace {
        CompletionWorkspace(notes: notes.map { symbols($0.text, path: $0.path) }, files: files)
    }

    /// The shared test notebook.
    static let notebook: [(path: String, text: String)] = [
        ("index.md", """
            # Home

            Intro text. ^intro

            ## Getting Started

            ### Install

            ## Usage

            ### Install

            """),
        ("garden/soil tests.md", """
            ---
            title: Soil Testing
            aliases: [Dirt, Earth]
            tags: [garden, soil]
            ---
            # Soil

            ## pH & lime

            Acid soils need lime. ^ph-block

            More #garden notes.

            """),
        ("garden/plants/tomato.md", "# Tomato\n\n#garden #veg\n"),
        ("archive/tomato.md", "# Old tomato\n"),
        ("recipes/tomato.md", "# Tomato sauce\n\n#recipe #veg\n"),
        ("Note title.md", "# Note title\n"),
        ("日本/東京.md", "# 東京メモ\n"),
        ("journal/2024-01-01.md", """
            ---
            title: New Year
            status: draft
            tags:
              - journal
              - garden
            ---
            Text #garden

            """),
        ("journal/2024-01-02.md", "---\nstatus: done\n---\n"),
        ("journal/2024-01-03.md", "---\nstatus: draft\n---\n"),
    ]

    static let files = ["images/photo one.png", "garden/bed.jpg", "docs/manual.pdf"]

    static let sharedWorkspace = workspace(notebook, files: files)

    /// The context and items at `$0` of `text`, written in the note at `path` (the text is that
    /// note's current content).
    static func complete(_ text: String, in path: String = "scratch.md",
                         workspace: CompletionWorkspace = sharedWorkspace, limit: Int = 200)
        -> (bytes: [UInt8], context: CompletionContext?, list: CompletionList) {
        let (bytes, cursor) = self.cursor(text)
        guard let context = CompletionContext.detect(text: bytes, cursor: cursor) else {
            return (bytes, nil, CompletionList())
        }
        let current = NoteSymbols.extract(from: MarkdownParser.parse(bytes, options: .notebook), path: path)
        let sources = CompletionSources(workspace: workspace, currentNote: current, limit: limit)
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
        let source = target.path == path ? bytes : notebook.first { $0.path == target.path }.map { Array($0.text.utf8) }
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
        let (bytes, context, list) = CompletionFixture.complete(text, in: path, workspace: workspace)
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
        XCTAssertEqual(CompletionFixture.cursor("abc").cursor, 3)
    }

    func testAppliedReplacesTheRangeAndShowsTheLine() {
        let bytes = Array("one\ntwo [[no]] x\nthree".utf8)
        let item = CompletionCandidate(label: "n", kind: .note, newText: "Note", replace: ByteSpan(10, 12), filterText: "n")
        XCTAssertEqual(CompletionFixture.applied(item, to: bytes), "two [[Note]] x")
    }
}
