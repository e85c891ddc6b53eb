// Heading slugs in every script, checked against github-slugger (Flet/github-slugger 2.x).
//
// Each expected slug is worked out by hand from github-slugger's algorithm, not from our output:
// `value.toLowerCase()` (JavaScript: full Unicode lowercasing, with the final-sigma rule and
// `İ` → `i̇`, no locale), then every character of its regex removed (general categories Other_Number,
// the punctuation categories other than Connector_Punctuation, Symbol, Control, Private_Use,
// Format, Unassigned and Separator, minus the Alphabetic characters, ` ` and `-`), then each ` `
// turned into `-`. Repeats get `-1`, `-2`, … from `BananaSlug.slug`.

import XCTest
@testable import TextCore

final class UnicodeSlugTests: XCTestCase {
    /// (heading text, github-slugger's slug, why).
    static let scripts: [(text: String, slug: String, note: String)] = [
        // Cyrillic: lowercased, letters kept, punctuation and the em dash (Pd) dropped.
        ("Привет, мир!", "привет-мир", "Cyrillic with Latin punctuation"),
        ("Ёлка и ЁЖ", "ёлка-и-ёж", "Ё lowercases outside the basic Cyrillic block"),
        ("Україна: Київ — столиця", "україна-київ--столиця", "Ukrainian Ї, em dash dropped"),
        // Greek: JavaScript lowercases a capital sigma at the end of a word to ς (Final_Sigma).
        ("Καλημέρα Κόσμε", "καλημέρα-κόσμε", "Greek with tonos"),
        ("ΟΔΟΣ ΚΑΙ ΣΟΦΙΑ", "οδος-και-σοφια", "final sigma at a word's end, σ at its start"),
        ("ΆΝΘΡΩΠΟΣ;", "άνθρωπος", "Ά lowercases; the Greek question mark (Po) is dropped"),
        ("Ο ΦΙΛΟΣ· ΤΟΥ", "ο-φιλος-του", "final sigma before the ano teleia (Po, dropped)"),
        ("ΣΑΣ", "σας", "σ first, ς last"),
        ("Σ", "σ", "a lone sigma is not final: nothing cased precedes it"),
        ("ΑΣ1", "ας1", "a digit is not cased: the sigma before it is final"),
        ("ΑΣ'Α", "ασα", "an apostrophe is case-ignorable: a cased letter follows, so σ"),
        ("ΑΣ\u{0301}", "ας\u{0301}", "a combining accent after the sigma is case-ignorable too"),
        // Chinese, Japanese, Korean: letters kept as they are; their punctuation dropped.
        ("日本語の見出し", "日本語の見出し", "kanji and hiragana"),
        ("カタカナ・ひらがな", "カタカナひらがな", "the katakana middle dot (Po) is dropped"),
        ("東京タワー（とうきょう）", "東京タワーとうきょう", "ー (Lm) kept, full-width parentheses dropped"),
        ("「引用」と、句読点。", "引用と句読点", "corner brackets, 、 and 。 dropped"),
        ("全角　スペース", "全角スペース", "the ideographic space (Zs) is dropped, not turned into -"),
        ("々と〆", "々と〆", "iteration mark (Lm) and 〆 (Lo)"),
        ("你好，世界！", "你好世界", "full-width comma and exclamation mark dropped"),
        ("中文 标题 2024年", "中文-标题-2024年", "simplified Chinese with digits"),
        ("ＡＢＣ全角", "ａｂｃ全角", "full-width Latin capitals lowercase to full-width small letters"),
        ("안녕하세요, 세계!", "안녕하세요-세계", "Hangul syllables"),
        ("한국어 (Hangul) 제목", "한국어-hangul-제목", "Hangul and Latin"),
        ("ㅋㅋ 웃음", "ㅋㅋ-웃음", "compatibility jamo (Lo)"),
        // Arabic and Hebrew: harakat and points (Mn) and the tatweel (Lm) kept; the Arabic comma
        // and question mark (Po), the maqaf (Pd) and the bidi marks (Cf) dropped.
        ("مرحبا بالعالم", "مرحبا-بالعالم", "Arabic words"),
        ("العَرَبِيَّة", "العَرَبِيَّة", "harakat and shadda kept"),
        ("عـــربي", "عـــربي", "tatweel kept"),
        ("سؤال؟ نعم، لا", "سؤال-نعم-لا", "Arabic question mark and comma dropped"),
        ("الفصل ١٢", "الفصل-١٢", "Arabic-Indic digits (Nd) kept"),
        ("\u{200F}مرحبا\u{061C} عالم\u{200E}", "مرحبا-عالم", "RLM, ALM and LRM dropped"),
        ("فارسی نیم\u{200C}فاصله", "فارسی-نیمفاصله", "the zero-width non-joiner (Cf) is dropped"),
        ("שָׁלוֹם עולם", "שָׁלוֹם-עולם", "Hebrew points kept"),
        ("תל־אביב", "תלאביב", "the maqaf (Pd) is dropped"),
        // Accented Latin: lowercased by the Unicode default mapping, no locale.
        ("Café Crème", "café-crème", "precomposed accents"),
        ("Cafe\u{0301}", "cafe\u{0301}", "a combining accent (Mn) kept as it is, not composed"),
        ("Niño Año", "niño-año", "ñ"),
        ("Straße ẞ", "straße-ß", "ß stays, capital ẞ lowercases to ß"),
        ("Øresund Ærø", "øresund-ærø", "Ø and Æ"),
        ("İstanbul", "i\u{0307}stanbul", "İ lowercases to i and a combining dot above (SpecialCasing)"),
        ("ıspanak DIŞ", "ıspanak-diş", "dotless ı stays, I lowercases to i (no Turkish locale)"),
        ("Ĳssel", "ĳssel", "the Dutch ligature"),
        ("Ǆemal ǅ", "ǆemal-ǆ", "upper and title case digraphs"),
        // Emoji are symbols (So, Sk) or format characters (Cf): dropped. What remains of them is
        // kept only where github-slugger's regex keeps it: VS16 (Mn) and the keycap mark (Me).
        ("😀 Smile", "-smile", "an emoji outside the BMP"),
        ("Rocket 🚀 launch", "rocket--launch", "emoji between words leaves both spaces"),
        ("Flag 🇩🇪 Germany", "flag--germany", "a flag is two regional indicators (So)"),
        ("Family 👨\u{200D}👩\u{200D}👧 time", "family--time", "a ZWJ sequence: the joiners (Cf) go too"),
        ("Thumbs 👍🏽 up", "thumbs--up", "a skin tone modifier (Sk)"),
        ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland", "-scotland", "tag characters (Cf)"),
        ("Heart ❤\u{FE0F} love", "heart-\u{FE0F}-love", "VS16 is a Nonspacing_Mark: github-slugger keeps it"),
        ("Keycap 1\u{FE0F}\u{20E3} one", "keycap-1\u{FE0F}\u{20E3}-one", "VS16 and the enclosing keycap (Me) kept"),
        ("🅰 blood", "🅰-blood", "negative squared A is Other_Symbol but Alphabetic: kept"),
        ("𝒳 math", "𝒳-math", "a mathematical letter outside the BMP has no lowercase"),
    ]

    func testSlugsOfEveryScriptMatchGitHubSlugger() {
        for c in UnicodeSlugTests.scripts {
            XCTAssertEqual(Slugger.slug(for: c.text).unicodeScalars.map(\.value), c.slug.unicodeScalars.map(\.value),
                           "\(c.text.debugDescription): \(c.note) (got \(Slugger.slug(for: c.text).debugDescription))")
        }
    }

    /// The byte fast path and the general rule agree on every case (each case goes through
    /// whichever the text allows, and the general rule on its own).
    func testGeneralRuleGivesTheSameSlugs() {
        for c in UnicodeSlugTests.scripts {
            XCTAssertEqual(Slugger.generalSlug(c.text), c.slug, "\(c.text.debugDescription): \(c.note)")
        }
    }

    func testRepeatsInOtherScriptsAreNumbered() {
        let cases: [(texts: [String], slugs: [String])] = [
            (["Привет", "привет", "ПРИВЕТ!"], ["привет", "привет-1", "привет-2"]),
            (["日本", "日本", "日本-1"], ["日本", "日本-1", "日本-1-1"]),
            (["Café", "CAFÉ", "café?"], ["café", "café-1", "café-2"]),
            // Written with a final ς or as capitals, the same word has the same slug.
            (["ΟΔΟΣ", "οδος"], ["οδος", "οδος-1"]),
            (["مرحبا", "مرحبا؟", "\u{200F}مرحبا"], ["مرحبا", "مرحبا-1", "مرحبا-2"]),
            // Headings of emoji alone slug to nothing, then to the numbered empty slug.
            (["😀", "🚀", "🇩🇪"], ["", "-1", "-2"]),
        ]
        for c in cases {
            var slugger = Slugger()
            XCTAssertEqual(c.texts.map { slugger.slug(for: $0) }, c.slugs, "\(c.texts)")
        }
    }
}
