import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TestSupport
import TextCore
import XCTest
@testable import NotebookIDE

/// Semantic tokens (`IDECheck.semanticTokens`): each token's text, kind and modifiers, as an
/// editor colours them.
final class SemanticTokenTests: XCTestCase {
    /// `text` with a random line removed (one time in three) or one of `snippets` inserted as
    /// a line somewhere: the edits of the random-edit tests.
    static func edited(_ text: String, with snippets: [String], _ generator: inout SeededGenerator) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if generator.next(3) == 0, !lines.isEmpty {
            lines.remove(at: generator.next(lines.count))
        } else {
            lines.insert(snippets[generator.next(snippets.count)], at: generator.next(lines.count + 1))
        }
        return lines.joined(separator: "\n")
    }

    /// Wiki-links: the note part, heading anchors and block ids, each resolved or not, embeds.
    func testWikiLinksAreMarkedByWhereTheyLead() {
        IDECheck.semanticTokens("""
            //- /index.md
            $0See [[soil]], [[soil#pH]], [[soil#Clay]], [[soil#^fig1]], [[soil#^nope]] and [[Soil|the soil]].
            Broken: [[nowhere]], [[nowhere#Heading]]. Same note: [[#Plan]], [[#Missing]].
            Embedded: ![[soil]], ![[soil#pH]]; ambiguous: [[notes]].

            ## Plan
            //- /soil.md
            # Soil

            ## pH

            Acid. ^fig1
            //- /a/notes.md
            # Notes
            //- /b/notes.md
            # Notes
            """, "soil link resolved\nsoil link resolved\npH heading resolved\nsoil link resolved\nClay heading unresolved\nsoil link resolved\n^fig1 blockId resolved\nsoil link resolved\n^nope blockId unresolved\nSoil link resolved\nnowhere link unresolved\nnowhere link unresolved\nHeading heading unresolved\nPlan heading resolved\nMissing heading unresolved\nsoil link resolved embed\nsoil link resolved embed\npH heading resolved embed\nnotes link ambiguous")
    }

    /// Markdown links and images: the path, the `#anchor`, resolved or not; URLs unmarked; a
    /// reference link's destination once, in its definition.
    func testMarkdownLinksAreMarkedByWhereTheyLead() {
        IDECheck.semanticTokens("""
            //- /index.md
            $0[Soil](soil.md), [pH](soil.md#ph), [gone](soil.md#gone), [none](none.md), [here](#plan),
            [web](https://example.com/x), <https://example.com>, ![plot](plot.png), [ref][r] and [again][r].

            [r]: soil.md#ph

            ## Plan
            //- /soil.md
            # Soil

            ## pH
            """, "soil.md link resolved\nsoil.md link resolved\nph heading resolved\nsoil.md link resolved\ngone heading unresolved\nnone.md link unresolved\nplan heading resolved\nhttps://example.com/x link\nhttps://example.com link\nplot.png link unresolved embed\nsoil.md link resolved\nph heading resolved")
    }

    /// Tags (inline and in the front matter), front-matter keys, block ids where declared, maths
    /// inline, display (over lines) and in a block; nothing inside code.
    func testTagsFrontMatterBlockIDsAndMaths() {
        IDECheck.semanticTokens("""
            //- /index.md
            ---
            title: Garden
            tags: [garden, soil/clay]
            ---
            $0# Garden #plan

            A paragraph with $x^2$ and #garden/beds. ^para

            $$
            \\sum_i x_i
            $$

            `[[not a link]] #not-a-tag $x$`

            ```
            [[code]] #code $y$
            ```

            ```math
            a + b
            ```
            """, "title property\ntags property\ngarden tag\nsoil/clay tag\n#plan tag\n$x^2$ math\n#garden/beds tag\n^para blockId declaration\n$$⏎\\sum_i x_i⏎$$ math\n```math⏎a + b⏎``` math")
    }

    /// Columns count in the note's bytes here; the server converts them (UTF-16 for most
    /// editors): a non-ASCII note's tokens cover the same text.
    func testNonASCIIText() {
        IDECheck.semanticTokens("""
            //- /index.md
            $0Über 𝔸 [[Ünïcode]] — #Straße and [[Ünïcode#Überschrift]].
            //- /Ünïcode.md
            # Ünïcode

            ## Überschrift
            """, "Ünïcode link resolved\n#Straße tag\nÜnïcode link resolved\nÜberschrift heading resolved")
    }

    /// A range asks for the tokens that meet it, and no others.
    func testRangeGivesTheTokensInIt() {
        IDECheck.semanticTokens("""
            //- /index.md
            First [[soil]] #one.
            Second $0[[soil#pH]] and #two.
            Third$0 [[gone]] #three.
            //- /soil.md
            # Soil

            ## pH
            """, "soil link resolved\npH heading resolved\n#two tag")
    }

    /// Until the notebook's first scan has ended, no link is called unresolved or ambiguous:
    /// its target may only be unindexed yet.
    func testNoUnresolvedBeforeTheIndexIsComplete() {
        IDECheck.semanticTokens("""
            //- /index.md
            $0[[soil]], [[nowhere]], [[soil#Clay]], [[notes]].
            //- /soil.md
            # Soil
            //- /a/notes.md
            # Notes
            //- /b/notes.md
            # Notes
            """, "soil link resolved\nnowhere link\nsoil link resolved\nClay heading\nnotes link", indexComplete: false)
    }

    /// The tokens of every note, from an index updated note by note through random edits, equal
    /// those from an index built afresh of the same notes; and a note whose tokens another
    /// note's edit changed is among the notes the edit names (`NotebookChange.affected`): those
    /// the server asks the editor to colour again.
    func testTokensFromTheIncrementalIndexEqualAFreshBuildsAfterRandomEdits() {
        let snippets = [
            "[[soil]]", "[[Soil Tests]]", "[[garden/soil#Tests]]", "[[beds#^b1]]", "[[Missing]]", "[[dup]]", "![[plot.png]]",
            "[s](garden/soil.md)", "[s](../soil.md#tests)", "[x](beds.md#nowhere)", "#garden", "# Tests", "## Beds", "Text ^b1",
            "[r][ref]\n\n[ref]: beds.md", "---\ntitle: Soil Tests\naliases: [dirt]\ntags: [garden]\n---", "[[dirt]]",
            "[[Beds]]", "$x$ and $$y$$", "plain words", "[[#Tests]]", "[[new#Tests]]",
        ]
        let names = ["index.md", "garden/soil.md", "beds.md", "a/dup.md", "b/dup.md", "new.md", "soil.md", "x/dirt.md"]
        var texts: [String: String] = [
            "index.md": "# Home\n\n[[soil]] [[beds]] #garden\n", "garden/soil.md": "# Soil\n\n## Tests\n\nText ^b1\n",
            "beds.md": "# Beds\n\n[[garden/soil#Tests]]\n", "a/dup.md": "# Dup A\n", "b/dup.md": "# Dup B\n",
        ]
        func parsed(_ path: String) -> (symbols: NoteSymbols, tree: SyntaxTree) {
            let tree = MarkdownParser.parse(texts[path] ?? "", options: .notebook)
            return (NoteSymbols.extract(from: tree, path: path), tree)
        }
        func fresh() -> Notebook {
            var notebook = Notebook()
            for path in texts.keys.sorted() { notebook.update(parsed(path).symbols) }
            notebook.addAsset("plot.png")
            return notebook
        }
        func tokens(in notebook: Notebook) -> [String: [SemanticToken]] {
            Dictionary(uniqueKeysWithValues: texts.keys.map { path in
                let note = parsed(path)
                return (path, SemanticToken.tokens(of: note.symbols, tree: note.tree, in: notebook, checksLinks: true) { notebook.assets.contains($0) })
            })
        }
        var generator = SeededGenerator(state: 20261207)
        var notebook = fresh()
        for step in 0..<300 {
            let path = names[generator.next(names.count)]
            let before = tokens(in: notebook)
            let affected: Set<String>
            if generator.next(8) == 0 {
                texts[path] = nil
                affected = notebook.remove(path: path)?.affected ?? []
            } else {
                texts[path] = Self.edited(texts[path] ?? "", with: snippets, &generator)
                affected = notebook.update(parsed(path).symbols).affected
            }
            let after = tokens(in: notebook)
            XCTAssertEqual(after, tokens(in: fresh()), "step \(step): tokens from the incremental index differ after editing \(path)")
            for (other, found) in after where other != path && before[other] != found {
                XCTAssertTrue(affected.contains(other), "step \(step): editing \(path) changed \(other)'s tokens but did not name it")
            }
        }
    }

    /// The tokens the server answers, with where links led kept across snapshots while the
    /// notebook's link targets stay (`ResolvedLinksCache`), equal tokens computed afresh in a
    /// notebook built from scratch of the versions filed (the asking note's own text wins, as
    /// its view files it), through random edits of open notes (some filed before the tokens
    /// are asked for, some not: a request may come first), notes opened and closed (gone from
    /// the notebook), and files that come and go.
    func testKeptResolutionsGiveTheTokensOfAFreshComputationAfterRandomEdits() {
        let snippets = [
            "[[soil]]", "[[Soil Tests]]", "[[garden/soil#Tests]]", "[[beds#^b1]]", "[[Missing]]", "[[dup]]", "![[plot.png]]",
            "[s](garden/soil.md)", "[s](../soil.md#tests)", "[x](beds.md#nowhere)", "# Tests", "## Beds", "### Tests", "Text ^b1",
            "---\ntitle: Soil Tests\naliases: [dirt]\n---", "[[dirt]]", "[[Beds]]", "[[#Tests]]", "[[#Beds#Tests]]",
            "[[new#Tests]]", "[n](new.md#beds)", "<a id=\"tests\"></a>", "plain words", "[[index]]",
        ]
        let names = ["index.md", "garden/soil.md", "beds.md", "a/dup.md", "b/dup.md", "new.md", "soil.md", "x/dirt.md"]
        var texts: [String: String] = [
            "index.md": "# Home\n\n[[soil]] [[beds]] [[new#Tests]] [[#Tests]]\n", "garden/soil.md": "# Soil\n\n## Tests\n\nText ^b1\n",
            "beds.md": "# Beds\n\n[[garden/soil#Tests]] [n](new.md#beds)\n", "a/dup.md": "# Dup A\n", "b/dup.md": "# Dup B\n",
        ]
        let folder = IDECheck.folder
        var host = AnalysisHost()
        host.addFolder(folder)
        host.updateFolder(folder) { $0.scan = .done }
        var versions: [String: Int] = [:]
        /// The texts the notebook holds.
        var filed: [String: String] = [:]
        func file(_ path: String) {
            if let version = versions[path], let (_, analysis) = host.needsFiling(path, version: version) {
                host.bringUpToDate(path, version: version, symbols: analysis.symbols(path: path))
                filed[path] = texts[path]
            }
        }
        func open(_ path: String) {
            versions[path] = 1
            host.open(OpenDocument(id: path, file: folder + "/" + path, languageID: "markdown", version: 1, text: Array((texts[path] ?? "").utf8)))
            file(path)
        }
        for path in texts.keys.sorted() { open(path) }
        var assets: Set<String> = []
        var generator = SeededGenerator(state: 20261208)
        for step in 0..<400 {
            let path = names[generator.next(names.count)]
            switch generator.next(10) {
            case 0 where texts[path] != nil:
                // Closed, and not on disk: gone from the notebook.
                texts[path] = nil
                filed[path] = nil
                versions[path] = nil
                _ = host.close(path)
                host.updateFolder(folder) { _ = $0.apply([FileUpdate(path: path, change: .noteRemoved)]) }
            case 1:
                let asset = ["plot.png", "img/plot.png"][generator.next(2)]
                let present = assets.contains(asset)
                if present { assets.remove(asset) } else { assets.insert(asset) }
                host.updateFolder(folder) { _ = $0.apply([FileUpdate(path: asset, change: present ? .assetRemoved : .assetAdded)]) }
            default:
                guard texts[path] != nil else {
                    texts[path] = snippets[generator.next(snippets.count)]
                    open(path)
                    break
                }
                texts[path] = Self.edited(texts[path] ?? "", with: snippets, &generator)
                let version = (versions[path] ?? 1) + 1
                versions[path] = version
                _ = host.change(path, version: version, text: Array((texts[path] ?? "").utf8))
                // Most versions are filed before their tokens are asked for; some are not.
                if generator.next(4) != 0 { file(path) }
            }
            let snapshot = host.snapshot()
            for notePath in texts.keys.sorted() {
                guard let document = snapshot.documents[notePath] else { return XCTFail("step \(step): \(notePath) is not open") }
                var scratch = Notebook()
                var held = filed
                held[notePath] = texts[notePath]
                for (heldPath, text) in held.sorted(by: { $0.key < $1.key }) {
                    scratch.update(NoteSymbols.extract(from: MarkdownParser.parse(text, options: .notebook), path: heldPath))
                }
                for asset in assets.sorted() { scratch.addAsset(asset) }
                let view = snapshot.view(of: document)
                let fresh = SemanticToken.tokens(of: view.symbols, tree: view.analysis.tree, in: scratch, checksLinks: true) { scratch.assets.contains($0) }
                XCTAssertEqual(view.semanticTokens(), fresh, "step \(step): \(notePath)'s tokens after editing \(path)")
                if view.semanticTokens() != fresh { return }
            }
        }
    }
}
