import MarkdownHTML
import MarkdownSyntax
import TestSupport
import XCTest

/// How the renderer writes embeds (issue 33): pictures with Obsidian's sizes, sound and film,
/// notes shown in place (`WikiLinkDestination.embed`, which the caller renders), and the id
/// prefix that keeps an embedded note's ids apart from its host page's.
final class EmbedRenderTests: XCTestCase {
    /// The notebook profile's HTML of `markdown` with `options` (the table, when given, made by
    /// `destinations` from the tree's wiki-links in order).
    static func html(_ markdown: String, profile: ParseOptions = .notebook, options: HTMLOptions = HTMLOptions(),
                     destinations: [WikiLinkDestination?]? = nil) -> String {
        let tree = MarkdownParser.parse(Array(markdown.utf8), options: profile)
        var options = options
        if let destinations { options.wikiLinkDestinations = WikiLinkDestinations(byIndex: destinations) }
        return String(decoding: HTMLRenderer(options: options).render(tree), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
    }

    func testPictureSizesAsObsidianWritesThem() {
        let cases: [(String, String)] = [
            // The label of an image embed: a width, or width and height; alt text before a `|`.
            ("![[map.png|300]]", #"<p><img class="wikilink-embed" src="map.png" alt="map.png" width="300" /></p>"#),
            ("![[map.png|300x200]]", #"<p><img class="wikilink-embed" src="map.png" alt="map.png" width="300" height="200" /></p>"#),
            ("![[map.png|The plot|640]]", #"<p><img class="wikilink-embed" src="map.png" alt="The plot" width="640" /></p>"#),
            // Not a size: alt text as written.
            ("![[map.png|300 px]]", #"<p><img class="wikilink-embed" src="map.png" alt="300 px" /></p>"#),
            ("![[map.png|0]]", #"<p><img class="wikilink-embed" src="map.png" alt="0" /></p>"#),
            ("![[map.png|x300]]", #"<p><img class="wikilink-embed" src="map.png" alt="x300" /></p>"#),
            ("![[map.png|1234567]]", #"<p><img class="wikilink-embed" src="map.png" alt="1234567" /></p>"#),
            // A Markdown image: the size after the alt text's last `|`, title kept.
            ("![Plot|300](map.png)", #"<p><img src="map.png" alt="Plot" width="300" /></p>"#),
            ("![Plot|300x200](map.png \"Beds\")", #"<p><img src="map.png" alt="Plot" title="Beds" width="300" height="200" /></p>"#),
            ("![*Plot*|300](map.png)", #"<p><img src="map.png" alt="Plot" width="300" /></p>"#),
            ("![|300](map.png)", #"<p><img src="map.png" alt="" width="300" /></p>"#),
            ("![300](map.png)", #"<p><img src="map.png" alt="300" /></p>"#),
            ("![a|b](map.png)", #"<p><img src="map.png" alt="a|b" /></p>"#),
        ]
        for (markdown, expected) in cases {
            XCTAssertEqual(Self.html(markdown), expected, markdown)
        }
        // CommonMark and GFM have no sizes: the spec's output stays as it is.
        XCTAssertEqual(Self.html("![Plot|300](map.png)", profile: ParseOptions(profile: .gfm)),
                       #"<p><img src="map.png" alt="Plot|300" /></p>"#)
    }

    func testSoundAndFilmPlayInPlaceAndAPDFIsALink() {
        XCTAssertEqual(Self.html("![[song.mp3]] ![[clip.MP4|The clip]] ![[paper.pdf]]"),
                       #"<p><audio class="wikilink-embed" controls="" src="song.mp3"><a class="wikilink embed" href="song.mp3">song.mp3</a></audio> "#
                       + #"<video class="wikilink-embed" controls="" src="clip.MP4"><a class="wikilink embed" href="clip.MP4">The clip</a></video> "#
                       + #"<a class="wikilink embed" href="paper.pdf">paper.pdf</a></p>"#)
        // A link to a sound is a link; a broken embed stays visibly broken.
        XCTAssertEqual(Self.html("[[song.mp3]] ![[gone.mp3]]", destinations: [nil, .broken]),
                       #"<p><a class="wikilink" href="song.mp3">song.mp3</a> <a class="wikilink embed broken">gone.mp3</a></p>"#)
    }

    func testTheIDPrefixReachesEveryIdAndEveryInPageLink() {
        var options = HTMLOptions.notebookPreview
        options.idPrefix = "embed3-"
        let markdown = "# Top\n\nSee [[#Top]], [[#^b1]], [up](#top) and a note.[^1] ^b1\n\n[^1]: Foot.\n"
        XCTAssertEqual(Self.html(markdown, options: options), """
            <h1 id="embed3-top">Top</h1>
            <p>See <a class="wikilink" href="#embed3-top">Top</a>, <a class="wikilink" href="#embed3-%5Eb1">^b1</a>, \
            <a href="#embed3-top">up</a> and a note.<sup class="footnote-ref"><a href="#embed3-fn-1" id="embed3-fnref-1" \
            data-footnote-ref>1</a></sup><span class="block-id" id="embed3-^b1"></span></p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="embed3-fn-1">
            <p>Foot. <a href="#embed3-fnref-1" class="footnote-backref" data-footnote-backref data-footnote-backref-idx="1" \
            aria-label="Back to reference 1">↩</a></p>
            </li>
            </ol>
            </section>
            """)
        // Links to other pages keep their fragments as they are.
        XCTAssertEqual(Self.html("[[soil#pH]]", options: options), #"<p><a class="wikilink" href="soil.md#ph">soil &gt; pH</a></p>"#)
    }

    func testANoteShownInPlaceIsABlockOfItsOwnParagraph() {
        let soil = WikiLinkDestination.embed(EmbeddedNote(url: "garden/soil.md#ph", source: "garden/soil.md#ph", title: "Soil › pH & lime",
                                                          html: Array("<h2 id=\"embed1-ph\">pH</h2>\n<p>Acid.</p>\n".utf8)))
        let stopped = WikiLinkDestination.embed(EmbeddedNote(url: "index.md", source: "index.md", title: "Index", html: nil,
                                                             reason: "Not shown here: it would show itself again"))
        // Alone in its paragraph (with other embeds): the paragraph is the embeds' blocks.
        XCTAssertEqual(Self.html("![[soil#pH]]\n![[soil#pH|again]]", options: .init(sourceLines: true), destinations: [soil, soil]), """
            <div class="embed" data-source="garden/soil.md#ph" data-source-line="1">
            <p class="embed-source"><a href="garden/soil.md#ph">Soil › pH &amp; lime</a></p>
            <h2 id="embed1-ph">pH</h2>
            <p>Acid.</p>
            </div>
            <div class="embed" data-source="garden/soil.md#ph" data-source-line="1">
            <p class="embed-source"><a href="garden/soil.md#ph">Soil › pH &amp; lime</a></p>
            <h2 id="embed1-ph">pH</h2>
            <p>Acid.</p>
            </div>
            """)
        // In a list item too.
        XCTAssertEqual(Self.html("- ![[soil#pH]]", destinations: [soil]), """
            <ul>
            <li>
            <div class="embed" data-source="garden/soil.md#ph">
            <p class="embed-source"><a href="garden/soil.md#ph">Soil › pH &amp; lime</a></p>
            <h2 id="embed1-ph">pH</h2>
            <p>Acid.</p>
            </div>
            </li>
            </ul>
            """)
        // Beside one not shown: that one is a link in a paragraph of its own.
        XCTAssertEqual(Self.html("![[index]]\n![[soil#pH]]", destinations: [stopped, soil]), """
            <p><a class="wikilink embed stopped" href="index.md" title="Not shown here: it would show itself again">index</a></p>
            <div class="embed" data-source="garden/soil.md#ph">
            <p class="embed-source"><a href="garden/soil.md#ph">Soil › pH &amp; lime</a></p>
            <h2 id="embed1-ph">pH</h2>
            <p>Acid.</p>
            </div>
            """)
        // Inside a sentence a block cannot go (`<div>` in `<p>` is no HTML): a link.
        XCTAssertEqual(Self.html("As ![[soil#pH]] says.", destinations: [soil]),
                       #"<p>As <a class="wikilink embed" href="garden/soil.md#ph">soil &gt; pH</a> says.</p>"#)
        // Not shown (a cycle, too deep, too much): a link that says why.
        XCTAssertEqual(Self.html("![[index]]", destinations: [stopped]),
                       #"<p><a class="wikilink embed stopped" href="index.md" title="Not shown here: it would show itself again">index</a></p>"#)
    }
}
