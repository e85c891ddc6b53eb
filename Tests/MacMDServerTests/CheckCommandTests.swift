import Foundation
import JSON
import TestSupport
import XCTest

/// `macmd check` as a user runs it on a folder: one line per problem, an exit status for CI.
final class CheckCommandTests: XCTestCase {
    func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> TestProcess.Result {
        try TestProcess.macmd(arguments, file: file, line: line)
    }

    /// `line:col` as `macmd check` prints a place: 1-based line and byte column.
    static func lineColumn(_ fixture: Fixture, _ location: FixtureLocation?) -> String {
        guard let location else { return "<no place>" }
        let position = fixture.position(location)
        return "\(position.line + 1):\(position.utf8Character + 1)"
    }

    /// A folder without notes is not a clean notebook: `check` says so on stderr and exits 0.
    func testAFolderWithoutNotesIsSaidSo() throws {
        let folder = NotebookFixture(["readme.txt": "no notes here\n"])
        defer { folder.destroy() }
        let result = try TestProcess.macmd(["check", folder.root])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "macmd check: no notes in \(folder.root): nothing to check\n")
        let clean = NotebookFixture(["index.md": "# Home\n"])
        defer { clean.destroy() }
        let quiet = try TestProcess.macmd(["check", clean.root])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "", "a clean notebook: nothing at all")
    }

    /// `--unlinked` adds every unlinked mention, as a hint (exit status 0), in note order; the
    /// notebook's settings may give the code another severity, and without the option it stays
    /// off.
    func testUnlinkedListsTheMentionsAsHints() throws {
        let notebook = Fixture("""
            //- /garden/soil.md
            ---
            title: Soil Tests
            aliases: [dirt]
            ---
            # Soil Tests
            //- /beds.md
            # Beds

            Raised beds need SOIL TESTS and dirt; see [[soil]], not `soil tests`.
            //- /compost.md
            # Compost

            Compost the beds.
            """)
        let folder = NotebookFixture(notebook)
        defer { folder.destroy() }
        let plain = try run(["check", folder.root])
        XCTAssertEqual(plain.stdout, "")
        let unlinked = try run(["check", "--unlinked", folder.root])
        XCTAssertEqual(unlinked.status, 0)
        XCTAssertEqual(unlinked.stdout, """
            beds.md:3:18: hint: “SOIL TESTS” names `garden/soil.md` without a link [unlinked-mention]
            beds.md:3:33: hint: “dirt” names `garden/soil.md` without a link [unlinked-mention]
            compost.md:3:13: hint: “beds” names `beds.md` without a link [unlinked-mention]

            """)
        folder.write(".macmd.json", #"{"diagnostics": {"unlinked-mention": "warning"}}"#)
        let configured = try run(["check", "--unlinked", "--format", "json", folder.root])
        let value = try JSON.parse(Array(configured.stdout.utf8))
        XCTAssertEqual(value.arrayValue?.map { $0["severity"] }, ["warning", "warning", "warning"])
        XCTAssertEqual(value[2]?["code"], "unlinked-mention")
    }

    func testReportsProblemsAsPathLineColumnAndFailsOnErrors() throws {
        let notebook = Fixture("""
            //- /index.md
            # Home

            See [[Other]] and [[$0Nowhere]].
            //- /sub/other.md
            # Other

            """)
        let folder = NotebookFixture(notebook)
        defer { folder.destroy() }

        let text = try run(["check", folder.root])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stdout, "index.md:\(Self.lineColumn(notebook, notebook.cursor)): error: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")

        let json = try run(["check", folder.root, "--format", "json"])
        XCTAssertEqual(json.status, 1)
        let value = try JSON.parse(Array(json.stdout.utf8))
        XCTAssertEqual(value[0]?["code"], "broken-wikilink")
        XCTAssertEqual(value[0]?["line"], .int(Int64((notebook.cursorPosition?.line ?? -2) + 1)))

        folder.write("index.md", "# Home\n\nSee [[Other]].\n")
        let clean = try run(["check", folder.root])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.stdout, "")

        XCTAssertEqual(try run(["check", folder.root + "/missing"]).status, 2)
        XCTAssertEqual(try run(["check", "--format", "xml"]).status, 2)
    }
}

/// The sample notebook's deliberate problems, as `macmd check` reports them (golden files in
/// Fixtures/check, compared with the real output; only MACMD_BLESS=1 rewrites them).
final class CheckSampleNotebookTests: XCTestCase {
    func testSampleNotebookReportsItsDeliberateProblems() throws {
        let notebook = TestPaths.fixture("notebook").path
        for (format, golden) in [("text", "check/notebook.txt"), ("json", "check/notebook.json")] {
            let result = try TestProcess.macmd(["check", notebook, "--format", format])
            XCTAssertEqual(result.status, 1, "the sample notebook has deliberate errors")
            XCTAssertEqual(result.stderr, "", format)
            Golden.assertMatches(result.stdout, golden)
        }
    }

    /// A `.macmd.json` below the root is not read, and `macmd check` says so (on stderr, with
    /// the other settings problems); the root's settings apply to its folder.
    func testANestedSettingsFileIsReportedAsNotRead() throws {
        let fixture = NotebookFixture([".macmd.json": #"{"diagnostics": {"broken-wikilink": "warning"}}"#,
                                       "journal/.macmd.json": #"{"diagnostics": {"broken-wikilink": "off"}}"#,
                                       "journal/day.md": "[[Nowhere]]\n"])
        defer { fixture.destroy() }
        let result = try TestProcess.macmd(["check", fixture.root])
        XCTAssertEqual(result.stderr, "macmd check: configuration: journal/.macmd.json: not read: a notebook takes its settings from the "
            + ".macmd.json at its root (\(fixture.root)/.macmd.json); move these keys there, or open journal as a notebook of its own\n")
        XCTAssertEqual(result.stdout, "journal/day.md:1:3: warning: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")
        XCTAssertEqual(result.status, 0)
    }

    /// An Obsidian vault (Fixtures/vault: `.obsidian/`, attachments, names shared by sibling
    /// folders, headings with code and punctuation, embeds with fragments, Markdown links by
    /// name): only the links that are really broken are reported (golden check/vault.txt).
    func testVaultReportsOnlyItsRealBreaks() throws {
        let vault = TestPaths.fixture("vault").path
        let result = try TestProcess.macmd(["check", vault])
        XCTAssertEqual(result.status, 1, "the vault has deliberate breaks")
        XCTAssertEqual(result.stderr, "")
        Golden.assertMatches(result.stdout, "check/vault.txt")
        // Read relative to their notes only, the Markdown links by name break too.
        let copy = NotebookFixture([:])
        defer { copy.destroy() }
        try FileManager.default.removeItem(atPath: copy.root)
        try FileManager.default.copyItem(atPath: vault, toPath: copy.root)
        copy.write(".macmd.json", #"{"links": {"markdownResolution": "relative"}}"#)
        let relative = try TestProcess.macmd(["check", copy.root])
        let extra = Set(relative.stdout.split(separator: "\n")).subtracting(result.stdout.split(separator: "\n"))
        XCTAssertEqual(extra.map { $0.components(separatedBy: ": ").first ?? "" }.sorted(),
                       ["Daily/2024-03-05.md:11:16", "Daily/2024-03-05.md:12:23",
                        "Projects/Orion/Meeting notes.md:5:38", "Projects/Orion/Overview.md:9:47"])
    }

    /// A book (mdBook's `book.toml`, MkDocs' `mkdocs.yml`): its notes are the source folder's,
    /// `/` is that folder, and a link out of it is a page of the site the book is published in
    /// beside other books: a hint, not an error. Notes outside the source folder are not checked.
    func testABookIsItsSourceFolder() throws {
        let book = NotebookFixture("""
            //- /book.toml
            [book]
            title = "Garden"
            # where the chapters are
            src = "chapters"
            //- /chapters/SUMMARY.md
            - [Soil](soil.md)
            - [Beds](beds/raised.md)
            //- /chapters/soil.md
            # Soil

            See [the standard library](../std/index.html), [beds](/beds/raised.md) and [gone](missing.md).
            //- /chapters/beds/raised.md
            # Raised beds

            Back to [soil](../soil.md#soil), up to [the site](../../index.html).
            //- /README.md
            A [broken](nowhere.md) link outside the book, not checked.
            """)
        defer { book.destroy() }
        let result = try TestProcess.macmd(["check", book.root])
        XCTAssertEqual(result.status, 1, "`missing.md` is broken: \(result.stdout)")
        XCTAssertEqual(result.stdout, """
            chapters/beds/raised.md:3:51: hint: `../../index.html` is outside the notebook: not checked [link-outside-notebook]
            chapters/soil.md:3:28: hint: `../std/index.html` is outside the notebook: not checked [link-outside-notebook]
            chapters/soil.md:3:83: error: No note `chapters/missing.md` for `missing.md` [broken-link]

            """)
        // MkDocs: `docs_dir`, else `docs`.
        let site = NotebookFixture(["mkdocs.yml": "site_name: Garden\ndocs_dir: 'pages' # the sources\n",
                                    "pages/index.md": "[api](../api/index.html) [x](nowhere.md)\n",
                                    "notes.md": "[not checked](gone.md)\n"])
        defer { site.destroy() }
        let mkdocs = try TestProcess.macmd(["check", site.root])
        XCTAssertEqual(mkdocs.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") },
                       ["pages/index.md:1:7: hint:", "pages/index.md:1:30: error:"])
        // `sourceFolder` in `.macmd.json` says where the notes are in any notebook.
        let named = NotebookFixture(["content/a.md": "[up](../x.html)\n", "b.md": "[[gone]]\n", ".macmd.json": #"{"sourceFolder": "content"}"#])
        defer { named.destroy() }
        XCTAssertEqual(try TestProcess.macmd(["check", named.root]).stdout,
                       "content/a.md:1:6: hint: `../x.html` is outside the notebook: not checked [link-outside-notebook]\n")
    }

    /// The Rust book in `../shared/corpus`, with its `book.toml` beside `src/`: its links to the
    /// books published beside it (`../std/…`, `../reference/…`) are hints, and nothing is an error.
    func testTheRustBookHasNoErrors() throws {
        let book = try CorpusData.folder("rust-book")
        let result = try TestProcess.macmd(["check", book.path])
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(": error: ") }, [], "no errors in the Rust book")
        XCTAssertEqual(result.status, 0)
        XCTAssertGreaterThan(lines.filter { $0.hasSuffix("[link-outside-notebook]") }.count, 30, "the sibling books' links are hints")
    }

    func testSeveritiesFromTheNotebooksConfiguration() throws {
        let fixture = NotebookFixture(["a.md": "[[$0Nowhere]] [x][missing]\n",
                                       ".macmd.json": #"{"diagnostics": {"broken-wikilink": "warning", "undefined-reference": "off"}}"#])
        defer { fixture.destroy() }
        let result = try TestProcess.macmd(["check", fixture.root])
        XCTAssertEqual(result.status, 0, "no errors once broken wiki-links are warnings")
        let place = CheckCommandTests.lineColumn(fixture.fixture, fixture.fixture.cursor)
        XCTAssertEqual(result.stdout, "a.md:\(place): warning: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")
    }

    /// Maths the MathML converter does not understand is reported only when `.macmd.json` gives
    /// `math-error` a severity: at the formula, with the converter's message; a note can still
    /// switch it off for itself, and maths in an image's alt text is text.
    func testMathErrorsAreReportedOnlyWhenAskedFor() throws {
        let notes = [
            "a.md": "Fine $x^2$, then $0$\\fracc{1}{2}$ and ![$\\oops$](pic.png).\n\n$$\n\\left( x\n$$\n\n```math\n\\begin{matrix} a\n```\n",
            "quiet.md": "<!-- macmd-ignore math-error -->\n$\\nope$\n",
            "pic.png": "png",
        ]
        let off = NotebookFixture(notes)
        defer { off.destroy() }
        let quiet = try TestProcess.macmd(["check", off.root])
        XCTAssertEqual(quiet.stdout, "", "off by default")
        XCTAssertEqual(quiet.status, 0)

        for severity in ["warning", "error"] {
            let fixture = NotebookFixture(notes.merging([".macmd.json": #"{"diagnostics": {"math-error": "\#(severity)"}}"#]) { $1 })
            defer { fixture.destroy() }
            let result = try TestProcess.macmd(["check", fixture.root])
            let place = CheckCommandTests.lineColumn(fixture.fixture, fixture.fixture.cursor)
            XCTAssertEqual(result.stdout, """
                a.md:\(place): \(severity): unknown command \\fracc [math-error]
                a.md:3:1: \(severity): missing \\right for \\left [math-error]
                a.md:7:1: \(severity): missing \\end{matrix} [math-error]

                """)
            XCTAssertEqual(result.status, severity == "error" ? 1 : 0)
            let json = try JSON.parse(Array(try TestProcess.macmd(["check", fixture.root, "--format", "json"]).stdout.utf8))
            XCTAssertEqual(json[0]?["code"], "math-error")
            XCTAssertEqual(json[0]?["message"], "unknown command \\fracc")
        }
    }

    /// Snippet notes are templates: `[[${1:note}]]` in one is a placeholder, not a broken link.
    /// The same link in a note outside the snippets folder is reported.
    func testTheSnippetsFolderIsNotChecked() throws {
        let fixture = NotebookFixture([
            "Snippets/link.md": "---\nprefix: wl\n---\nSee [[${1:note}]] and [[Nowhere]]\n",
            "a.md": "[[$0Nowhere]]\n",
            ".macmd.json": #"{"snippets": {"folder": "Snippets"}}"#])
        defer { fixture.destroy() }
        let result = try TestProcess.macmd(["check", fixture.root])
        let place = CheckCommandTests.lineColumn(fixture.fixture, fixture.fixture.cursor)
        XCTAssertEqual(result.stdout, "a.md:\(place): error: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n")
    }
}
