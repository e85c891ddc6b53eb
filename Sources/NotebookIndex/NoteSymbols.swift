// The symbols of one note: what the workspace index, completion, diagnostics and navigation read.
//
// Invariants of this module:
// - Plain values only: no IO, no JSON, no references to a tree. A `NoteSymbols` outlives the
//   `SyntaxTree` it came from.
// - Every range is a half-open range of UTF-8 bytes in the note's *source* (`ByteSpan`).
// - Extraction never fails and never traps, whatever the tree holds: side-table indices are
//   checked, and detached nodes (`parent == .none`, except the root) are skipped.
// - Extraction is one pass over the node arena (plus the renderer's heading pass, so slugs agree
//   with the HTML). It makes Strings only for the symbols it records, never per text node.
// - Comparing symbols for the link graph goes by value (`key`s), never by range: an edit that
//   only moves text yields an empty `SymbolDiff`.

import MarkdownSyntax
import TextCore

/// Everything one note records for the index (issue 4, "What each note records").
public struct NoteSymbols: Sendable, Equatable {
    /// Where the title came from.
    public enum TitleSource: UInt8, Sendable {
        case frontMatter, firstHeading, fileStem
    }

    /// The note's workspace-relative path (`garden/soil tests.md`).
    public var path: String
    /// Front matter `title`, else the first H1's plain text, else the file stem.
    public var title: String
    public var titleSource: TitleSource
    /// Front matter `aliases`/`alias` (a list or a comma-separated scalar), in order.
    public var aliases: [String]
    /// Headings in document order. Packed (`HeadingList`): the index keeps every heading of
    /// every note.
    public var headings: HeadingList
    /// Outgoing links (Markdown, autolinks, wiki-links, images, embeds) in document order: the
    /// tree's link nodes, less those inside an image description (alt text, not links).
    /// Packed (`LinkList`): the index keeps every link of every note.
    public var links: LinkList
    /// Link reference definitions in document order.
    public var linkDefinitions: [LinkDefinitionSymbol] {
        get { rare?.fields.linkDefinitions ?? [] }
        set { rareFields.linkDefinitions = newValue }
    }
    /// Tags in document order; front-matter tags first, since the front matter opens the note.
    /// Packed (`TagList`): the index keeps every tag of every note.
    public var tags: TagList
    /// Block ids in document order.
    public var blockIDs: [BlockIDSymbol]
    /// Ids raw HTML gives places (`<a id="old-heading"></a>`, `<a name=…>`), in document order:
    /// a link's `#fragment` may name one.
    public var htmlIDs: [HTMLIDSymbol] {
        get { rare?.fields.htmlIDs ?? [] }
        set { rareFields.htmlIDs = newValue }
    }
    /// The front matter's keys and values, with the ranges of the block and the keys, when the
    /// note has front matter. Packed (`NoteFrontMatter`): the index keeps every note's.
    public var frontMatter: NoteFrontMatter?
    /// Diagnostic codes the note switches off with `<!-- macmd-ignore CODE … -->`.
    public var ignoredCodes: Set<String> {
        get { rare?.fields.ignoredCodes ?? [] }
        set { rareFields.ignoredCodes = newValue }
    }
    /// Labels of `[text][label]` and `[label][]` links with no definition, as written.
    public var undefinedReferences: [LinkSymbol.Part] {
        get { rare?.fields.undefinedReferences ?? [] }
        set { rareFields.undefinedReferences = newValue }
    }
    /// The parser's problems with the note (malformed front matter, nesting limits).
    public var problems: [SyntaxProblem] {
        get { rare?.fields.problems ?? [] }
        set { rareFields.problems = newValue }
    }
    /// How many formulas the note has (maths in an image description is alt text, not counted).
    /// The formulas themselves are checked only when `math-error` is asked for, from the note's
    /// tree (`NotebookDiagnostics.mathErrors`): the index never runs the maths converter.
    public var formulaCount = 0
    /// The words of the note's prose, hashed (`ProseWords`): which names it may mention. Empty
    /// when the symbols were made without them (`extract(from:path:proseWords:)`).
    public var proseWords = ProseWords()
    /// The note's terms for full-text search, weighted by field (`SearchTerms`). Empty when the
    /// symbols were made without them (with `proseWords`).
    public var searchTerms = SearchTerms()
    /// The fields few notes fill, out of line: one reference, nil when all are empty, where they
    /// took 40 bytes in every note's entry of the notebook's table.
    private var rare: RareFieldsBox?

    /// The out-of-line fields; setting them boxes them anew, or drops the box when all are empty.
    private var rareFields: RareFields {
        get { rare?.fields ?? RareFields() }
        set { rare = newValue.isEmpty ? nil : RareFieldsBox(newValue) }
    }

    /// The heading that stands for the note as a whole: the first H1 when the title comes from
    /// it, or, with a front matter title, the first H1 that reads the same. References on it are
    /// the note's backlinks.
    public var titleHeading: HeadingSymbol? {
        guard let first = headings.first(where: { $0.level == 1 }) else { return nil }
        switch titleSource {
        case .firstHeading: return first
        case .frontMatter: return headings.first { $0.level == 1 && $0.text.folded == title.folded }
        case .fileStem: return nil
        }
    }

    public init(path: String, title: String, titleSource: TitleSource, aliases: [String] = [],
                headings: [HeadingSymbol] = [], links: [LinkSymbol] = [], linkDefinitions: [LinkDefinitionSymbol] = [],
                tags: [TagSymbol] = [], blockIDs: [BlockIDSymbol] = [], frontMatter: FrontMatter? = nil,
                ignoredCodes: Set<String> = [], problems: [SyntaxProblem] = []) {
        self.path = path
        self.title = title
        self.titleSource = titleSource
        self.aliases = aliases
        self.headings = HeadingList(headings)
        self.links = LinkList(links)
        self.tags = TagList(tags)
        self.blockIDs = blockIDs
        self.frontMatter = frontMatter.map(NoteFrontMatter.init)
        self.rareFields = RareFields(linkDefinitions: linkDefinitions, ignoredCodes: ignoredCodes, problems: problems)
    }

    /// The symbols of a note's bytes, parsed with the notebook profile (what the index holds),
    /// nested as deep as the notebook's settings allow.
    public static func parsing(_ bytes: [UInt8], path: String, options: ParseOptions = .notebook) -> NoteSymbols {
        extract(from: MarkdownParser.parse(bytes, options: options), path: path)
    }

    /// What a thread that reads note after note keeps from one to the next: the parser's
    /// arrays, and the bitmap of the prose words.
    public struct Scratch: ~Copyable {
        public var parse = MarkdownParser.ParseScratch()
        public var proseWords = ProseWords.Scratch()
        public var searchTerms = SearchTerms.Scratch()

        public init() {}
    }

    /// `parsing(_:path:options:)` for a thread that parses note after note: the parse reuses
    /// the arrays of the one before (`scratch`), and leaves its own for the next.
    public static func parsing(_ bytes: [UInt8], path: String, options: ParseOptions = .notebook,
                               scratch: inout Scratch) -> NoteSymbols {
        let tree = MarkdownParser.parse(bytes, options: options, scratch: &scratch.parse)
        var symbols = extract(from: tree, path: path, proseWords: false)
        symbols.proseWords = ProseWords(tree: tree, scratch: &scratch.proseWords)
        symbols.searchTerms = SearchTerms(tree: tree, title: symbols.title, scratch: &scratch.searchTerms)
        scratch.parse.recycle(tree)
        return symbols
    }
}

/// The fields of `NoteSymbols` few notes fill.
private struct RareFields: Sendable, Equatable {
    var linkDefinitions: [LinkDefinitionSymbol] = []
    var htmlIDs: [HTMLIDSymbol] = []
    var ignoredCodes: Set<String> = []
    var undefinedReferences: [LinkSymbol.Part] = []
    var problems: [SyntaxProblem] = []

    var isEmpty: Bool {
        linkDefinitions.isEmpty && htmlIDs.isEmpty && ignoredCodes.isEmpty && undefinedReferences.isEmpty && problems.isEmpty
    }
}

/// `RareFields` behind one reference; never changed once made (a change makes a new box).
private final class RareFieldsBox: Sendable, Equatable {
    let fields: RareFields

    init(_ fields: RareFields) { self.fields = fields }

    static func == (a: RareFieldsBox, b: RareFieldsBox) -> Bool { a === b || a.fields == b.fields }
}
