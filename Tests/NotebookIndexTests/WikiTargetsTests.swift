import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIndex

/// What a wiki-link writes to reach a note whose name others share, or that its name alone does not
/// reach (`NoteCatalog.wikiTargetsLongerThanStems`, what completion inserts): the shortest end of
/// its path that the resolver takes back to it, the same text asking the resolver suffix by suffix
/// gives, worked out for the whole notebook in work that grows with the notebook, not with the
/// square of the notes sharing a name.
final class WikiTargetsTests: XCTestCase {
    /// A catalog of empty notes (a title when the path is followed by `|Title`), and assets.
    static func catalog(_ paths: [String], assets: [String] = []) -> NoteCatalog {
        var catalog = NoteCatalog(paths.map { entry in
            let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
            let text = parts.count > 1 ? "# \(parts[1])\n" : "Text.\n"
            return NoteSymbols.extract(from: MarkdownParser.parse(Array(text.utf8), options: .notebook), path: parts[0])
        })
        for asset in assets { catalog.insertAsset(asset) }
        return catalog
    }

    /// The definition, asked of the resolver suffix by suffix: the stem, `folder/stem`, … up to
    /// the first that a link written in the note at `source` resolves to the note itself; its
    /// path without extension when none does; written as a wiki target.
    static func askingTheResolver(_ path: String, from source: String, in catalog: NoteCatalog) -> String {
        let bare = NotebookPath.removingExtension(path, catalog.noteExtensions)
        let parts = bare.split(separator: "/", omittingEmptySubsequences: true)
        for count in parts.indices.map({ $0 + 1 }) {
            let target = NotebookPath.wikiTarget(parts.suffix(count).joined(separator: "/"))
            let link = LinkSymbol(form: .wikiLink, target: LinkSymbol.Part(text: target, range: .empty), range: .empty)
            if case .note(let found, _, _, _) = catalog.resolve(link, from: source), found == path { return target }
        }
        return NotebookPath.wikiTarget(bare)
    }

    /// The targets of every note sharing a stem, from every note and from a note in a new folder.
    static func targets(_ catalog: NoteCatalog, work: inout Int) -> [String] {
        var lines: [String] = []
        let sources = catalog.notes.keys.sorted() + ["scratch.md", "new/folder/scratch.md"]
        for path in catalog.pathsSharingStems().sorted() {
            guard let table = catalog.stemTable(NoteCatalog.stemKey(of: path)) else { continue }
            work += table.work
            for source in sources {
                lines.append("\(path) from \(source): \(catalog.wikiTarget(to: path, from: source, table: table, work: &work))")
            }
        }
        return lines
    }

    /// Notebooks whose notes share names in every way the resolver's rules tell apart.
    static let notebooks: [(name: String, paths: [String], assets: [String])] = [
        ("one name at several depths: the shallowest keeps the bare name",
         ["daily.md", "journal/daily.md", "journal/2024/daily.md", "archive/2023/daily.md"], []),
        ("one name at the same depth: a folder tells them apart",
         ["garden/plants/tomato.md", "archive/tomato.md", "recipes/tomato.md"], []),
        ("the same folder name above: a longer end of the path",
         ["a/x/note.md", "b/x/note.md", "c/note.md", "d/y/note.md"], []),
        ("names that differ in case, and extensions",
         ["Notes/Daily.md", "daily.markdown", "Other/DAILY.md", "Other/sub/daily.MD"], []),
        ("two extensions in one folder: the path alone, and only one reaches its note",
         ["a/n.md", "a/n.markdown", "b/n.md"], []),
        ("a note whose path is the end of another's: the path rule comes first",
         ["x/n.md", "a/x/n.md", "b/x/n.md"], []),
        ("an attachment with the name a shorter link would write",
         ["a/v1.0.md", "b/v1.0.md", "c/d/v1.0.md"], ["files/v1.0", "b/v1.0"]),
        ("blanks at the ends of a name, which the resolver trims",
         ["a/ n.md", "b/ n.md", "n.md", "c/n .md"], []),
        ("a backslash in a name (the stem starts after it)",
         ["a/x\\n.md", "b/n.md", "c/n.md"], []),
        ("the same name in NFC and NFD, which compare equal",
         ["a/caf\u{E9}.md", "b/cafe\u{301}.md", "b/c/caf\u{E9}.md"], []),
        ("a title or alias equal to a shorter link, which the stem rule wins",
         ["a/x.md|b/x", "b/x.md", "c/x.md|x"], []),
        ("URLs and paths that look like them",
         ["a/http:x.md", "b/http:x.md", "mailto:x/y.md", "z/y.md"], []),
        ("a combining mark after a `/`, which joins it into one character",
         ["a/\u{301}n.md", "b/\u{301}n.md", "\u{301}n.md", "c/d/\u{301}n.md",
          "x/\u{301}b/m.md", "y/\u{301}b/m.md", "z/b/m.md", "\u{301}b/m.md", "m/\u{301}b/c/m.md"], []),
        ("a sign that joins the `/` after it into one character",
         ["q\u{600}/r/n.md", "s/t/r/n.md", "n.md"], []),
        ("names in other scripts",
         ["日本/東京.md", "旅行/東京.md", "Москва/заметки.md", "Питер/заметки.md", "заметки.md"], []),
    ]

    func testEachNoteGetsTheTextTheResolverTakesBackToIt() {
        for notebook in Self.notebooks {
            let catalog = Self.catalog(notebook.paths, assets: notebook.assets)
            var work = 0
            let sources = catalog.notes.keys.sorted() + ["scratch.md", "new/folder/scratch.md"]
            let expected = catalog.pathsSharingStems().sorted().flatMap { path in
                sources.map { "\(path) from \($0): \(Self.askingTheResolver(path, from: $0, in: catalog))" }
            }
            XCTAssertEqual(Self.targets(catalog, work: &work), expected, notebook.name)
        }
    }

    /// What the user sees in one notebook, spelled out: from the root, the shortest path wins
    /// the name; from a folder, the note there.
    func testTheTextsOfNotesSharingAName() {
        let catalog = Self.catalog(["daily.md", "journal/daily.md", "journal/2024/daily.md", "archive/2024/daily.md",
                                    "garden/tomato.md", "recipes/tomato.md", "index.md"])
        XCTAssertEqual(catalog.pathsSharingStems().sorted(), ["archive/2024/daily.md", "daily.md", "garden/tomato.md",
                                                                "journal/2024/daily.md", "journal/daily.md", "recipes/tomato.md"])
        func targets(from source: String) -> [String] {
            catalog.pathsSharingStems().sorted().compactMap { path in
                catalog.stemTable(NoteCatalog.stemKey(of: path)).map { catalog.wikiTarget(to: path, from: source, table: $0) }
            }
        }
        // `[[daily]]` is the root note's path, which comes before any name; `garden/tomato.md` is
        // the shorter path; `2024/daily` is as long in either folder.
        XCTAssertEqual(targets(from: "index.md"), ["archive/2024/daily", "daily", "tomato", "journal/2024/daily",
                                                   "journal/daily", "recipes/tomato"])
        XCTAssertEqual(targets(from: "journal/today.md"), ["archive/2024/daily", "daily", "tomato", "journal/2024/daily",
                                                           "journal/daily", "recipes/tomato"])
        XCTAssertEqual(targets(from: "recipes/soup.md"), ["archive/2024/daily", "daily", "garden/tomato", "journal/2024/daily",
                                                          "journal/daily", "tomato"])
    }

    /// The work (path ends filed and looked up, candidates compared) per note stays the same
    /// whether 10 or 5,000 notes share a name: asking the resolver note by note compared every
    /// note of the name each time (with 5,000 `index.md` the first `[[` waited 7.1 s).
    func testWorkGrowsWithTheNotebookNotWithTheSquareOfANameShared() {
        for count in [10, 100, 1_000, 5_000] {
            // `index.md` in every folder, at three depths; a name every note of a folder shares.
            var paths: [String] = []
            for index in 0..<count {
                switch index % 3 {
                case 0: paths.append("f\(index)/index.md")
                case 1: paths.append("f\(index)/g/index.md")
                default: paths.append("f\(index % 7)/h\(index)/k/index.md")
                }
            }
            let catalog = Self.catalog(paths)
            guard let table = catalog.stemTable("index") else { return XCTFail("no table") }
            var work = table.work
            for path in paths {
                for source in ["scratch.md", path, "f1/other.md"] { _ = catalog.wikiTarget(to: path, from: source, table: table, work: &work) }
            }
            let parts = paths.reduce(0) { $0 + $1.split(separator: "/").count }
            XCTAssertLessThanOrEqual(work, 4 * parts, "\(count) notes named index.md")
        }
    }
}
