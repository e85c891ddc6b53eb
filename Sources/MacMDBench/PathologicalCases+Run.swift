import MarkdownHTML
import MarkdownSyntax

extension PathologicalCases {
    /// One run of a case: what it gave and how long each part took.
    public struct Run: Sendable {
        /// The HTML of the case's own profile (`HTMLOptions(safe: false)`).
        public var html: String
        /// What the server made of the input as a note, for `indexed` cases.
        public var served: ServedNote?
        /// Parse and render, then the served note's phases, in order.
        public var phases: [ServedNote.Phase]
        /// The whole run.
        public var seconds: Double { phases.reduce(0) { $0 + $1.seconds } }
    }

    /// Parses and renders a case, and serves it as a note when it is `indexed`.
    public static func run(_ testCase: Case) -> Run {
        let input = Array(testCase.input.utf8)
        let start = BenchClock.now()
        let tree = MarkdownParser.parse(input, options: ParseOptions(extensions: testCase.extensions))
        let parsed = BenchClock.now()
        let html = HTMLRenderer(options: HTMLOptions(safe: false)).renderString(tree)
        let rendered = BenchClock.now()
        var phases = [ServedNote.Phase(name: "parse (own profile)", seconds: parsed - start),
                      ServedNote.Phase(name: "render", seconds: rendered - parsed)]
        var served: ServedNote? = nil
        if testCase.indexed {
            let note = ServedNote.serve(input)
            phases += note.phases
            served = note
        }
        return Run(html: html, served: served, phases: phases)
    }
}

extension PathologicalCases.Case {
    /// Whether a run gave the right output, as far as `verify`, `exact` and `served` tell; nil
    /// when none of them is set (only the regular expression `check` can tell, which
    /// `swift test` evaluates).
    public func isRight(_ run: PathologicalCases.Run) -> Bool? {
        var verdict: Bool? = nil
        if let verify { verdict = verify(run.html) }
        if let exact { verdict = (verdict ?? true) && run.html == exact }
        if let served {
            verdict = (verdict ?? true) && (run.served.map(served) ?? false)
        }
        return verdict
    }
}
