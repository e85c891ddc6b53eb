// Writing statistics: the words, characters, paragraphs and reading time of a note or of part
// of it, as a reader sees the text: the preview's counts, `macmd/statistics`, `macmd stats`.
// Counted when asked for, not while indexing: no feature needs every note's count, and counting
// every note would slow every cold index.
//
// Invariants:
// - What is counted is the text a reader sees (`SyntaxTree.plainTextPiece`): no markup, a
//   link's label but not its destination, a wiki-link's label, escapes and references decoded,
//   no image description. Front matter, raw HTML, link definitions and block ids are never
//   text; code (spans and blocks) and maths count unless `Options.code` is off; bare URLs and
//   autolinks unless `Options.urls` is off; front matter only with `Options.frontMatter`.
// - Words and characters are NotebookIndex's `WordCounter` (Unicode word boundaries; each
//   Chinese character or kana a word). The pieces of one block are fed one after the other, so
//   `foo**bar**` is one word, as it reads; blocks never join.
// - Paragraphs are the blocks of text with a word in them: paragraphs, headings, table rows,
//   and code blocks when code counts.
// - A selection counts the blocks and inlines it overlaps, a text cut at its ends.

import MarkdownSyntax
import NotebookIndex

/// What a text holds, as counted for a writer (see the file comment).
public struct TextStatistics: Sendable, Equatable {
    public var words = 0
    /// Characters (line breaks and the marks of the letter before them aside), white space
    /// included.
    public var characters = 0
    /// Characters that are not white space.
    public var charactersWithoutSpaces = 0
    public var paragraphs = 0
    /// The words that are one Chinese character or kana (among `words`): read faster.
    public var ideographs = 0

    public init(words: Int = 0, characters: Int = 0, charactersWithoutSpaces: Int = 0, paragraphs: Int = 0, ideographs: Int = 0) {
        self.words = words
        self.characters = characters
        self.charactersWithoutSpaces = charactersWithoutSpaces
        self.paragraphs = paragraphs
        self.ideographs = ideographs
    }

    /// Reading speeds of silent reading: words of the spaced scripts a minute, and Chinese or
    /// Japanese characters a minute.
    public static let wordsPerMinute = 238
    public static let ideographsPerMinute = 500

    /// The reading time in seconds, rounded up.
    public var readingSeconds: Int {
        let seconds = Double(words - ideographs) * 60 / Double(TextStatistics.wordsPerMinute)
            + Double(ideographs) * 60 / Double(TextStatistics.ideographsPerMinute)
        return Int(seconds.rounded(.up))
    }

    /// The reading time in whole minutes, at least one for a text with a word.
    public var readingMinutes: Int {
        words == 0 ? 0 : max(1, Int((Double(readingSeconds) / 60).rounded()))
    }

    /// The sum of two counts (a notebook's totals).
    public static func + (a: TextStatistics, b: TextStatistics) -> TextStatistics {
        TextStatistics(words: a.words + b.words, characters: a.characters + b.characters,
                       charactersWithoutSpaces: a.charactersWithoutSpaces + b.charactersWithoutSpaces,
                       paragraphs: a.paragraphs + b.paragraphs, ideographs: a.ideographs + b.ideographs)
    }

    /// What is counted beside prose.
    public struct Options: Sendable, Equatable {
        /// Code spans, code blocks and maths.
        public var code: Bool
        /// Bare URLs and autolinks (a link's label always counts, its destination never).
        public var urls: Bool
        /// The front matter's text.
        public var frontMatter: Bool

        public init(code: Bool = true, urls: Bool = true, frontMatter: Bool = false) {
            self.code = code
            self.urls = urls
            self.frontMatter = frontMatter
        }
    }

    /// The statistics of `tree`, or of the part of it whose source bytes are in `range`.
    public init(tree: SyntaxTree, range: Range<Int>? = nil, options: Options = Options()) {
        self.init()
        var current = tree.isNode(0) ? tree.nodes[0].firstChild : .none
        while tree.isNode(current) {
            let node = tree.nodes[Int(current)]
            let source = Int(node.sourceStart)..<max(Int(node.sourceStart), Int(node.sourceEnd))
            if let range, !source.overlaps(range) {
                current = tree.nextInPreorder(current, within: 0, enteringChildren: false)
                continue
            }
            var counter = WordCounter()
            var entersChildren = false
            switch node.kind {
            case .paragraph, .heading:
                TextStatistics.feedInlines(of: current, in: tree, range: range, options: options, to: &counter)
                add(counter, asParagraph: true)
            case .tableRow:
                var cell = node.firstChild
                while tree.isNode(cell) {
                    TextStatistics.feedInlines(of: cell, in: tree, range: range, options: options, to: &counter)
                    counter.breakWord()
                    cell = tree.nodes[Int(cell)].next
                }
                add(counter, asParagraph: true)
            case .codeBlock, .mathBlock:
                guard options.code else { break }
                counter.feed(TextStatistics.clipped(node, in: tree, to: range))
                add(counter, asParagraph: node.kind == .codeBlock)
            case .frontMatter:
                guard options.frontMatter else { break }
                counter.feed(TextStatistics.clipped(node, in: tree, to: range))
                add(counter, asParagraph: false)
            case .htmlBlock, .linkDefinition, .thematicBreak:
                break
            default:
                entersChildren = !node.kind.hasInlineContent
            }
            current = tree.nextInPreorder(current, within: 0, enteringChildren: entersChildren)
        }
    }

    /// Adds one block's count.
    private mutating func add(_ block: WordCounter, asParagraph: Bool) {
        words += block.words
        characters += block.characters
        charactersWithoutSpaces += block.characters - block.spaces
        ideographs += block.ideographs
        if asParagraph, block.words > 0 { paragraphs += 1 }
    }

    /// A leaf block's content, cut to `range` where it overlaps only in part (its source bytes:
    /// code and front matter are their source, line by line).
    private static func clipped(_ node: Node, in tree: SyntaxTree, to range: Range<Int>?) -> ArraySlice<UInt8> {
        let content = tree.contentBytes(of: node)
        guard let range else { return content }
        let source = Int(node.sourceStart)..<max(Int(node.sourceStart), Int(node.sourceEnd))
        if range.lowerBound <= source.lowerBound && source.upperBound <= range.upperBound { return content }
        let start = max(range.lowerBound, source.lowerBound), end = min(range.upperBound, source.upperBound, tree.source.count)
        guard start < end else { return [] }
        return tree.source[start..<end]
    }

    /// Feeds the text of the inlines of the leaf block `block` as a reader sees it, without
    /// what `options` leave out, cut to `range`.
    private static func feedInlines(of block: NodeID, in tree: SyntaxTree, range: Range<Int>?, options: Options,
                                    to counter: inout WordCounter) {
        guard tree.isNode(block) else { return }
        var current = tree.nodes[Int(block)].firstChild
        while tree.isNode(current) {
            let node = tree.nodes[Int(current)]
            var entersChildren = false
            let source = Int(node.sourceStart)..<max(Int(node.sourceStart), Int(node.sourceEnd))
            let inside = range.map { $0.lowerBound <= source.lowerBound && source.upperBound <= $0.upperBound } ?? true
            if let range, !inside, !source.overlaps(range) {
                // Outside the selection.
            } else if (node.kind == .code || node.kind == .inlineMath || node.kind == .displayMath) && !options.code {
                counter.breakWord()
            } else if node.kind == .autolink && !options.urls {
                counter.breakWord()
            } else if !inside, node.kind == .text, let range {
                // A text cut by the selection: its source bytes in it.
                let start = max(range.lowerBound, source.lowerBound), end = min(range.upperBound, source.upperBound, tree.source.count)
                if start < end { counter.feed(tree.source[start..<end]) }
            } else {
                switch tree.plainTextPiece(of: node, for: .visibleText) {
                case .text(let piece): counter.feed(piece)
                case .children: entersChildren = true
                case .nothing: break
                }
            }
            current = tree.nextInPreorder(current, within: block, enteringChildren: entersChildren)
        }
    }
}
