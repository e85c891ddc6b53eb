import XCTest
@testable import NotebookIndex

/// The catalog's tables of names: candidates by hash, whatever was added, removed and resized
/// before; and the catalog answering by name, never by hash alone.
final class NameTableTests: XCTestCase {
    private func candidates(_ table: NameTable, _ hash: UInt32) -> [Int32] {
        var result: [Int32] = []
        table.forEachCandidate(hash: hash) { result.append($0) }
        return result.sorted()
    }

    /// Entries that share a hash (and sit in each other's probe runs) are all found; a removed
    /// one is gone, its tombstone reused, and an entry added twice is there once.
    func testCandidatesByHashThroughCollisionsRemovalsAndResizes() {
        var table = NameTable()
        // Hashes 0, 8, 16 … share a slot in every size up to 8 slots; 7 and 15 wrap around.
        for number in Int32(0)..<5 { table.insert(number, hash: 7) }
        table.insert(10, hash: 15)
        table.insert(11, hash: 0)
        XCTAssertEqual(candidates(table, 7), [0, 1, 2, 3, 4])
        XCTAssertEqual(candidates(table, 15), [10])
        XCTAssertEqual(candidates(table, 0), [11])
        XCTAssertEqual(table.count, 7)

        table.insert(3, hash: 7)
        XCTAssertEqual(table.count, 7, "an entry added twice is there once")
        table.remove(2, hash: 7)
        table.remove(2, hash: 7)
        table.remove(99, hash: 7)
        XCTAssertEqual(candidates(table, 7), [0, 1, 3, 4])
        XCTAssertEqual(table.count, 6)
        table.insert(2, hash: 7)
        XCTAssertEqual(candidates(table, 7), [0, 1, 2, 3, 4])

        // Thousands more: every resize keeps every entry, and removing them all empties it.
        for number in Int32(100)..<5_100 { table.insert(number, hash: UInt32(number % 97)) }
        XCTAssertEqual(candidates(table, 7), [0, 1, 2, 3, 4] + (100..<5_100).filter { $0 % 97 == 7 })
        for number in Int32(100)..<5_100 { table.remove(number, hash: UInt32(number % 97)) }
        XCTAssertEqual(candidates(table, 7), [0, 1, 2, 3, 4])
        XCTAssertEqual(candidates(table, 15), [10])
        XCTAssertEqual(table.count, 7)
        XCTAssertEqual(Set(table.entriesSharingHashes().map { Set($0) }), [[0, 1, 2, 3, 4]])
        XCTAssertTrue(candidates(NameTable(), 7).isEmpty)
    }

    /// The catalog files notes by name in these tables and answers by name: paths sorted,
    /// canonically equivalent names equal, and a note renamed or removed no longer answers.
    func testCatalogAnswersByNameAfterChanges() {
        func note(_ path: String, title: String = "", aliases: [String] = []) -> NoteSymbols {
            NoteSymbols(path: path, title: title, titleSource: title.isEmpty ? .fileStem : .frontMatter, aliases: aliases)
        }
        var catalog = NoteCatalog([note("b/Plan.md", title: "Café"), note("a/plan.md"), note("c.md", aliases: ["Plan"])])
        XCTAssertEqual(catalog.notes(named: "PLAN"), ["a/plan.md", "b/Plan.md", "c.md"])
        // "Cafe\u{301}" is "Café" written with a combining accent.
        XCTAssertEqual(catalog.notes(named: "cafe\u{301}"), ["b/Plan.md"])
        catalog.insert(note("b/Plan.md", title: "Tea"))
        XCTAssertEqual(catalog.notes(named: "café"), [])
        XCTAssertEqual(catalog.notes(named: "tea"), ["b/Plan.md"])
        catalog.remove(path: "a/plan.md")
        XCTAssertEqual(catalog.notes(named: "plan"), ["b/Plan.md", "c.md"])
        XCTAssertEqual(catalog.pathsSharingStems(), [])
        catalog.insert(note("d/PLAN.markdown"))
        XCTAssertEqual(catalog.pathsSharingStems(), ["b/Plan.md", "d/PLAN.markdown"])
        XCTAssertEqual(catalog, NoteCatalog([note("c.md", aliases: ["Plan"]), note("d/PLAN.markdown"), note("b/Plan.md", title: "Tea")]))
    }

    /// The keys a note is filed under, hashed from its bytes where that is quicker, are the
    /// hashes of its names (`names(of:)`) for every kind of path, title and alias.
    func testKeysAreTheHashesOfTheNames() {
        let paths = ["soil.md", "Garden/Soil Tests.MD", "a/b/c.markdown", "notes.txt", "Ünïcode/Été.md", "日本/語.md",
                     "Σοφία/ΑΒΓ.md", "cafe\u{301}.md", "C# notes.md", "a|b.md", "x^y.md", "dot.", ".hidden.md", "Kelvin \u{212A}.md",
                     "ǅemal.md", "straße.md", "UPPER/CASE", "folder.md/inner.md", "émoji 🎉.md"]
        let fronts = ["", "---\ntitle: Soil Tests\n---\n", "---\ntitle: Été à Paris\n---\n", "---\ntitle: ΑΒΓ\n---\n",
                      "---\naliases: [One, Two, one]\n---\n", "# Heading Title\n", "# cafe\u{301}\n"]
        for extensions in [["md", "markdown"], ["md", "txt"]] {
            for path in paths {
                for front in fronts {
                    let note = NoteSymbols.parsing(Array((front + "text\n").utf8), path: path)
                    let expected = NoteCatalog.names(of: note, extensions: extensions).map { "\($0.0)\(NameTable.hash($0.1))" }
                    XCTAssertEqual(NoteCatalog.keys(of: note, extensions: extensions).map { "\($0.0)\($0.1)" }, expected, "\(path) \(front.debugDescription)")
                }
            }
        }
    }
}
