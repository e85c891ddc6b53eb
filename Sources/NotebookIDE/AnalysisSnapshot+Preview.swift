// `macmd/preview` as the view model computes it: a note's text (an open document's version, or a
// file) rendered with its notebook's theme and link resolution.
//
// Invariants: the notebook-profile tree and the line index of an open document's version are
// its `DocumentAnalysis`'s, made once (a repeated preview, or the index, reuses them); the parse
// and the line index run on two cores side by side; wiki-links point where the notebook resolves
// them (`PreviewLinks`), so the preview and the diagnostics never disagree.

import Dispatch
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

extension AnalysisSnapshot {
    /// The preview of `analysis` (the text of `note`, when it is in a notebook; `fileName` gives
    /// the title of last resort), its HTML in pieces, each passed through `finishPiece` on the
    /// core that rendered it.
    public func preview(_ analysis: DocumentAnalysis, note: NoteRef?, fileName: String, options: PreviewOptions,
                        finishPiece: (@Sendable ([UInt8]) -> [UInt8])? = nil) -> (preview: Preview, htmlPieces: [[UInt8]]) {
        let folder = note.flatMap(folder(of:))
        var html = HTMLOptions(safe: options.safe, sourceLines: options.sourceLines, headingIDs: true,
                               collapseNestedStrong: options.profile != .commonmark, fullPage: options.fullPage)
        html.theme = options.theme ?? folder?.configuration.previewTheme ?? workspace.editorConfiguration.previewTheme
        html.highlightCode = true
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
        if let folder, let note {
            // Once per distinct link, before the pieces are rendered on every core.
            html.wikiLinkDestinations = PreviewLinks.destinations(of: parsed, notebook: folder.notebook, notePath: note.path,
                                                                  indexComplete: folder.isIndexComplete) {
                files.exists(folder.absolutePath($0))
            }
            if let symbols = folder.notebook.notes[note.path] {
                html.linkDestinations = PreviewLinks.markdownDestinations(of: symbols.links, catalog: folder.notebook.catalog,
                                                                          notePath: note.path)
            }
        }
        return PreviewBuilder.buildPieces(tree: parsed, fileName: fileName, html: html, lines: analysis.lines, finishPiece: finishPiece)
    }
}
