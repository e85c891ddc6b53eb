import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax

/// The inline parser looks for e-mail autolinks (`ann@example.com`) only in blocks where its main
/// loop met an `@` (or an escape or an unresolved footnote label left one in the text): the walk
/// over every text node of every block cost as much as a scan of each block. A block that ends
/// in a line holding a lone `@` is always walked, and that line links nothing, so on any
/// paragraph the shortcut must render exactly what the forced walk renders: an e-mail hidden
/// from the main loop (after `\`, inside `[^label]`, next to every construct that skips bytes)
/// would be linked in one and not in the other.
final class EmailAutolinkShortcutTests: XCTestCase {
    private static let pieces = [
        "a@b.com", "x.y+z@ex-ample.org.", "\\@", "\\@b.com", "a\\@b.com", "[^x@y.com]", "[^n]", "[^n@m.co][r]",
        "[^fn]", "[[w@x.com]]", "[[w@x.com|l@m.com]]", "`c@d.com`", "<e@f.com>", "<mailto:e@f.com>",
        "[l@m.com](u)", "*", "_", "~", "**s@t.com**", "~~u@v.com~~", "#t@g", "#tag", "$m@n.co$", "&#64;",
        "x&#64;y.com", "www.x@y.com", "http://a@b.com", "\\(p@q.com\\)", "<span>r@s.com</span>",
        "![i@j.com](x)", "[ref@x.com]", "[ref]", "@", "a@", "@b.co", "mail@host.c_o", "foo@bar.baz_",
        "ü@ü.de", "[x](y@z.com)", "*a@b.com*", "[a@b.com", "]c@d.com", "`", "<", "&", "![", "[[",
    ]

    func testTheShortcutRendersWhatTheWalkRenders() {
        var state: UInt64 = 0xA7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let definitions = "[^fn]: note a@b.com\n\n[ref]: /url\n\n[ref@x.com]: /mail\n\n"
        let renderer = HTMLRenderer(options: HTMLOptions(safe: false))
        for round in 0..<600 {
            let words = (0..<(1 + next(10))).map { _ in Self.pieces[next(Self.pieces.count)] }
            let paragraph = "x " + words.joined(separator: next(2) == 0 ? " " : "")
            for options in [ParseOptions.gfm, ParseOptions.notebook] {
                let plain = renderer.renderString(MarkdownParser.parse(Array((definitions + paragraph).utf8), options: options))
                let walked = renderer.renderString(MarkdownParser.parse(Array((definitions + paragraph + "\n@").utf8), options: options))
                guard let start = plain.range(of: "<p>x "), let close = plain.range(of: "</p>", range: start.upperBound..<plain.endIndex) else {
                    XCTFail("round \(round): no paragraph in \(plain)")
                    continue
                }
                let expected = plain.replacingCharacters(in: close, with: "\n@</p>")
                XCTAssertEqual(walked, expected, "round \(round), \(paragraph.debugDescription)")
            }
        }
    }

    /// The shortcut still links what it must: e-mails the main loop sees, one right after an
    /// escaped `@`, and one in the literal text of an unresolved footnote reference.
    func testEmailsAreLinkedWhereverTheTextHoldsThem() {
        let renderer = HTMLRenderer(options: HTMLOptions(safe: false))
        for (markdown, link) in [("write to ann@example.com", "ann@example.com"),
                                 ("x\\@bob@example.org", "bob@example.org"),
                                 ("see [^carl@example.net]", "carl@example.net")] {
            let html = renderer.renderString(MarkdownParser.parse(Array(markdown.utf8), options: .gfm))
            XCTAssertTrue(html.contains("<a href=\"mailto:\(link)\">\(link)</a>"), "\(markdown): \(html)")
        }
    }
}
