// `macmd-bench pathological`: every pathological case at 1x and Nx, judged linear or not (see
// the usage at the top of BenchCommand.swift and docs/hardening.md, "Every construct linear").

import CommandLineIO
import MacMDBench

extension BenchCommand {
    static func pathological(_ arguments: [String]) -> Int32 {
        var scale = 10
        var divisor = 1
        var only: [String] = []
        var showPhases = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--scale":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value > 1 else {
                    StandardStreams.writeError(usage)
                    return 2
                }
                scale = value
            case "--divisor":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else {
                    StandardStreams.writeError(usage)
                    return 2
                }
                divisor = value
            case "--case":
                guard let name = rest.popFirst() else {
                    StandardStreams.writeError(usage)
                    return 2
                }
                only.append(name)
            case "--phases":
                showPhases = true
            default:
                StandardStreams.writeError(usage)
                return 2
            }
        }
        let pairs = zip(PathologicalCases.cases(divisor: divisor, multiplier: 1),
                        PathologicalCases.cases(divisor: divisor, multiplier: scale)).filter { pair in
            only.isEmpty || only.contains { pair.0.name.contains($0) }
        }
        var wrong = 0
        var quadratic = 0
        StandardStreams.writeOutput(Array(PathologicalJudge.header(scale: scale).utf8))
        for (one, many) in pairs {
            var judge = PathologicalJudge(one: one, many: many)
            if judge.isQuadratic {
                // Once more, twice, keeping the best times: a pause of the machine is no verdict.
                judge.measureAgain()
                judge.measureAgain()
            }
            if judge.isRight == false { wrong += 1 }
            if judge.isQuadratic { quadratic += 1 }
            StandardStreams.writeOutput(Array(judge.row(phases: showPhases).utf8))
        }
        let summary = "\(pairs.count) cases, \(wrong) with wrong output, \(quadratic) superlinear: "
            + (wrong == 0 && quadratic == 0 ? "LINEAR" : "QUADRATIC") + "\n"
        StandardStreams.writeOutput(Array(summary.utf8))
        return wrong == 0 && quadratic == 0 ? 0 : 1
    }
}

/// One pathological case at 1x and Nx, and the verdict: its Nx time may be at most twice the
/// 1x time times the growth of its input in bytes (the scale, or near it). Times under
/// `noise` seconds at Nx are no evidence either way.
struct PathologicalJudge {
    static let noise = 0.020
    let one: PathologicalCases.Case
    let many: PathologicalCases.Case
    /// The best runs so far (fewest seconds).
    var small: PathologicalCases.Run
    var large: PathologicalCases.Run
    /// The output at 1x (nil when only `swift test` can tell).
    let isRight: Bool?

    init(one: PathologicalCases.Case, many: PathologicalCases.Case) {
        self.one = one
        self.many = many
        small = PathologicalCases.run(one)
        isRight = one.isRight(small)
        large = PathologicalCases.run(many)
    }

    var bytesOne: Int { one.input.utf8.count }
    var bytesMany: Int { many.input.utf8.count }
    var growth: Double { Double(bytesMany) / Double(max(bytesOne, 1)) }
    var ratio: Double { large.seconds / max(small.seconds, 1e-6) }
    var isQuadratic: Bool { large.seconds >= Self.noise && ratio > 2 * growth }

    mutating func measureAgain() {
        let again = (PathologicalCases.run(one), PathologicalCases.run(many))
        if again.0.seconds < small.seconds { small = again.0 }
        if again.1.seconds < large.seconds { large = again.1 }
    }

    static func header(scale: Int) -> String {
        "case".padding(52) + "bytes 1x".leftPad(11) + "bytes \(scale)x".leftPad(12) + "1x (s)".leftPad(9) + "\(scale)x (s)".leftPad(9)
            + "ratio".leftPad(7) + "/bytes".leftPad(7) + "  output        verdict\n"
    }

    /// What is wrong with the 1x output: where the HTML first differs from the expected, and
    /// what the served note had.
    func wrongness() -> String {
        var said = ""
        if let exact = one.exact, small.html != exact {
            let got = Array(small.html.utf8)
            let expected = Array(exact.utf8)
            var index = 0
            while index < got.count, index < expected.count, got[index] == expected[index] { index += 1 }
            func around(_ bytes: [UInt8]) -> String {
                String(decoding: bytes[max(0, index - 60)..<min(bytes.count, index + 60)], as: UTF8.self)
            }
            said += "    HTML differs at byte \(index):\n      got      \(around(got).debugDescription)\n"
                + "      expected \(around(expected).debugDescription)\n"
        }
        if let served = small.served {
            said += "    served: \(served.symbols.links.count) links, \(served.symbols.tags.count) tags, \(served.symbols.headings.count) headings, "
                + "\(served.documentLinks.count) document links, \(served.folding.count) folds, \(served.formatting.count) formatting edits, "
                + "diagnostics \(served.diagnosticCounts.sorted { $0.key < $1.key })\n"
        }
        return said
    }

    /// The case's line of the table; with `phases` (or when it is superlinear), the phases
    /// after it, the ones that grew most first.
    func row(phases: Bool) -> String {
        let output = isRight.map { $0 ? "ok" : "WRONG" } ?? "(swift test)"
        let verdict = large.seconds < Self.noise ? "(too fast)" : isQuadratic ? "QUADRATIC" : "linear"
        var line = one.name.padding(52) + String(bytesOne).leftPad(11) + String(bytesMany).leftPad(12)
            + BenchCommand.format(small.seconds, 3).leftPad(9) + BenchCommand.format(large.seconds, 3).leftPad(9)
            + BenchCommand.format(ratio, 1).leftPad(7) + BenchCommand.format(ratio / growth, 2).leftPad(7)
            + "  " + output.padding(14) + verdict + "\n"
        if isRight == false { line += wrongness() }
        guard phases || isQuadratic, small.phases.count == large.phases.count else { return line }
        let byExcess = zip(small.phases, large.phases).sorted {
            $0.1.seconds - growth * $0.0.seconds > $1.1.seconds - growth * $1.0.seconds
        }
        for (a, b) in byExcess where b.seconds >= 0.001 {
            line += "    " + a.name.padding(48) + "".leftPad(23) + BenchCommand.format(a.seconds, 3).leftPad(9)
                + BenchCommand.format(b.seconds, 3).leftPad(9) + BenchCommand.format(b.seconds / max(a.seconds, 1e-6), 1).leftPad(7) + "\n"
        }
        return line
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
