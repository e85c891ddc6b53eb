import Localization
import XCTest
@testable import NotebookIDE

/// Hovers, completion details and the outline in the writer's language: MacMD's own words come
/// from the catalog (counts through plural variations), names and paths stay as written.
final class NavigationLocalizedTests: XCTestCase {
    /// Per language: a tag's hover (used 3 times in 2 notes; once in 1 note), an ambiguous link's
    /// hover, a missing file's hover, and the outline's name of the front matter.
    let hovers: [(locale: SupportedLocale, many: String, once: String, ambiguous: String, missing: String, frontMatter: String)] = [
        (.en, "`#garden` — used 3 times in 2 notes", "`#x` — used once in 1 note",
         "Ambiguous link: it matches 2 notes\n- `a/x.md`\n- `b/x.md`", "Broken link: no file `a.pdf`", "front matter"),
        (.de, "`#garden` — 3-mal in 2 Notizen verwendet", "`#x` — einmal in 1 Notiz verwendet",
         "Mehrdeutiger Link: passt auf 2 Notizen\n- `a/x.md`\n- `b/x.md`", "Defekter Link: keine Datei `a.pdf`", "Front Matter"),
        (.ja, "`#garden` — 2 件のノートで 3 回使われています", "`#x` — 1 件のノートで 1 回使われています",
         "あいまいなリンク: 一致するノートが 2 件あります\n- `a/x.md`\n- `b/x.md`", "リンク切れ: ファイル `a.pdf` がありません", "フロントマター"),
    ]

    func testHoversAndOutlineNamesAreInTheWritersLanguage() {
        for row in hovers {
            let locale = row.locale
            XCTAssertEqual(HoverText.tag("garden", uses: 3, notes: 2).string(in: locale), row.many, "\(locale)")
            XCTAssertEqual(HoverText.tag("x", uses: 1, notes: 1).string(in: locale), row.once, "\(locale)")
            XCTAssertEqual(HoverText.unresolved(.ambiguous(["a/x.md", "b/x.md"]))?.string(in: locale), row.ambiguous, "\(locale)")
            XCTAssertEqual(HoverText.file("a.pdf", exists: false).string(in: locale), row.missing, "\(locale)")
            XCTAssertEqual(DocumentOutline.frontMatterName.string(in: locale), row.frontMatter, "\(locale)")
        }
    }

    /// Per language: the details of the tags `garden` (5 uses) and `journal` (1 use), the
    /// documentation of `garden`, and of the folder `garden/` (1 note, 1 folder, 1 image).
    let completions: [(locale: SupportedLocale, details: [String], tag: String, folder: String)] = [
        (.en, ["5 uses", "1 use"], "`#garden` — used 5 times in the notebook", "Folder `garden/`: 1 note, 1 folder, 1 image"),
        (.de, ["5 Verwendungen", "1 Verwendung"], "`#garden` — 5-mal im Notizbuch verwendet",
         "Ordner `garden/`: 1 Notiz, 1 Ordner, 1 Bild"),
        (.ja, ["5 回使用", "1 回使用"], "`#garden` — ノートブックで 5 回使われています",
         "フォルダー `garden/`: 1 件のノート、1 個のフォルダー、1 枚の画像"),
    ]

    func testCompletionDetailsAndDocumentationAreInTheWritersLanguage() {
        for row in completions {
            let tags = CompletionFixture.complete("Text #$0", locale: row.locale).list.items
            let details = ["garden", "journal"].map { label in tags.first { $0.label == label }?.detail ?? "<no \(label)>" }
            XCTAssertEqual(details, row.details, "\(row.locale)")
            XCTAssertEqual(tags.first { $0.label == "garden" }?.documentation, row.tag, "\(row.locale)")
            let paths = CompletionFixture.complete("[x](gar$0", locale: row.locale).list.items
            XCTAssertEqual(paths.first { $0.label == "garden/" }?.documentation, row.folder, "\(row.locale)")
        }
    }
}
