import XCTest
@testable import NotebookIDE

/// How workspace symbols rank for a typed query.
final class NavigationFuzzyTests: XCTestCase {
    private func ranked(_ query: String, _ candidates: [String], limit: Int = 100) -> [String] {
        FuzzyMatcher(query: query).rank(candidates, limit: limit).map { candidates[$0.index] }
    }

    func testRankingPrefersExactThenPrefixThenWordStartsThenScatteredLetters() {
        let cases: [(query: String, candidates: [String], expected: [String])] = [
            ("ws", ["news", "Workspace Symbols", "ws", "wsx", "nothing"],
             ["ws", "wsx", "Workspace Symbols", "news"]),
            ("st", ["first", "Soil tests", "Stand"],
             ["Stand", "Soil tests", "first"]),
            ("gb", ["gabby", "getBar"],
             ["getBar", "gabby"]),
            ("soil test", ["Tests of soil", "soiltest", "Soil tests"],
             ["soiltest", "Soil tests"]),
            ("2024", ["Journal 2024-05-01", "Plan for 2023 and 2024", "x"],
             ["Journal 2024-05-01", "Plan for 2023 and 2024"]),
        ]
        for (query, candidates, expected) in cases {
            XCTAssertEqual(ranked(query, candidates), expected, query)
        }
    }

    func testMatchingIgnoresCaseBeyondASCII() {
        let matcher = FuzzyMatcher(query: "éco")
        XCTAssertNotNil(matcher.score("École d'été"))
        XCTAssertNotNil(matcher.score("ÉCOLE"))
        XCTAssertNil(matcher.score("ecole"), "é and e are different letters")
        XCTAssertNotNil(FuzzyMatcher(query: "STRASSE").score("strasse"))
        XCTAssertNotNil(FuzzyMatcher(query: "Straße").score("STRAßE"))
        XCTAssertNotNil(FuzzyMatcher(query: "κόσμε").score("Καλημέρα ΚΌΣΜΕ"))
        XCTAssertNotNil(FuzzyMatcher(query: "k").score("\u{212A}elvin"), "the Kelvin sign lowercases to k")
        XCTAssertNil(FuzzyMatcher(query: "xyz").score("Soil tests"))
        XCTAssertNil(FuzzyMatcher(query: "tset").score("test"), "order matters")
    }

    func testInvalidUTF8AndEmptyInputsNeverTrap() {
        let broken = String(decoding: [0x61, 0xFF, 0xC3, 0x62, 0xE2, 0x82], as: UTF8.self)
        XCTAssertNotNil(FuzzyMatcher(query: "ab").score(broken))
        XCTAssertNil(FuzzyMatcher(query: "a").score(""))
        XCTAssertEqual(FuzzyMatcher(query: "   ").score("anything"), 0)
        XCTAssertEqual(FuzzyMatcher(query: "a").rank(["a"], limit: 0), [])
    }

    func testTiesKeepInputOrderAndOnlyTheTopKAreReturned() {
        let candidates = (0..<1000).map { "note \($0 % 10)" }
        let top = FuzzyMatcher(query: "note").rank(candidates, limit: 3)
        XCTAssertEqual(top.map(\.index), [0, 1, 2], "equal scores keep the order they came in")
        let exact = FuzzyMatcher(query: "note 7").rank(candidates, limit: 2)
        XCTAssertEqual(exact.map(\.index), [7, 17])
        let everything = FuzzyMatcher(query: "").rank(["b", "a"], limit: 10)
        XCTAssertEqual(everything, [FuzzyMatcher.Match(index: 0, score: 0), FuzzyMatcher.Match(index: 1, score: 0)])
    }

    func testRankByKeyOverAnySequence() {
        struct Symbol { var name: String; var path: String }
        let symbols = [Symbol(name: "Compost", path: "a.md"), Symbol(name: "Soil tests", path: "b.md")]
        let top = FuzzyMatcher(query: "sot").rank(symbols, limit: 5) { $0.name }
        XCTAssertEqual(top.map { symbols[$0.index].path }, ["b.md"])
    }

    func testPreparedCandidatesRankLikeTheTextsForEveryQuery() {
        let texts = ["Soil tests", "Compost", "getBar", "École d'été", "news", "Workspace Symbols", ""]
        var prepared = FuzzyCandidates(texts.dropLast())
        prepared.append(texts[texts.count - 1])
        XCTAssertEqual(prepared.count, texts.count)
        for query in ["s", "st", "co", "été", "ws", "zz", ""] {
            let matcher = FuzzyMatcher(query: query)
            XCTAssertEqual(matcher.rank(prepared, limit: 10), matcher.rank(texts, limit: 10), query)
            for (index, text) in texts.enumerated() {
                let fromRank = matcher.rank(texts, limit: 10).first { $0.index == index }?.score
                XCTAssertEqual(matcher.score(text), fromRank, "\(query) in \(text)")
            }
        }
    }
}
