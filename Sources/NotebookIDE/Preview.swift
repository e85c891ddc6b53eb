// The live preview of a note: rendered HTML plus what an editor shows around it (title,
// outline, counts). Plain values in, plain values out: no JSON, no IO (the server converts).
//
// Invariants: never fails on any tree; counts are over the text a reader sees (front matter,
// markup, raw HTML and link destinations excluded); heading ids are exactly the HTML's.

import Dispatch
import Localization
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import TextCore
import Themes

/// What `macmd/preview` returns, before conversion to LSP.
public struct Preview: Sendable, Equatable {
    public struct Heading: Sendable, Equatable {
        public var level: Int
        public var text: String
        public var id: String
        /// 0-based line of the heading in the source.
        public var line: Int
    }
    public var html: [UInt8]
    public var title: String
    public var headings: [Heading]
    public var wordCount: Int
    public var characterCount: Int
    public var readingTimeMinutes: Int
    /// The local files the page shows (images and embeds), absolute paths as the client names
    /// the notebook's folder: only files on disk inside the note's notebook, each once, in
    /// document order. Filled by `AnalysisSnapshot.preview`.
    public var resources: [String] = []
}

/// Options a client may set for one preview.
public struct PreviewOptions: Sendable, Equatable {
    public var profile: ParseOptions.Profile = .notebook
    /// The page's theme; nil takes the notebook's (`preview.theme`), else the editor's setting.
    public var theme: PreviewTheme? = nil
    public var fullPage = false
    public var sourceLines = true
    public var safe = true
    /// How the page's relative URLs reach the notebook's files.
    public var resources = PreviewResources.relative
    /// Write `<base href>` (the note's folder, as `resources` gives it) in a full page's head.
    public var baseElement = false
    /// How maths is written: MathML by default (a preview is a browser, which draws it without a
    /// script), or TeX for a client that typesets it itself.
    public var math = MathMarkup.mathML
    /// The nonce of the client's script that a full page's Content-Security-Policy allows; nil
    /// allows none.
    public var scriptNonce: String? = nil
    /// Where tag chips lead: this URL and the tag's name, a page of its notes (`tagPage`), which
    /// the client serves; nil keeps `#tag`.
    public var tagPages: String? = nil
    /// The writer's language, for the text MacMD writes on the page (its footer, the reason an
    /// embed is not shown, a formula's error).
    public var locale: SupportedLocale = .en
    /// A full page ends with the note's counts (words, characters, reading time).
    public var statisticsFooter = true
    /// Prefixed to every id of the page (`HTMLOptions.idPrefix`): notes printed one after the
    /// other in one document keep their ids apart.
    public var idPrefix = ""
    public init() {}
}

/// How a preview page's relative URLs (Markdown links and images, wiki-links and embeds) reach
/// the notebook's files (`ResourceBase`).
public enum PreviewResources: Sendable, Equatable {
    /// As written: relative to the note, for a page shown from the note's folder.
    case relative
    /// Absolute `file:` URLs of the files they name.
    case absolute
    /// Absolute under this URL, which stands for the notebook's root (an editor's webview URL
    /// of that folder); `/x` and `note.md` become that URL plus their path from the root.
    case base(String)
}

public enum PreviewBuilder {
    /// Parses `source` and builds its preview. `fileName` (without folders) is the title of last
    /// resort.
    public static func build(source: [UInt8], fileName: String, options: PreviewOptions,
                             html htmlOptions: HTMLOptions) -> Preview {
        let tree = MarkdownParser.parse(source, options: ParseOptions(profile: options.profile))
        return build(tree: tree, fileName: fileName, html: htmlOptions)
    }

    public static func build(tree: SyntaxTree, fileName: String, html htmlOptions: HTMLOptions) -> Preview {
        var (preview, pieces) = buildPieces(tree: tree, fileName: fileName, html: htmlOptions)
        if pieces.count == 1 {
            preview.html = pieces[0]
        } else {
            var html: [UInt8] = []
            html.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
            for piece in pieces { html.append(contentsOf: piece) }
            preview.html = html
        }
        return preview
    }

    /// The preview with its HTML left in consecutive pieces (`preview.html` is empty): the
    /// server escapes each piece for JSON on the core that rendered it (`finishPiece`) and sends
    /// the pieces as they are, so a large HTML is never joined, copied into a `String` and
    /// escaped on one core.
    /// `lines`, when given, is the line index of `tree.source` (the server builds it on the other
    /// core while the parser runs).
    public static func buildPieces(tree: SyntaxTree, fileName: String, html htmlOptions: HTMLOptions,
                                   lines: LineIndex? = nil, statisticsFooter: Bool = true,
                                   finishPiece: (@Sendable ([UInt8]) -> [UInt8])? = nil)
        -> (preview: Preview, htmlPieces: [[UInt8]]) {
        // Heading ids first: the outline and the (possibly split) rendering both use them.
        let anchors = tree.headingAnchors()
        var title = tree.frontMatter?.title ?? ""
        if title.isEmpty, let h1 = anchors.first(where: { $0.level == 1 }) { title = h1.text }
        if title.isEmpty { title = NotebookPath.fileStem(of: fileName) }
        var options = htmlOptions
        if options.fullPage && options.title == nil { options.title = title }
        // A full page shows the counts in its footer: counted before the pieces are rendered
        // (a walk of the tree, a fraction of the rendering), else alongside them.
        let pageCounts = options.fullPage && statisticsFooter ? TextStatistics(tree: tree) : nil
        if let pageCounts {
            options.pageStatistics = HTMLOptions.PageStatistics(words: pageCounts.words, characters: pageCounts.characters,
                                                                readingMinutes: pageCounts.readingMinutes)
        }
        // One line index for the outline and every piece of the HTML.
        let lines = lines ?? LineIndex(utf8: tree.source)

        // The HTML in pieces on all cores, the outline's lines and the counts alongside: all of
        // them only read the tree.
        let outline = ResultBox<([Preview.Heading], TextStatistics)>()
        let pieces = HTMLRenderer(options: options).renderPieces(tree, anchors: anchors, lines: lines, alongside: {
            let headings = anchors.map {
                Preview.Heading(level: $0.level, text: $0.text, id: $0.id,
                                line: lines.line(containingUTF8Offset: Int(tree.nodes[Int($0.node)].sourceStart)))
            }
            outline.value = (headings, pageCounts ?? TextStatistics(tree: tree))
        }, finishPiece: finishPiece)
        let (headings, counts) = outline.value ?? ([], TextStatistics())
        let preview = Preview(html: [], title: title, headings: headings, wordCount: counts.words,
                              characterCount: counts.characters, readingTimeMinutes: counts.readingMinutes)
        return (preview, pieces)
    }
}

/// One result written by one `concurrentPerform` iteration and read after it returns (the join
/// orders the write before the read), so no lock is needed.
final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
