// Where the preview's wiki-links and embeds point: the notebook's link resolution (the same
// rules as diagnostics, navigation and `macmd check`) turned into URLs relative to the previewed
// note, for `HTMLOptions.wikiLinkResolver`.
//
// Invariants: pure apart from `fileExists`, which the caller supplies (the server checks the
// disk); never traps on any link text. A URL is relative to the previewed note's folder,
// percent-encoded (every byte but ASCII letters, digits, `-._~` and `/`), and ends in `#slug` (the
// target heading's id in the target's own preview) or `#^id` for a block.

import MarkdownHTML
import MarkdownSyntax
import NotebookIndex

public enum PreviewLinks {
    /// Where the wiki-links of `tree`, the note at `notePath` (workspace-relative) in `notebook`,
    /// point: for `HTMLOptions.wikiLinkDestinations`. `fileExists` says whether a
    /// workspace-relative path is on disk: a wiki-link to a file the notebook does not list
    /// (`![[scan.tiff]]`) is checked there. While the notebook's index is not complete
    /// (`indexComplete` false: its first scan is running), a link whose target is not found is
    /// left to the renderer, not marked broken: the scan may not have reached the target yet.
    /// With `pages` (a published site), a link to a note leads to its page, and one to a note
    /// the site leaves out is text (`.unpublished`).
    public static func destinations(of tree: SyntaxTree, notebook: Notebook, notePath: String, indexComplete: Bool = true,
                                    pages: SitePages? = nil, fileExists: (String) -> Bool) -> WikiLinkDestinations {
        let catalog = notebook.catalog
        let assets = notebook.assets
        return WikiLinkDestinations.resolving(tree) { reference in
            let found = destination(of: reference, catalog: catalog, assets: assets, from: notePath, pages: pages, fileExists: fileExists)
            if !indexComplete, case .broken? = found { return nil }
            return found
        }
    }

    /// Where `reference`, written in the note at `notePath`, points; nil for a link the renderer
    /// handles best itself: one into the same note (`[[#Heading]]`, whose `#slug` the renderer
    /// computes from the text being shown, which may be newer than the index) and a URL.
    public static func destination(of reference: WikiLinkReference, catalog: NoteCatalog, assets: Set<String>,
                                   from notePath: String, pages: SitePages? = nil, fileExists: (String) -> Bool) -> WikiLinkDestination? {
        if NotebookPath.trimmed(reference.target).isEmpty { return nil }
        let link = linkSymbol(of: reference)
        switch catalog.resolve(link, from: notePath) {
        case .ambiguous(let candidates):
            // The first candidate, by its full path (which reaches it alone), marked ambiguous.
            guard let first = candidates.first else { return .broken }
            var chosen = link
            chosen.target.text = first
            if case .url(let url)? = url(of: catalog.resolve(chosen, from: notePath), from: notePath, assets: assets,
                                         pages: pages, fileExists: fileExists) {
                return .ambiguous(url)
            }
            // The candidate lacks the heading or block the link names: the candidate itself.
            guard let page = pages.map({ $0.page(of: first) }) ?? first else { return .ambiguous(nil) }
            return .ambiguous(encoded(NotebookPath.relativePath(from: NotebookPath.folder(of: notePath), to: page)))
        case let resolution:
            return url(of: resolution, from: notePath, assets: assets, pages: pages, fileExists: fileExists)
        }
    }

    /// `reference` as the index records a link (no ranges), for the catalog's resolution.
    static func linkSymbol(of reference: WikiLinkReference) -> LinkSymbol {
        LinkSymbol(form: reference.isEmbed ? .wikiEmbed : .wikiLink,
                   target: LinkSymbol.Part(text: reference.target, range: .empty),
                   headings: reference.headings.map { LinkSymbol.Part(text: $0, range: .empty) },
                   blockID: reference.blockID.map { LinkSymbol.Part(text: $0, range: .empty) },
                   range: .empty)
    }

    /// The destination of a resolved wiki-link written in the note at `notePath`.
    private static func url(of resolution: Resolution, from notePath: String, assets: Set<String>, pages: SitePages?,
                            fileExists: (String) -> Bool) -> WikiLinkDestination? {
        let folder = NotebookPath.folder(of: notePath)
        switch resolution {
        case .note(let path, let heading, let block, let htmlID):
            guard let page = pages.map({ $0.page(of: path) }) ?? path else { return .unpublished }
            return .url(encoded(NotebookPath.relativePath(from: folder, to: page)) + fragment(heading, block, htmlID))
        case .file(let path):
            guard assets.contains(path) || fileExists(path) else { return .broken }
            return .url(encoded(NotebookPath.relativePath(from: folder, to: path)))
        case .external, .outside:
            return nil
        case .ambiguous:
            return .ambiguous(nil)
        case .brokenNote, .brokenHeading, .brokenBlock:
            return .broken
        }
    }

    /// Where the preview's Markdown links and images of the note at `notePath` (its `links`)
    /// point when their path as written leads elsewhere: a link found by name
    /// (`links.markdownResolution: obsidian`) or a published page (`chapter.html` for
    /// `chapter.md`), by destination as written (`LinkSymbol.destination`), to the URL of what
    /// it reaches, relative to the note, for `HTMLOptions.linkDestinations`. A link whose path
    /// reaches its target as written (its extension aside) is left as it is.
    public static func markdownDestinations<Links: Sequence<LinkSymbol>>(of links: Links, catalog: NoteCatalog, notePath: String) -> [String: String] {
        markdownDestinations(of: links, catalog: catalog, notePath: notePath, pages: nil).urls
    }

    /// The same for a page of a published site (`pages`): every link to a note leads to its
    /// page; one to a note the site leaves out, or that reaches nothing (no such note, heading,
    /// block or file among `assets`), is marked (`HTMLOptions.markedLinks`).
    public static func markdownDestinations<Links: Sequence<LinkSymbol>>(of links: Links, catalog: NoteCatalog, notePath: String,
                                                                        pages: SitePages?, assets: Set<String> = [])
        -> (urls: [String: String], marks: [String: LinkMark]) {
        let folder = NotebookPath.folder(of: notePath)
        var result: [String: String] = [:]
        var marks: [String: LinkMark] = [:]
        for link in links where !link.form.isWiki && link.form != .autolink && !link.target.text.isEmpty {
            let written = NotebookPath.percentDecoded(link.target.text)
            if NotebookPath.isExternal(written) { continue }
            let reached: String
            var anchor = ""
            switch catalog.resolve(link, from: notePath) {
            case .note(let path, let heading, let block, let htmlID):
                anchor = fragment(heading, block, htmlID)
                if let pages {
                    guard let page = pages.page(of: path) else {
                        marks[link.destination] = .unpublished
                        continue
                    }
                    // A site's page is never where the link as written leads (`.md`).
                    result[link.destination] = encoded(NotebookPath.relativePath(from: folder, to: page)) + anchor
                    continue
                }
                reached = path
            case .file(let path):
                if pages != nil, !assets.contains(path) {
                    marks[link.destination] = .broken
                    continue
                }
                reached = path
            case .brokenNote, .brokenHeading, .brokenBlock, .ambiguous:
                if pages != nil { marks[link.destination] = .broken }
                continue
            default:
                continue
            }
            // As written, from the note's folder (or the root for `/…`).
            let base = written.hasPrefix("/") ? "" : folder
            let literal = NotebookPath.normalized(base.isEmpty ? written : base + "/" + written)
            if let literal, NotebookPath.removingExtension(literal, catalog.noteExtensions)
                == NotebookPath.removingExtension(reached, catalog.noteExtensions) { continue }
            result[link.destination] = encoded(NotebookPath.relativePath(from: folder, to: reached)) + anchor
        }
        return (result, marks)
    }

    /// The URL fragment of a place in a note: `#^id` for a block, the heading's `#slug`, an HTML
    /// id; empty for the note itself.
    static func fragment(_ heading: HeadingSymbol?, _ block: BlockIDSymbol?, _ htmlID: HTMLIDSymbol?) -> String {
        if let block { return "#^" + encoded(block.id) }
        if let heading { return "#" + encoded(heading.slug) }
        if let htmlID { return "#" + encoded(htmlID.id) }
        return ""
    }

    /// `text` with every byte but ASCII letters, digits, `-._~` and `/` percent-encoded, so a
    /// `%`, `#`, `?` or space in a file name or heading id cannot change what the URL means.
    static func encoded(_ text: String) -> String {
        NotebookPath.percentEncoded(text) { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                return false
            default:
                return true
            }
        }
    }
}
