// Which notes a published site has, and where each one's page is: the one decision every page's
// links, the index, the tag pages and the exporter's file list read.
//
// Invariants:
// - A note is published unless its front matter says `publish: false` (or `no`, `off`) or
//   `draft: true` (or `yes`, `on`); notes the notebook's ignore rules hide are not in the index
//   and so never published. A note left out has no page, and every link to it is text.
// - A page's path is the note's path with its note extension replaced by `.html`; the home note
//   (`index.md`, `README.md` or `home.md` at the root, any case) is `index.html`. Paths are
//   unique: a note whose page would be another's, or one of the site's own files (`_tags/…`,
//   `_notes.html`, `_macmd.css`, `sitemap.xml`), keeps its extension (`notes.markdown.html`). Decided in path
//   order, so the same notes always give the same pages.
// - Pure: made from the index alone.

import NotebookIndex
import MarkdownSyntax

/// The pages of a published site (see the file comment).
public struct SitePages: Sendable, Equatable {
    /// Each published note's page, paths from the site's root.
    public private(set) var pageByNote: [String: String]
    /// The home note, whose page is `index.html`; nil when the notebook has none (the site's
    /// index is then a list of its notes).
    public private(set) var home: String?

    /// The folder of the tag pages, and the site's stylesheet.
    public static let tagFolder = "_tags"
    public static let stylesheet = "_macmd.css"
    public static let index = "index.html"
    public static let sitemap = "sitemap.xml"
    /// The list of every note when a home note is the index.
    public static let notesList = "_notes.html"

    /// The page that lists every note: the index, unless a home note is.
    public var notesPage: String { home == nil ? SitePages.index : SitePages.notesList }

    /// The pages of `notebook`'s published notes; the notes in `excludedFolders` (the
    /// notebook's snippets, which are templates) have none.
    public init(notebook: Notebook, excludedFolders: [String] = []) {
        let extensions = notebook.catalog.noteExtensions
        let excluded = excludedFolders.map { NotebookPath.trimmed($0) }.filter { !$0.isEmpty }.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let published = notebook.notes.filter { note in
            SitePages.isPublished(note.value) && !excluded.contains(where: { note.key.hasPrefix($0) })
        }.map(\.key)
        let ordered = SitePages.readingOrder(published)
        home = ordered.first.flatMap { SitePages.homeRank($0) < SitePages.homeNames.count ? $0 : nil }
        var taken: Set<String> = [SitePages.stylesheet, SitePages.sitemap, SitePages.notesList]
        if home == nil { taken.insert(SitePages.index) }
        var pages: [String: String] = [:]
        pages.reserveCapacity(ordered.count)
        for path in ordered.sorted() {
            var page = path == home ? SitePages.index : NotebookPath.removingExtension(path, extensions) + ".html"
            if taken.contains(page) || page.hasPrefix(SitePages.tagFolder + "/") { page = path + ".html" }
            taken.insert(page)
            pages[path] = page
        }
        pageByNote = pages
    }

    /// The page of the note at `path`; nil when the site leaves it out.
    public func page(of path: String) -> String? { pageByNote[path] }

    /// The page of a tag (without `#`): `_tags/garden/beds.html` for `garden/beds`.
    public static func tagPage(_ tag: String) -> String { tagFolder + "/" + tag + ".html" }

    /// The page listing every tag.
    public static let tagsIndex = tagFolder + "/index.html"

    /// False for a note whose front matter keeps it out of a published site.
    public static func isPublished(_ note: NoteSymbols) -> Bool {
        guard let frontMatter = note.frontMatter else { return true }
        for entry in frontMatter.entries {
            guard case .scalar(let value) = entry.value else { continue }
            let key = entry.key.lowercased()
            let said = value.lowercased()
            if key == "publish", ["false", "no", "off"].contains(said) { return false }
            if key == "draft", ["true", "yes", "on"].contains(said) { return false }
        }
        return true
    }

    static let homeNames = ["index.md", "readme.md", "home.md"]

    static func homeRank(_ path: String) -> Int { homeNames.firstIndex(of: path.lowercased()) ?? homeNames.count }

    /// The notes of a notebook in the order a reader meets them: the home note first, then by
    /// folder and name. The order of a notebook printed as one PDF, and of a site's index.
    public static func readingOrder(_ paths: [String]) -> [String] {
        paths.map { (homeRank($0), $0) }.sorted { $0 < $1 }.map(\.1)
    }
}
