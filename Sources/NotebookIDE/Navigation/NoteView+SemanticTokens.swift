// Semantic tokens (`textDocument/semanticTokens/full` and `/range`): what only the notebook
// knows about a note's text, for an editor to colour. A link's target (its note part), the
// heading anchors and block id it names, each marked resolved, unresolved or ambiguous by the
// notebook's link resolution (the same as diagnostics, navigation and `macmd check`), and embed
// for an embed or image; tags; block ids `^id` where they are declared; front-matter keys;
// maths. What any Markdown highlighter sees (emphasis, headings, code) is left to the editor.
//
// Invariants:
// - Pure: a function of the note's symbols and tree, the notebook's catalog and `fileExists`
//   (the caller's disk check for files that are not notes). Nothing is cached: a note's tokens
//   are computed from the snapshot they are asked of, so they follow the notebook as it changes
//   (the server asks the editor to ask again when other notes change what links reach).
// - No false alarm: `unresolved` and `ambiguous` are given only where diagnostics would report
//   the link (the notebook's first scan has ended; the note is in a notebook and is no snippet
//   template); until then a link is `resolved` or unmarked.
// - Tokens are byte spans of the note's text, sorted by start, none empty and none overlapping
//   (a later token that overlaps an earlier one is dropped: a reference link's destination is
//   written once, in its definition, whatever number of links use it). A token may span lines
//   (display maths, a maths block); the server splits it per line.
// - Linear in the note: one pass over the links, tags, block ids, front matter and formulas.

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
        let catalog = notebook.catalog
        for link in links {
            let marks = LinkMarks(catalog.resolve(link, from: note.path), checksLinks: checksLinks, fileExists: fileExists)
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

/// The modifiers of a link's parts, from where the link resolves.
private struct LinkMarks {
    var target: SemanticToken.Modifiers = []
    var heading: SemanticToken.Modifiers = []
    var block: SemanticToken.Modifiers = []

    init(_ resolution: Resolution, checksLinks: Bool, fileExists: (String) -> Bool) {
        switch resolution {
        case .note:
            self.init(all: .resolved)
        case .file(let path):
            self.init(all: fileExists(path) ? .resolved : .unresolved)
        case .external, .outside:
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
    public func semanticTokens(in range: ByteSpan? = nil) -> [SemanticToken] {
        let checksLinks = !isStandalone && folder.isIndexComplete && !SnippetFiles.isSnippetPath(note.path, in: folder)
        return SemanticToken.tokens(of: symbols, tree: analysis.tree, in: notebook, checksLinks: checksLinks, range: range) {
            fileExists($0)
        }
    }
}
