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

import Dispatch
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
    /// Those tags in name order (a tag before those nested under it).
    let tagNames: [String]
    /// For each published note, the published notes with a link that reaches it (a heading or
    /// block of it, or one it lacks), in title order.
    let backlinks: [String: [String]]
    /// Each published note's place in title order (case and accents folded, then path).
    let titleRank: [String: Int]
    /// Every page of the site: the notes in reading order, then the list of notes, the page of
    /// all tags and each tag's page in name order.
    public let items: [Item]
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
        tagNames = byTag.keys.sorted()
        let folderName = NotebookPath.lastComponent(of: folder.path)
        title = options.title.isEmpty ? (folderName.isEmpty ? "/" : folderName) : options.title
        var ranks: [String: Int] = [:]
        ranks.reserveCapacity(pages.pageByNote.count)
        let byTitle = pages.pageByNote.keys.map { (Site.title(of: $0, in: folder.notebook).folded, $0) }.sorted { $0 < $1 }
        for (rank, entry) in byTitle.enumerated() { ranks[entry.1] = rank }
        titleRank = ranks
        (backlinks, files) = Site.links(of: pages, in: folder.notebook, ranks: ranks)
        var items = SitePages.readingOrder(Array(pages.pageByNote.keys)).map(Item.note)
        items += [.index, .tags] + tagNames.map(Item.tag)
        self.items = items
    }

    /// What the published notes' links reach: for each published note, the published notes
    /// that link to it, in title order; and the notebook's files they link to or show, sorted.
    /// Every link of every published note is resolved once (on every core), rather than each
    /// note's linkers' links once per note they link to.
    static func links(of pages: SitePages, in notebook: Notebook, ranks: [String: Int]) -> (backlinks: [String: [String]], files: [String]) {
        let sources = Array(pages.pageByNote.keys)
        let parts = max(1, min(64, sources.count / 64))
        let found = ResultsBox<([String: Set<String>], Set<String>)>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var linkers: [String: Set<String>] = [:]
            var files = Set<String>()
            for index in stride(from: part, to: sources.count, by: parts) {
                let source = sources[index]
                guard let note = notebook.notes[source] else { continue }
                for link in note.links {
                    switch notebook.catalog.resolve(link, from: source) {
                    case .note(let target, _, _, _), .brokenHeading(let target, _), .brokenBlock(let target, _):
                        if target != source, pages.page(of: target) != nil { linkers[target, default: []].insert(source) }
                    case .file(let file):
                        if notebook.assets.contains(file) { files.insert(file) }
                    default:
                        break
                    }
                }
            }
            found.set(part, (linkers, files))
        }
        var merged: [String: Set<String>] = [:]
        var files = Set<String>()
        for part in 0..<parts {
            guard let (linkers, linked) = found.value(part) else { continue }
            for (target, sources) in linkers { merged[target, default: []].formUnion(sources) }
            files.formUnion(linked)
        }
        let ordered = merged.mapValues { sources in sources.map { (ranks[$0, default: .max], $0) }.sorted { $0 < $1 }.map(\.1) }
        return (ordered, files.sorted())
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
    public let files: [String]

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

/// One result per `concurrentPerform` iteration, each slot written by its iteration alone and
/// read after the join (which orders the writes before the reads), so no lock is needed.
public final class ResultsBox<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    public init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    /// Sets slot `index`: only by the iteration that owns it.
    public func set(_ index: Int, _ value: Value?) { slots[index] = value }
    /// Slot `index`, after the iterations joined.
    public func value(_ index: Int) -> Value? { slots[index] }
}
