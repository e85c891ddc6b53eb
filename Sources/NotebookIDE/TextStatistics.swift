// Word and character counts over the text a reader sees, with NotebookIndex's `WordCounter`.
// Counted when asked for (the preview), not while indexing: no feature needs every note's count,
// and counting every note would slow every cold index.

import MarkdownSyntax
import NotebookIndex

public enum TextStatistics {
    public struct Counts: Sendable, Equatable {
        public var words = 0
        public var characters = 0
        public init(words: Int = 0, characters: Int = 0) {
            self.words = words
            self.characters = characters
        }
    }

    /// Counts the visible text of `tree`: inline text, code, math, tags and wiki-link labels in
    /// paragraphs, headings and table cells, plus code and math blocks.
    public static func count(_ tree: SyntaxTree) -> Counts {
        var counter = WordCounter()
        for index in tree.nodes.indices {
            let node = tree.nodes[index]
            // Only nodes attached to the tree (the inline pass leaves used-up nodes detached).
            guard node.parent != .none || index == 0 else { continue }
            switch node.kind {
            case .text:
                if tree.isInImageDescription(node) { continue }
                if (node.flags & Node.textNeedsDecoding) != 0 {
                    counter.feed(CharacterReferences.decoded(tree.content[Int(node.contentStart)..<Int(max(node.contentStart, node.contentEnd))]))
                } else {
                    counter.feed(tree.content[Int(node.contentStart)..<Int(max(node.contentStart, node.contentEnd))])
                }
            case .code, .codeBlock, .mathBlock, .inlineMath, .displayMath, .tag:
                counter.feed(tree.content[Int(node.contentStart)..<Int(max(node.contentStart, node.contentEnd))])
            case .softBreak, .hardBreak:
                counter.breakWord()
            default:
                continue
            }
            counter.breakWord()
        }
        return Counts(words: counter.words, characters: counter.characters)
    }

    /// Counts a string (for tests and callers without a tree).
    public static func count(text: String) -> Counts {
        let counter = WordCounter.count(text)
        return Counts(words: counter.words, characters: counter.characters)
    }
}
