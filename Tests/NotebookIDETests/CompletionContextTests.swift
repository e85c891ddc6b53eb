import MarkdownSyntax
import XCTest
@testable import NotebookIDE

/// What `CompletionContext.detect` sees at the cursor: the kind, the replaced bytes (shown as the
/// text they cover), the typed text and whether closing text follows.
final class CompletionContextTests: XCTestCase {
    /// `kind | replaced text | typed | closing` for the fixture, or `nil`.
    private func describe(_ fixture: String) -> String {
        let (bytes, cursor) = CompletionFixture.cursor(fixture)
        guard let context = CompletionContext.detect(text: bytes, cursor: cursor) else { return "nil" }
        let replaced = String(decoding: bytes[context.replace.range], as: UTF8.self)
        var text = "\(context.kind) | \(replaced) | \(context.typed)"
        if context.closingFollows { text += " | closed" }
        if context.slashFollows { text += " | slash" }
        if context.labelFollows { text += " | label" }
        return text
    }

    private func check(_ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        for (fixture, expected) in cases {
            XCTAssertEqual(describe(fixture), expected, fixture.debugDescription, file: file, line: line)
        }
    }

    func testWikiLinks() {
        check([
            ("[[$0", "wikiTarget(isEmbed: false) |  | "),
            ("See [[no$0", "wikiTarget(isEmbed: false) | no | no"),
            ("See [[no$0]]", "wikiTarget(isEmbed: false) | no | no | closed"),
            ("[[no$0te]] after", "wikiTarget(isEmbed: false) | note | no | closed"),
            ("[[My No$0te title]]", "wikiTarget(isEmbed: false) | My Note title | My No | closed"),
            ("[[no$0te and more", "wikiTarget(isEmbed: false) | note | no"),
            ("[[no$0|label]]", "wikiTarget(isEmbed: false) | no | no | closed | label"),
            ("[[no$0#Heading]]", "wikiTarget(isEmbed: false) | no | no | closed"),
            ("![[pho$0", "wikiTarget(isEmbed: true) | pho | pho"),
            ("[[note#Hea$0", "wikiHeading(note: \"note\", parents: []) | Hea | Hea"),
            ("[[#Hea$0]]", "wikiHeading(note: \"\", parents: []) | Hea | Hea | closed"),
            ("[[note#H#su$0]]", "wikiHeading(note: \"note\", parents: [\"H\"]) | su | su | closed"),
            ("[[note#^bl$0", "wikiBlock(note: \"note\") | bl | bl"),
            ("[[#^$0]]", "wikiBlock(note: \"\") |  |  | closed"),
            ("[[note|lab$0", "nil"),
            ("[[done]] and no$0", "nil"),
            ("`[[co$0`", "nil"),
            ("```\n[[co$0\n```\n", "nil"),
            ("```\ncode\n```\n[[ok$0", "wikiTarget(isEmbed: false) | ok | ok"),
        ])
    }

    func testMarkdownLinks() {
        check([
            ("[text]($0", "markdownPath(folder: \"\", isImage: false) |  | "),
            ("[text](no$0)", "markdownPath(folder: \"\", isImage: false) | no | no | closed"),
            ("![alt](img/ph$0", "markdownPath(folder: \"img/\", isImage: true) | ph | ph"),
            ("[a](../../x/$0", "markdownPath(folder: \"../../x/\", isImage: false) |  | "),
            ("[a](../gar$0den/x.md)", "markdownPath(folder: \"../\", isImage: false) | garden | gar | slash"),
            ("[a](note.md#he$0)", "markdownHeading(path: \"note.md\") | he | he | closed"),
            ("[a](#he$0", "markdownHeading(path: \"\") | he | he"),
            ("[a](note.md#^bl$0)", "markdownBlock(path: \"note.md\") | bl | bl | closed"),
            ("[a](https://ex$0", "nil"),
            ("[a](x) and (pa$0", "nil"),
            ("[text][la$0", "referenceLabel | la | la"),
            ("[text][la$0bel] x", "referenceLabel | label | la | closed"),
            ("[text] [la$0", "nil"),
        ])
    }

    func testTags() {
        check([
            ("Text #ga$0", "tag | ga | ga"),
            ("#$0", "tag |  | "),
            ("Text #ga$0rden more", "tag | garden | ga"),
            ("(#a/b$0)", "tag | a/b | a/b"),
            ("# $0", "nil"),
            ("##$0", "nil"),
            ("a#b$0", "nil"),
            ("http://x.org/#fr$0", "nil"),
            ("`#co$0`", "nil"),
            ("~~~\n#co$0\n", "nil"),
            ("Text #日$0", "tag | 日 | 日"),
            ("日本#ta$0", "nil"),
            ("日本、#ta$0", "tag | ta | ta"),
            ("[see #ta$0", "nil"),
            ("- [ ] task #ta$0", "tag | ta | ta"),
            ("[[note]] #ta$0", "tag | ta | ta"),
        ])
    }

    func testFrontMatter() {
        check([
            ("---\ntags:\n  - ga$0\n---\n", "frontMatterTag | ga | ga"),
            ("---\ntags:\n  - $0\n---\n", "frontMatterTag |  | "),
            ("---\ntags: [journal, ve$0]\n---\n", "frontMatterTag | ve | ve"),
            ("---\ntags: [jo$0, x]\n---\n", "frontMatterTag | jo | jo"),
            ("---\ntags: ga$0\n---\n", "frontMatterTag | ga | ga"),
            ("---\nsta$0\n---\n", "frontMatterKey | sta | sta"),
            ("---\nsta$0tus: x\n---\n", "frontMatterKey | status | sta | closed"),
            ("---\nstatus: dr$0\n---\n", "frontMatterValue(key: \"status\") | dr | dr"),
            ("---\ntitle: \"My ti$0\"\n---\n", "frontMatterValue(key: \"title\") | My ti | My ti | closed"),
            ("---\nauthors:\n  - An$0\n---\n", "frontMatterValue(key: \"authors\") | An | An"),
            ("---\nstatus:$0\n---\n", "nil"),
            ("---$0\ntitle: x\n---\n", "nil"),
            ("---\ntitle: x\n---$0\n", "nil"),
            ("---\ntitle: x\n---\n#ga$0", "tag | ga | ga"),
            ("---\ntitle: x\n---\n[[no$0", "wikiTarget(isEmbed: false) | no | no"),
            // Without a closing fence the `---` is a thematic break, not front matter.
            ("---\nText #ga$0", "tag | ga | ga"),
        ])
    }

    func testAnyCursorOnAnyTextNeverTraps() {
        let texts = [
            "---\ntags: [a, b\n  - x\n---\n# H\n[[a#b#^c|d]] ![[e]] [f](g/h.md#i) [j][k] #l `m` ```\n",
            "\r\n[[\r[](\r#\r---\r\n",
            "é[[日本#語^|]]((#\u{0}\u{FF}",
            "",
        ]
        for text in texts {
            var bytes = Array(text.utf8)
            bytes.append(0xFF)
            bytes.append(0xC3)
            for cursor in -2...(bytes.count + 2) {
                if let context = CompletionContext.detect(text: bytes, cursor: cursor) {
                    XCTAssertLessThanOrEqual(context.replace.start, context.replace.end)
                    XCTAssertLessThanOrEqual(Int(context.replace.end), bytes.count)
                    let sources = CompletionSources(workspace: CompletionFixture.sharedWorkspace)
                    _ = CompletionEngine.complete(context: context, in: "a/b.md", sources: sources)
                }
            }
        }
    }
}
