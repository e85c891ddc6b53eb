import XCTest
import Localization
import MarkdownSyntax
import NotebookIndex
import TestSupport
@testable import NotebookIDE

/// Definition, references and renames across a small notebook, asserted on what the writer sees:
/// the text at each location and the notes' text after a rename.
final class NotebookNavigationTests: XCTestCase {
    /// A notebook from a fixture (texts by path); the note holding `$0` gives the cursor.
    struct Workspace {
        let fixture: Fixture
        var notebook = Notebook()

        init(_ files: [String: String], assets: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
            fixture = Fixture(files: files, file: file, line: line)
            for note in fixture.files {
                notebook.update(NoteSymbols.extract(from: MarkdownParser.parse(note.text, options: .notebook), path: note.path))
            }
            for asset in assets { notebook.addAsset(asset) }
        }

        var texts: [String: String] { fixture.texts }
        var note: NoteSymbols { note(fixture.cursor?.path ?? "") }
        var target: CursorTarget? { target(at: fixture.cursor) }

        func note(_ path: String) -> NoteSymbols {
            notebook.notes[path] ?? NoteSymbols(path: "", title: "", titleSource: .fileStem)
        }

        /// What is under `location` in its note.
        func target(at location: FixtureLocation?) -> CursorTarget? {
            location.flatMap { note($0.path).target(at: $0.utf8Offset) }
        }

        func show(_ ranges: [SourceRange]) -> [String] {
            ranges.map { range in
                let bytes = Array((texts[range.path] ?? "").utf8)
                return "\(range.path): " + String(decoding: bytes[range.range.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
            }
        }

        /// The texts after applying `edits` (end to start in each note).
        func applying(_ edits: [NoteEdit]) -> [String: String] {
            var result = texts
            for edit in edits.sorted(by: { $0.range.start > $1.range.start }) {
                var bytes = Array((result[edit.path] ?? "").utf8)
                bytes.replaceSubrange(edit.range.range, with: Array(edit.newText.utf8))
                result[edit.path] = String(decoding: bytes, as: UTF8.self)
            }
            return result
        }
    }

    func testDefinitionGoesToNoteHeadingBlockAndReferenceDefinition() {
        let cases: [(String, [String])] = [
            ("[[so$0il#pH]]", ["garden/soil.md: ## pH"]),
            ("[[soil#^acid$0]]", ["garden/soil.md: Acid soil. ^acid"]),
            ("[t](garden/soil.md$0)", ["garden/soil.md: # Soil"]),
            ("[[so$0il]]", ["garden/soil.md: # Soil"]),
            ("[t][s$0]\n\n[s]: garden/soil.md#texture", ["index.md: [s]: garden/soil.md#texture", "garden/soil.md: ## Texture"]),
            ("[[Nowhere$0]]", []),
            ("![pic](plot.pn$0g)", ["plot.png: "]),
        ]
        for (index, expected) in cases {
            let workspace = Workspace(["index.md": index, "garden/soil.md": "# Soil\n\n## pH\n\nAcid soil. ^acid\n\n## Texture\n"],
                                      assets: ["plot.png"])
            guard let target = workspace.target else {
                XCTFail("nothing under the cursor in \(index)")
                continue
            }
            XCTAssertEqual(workspace.show(workspace.notebook.definition(of: target, in: workspace.note)), expected, index)
        }
    }

    /// A link to a whole note leads to its title, not to the `---` of its front matter: the
    /// title heading, else the front matter's `title`, else the first heading, else the start.
    func testDefinitionOfANoteIsItsTitle() {
        let files = [
            "index.md": "[[a]] [[b]] [[c]] [[d]] [[e]]$0\n",
            "a.md": "---\ntitle: Alpha\ntags: [x]\n---\n\nIntro.\n\n# Alpha\n\n## Part\n",
            "b.md": "---\ntitle: Beta\n---\nText first.\n\n## Only a section\n",
            "c.md": "---\ntitle: Gamma\n---\nNo heading at all.\n",
            "d.md": "No front matter, no heading.\n",
            "e.md": "Intro\n\n### Deep first\n\n## Title\n",
        ]
        let workspace = Workspace(files)
        var shown: [String] = []
        for link in workspace.note.links {
            shown += workspace.show(workspace.notebook.destination(of: link, from: workspace.note.path))
        }
        XCTAssertEqual(shown, ["a.md: # Alpha", "b.md: title", "c.md: title", "d.md: ", "e.md: ### Deep first"])
    }

    func testReferencesOfNotesHeadingsTagsAndDefinitions() throws {
        let files = [
            "garden/soil.md": "---\ntags: [garden/soil]\n---\n# Soil\n\n## pH$0\n\n#garden\n",
            "index.md": "[[soil#pH]] [[soil]] [m](garden/soil.md#ph) #garden/beds\n",
            "beds.md": "[[Soil#ph]] #gardening\n",
        ]
        let workspace = Workspace(files)
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: workspace.target, in: workspace.note)),
                       ["beds.md: [[Soil#ph]]", "index.md: [[soil#pH]]", "index.md: [m](garden/soil.md#ph)"])
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: nil, in: workspace.note)),
                       ["beds.md: [[Soil#ph]]", "index.md: [[soil#pH]]", "index.md: [[soil]]", "index.md: [m](garden/soil.md#ph)"])
        // On the note's title (its first H1), the note's backlinks, as marksman gives them.
        let title = try XCTUnwrap(workspace.target(at: workspace.fixture.cursor(at: "# S$0oil", in: "garden/soil.md")))
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: title, in: workspace.note)),
                       workspace.show(workspace.notebook.references(of: nil, in: workspace.note)))
        let tag = try XCTUnwrap(workspace.note.tags.first { $0.name == "garden" })
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: .tag(tag), in: workspace.note)),
                       ["garden/soil.md: garden/soil", "garden/soil.md: #garden", "index.md: #garden/beds"],
                       "a tag's uses include nested tags and front matter, not #gardening")

        // A link reference definition's references are the links of its note that use its
        // label, in any case and form; not links to other labels, nor another note's `[ref]`.
        let definitions = Workspace([
            "a.md": "[one][ref] and [ref][] and [Ref] and [two][other]\n\n[RE$0F]: b.md\n[other]: c.md\n",
            "b.md": "[ref] [x][ref]\n\n[ref]: a.md\n",
        ])
        guard case .definition(let definition)? = definitions.target else { return XCTFail("not on the definition") }
        XCTAssertEqual(definitions.show(definitions.notebook.references(of: .definition(definition), in: definitions.note)),
                       ["a.md: [one][ref]", "a.md: [ref][]", "a.md: [Ref]"])
        // From one of those links, definition leads back to it.
        let use = try XCTUnwrap(definitions.target(at: definitions.fixture.cursor(at: "[R$0ef] and", in: "a.md")))
        XCTAssertEqual(definitions.show(definitions.notebook.definition(of: use, in: definitions.note)),
                       ["a.md: [REF]: b.md", "b.md: "])
    }

    /// Renaming the first of equal headings changes the ids of the others (`setup-1` becomes
    /// `setup`): links by id follow them; links by text to the first follow the new name.
    func testRenamingTheFirstOfEqualHeadingsKeepsLinksToTheOthers() throws {
        let workspace = Workspace([
            "a.md": "# A\n\n## Set$0up\n\nOne.\n\n## Setup\n\nTwo.\n\n## Setup\n\nThree.\n",
            "b.md": "[1](a.md#setup) [2](a.md#setup-1) [3](a.md#setup-2) [[a#Setup]] [[a#setup-1]] [[a#setup-2|three]]\n",
        ])
        guard case .heading(let heading)? = workspace.target else { return XCTFail("not on the heading") }
        let result = try workspace.notebook.rename(.heading(heading), in: workspace.note, to: "Install")
        XCTAssertEqual(workspace.applying(result.edits)["b.md"],
                       "[1](a.md#install) [2](a.md#setup) [3](a.md#setup-1) [[a#Install]] [[a#setup]] [[a#setup-1|three]]\n")
        // Renaming the second of them leaves the first's links alone and moves the third's.
        let second = try XCTUnwrap(workspace.note("a.md").headings.filter { $0.text == "Setup" }.dropFirst().first)
        let renamed = try workspace.notebook.rename(.heading(second), in: workspace.note("a.md"), to: "Check")
        XCTAssertEqual(workspace.applying(renamed.edits)["b.md"],
                       "[1](a.md#setup) [2](a.md#check) [3](a.md#setup-1) [[a#Setup]] [[a#check]] [[a#setup-1|three]]\n")
    }

    func testRenamingAHeadingRewritesEveryLinkToIt() throws {
        let workspace = Workspace([
            "soil.md": "# Soil\n\n## Soil pH$0\n",
            "index.md": "[[soil#Soil pH]] [[soil#soil-ph|label]] [m](soil.md#soil-ph) [o](soil.md#other)\n",
        ])
        guard case .heading(let heading)? = workspace.target else { return XCTFail("not on the heading") }
        let range = workspace.notebook.renameRange(of: .heading(heading), in: workspace.note)
        XCTAssertEqual(range?.text, "Soil pH")
        let result = try workspace.notebook.rename(.heading(heading), in: workspace.note, to: "Acidity (pH)")
        XCTAssertEqual(workspace.applying(result.edits), [
            "soil.md": "# Soil\n\n## Acidity (pH)\n",
            "index.md": "[[soil#Acidity (pH)]] [[soil#acidity-ph|label]] [m](soil.md#acidity-ph) [o](soil.md#other)\n",
        ])
    }

    /// Which notes a tag rename merges with: those using the new name (or a tag nested in it)
    /// by another name than the old tag.
    func testATagRenameMergesOnlyWithOtherTags() {
        let workspace = Workspace(["a.md": "#garden/beds #garden/beds/north\n", "b.md": "#garden\n", "c.md": "#soil/clay\n"])
        let cases: [(old: String, new: String, merged: [String])] = [
            ("garden/beds", "garden", ["b.md"]),
            ("garden/beds", "soil", ["c.md"]),
            ("garden/beds", "yard", []),
            ("garden/beds", "garden/beds/north", []),
            ("garden", "soil/clay", ["c.md"]),
        ]
        for (old, new, merged) in cases {
            XCTAssertEqual(workspace.notebook.tagMerge(renaming: old, to: new), merged, "#\(old) → #\(new)")
        }
    }

    func testRenamingATagCoversNestedTagsAndFrontMatter() throws {
        let workspace = Workspace([
            "a.md": "---\ntags: [garden, garden/beds]\n---\n#gard$0en and #garden/beds/raised, not #gardening\n",
            "b.md": "#garden\n",
        ])
        let target = try XCTUnwrap(workspace.target, "nothing under the cursor")
        let result = try workspace.notebook.rename(target, in: workspace.note, to: "yard")
        XCTAssertEqual(workspace.applying(result.edits), [
            "a.md": "---\ntags: [yard, yard/beds]\n---\n#yard and #yard/beds/raised, not #gardening\n",
            "b.md": "#yard\n",
        ])
        XCTAssertThrowsError(try workspace.notebook.rename(target, in: workspace.note, to: "two words"))
    }

    func testRenamingAReferenceLabelKeepsLinksAndDefinitionTogether() throws {
        let workspace = Workspace(["a.md": "[one][ref$0] and [ref][] and [Ref]\n\n[REF]: b.md\n"])
        let target = try XCTUnwrap(workspace.target, "nothing under the cursor")
        let result = try workspace.notebook.rename(target, in: workspace.note, to: "source")
        XCTAssertEqual(workspace.applying(result.edits)["a.md"], "[one][source] and [source][] and [source]\n\n[source]: b.md\n")
    }

    func testMovingANoteRewritesLinksToItAndItsOwnRelativeLinks() {
        let workspace = Workspace([
            "garden/soil.md": "# Soil\n\n[home](../index.md) [beds](beds.md) ![p](img/plot.png) [[index]]\n",
            "garden/beds.md": "[[soil]] [[garden/soil#Soil]] [s](soil.md) [t](soil) [[Soil|label]]\n",
            "index.md": "[s](garden/soil.md#soil) [r](/garden/soil.md) ![[soil]]\n",
        ], assets: ["garden/img/plot.png"])
        let edits = workspace.notebook.moveEdits([("garden/soil.md", "notes/dirt and soil.md")])
        XCTAssertEqual(workspace.applying(edits), [
            "garden/soil.md": "# Soil\n\n[home](../index.md) [beds](../garden/beds.md) ![p](../garden/img/plot.png) [[index]]\n",
            "garden/beds.md": "[[dirt and soil]] [[notes/dirt and soil#Soil]] [s](../notes/dirt%20and%20soil.md) [t](../notes/dirt%20and%20soil) [[dirt and soil|label]]\n",
            "index.md": "[s](notes/dirt%20and%20soil.md#soil) [r](/notes/dirt%20and%20soil.md) ![[dirt and soil]]\n",
        ])
    }

    func testRenamingANoteFromALinkMovesItInItsFolder() throws {
        let workspace = Workspace(["index.md": "[[so$0il]]\n", "garden/soil.md": "# Soil\n", "garden/dirt.md": "# Dirt\n"])
        let target = try XCTUnwrap(workspace.target, "nothing under the cursor")
        let range = workspace.notebook.renameRange(of: target, in: workspace.note)
        XCTAssertEqual(range?.text, "soil")
        let result = try workspace.notebook.rename(target, in: workspace.note, to: "loam")
        XCTAssertEqual(result.fileRename?.old, "garden/soil.md")
        XCTAssertEqual(result.fileRename?.new, "garden/loam.md")
        XCTAssertEqual(workspace.applying(result.edits)["index.md"], "[[loam]]\n")
        XCTAssertThrowsError(try workspace.notebook.rename(target, in: workspace.note, to: "dirt"), "a name that is taken")
    }

    // MARK: Links whose note exists but whose heading or block does not

    /// A notebook where several links reach compost.md by their note part but name a heading or
    /// block it does not have; moving or renaming the note must carry them along.
    static let compostFiles = [
        "compost.md": "# Compost\n\n## Temperature log\n\nHot. ^temp\n\n[beds](garden/beds.md#nowhere) [[beds#^gone]] [s](garden/soil.md#Missing)\n",
        "open-questions.md": "[[compost#Hot composting]] [[compost#^old]] [c](compost.md#hot-composting) [[compost#Temperature log]] [[comp$0ost]]\n",
        "garden/beds.md": "# Beds\n\n[up](../compost.md#nope) ![[compost#Gone]] [[compost]]\n",
    ]

    func testWillRenameFilesRewritesLinksWhoseHeadingOrBlockIsMissing() {
        let workspace = Workspace(Self.compostFiles)
        let edits = workspace.notebook.moveEdits([("compost.md", "heap.md")])
        XCTAssertEqual(workspace.applying(edits), [
            "compost.md": "# Compost\n\n## Temperature log\n\nHot. ^temp\n\n[beds](garden/beds.md#nowhere) [[beds#^gone]] [s](garden/soil.md#Missing)\n",
            "open-questions.md": "[[heap#Hot composting]] [[heap#^old]] [c](heap.md#hot-composting) [[heap#Temperature log]] [[heap]]\n",
            "garden/beds.md": "# Beds\n\n[up](../heap.md#nope) ![[heap#Gone]] [[heap]]\n",
        ])
    }

    func testMovingANoteRepathsItsRelativeLinksWithMissingAnchorsAndMissingNotes() {
        var files = Self.compostFiles
        files["compost.md"] = "# Compost\n\n[beds](garden/beds.md#nowhere) [[beds#^gone]] [todo](garden/todo.md) [p](/garden/beds.md#x)\n"
        let workspace = Workspace(files)
        let edits = workspace.notebook.moveEdits([("compost.md", "archive/old/compost.md")])
        XCTAssertEqual(workspace.applying(edits)["compost.md"],
                       "# Compost\n\n[beds](../../garden/beds.md#nowhere) [[beds#^gone]] [todo](../../garden/todo.md) [p](/garden/beds.md#x)\n",
                       "relative links keep reaching the same note (or the same missing note); wiki-links and root links need nothing")
        XCTAssertEqual(workspace.applying(edits)["garden/beds.md"], "# Beds\n\n[up](../archive/old/compost.md#nope) ![[compost#Gone]] [[compost]]\n")
    }

    func testRenamingANoteFromALinkRewritesLinksWhoseHeadingIsMissing() throws {
        let workspace = Workspace(Self.compostFiles)
        let target = try XCTUnwrap(workspace.target, "nothing under the cursor")
        let result = try workspace.notebook.rename(target, in: workspace.note, to: "heap")
        XCTAssertEqual(result.fileRename?.new, "heap.md")
        XCTAssertEqual(workspace.applying(result.edits)["open-questions.md"],
                       "[[heap#Hot composting]] [[heap#^old]] [c](heap.md#hot-composting) [[heap#Temperature log]] [[heap]]\n")
        XCTAssertEqual(workspace.applying(result.edits)["garden/beds.md"], "# Beds\n\n[up](../heap.md#nope) ![[heap#Gone]] [[heap]]\n")
        // The rename can start from the link whose heading is missing: its note part is the note.
        let broken = try XCTUnwrap(workspace.note.links.first)
        XCTAssertEqual(workspace.notebook.renameRange(of: .link(broken), in: workspace.note)?.text, "compost")
        let fromBroken = try workspace.notebook.rename(.link(broken), in: workspace.note, to: "heap")
        XCTAssertEqual(fromBroken.edits, result.edits)
    }

    /// The heading that stands for the note: the first H1 when it gives the title, or the H1
    /// that reads as the front matter title; not a later H1, not a heading unlike the title.
    func testTheTitleHeadingsReferencesAreTheNotesBacklinks() throws {
        let links = "[[a]] [[a#Second]] [[b]] [[b#Other]] [[c]] [[c#Title]]\n"
        let workspace = Workspace([
            "a.md": "# First\n\n# Second\n",
            "b.md": "---\ntitle: Other\n---\n# Intro\n\n# Other\n",
            "c.md": "Text first, no H1.\n\n## Title\n",
            "index.md": links,
        ])
        let cases: [(note: String, heading: String, expected: [String])] = [
            ("a.md", "First", ["index.md: [[a]]", "index.md: [[a#Second]]"]),
            ("a.md", "Second", ["index.md: [[a#Second]]"]),
            ("b.md", "Intro", []),
            ("b.md", "Other", ["index.md: [[b]]", "index.md: [[b#Other]]"]),
            ("c.md", "Title", ["index.md: [[c#Title]]"]),
        ]
        for (path, text, expected) in cases {
            let note = workspace.note(path)
            let heading = try XCTUnwrap(note.headings.first { $0.text == text }, text)
            XCTAssertEqual(workspace.show(workspace.notebook.references(of: .heading(heading), in: note)), expected, "\(path) # \(text)")
        }
    }

    func testBacklinksAndReferencesCountLinksWhoseHeadingOrBlockIsMissing() throws {
        let workspace = Workspace(Self.compostFiles)
        let compost = try XCTUnwrap(workspace.notebook.notes["compost.md"])
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: nil, in: compost)), [
            "garden/beds.md: [up](../compost.md#nope)", "garden/beds.md: ![[compost#Gone]]", "garden/beds.md: [[compost]]",
            "open-questions.md: [[compost#Hot composting]]", "open-questions.md: [[compost#^old]]",
            "open-questions.md: [c](compost.md#hot-composting)", "open-questions.md: [[compost#Temperature log]]",
            "open-questions.md: [[compost]]",
        ])
        XCTAssertEqual(workspace.notebook.backlinks(to: "compost.md").compactMap(\.missingAnchor),
                       ["nope", "Gone", "Hot composting", "^old", "hot-composting"])
        // A heading's references are the links that reach it, not those naming a missing one.
        let heading = try XCTUnwrap(compost.headings.last)
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: .heading(heading), in: compost)),
                       ["open-questions.md: [[compost#Temperature log]]"])
    }

    // MARK: Wiki-links by short name after a move

    func testMovingANoteKeepsShortLinksShortOnlyWhileTheyReachItAlone() {
        let workspace = Workspace([
            "index.md": "[[soil]] [[beds]] [[Beds.md]] [[plants/tomato]] [[/garden/beds]]\n",
            "garden/soil.md": "# Soil\n",
            "garden/beds.md": "# Beds\n",
            "deep/er/soil.md": "# Other soil\n",
            "garden/plants/tomato.md": "# Tomato\n",
        ])
        // Moving the deeper soil.md to the root makes `[[soil]]` reach it: the link that meant
        // garden/soil.md gets that path.
        XCTAssertEqual(workspace.applying(workspace.notebook.moveEdits([("deep/er/soil.md", "soil.md")]))["index.md"],
                       "[[garden/soil]] [[beds]] [[Beds.md]] [[plants/tomato]] [[/garden/beds]]\n")
        // A folder change that leaves the stem unique changes no short link; paths follow.
        XCTAssertEqual(workspace.applying(workspace.notebook.moveEdits([("garden/beds.md", "yard/beds.md"),
                                                                        ("garden/plants/tomato.md", "yard/plants/tomato.md")]))["index.md"],
                       "[[soil]] [[beds]] [[Beds.md]] [[yard/plants/tomato]] [[/yard/beds]]\n")
        // A new name is written short, keeping the extension when the link had one.
        XCTAssertEqual(workspace.applying(workspace.notebook.moveEdits([("garden/beds.md", "garden/Borders.md")]))["index.md"],
                       "[[soil]] [[Borders]] [[Borders.md]] [[plants/tomato]] [[/garden/Borders]]\n")
    }

    // MARK: What a rename may be called

    /// The files after renaming what `$0` is on to `newName`, changed files only (with the file
    /// rename as `old -> new`), or `error: message`.
    func renamed(_ files: [String: String], to newName: String) -> [String] {
        let workspace = Workspace(files)
        guard let target = workspace.target else { return ["nothing under the cursor"] }
        do throws(RenameError) {
            let result = try workspace.notebook.rename(target, in: workspace.note, to: newName)
            let after = workspace.applying(result.edits)
            var lines = after.keys.sorted().filter { after[$0] != workspace.texts[$0] }.map { "\($0): \(after[$0] ?? "")" }
            if let move = result.fileRename { lines.append("\(move.old) -> \(move.new)") }
            return lines
        } catch {
            return ["error: " + error.message.english]
        }
    }

    func testNoteNamesMustStayInTheFolderAndKeepWikiLinksWhole() {
        let files = [
            "index.md": "[[so$0il]] [m](garden/soil.md)\n",
            "garden/soil.md": "# Soil\n",
            "garden/dirt.md": "# Dirt\n",
        ]
        let cases: [(String, [String])] = [
            ("loam", ["index.md: [[loam]] [m](garden/loam.md)\n", "garden/soil.md -> garden/loam.md"]),
            ("Soil Tests (2024).md", ["index.md: [[Soil Tests (2024)]] [m](garden/Soil%20Tests%20%282024%29.md)\n",
                                      "garden/soil.md -> garden/Soil Tests (2024).md"]),
            ("Soil", ["index.md: [[Soil]] [m](garden/Soil.md)\n", "garden/soil.md -> garden/Soil.md"]),
            ("  soil  ", []),
            ("", ["error: the new name is empty"]),
            ("../../etc/evil", ["error: a note name cannot contain `/`: renaming from a link keeps the note in its folder (move the file with the editor's file explorer)"]),
            ("a\\b", ["error: a note name cannot contain `\\`: renaming from a link keeps the note in its folder (move the file with the editor's file explorer)"]),
            ("x|y", ["error: a note name cannot contain `|`: `|` starts a wiki-link's label, so `[[x|y]]` would not reach the note"]),
            ("a]]b", ["error: a note name cannot contain `]`: `]` closes a wiki-link, so `[[a]]b]]` would not reach the note"]),
            ("a[b", ["error: a note name cannot contain `[`: `[` opens a link, so `[[a[b]]` would not reach the note"]),
            ("C#", ["error: a note name cannot contain `#`: `#` starts a heading in a wiki-link, so `[[C#]]` would not reach the note"]),
            ("a^b", ["error: a note name cannot contain `^`: `^` starts a block id in a wiki-link, so `[[a^b]]` would not reach the note"]),
            ("..", ["error: `..` is not a file name"]),
            (".hidden", ["error: a note name cannot start with `.`: that makes a hidden file"]),
            ("soil.", ["error: a note name cannot end with `.`"]),
            ("tab\there", ["error: a note name cannot contain the control character U+0009"]),
            ("two\nlines", ["error: a note name cannot contain a line break"]),
            ("https:evil", ["error: `https:evil` reads as a URL in a link (`https:`), so no link could reach the note"]),
            ("dirt", ["error: `garden/dirt.md` already exists"]),
            ("DIRT.md", ["error: `garden/dirt.md` already exists"]),
            (String(repeating: "x", count: 253), ["error: `\(String(repeating: "x", count: 253)).md` is longer than 255 bytes, the longest file name most file systems allow"]),
        ]
        for (newName, expected) in cases {
            XCTAssertEqual(renamed(files, to: newName), expected, newName)
        }
    }

    func testTagNamesAreWhatTheTagScannerReads() {
        let files = ["a.md": "---\ntags: [garden]\n---\n#gar$0den #garden/beds\n"]
        let cases: [(String, [String])] = [
            ("#yard", ["a.md: ---\ntags: [yard]\n---\n#yard #yard/beds\n"]),
            ("jardín/été", ["a.md: ---\ntags: [jardín/été]\n---\n#jardín/été #jardín/été/beds\n"]),
            ("2026-harvest", ["a.md: ---\ntags: [2026-harvest]\n---\n#2026-harvest #2026-harvest/beds\n"]),
            ("", ["error: the new tag is empty"]),
            ("#", ["error: the new tag is empty"]),
            ("two words", ["error: a tag cannot contain spaces: tags are letters, digits, `_`, `-` and `/`"]),
            ("x]]", ["error: a tag cannot contain `]`: tags are letters, digits, `_`, `-` and `/`"]),
            ("a|b", ["error: a tag cannot contain `|`: tags are letters, digits, `_`, `-` and `/`"]),
            ("../x", ["error: a tag cannot contain `.`: tags are letters, digits, `_`, `-` and `/`"]),
            ("a#b", ["error: a tag cannot contain `#`: tags are letters, digits, `_`, `-` and `/`"]),
            ("2026", ["error: a tag needs a character that is not a digit (`#2026` is not a tag)"]),
            ("/x", ["error: a tag's levels cannot be empty (`/` at the start or the end, or `//`)"]),
            ("a//b", ["error: a tag's levels cannot be empty (`/` at the start or the end, or `//`)"]),
            ("x/", ["error: a tag's levels cannot be empty (`/` at the start or the end, or `//`)"]),
        ]
        for (newName, expected) in cases {
            XCTAssertEqual(renamed(files, to: newName), expected, newName)
        }
    }

    func testHeadingNamesThatCannotBeWrittenInAWikiLinkFallBackToTheId() {
        let files = [
            "garden/soil.md": "# Soil\n\n## Soil p$0H\n\n## Texture\n",
            "index.md": "[[soil#Soil pH]] [[soil#soil-ph]] [m](garden/soil.md#soil-ph)\n",
        ]
        let cases: [(String, [String])] = [
            ("*Acidity*", ["garden/soil.md: # Soil\n\n## *Acidity*\n\n## Texture\n",
                           "index.md: [[soil#Acidity]] [[soil#acidity]] [m](garden/soil.md#acidity)\n"]),
            ("pH | acidity", ["garden/soil.md: # Soil\n\n## pH | acidity\n\n## Texture\n",
                              "index.md: [[soil#ph--acidity]] [[soil#ph--acidity]] [m](garden/soil.md#ph--acidity)\n"]),
            ("C# tips", ["garden/soil.md: # Soil\n\n## C# tips\n\n## Texture\n",
                         "index.md: [[soil#c-tips]] [[soil#c-tips]] [m](garden/soil.md#c-tips)\n"]),
            ("a]]b [x]", ["garden/soil.md: # Soil\n\n## a]]b [x]\n\n## Texture\n",
                          "index.md: [[soil#ab-x]] [[soil#ab-x]] [m](garden/soil.md#ab-x)\n"]),
            ("", ["error: the new name is empty"]),
            ("Two\nlines", ["error: a heading cannot contain a line break"]),
            ("Closed #", ["error: a heading cannot end with ` #`: a closing `#` sequence is not part of the heading's text"]),
            ("<!-- -->", ["error: `<!-- -->` leaves the heading without text"]),
            ("TEXTURE", ["error: `garden/soil.md` already has a heading `Texture` with the id `texture`: links could not tell them apart"]),
            ("|||", ["error: `|||` cannot be written in a wiki-link (`[`, `]`, `|`, `#` and `^` split it) and has no id to write instead"]),
        ]
        for (newName, expected) in cases {
            XCTAssertEqual(renamed(files, to: newName), expected, newName)
        }
    }

    func testReferenceLabelsStayWithinTheirBrackets() {
        let files = ["a.md": "[one][ref$0] and [two][other]\n\n[REF]: b.md\n[other]: c.md\n"]
        let cases: [(String, [String])] = [
            ("source", ["a.md: [one][source] and [two][other]\n\n[source]: b.md\n[other]: c.md\n"]),
            ("Ref", ["a.md: [one][Ref] and [two][other]\n\n[Ref]: b.md\n[other]: c.md\n"]),
            ("a]b", ["error: a reference label cannot contain `]`"]),
            ("[a", ["error: a reference label cannot contain `[`"]),
            ("x\\", ["error: a reference label cannot end with `\\`: it would escape the closing `]`"]),
            ("OTHER", ["error: `[OTHER]` is already defined in this note"]),
            ("  ", ["error: the new label is empty"]),
        ]
        for (newName, expected) in cases {
            XCTAssertEqual(renamed(files, to: newName), expected, newName)
        }
    }

    func testPrepareRenameSaysWhyALinkCannotBeRenamed() {
        let files = [
            "index.md": "# Home\n\n[[nowhere]] [[dup]] [w](https://example.org) [[#Home]] Para ^blk\n",
            "a/dup.md": "# A\n",
            "b/dup.md": "# B\n",
        ]
        let cases: [(String, String)] = [
            ("[[nowh$0ere]]", "`[[nowhere]]` leads to no note (`nowhere` does not exist): there is nothing to rename"),
            ("[[du$0p]]", "`[[dup]]` matches several notes (a/dup.md, b/dup.md): link by path to say which one"),
            ("[w](https://exa$0mple.org)", "`https://example.org` is a URL, not a note"),
            ("[[#Ho$0me]]", "this link leads to the note it is in: rename the file itself, or the heading"),
            ("^bl$0k", "block ids cannot be renamed yet"),
            ("Pa$0ra", "nothing to rename here: put the cursor on a heading, a tag, a link to a note or a reference label"),
        ]
        let workspace = Workspace(files)
        for (marked, expected) in cases {
            let target = workspace.target(at: workspace.fixture.cursor(at: marked, in: "index.md"))
            let note = workspace.note("index.md")
            XCTAssertThrowsError(try workspace.notebook.prepareRename(target, in: note), marked) { error in
                XCTAssertEqual((error as? RenameError)?.message.english, expected, marked)
            }
            XCTAssertNil(target.flatMap { workspace.notebook.renameRange(of: $0, in: note) }, marked)
        }
    }

    // MARK: Files embedded by name

    func testWillRenameFilesOfAnImageRewritesEmbedsByNameOnlyWhenTheyWouldMissIt() {
        let files = [
            "index.md": "![[pic.png]] ![[Pic.png|80]] ![[img/pic.png]] ![p](img/pic.png) [[pic.png]]\n",
            "notes/a.md": "![[pic.png]] ![p](../img/pic.png)\n",
        ]
        // By name, the shortest path wins (as Obsidian picks): img/pic.png over zzz/yyy/pic.png.
        let workspace = Workspace(files, assets: ["img/pic.png", "zzz/yyy/pic.png"])
        let cases: [(old: String, new: String, index: String, a: String)] = [
            // A new file name: embeds by name get the new name.
            ("img/pic.png", "img/photo.png",
             "![[photo.png]] ![[photo.png|80]] ![[img/photo.png]] ![p](img/photo.png) [[photo.png]]\n",
             "![[photo.png]] ![p](../img/photo.png)\n"),
            // Only the folder changes and the name still reaches it alone: embeds by name stay.
            ("img/pic.png", "media/pic.png",
             "![[pic.png]] ![[Pic.png|80]] ![[media/pic.png]] ![p](media/pic.png) [[pic.png]]\n",
             "![[pic.png]] ![p](../media/pic.png)\n"),
            // A longer path than zzz/yyy/pic.png: the name would reach that one, embeds get the path.
            ("img/pic.png", "m/n/o/p/q/pic.png",
             "![[m/n/o/p/q/pic.png]] ![[m/n/o/p/q/pic.png|80]] ![[m/n/o/p/q/pic.png]] ![p](m/n/o/p/q/pic.png) [[m/n/o/p/q/pic.png]]\n",
             "![[m/n/o/p/q/pic.png]] ![p](../m/n/o/p/q/pic.png)\n"),
            // Another pic.png moving to the root would take the name: embeds keep theirs by path.
            ("zzz/yyy/pic.png", "pic.png",
             "![[img/pic.png]] ![[img/pic.png|80]] ![[img/pic.png]] ![p](img/pic.png) [[img/pic.png]]\n",
             "![[img/pic.png]] ![p](../img/pic.png)\n"),
        ]
        for move in cases {
            let after = workspace.applying(workspace.notebook.moveEdits([(move.old, move.new)]))
            XCTAssertEqual(after["index.md"], move.index, "\(move.old) -> \(move.new)")
            XCTAssertEqual(after["notes/a.md"], move.a, "\(move.old) -> \(move.new)")
        }
    }

    // MARK: Books and vaults

    /// A book links its chapters by their published pages (`chapter.html`): moves keep that style.
    func testMovesKeepLinksToPublishedPagesAsPages() {
        let workspace = Workspace([
            "book/intro.md": "[c](chapter.html) [o](chapter.html#old-heading) [m](chapter.md) [r](/book/chapter.html)\n",
            "book/chapter.md": "# Chapter\n\n<a id=\"old-heading\"></a>\n\n[back](intro.html)\n",
        ])
        let renamed = workspace.applying(workspace.notebook.moveEdits([("book/chapter.md", "book/ch01-getting-started.md")]))
        XCTAssertEqual(renamed["book/intro.md"],
                       "[c](ch01-getting-started.html) [o](ch01-getting-started.html#old-heading) [m](ch01-getting-started.md) [r](/book/ch01-getting-started.html)\n")
        let moved = workspace.applying(workspace.notebook.moveEdits([("book/intro.md", "book/front/intro.md")]))
        XCTAssertEqual(moved["book/intro.md"], "[c](../chapter.html) [o](../chapter.html#old-heading) [m](../chapter.md) [r](/book/chapter.html)\n")
        XCTAssertEqual(moved["book/chapter.md"], "# Chapter\n\n<a id=\"old-heading\"></a>\n\n[back](front/intro.html)\n")
    }

    /// In a vault, a Markdown link that reaches its note by name stays a name while the name
    /// reaches it alone, as a wiki-link by name does.
    func testMovesKeepMarkdownLinksByNameAsNamesInAVault() {
        var workspace = Workspace([
            "Home.md": "[r](Recipe%20Book.md) [p](cooking/Recipe%20Book.md)\n",
            "cooking/Recipe Book.md": "# Recipes\n",
            "daily/today.md": "[r](Recipe%20Book.md#Recipes)\n",
        ])
        workspace.notebook.markdownResolution = .obsidian
        let moved = workspace.applying(workspace.notebook.moveEdits([("cooking/Recipe Book.md", "kitchen/Recipe Book.md")]))
        XCTAssertEqual(moved["Home.md"], "[r](Recipe%20Book.md) [p](kitchen/Recipe%20Book.md)\n", "only the link by path changes")
        XCTAssertEqual(moved["daily/today.md"], "[r](Recipe%20Book.md#Recipes)\n")
        let renamed = workspace.applying(workspace.notebook.moveEdits([("cooking/Recipe Book.md", "cooking/Cookbook.md")]))
        XCTAssertEqual(renamed["Home.md"], "[r](Cookbook.md) [p](cooking/Cookbook.md)\n")
        XCTAssertEqual(renamed["daily/today.md"], "[r](Cookbook.md#Recipes)\n")
        // The linking note moves: a name needs no new path.
        let away = workspace.applying(workspace.notebook.moveEdits([("daily/today.md", "daily/2024/today.md")]))
        XCTAssertEqual(away["daily/today.md"], "[r](Recipe%20Book.md#Recipes)\n")
    }

    /// A fragment that names an HTML id leads to the id's place, and its uses are its references.
    func testDefinitionAndReferencesOfAnHTMLID() throws {
        let workspace = Workspace([
            "book/intro.md": "[o](chapter.html#old$0-heading) [n](chapter.html#new-heading)\n",
            "book/chapter.md": "# Chapter\n\n<a id=\"old-heading\"></a>\n\n## New heading\n",
            "book/other.md": "[again](chapter.md#old-heading)\n",
        ])
        let target = try XCTUnwrap(workspace.target)
        XCTAssertEqual(workspace.show(workspace.notebook.definition(of: target, in: workspace.note)), ["book/chapter.md: old-heading"])
        XCTAssertEqual(workspace.show(workspace.notebook.references(of: target, in: workspace.note)),
                       ["book/intro.md: [o](chapter.html#old-heading)", "book/other.md: [again](chapter.md#old-heading)"])
    }

    func testEmbedsByNameLeadToTheFileAndCannotRenameIt() throws {
        let workspace = Workspace(["notes/index.md": "![[pi$0c.png]]\n"], assets: ["img/pic.png"])
        XCTAssertEqual(workspace.show(workspace.notebook.definition(of: try XCTUnwrap(workspace.target), in: workspace.note)),
                       ["img/pic.png: "])
        XCTAssertThrowsError(try workspace.notebook.prepareRename(workspace.target, in: workspace.note)) { error in
            XCTAssertEqual((error as? RenameError)?.message.english,
                           "`![[pic.png]]` leads to the file `img/pic.png`, not a note: rename the file in the editor's file explorer (its links follow)")
        }
    }
}

/// Definition, references and rename as the server answers them (`IDECheck`), over notebooks
/// written as fixtures.
final class NotebookNavigationCheckTests: XCTestCase {
    func testDefinition() {
        IDECheck.definition("""
            //- /index.md
            See [[so$0il#pH]].
            //- /garden/soil.md
            # Soil

            ## pH

            Acid soil. ^acid
            """, "garden/soil.md: ## pH")
        IDECheck.definition("""
            //- /index.md
            [m](garden/soil.md#^ac$0id) and [[Nowhere]]
            //- /garden/soil.md
            # Soil

            Acid soil. ^acid
            """, "garden/soil.md: Acid soil. ^acid")
        IDECheck.definition("""
            //- /index.md
            [[Nowh$0ere]]
            """, "")
        IDECheck.definition("""
            //- /index.md
            Plain te$0xt.
            """, nil)
    }

    func testReferences() {
        IDECheck.references("""
            //- /garden/soil.md
            # Soil

            ## p$0H
            //- /index.md
            [[soil#pH]] [[soil]] [m](garden/soil.md#ph)
            //- /beds.md
            [[Soil#ph]] #garden
            """, "beds.md: [[Soil#ph]]\nindex.md: [[soil#pH]]\nindex.md: [m](garden/soil.md#ph)")
        IDECheck.references("""
            //- /a.md
            #gar$0den and #garden/beds
            //- /b.md
            ---
            tags: [garden]
            ---
            #gardening is another tag
            """, "a.md: #garden\na.md: #garden/beds\nb.md: garden")
    }

    func testRename() {
        IDECheck.rename("""
            //- /garden/soil.md
            # Soil

            ## p$0H
            //- /index.md
            [[soil#pH]] and [m](garden/soil.md#ph)
            """, "//- /garden/soil.md\n# Soil\n\n## Acidity\n//- /index.md\n[[soil#Acidity]] and [m](garden/soil.md#acidity)\n", to: "Acidity")
        IDECheck.rename("""
            //- /index.md
            #so$0il and #soil/clay
            //- /b.md
            ---
            tags: [soil]
            ---
            """, "//- /b.md\n---\ntags: [earth]\n---\n//- /index.md\n#earth and #earth/clay\n", to: "earth")
        IDECheck.rename("""
            //- /index.md
            #so$0il
            """, "error: a tag cannot contain spaces: tags are letters, digits, `_`, `-` and `/`", to: "rich soil")
    }
}

/// The backlinks tree (`IDECheck.graph`): a note, a heading or a link's target, the notes that
/// link to it with their links, and the notes its text links to.
final class NotebookGraphCheckTests: XCTestCase {
    func testGraph() {
        // On the title: the note, its backlinks and its links.
        IDECheck.graph("""
            //- /garden/soil.md
            # So$0il

            Feeds [[beds]] and [compost](../compost.md). Itself: [[soil#pH]].

            ## pH

            See [[beds#Raised]] and [[nowhere]].

            ## Texture

            More [[compost]].
            //- /index.md
            # Home

            [[soil]], [[soil#pH]] and again [[Soil]].
            //- /beds.md
            # Beds

            ## Raised

            Fill with [soil](garden/soil.md#ph).
            //- /compost.md
            ---
            title: Compost heap
            ---
            Nothing links out.
            """, "garden/soil.md \"Soil\" in \"garden\": # Soil\nincoming:\n  beds.md \"Beds\": [soil](garden/soil.md#ph)\n  index.md \"Home\": [[soil]] | [[soil#pH]] | [[Soil]]\noutgoing:\n  beds.md \"Beds\": [[beds]] | [[beds#Raised]]\n  compost.md \"Compost heap\": [compost](../compost.md) | [[compost]]")
        // On a heading: the links to it, and the links of its section.
        IDECheck.graph("""
            //- /garden/soil.md
            # Soil

            Feeds [[beds]].

            ## p$0H

            See [[beds]] and [[nowhere]].

            ## Texture

            More [[compost]].
            //- /index.md
            [[soil]], [[soil#pH]]
            //- /beds.md
            Fill with [soil](garden/soil.md#ph).
            //- /compost.md
            # Compost
            """, "garden/soil.md#pH \"pH\" in \"garden\": ## pH\nincoming:\n  beds.md \"beds\": [soil](garden/soil.md#ph)\n  index.md \"index\": [[soil#pH]]\noutgoing:\n  beds.md \"beds\": [[beds]]")
        // On a link: the note it reaches.
        IDECheck.graph("""
            //- /index.md
            See [[com$0post]].
            //- /compost.md
            # Compost

            Back [[index]].
            """, "compost.md \"Compost\" in \"\": # Compost\nincoming:\n  index.md \"index\": [[compost]]\noutgoing:\n  index.md \"index\": [[index]]")
        // A link to nothing is no node.
        IDECheck.graph("""
            //- /index.md
            See [[nowh$0ere]].
            """, nil)
    }
}

/// `textDocument/documentHighlight` (`IDECheck.highlights`): the other places of the symbol under
/// the cursor in its note.
final class DocumentHighlightCheckTests: XCTestCase {
    func testHighlights() {
        IDECheck.highlights("""
            //- /index.md
            # Home

            [[so$0il]], [[Soil]], [soil](soil.md) and [[soil#pH]]; [[beds]].
            //- /soil.md
            # Soil

            ## pH
            """, "[[soil]]\n[[Soil]]\n[soil](soil.md)")
        IDECheck.highlights("""
            //- /index.md
            # Home

            ## Pl$0an

            See [[#Plan]], [[index#Plan]] and [[#Home]].
            """, "## Plan (declared)\n[[#Plan]]\n[[index#Plan]]")
        IDECheck.highlights("""
            //- /index.md
            #gar$0den, #garden/beds and #garden again.
            """, "#garden\n#garden")
        IDECheck.highlights("""
            //- /index.md
            [one][re$0f] and [ref][] and [two][other]

            [REF]: a.md
            [other]: b.md
            """, "[one][ref]\n[ref][]\n[REF]: a.md (declared)")
        IDECheck.highlights("""
            //- /index.md
            Plain te$0xt.
            """, nil)
    }
}

/// Expand selection (`IDECheck.selections`): word, inline span, blocks, sections, the note.
final class SelectionRangeCheckTests: XCTestCase {
    func testSelections() {
        IDECheck.selections("""
            # Garden

            ## Beds

            - Fill with **rich so$0il** from [[compost]].
            - Water.

            ## Pests
            """, "soil\n**rich soil**\nFill with **rich soil** from [[compost]].\n- Fill with **rich soil** from [[compost]].\n- Fill with **rich soil** from [[compost]].⏎- Water.\n## Beds⏎⏎- Fill with **rich soil** from [[compost]].⏎- Water.\n# Garden⏎⏎## Beds⏎⏎- Fill with **rich soil** from [[compost]].⏎- Water.⏎⏎## Pests")
        IDECheck.selections("""
            # Garden

            > See [[com$0post#Heap]] first.
            """, "compost\n[[compost#Heap]]\nSee [[compost#Heap]] first.\n> See [[compost#Heap]] first.\n# Garden⏎⏎> See [[compost#Heap]] first.")
        IDECheck.selections("""
            Just a sen$0tence.
            """, "sentence\nJust a sentence.")
    }
}

/// Reference counts above a note's title and its headings (`IDECheck.lenses`): the title's lens
/// always, a heading's when another note links to it; each counts the links from other notes.
final class ReferenceLensTests: XCTestCase {
    func testTheTitleAndTheHeadingsOtherNotesReach() {
        IDECheck.lenses("""
            //- /soil.md
            # Soil$0

            ## pH

            [[#pH]] links here from the note itself.

            ## Texture

            ## Unreached
            //- /beds.md
            See [[soil]], [[soil#pH]] and [[Soil#Texture|texture]].
            //- /journal/day.md
            [[soil#pH]] again; [soil](../soil.md).
            """, "\"# Soil\": beds.md: [[soil]] | beds.md: [[soil#pH]] | beds.md: [[Soil#Texture|texture]] | journal/day.md: [[soil#pH]] | journal/day.md: [soil](../soil.md)\n\"## pH\": beds.md: [[soil#pH]] | journal/day.md: [[soil#pH]]\n\"## Texture\": beds.md: [[Soil#Texture|texture]]")
        // No link from elsewhere: the title's lens alone, at the note's start without a heading.
        IDECheck.lenses("""
            //- /alone.md
            ---
            title: Alone
            ---
            Text.$0
            """, "\"\": ")
    }

    /// The title's lens counts the places that name the note without a link too (after `~`),
    /// never inside a link or code; a heading's lens counts links only.
    func testTheTitleCountsUnlinkedMentions() {
        IDECheck.lenses("""
            //- /compost.md
            # Compost$0

            ## Turning
            //- /beds.md
            Compost went on the beds; see [[compost#Turning]]. `compost` in code is not a mention.
            //- /journal/day.md
            More compost today, and [compost](../compost.md) linked.
            """, "\"# Compost\": beds.md: [[compost#Turning]] | journal/day.md: [compost](../compost.md) | ~beds.md: Compost | ~journal/day.md: compost\n\"## Turning\": beds.md: [[compost#Turning]]")
    }

    /// The lens's words in the writer's language, plural by that language's rules.
    func testTheCountsAreWordedInTheWritersLanguage() {
        let cases: [(SupportedLocale, Int, String)] = [
            (.en, 1, "1 backlink"), (.en, 3, "3 backlinks"), (.de, 1, "1 Rückverweis"), (.de, 0, "0 Rückverweise"),
            (.fr, 0, "0 rétrolien"), (.ar, 2, "رابطان واردان"), (.ar, 3, "٣ روابط واردة"), (.ja, 5, "バックリンク 5 件"),
        ]
        for (locale, count, expected) in cases {
            XCTAssertEqual(LocalizedText("lens.backlinks", .integer(count)).string(in: locale), expected, "\(locale) \(count)")
        }
        XCTAssertEqual(LocalizedText("lens.unlinkedMentions", .integer(2)).string(in: .en), "2 unlinked mentions")
    }
}
