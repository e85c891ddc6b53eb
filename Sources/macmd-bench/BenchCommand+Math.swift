// `macmd-bench math [--rounds N] [FILE]`: TeX to MathML throughput.
//
// Converts every formula of FILE (one a line; a line that starts with `D ` is display maths), or
// of a built-in set of the formulas notes use, N times (default 5), and prints the best round as
// formulas per second and input / output MB/s. Then the linearity check: a long formula and a
// chain of deep (but legal) nesting, each at 1x and 10x its size, with the time ratio (linear is
// about 10).

import CommandLineIO
import TeXMath

extension BenchCommand {
    /// Formulas as notes write them: inline and display, from a fraction to a matrix.
    static let noteFormulas: [(String, Bool)] = [
        ("x^2 + y^2 = z^2", false), ("\\alpha + \\beta", false), ("E = mc^2", false),
        ("\\frac{a}{b}", false), ("\\sqrt{x^2+1}", false), ("a_{ij}", false), ("\\mathbb{R}^n", false),
        ("f(x) = \\sin x + \\cos x", false), ("\\sum_{i=1}^n i = \\frac{n(n+1)}{2}", true),
        ("\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}", true),
        ("\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1", true),
        ("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}", true),
        ("f(x) = \\begin{cases} x^2 & x \\ge 0 \\\\ -x & \\text{otherwise} \\end{cases}", true),
        ("\\begin{aligned} (a+b)^2 &= a^2 + 2ab + b^2 \\\\ &= b^2 + 2ab + a^2 \\end{aligned}", true),
        ("\\left( \\frac{1}{2} \\right)^{n}", false), ("\\hat{x}, \\bar{y}, \\vec{v}", false),
        ("\\operatorname{rank}(A) \\le \\min(m, n)", false), ("p \\implies q", false),
        ("\\forall \\varepsilon > 0 \\; \\exists \\delta > 0", false), ("\\{ x \\in \\mathbb{Z} : x > 0 \\}", false),
        ("\\binom{n}{k} = \\frac{n!}{k!(n-k)!}", true), ("\\nabla \\cdot \\mathbf{E} = \\frac{\\rho}{\\varepsilon_0}", true),
        ("\\overbrace{1 + \\cdots + 1}^{n}", true), ("a \\equiv b \\pmod{m}", false), ("\\text{pH} = -\\log_{10} [H^+]", false),
        ("\\mathcal{O}(n \\log n)", false), ("P(A \\mid B) = \\frac{P(B \\mid A) P(A)}{P(B)}", true),
        ("\\det \\begin{vmatrix} 1 & 2 \\\\ 3 & 4 \\end{vmatrix} = -2", true), ("\\|v\\|_2", false), ("3.14159", false),
    ]

    static func math(_ arguments: [String]) -> Int32 {
        let usage = "usage: macmd-bench math [--rounds N] [FILE]\n"
        var rounds = 5
        var path: String?
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--rounds", index + 1 < arguments.count, let n = Int(arguments[index + 1]), n > 0 {
                rounds = n
                index += 2
            } else if !arguments[index].hasPrefix("-"), path == nil {
                path = arguments[index]
                index += 1
            } else {
                StandardStreams.writeError(usage)
                return 2
            }
        }
        var formulas: [([UInt8], Bool)] = noteFormulas.map { (Array($0.0.utf8), $0.1) }
        if let path {
            guard case .success(let bytes) = StandardStreams.readInput(path: path) else {
                StandardStreams.writeError("macmd-bench math: cannot read \(path)\n")
                return 2
            }
            formulas = bytes.split(separator: UInt8(ascii: "\n")).map { line in
                line.starts(with: "D ".utf8) ? (Array(line.dropFirst(2)), true) : (Array(line), false)
            }
        }
        // Enough repetitions for a round of about a second on a fast machine.
        let repeats = max(1, 200_000 / max(1, formulas.count))
        var errors = 0
        var output: [UInt8] = []
        for (tex, display) in formulas where TeXMath.write(tex[...], display: display, into: &output) != nil { errors += 1 }
        let inputBytes = formulas.reduce(0) { $0 + $1.0.count } * repeats
        var best = Double.infinity
        var outputBytes = 0
        for _ in 0..<rounds {
            let start = now()
            outputBytes = 0
            for _ in 0..<repeats {
                for (tex, display) in formulas {
                    output.removeAll(keepingCapacity: true)
                    TeXMath.writeHTML(tex[...], display: display, into: &output)
                    outputBytes += output.count
                }
            }
            best = min(best, now() - start)
        }
        let count = formulas.count * repeats
        StandardStreams.writeOutput(Array("""
            \(formulas.count) formulas\(path == nil ? " (built-in set)" : ""), \(errors) with errors, \(count) conversions a round, best of \(rounds)
            \(format(Double(count) / best, 0)) formulas/s, \(format(Double(inputBytes) / best / 1e6, 2)) MB/s of TeX, \(format(Double(outputBytes) / best / 1e6, 1)) MB/s of MathML

            """.utf8))
        linearity()
        return 0
    }

    /// One long formula and a chain of deep groups at 1x and 10x: the seconds and their ratio.
    private static func linearity() {
        let unit = "a_{i}^{2} + \\frac{x}{y} - \\left( b \\right) \\cdot \\sqrt{c} + "
        let deep = String(repeating: "{", count: TeXMath.maximumNestingDepth - 1) + "x"
            + String(repeating: "}", count: TeXMath.maximumNestingDepth - 1) + " "
        StandardStreams.writeOutput(Array("case                       bytes(1x)   1x (s)   10x (s)  ratio\n".utf8))
        for (name, piece, count) in [("long formula", unit, 800), ("deep nesting, repeated", deep, 400)] {
            var seconds: [Double] = []
            var size = 0
            for scale in [1, 10] {
                let tex = Array(String(repeating: piece, count: count * scale).utf8)
                if scale == 1 { size = tex.count }
                var output: [UInt8] = []
                var best = Double.infinity
                for _ in 0..<3 {
                    output.removeAll(keepingCapacity: true)
                    let start = now()
                    let error = TeXMath.write(tex[...], display: true, into: &output)
                    best = min(best, now() - start)
                    if let error { StandardStreams.writeError("\(name): \(error.message)\n") }
                }
                seconds.append(best)
            }
            let padded = name + String(repeating: " ", count: max(0, 26 - name.count))
            StandardStreams.writeOutput(Array(
                "\(padded) \(size)   \(format(seconds[0], 4))   \(format(seconds[1], 4))  \(format(seconds[1] / seconds[0], 1))\n".utf8))
        }
    }
}
