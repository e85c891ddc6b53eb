import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// What `CompletionContext.detect` sees at the cursor: the kind, the replaced bytes (shown as the
/// text they cover), the typed text and what an item must add to close the construct.
final class CompletionContextTests: XCTestCase {
    /// `kind | replaced text | typed | +closing | carried … | slash | label | heading` for the
    /// fixture, or `nil`; the closing and flags only when present.
    private func describe(_ fixture: String) -> String {
        let (bytes, cursor) = CompletionFixture.cursor(fixture)
        guard let context = CompletionContext.detect(text: bytes, cursor: cursor) else { return "nil" }
        let replaced = bytes.text(context.replace.range)
        var text = "\(context.kind) | \(replaced) | \(context.typed)"
        if !context.closing.isEmpty { text += " | +\(context.closing)" }
        if !context.carried.isEmpty { text += " | carried \(context.carried)" }
        if context.slashFollows { text += " | slash" }
        if context.labelFollows { text += " | label" }
        if context.headingFollows { text += " | heading" }
        return text
    }

    private func check(_ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        for (fixture, expected) in cases {
            Expect.equal(describe(fixture), expected, fixture: fixture, file: file, line: line)
        }
    }

    func testWikiLinks() {
        check([
            ("[[$0", "wikiTarget(isEmbed: false) |  |  | +]]"),
            ("See [[no$0", "wikiTarget(isEmbed: false) | no | no | +]]"),
            ("See [[no$0]]", "wikiTarget(isEmbed: false) | no | no"),
            ("[[no$0te]] after", "wikiTarget(isEmbed: false) | note | no"),
            ("[[My No$0te title]]", "wikiTarget(isEmbed: false) | My Note title | My No"),
            ("[[no$0te and more", "wikiTarget(isEmbed: false) | note | no | +]]"),
            ("[[no$0|label]]", "wikiTarget(isEmbed: false) | no | no | label"),
            ("[[no$0#Heading]]", "wikiTarget(isEmbed: false) | no | no | heading"),
            ("![[pho$0", "wikiTarget(isEmbed: true) | pho | pho | +]]"),
            ("[[note#Hea$0", "wikiHeading(note: \"note\", parents: []) | Hea | Hea | +]]"),
            ("[[#Hea$0]]", "wikiHeading(note: \"\", parents: []) | Hea | Hea"),
            ("[[note#H#su$0]]", "wikiHeading(note: \"note\", parents: [\"H\"]) | su | su"),
            ("[[note#^bl$0", "wikiBlock(note: \"note\") | bl | bl | +]]"),
            ("[[#^$0]]", "wikiBlock(note: \"\") |  | "),
            ("[[note|lab$0", "nil"),
            ("[[done]] and no$0", "nil"),
            ("`[[co$0`", "nil"),
            ("```\n[[co$0\n```\n", "nil"),
            ("```\ncode\n```\n[[ok$0", "wikiTarget(isEmbed: false) | ok | ok | +]]"),
        ])
    }

    /// A lone `]` (an editor that paired one `[`) is half of the closing: the missing `]` goes
    /// before it, or after a `|label` or `#heading`, which the range then carries.
    func testWikiLinksClosedByALoneBracket() {
        check([
            ("See [[soi$0]", "wikiTarget(isEmbed: false) | soi | soi | +]"),
            ("See [[soi$0 ]", "wikiTarget(isEmbed: false) | soi  | soi | +]"),
            ("[[so$0il] x", "wikiTarget(isEmbed: false) | soil | so | +]"),
            ("![[pho$0]", "wikiTarget(isEmbed: true) | pho | pho | +]"),
            ("[[soil-tests#$0]", "wikiHeading(note: \"soil-tests\", parents: []) |  |  | +]"),
            ("[[soil-tests#^$0]", "wikiBlock(note: \"soil-tests\") |  |  | +]"),
            ("[[so$0|lab]", "wikiTarget(isEmbed: false) | so|lab | so | +] | carried |lab | label"),
            ("[[so$0#He]", "wikiTarget(isEmbed: false) | so#He | so | +] | carried #He | heading"),
            // A `]` further on, after other words, may close an outer `[`: it is left alone.
            ("[x [[so$0 y]", "wikiTarget(isEmbed: false) | so | so | +]]"),
            ("[x [[so$0](url)", "wikiTarget(isEmbed: false) | so | so | +]]"),
            ("[x [[so$0][ref]", "wikiTarget(isEmbed: false) | so | so | +]]"),
            // Past a `]` the cursor is outside the link.
            ("[[note]$0]", "nil"),
        ])
    }

    /// A label or heading after the cursor in an unclosed link: the user is still writing it,
    /// so no `]]` is put between the target and the rest.
    func testWikiLinksWithTextAfterThePart() {
        check([
            ("[[so$0|lab", "wikiTarget(isEmbed: false) | so | so | label"),
            ("[[so$0#He", "wikiTarget(isEmbed: false) | so | so | heading"),
            // In a table the separator is `\|`: its backslash is not part of the target.
            ("| [[so$0\\|lab]] |", "wikiTarget(isEmbed: false) | so | so | label"),
            ("| [[$0\\|lab]] |", "wikiTarget(isEmbed: false) |  |  | label"),
        ])
    }

    func testMarkdownLinks() {
        check([
            ("[text]($0", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: false) |  |  | +)"),
            ("[text](no$0)", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: false) | no | no"),
            ("![alt](img/ph$0", "markdownPath(folder: \"img/\", isImage: true, inAngleBrackets: false) | ph | ph | +)"),
            ("[a](../../x/$0", "markdownPath(folder: \"../../x/\", isImage: false, inAngleBrackets: false) |  |  | +)"),
            ("[a](../gar$0den/x.md)", "markdownPath(folder: \"../\", isImage: false, inAngleBrackets: false) | garden | gar | slash"),
            ("[a](no$0 \"Title\")", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: false) | no | no"),
            ("[a](note.md#he$0)", "markdownHeading(path: \"note.md\") | he | he"),
            ("[a](#he$0", "markdownHeading(path: \"\") | he | he | +)"),
            ("[a](note.md#^bl$0)", "markdownBlock(path: \"note.md\") | bl | bl"),
            ("[a](https://ex$0", "nil"),
            ("[a](x) and (pa$0", "nil"),
            ("[text][la$0", "referenceLabel | la | la | +]"),
            ("[text][la$0bel] x", "referenceLabel | label | la"),
            ("[text] [la$0", "nil"),
        ])
    }

    /// `<…>` destinations may hold spaces and parentheses; `>)` closes them.
    func testAngleBracketDestinations() {
        check([
            ("[a](<Seed Cat$0", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: true) | Seed Cat | Seed Cat | +>)"),
            ("[a](<Seed Cat$0)", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: true) | Seed Cat | Seed Cat | +>"),
            ("[a](<Seed C$0at log.md>)", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: true) | Seed Cat log.md | Seed C"),
            ("[a](<my (old) notes/Se$0", "markdownPath(folder: \"my (old) notes/\", isImage: false, inAngleBrackets: true) | Se | Se | +>)"),
            ("[a](<my n$0otes/x.md>)", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: true) | my notes | my n | slash"),
            ("[a](<x y.md#he$0", "markdownHeading(path: \"x y.md\") | he | he | +>)"),
            ("[a](<x y.md#he$0>)", "markdownHeading(path: \"x y.md\") | he | he"),
            ("[a](<x> and (y$0", "nil"),
            ("a <b and (c$0", "nil"),
        ])
    }

    /// Windows line endings: the `\r` is never part of what an item replaces.
    func testCRLFLines() {
        check([
            ("[[no$0]]\r\nnext", "wikiTarget(isEmbed: false) | no | no"),
            ("See [[no$0\r\nnext", "wikiTarget(isEmbed: false) | no | no | +]]"),
            ("See [[no$0]\r\nnext", "wikiTarget(isEmbed: false) | no | no | +]"),
            ("[x](gar$0\r\n", "markdownPath(folder: \"\", isImage: false, inAngleBrackets: false) | gar | gar | +)"),
            ("Text #ga$0\r\n", "tag | ga | ga"),
            ("---\r\nstatus: dr$0\r\n---\r\n", "frontMatterValue(key: \"status\") | dr | dr"),
            ("---\r\nsta$0\r\n---\r\n", "frontMatterKey | sta | sta | +: "),
            ("---\r\ntags:\r\n  - ga$0\r\n---\r\n", "frontMatterTag | ga | ga"),
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
            ("---\nsta$0\n---\n", "frontMatterKey | sta | sta | +: "),
            ("---\nsta$0tus: x\n---\n", "frontMatterKey | status | sta"),
            ("---\nstatus: dr$0\n---\n", "frontMatterValue(key: \"status\") | dr | dr"),
            ("---\ntitle: \"My ti$0\"\n---\n", "frontMatterValue(key: \"title\") | My ti | My ti"),
            ("---\ntitle: \"My ti$0\n---\n", "frontMatterValue(key: \"title\") | My ti | My ti | +\""),
            ("---\nauthors:\n  - An$0\n---\n", "frontMatterValue(key: \"authors\") | An | An"),
            ("---\nstatus:$0\n---\n", "nil"),
            ("---$0\ntitle: x\n---\n", "nil"),
            ("---\ntitle: x\n---$0\n", "nil"),
            ("---\ntitle: x\n---\n#ga$0", "tag | ga | ga"),
            ("---\ntitle: x\n---\n[[no$0", "wikiTarget(isEmbed: false) | no | no | +]]"),
            // Without a closing fence the `---` is a thematic break, not front matter.
            ("---\nText #ga$0", "tag | ga | ga"),
        ])
    }

    func testAnyCursorOnAnyTextNeverTraps() {
        let texts = [
            "---\ntags: [a, b\n  - x\n---\n# H\n[[a#b#^c|d]] ![[e]] [f](g/h.md#i) [j][k] #l `m` ```\n",
            "\r\n[[\r[](\r#\r---\r\n",
            "é[[日本#語^|]]((#\u{0}\u{FF}",
            "](<a b/c#d>) [y](<e (f) [[g|h] [[i#j] [[k\\|l] ![[m] <](<\r\n](< [[",
            "---\nq: \"a\nr: 'b\n---\n[x][y] [[z]]]] [[[[a]",
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
                    // The range holds the cursor, and what was typed is the text up to it.
                    let clamped = min(max(cursor, 0), bytes.count)
                    XCTAssertTrue(Int(context.replace.start) <= clamped && clamped <= Int(context.replace.end))
                    if Int(context.replace.start) <= clamped {
                        XCTAssertEqual(Array(context.typed.utf8),
                                       Array(String(decoding: bytes[Int(context.replace.start)..<clamped], as: UTF8.self).utf8))
                    }
                    let sources = CompletionSources(workspace: CompletionFixture.sharedWorkspace)
                    _ = CompletionEngine.complete(context: context, in: "a/b.md", sources: sources)
                }
            }
        }
    }
}
