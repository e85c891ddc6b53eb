import MarkdownSyntax
@testable import NotebookIndex
import TestSupport
import TextCore
import XCTest

/// `NoteAnchors` (the tables of a note with many headings, blocks and HTML ids) finds what the
/// scans find, and links into such a note resolve the same with or without it.
final class NoteAnchorsTests: XCTestCase {
    /// A note of `count` headings of random levels whose texts repeat, in several spellings.
    static func note(_ generator: inout SeededGenerator, count: Int) -> NoteSymbols {
        let texts = ["Notes", "notes", "NOTES!", "Day 1", "day-1", "Sub", "sub", "Émile", "pH & lime", "", "Notes 1"]
        var slugger = Slugger()
        var headings: [HeadingSymbol] = []
        for index in 0..<count {
            let text = texts[generator.next(texts.count)]
            headings.append(HeadingSymbol(level: 1 + generator.next(6), text: text, slug: slugger.slug(for: text),
                                          range: ByteSpan(index, index + 1), textRange: ByteSpan(index, index + 1)))
        }
        var note = NoteSymbols(path: "n.md", title: "n", titleSource: .fileStem, headings: headings)
        note.blockIDs = (0..<count).map { BlockIDSymbol(id: "b\($0 % 7)", range: ByteSpan($0, $0 + 1), blockRange: ByteSpan($0, $0 + 1)) }
        note.htmlIDs = (0..<count).map { HTMLIDSymbol(id: ["Top", "top", "x\($0 % 5)"][$0 % 3], range: ByteSpan($0, $0 + 1)) }
        return note
    }

    func testLookUpsFindWhatScansFind() throws {
        var generator = SeededGenerator(state: 2026)
        let parts = ["Notes", "notes", "notes-1", "NOTES", "notes!", "Day 1", "day-1", "Sub", "sub-2", "emile", "Émile",
                     "ph--lime", "pH & lime", "missing", "Notes 1", "notes-1-1"]
        for round in 0..<40 {
            let note = Self.note(&generator, count: NoteAnchors.minimumCount + generator.next(60))
            let anchors = try XCTUnwrap(NoteAnchors(note))
            for _ in 0..<60 {
                let path = (0...generator.next(3)).map { _ in parts[generator.next(parts.count)] }
                for loose in [false, true] {
                    XCTAssertEqual(anchors.headingIndex(path, loose: loose), NoteCatalog.headingIndex(path, in: note.headings, loose: loose),
                                   "round \(round): \(path) loose \(loose) in \(note.headings.map { "\($0.level) \($0.text)" })")
                }
            }
            for id in ["b0", "b6", "b9", "x"] {
                XCTAssertEqual(anchors.block(id), note.blockIDs.firstIndex { $0.id == id }, id)
            }
            for fragment in ["Top", "top", "TOP", "x3", "X3", "y"] {
                XCTAssertEqual(anchors.htmlID(fragment).map { note.htmlIDs[$0] }, NoteCatalog.htmlID(fragment, in: note.htmlIDs), fragment)
            }
        }
    }

    /// A short note has no tables: it is scanned.
    func testAShortNoteHasNoTables() {
        var generator = SeededGenerator(state: 7)
        XCTAssertNil(NoteAnchors(Self.note(&generator, count: 3)))
    }

    /// A link to one of many equal headings names the first ten ids and `…`, once per heading.
    func testDuplicateHeadingListsTheFirstTwins() throws {
        var text = String(repeating: "# Notes\n", count: 30) + "\n"
        text += "[[#Notes]] [[#notes]]\n"
        let note = NoteSymbols.extract(from: MarkdownParser.parse(text), path: "n.md")
        let catalog = NoteCatalog([note])
        let found = NotebookDiagnostics.check(note, catalog: catalog) { _ in false }
        XCTAssertEqual(found.map(\.code), [.duplicateHeading, .duplicateHeading])
        let ids = (["notes"] + (1..<10).map { "notes-\($0)" } + ["…"]).joined(separator: ", ")
        XCTAssertEqual(found.first?.message.english, "`n.md` has 30 headings `Notes`; this link reaches the first (ids \(ids))")
    }
}
