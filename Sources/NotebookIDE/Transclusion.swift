// Embeds shown in place: `![[note]]`, `![[note#Heading]]` and `![[note#^block]]` in a preview
// (`macmd/preview`, `macmd render --notebook`) become the note, the section or the block,
// rendered, where they are written. MarkdownHTML knows no notebook: this file decides what each
// embed shows and renders it (`WikiLinkDestination.embed`); the renderer only places the HTML.
//
// Invariants:
// - An embed resolves as every link does (`NoteCatalog.resolve`, the diagnostics' rules); the
//   links, images and embeds inside the embedded text resolve from the embedded note, and their
//   URLs still lead from the host page (a `ResourceBase` for the embedded note's folder).
// - A section is its heading and everything under it until the next heading of the same or a
//   higher level (`DocumentOutline.sectionRanges`); a block is the paragraph or list item its
//   `^id` names. The text shown is the note's as it is now (an open buffer, else the disk).
// - Every embed shown gets its own id prefix (`embed1-`, `embed2-`, …): no heading, block or
//   footnote id inside it can collide with the host page's or another embed's.
// - It always ends: an embed of something already being shown (a note embedding itself, A → B
//   → A), one nested deeper than `depth`, and any once `byteBudget` bytes of embedded text were
//   shown, are links marked `stopped`, with the reason as their title.
// - Pure apart from `source` and `fileExists`, which the caller supplies; never traps.

import Localization
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import TextCore

/// Renders the embeds of a preview page, recursively, within bounds.
public final class Transclusion {
    /// Embeds inside embeds are shown this many levels deep by default (`preview.embedDepth`).
    public static let defaultDepth = 4
    /// The embedded Markdown one page shows at most, in bytes (1 MiB).
    public static let defaultByteBudget = 1 << 20

    let notebook: Notebook
    let parseOptions: ParseOptions
    let source: (String) -> DocumentAnalysis?
    let fileExists: (String) -> Bool
    let depth: Int
    /// The page's options (safety, maths, theme, locale, where tags lead): each embed is
    /// rendered with them, its own destinations and id prefix.
    let page: HTMLOptions
    /// The page's note and its folder, whence its URLs lead.
    let hostPath: String
    /// The pages of a published site the page is one of: links lead to pages, and a note the
    /// site leaves out is never shown; nil for a preview.
    let pages: SitePages?
    var bytesLeft: Int
    var embedsShown = 0
    /// The notes shown in the page, each once, in the order first shown.
    public private(set) var embeddedNotes: [String] = []
    /// The files (images, other embeds) the embedded text shows, paths from the notebook's
    /// root, each once.
    public private(set) var embeddedFiles: [String] = []

    /// `page` is the host page's options with its `resourceBase`, if any, already set.
    public init(notebook: Notebook, hostPath: String, page: HTMLOptions, parseOptions: ParseOptions,
                depth: Int = Transclusion.defaultDepth, byteBudget: Int = Transclusion.defaultByteBudget, pages: SitePages? = nil,
                source: @escaping (String) -> DocumentAnalysis?, fileExists: @escaping (String) -> Bool) {
        self.notebook = notebook
        self.hostPath = hostPath
        self.pages = pages
        self.page = page
        self.parseOptions = parseOptions
        self.depth = max(0, depth)
        self.bytesLeft = max(0, byteBudget)
        self.source = source
        self.fileExists = fileExists
    }

    /// What an embed shows: the place it names, and the key that tells a cycle.
    struct Shown: Hashable {
        var path: String
        var fragment: String
    }

    /// `destinations` (the page's table for `tree`, the note at `notePath`) with each embed of a
    /// note, section or block turned into its content. `shown` holds what encloses `tree`
    /// (the host note itself first).
    public func embedding(_ destinations: WikiLinkDestinations, of tree: SyntaxTree, notePath: String) -> WikiLinkDestinations {
        embedding(destinations, of: tree, notePath: notePath, shown: [Shown(path: notePath, fragment: "")])
    }

    func embedding(_ destinations: WikiLinkDestinations, of tree: SyntaxTree, notePath: String, shown: [Shown]) -> WikiLinkDestinations {
        guard tree.wikiLinks.contains(where: \.isEmbed) else { return destinations }
        var table = destinations
        if table.byIndex.count < tree.wikiLinks.count {
            table.byIndex += [WikiLinkDestination?](repeating: nil, count: tree.wikiLinks.count - table.byIndex.count)
        }
        // Only an embed alone in its paragraph is shown in place; any other is a link.
        let standalone = tree.standaloneEmbeds()
        for (index, info) in tree.wikiLinks.enumerated() where info.isEmbed && standalone[index] {
            let link = PreviewLinks.linkSymbol(of: WikiLinkReference(info, of: tree))
            guard case .note(let path, let heading, let block, _) = notebook.catalog.resolve(link, from: notePath) else { continue }
            // A note the site leaves out stays out, embedded or not.
            if let pages, pages.page(of: path) == nil { continue }
            let url: String
            switch table.byIndex[index] {
            case .url(let written)?: url = written
            // Into the same note (`![[#Heading]]`): its fragment.
            default: url = PreviewLinks.fragment(heading, block, nil)
            }
            table.byIndex[index] = .embed(embed(path: path, heading: heading, block: block, url: url, shown: shown))
        }
        return table
    }

    /// The content of one embed of the note at `path` (its section under `heading`, or its
    /// block `block`), or why it is not shown.
    func embed(path: String, heading: HeadingSymbol?, block: BlockIDSymbol?, url: String, shown: [Shown]) -> EmbeddedNote {
        let fragment = block.map { "#^" + $0.id } ?? heading.map { "#" + $0.slug } ?? ""
        let key = Shown(path: path, fragment: fragment)
        var title = notebook.notes[path]?.title ?? NotebookPath.fileStem(of: path)
        if let block { title += " › ^" + block.id } else if let heading { title += " › " + heading.text }
        func stopped(_ reason: LocalizedText) -> EmbeddedNote {
            EmbeddedNote(url: url, source: path + fragment, title: title, html: nil, reason: reason.string(in: page.locale))
        }
        if shown.contains(key) { return stopped(LocalizedText("preview.embed.cycle")) }
        if shown.count > depth { return stopped(LocalizedText("preview.embed.depth", .string(String(depth)))) }
        guard let analysis = source(path) else { return stopped(LocalizedText("preview.embed.unreadable")) }
        // The place in the text as it is now (the index may hold an older version).
        let symbols = analysis.symbols(path: path)
        var region = ByteSpan(0, analysis.text.count)
        if let block {
            guard let now = symbols.blockIDs.first(where: { $0.id == block.id }) else { return stopped(LocalizedText("preview.embed.unreadable")) }
            region = now.blockRange
        } else if let heading {
            let headings = Array(symbols.headings)
            guard let position = headings.firstIndex(where: { $0.slug == heading.slug }) else {
                return stopped(LocalizedText("preview.embed.unreadable"))
            }
            region = DocumentOutline.sectionRanges(headings: headings, source: analysis.text)[position]
        }
        guard region.count <= bytesLeft else { return stopped(LocalizedText("preview.embed.size")) }
        bytesLeft -= region.count
        if !embeddedNotes.contains(path) { embeddedNotes.append(path) }
        let tree = region == ByteSpan(0, analysis.text.count) ? analysis.tree
            : MarkdownParser.parse(excerpt(region, of: analysis, symbols: symbols), options: parseOptions)

        embedsShown += 1
        var options = page
        options.fullPage = false
        options.sourceLines = false
        options.headingIDs = true
        options.idPrefix = "embed\(embedsShown)-"
        options.resourceBase = base(forNoteIn: NotebookPath.folder(of: path))
        let catalog = notebook.catalog
        let assets = notebook.assets
        let pages = pages
        (options.linkDestinations, options.markedLinks) = PreviewLinks.markdownDestinations(of: symbols.links, catalog: catalog, notePath: path,
                                                                                           pages: pages, assets: assets)
        let own = WikiLinkDestinations.resolving(tree) { reference in
            PreviewLinks.destination(of: reference, catalog: catalog, assets: assets, from: path, pages: pages, fileExists: fileExists)
        }
        options.wikiLinkDestinations = embedding(own, of: tree, notePath: path, shown: shown + [key])
        let renderer = HTMLRenderer(options: options)
        for file in renderer.localResources(of: tree) where notebook.notes[file] == nil && !embeddedFiles.contains(file) {
            embeddedFiles.append(file)
        }
        return EmbeddedNote(url: url, source: path + fragment, title: title, html: renderer.render(tree))
    }

    /// Where the relative URLs of a note in `folder` lead when its text is shown in the page:
    /// the page's base moved to that folder, or, for a page whose URLs stay relative, a base
    /// made of the climb from the page's folder to the root (nil when the folders are one).
    func base(forNoteIn folder: String) -> ResourceBase? {
        if let base = page.resourceBase, base.rewritesRelativeURLs {
            return ResourceBase(rootURL: base.rootURL, noteFolder: folder)
        }
        let hostFolder = NotebookPath.folder(of: hostPath)
        if folder == hostFolder { return nil }
        let climbs = hostFolder.isEmpty ? 0 : hostFolder.split(separator: "/").count
        return ResourceBase(rootURL: climbs == 0 ? "./" : String(repeating: "../", count: climbs), noteFolder: folder)
    }

    /// The text of `region` (a section or block of `analysis`) followed by the note's footnote
    /// and link reference definitions outside it, so its `[^note]` and `[text][ref]` still
    /// reach them. (Only definitions at the top level and, for links, on one line: the text of
    /// a nested one carries its container's markers.)
    func excerpt(_ region: ByteSpan, of analysis: DocumentAnalysis, symbols: NoteSymbols) -> [UInt8] {
        let text = analysis.text
        func clamped(_ span: ByteSpan) -> Range<Int> {
            let start = max(0, min(Int(span.start), text.count))
            return start..<max(start, min(Int(span.end), text.count))
        }
        var result = Array(text[clamped(region)])
        func append(_ span: ByteSpan) {
            guard span.end <= region.start || span.start >= region.end else { return }
            result.append(contentsOf: [0x0A, 0x0A])
            result.append(contentsOf: text[clamped(span)])
        }
        for definition in symbols.linkDefinitions where !text[clamped(definition.range)].contains(0x0A) {
            append(definition.range)
        }
        let tree = analysis.tree
        for definition in tree.footnoteDefinitions where tree.isNode(definition.node) {
            let node = tree.nodes[Int(definition.node)]
            if node.parent == SyntaxTree.root { append(ByteSpan(Int(node.sourceStart), Int(node.sourceEnd))) }
        }
        return result
    }
}
