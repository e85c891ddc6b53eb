// MathNote: a long note full of maths, for `macmd-bench preview --maths` and its tests.
//
// Invariants:
// - A pure function of its arguments: the same bytes on every machine (`GeneratorRandom`).
// - Exactly `formulas` formulas, every one of them understood by the converter (a bench of
//   errors would measure the error path); about 70% inline (`$…$`), the rest display maths:
//   `$$` blocks, ```` ```math ```` fences and `$$…$$` inside a paragraph.
// - `withoutMaths` is the same note with every formula taken out (an inline one with the space
//   before it, a display block whole) and nothing else changed: the two differ only by maths.
// - The prose between formulas is spread so that the note comes to about `bytes` bytes.

/// A deterministic note of prose and maths, and the same note without its maths.
public struct MathNote: Sendable {
    /// One formula of the note.
    public struct Formula: Sendable, Equatable {
        public var tex: String
        public var display: Bool
    }

    /// The note.
    public var withMaths: [UInt8]
    /// The same note without a single formula.
    public var withoutMaths: [UInt8]
    /// Every formula, in the order the note holds them.
    public var formulas: [Formula]

    /// How many of the formulas are inline.
    public var inlineCount: Int { formulas.filter { !$0.display }.count }

    /// A note of about `bytes` bytes with `formulas` formulas.
    public init(bytes: Int = 1_000_000, formulas count: Int = 2_000, seed: UInt64 = 0x6D61_7468) {
        var random = GeneratorRandom(seed: seed)
        var writer = Writer()
        writer.both("---\ntitle: Notes on linear algebra and analysis\ntags: [maths, bench]\n---\n")
        writer.both("# Notes on linear algebra and analysis\n\n")
        var formulas: [Formula] = []
        formulas.reserveCapacity(count)
        var section = 0
        var paragraphOpen = false
        for index in 0..<count {
            if index % 25 == 0 {
                if paragraphOpen { writer.both("\n\n") }
                paragraphOpen = false
                section += 1
                writer.both("## Section \(section): \(random.pick(MathNote.topics))\n\n")
            }
            // The prose still owed, shared out over the formulas still to come.
            let proseBytes = max(40, (bytes - writer.withMaths.count) / (count - index) - 48)
            let display = random.chance(300)
            if display {
                if paragraphOpen {
                    writer.prose(proseBytes / 2, &random)
                    writer.both("\n\n")
                    paragraphOpen = false
                }
                let tex = MathNote.displayFormula(&random)
                switch random.below(10) {
                case 0:
                    writer.both(MathNote.sentence(&random) + " ")
                    writer.maths("$$" + tex + "$$", instead: "")
                    writer.both(" " + MathNote.sentence(&random) + "\n\n")
                case 1, 2:
                    writer.maths("```math\n" + tex + "\n```\n\n", instead: "")
                default:
                    writer.maths("$$\n" + tex + "\n$$\n\n", instead: "")
                }
                formulas.append(Formula(tex: tex, display: true))
                writer.prose(proseBytes / 2, &random)
                paragraphOpen = true
            } else {
                if !paragraphOpen {
                    writer.both(MathNote.sentence(&random))
                    paragraphOpen = true
                }
                writer.prose(proseBytes / 2, &random)
                let tex = MathNote.inlineFormula(&random)
                writer.maths(" $" + tex + "$", instead: "")
                formulas.append(Formula(tex: tex, display: false))
                writer.both(random.chance(500) ? "," : " " + random.pick(MathNote.joins))
                writer.prose(proseBytes / 2, &random)
                if random.chance(250) {
                    writer.both("\n\n")
                    paragraphOpen = false
                }
            }
        }
        if paragraphOpen { writer.both("\n") }
        withMaths = writer.withMaths
        withoutMaths = writer.withoutMaths
        self.formulas = formulas
    }

    /// The two notes, written side by side.
    private struct Writer {
        var withMaths: [UInt8] = []
        var withoutMaths: [UInt8] = []

        mutating func both(_ text: String) {
            withMaths += text.utf8
            withoutMaths += text.utf8
        }

        /// Maths in one note, `replacement` in the other.
        mutating func maths(_ text: String, instead replacement: String) {
            withMaths += text.utf8
            withoutMaths += replacement.utf8
        }

        /// Sentences of about `count` bytes, each starting with a space.
        mutating func prose(_ count: Int, _ random: inout GeneratorRandom) {
            let end = withMaths.count + count
            while withMaths.count < end { both(" " + MathNote.sentence(&random)) }
        }
    }

    // MARK: Prose

    private static let topics = ["eigenvalues", "series", "integrals", "probability", "matrices", "limits", "vector calculus",
                                 "combinatorics", "Fourier analysis", "norms"]
    private static let words = ["the", "matrix", "is", "of", "a", "series", "converges", "and", "we", "take", "limit",
                                "so", "every", "term", "bounded", "by", "its", "norm", "which", "gives", "result",
                                "for", "each", "value", "in", "the", "proof", "holds", "when", "function", "is", "smooth"]
    private static let joins = ["where", "so", "hence", "since", "and"]

    /// A sentence of eight to sixteen words, capitalised, ending with a full stop.
    static func sentence(_ random: inout GeneratorRandom) -> String {
        var text = ""
        for index in 0..<random.inRange(8, 16) {
            let word = random.pick(words)
            if index == 0 {
                text += word.prefix(1).uppercased() + word.dropFirst()
            } else {
                text += " " + (random.chance(30) ? "*" + word + "*" : word)
            }
        }
        return text + "."
    }

    // MARK: Maths

    private static let letters = ["x", "y", "z", "a", "b", "n", "k", "t", "u", "v"]
    private static let greek = ["\\alpha", "\\beta", "\\gamma", "\\delta", "\\varepsilon", "\\theta", "\\lambda", "\\mu",
                                "\\sigma", "\\phi", "\\omega", "\\Omega", "\\Gamma", "\\Lambda"]
    private static let sets = ["\\mathbb{R}", "\\mathbb{C}", "\\mathbb{N}", "\\mathbb{Z}", "\\mathbb{Q}"]
    private static let functions = ["\\sin", "\\cos", "\\log", "\\exp", "\\tan"]

    /// A letter, a Greek letter or a subscripted letter.
    static func symbol(_ random: inout GeneratorRandom) -> String {
        switch random.below(3) {
        case 0: return random.pick(letters)
        case 1: return random.pick(greek)
        default: return random.pick(letters) + "_{" + random.pick(["i", "j", "k", "0", "1", "n"]) + "}"
        }
    }

    /// An inline formula as notes write them: short, a fraction or a power at most deep.
    static func inlineFormula(_ random: inout GeneratorRandom) -> String {
        let a = symbol(&random), b = symbol(&random), n = random.inRange(2, 9)
        switch random.below(12) {
        case 0: return "\(a)^{\(n)} + \(b)^{\(n)}"
        case 1: return "\\frac{\(a)}{\(b)}"
        case 2: return "\\sqrt{\(a)^2 + \(b)^2}"
        case 3: return "\(a) \\in \(random.pick(sets))^{\(n)}"
        case 4: return "\\sum_{i=1}^{n} \(random.pick(letters))_i"
        case 5: return "O(n \\log n)"
        case 6: return "\(random.pick(functions))(\(a)) \\le \(n)"
        case 7: return "\\|\(a)\\|_{\(n)}"
        case 8: return "P(A \\mid B) = \(n).\(random.below(100))"
        case 9: return "e^{i \(a)}"
        case 10: return "\(a) \\to \\infty"
        default: return "\(a) = \(random.inRange(1, 99))"
        }
    }

    /// A display formula: sums, integrals, limits, matrices, cases, aligned equations.
    static func displayFormula(_ random: inout GeneratorRandom) -> String {
        let a = symbol(&random), b = symbol(&random), x = random.pick(letters)
        let n = random.inRange(2, 9), m = random.inRange(1, 9)
        switch random.below(9) {
        case 0:
            return "\\sum_{k=1}^{n} k^{\(n)} = \\frac{n(n+1)}{\(m + 1)} + \(a)"
        case 1:
            return "\\int_{0}^{\\infty} e^{-\(a) \(x)}\\,d\(x) = \\frac{1}{\(a)}"
        case 2:
            return "\\begin{pmatrix} \(a) & \(b) \\\\ \(m) & \(n) \\end{pmatrix}"
                + "\\begin{pmatrix} \(x) \\\\ y \\end{pmatrix} = \\begin{pmatrix} \(a) \(x) + \(b) y \\\\ \(m) \(x) + \(n) y \\end{pmatrix}"
        case 3:
            return "f(\(x)) = \\begin{cases} \(x)^{\(n)} & \(x) \\ge 0 \\\\ -\(x) & \\text{otherwise} \\end{cases}"
        case 4:
            return "\\begin{aligned} \\nabla \\cdot \\mathbf{E} &= \\frac{\\rho}{\\varepsilon_0} \\\\ "
                + "\\nabla \\times \\mathbf{B} &= \\mu_0 \\mathbf{J} + \(a) \\end{aligned}"
        case 5:
            return "\\lim_{n \\to \\infty} \\left(1 + \\frac{\(x)}{n}\\right)^{n} = e^{\(x)}"
        case 6:
            return "\\det \\begin{bmatrix} \(a) & \(m) & 0 \\\\ \(n) & \(b) & 1 \\\\ 0 & 1 & \(x) \\end{bmatrix} = \(a) \(b) \(x) - \(a) - \(m * n) \(x)"
        case 7:
            return "\\binom{n}{\(m)} = \\frac{n!}{\(m)!\\,(n-\(m))!}"
        default:
            return "\\hat{\(a)} = \\operatorname{arg\\,min}_{\(b)} \\sum_{i=1}^{n} \\left( y_i - \(b)^{\\top} x_i \\right)^2"
        }
    }
}
