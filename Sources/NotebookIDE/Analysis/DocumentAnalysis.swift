// One version of a note's text and what is derived from it: its syntax tree, its line index and
// its symbols, each made once, on first use, by whichever request or job needs it first, and
// shared by every other (a preview, the index, completion and a hover of the same version parse
// it once).
//
// Invariants:
// - Immutable text and version; each derived value is computed at most once per instance (its own
//   lock held while it is computed, so a second reader waits for the first instead of repeating
//   the work) and never changes afterwards.
// - The tree is the notebook profile's (what the index reads); other profiles are parsed by
//   whoever asks for them.
// - Symbols are made for one path at a time: a note moved to another notebook path gets them
//   again (its title may be its file name).

import MarkdownSyntax
import NotebookIndex
import Locks
import TextCore

/// A note's text at one version, with its tree, line index and symbols made on demand.
public final class DocumentAnalysis: Sendable {
    /// The document's version; nil for text read from disk.
    public let version: Int?
    /// The text, UTF-8.
    public let text: [UInt8]
    /// How the text is parsed: the notebook profile, with its notebook's nesting bound.
    public let options: ParseOptions
    private let parsedTree = Locked<SyntaxTree?>(nil)
    private let lineIndex = Locked<LineIndex?>(nil)
    private let noteSymbols = Locked<NoteSymbols?>(nil)

    public init(version: Int?, text: [UInt8], options: ParseOptions = .notebook) {
        self.version = version
        self.text = text
        self.options = options
    }

    /// The text of `lines`, whose index is already made.
    public init(version: Int?, lines: LineIndex, options: ParseOptions = .notebook) {
        self.version = version
        self.text = lines.utf8
        self.options = options
        lineIndex.withLock { $0 = lines }
    }

    /// The syntax tree (notebook profile).
    public var tree: SyntaxTree {
        parsedTree.withLock { tree in
            if let tree { return tree }
            let parsed = MarkdownParser.parse(text, options: options)
            tree = parsed
            return parsed
        }
    }

    /// The line index of the text.
    public var lines: LineIndex {
        lineIndex.withLock { lines in
            if let lines { return lines }
            let made = LineIndex(utf8: text)
            lines = made
            return made
        }
    }

    /// The symbols of the note at `path` (workspace-relative).
    public func symbols(path: String) -> NoteSymbols {
        // Taken in this order only (symbols, then tree): no two locks are ever waited for the
        // other way round.
        noteSymbols.withLock { symbols in
            if let symbols, symbols.path == path { return symbols }
            let made = NoteSymbols.extract(from: tree, path: path)
            symbols = made
            return made
        }
    }

    /// Whether the text is longer than its notebook lets a note be (`maxFileSize`): it is not
    /// parsed then (the tree is empty, with a `noteTooLarge` problem).
    public var isOverSizeLimit: Bool { options.maximumSize.map { text.count > $0 } ?? false }

    /// Whether the tree has been made (a preview then skips the parse).
    public var hasTree: Bool { parsedTree.withLock { $0 != nil } }
}
