// Semantic tokens (`textDocument/semanticTokens/full` and `/range`): what only the notebook
// knows about a note's text, for an editor to colour. A link's target (its note part), the
// heading anchors and block id it names, each marked resolved, unresolved or ambiguous by the
// notebook's link resolution (the same as diagnostics, navigation and `macmd check`), and embed
// for an embed or image; tags; block ids `^id` where they are declared; front-matter keys;
// maths. What any Markdown highlighter sees (emphasis, headings, code) is left to the editor.
//
// Invariants:
// - A function of the note's symbols and tree, the notebook's catalog and `fileExists` (the
//   caller's disk check for files that are not notes); they follow the notebook as it changes
//   (the server asks the editor to ask again when other notes change what links reach).
// - Resolving links is most of the cost (about 2.5 µs a link), so where each link led is kept
//   (`ResolvedLinks`, by what resolution reads of it), per note, across snapshots
//   (`ResolvedLinksCache`), while the notebook's `linkTargetsRevision` stays: every link then
//   resolves as it did, and a keystroke's tokens resolve only the links it wrote. The tokens
//   equal those computed afresh (a test checks it after random edits).
// - No false alarm: `unresolved` and `ambiguous` are given only where diagnostics would report
//   the link (the notebook's first scan has ended; the note is in a notebook and is no snippet
//   template); until then a link is `resolved` or unmarked.
// - Tokens are byte spans of the note's text, sorted by start, none empty and none overlapping
//   (a later token that overlaps an earlier one is dropped: a reference link's destination is
//   written once, in its definition, whatever number of links use it). A token may span lines
//   (display maths, a maths block); the server splits it per line.
// - Linear in the note: one pass over the links, tags, block ids, front matter and formulas.

import Locks
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A span of a note that an editor colours by what the notebook knows of it.
public struct SemanticToken: Sendable, Equatable {
    /// What the span is. The server's legend lists the kinds in this order.
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// The note (or file, or URL) part of a link's target: `note` in `[[note#H]]`,
        /// `b.md` in `[t](b.md#h)`.
        case link
        /// A heading anchor inside a link: `H` in `[[note#H]]`, `h` in `[t](b.md#h)`.
        case heading
        /// A block id: `^id` in a link (`[[note#^id]]`), or where it is declared.
        case blockID
        /// A tag: `#a/b` in the text, `a/b` in the front matter's `tags`.
        case tag
        /// A front-matter key (`title` in `title: Soil`).
        case property
        /// A formula: `$…$`, `$$…$$` or a maths block, delimiters included.
        case math

        /// Its name in the legend (and in the editors' highlight groups: `@lsp.type.blockId`).
        public var name: String {
            switch self {
            case .link: return "link"
            case .heading: return "heading"
            case .blockID: return "blockId"
            case .tag: return "tag"
            case .property: return "property"
            case .math: return "math"
            }
        }
    }

    /// What more is known of the span. The server's legend lists the bits in this order.
    public struct Modifiers: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The link part reaches what it names (a note, heading, block or an existing file).
        public static let resolved = Modifiers(rawValue: 1 << 0)
        /// It reaches nothing: a broken link, heading or block, a missing file.
        public static let unresolved = Modifiers(rawValue: 1 << 1)
        /// Several notes (or files) match the link's name equally well.
        public static let ambiguous = Modifiers(rawValue: 1 << 2)
        /// A part of an embed (`![[note]]`) or an image (`![alt](a.png)`).
        public static let embed = Modifiers(rawValue: 1 << 3)
        /// Where a block id is declared (`^id` at the end of a paragraph).
        public static let declaration = Modifiers(rawValue: 1 << 4)

        /// Every modifier, one bit each, lowest bit first, with its name in the legend (and in
        /// the editors' highlight groups: `@lsp.mod.unresolved`).
        public static let named: [(modifier: Modifiers, name: String)] = [
            (.resolved, "resolved"), (.unresolved, "unresolved"), (.ambiguous, "ambiguous"), (.embed, "embed"),
            (.declaration, "declaration"),
        ]

        /// The names of the modifiers this holds, lowest bit first.
        public var names: [String] { Modifiers.named.filter { contains($0.modifier) }.map(\.name) }
    }

    public var span: ByteSpan
    public var kind: Kind
    public var modifiers: Modifiers

    public init(span: ByteSpan, kind: Kind, modifiers: Modifiers = []) {
        self.span = span
        self.kind = kind
        self.modifiers = modifiers
    }

    /// The tokens of `note` (its symbols, and its tree for the front matter and maths) in
    /// `notebook`, those that meet `range` (every one when nil). `checksLinks` false gives no
    /// `unresolved` or `ambiguous` (see the file comment); `fileExists` answers for
    /// notebook-relative paths of files that are not notes (`NoteView.fileExists`).
    public static func tokens(of note: NoteSymbols, tree: SyntaxTree, in notebook: Notebook, checksLinks: Bool,
                              range: ByteSpan? = nil, fileExists: (String) -> Bool) -> [SemanticToken] {
        var resolved = ResolvedLinks()
        return tokens(of: note, tree: tree, in: notebook, checksLinks: checksLinks, range: range, resolved: &resolved, fileExists: fileExists)
    }

    /// The same, reading where links led from `resolved` and adding those it lacks: it must
    /// come from earlier tokens of the same note in a notebook whose link targets have not
    /// changed since (`NotebookFolder.linkTargetsRevision`).
    public static func tokens(of note: NoteSymbols, tree: SyntaxTree, in notebook: Notebook, checksLinks: Bool,
                              range: ByteSpan? = nil, resolved: inout ResolvedLinks, fileExists: (String) -> Bool) -> [SemanticToken] {
        var found: [SemanticToken] = []
        found.reserveCapacity(note.links.count + note.tags.count + note.blockIDs.count)
        /// Whether `span` is a token to keep: not empty, and meeting the range asked for.
        func wanted(_ span: ByteSpan) -> Bool {
            guard !span.isEmpty else { return false }
            guard let range else { return true }
            return span.start < range.end && span.end > range.start
        }
        func add(_ span: ByteSpan, _ kind: Kind, _ modifiers: Modifiers) {
            if wanted(span) { found.append(SemanticToken(span: span, kind: kind, modifiers: modifiers)) }
        }
        let text = tree.source
        let links = note.links.filter { wanted($0.range) || wanted($0.target.range) }
        if resolved.count == 0 { resolved.reserveCapacity(links.count) }
        let catalog = notebook.catalog
        for link in links {
            let marks = LinkMarks(resolved.outcome(of: link) { catalog.resolve(link, from: note.path) },
                                  checksLinks: checksLinks, fileExists: fileExists)
            let embed: Modifiers = link.isEmbed ? .embed : []
            add(link.target.range, .link, marks.target.union(embed))
            for heading in link.headings { add(heading.range, .heading, marks.heading.union(embed)) }
            if var block = link.blockID?.range {
                // `^id` as it is declared, its `^` included.
                if block.start > 0, Int(block.start) <= text.count, text[Int(block.start) - 1] == UInt8(ascii: "^") { block.start -= 1 }
                add(block, .blockID, marks.block.union(embed))
            }
        }
        for tag in note.tags { add(tag.isFromFrontMatter ? tag.nameRange : tag.range, .tag, []) }
        for block in note.blockIDs { add(block.range, .blockID, .declaration) }
        for entry in tree.frontMatter?.entries ?? [] { add(entry.keyRange, .property, []) }
        if note.formulaCount > 0 {
            for formula in tree.formulas { add(formula.range, .math, []) }
        }
        resolved.prune(keeping: note.links)
        found.sort { $0.span.start < $1.span.start }
        // No two tokens overlap: the first one wins.
        var end: Int32 = 0
        return found.filter { token in
            guard token.span.start >= end else { return false }
            end = token.span.end
            return true
        }
    }
}

/// Where links led, by what resolution reads of each (not where it is written), for one note:
/// links written alike resolve once.
public struct ResolvedLinks: Sendable {
    /// What `NoteCatalog.resolve` reads of a link (besides the linking note's path). Texts are
    /// compared and hashed by their bytes, not as `String`s (which normalise every non-ASCII
    /// text to compare it): a link written in another normal form is resolved apart, alike.
    struct Fields: Hashable, Sendable {
        var form: LinkSymbol.Form
        var isImage: Bool
        var target: String
        var headings: [String]
        var blockID: String?
        /// A wiki-link's label: a note whose name holds `|` is found with it.
        var label: String?

        init(_ link: LinkSymbol) {
            form = link.form
            isImage = link.isImage
            target = link.target.text
            headings = link.headings.map(\.text)
            blockID = link.blockID?.text
            label = link.form.isWiki ? link.label?.text : nil
        }

        static func == (a: Fields, b: Fields) -> Bool {
            a.form == b.form && a.isImage == b.isImage && same(a.target, b.target) && a.headings.count == b.headings.count
                && zip(a.headings, b.headings).allSatisfy { same($0, $1) } && same(a.blockID, b.blockID) && same(a.label, b.label)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(form.rawValue)
            hasher.combine(isImage)
            Fields.combine(target, into: &hasher)
            hasher.combine(headings.count)
            for heading in headings { Fields.combine(heading, into: &hasher) }
            Fields.combine(blockID, into: &hasher)
            Fields.combine(label, into: &hasher)
        }

        private static func same(_ a: String?, _ b: String?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
        }

        private static func combine(_ text: String?, into hasher: inout Hasher) {
            guard var text else { return hasher.combine(-1) }
            hasher.combine(text.utf8.count)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// How a link resolved, as far as its tokens tell: not where (a `Resolution` holds ranges
    /// in the target note, which its edits move while this stays true).
    enum Outcome: Sendable, Equatable {
        case reaches, file(String), unchecked, brokenNote, brokenHeading, brokenBlock, ambiguous

        init(_ resolution: Resolution) {
            switch resolution {
            case .note: self = .reaches
            case .file(let path): self = .file(path)
            case .external, .outside: self = .unchecked
            case .brokenNote: self = .brokenNote
            case .brokenHeading: self = .brokenHeading
            case .brokenBlock: self = .brokenBlock
            case .ambiguous: self = .ambiguous
            }
        }
    }

    private var outcomes: [Fields: Outcome] = [:]

    public init() {}

    /// How many links are known.
    public var count: Int { outcomes.count }

    /// Makes room for `count` links.
    mutating func reserveCapacity(_ count: Int) { outcomes.reserveCapacity(count) }

    /// How `link` resolved: known, else `resolve()`d now and kept.
    mutating func outcome(of link: LinkSymbol, _ resolve: () -> Resolution) -> Outcome {
        let fields = Fields(link)
        if let known = outcomes[fields] { return known }
        let outcome = Outcome(resolve())
        outcomes[fields] = outcome
        return outcome
    }

    /// Forgets the links the note no longer has (`links` are those it has) when they outnumber
    /// those it has: links edited away pile up as a note is written.
    mutating func prune(keeping links: LinkList) {
        guard outcomes.count > 2 * links.count + 64 else { return }
        var kept: [Fields: Outcome] = [:]
        for link in links {
            let fields = Fields(link)
            if let known = outcomes[fields] { kept[fields] = known }
        }
        outcomes = kept
    }
}

/// The `ResolvedLinks` of notes, kept across snapshots, each with the notebook state it holds
/// for (its folder's generation and `linkTargetsRevision`): a note's tokens read it only while
/// both stay. At most `capacity` notes (those whose tokens are asked for: the open ones).
///
/// Concurrency: the lock is held only to take or store an entry; two requests for one note
/// may both resolve its links, and the last to finish keeps its result (either is right for
/// its stamp).
final class ResolvedLinksCache: Sendable {
    private struct Entry {
        var generation: Int
        var revision: Int
        var links: ResolvedLinks
    }

    static let capacity = 64
    private let entries = Locked<[NoteRef: Entry]>([:])

    /// The links of `note` resolved in the notebook state (`generation`, `revision`); none when
    /// they were resolved in another.
    func links(of note: NoteRef, generation: Int, revision: Int) -> ResolvedLinks {
        entries.withLock { entries in
            guard let entry = entries[note], entry.generation == generation, entry.revision == revision else { return ResolvedLinks() }
            return entry.links
        }
    }

    /// Keeps `links` of `note`, resolved in the notebook state (`generation`, `revision`).
    func keep(_ links: ResolvedLinks, of note: NoteRef, generation: Int, revision: Int) {
        let entry = Entry(generation: generation, revision: revision, links: links)
        entries.withLock { entries in
            if entries[note] == nil, entries.count >= ResolvedLinksCache.capacity { entries.removeAll() }
            entries[note] = entry
        }
    }
}

/// The modifiers of a link's parts, from where the link resolves.
private struct LinkMarks {
    var target: SemanticToken.Modifiers = []
    var heading: SemanticToken.Modifiers = []
    var block: SemanticToken.Modifiers = []

    init(_ outcome: ResolvedLinks.Outcome, checksLinks: Bool, fileExists: (String) -> Bool) {
        switch outcome {
        case .reaches:
            self.init(all: .resolved)
        case .file(let path):
            self.init(all: fileExists(path) ? .resolved : .unresolved)
        case .unchecked:
            // A URL, or a page beside the notebook: nothing to check.
            self.init(all: [])
        case .brokenNote:
            self.init(all: .unresolved)
        case .brokenHeading:
            self.init(target: .resolved, heading: .unresolved, block: .unresolved)
        case .brokenBlock:
            self.init(target: .resolved, heading: .resolved, block: .unresolved)
        case .ambiguous:
            self.init(all: .ambiguous)
        }
        if !checksLinks {
            target.subtract([.unresolved, .ambiguous])
            heading.subtract([.unresolved, .ambiguous])
            block.subtract([.unresolved, .ambiguous])
        }
    }

    private init(all modifiers: SemanticToken.Modifiers) {
        self.init(target: modifiers, heading: modifiers, block: modifiers)
    }

    private init(target: SemanticToken.Modifiers, heading: SemanticToken.Modifiers, block: SemanticToken.Modifiers) {
        self.target = target
        self.heading = heading
        self.block = block
    }
}

extension NoteView {
    /// The semantic tokens of this note (see `SemanticToken.tokens`), those that meet `range`
    /// when it is given. Links are checked as diagnostics check them: in a notebook whose first
    /// scan has ended, in a note that is no snippet template.
    /// Where its links led is kept for the next tokens of the note (`ResolvedLinksCache`), unless
    /// this view's notebook is its own (a standalone note, or a version not filed yet).
    public func semanticTokens(in range: ByteSpan? = nil) -> [SemanticToken] {
        let checksLinks = !isStandalone && folder.isIndexComplete && !SnippetFiles.isSnippetPath(note.path, in: folder)
        let keeps = holdsFiledVersion && !isStandalone
        var resolved = keeps
            ? snapshot.resolvedLinks.links(of: note, generation: folder.generation, revision: folder.linkTargetsRevision)
            : ResolvedLinks()
        let tokens = SemanticToken.tokens(of: symbols, tree: analysis.tree, in: notebook, checksLinks: checksLinks, range: range,
                                          resolved: &resolved) { fileExists($0) }
        if keeps { snapshot.resolvedLinks.keep(resolved, of: note, generation: folder.generation, revision: folder.linkTargetsRevision) }
        return tokens
    }
}
