// Heading ids in every script: the renderer writes github-slugger's ids (worked out by hand in
// TextCoreTests/UnicodeSlugTests.swift), the index gives its headings the same slugs, and links
// that use those ids (as GitHub writes them, raw or percent-encoded) reach the heading.

import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import XCTest

final class UnicodeHeadingIDTests: XCTestCase {
    /// (heading line, github-slugger's id), in document order: repeats are numbered.
    static let headings: [(line: String, id: String)] = [
        ("# Привет, мир!", "привет-мир"),
        ("## ΟΔΟΣ ΚΑΙ ΣΟΦΙΑ", "οδος-και-σοφια"),
        ("## 日本語の見出し", "日本語の見出し"),
        ("## 東京タワー（とうきょう）", "東京タワーとうきょう"),
        ("## 안녕하세요, 세계!", "안녕하세요-세계"),
        ("## العَرَبِيَّة عـــربي؟", "العَرَبِيَّة-عـــربي"),
        ("## İstanbul 😀", "i\u{0307}stanbul-"),
        ("## Straße *ẞ* Øre", "straße-ß-øre"),
        ("## Family 👨\u{200D}👩\u{200D}👧 and 🇩🇪", "family--and-"),
        ("## Привет, мир!", "привет-мир-1"),
        ("Setext ΣΑΣ\n---", "setext-σας"),
    ]

    static var document: String { headings.map { $0.line + "\n\nText.\n" }.joined(separator: "\n") }

    func testTheRendererWritesGitHubIds() {
        let html = HTMLRenderer(options: .notebookPreview).renderString(MarkdownParser.parse(UnicodeHeadingIDTests.document))
        let ids = html.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(ids.map { Array($0.unicodeScalars) }, UnicodeHeadingIDTests.headings.map { Array($0.id.unicodeScalars) }, html)
    }

    func testTheIndexGivesHeadingsTheSameSlugs() {
        let symbols = NoteSymbols.extract(from: MarkdownParser.parse(UnicodeHeadingIDTests.document), path: "a.md")
        XCTAssertEqual(symbols.headings.map(\.slug), UnicodeHeadingIDTests.headings.map(\.id))
    }

    /// Links to each heading by its id (raw and percent-encoded as a browser's address bar
    /// shows it) and wiki-links by its text all reach it.
    func testLinksByIdOrTextReachTheHeading() {
        var notebook = Notebook()
        notebook.update(NoteSymbols.extract(from: MarkdownParser.parse(UnicodeHeadingIDTests.document), path: "a.md"))
        var links: [String] = []
        var expected: [String] = []
        for (index, heading) in UnicodeHeadingIDTests.headings.enumerated() {
            let text = NoteSymbols.extract(from: MarkdownParser.parse(UnicodeHeadingIDTests.document), path: "a.md").headings[index].text
            links.append("[raw \(index)](a.md#\(heading.id))")
            links.append("[encoded \(index)](a.md#\(UnicodeHeadingIDTests.percentEncoded(heading.id)))")
            expected += [text, text]
        }
        // By text, as Obsidian writes them (the first heading of a repeated text).
        links += ["[[a#ΟΔΟΣ ΚΑΙ ΣΟΦΙΑ]]", "[[a#日本語の見出し]]", "[[a#안녕하세요, 세계!]]", "[[a#İstanbul 😀]]"]
        expected += ["ΟΔΟΣ ΚΑΙ ΣΟΦΙΑ", "日本語の見出し", "안녕하세요, 세계!", "İstanbul 😀"]
        notebook.update(NoteSymbols.extract(from: MarkdownParser.parse(links.joined(separator: "\n") + "\n"), path: "b.md"))
        let reached = notebook.backlinks(to: "a.md").filter { $0.source == "b.md" }.map { $0.heading?.text ?? "<no heading: \($0.link.destination)>" }
        XCTAssertEqual(reached, expected)
        // Links to the repeated heading are ambiguous (a warning), none is broken.
        XCTAssertEqual(Set(notebook.diagnostics(for: "b.md").map(\.code)), [.duplicateHeading])
    }

    /// `id` as a URL fragment: every byte outside ASCII letters, digits, `-` and `_` as `%XX`.
    static func percentEncoded(_ id: String) -> String {
        id.utf8.map { byte -> String in
            if (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F {
                return String(UnicodeScalar(byte))
            }
            return "%" + String(byte, radix: 16, uppercase: true)
        }.joined()
    }
}
