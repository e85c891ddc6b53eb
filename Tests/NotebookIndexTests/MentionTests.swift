import XCTest
import MarkdownSyntax
@testable import NotebookIndex
import TestSupport
import TextCore

/// Unlinked mentions, as data: a notebook as a fixture, and every mention of every note, one a
/// line, `note: «text as written» -> the notes it names`. `MACMD_BLESS=1` rewrites the expected
/// text in place.
final class MentionTests: XCTestCase {
    static func notebook(_ fixture: Fixture) -> Notebook {
        var notebook = Notebook()
        for file in fixture.files { notebook.update(NotebookTests.symbols(file.path, file.text)) }
        return notebook
    }

    /// Every mention in every note of `fixture`, in path order.
    static func shown(_ fixture: Fixture) -> String {
        let notebook = notebook(fixture)
        var lines: [String] = []
        for path in fixture.paths.sorted() {
            let bytes = Array(fixture.text(path).utf8)
            let tree = MarkdownParser.parse(bytes, options: .notebook)
            for mention in notebook.mentions(in: tree, path: path) {
                let written = String(decoding: bytes[mention.range.range], as: UTF8.self)
                lines.append("\(path): «\(written)» -> \(mention.targets.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    func check(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        Expect.equal(MentionTests.shown(Fixture(fixture, file: file, line: line)), expected, fixture: fixture, file: file, line: line)
    }

    func testTitlesAliasesAndFileNamesAreNamedAsWholeWordsIgnoringCase() {
        check("""
            //- /Machine Learning.md
            # Machine Learning

            Statistics, learnt from data.
            //- /stats.md
            ---
            title: Statistics
            aliases: [stats, Applied Maths]
            ---
            Statistics is the core of MACHINE LEARNING.
            //- /journal.md
            Today: machine learning, machine-learning, Machine  learning, machine
            learning, machinelearning, statistical, STATS, applied maths.
            """, """
            Machine Learning.md: «Statistics» -> stats.md
            journal.md: «machine learning» -> Machine Learning.md
            journal.md: «Machine  learning» -> Machine Learning.md
            journal.md: «STATS» -> stats.md
            journal.md: «applied maths» -> stats.md
            stats.md: «MACHINE LEARNING» -> Machine Learning.md
            """)
    }

    /// Names in seven scripts: German (ß folds to ss), Greek (final sigma), Russian, Turkish
    /// (dotted capital I), Arabic (whole words), and Chinese, Japanese and Thai (substrings).
    func testNamesInSevenScripts() {
        check("""
            //- /de/Straßenbahn.md
            # Straßenbahn
            //- /el/Σωκράτης.md
            # Σωκράτης
            //- /ru/Москва.md
            # Москва
            //- /tr/İstanbul.md
            # İstanbul
            //- /ar/القاهرة.md
            # القاهرة
            //- /zh/机器学习.md
            # 机器学习
            //- /ja/東京タワー.md
            # 東京タワー
            //- /th/ภาษาไทย.md
            # ภาษาไทย
            //- /notes.md
            Die STRASSENBAHN fährt; Straßenbahnen nicht.
            Ο ΣΩΚΡΆΤΗΣ και ο σωκράτης.
            Я люблю МОСКВА, не Подмосква.
            ISTANBUL, istanbul, Istanbullu.
            زرت القاهرة وبالقاهرة.
            我喜欢机器学习和深度学习。
            昨日東京タワーに行った。
            ฉันเรียนภาษาไทยทุกวัน
            """, """
            notes.md: «STRASSENBAHN» -> de/Straßenbahn.md
            notes.md: «ΣΩΚΡΆΤΗΣ» -> el/Σωκράτης.md
            notes.md: «σωκράτης» -> el/Σωκράτης.md
            notes.md: «МОСКВА» -> ru/Москва.md
            notes.md: «ISTANBUL» -> tr/İstanbul.md
            notes.md: «istanbul» -> tr/İstanbul.md
            notes.md: «القاهرة» -> ar/القاهرة.md
            notes.md: «机器学习» -> zh/机器学习.md
            notes.md: «東京タワー» -> ja/東京タワー.md
            notes.md: «ภาษาไทย» -> th/ภาษาไทย.md
            """)
    }

    /// Where names overlap the longest wins, whoever has it (in "Deep learning theory",
    /// "learning theory" is longer than "Deep learning"); names that follow one another are both
    /// found; a name of one letter is never matched.
    func testTheLongestNameWinsWhereNamesOverlap() {
        check("""
            //- /n1.md
            # Learning
            //- /n2.md
            # Deep Learning
            //- /n3.md
            # Learning Theory
            //- /n4.md
            # Machine Learning Theory
            //- /n5.md
            # C
            //- /n6.md
            # Go
            //- /text.md
            Deep learning theory, learning theory, deep learning, learning, and machine learning theory.
            Deep learning learning theory. C and Go.
            """, """
            text.md: «learning theory» -> n3.md
            text.md: «learning theory» -> n3.md
            text.md: «deep learning» -> n2.md
            text.md: «learning» -> n1.md
            text.md: «machine learning theory» -> n4.md
            text.md: «Deep learning» -> n2.md
            text.md: «learning theory» -> n3.md
            text.md: «Go» -> n6.md
            """)
    }

    /// Never inside code, maths, links, URLs, HTML, front matter, tags, or the note's own text.
    func testMentionsAreOnlyInProse() {
        check("""
            //- /garden.md
            ---
            title: Garden
            aliases: [Backyard]
            ---
            # Garden

            The garden, my backyard.
            //- /elsewhere.md
            ---
            summary: garden
            ---
            # Elsewhere

            ## About the garden

            `garden` and $garden$ and $$garden$$, [the garden](x.md), [[garden]], [[x|garden]],
            https://example.com/garden, www.garden.com, <b>garden</b> <a href="x">garden</a>,
            <code>garden</code>, ![a garden](x.png), #garden, *garden*, **the backyard**.

            ```
            garden
            ```

            <div>
            garden
            </div>

            | Plot | Garden |
            |------|--------|
            | a    | garden |

            > - garden ^id
            """, """
            elsewhere.md: «garden» -> garden.md
            elsewhere.md: «garden» -> garden.md
            elsewhere.md: «garden» -> garden.md
            elsewhere.md: «backyard» -> garden.md
            elsewhere.md: «Garden» -> garden.md
            elsewhere.md: «garden» -> garden.md
            elsewhere.md: «garden» -> garden.md
            """)
    }

    /// A name several notes share names them all; a name the note itself has is no mention
    /// there, though others have it too.
    func testASharedNameNamesEveryNoteHavingIt() {
        check("""
            //- /a/index.md
            # Index
            See the index.
            //- /b/index.md
            # Contents
            //- /c.md
            Back to the INDEX.
            """, """
            c.md: «INDEX» -> a/index.md, b/index.md
            """)
    }

    // MARK: The incremental index

    /// After random edits (titles, aliases, notes coming and going, prose in several scripts),
    /// the notebook kept up to date answers every note's mentions as a fresh build does.
    func testIncrementalMentionsEqualAFreshBuildAfterRandomEdits() {
        var generator = SeededGenerator(state: 20261209)
        let pieces = ["# Soil Tests", "# Compost", "# 机器学习", "---\ntitle: Deep Beds\naliases: [raised beds, Hügel]\n---",
                      "---\naliases: [dirt]\n---", "the soil tests and the compost", "raised beds on a HÜGEL", "dirt, DIRT, dirty",
                      "我喜欢机器学习", "`compost` [[compost]] [compost](compost.md)", "deep beds of soil tests", "beds", "Beds",
                      "plain words", "- compost\n- soil"]
        let paths = ["soil.md", "compost.md", "beds.md", "a/beds.md", "机器学习.md", "notes/journal.md", "dirt.md"]
        var texts: [String: String] = ["soil.md": "# Soil Tests\n", "notes/journal.md": "The compost and the soil tests.\n"]
        var notebook = Notebook()
        for (path, text) in texts { notebook.update(NotebookTests.symbols(path, text)) }
        for step in 0..<300 {
            let path = paths[generator.next(paths.count)]
            switch generator.next(8) {
            case 0:
                notebook.remove(path: path)
                texts[path] = nil
            case 1:
                // A note arriving the way a scan files it.
                let text = pieces[generator.next(pieces.count)] + "\n" + pieces[generator.next(pieces.count)]
                texts[path] = text
                notebook.insert([NotebookTests.symbols(path, text)])
            default:
                var lines = (texts[path] ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if generator.next(3) == 0, !lines.isEmpty {
                    lines.remove(at: generator.next(lines.count))
                } else {
                    lines.insert(pieces[generator.next(pieces.count)], at: generator.next(lines.count + 1))
                }
                texts[path] = lines.joined(separator: "\n")
                notebook.update(NotebookTests.symbols(path, texts[path] ?? ""))
            }
            var order = texts.keys.sorted()
            order.shuffle(using: &generator)
            var fresh = Notebook()
            for other in order { fresh.update(NotebookTests.symbols(other, texts[other] ?? "")) }
            XCTAssertEqual(notebook, fresh, "step \(step)")
            let trees = texts.mapValues { MarkdownParser.parse($0, options: .notebook) }
            for (other, tree) in trees {
                XCTAssertEqual(notebook.mentions(in: tree, path: other), fresh.mentions(in: tree, path: other), "step \(step): in \(other)")
                let text = { (path: String) in texts[path].map { Array($0.utf8) } }
                XCTAssertEqual(notebook.unlinkedMentions(of: other, text: text, tree: { trees[$0] }),
                               fresh.unlinkedMentions(of: other, text: text, tree: { trees[$0] }), "step \(step): of \(other)")
            }
            if notebook != fresh { return }
        }
    }

    // MARK: Finding one note's mentions

    /// The candidates the prose words let through always hold every mention: a note's mentions
    /// found from its candidates equal those found by reading every note.
    func testProseWordsNeverLoseAMention() {
        var generator = SeededGenerator(state: 20261208)
        let words = ["garden", "Soil", "soil tests", "SOIL-TESTS", "beds", "Straße", "strasse", "机器", "学习", "机器学习",
                     "ภาษา", "ไทย", "東京", "タワー", "Москва", "`soil`", "[[beds]]", "$x$", "*soil* tests", "the", "C#", "c",
                     "x.y", "x . y", "\n", "\n\n", "- ", "> "]
        var texts: [String: String] = [:]
        let paths = ["soil tests.md", "beds.md", "a/strasse.md", "b/机器学习.md", "th/ภาษาไทย.md", "東京タワー.md", "x.y.md", "C#.md"]
        for path in paths {
            var text = generator.next(3) == 0 ? "---\naliases: [\(words[generator.next(words.count)])]\n---\n" : ""
            for _ in 0..<40 { text += words[generator.next(words.count)] + (generator.next(4) == 0 ? "" : " ") }
            texts[path] = text
        }
        var notebook = Notebook()
        for (path, text) in texts { notebook.update(NotebookTests.symbols(path, text)) }
        let trees = texts.mapValues { MarkdownParser.parse($0, options: .notebook) }
        var found = 0
        for target in paths {
            let everywhere = paths.sorted().flatMap { source -> [Mention] in
                guard source != target, let tree = trees[source] else { return [] }
                return notebook.mentions(in: tree, path: source).filter { $0.targets.contains(target) }
            }
            let filtered = notebook.unlinkedMentions(of: target, text: { texts[$0].map { Array($0.utf8) } }, tree: { trees[$0] })
            XCTAssertEqual(filtered, everywhere, "mentions of \(target)")
            found += everywhere.count
        }
        XCTAssertGreaterThan(found, 20)
    }

    /// The index reads prose for its words sixteen ASCII bytes at a time, skipping symbols
    /// (`ProseWords`); the matcher reads it token by token. On random text of every kind the
    /// first holds every key the second gives (the same keys for text without letters of the
    /// scripts written without spaces, where a skipped symbol can add a pair).
    func testProseWordsHoldTheKeysOfEveryTokenOfTheProse() {
        var generator = SeededGenerator(state: 20261210)
        let pieces = ["a", "Go", "tomato", "Soil-Tests", "abcdefghijklmnopqrstuvwxyz0123", "x1", "ÉTÉ", "café", "Straße",
                      "Σωκράτης", "москва", "機械学習", "東京タワー", "ภาษาไทย", "e\u{301}", "!", "...", "—", "C#", "[[x]]",
                      "`code`", "*em*", "**strong**", "$x$", "https://example.com/a", " ", "  ", "\n", "\n\n", "。", "😀", "\t"]
        for round in 0..<400 {
            var text = ""
            for _ in 0..<(1 + generator.next(60)) { text += pieces[generator.next(pieces.count)] }
            let tree = MarkdownParser.parse(text, options: .notebook)
            var expected: Set<UInt16> = []
            var hasUnspaced = false
            tree.source.withUnsafeBufferPointer { source in
                ProseText.forEachRun(in: tree) { start, end in
                    var tokens: [MentionToken] = []
                    MentionTokens.tokenize(source, from: start, to: end, into: &tokens)
                    hasUnspaced = hasUnspaced || tokens.contains { $0.kind == .unspaced }
                    ProseWords.forEachKey(tokens[...]) { expected.insert($0) }
                }
            }
            let keys = ProseWords(tree: tree).keys
            XCTAssertEqual(keys, keys.sorted(), "round \(round)")
            XCTAssertTrue(expected.isSubset(of: Set(keys)), "round \(round): \(text.debugDescription)")
            if !hasUnspaced { XCTAssertEqual(Set(keys), expected, "round \(round): \(text.debugDescription)") }
        }
    }

    /// The prose words of a note are those of its prose, not of its code or links: a note that
    /// names the note only in code is no candidate, nor one that has its words apart; one that
    /// has them one after the other but with a comma between is, and holds no mention.
    func testCandidatesAreTheNotesWhoseProseMayHoldAName() {
        let fixture = Fixture("""
            //- /soil-tests.md
            # Soil Tests
            //- /prose.md
            The soil tests came back.
            //- /code.md
            `soil tests` and [soil tests](x.md)
            //- /apart.md
            Soil, tests and more; tests of the soil.
            //- /nothing.md
            Nothing here.
            """)
        let notebook = MentionTests.notebook(fixture)
        XCTAssertEqual(notebook.mentionCandidates(of: "soil-tests.md"), ["apart.md", "prose.md"])
        XCTAssertEqual(notebook.unlinkedMentions(of: "soil-tests.md", text: { Array(fixture.text($0).utf8) },
                                                 tree: { MarkdownParser.parse(fixture.text($0), options: .notebook) }).map(\.source), ["prose.md"])
    }

    /// The matcher follows the names: after a title changes, or a note comes or goes, the
    /// notebook answers with the new names (and a copy taken before keeps the old).
    func testTheMatcherFollowsNameChanges() {
        var notebook = Notebook()
        notebook.update(NotebookTests.symbols("a.md", "# Compost\n"))
        notebook.update(NotebookTests.symbols("b.md", "Compost and mulch.\n"))
        let tree = MarkdownParser.parse("Compost and mulch.\n", options: .notebook)
        XCTAssertEqual(notebook.mentions(in: tree, path: "b.md").map(\.targets), [["a.md"]])
        let before = notebook
        notebook.update(NotebookTests.symbols("a.md", "# Mulch\n"))
        XCTAssertEqual(notebook.mentions(in: tree, path: "b.md").map(\.range), [ByteSpan(12, 17)])
        XCTAssertEqual(before.mentions(in: tree, path: "b.md").map(\.range), [ByteSpan(0, 7)])
        notebook.update(NotebookTests.symbols("compost.md", "Text.\n"))
        XCTAssertEqual(notebook.mentions(in: tree, path: "b.md").map(\.targets), [["compost.md"], ["a.md"]])
        notebook.remove(path: "a.md")
        XCTAssertEqual(notebook.mentions(in: tree, path: "b.md").map(\.targets), [["compost.md"]])
    }
}
