import XCTest
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex

/// Wiki-link edge cases (issue 11, from running external wiki-link suites), each checked twice:
/// what the preview shows, and what the notebook index records as the note's links. The two must
/// agree: a link the reader cannot click is no backlink, and a link they can click is one.
final class WikiLinkEdgeCaseTests: XCTestCase {
    /// Markdown, the HTML the preview renders, and the links the index records (form, destination
    /// and the source text of each), in document order.
    static let cases: [(markdown: String, html: String, links: [String])] = [
        // Links do not contain links: the wiki-link is the inner link and wins, as `[b](c)` does
        // in `[a [b](c)](d)`; the rest is text (in which the URL is an extended autolink, as
        // cmark-gfm makes of `[a [b](c)](https://…)`).
        ("[also [[Note]]](https://example.com/)",
         #"<p>[also <a class="wikilink" href="Note.md">Note</a>](<a href="https://example.com/">https://example.com/</a>)</p>"#,
         ["wikiLink Note [[Note]]", "autolink https://example.com/ https://example.com/"]),
        ("[[[Note]]](u)",
         #"<p>[<a class="wikilink" href="Note.md">Note</a>](u)</p>"#,
         ["wikiLink Note [[Note]]"]),
        ("[see [[#Local]] here][ref]\n\n[ref]: /u",
         ##"<p>[see <a class="wikilink" href="#local">Local</a> here]<a href="/u">ref</a></p>"##,
         ["wikiLink #Local [[#Local]]", "shortcutReference /u [ref]"]),
        // An embed of a note is a link too; an embed of an image is an image, which link text
        // may hold (like `![a](b.png)`).
        ("[a ![[Note]]](u)",
         #"<p>[a <a class="wikilink embed" href="Note.md">Note</a>](u)</p>"#,
         ["wikiEmbed Note ![[Note]]"]),
        ("[see ![[photo.png]]](https://example.com/)",
         #"<p><a href="https://example.com/">see <img class="wikilink-embed" src="photo.png" alt="photo.png" /></a></p>"#,
         ["inline https://example.com/ [see ![[photo.png]]](https://example.com/)", "wikiEmbed photo.png ![[photo.png]]"]),
        // In an image's description a link is alt text: nothing to click, nothing recorded.
        ("![a [[Note]] b](pic.png)",
         #"<p><img src="pic.png" alt="a Note b" /></p>"#,
         ["inline pic.png ![a [[Note]] b](pic.png)"]),
        // Nested wiki-links: the innermost wins, as in Obsidian.
        ("[[Outer|[[Fish]]]]",
         #"<p>[[Outer|<a class="wikilink" href="Fish.md">Fish</a>]]</p>"#,
         ["wikiLink Fish [[Fish]]"]),
        ("[[Note]](other.md)",
         #"<p><a class="wikilink" href="Note.md">Note</a>(other.md)</p>"#,
         ["wikiLink Note [[Note]]"]),
        // Nothing to link to: text, not a link with an empty href.
        ("[[|]] [[|Alias]] [[]] [[ ]] [[#]] [[^]] [[#^]] [[\\|Alias]] ![[|x]]",
         #"<p>[[|]] [[|Alias]] [[]] [[ ]] [[#]] [[^]] [[#^]] [[|Alias]] ![[|x]]</p>"#,
         []),
        // Empty parts are dropped.
        ("[[Note|]] [[Note#]] [[Note^]]",
         #"<p><a class="wikilink" href="Note.md">Note</a> <a class="wikilink" href="Note.md">Note</a> <a class="wikilink" href="Note.md">Note</a></p>"#,
         ["wikiLink Note [[Note|]]", "wikiLink Note [[Note#]]", "wikiLink Note [[Note^]]"]),
        // `\|` separates the label, as in a table, where the pipe must be escaped.
        ("[[Note\\|Shown]]",
         #"<p><a class="wikilink" href="Note.md">Shown</a></p>"#,
         ["wikiLink Note [[Note\\|Shown]]"]),
        ("| a |\n|---|\n| [[Note\\|Shown]] |",
         "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
            + #"<td><a class="wikilink" href="Note.md">Shown</a></td>"# + "\n</tr>\n</tbody>\n</table>",
         ["wikiLink Note [[Note\\|Shown]]"]),
    ]

    func testPreviewAndIndexAgreeOnWikiLinkEdgeCases() {
        for (markdown, html, links) in Self.cases {
            let source = Array(markdown.utf8)
            let tree = MarkdownParser.parse(source, options: .notebook)
            let rendered = HTMLRenderer(options: .notebookPreview).renderString(tree)
            XCTAssertEqual(rendered, html + "\n", markdown)
            XCTAssertFalse(Self.nestsAnchors(rendered), "a link inside a link: \(rendered)")
            let recorded = NoteSymbols.extract(from: tree, path: "here.md").links.map { link in
                let range = link.range.range.clamped(to: 0..<source.count)
                return "\(link.form) \(link.destination) " + String(decoding: source[range], as: UTF8.self)
            }
            XCTAssertEqual(recorded, links, markdown)
        }
    }

    /// True when an `<a` opens before the previous one is closed.
    static func nestsAnchors(_ html: String) -> Bool {
        var depth = 0
        var index = html.startIndex
        while index < html.endIndex {
            let rest = html[index...]
            if rest.hasPrefix("<a ") || rest.hasPrefix("<a>") {
                depth += 1
                if depth > 1 { return true }
            } else if rest.hasPrefix("</a>") {
                depth -= 1
            }
            index = html.index(after: index)
        }
        return false
    }
}
