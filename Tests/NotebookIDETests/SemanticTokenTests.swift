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
                var lines = (texts[path] ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if generator.next(3) == 0, !lines.isEmpty {
                    lines.remove(at: generator.next(lines.count))
                } else {
                    lines.insert(snippets[generator.next(snippets.count)], at: generator.next(lines.count + 1))
                }
                texts[path] = lines.joined(separator: "\n")
                affected = notebook.update(parsed(path).symbols).affected
            }
            let after = tokens(in: notebook)
            XCTAssertEqual(after, tokens(in: fresh()), "step \(step): tokens from the incremental index differ after editing \(path)")
            for (other, found) in after where other != path && before[other] != found {
                XCTAssertTrue(affected.contains(other), "step \(step): editing \(path) changed \(other)'s tokens but did not name it")
            }
        }
    }
}
