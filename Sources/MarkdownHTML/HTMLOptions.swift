// Options of the HTML renderer. Plain values; the renderer reads them, never changes them.

import Localization
import Themes

/// How the renderer writes a formula. Either way it sits in the same wrapper,
/// `<span class="math math-inline">`, `<span class="math math-display">` (display maths in a
/// paragraph) or `<div class="math math-display">` (a block), so a theme styles both alike.
/// Raw values are the names clients use (`macmd render --math`, `macmd/preview`'s `math`).
public enum MathMarkup: String, CaseIterable, Sendable {
    /// The TeX source between `\(…\)` or `\[…\]`, escaped, for KaTeX or MathJax to typeset.
    case tex
    /// The `<math>` element of MathML Core (`TeXMath`); a formula the converter does not
    /// understand is its source in `<code class="math-error" title="why">`.
    case mathML = "mathml"

    /// The names, comma-separated, for usage and error messages.
    public static var namesList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Why a Markdown link is written without its URL (`HTMLOptions.markedLinks`).
public enum LinkMark: Sendable, Equatable {
    case broken
    case unpublished
}

/// How `HTMLRenderer` writes HTML.
public struct HTMLOptions: Sendable, Equatable {
    /// Safe mode: raw HTML is replaced by `<!-- raw HTML omitted -->` (as cmark does without
    /// `--unsafe`), and `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs become an
    /// empty `href`/`src`. On by default: previews show untrusted notes.
    public var safe: Bool
    /// Write `data-source-line="N"` (1-based line of the block's first byte) on block elements.
    public var sourceLines: Bool
    /// Give headings GitHub-style `id`s (`## Hello, World` -> `id="hello-world"`, repeats `-1`, `-2`).
    public var headingIDs: Bool
    /// Write `<strong>` directly inside `<strong>` as one element, as GitHub and cmark-gfm do.
    public var collapseNestedStrong: Bool
    /// Wrap the output in a complete HTML page with inline CSS.
    public var fullPage: Bool
    /// The page title for `fullPage`; nil uses the text of the first heading, else "Untitled".
    public var title: String?
    /// Render `#tag` as `<a class="tag" href="#tag">`; otherwise as `<span class="tag">`.
    public var tagLinks: Bool
    /// With `tagLinks`, where a tag leads: this URL followed by the tag's name (without `#`,
    /// percent-encoded as a URL path is), a page of the tag's notes; nil leads to `#tag` in the page.
    public var tagPageBase: String? = nil
    /// Write a table column's alignment as a class (`align-center`, which the stylesheet
    /// aligns) rather than the `align` attribute cmark writes, which HTML5 made obsolete: for
    /// pages that must validate and whose policy allows no inline style.
    public var alignmentClasses = false
    /// With `tagPageBase`, written after the tag's name (`.html` for the files of a site).
    public var tagPageSuffix: String = ""
    /// Render `^block-id` as an empty anchor `<span class="block-id" id="^id"></span>`; otherwise drop it.
    public var blockIDAnchors: Bool
    /// Appended to a wiki-link target that has no extension of its own (`[[note]]` -> `note.md`).
    public var wikiLinkExtension: String
    /// Where the wiki-links and wiki embeds of the tree being rendered point, decided by a caller
    /// that knows the notebook (the preview); nil (the default) points them at their target as
    /// written. Made for one tree (`WikiLinkDestinations.resolving`).
    public var wikiLinkDestinations: WikiLinkDestinations?
    /// Markdown link and image destinations (as the renderer reads them: decoded, percent escapes
    /// kept) that are written as another URL: where a notebook finds a link by name or a
    /// published page (`chapter.html` for `chapter.md`), decided by a caller that knows the
    /// notebook (the preview). Empty (the default): every destination as written.
    public var linkDestinations: [String: String] = [:]
    /// Markdown link destinations (as `linkDestinations` keys them) written without a URL: a
    /// link that reaches nothing (`.broken`: `<a class="broken">`, as a broken wiki-link) or a
    /// note the pages being made leave out (`.unpublished`: its text in
    /// `<span class="unpublished">`). Empty (the default): every link has its URL.
    public var markedLinks: [String: LinkMark] = [:]
    /// Where the page's relative URLs lead (absolute under a URL standing for the notebook's
    /// root) and whether a full page has a `<base>`; nil (the default): URLs as written.
    public var resourceBase: ResourceBase? = nil
    /// The nonce of the one script a client adds to a `fullPage` page (an editor's webview
    /// script), which the page's Content-Security-Policy then allows; nil allows no script.
    /// Letters, digits and `+/=_-` only (`HTMLOptions.isValidNonce`).
    public var scriptNonce: String? = nil
    /// Prefixed to every id the page writes (heading ids, block anchors, footnotes) and to the
    /// in-page links the renderer makes to them (`[[#Heading]]`, footnote references, a Markdown
    /// link to `#fragment`): the HTML of an embedded note keeps its ids apart from its host
    /// page's. Empty (the default): ids as GitHub writes them.
    public var idPrefix: String = ""
    /// The colour theme of the inline stylesheet of `fullPage` output.
    public var theme: PreviewTheme
    /// Highlight fenced code of known languages with `<span class="hl-…">` (`CodeHighlighter`);
    /// off, code blocks are written exactly as cmark writes them.
    public var highlightCode: Bool
    /// How maths is written (`$…$`, `$$…$$`, ```` ```math ```` and the TeX delimiters): as
    /// its TeX for KaTeX or MathJax (the default, so the spec and golden output never change),
    /// or as MathML that browsers draw without a script.
    public var math: MathMarkup = .tex
    /// The writer's language, for the text a page shows that MacMD wrote: today the tooltip of a
    /// formula the converter did not understand (`math-error`). English by default, so spec and
    /// golden output never change.
    public var locale: SupportedLocale = .en
    /// The counts a `fullPage` shows in its footer, in `locale`; nil (the default): no footer.
    public var pageStatistics: PageStatistics? = nil

    /// What a page's footer counts (NotebookIDE's `TextStatistics` of the note).
    public struct PageStatistics: Sendable, Equatable {
        public var words: Int
        public var characters: Int
        public var readingMinutes: Int

        public init(words: Int, characters: Int, readingMinutes: Int) {
            self.words = words
            self.characters = characters
            self.readingMinutes = readingMinutes
        }

        /// "412 words · 2,630 characters · 2 min read" in `locale`.
        public func text(in locale: SupportedLocale) -> String {
            [LocalizedText("preview.statistics.words", .integer(words)), LocalizedText("preview.statistics.characters", .integer(characters)),
             LocalizedText("preview.statistics.reading", .integer(readingMinutes))].map { $0.string(in: locale) }.joined(separator: " · ")
        }
    }

    public init(safe: Bool = true, sourceLines: Bool = false, headingIDs: Bool = false,
                collapseNestedStrong: Bool = false, fullPage: Bool = false, title: String? = nil,
                tagLinks: Bool = true, blockIDAnchors: Bool = true, wikiLinkExtension: String = ".md",
                theme: PreviewTheme = .light, highlightCode: Bool = false, wikiLinkDestinations: WikiLinkDestinations? = nil,
                math: MathMarkup = .tex, locale: SupportedLocale = .en) {
        self.safe = safe
        self.sourceLines = sourceLines
        self.headingIDs = headingIDs
        self.collapseNestedStrong = collapseNestedStrong
        self.fullPage = fullPage
        self.title = title
        self.tagLinks = tagLinks
        self.blockIDAnchors = blockIDAnchors
        self.wikiLinkExtension = wikiLinkExtension
        self.theme = theme
        self.highlightCode = highlightCode
        self.wikiLinkDestinations = wikiLinkDestinations
        self.math = math
        self.locale = locale
    }

    /// Exactly what cmark writes with `--unsafe`: the CommonMark spec suite's settings.
    public static let commonmarkSpec = HTMLOptions(safe: false)
    /// Exactly what cmark-gfm 0.29.0.gfm.13 writes with `--unsafe`: the GFM spec suites' settings.
    public static let gfmSpec = HTMLOptions(safe: false, collapseNestedStrong: true)
    /// A notebook preview: safe, heading ids, GitHub's strong collapsing.
    public static let notebookPreview = HTMLOptions(safe: true, headingIDs: true, collapseNestedStrong: true)
}

extension HTMLOptions {
    /// True for a nonce a Content-Security-Policy can carry as it is: 1 to 128 letters, digits,
    /// `+`, `/`, `=`, `_` or `-` (base64 and base64url), so it cannot end the attribute or add a
    /// directive.
    public static func isValidNonce(_ nonce: String) -> Bool {
        (1...128).contains(nonce.utf8.count) && nonce.utf8.allSatisfy { byte in
            (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// The Content-Security-Policy of a full page: no script (but the client's, by `scriptNonce`),
    /// no frames, forms or plugins; images, media and fonts from anywhere (a note shows remote
    /// images; the client's own policy narrows that), styles inline (the page's stylesheet).
    public var contentSecurityPolicy: String {
        var policy = "default-src 'none'; img-src * data: blob: file:; media-src * data: blob: file:; font-src * data: file:; "
            + "style-src 'unsafe-inline'; form-action 'none'"
        if let scriptNonce, HTMLOptions.isValidNonce(scriptNonce) { policy += "; script-src 'nonce-\(scriptNonce)'" }
        return policy
    }
}
