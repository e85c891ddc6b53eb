// A notebook as a static website (`macmd export NOTEBOOK --out DIR`): one page per published
// note, rendered as the preview renders it, then an index, a page of all tags and one page per
// tag. This file decides what the site holds and makes each page's bytes; the exporter writes
// them (and copies the files they show), so everything here is pure and runs on any core.
//
// Invariants:
// - Which notes are published and where their pages are is `SitePages`' one decision; a link
//   to a note leads to its page (`PreviewLinks` with `pages`), a link to a note left out is
//   text, a broken link is marked and has no URL, and no page shows a left-out note's text.
// - Every URL a page writes is relative (the climb from the page's folder to the site's root,
//   then a path from there), so the site works from `file://`, from any server, under any path;
//   only the sitemap, which needs them, has absolute URLs (`SiteOptions.baseURL`).
// - A page is a function of the index and the notes' texts: the same notebook gives the same
//   bytes (no dates, no counters), so an exporter can tell a changed page by its bytes.
// - No script: every page has a Content-Security-Policy that allows none, styles and images
//   from the site only (images also from `https:` and `data:`, as notes show them).

import Localization
import MarkdownHTML
import NotebookIndex
import NotebookWorkspace
import Themes

/// How a site is made.
public struct SiteOptions: Sendable, Equatable {
    /// The pages' theme; nil takes the notebook's (`preview.theme`), else light.
    public var theme: PreviewTheme? = nil
    /// The language of what MacMD writes on the pages (navigation, backlinks, tag pages).
    public var locale: SupportedLocale = .en
    /// The site's name, in every page's header; empty takes the notebook folder's name.
    public var title = ""
    /// The URL the site will be served from, for the sitemap (`sitemap.xml`, written only
    /// with it).
    public var baseURL: String? = nil
    public init() {}
}

/// One file of the site: its path from the site's root and its bytes.
public struct SitePage: Sendable, Equatable {
    public var path: String
    public var bytes: [UInt8]
}

/// A notebook's site (see the file comment).
public struct Site: Sendable {
    /// What the site has a page for.
    public enum Item: Sendable, Hashable {
        /// A published note, by its path in the notebook.
        case note(String)
        /// The list of notes by folder: the index when the notebook has no home note, else
        /// `_notes.html`.
        case index
        /// The page of all tags.
        case tags
        /// The page of one tag (without `#`).
        case tag(String)
    }

    let snapshot: AnalysisSnapshot
    let folder: NotebookFolder
    let options: SiteOptions
    let theme: PreviewTheme
    public let pages: SitePages
    /// Each tag the published notes use (and each tag above a nested one), with those notes.
    let notesByTag: [String: Set<String>]
    /// The site's name.
    public let title: String

    /// The site of the notebook at `folderPath` in `snapshot`; nil when there is none.
    public init?(snapshot: AnalysisSnapshot, folderPath: String, options: SiteOptions) {
        guard let folder = snapshot.workspace.folder(folderPath) else { return nil }
        self.snapshot = snapshot
        self.folder = folder
        self.options = options
        theme = options.theme ?? folder.configuration.previewTheme ?? .light
        let pages = SitePages(notebook: folder.notebook, excludedFolders: folder.configuration.snippetsFolder.map { [$0] } ?? [])
        self.pages = pages
        var byTag: [String: Set<String>] = [:]
        for (path, _) in pages.pageByNote {
            guard let note = folder.notebook.notes[path] else { continue }
            for tag in note.tags {
                // The tag and each tag it is nested under (`garden/beds`: `garden` too).
                var name = Substring(tag.name)
                while true {
                    byTag[String(name), default: []].insert(path)
                    guard let slash = name.lastIndex(of: "/") else { break }
                    name = name[..<slash]
                }
            }
        }
        notesByTag = byTag
        let folderName = NotebookPath.lastComponent(of: folder.path)
        title = options.title.isEmpty ? (folderName.isEmpty ? "/" : folderName) : options.title
    }

    /// Every page of the site: the notes in reading order, then the list of notes, the page of
    /// all tags and each tag's page in name order.
    public var items: [Item] {
        var result = SitePages.readingOrder(Array(pages.pageByNote.keys)).map(Item.note)
        result.append(.index)
        result.append(.tags)
        result += notesByTag.keys.sorted().map(Item.tag)
        return result
    }

    /// The path of an item's page from the site's root.
    public func path(of item: Item) -> String {
        switch item {
        case .note(let path): return pages.page(of: path) ?? path + ".html"
        case .index: return pages.notesPage
        case .tags: return SitePages.tagsIndex
        case .tag(let name): return SitePages.tagPage(name)
        }
    }

    /// The files of the notebook (not notes) that published pages link to or show: what the
    /// exporter copies, paths from the notebook's root, sorted.
    public var files: [String] {
        let notebook = folder.notebook
        var result = Set<String>()
        for path in pages.pageByNote.keys {
            guard let note = notebook.notes[path] else { continue }
            for link in note.links {
                if case .file(let file) = notebook.catalog.resolve(link, from: path), notebook.assets.contains(file) {
                    result.insert(file)
                }
            }
        }
        return result.sorted()
    }

    /// The site's stylesheet: the theme's, and the rules of the site's own parts.
    public var stylesheet: SitePage {
        SitePage(path: SitePages.stylesheet, bytes: Array(theme.siteStylesheet.utf8))
    }

    /// The sitemap (every page's absolute URL under `baseURL`); nil without a base URL.
    public var sitemap: SitePage? {
        guard var base = options.baseURL, !base.isEmpty else { return nil }
        if !base.hasSuffix("/") { base += "/" }
        // l10n-exempt: XML markup
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for item in items {
            text += "<url><loc>" + SiteHTML.escaped(base + PreviewLinks.encoded(path(of: item))) + "</loc></url>\n"
        }
        text += "</urlset>\n"
        return SitePage(path: SitePages.sitemap, bytes: Array(text.utf8))
    }
}
