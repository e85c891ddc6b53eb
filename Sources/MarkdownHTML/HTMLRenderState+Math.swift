// Maths in the HTML renderer: every formula (`$…$`, `$$…$$` in a paragraph or as a block,
// ```` ```math ```` fences, and whatever else the parser makes an `inlineMath`, `displayMath`
// or `mathBlock` node) as its TeX for KaTeX or MathJax, or as MathML (`HTMLOptions.math`).
//
// Invariants:
// - Both forms sit in the same wrappers: `<span class="math math-inline">`,
//   `<span class="math math-display">` (display maths inside a paragraph) and
//   `<div class="math math-display">` (a block, with its source line), so a theme styles them
//   alike. The TeX form is exactly what the renderer has always written (spec and golden output
//   do not change).
// - A formula never fails the page: what the converter rejects is written as its source in
//   `<code class="math-error" title="what was not understood">` (`TeXMath.writeHTML`).
// - Each formula is converted on its own, with nothing carried from one to the next, so the
//   pieces of a parallel rendering write the same bytes as one walk.
// - Linear and allocation-light: the converter is linear in the formula; its bytes go through
//   one scratch buffer, reused for every formula of the rendering, into the output.

import MarkdownSyntax
import TeXMath

extension HTMLRenderState {
    /// Maths inside a paragraph: inline, or display (`$$…$$` between words).
    mutating func writeInlineMath(_ tex: ArraySlice<UInt8>, display: Bool) {
        out.literal(display ? "<span class=\"math math-display\">" : "<span class=\"math math-inline\">")
        writeFormula(tex, display: display)
        out.literal("</span>")
    }

    /// A maths block (`$$` lines or a ```` ```math ```` fence); `tex` is its content, whose
    /// final line ending is not part of the formula.
    mutating func writeMathBlock(_ node: Node, tex: ArraySlice<UInt8>) {
        out.cr()
        out.literal("<div class=\"math math-display\"")
        sourceLine(node)
        out.byte(0x3E)
        writeFormula(trimmingFinalNewline(tex), display: true)
        out.literal("</div>\n")
    }

    /// The formula itself, in the form `options.math` asks for.
    mutating func writeFormula(_ tex: ArraySlice<UInt8>, display: Bool) {
        switch options.math {
        case .tex:
            out.literal(display ? "\\[" : "\\(")
            out.text(tex)
            out.literal(display ? "\\]" : "\\)")
        case .mathML:
            // The converter's output is valid, escaped UTF-8: it goes into the output as it is.
            mathScratch.removeAll(keepingCapacity: true)
            TeXMath.writeHTML(tex, display: display, locale: options.locale, into: &mathScratch)
            mathScratch.withUnsafeBufferPointer { out.put($0) }
        }
    }
}
