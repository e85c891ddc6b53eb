// `math-error`: the formulas of a note that the TeX to MathML converter does not understand,
// the ones a MathML preview shows as their source in red.
//
// Invariants:
// - Asked for, never imposed: the code is off until the configuration gives it a severity
//   (`DiagnosticCode.mathError` has no default severity), and only then does anyone call this. The index
//   itself never runs the converter: a note's symbols only count its formulas (`formulaCount`),
//   so indexing a notebook of maths costs what it cost before.
// - The formulas checked are exactly the ones the renderer converts: every maths node of the
//   tree (detached nodes and maths in an image description, which is alt text, aside), with a
//   block's content less its last line ending, checked by the converter's own parse
//   (`TeXMath.check`: no MathML written). Linear in the formulas' length.

import Localization
import MarkdownSyntax
import TeXMath
import TextCore

extension NotebookDiagnostics {
    /// The `math-error` diagnostics of `tree`, the note at `path`: one per formula the converter
    /// rejects, over the whole formula (delimiters included; a block without its last line
    /// ending), with the converter's message (`unknown command \foo`). In document order.
    public static func mathErrors(in tree: SyntaxTree, path: String) -> [NoteDiagnostic] {
        var result: [NoteDiagnostic] = []
        for formula in tree.formulas {
            var tex = tree.contentBytes(of: formula.node)
            if formula.node.kind == .mathBlock, tex.last == 0x0A { tex = tex.dropLast() }
            guard let error = tex.withUnsafeBufferPointer({ TeXMath.check($0) }) else { continue }
            result.append(NoteDiagnostic(path: path, range: formula.range, code: .mathError, message: error.message))
        }
        return result
    }
}

extension SyntaxTree {
    /// The formulas the renderer converts, in document order: every maths node (`$…$`, `$$…$$`,
    /// a maths block), detached nodes and maths in an image description (alt text) aside, each
    /// with its source range: the whole formula, delimiters included; a block without its last
    /// line ending. What `math-error` checks and what semantic tokens colour.
    public var formulas: [(node: Node, range: ByteSpan)] {
        var result: [(node: Node, range: ByteSpan)] = []
        for index in nodes.indices {
            let node = nodes[index]
            guard node.kind == .inlineMath || node.kind == .displayMath || node.kind == .mathBlock,
                  node.parent != .none, !isInImageDescription(node) else { continue }
            var end = min(Int(max(node.sourceStart, node.sourceEnd)), source.count)
            if node.kind == .mathBlock {
                while end > Int(node.sourceStart), source[end - 1] == 0x0A || source[end - 1] == 0x0D { end -= 1 }
            }
            result.append((node, ByteSpan(Int(node.sourceStart), max(Int(node.sourceStart), end))))
        }
        // The inline pass adds a paragraph's inlines after the blocks: document order is by start.
        return result.sorted { $0.range.start < $1.range.start }
    }
}
