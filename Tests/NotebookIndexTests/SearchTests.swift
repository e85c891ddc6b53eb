import XCTest
import MarkdownSyntax
@testable import NotebookIndex
import TestSupport
import TextCore

/// Full-text search from the index's side, as data: a notebook as a fixture, queries, and the
/// notes each finds, best first, one query a line (`query -> note, note`). `MACMD_BLESS=1`
/// rewrites the expected text in place.
final class SearchTests: XCTestCase {
    /// The notes each of `queries` finds in `fixture`, best first.
    static func shown(_ queries: [String], _ fixture: Fixture) -> String {
        let notebook = MentionTests.notebook(fixture)
        return queries.map { query in
            let found = notebook.search(SearchQuery(query), limit: 10).map(\.path)
            return "\(query) -> \(found.isEmpty ? "(none)" : found.joined(separator: ", "))"
        }.joined(separator: "\n")
    }

    func check(_ queries: [String], _ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        Expect.equal(SearchTests.shown(queries, Fixture(fixture, file: file, line: line)), expected, fixture: fixture, file: file, line: line)
    }

    func testCaseAndAccentsFold() {
        check(["cafe", "CAFÉ", "Straße", "strasse", "naïve", "ἀθῆναι", "αθηναι"], """
            //- /a.md
            Meet at the Café.
            //- /b.md
            Die Strasse ist lang; a naive plan.
            //- /c.md
            Αθήναι and Ἀθῆναι, the same city. A decomposed cafe\u{301} too.
            """, "cafe -> a.md, c.md\nCAFÉ -> a.md, c.md\nStraße -> b.md\nstrasse -> b.md\nnaïve -> b.md\nἀθῆναι -> c.md\nαθηναι -> c.md")
    }

    func testTagsAndWikiLinksAreReadAsTheirText() {
        check(["cafe", "heirloom", "catalogue", "\"seed catalogue\"", "shed"], """
            //- /a.md
            Grounds from the #café, and #tomato/heirloom seeds.
            //- /b.md
            See the [[Seed Catalogue]] and [[plans|the shed]].
            """, "cafe -> a.md\nheirloom -> a.md\ncatalogue -> b.md\n\"seed catalogue\" -> b.md\nshed -> b.md")
    }

    func testChineseAndJapaneseByBigrams() {
        check(["本語", "日本語", "日本", "語", "東京", "中文", "京"], """
            //- /ja.md
            日本語を勉強します。
            //- /zh.md
            我在東京學中文。
            //- /lone.md
            一 語 京
            """, "本語 -> ja.md\n日本語 -> ja.md\n日本 -> ja.md\n語 -> lone.md\n東京 -> zh.md\n中文 -> zh.md\n京 -> lone.md")
    }

    func testEveryWordIsRequiredAndPhrasesKeepTheirOrder() {
        check(["soil tests", "\"soil tests\"", "\"tests soil\"", "soil -", "\"unclosed soil"], """
            //- /a.md
            The soil tests came back.
            //- /b.md
            Tests of the soil.
            //- /c.md
            Soil only.
            """, "soil tests -> b.md, a.md\n\"soil tests\" -> a.md\n\"tests soil\" -> (none)\nsoil - -> c.md, b.md, a.md\n\"unclosed soil -> (none)")
    }

    func testFiltersByTagPathAndTitle() {
        check(["tag:garden", "#garden/beds", "tag:GARDEN soil", "path:notes", "path:notes/deep soil", "title:soil",
               "title:\"soil tests\"", "path:nowhere", "tag:garde"], """
            //- /notes/a.md
            # Soil Tests

            #garden soil
            //- /notes/deep/b.md
            ---
            tags: [garden/beds]
            ---
            Soil in the beds.
            //- /c.md
            # Compost

            Soil #Garden
            """, "tag:garden -> c.md, notes/a.md, notes/deep/b.md\n#garden/beds -> notes/deep/b.md\ntag:GARDEN soil -> notes/a.md, c.md, notes/deep/b.md\npath:notes -> notes/a.md, notes/deep/b.md\npath:notes/deep soil -> notes/deep/b.md\ntitle:soil -> notes/a.md\ntitle:\"soil tests\" -> notes/a.md\npath:nowhere -> (none)\ntag:garde -> (none)")
    }

    func testTitlesAndHeadingsRankAboveProseAndProseAboveCode() {
        check(["compost", "mulch"], """
            //- /code.md
            # Notes

            Some words here to make the note about as long as the others.

            ```
            compost = 1
            ```
            //- /prose.md
            # Notes

            We spread compost on the beds, as long as the others.
            //- /title.md
            # Compost

            A note about it, with words to make it as long as the others.
            //- /heading.md
            # Notes

            ## Compost

            Words here make the note about as long as the others.
            //- /front.md
            ---
            mulch: compost
            ---
            # Notes

            Words here to make the note about as long as the others.
            //- /mulch.md
            # Notes

            Mulch mulch mulch, in prose, as long as the others.
            //- /mulch-once.md
            # Notes

            Mulch once, in prose, the note as long as the others.
            """, "compost -> title.md, heading.md, prose.md, front.md, code.md\nmulch -> mulch.md, mulch-once.md, front.md")
    }

    func testMatchesInTextFindWordsPairsAndPhrases() {
        let query = SearchQuery("café \"soil tests\" 本語")
        let text = Array("Cafe: the SOIL  tests; 日本語 and soil.".utf8)
        let matches = query.matches(in: text)
        let shown = matches.spans.map { String(decoding: text[$0.range], as: UTF8.self) }
        XCTAssertEqual(shown, ["Cafe", "SOIL", "tests", "本語", "soil"])
        XCTAssertEqual(matches.phrases.map { $0.map { String(decoding: text[$0.range], as: UTF8.self) } }, ["SOIL  tests"])
        XCTAssertFalse(SearchQuery("\"tests soil\"").matches(in: text).hasEveryPhrase)
    }

    /// The fast phrase check, and the notes' pair filters, never disagree with the phrase
    /// matching of `matches(in:)` (on texts that repeat words, so phrases overlap themselves).
    func testThePhraseCheckAndThePairFilterAgreeWithTheMatches() {
        var generator = SeededGenerator(state: 34)
        let words = ["soil", "Soil", "tests", "café", "cafe", "日本", "語", "-", "`x`", "\n", "soil-tests"]
        for _ in 0..<400 {
            let text = (0..<generator.next(12)).map { _ in words[generator.next(words.count)] }.joined(separator: " ")
            let phrase = (0..<(2 + generator.next(3))).map { _ in ["soil", "tests", "cafe", "日本語"][generator.next(4)] }.joined(separator: " ")
            let query = SearchQuery("\"" + phrase + "\"")
            let bytes = Array(text.utf8)
            let expected = query.matches(in: bytes).hasEveryPhrase
            XCTAssertEqual(query.holdsEveryPhrase(bytes), expected, "\(phrase) in \(text)")
            let terms = SearchTerms(tree: MarkdownParser.parse(bytes, options: .notebook), title: "")
            if expected { XCTAssertTrue(terms.mayHoldPairs(query.phrasePairBits), "the filter of \(text) lets \(phrase) through") }
        }
    }

    func testQueriesParse() {
        let query = SearchQuery("  soil \"two words\" tag:#Garden path:/notes/ title:\"Soil Tests\" #x")
        XCTAssertEqual(query.words, ["soil"])
        XCTAssertEqual(query.phrases, ["two words"])
        XCTAssertEqual(query.tags, ["garden", "x"])
        XCTAssertEqual(query.paths, ["notes"])
        XCTAssertEqual(query.titleWords, ["Soil Tests"])
        XCTAssertEqual(query.terms.count, 4)
        XCTAssertTrue(SearchQuery("  ").isEmpty)
        XCTAssertTrue(SearchQuery("tag:").words == ["tag:"])
    }
}
