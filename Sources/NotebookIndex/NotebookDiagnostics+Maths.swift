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
        for index in tree.nodes.indices {
            let node = tree.nodes[index]
            guard node.kind == .inlineMath || node.kind == .displayMath || node.kind == .mathBlock,
                  node.parent != .none, !tree.isInImageDescription(node) else { continue }
            var tex = tree.contentBytes(of: node)
            var end = min(Int(max(node.sourceStart, node.sourceEnd)), tree.source.count)
            if node.kind == .mathBlock {
                if tex.last == 0x0A { tex = tex.dropLast() }
                while end > Int(node.sourceStart), tree.source[end - 1] == 0x0A || tree.source[end - 1] == 0x0D { end -= 1 }
            }
            guard let error = tex.withUnsafeBufferPointer({ TeXMath.check($0) }) else { continue }
            result.append(NoteDiagnostic(path: path, range: ByteSpan(Int(node.sourceStart), max(Int(node.sourceStart), end)),
                                         code: .mathError, message: error.message))
        }
        // The inline pass adds a paragraph's inlines after the blocks: document order is by start.
        return result.sorted { $0.range.start < $1.range.start }
    }
}
