import XCTest
@testable import MarkdownSyntax

/// Edge cases of the inline pass: where tags may not appear, autolink text flags, e-mail autolinks
/// next to backslash escapes, and Unicode case folding of link labels.
final class InlineEdgeCaseTests: XCTestCase {
    // MARK: Tags never inside links, URLs or HTML

    func testNoTagsInsideLinksAutolinksOrHTML() {
        check(.notebook, [
            ("[#not-a-tag](https://example.org)", ##"link<inline dest=https://example.org>(text"#not-a-tag")"##),
            ("![#alt](i.png)", ##"image<inline dest=i.png>(text"#alt")"##),
            ("[[note|#label]] [[#Heading]]", ##"wikiLink<note |#label>(text"#label") text" " wikiLink< #Heading>(text"#Heading")"##),
            ("<https://x.org/#frag> https://x.org/p#frag www.x.org/#frag",
             ##"autolink<uriAutolink dest=https://x.org/#frag>(text"https://x.org/#frag") text" " autolink<urlAutolink dest=https://x.org/p#frag>(text"https://x.org/p#frag") text" " autolink<wwwAutolink dest=www.x.org/#frag>(text"www.x.org/#frag")"##),
            // A tag glued to an address is the address's local part, as cmark-gfm links it.
            ("x #tag@example.com y", ##"text"x #" autolink<extendedEmailAutolink dest=tag@example.com>(text"tag@example.com") text" y""##),
            ("#tag.name@example.com", ##"text"#" autolink<extendedEmailAutolink dest=tag.name@example.com>(text"tag.name@example.com")"##),
            ("#a/b@c.de", ##"text"#a/" autolink<extendedEmailAutolink dest=b@c.de>(text"b@c.de")"##),
            ("#tag@ #t2@x", ##"tag"#tag" text"@ " tag"#t2" text"@x""##),
            // Text inside a raw HTML link is inside a link.
            ("<a href=\"/x\">#in</a> #out", ##"inlineHTML"<a href="/x">" text"#in" inlineHTML"</a>" text" " tag"#out""##),
            ("<A HREF='/x'/>#self <b>#bold</b>", ##"inlineHTML"<A HREF='/x'/>" tag"#self" text" " inlineHTML"<b>" tag"#bold" inlineHTML"</b>""##),
            ("<abbr>#ok</abbr>", ##"inlineHTML"<abbr>" tag"#ok" inlineHTML"</abbr>""##),
            // Emphasis and strikethrough do not stop tags.
            ("**#strong** ~~#struck~~ *#em*", ##"strong(tag"#strong") text" " strikethrough(tag"#struck") text" " emphasis(tag"#em")"##),
        ])
    }

    // MARK: Autolink text flags

    func testPointyAutolinkTextFlagsCharacterReferences() {
        check(.gfm, [
            ("<http://a.b/?x&amp;y>", #"autolink<uriAutolink dest=http://a.b/?x&amp;y>(text!"http://a.b/?x&amp;y")"#),
            ("<a&b@c.de>", #"autolink<emailAutolink dest=a&b@c.de>(text!"a&b@c.de")"#),
            ("<http://a.b/\\[>", #"autolink<uriAutolink dest=http://a.b/\[>(text"http://a.b/\[")"#),
            ("<http://a.b/c>", #"autolink<uriAutolink dest=http://a.b/c>(text"http://a.b/c")"#),
            // Extended autolinks show their bytes as written: nothing to decode.
            ("www.x.com/?a&amp;b", #"autolink<wwwAutolink dest=www.x.com/?a&amp;b>(text"www.x.com/?a&amp;b")"#),
        ])
    }

    // MARK: Extended e-mail autolinks and escapes

    /// cmark-gfm decodes escapes before it looks for addresses (`a\.b@c.de` links `a.b@c.de`);
    /// our tree keeps content spans, so an address never takes in or splits an escape. The visible
    /// text always reads as cmark-gfm's does, only the link may be shorter.
    func testEmailAutolinksNeverSplitEscapes() {
        check(.gfm, [
            ("a\\.b@c.de", #"text!"a\." autolink<extendedEmailAutolink dest=b@c.de>(text"b@c.de")"#),
            ("foo\\_bar@x.com", #"text!"foo\_" autolink<extendedEmailAutolink dest=bar@x.com>(text"bar@x.com")"#),
            ("a\\\\.b@c.de", #"text!"a\\" autolink<extendedEmailAutolink dest=.b@c.de>(text".b@c.de")"#),
            ("x\\\\a@b.cd", #"text!"x\\" autolink<extendedEmailAutolink dest=a@b.cd>(text"a@b.cd")"#),
            // FIXME(cmark-gfm links `a@b.cd-x`): the escape ends the address here.
            ("a@b.cd\\-x", #"autolink<extendedEmailAutolink dest=a@b.cd>(text"a@b.cd") text!"\-x""#),
            // An escaped `@` is no address (cmark-gfm links `a@b.cd` all the same).
            ("a\\@b.cd", #"text!"a\@b.cd""#),
            ("a@b.cd&amp;x", #"autolink<extendedEmailAutolink dest=a@b.cd>(text"a@b.cd") text!"&amp;x""#),
        ])
    }

    func testEscapedEmailTextRendersWithoutStrayBackslash() throws {
        // The text before the link must keep the whole escape, or a literal `\` would show.
        let tree = MarkdownParser.parse("a\\.b@c.de", options: .gfm)
        let texts = tree.nodes.indices.filter { tree.nodes[$0].kind == .text && tree.nodes[$0].parent != .none }
        let index = try XCTUnwrap(texts.first, "no text node")
        let first = tree.nodes[index]
        XCTAssertEqual(CharacterReferences.decoded(tree.contentBytes(of: NodeID(index))), Array("a.".utf8))
        XCTAssertNotEqual(first.flags & Node.textNeedsDecoding, 0)
    }

    // MARK: Label case folding

    /// Labels match when their full Unicode case folds are equal (CommonMark: "Unicode case fold").
    func testLabelsMatchByFullCaseFolding() {
        let same: [(String, String)] = [
            ("ẞ", "SS"), ("ẞ", "ss"), ("ß", "SS"), ("ß", "ẞ"),
            ("ſ", "S"), ("ſ", "s"),
            ("\u{212A}", "k"), ("\u{212A}", "K"),          // Kelvin sign
            ("Σ", "σ"), ("Σ", "ς"), ("ς", "σ"), ("ΣΑΣ", "σας"),
            ("İ", "i\u{307}"), ("İ", "I\u{307}"),
            ("ﬀ", "FF"), ("ﬀ", "ff"), ("ﬃ", "FFI"), ("ﬆ", "ST"),
            ("µ", "Μ"), ("ϐ", "Β"), ("ϑ", "Θ"),            // micro sign, Greek symbol variants
            ("\u{1F88}", "\u{1F00}\u{3B9}"), ("ᾳ", "ΑΙ"), ("ᾼ", "αι"),
            ("ŉ", "ʼN"), ("և", "ԵՒ"), ("ẛ", "Ṡ"),
            ("Ꭰ", "ꭰ"), ("ᏸ", "Ᏸ"),                          // Cherokee
            ("ᲀ", "В"),                                      // Cyrillic rounded ve
            ("  Foo \t\n Bar  ", "FOO BAR"),
        ]
        for (left, right) in same {
            XCTAssertEqual(normalize(left), normalize(right), "\(left) ~ \(right)")
        }
        let different: [(String, String)] = [
            ("ı", "i"), ("ı", "I"),                           // dotless i folds to itself
            ("İ", "i"), ("İ", "I"),
            ("ß", "s"), ("ﬀ", "f"),
        ]
        for (left, right) in different {
            XCTAssertNotEqual(normalize(left), normalize(right), "\(left) !~ \(right)")
        }
        XCTAssertEqual(normalize("ẞ"), "ss")
        XCTAssertEqual(normalize("Ω"), "ω")
        XCTAssertEqual(normalize("ΣΑΣ"), "σασ")
    }

    func testReferenceLinksResolveThroughCaseFolding() {
        check(.commonmark, [
            ("[ẞ]\n\n[SS]: /x", #"link<shortcut def=0>(text"ẞ")"#),
            ("[ﬀ]\n\n[FF]: /x", #"link<shortcut def=0>(text"ﬀ")"#),
            ("[\u{212A}elvin]\n\n[kelvin]: /x", "link<shortcut def=0>(text\"\u{212A}elvin\")"),
            ("[I]\n\n[ı]: /x", #"text"[I]""#),
        ])
    }

    func testASCIILabelFastPathAllocatesOnlyTheKey() {
        XCTAssertEqual(normalize("Hello  World"), "hello world")
        XCTAssertEqual(normalize(""), "")
        // Malformed UTF-8 folds to U+FFFD rather than trapping.
        XCTAssertEqual(Array([0xFF, 0x41]).withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) }, "\u{FFFD}a")
    }

    // MARK: Helpers

    private func normalize(_ text: String) -> String {
        Array(text.utf8).withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) }
    }

    private func check(_ options: ParseOptions, _ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        InlineDump.check(options, cases, file: file, line: line)
    }
}
