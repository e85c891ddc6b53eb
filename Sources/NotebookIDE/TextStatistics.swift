// Word and character counts over the text a reader sees.
//
// Words: maximal runs of letters, digits, marks and joiners (`'`, `’` and `-` between letters
// keep a word together), except that each CJK ideograph, kana or hangul syllable counts as a
// word of its own, as word processors count them. Characters: Unicode scalars of the visible
// text, spaces included, line breaks not.

import MarkdownSyntax

public enum TextStatistics {
    public struct Counts: Sendable, Equatable {
        public var words = 0
        public var characters = 0
    }

    /// Counts the visible text of `tree`: inline text, code, math, tags and wiki-link labels in
    /// paragraphs, headings and table cells, plus code and math blocks.
    public static func count(_ tree: SyntaxTree) -> Counts {
        var counter = Counter()
        for index in tree.nodes.indices {
            let node = tree.nodes[index]
            // Only nodes attached to the tree (the inline pass leaves used-up nodes detached).
            guard node.parent != .none || index == 0 else { continue }
            switch node.kind {
            case .text:
                if hasLinkAncestorWithoutText(tree, node) { continue }
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
        return counter.counts
    }

    /// Image descriptions are alt text, not visible text.
    private static func hasLinkAncestorWithoutText(_ tree: SyntaxTree, _ node: Node) -> Bool {
        var parent = node.parent
        var depth = 0
        while parent != .none && depth < 64 {
            let kind = tree.nodes[Int(parent)].kind
            if kind == .image { return true }
            if kind.isBlock { return false }
            parent = tree.nodes[Int(parent)].parent
            depth += 1
        }
        return false
    }

    /// Counts a string (for tests and callers without a tree).
    public static func count(text: String) -> Counts {
        var counter = Counter()
        counter.feed(Array(text.utf8)[...])
        counter.breakWord()
        return counter.counts
    }

    struct Counter {
        var counts = Counts()
        var inWord = false
        var pendingJoiner = false

        mutating func breakWord() {
            inWord = false
            pendingJoiner = false
        }

        mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
            var index = bytes.startIndex
            // ASCII, the bulk of most notes, is classified by a table; the rest is decoded.
            while index != bytes.endIndex {
                let byte = bytes[index]
                if byte < 0x80 {
                    takeASCII(byte)
                    index = bytes.index(after: index)
                    continue
                }
                var iterator = bytes[index...].makeIterator()
                var decoder = UTF8()
                var consumed = 0
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    take(scalar)
                    consumed = UTF8.width(scalar)
                case .error:
                    take("\u{FFFD}")
                    consumed = 1
                case .emptyInput:
                    return
                }
                index = bytes.index(index, offsetBy: consumed, limitedBy: bytes.endIndex) ?? bytes.endIndex
            }
        }

        @inline(__always)
        mutating func takeASCII(_ byte: UInt8) {
            if byte == 0x0A || byte == 0x0D {
                breakWord()
                return
            }
            counts.characters += 1
            let isWordByte = (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
            if isWordByte {
                if !inWord { counts.words += 1 }
                inWord = true
                pendingJoiner = false
            } else if inWord && !pendingJoiner && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-")) {
                pendingJoiner = true
            } else {
                breakWord()
            }
        }

        mutating func take(_ scalar: Unicode.Scalar) {
            if scalar == "\n" || scalar == "\r" {
                breakWord()
                return
            }
            counts.characters += 1
            let v = scalar.value
            if isIdeographic(v) {
                counts.words += 1
                breakWord()
                return
            }
            let properties = scalar.properties
            let wordish = properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
                || properties.generalCategory == .decimalNumber
            if wordish {
                if !inWord { counts.words += 1 }
                inWord = true
                pendingJoiner = false
            } else if inWord && !pendingJoiner && (scalar == "'" || scalar == "\u{2019}" || scalar == "-") {
                // Keep "don't" and "well-known" one word when a letter follows.
                pendingJoiner = true
            } else {
                breakWord()
            }
        }

        func isIdeographic(_ v: UInt32) -> Bool {
            (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
                || (0x3040...0x30FF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
        }
    }
}
