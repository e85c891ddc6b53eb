import MarkdownSyntax
import TestSupport
import XCTest
@testable import MarkdownHTML

/// The page's relative URLs made absolute under a URL standing for the notebook's root
/// (`ResourceBase`): URL as written → URL written, for the note `garden/Bé ds/beds.md` of a
/// notebook at `/home/ann/My Notes`.
final class ResourceBaseTests: XCTestCase {
    static let root = "file:///home/ann/My%20Notes/"
    static let folder = root + "garden/B%C3%A9%20ds/"

    /// The first `href` or `src` the note's HTML writes (nil when the element has none).
    func firstURL(_ markdown: String, base: ResourceBase?, safe: Bool = true) -> String? {
        var options = HTMLOptions.notebookPreview
        options.safe = safe
        options.resourceBase = base
        let html = HTMLRenderer(options: options).renderString(MarkdownParser.parse(Array(markdown.utf8), options: .notebook))
        guard let start = html.range(of: #"(href|src)=""#, options: .regularExpression) else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    static let base = ResourceBase(rootURL: "file:///home/ann/My%20Notes", noteFolder: "garden/Bé ds")

    func testRelativeURLsBecomeAbsoluteUnderTheRoot() {
        let rows: [(written: String, expected: String?, line: UInt)] = [
            // Relative to the note's folder; the folder is percent-encoded, the rest kept.
            ("[x](pic.png)", Self.folder + "pic.png", #line),
            ("![x](pic.png)", Self.folder + "pic.png", #line),
            ("![x](<../img/a b.png>)", Self.root + "garden/img/a%20b.png", #line),
            ("[x](./soil.md#texture)", Self.folder + "soil.md#texture", #line),
            ("[x](soil.md?v=1&w=2)", Self.folder + "soil.md?v=1&amp;w=2", #line),
            ("[x](%7Enotes/100%25.md)", Self.folder + "%7Enotes/100%25.md", #line),   // the author's escapes stay
            ("[x](日本.md)", Self.folder + "%E6%97%A5%E6%9C%AC.md", #line),
            ("[x](sub/)", Self.folder + "sub/", #line),
            ("[x](a/./b/../c.md)", Self.folder + "a/c.md", #line),
            // `/x` is the notebook's root; `..` past the root stays after it.
            ("[x](/docs/guide.pdf)", Self.root + "docs/guide.pdf", #line),
            ("[x](../../../up.md)", Self.root + "../up.md", #line),
            // Wiki-links and embeds as the renderer writes them without a notebook.
            ("[[soil]]", Self.folder + "soil.md", #line),
            ("![[pic.png|alt]]", Self.folder + "pic.png", #line),
            ("[[img/plan.pdf]]", Self.folder + "img/plan.pdf", #line),
            // Written as they are: fragments, queries, schemes, network paths, the empty URL.
            ("[x](#fn)", "#fn", #line),
            ("[[#Two Words]]", "#two-words", #line),
            ("#garden", "#garden", #line),
            ("[x](?q=1)", "?q=1", #line),
            ("[x]()", "", #line),
            ("[x](https://example.com/a.png)", "https://example.com/a.png", #line),
            ("<https://example.com>", "https://example.com", #line),
            ("[x](//cdn.example.com/x.png)", "//cdn.example.com/x.png", #line),
            ("[x](mailto:ann@example.com)", "mailto:ann@example.com", #line),
            ("![x](data:image/png;base64,AA)", "data:image/png;base64,AA", #line),
            // A `file:` URL the author wrote is inert in safe mode; ours are not.
            ("[x](file:///etc/passwd)", "", #line),
            ("[x](javascript:alert(1))", "", #line),
        ]
        for row in rows {
            XCTAssertEqual(firstURL(row.written, base: Self.base), row.expected, row.written, line: row.line)
        }
        // Without safe mode the author's `file:` URL is written as it is, not rewritten.
        XCTAssertEqual(firstURL("[x](file:///etc/passwd)", base: Self.base, safe: false), "file:///etc/passwd")
        // Without a base, or with one that does not rewrite, every URL is as written.
        for base in [nil, ResourceBase(rootURL: Self.root, noteFolder: "garden/Bé ds", rewritesRelativeURLs: false)] {
            XCTAssertEqual(firstURL("![x](../img/pic.png)", base: base), "../img/pic.png")
            XCTAssertEqual(firstURL("[[soil]]", base: base), "soil.md")
        }
    }

    func testTheRootURLIsTheCallersAndTheFolderIsEncoded() {
        // A webview's URL for the root (its own escapes kept); a folder with `%`, `#` and `?`.
        let webview = ResourceBase(rootURL: "https://file%2B.vscode-resource.vscode-cdn.net/home/ann/notes/",
                                   noteFolder: "100% done/#1?")
        XCTAssertEqual(firstURL("![x](pic.png)", base: webview),
                       "https://file%2B.vscode-resource.vscode-cdn.net/home/ann/notes/100%25%20done/%231%3F/pic.png")
        XCTAssertEqual(webview.noteFolderURL, "https://file%2B.vscode-resource.vscode-cdn.net/home/ann/notes/100%25%20done/%231%3F/")
        // A note at the root; a root URL without its final `/`.
        let top = ResourceBase(rootURL: "file:///notes", noteFolder: "")
        XCTAssertEqual(firstURL("![x](pic.png)", base: top), "file:///notes/pic.png")
        XCTAssertEqual(firstURL("![x](../pic.png)", base: top), "file:///notes/../pic.png")
        XCTAssertEqual(top.noteFolderURL, "file:///notes/")
    }

    func testIsRelative() {
        let rows: [(url: String, relative: Bool)] = [
            ("a.md", true), ("/a.md", true), ("./a", true), ("../a", true), ("a:b", false), ("a/b:c", true),
            ("1a:b", true), ("C:/x", false), ("#x", false), ("?x", false), ("//host", false), ("", false),
            ("https://x", false), ("x+y.z-w:rest", false), ("a b:c", true),
        ]
        for row in rows {
            XCTAssertEqual(ResourceBase.isRelative(Array(row.url.utf8)[...]), row.relative, row.url)
        }
    }

    /// A full page with a base: `<base href>` is the note's folder; in-page links stay fragments
    /// (the base moves them too: a viewer of such a page handles them, see `writesBaseElement`).
    func testBaseElementOfAFullPage() {
        var options = HTMLOptions.notebookPreview
        options.fullPage = true
        options.resourceBase = ResourceBase(rootURL: Self.root, noteFolder: "garden/Bé ds", rewritesRelativeURLs: false,
                                            writesBaseElement: true)
        let html = HTMLRenderer(options: options).renderString(MarkdownParser.parse(Array("# Beds\n\nA[^1] ![p](pic.png) #tag\n\n[^1]: Note.\n".utf8), options: .notebook))
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(options.contentSecurityPolicy)\">\n"
                                    + "<base href=\"\(Self.folder)\">\n<title>"), html)
        XCTAssertTrue(html.contains(##"<a href="#fn-1" id="fnref-1" data-footnote-ref>"##), html)
        XCTAssertTrue(html.contains(##"<a class="tag" href="#tag">"##), html)
        XCTAssertTrue(html.contains(#"<img src="pic.png" alt="p" />"#), html)
        // No base unless asked, and none outside a full page.
        options.resourceBase?.writesBaseElement = false
        XCTAssertFalse(HTMLRenderer(options: options).renderString(MarkdownParser.parse(Array("x\n".utf8), options: .notebook)).contains("<base"))
        options.resourceBase?.writesBaseElement = true
        options.fullPage = false
        XCTAssertFalse(HTMLRenderer(options: options).renderString(MarkdownParser.parse(Array("x\n".utf8), options: .notebook)).contains("<base"))
    }

    /// The files a page shows: images and embeds, as paths from the root, each once.
    func testLocalResources() {
        let markdown = """
            ![a](pic.png) ![again](./pic.png) ![up](../img/a%20b.png) ![root](/img/c.png)
            ![[pic.png]] ![[plan.pdf]] ![[other note]] [[not an embed]] [link](doc.pdf)
            ![far](../../../outside.png) ![web](https://example.com/x.png) ![f](file:///etc/x.png)
            ![dir](img/) ![q](q.png?v=2#top)

            [r]: ref.png
            ![ref][r]
            """
        var options = HTMLOptions.notebookPreview
        options.resourceBase = Self.base
        let tree = MarkdownParser.parse(Array(markdown.utf8), options: .notebook)
        XCTAssertEqual(HTMLRenderer(options: options).localResources(of: tree), [
            "garden/Bé ds/pic.png", "garden/img/a b.png", "img/c.png", "garden/Bé ds/plan.pdf",
            "garden/Bé ds/other note.md", "garden/Bé ds/q.png", "garden/Bé ds/ref.png",
        ])
        // Where the notebook points them (`wikiLinkDestinations`, `linkDestinations`) counts.
        options.wikiLinkDestinations = WikiLinkDestinations.resolving(tree) { reference in
            switch reference.target {
            case "pic.png": return .url("../../img/pic.png")
            case "plan.pdf": return .broken
            default: return nil
            }
        }
        options.linkDestinations = ["pic.png": "../../img/pic.png"]
        XCTAssertEqual(HTMLRenderer(options: options).localResources(of: tree), [
            "img/pic.png", "garden/Bé ds/pic.png", "garden/img/a b.png", "img/c.png",
            "garden/Bé ds/other note.md", "garden/Bé ds/q.png", "garden/Bé ds/ref.png",
        ])
    }
}
