// Tags in any script: which `#` starts a tag, where the tag ends, and how the notebook counts them.

import MarkdownSyntax
import NotebookIndex
import XCTest

final class UnicodeTagTests: XCTestCase {
    static func tags(_ text: String) -> [String] {
        NoteSymbols.extract(from: MarkdownParser.parse(text, options: .notebook), path: "n.md").tags.map(\.name)
    }

    func testTagsInEveryScript() {
        let cases: [(text: String, tags: [String], why: String)] = [
            ("#日本語 text", ["日本語"], "kanji and kana"),
            ("#café au lait", ["café"], "precomposed é"),
            ("#cafe\u{0301} au lait", ["cafe\u{0301}"], "a combining accent (Mn) belongs to the tag"),
            ("#Привет/мир!", ["Привет/мир"], "nested, Cyrillic; the ! ends it"),
            ("#عربي و #العَرَبِيَّة", ["عربي", "العَرَبِيَّة"], "Arabic, with harakat"),
            ("#عـــربي", ["عـــربي"], "the tatweel (Lm)"),
            ("#한국어, #ㅋㅋ", ["한국어", "ㅋㅋ"], "Hangul syllables and jamo; the comma ends it"),
            ("#हिन्दी text", ["हिन्दी"], "Devanagari with virama and vowel signs (Mn, Mc)"),
            ("#Ελληνικά", ["Ελληνικά"], "Greek"),
            ("#שלום", ["שלום"], "Hebrew"),
            ("#2024年", ["2024年"], "digits then a letter"),
            ("#١٢٣أ", ["١٢٣أ"], "Arabic-Indic digits then a letter"),
            ("「#日本語」と", ["日本語"], "after and before full-width brackets"),
            ("前\u{3000}#日本語。", ["日本語"], "after the ideographic space, before 。"),
            ("«#français»", ["français"], "between guillemets"),
            ("\u{200F}#עברית\u{200F}", ["עברית"], "between right-to-left marks (Cf, not part of the tag)"),
            ("#日本語😀", ["日本語"], "an emoji ends the tag"),
            // Not tags: inside a word of any script, or digits alone in any script.
            ("日本#語", [], "after a CJK letter: inside a word"),
            ("كلمة#وسم", [], "after an Arabic letter"),
            ("слово#тег", [], "after a Cyrillic letter"),
            ("é#tag", [], "after an accented letter"),
            ("#123 and #2024", [], "ASCII digits only"),
            ("#١٢٣ and #۱۲۳", [], "Arabic-Indic and Persian digits only"),
            ("#１２３", [], "full-width digits only"),
            ("#😀", [], "an emoji is not a tag's letter"),
        ]
        for c in cases {
            XCTAssertEqual(UnicodeTagTests.tags(c.text), c.tags, "\(c.text.debugDescription): \(c.why)")
        }
    }

    func testTheNotebookCountsTagsOfEveryScript() {
        var notebook = Notebook()
        notebook.update(NoteSymbols.extract(from: MarkdownParser.parse("---\ntags: [日本語, café]\n---\n#Привет/мир #عربي\n"), path: "a.md"))
        notebook.update(NoteSymbols.extract(from: MarkdownParser.parse("#日本語 #한국어 #Привет\n"), path: "b.md"))
        // Uses of each tag as written; `uses(ofTag:)` counts nested tags under their parents.
        XCTAssertEqual(notebook.tagCounts, ["日本語": 2, "café": 1, "Привет": 1, "Привет/мир": 1, "عربي": 1, "한국어": 1])
        XCTAssertEqual(notebook.uses(ofTag: "Привет"), ["a.md": 1, "b.md": 1])
        XCTAssertEqual(notebook.uses(ofTag: "日本語"), ["a.md": 1, "b.md": 1])
    }
}
