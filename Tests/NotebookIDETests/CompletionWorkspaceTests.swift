import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
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

/// How the index is built: the same whether its parts are built side by side or in turn, each key
/// what its definition says, and after any sequence of edits the index of a notebook built from
/// scratch, in particular the link text of notes that come to share a name.
final class CompletionWorkspaceBuildTests: XCTestCase {
    /// Notes whose names take every path of the build: capitals, other scripts, NFD, shared
    /// names, two extensions, a backslash, hidden and extensionless names, deep folders.
    static let notes: [(path: String, text: String)] = [
        ("Index.md", "# Home\n"),
        ("garden/Soil Tests.md", "---\ntitle: Soil Testing\naliases: [Dirt, ÉARTH]\ntags: [garden]\n---\n#veg\n"),
        ("garden/plants/tomato.md", "# Tomato\n#veg #garden\n"),
        ("archive/tomato.md", "# Old tomato\n"),
        ("recipes/Tomato.markdown", "---\nstatus: draft\n---\n# Sauce\n"),
        ("ΟΔΟΣ/Σημειώσεις.md", "# Ελληνικά\n"),
        ("ΟΔΟΣ/δρόμος.md", "# Δρόμος\n"),
        ("日本/東京.md", "# 東京メモ\n"),
        ("caf\u{E9}/menu.md", "# Menu\n"),
        ("cafe\u{301}/carte.md", "# Carte NFD\n"),
        ("a/b/c/d/deep.md", "---\nstatus: done\n---\n"),
        ("a/b/c/d/Deep note.md", "# Deep note\n"),
        ("a/x\\y.md", "# Backslash\n"),
        ("a/.md", "# Hidden\n"),
        ("a/v1.0.md", "# Version\n"),
        ("b/v1.0.md", "# Version B\n"),
        ("notes/readme", "# No extension\n"),
        ("notes/two.dots.md", "# Two dots\n"),
    ]

    static let files = ["images/Photo.PNG", "garden/bed.jpg", "docs/deep/manual.pdf", "b/v1.0"]

    static func symbols(_ notes: [(path: String, text: String)]) -> [NoteSymbols] {
        notes.map { CompletionFixture.symbols($0.text, path: $0.path) }
    }

    /// Every part of an index as lines of text, keys as the text they fold to.
    /// The notes links are written in, for the link texts an index gives.
    static let sources = ["scratch.md", "garden/new.md", "archive/tomato.md"]

    static func describe(_ workspace: CompletionWorkspace) -> [String] {
        func text(_ slice: CompletionWorkspace.Slice) -> String {
            String(decoding: workspace.keyArena[Int(slice.start)..<Int(slice.start + slice.count)], as: UTF8.self)
        }
        var lines: [String] = []
        for (note, keys) in zip(workspace.notes, workspace.noteKeys) {
            let aliases = (0..<Int(keys.aliasCount)).map { text(workspace.aliasKeys[Int(keys.aliasStart) + $0]) }
            let targets = sources.map { workspace.linkTarget(of: note, from: $0) }
            lines.append("note \(note.path) title \(note.title) stem \(note.stem) aliases \(note.aliases) targets \(targets)"
                + " keys [\(text(keys.title))] [\(text(keys.stem))] [\(text(keys.path))] \(aliases) folder [\(text(keys.folder))]"
                + " depth \(keys.depth) length \(keys.pathLength) mask \(String(keys.mask, radix: 16))")
        }
        for file in workspace.files {
            lines.append("file \(file.path) [\(String(decoding: file.key, as: UTF8.self))] [\(String(decoding: file.folder, as: UTF8.self))] \(file.depth) \(file.isImage) \(String(file.mask, radix: 16))")
        }
        for folder in workspace.folders.keys.sorted() {
            for entry in workspace.folders[folder] ?? [] {
                lines.append("in [\(folder)] \(entry.kind) \(entry.name) [\(String(decoding: entry.key, as: UTF8.self))] \(entry.path) \(entry.isImage)")
            }
        }
        lines += workspace.tags.map { "tag \($0.text) \($0.count)" }
        lines += workspace.frontMatterKeys.map { key in "key \(key.key.text) \(key.key.count): " + key.values.map { "\($0.text) \($0.count)" }.joined(separator: ", ") }
        return lines
    }

    /// The same lines from the definitions: notes by path as `String` orders them, each key
    /// `CompletionMatcher.key` of the title, stem and path without extension; the link text the
    /// catalog works out; every note and file, and the folders above them, in their folder by name.
    static func defined(_ catalog: NoteCatalog, files: [String]) -> [String] {
        let sharing = catalog.pathsSharingStems()
        func target(_ path: String, from source: String) -> String {
            guard sharing.contains(path), let table = catalog.stemTable(NoteCatalog.stemKey(of: path)) else {
                return NotebookPath.wikiTarget(NotebookPath.fileStem(of: path))
            }
            return catalog.wikiTarget(to: path, from: source, table: table)
        }
        func key(_ text: String) -> String { String(decoding: CompletionMatcher.key(text), as: UTF8.self) }
        func mask(_ texts: [String]) -> String { String(texts.reduce(0) { $0 | CompletionMatcher.mask(CompletionMatcher.key($1)) }, radix: 16) }
        var lines: [String] = []
        for note in catalog.notes.values.sorted(by: { $0.path < $1.path }) {
            let stem = NotebookPath.fileStem(of: note.path)
            let bare = NotebookPath.removingExtension(note.path, catalog.noteExtensions)
            let folder = NotebookPath.folder(of: note.path)
            lines.append("note \(note.path) title \(note.title) stem \(stem) aliases \(note.aliases) targets \(sources.map { target(note.path, from: $0) })"
                + " keys [\(key(note.title))] [\(key(stem))] [\(key(bare))] \(note.aliases.map(key)) folder [\(folder)]"
                + " depth \(folder.isEmpty ? 0 : folder.split(separator: "/", omittingEmptySubsequences: false).count)"
                + " length \(note.path.utf8.count) mask \(mask([note.title, stem, bare] + note.aliases))")
        }
        let others = files.filter { catalog.notes[$0] == nil }.sorted()
        for file in others {
            let folder = NotebookPath.folder(of: file)
            lines.append("file \(file) [\(key(file))] [\(folder)] \(folder.isEmpty ? 0 : folder.split(separator: "/").count) \(CompletionPath.isImage(file)) \(mask([file]))")
        }
        var entries: [String: [(name: String, path: String, kind: String, isImage: Bool)]] = [:]
        var folders: Set<String> = []
        for (path, kind) in catalog.notes.keys.map({ ($0, "note") }) + others.map({ ($0, "file") }) {
            entries[NotebookPath.folder(of: path), default: []].append((NotebookPath.lastComponent(of: path), path, kind, kind == "file" && CompletionPath.isImage(path)))
            var folder = NotebookPath.folder(of: path)
            while !folder.isEmpty, folders.insert(folder).inserted {
                entries[NotebookPath.folder(of: folder), default: []].append((NotebookPath.lastComponent(of: folder), folder, "folder", false))
                folder = NotebookPath.folder(of: folder)
            }
        }
        for folder in entries.keys.sorted() {
            for entry in (entries[folder] ?? []).sorted(by: { $0.name < $1.name }) {
                lines.append("in [\(folder)] \(entry.kind) \(entry.name) [\(key(entry.name))] \(entry.path) \(entry.isImage)")
            }
        }
        return lines
    }

    func testSideBySideOrInTurnTheIndexIsWhatItsDefinitionsSay() {
        let catalog = NoteCatalog(Self.symbols(Self.notes))
        let sideBySide = CompletionWorkspace(catalog: catalog, files: Self.files, tagCounts: nil, frontMatterValues: nil, sideBySide: true)
        let inTurn = CompletionWorkspace(catalog: catalog, files: Self.files, tagCounts: nil, frontMatterValues: nil, sideBySide: false)
        XCTAssertEqual(Self.describe(sideBySide), Self.describe(inTurn))
        let described = Self.describe(inTurn).filter { !$0.hasPrefix("tag ") && !$0.hasPrefix("key ") }
        let defined = Self.defined(catalog, files: Self.files)
        XCTAssertEqual(described.count, defined.count)
        for (built, expected) in zip(described, defined) { XCTAssertEqual(built, expected) }
        // What a user sees of it: the names that are shared get a folder, but for the one in
        // the linking note's folder, and else the one with the shortest path.
        XCTAssertEqual(inTurn.notes.filter(\.sharesStem).map { inTurn.linkTarget(of: $0, from: "scratch.md") },
                       ["a/v1.0", "tomato", "b/v1.0", "plants/tomato", "recipes/Tomato"])
        XCTAssertEqual(inTurn.notes.filter(\.sharesStem).map { inTurn.linkTarget(of: $0, from: "archive/new.md") },
                       ["a/v1.0", "tomato", "b/v1.0", "plants/tomato", "recipes/Tomato"])
        XCTAssertEqual(inTurn.notes.filter(\.sharesStem).map { inTurn.linkTarget(of: $0, from: "recipes/new.md") },
                       ["a/v1.0", "archive/tomato", "b/v1.0", "plants/tomato", "Tomato"])
    }

    /// Edits in every order that changes names (a note that comes to share a name, a renamed
    /// title, a note and a file gone) and one that does not (text only): after each, the index
    /// the host keeps (rebuilt, or refreshed when names stay) is the one of a notebook built from
    /// scratch of the same notes.
    func testAfterEditsTheHostsIndexIsOneBuiltFromScratch() {
        var host = AnalysisHost()
        host.addFolder("/notes")
        var texts = Dictionary(uniqueKeysWithValues: Self.notes.map { ($0.path, $0.text) })
        var assets = Set(Self.files)
        host.updateFolder("/notes") { folder in
            folder.apply(Self.notes.map { FileUpdate(path: $0.path, change: .note(CompletionFixture.symbols($0.text, path: $0.path), modificationTime: nil)) }
                         + Self.files.map { FileUpdate(path: $0, change: .assetAdded) })
        }
        let edits: [(name: String, path: String, text: String?)] = [
            ("a note that shares a name", "journal/tomato.md", "# Tomato diary\n"),
            ("a text-only edit", "garden/plants/tomato.md", "# Tomato\n#veg #garden\nMore text.\n"),
            ("a new title", "archive/tomato.md", "# Older tomato\n"),
            ("a tag and front matter", "Index.md", "---\nstatus: draft\n---\n# Home\n#new\n"),
            ("a note gone", "recipes/Tomato.markdown", nil),
            ("a root note with the shared name", "tomato.md", "# Root tomato\n"),
            ("an asset gone", "b/v1.0", nil),
        ]
        var lastTargets: [String: String] = [:]
        for edit in edits {
            if edit.path.hasSuffix(".md") || edit.path.hasSuffix(".markdown") {
                texts[edit.path] = edit.text
                let change: FileUpdate.Change = edit.text.map { .note(CompletionFixture.symbols($0, path: edit.path), modificationTime: nil) } ?? .noteRemoved
                host.updateFolder("/notes") { $0.apply([FileUpdate(path: edit.path, change: change)]) }
            } else {
                assets.remove(edit.path)
                host.updateFolder("/notes") { $0.apply([FileUpdate(path: edit.path, change: .assetRemoved)]) }
            }
            let snapshot = host.snapshot()
            guard let folder = snapshot.workspace.folder("/notes") else { return XCTFail("no notebook") }
            var scratch = Notebook()
            for (path, text) in texts.sorted(by: { $0.key < $1.key }) { scratch.update(CompletionFixture.symbols(text, path: path)) }
            for asset in assets.sorted() { scratch.addAsset(asset) }
            let kept = snapshot.completionIndex(of: folder)
            XCTAssertEqual(Self.describe(kept), Self.describe(CompletionWorkspace(notebook: scratch)), edit.name)
            lastTargets = Dictionary(uniqueKeysWithValues: kept.notes.map { ($0.path, kept.linkTarget(of: $0, from: "scratch.md")) })
        }
        // A user's view of the end: four notes named tomato, the root one by its name.
        XCTAssertEqual(lastTargets.filter { $0.key.hasSuffix("tomato.md") }, [
            "tomato.md": "tomato", "archive/tomato.md": "archive/tomato", "journal/tomato.md": "journal/tomato",
            "garden/plants/tomato.md": "plants/tomato",
        ])
    }
}
