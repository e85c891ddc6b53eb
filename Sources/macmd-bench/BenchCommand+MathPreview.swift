// `macmd-bench preview --maths [--rounds N] [--write-note FILE [--without-maths]]`: what maths as
// MathML costs a preview.
//
// Generates `MathNote` (about 1 MB with 2,000 formulas, 70% inline; the same bytes on every
// machine) and measures, best of N rounds (default 5), three versions of it: the note rendered
// with MathML (what previews and full pages write), the same note with `--math tex`, and the
// note with its maths taken out. For each: the parse, the render on one core, the whole preview
// (`PreviewBuilder`: the HTML on every core, with the outline and counts beside it), the
// symbols the index keeps (`TeXMath.check` of every formula included: what `math-error` costs
// the index) and the size of the HTML. Then the converter alone on the note's formulas, in
// formulas per second. `--write-note FILE` writes the note instead (to profile it, or to give it
// to `macmd-bench lsp --note`), `--without-maths` the note with its maths taken out.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import MacMDBench
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import TeXMath

extension BenchCommand {
    static func mathPreview(_ arguments: [String]) -> Int32 {
        let usage = "usage: macmd-bench preview --maths [--rounds N] [--write-note FILE [--without-maths]]\n"
        var rounds = 5
        var writePath: String?
        var withoutMaths = false
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--maths":
                index += 1
            case "--rounds" where index + 1 < arguments.count && (Int(arguments[index + 1]) ?? 0) > 0:
                rounds = Int(arguments[index + 1]) ?? rounds
                index += 2
            case "--without-maths":
                withoutMaths = true
                index += 1
            case "--write-note" where index + 1 < arguments.count:
                writePath = arguments[index + 1]
                index += 2
            default:
                StandardStreams.writeError(usage)
                return 2
            }
        }
        let note = MathNote()
        if let writePath {
            let fd = open(writePath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0, StandardStreams.writeAll(withoutMaths ? note.withoutMaths : note.withMaths, to: fd) else {
                StandardStreams.writeError("macmd-bench preview: cannot write \(writePath)\n")
                return 1
            }
            close(fd)
            return 0
        }

        struct Case {
            var name: String
            var source: [UInt8]
            var math: MathMarkup
            var best: [String: Double] = [:]
            var htmlBytes = 0
        }
        var cases = [
            Case(name: "MathML", source: note.withMaths, math: .mathML),
            Case(name: "--math tex", source: note.withMaths, math: .tex),
            Case(name: "maths removed", source: note.withoutMaths, math: .mathML),
        ]
        for _ in 0..<rounds {
            // Each round measures the cases in turn, so a busy moment of the machine does not
            // fall on one case's every round.
            for i in cases.indices {
                var html = HTMLOptions(safe: true, sourceLines: true, headingIDs: true, collapseNestedStrong: true)
                html.highlightCode = true
                html.math = cases[i].math
                func measure(_ name: String, _ body: () -> Void) {
                    let start = now()
                    body()
                    cases[i].best[name] = min(cases[i].best[name] ?? .infinity, now() - start)
                }
                var tree = MarkdownParser.parse([UInt8](), options: .notebook)
                let source = cases[i].source
                measure("parse") { tree = MarkdownParser.parse(source, options: .notebook) }
                var size = 0
                measure("render") { size = HTMLRenderer(options: html).render(tree).count }
                cases[i].htmlBytes = size
                measure("preview") { _ = PreviewBuilder.build(tree: tree, fileName: "maths.md", html: html) }
                measure("symbols") { _ = NoteSymbols.extract(from: tree, path: "maths.md") }
            }
        }

        var report = "A generated note: \(note.withMaths.count) bytes, \(note.formulas.count) formulas "
            + "(\(note.inlineCount) inline, \(note.formulas.count - note.inlineCount) display); "
            + "without its maths \(note.withoutMaths.count) bytes. Best of \(rounds), ms:\n"
        report += pad("", 16) + pad("parse", 9) + pad("render", 9) + pad("preview", 9) + pad("symbols", 9) + "HTML bytes\n"
        for entry in cases {
            report += pad(entry.name, 16)
            for name in ["parse", "render", "preview", "symbols"] {
                report += pad(format((entry.best[name] ?? 0) * 1000, 2), 9)
            }
            report += "\(entry.htmlBytes)\n"
        }

        // The converter alone: every formula of the note, as the renderer converts them.
        let formulas = note.formulas.map { (Array($0.tex.utf8), $0.display) }
        var output: [UInt8] = []
        var errors = 0
        var convert = Double.infinity, check = Double.infinity
        for _ in 0..<rounds {
            var start = now()
            errors = 0
            for (tex, display) in formulas {
                output.removeAll(keepingCapacity: true)
                if TeXMath.writeHTML(tex[...], display: display, into: &output) != nil { errors += 1 }
            }
            convert = min(convert, now() - start)
            start = now()
            for (tex, _) in formulas { _ = tex.withUnsafeBufferPointer { TeXMath.check($0) } }
            check = min(check, now() - start)
        }
        report += "converter: \(formulas.count) formulas (\(errors) with errors) to MathML in \(format(convert * 1000, 2)) ms, "
            + "\(format(Double(formulas.count) / convert, 0)) formulas/s; checked only (macmd check) in "
            + "\(format(check * 1000, 2)) ms, \(format(Double(formulas.count) / check, 0)) formulas/s\n"
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// `text` padded with spaces to `width` characters.
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
