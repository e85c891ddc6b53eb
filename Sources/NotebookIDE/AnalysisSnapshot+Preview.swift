// `macmd/preview` as the view model computes it: a note's text (an open document's version, or a
// file) rendered with its notebook's theme and link resolution.
//
// Invariants: the notebook-profile tree and the line index of an open document's version are
// its `DocumentAnalysis`'s, made once (a repeated preview, or the index, reuses them); the parse
// and the line index run on two cores side by side; wiki-links point where the notebook resolves
// them (`PreviewLinks`), so the preview and the diagnostics never disagree; the page's relative
// URLs lead from the note's folder, or from the notebook's root as `PreviewOptions.resources`
// says (a note in no notebook: its own folder is the root), and `resources` lists only files
// on disk inside that root.

import Dispatch
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

extension AnalysisSnapshot {
    /// The preview of `analysis` (the text of `note`, when it is in a notebook; of the file
    /// `file` when it is one; `fileName` gives the title of last resort), its HTML in pieces,
    /// each passed through `finishPiece` on the core that rendered it. With `pages` (a page of
    /// a published site), links to notes lead to their pages, a note the site leaves out is
    /// text and never shown, a link that reaches nothing has no URL, tags lead to `.html`
    /// pages, and only the notebook's own files (`assets`) count as there.
    public func preview(_ analysis: DocumentAnalysis, note: NoteRef?, file: String? = nil, fileName: String, options: PreviewOptions,
                        pages: SitePages? = nil,
                        finishPiece: (@Sendable ([UInt8]) -> [UInt8])? = nil) -> (preview: Preview, htmlPieces: [[UInt8]]) {
        let folder = note.flatMap(folder(of:))
        var html = HTMLOptions(safe: options.safe, sourceLines: options.sourceLines, headingIDs: true,
                               collapseNestedStrong: options.profile != .commonmark, fullPage: options.fullPage)
        html.theme = options.theme ?? folder?.configuration.previewTheme ?? workspace.editorConfiguration.previewTheme
        html.highlightCode = true
        let place = PreviewPlace(folder: folder, note: note, file: file)
        html.resourceBase = place.flatMap { $0.resourceBase(options) }
        html.math = options.math
        html.scriptNonce = options.scriptNonce
        html.tagPageBase = options.tagPages
        if pages != nil {
            html.tagPageSuffix = ".html"
            html.alignmentClasses = true
        }
        html.locale = options.locale
        html.idPrefix = options.idPrefix
        // The parser uses one core; the line index (for the outline and the HTML's source lines)
        // needs only the bytes, so it is made on the other one meanwhile.
        let tree = ResultBox<SyntaxTree>()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                tree.value = options.profile == .notebook ? analysis.tree
                    : MarkdownParser.parse(analysis.text, options: ParseOptions(profile: options.profile))
            } else {
                _ = analysis.lines
            }
        }
        let parsed = tree.value ?? MarkdownParser.parse(analysis.text, options: ParseOptions(profile: options.profile))
        var embedded: [String] = []
        if let folder, let note {
            // Once per distinct link, before the pieces are rendered on every core.
            let assets = folder.notebook.assets
            let fileExists = pages == nil ? { (path: String) in files.exists(folder.absolutePath(path)) } : { assets.contains($0) }
            let destinations = PreviewLinks.destinations(of: parsed, notebook: folder.notebook, notePath: note.path,
                                                         indexComplete: folder.isIndexComplete, pages: pages, fileExists: fileExists)
            if let symbols = folder.notebook.notes[note.path] {
                (html.linkDestinations, html.markedLinks) = PreviewLinks.markdownDestinations(
                    of: symbols.links, catalog: folder.notebook.catalog, notePath: note.path, pages: pages, assets: assets)
            }
            let transclusion = Transclusion(notebook: folder.notebook, hostPath: note.path, page: html,
                                            parseOptions: folder.configuration.parseOptions,
                                            depth: folder.configuration.previewEmbedDepth, pages: pages,
                                            source: { path in path == note.path ? analysis : source(of: NoteRef(folder: note.folder, path: path)) },
                                            fileExists: fileExists)
            html.wikiLinkDestinations = transclusion.embedding(destinations, of: parsed, notePath: note.path)
            embedded = transclusion.embeddedNotes + transclusion.embeddedFiles
        }
        var (preview, pieces) = PreviewBuilder.buildPieces(tree: parsed, fileName: fileName, html: html, lines: analysis.lines,
                                                           statisticsFooter: options.statisticsFooter, finishPiece: finishPiece)
        if let place {
            // The page's own files, then the notes it embeds and what they show: a client
            // refreshes the page when any of them changes.
            var seen = Set<String>()
            preview.resources = (HTMLRenderer(options: html).localResources(of: parsed) + embedded).compactMap { path in
                seen.insert(path).inserted && files.exists(place.diskPath(path)) ? place.clientPath(path) : nil
            }
        }
        return (preview, pieces)
    }
}

/// Where a previewed note is, for the URLs of its page: its notebook's root (a note in no
/// notebook: its own folder) and its folder in it. The `file:` URLs written into a page are
/// made here, from the root as the client names it.
struct PreviewPlace {
    /// The root as the client names it, and as it is on disk (symlinks resolved), without a
    /// trailing `/` (empty for `/`).
    var clientRoot: String
    var diskRoot: String
    /// The note's folder from the root (`/`-separated, empty at the root).
    var noteFolder: String

    /// The place of `note` in `folder`, else of the file `file` alone; nil for a buffer that is
    /// no file.
    init?(folder: NotebookFolder?, note: NoteRef?, file: String?) {
        if let folder, let note {
            clientRoot = folder.path == "/" ? "" : folder.path
            diskRoot = folder.resolvedPath == "/" ? "" : folder.resolvedPath
            noteFolder = NotebookPath.folder(of: note.path)
        } else if let file, file.hasPrefix("/") {
            clientRoot = NotebookPath.folder(of: file)
            diskRoot = clientRoot
            noteFolder = ""
        } else {
            return nil
        }
    }

    /// The renderer's base for `options`; nil when the page keeps its URLs and has no base.
    func resourceBase(_ options: PreviewOptions) -> ResourceBase? {
        let fileRoot = "file://" + PreviewLinks.encoded(clientRoot) + "/"
        switch options.resources {
        case .relative:
            return ResourceBase(rootURL: fileRoot, noteFolder: noteFolder, rewritesRelativeURLs: false,
                                writesBaseElement: options.baseElement)
        case .absolute:
            return ResourceBase(rootURL: fileRoot, noteFolder: noteFolder, writesBaseElement: options.baseElement)
        case .base(let url):
            return ResourceBase(rootURL: url, noteFolder: noteFolder, writesBaseElement: options.baseElement)
        }
    }

    /// A path from the root on disk, and as the client names it.
    func diskPath(_ path: String) -> String { diskRoot + "/" + path }
    func clientPath(_ path: String) -> String { clientRoot + "/" + path }
}
