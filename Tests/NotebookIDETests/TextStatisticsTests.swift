import MarkdownSyntax
import TestSupport
import XCTest
import NotebookIDE

/// Writing statistics as data: a note, and what a writer would count in it by hand, as
/// `words W, characters C (N without spaces), paragraphs P, reading S s` (`MACMD_BLESS=1`
/// rewrites the expected text in place). `$0…$0` marks a selection to count alone.
final class TextStatisticsTests: XCTestCase {
    static func shown(_ text: String, options: TextStatistics.Options = .init()) -> String {
        var text = text
        var range: Range<Int>?
        if let first = text.range(of: "$0") {
            let start = text.utf8.distance(from: text.startIndex, to: first.lowerBound)
            text.removeSubrange(first)
            if let second = text.range(of: "$0") {
                let end = text.utf8.distance(from: text.startIndex, to: second.lowerBound)
                text.removeSubrange(second)
                range = start..<end
            }
        }
        let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
        let counted = TextStatistics(tree: tree, range: range, options: options)
        return "words \(counted.words), characters \(counted.characters) (\(counted.charactersWithoutSpaces) without spaces), "
            + "paragraphs \(counted.paragraphs), reading \(counted.readingSeconds) s"
    }

    func check(_ text: String, _ expected: String, options: TextStatistics.Options = .init(), file: StaticString = #filePath, line: UInt = #line) {
        Expect.equal(TextStatisticsTests.shown(text, options: options), expected, fixture: text, file: file, line: line)
    }

    /// English: markup is not text; contractions, decimals and thousands are one word each, a
    /// hyphenated word two; a link counts its label, never its destination.
    func testEnglish() {
        check("""
            ---
            title: Compost
            ---
            # The compost bay

            Don't turn the **heap** before it's 3.14 weeks old: 1,000 worms, a well-known fact.
            See [the guide](https://example.com/a-very-long-url) and [[beds|the beds]].
            """, "words 24, characters 122 (101 without spaces), paragraphs 2, reading 7 s")
    }

    /// German: umlauts and ß are letters; a compound is one word.
    func testGerman() {
        check("""
            # Der Komposthaufen

            Im Frühling wird der Haufen umgesetzt. Größere Äste gehören nicht hinein!
            """, "words 13, characters 90 (79 without spaces), paragraphs 2, reading 4 s")
    }

    /// Japanese: each kanji and kana is a word, as word processors count them; Latin words
    /// among them count as words.
    func testJapanese() {
        check("""
            # 土壌検査

            春に土を調べます。pHは6.5です。
            """, "words 17, characters 22 (22 without spaces), paragraphs 2, reading 3 s")
    }

    /// Chinese: each character a word; full-width punctuation is not.
    func testChinese() {
        check("""
            我喜欢机器学习，也喜欢园艺。
            """, "words 12, characters 14 (14 without spaces), paragraphs 1, reading 2 s")
    }

    /// Arabic: words between spaces, the vowel marks part of their letters.
    func testArabic() {
        check("""
            # التربة

            نَزرعُ الطماطم في الربيع، ونسقيها كل يومين.
            """, "words 8, characters 47 (41 without spaces), paragraphs 2, reading 3 s")
    }

    /// Code and maths count unless left out; bare URLs count unless left out; front matter only
    /// when asked.
    func testOptionsLeaveOutCodeURLsAndFrontMatter() {
        check("""
            ---
            title: Notes
            ---
            Run `make all` and see https://example.com today, $x + y$ too.

            ```
            let a = 1
            ```
            """, "words 14, characters 67 (54 without spaces), paragraphs 2, reading 4 s")
        check("""
            Run `make all` and see https://example.com today, $x + y$ too.

            ```
            let a = 1
            ```
            """, "words 5, characters 26 (19 without spaces), paragraphs 1, reading 2 s", options: .init(code: false, urls: false))
        check("""
            ---
            title: Notes
            ---
            Run today.
            """, "words 4, characters 22 (20 without spaces), paragraphs 1, reading 2 s", options: .init(frontMatter: true))
    }

    /// A selection counts what it covers, a text cut at its ends.
    func testASelection() {
        check("""
            # Title

            One two $0three four five$0 six.

            Seven eight.
            """, "words 3, characters 15 (13 without spaces), paragraphs 1, reading 1 s")
    }
}
