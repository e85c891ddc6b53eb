import Foundation
import XCTest
import TeXMath
import TestSupport

/// Malformed formulas give an error that says what was not understood, and where; none traps.
final class MalformedInputTests: XCTestCase {
    func testUnknownCommandsAndEnvironments() {
        checkErrors([
            ErrorCase("\\foo", "unknown command \\foo", at: 0),
            ErrorCase("x + \\alphax", "unknown command \\alphax", at: 4),
            ErrorCase("\\", "\\ at the end of the formula", at: 0),
            ErrorCase("\\begin{foo} a \\end{foo}", "unknown environment {foo}", at: 7),
            ErrorCase("\\text{\\frac12}", "\\frac is not allowed in text", at: 6),
            ErrorCase("\\text{\\le}", "\\le is only allowed in maths", at: 6),
            ErrorCase("\\'e", "\\' is only allowed in text", at: 0),
            ErrorCase("\\newcommand{\\R}{\\mathbb{R}}", "unknown command \\newcommand", at: 0),
            // A long name is cut in the message.
            ErrorCase("\\" + String(repeating: "a", count: 100), "unknown command \\" + String(repeating: "a", count: 40) + "…", at: 0),
            ErrorCase("\\begin{" + String(repeating: "é", count: 30) + "}", "unknown environment {" + String(repeating: "é", count: 20) + "…}", at: 7),
        ])
    }

    func testBracesAndGroups() {
        checkErrors([
            ErrorCase("{a", "unbalanced braces: missing }", at: 0),
            ErrorCase("a}", "unbalanced braces: extra }", at: 1),
            ErrorCase("\\frac{a}{b", "unbalanced braces: missing }", at: 8),
            ErrorCase("\\text{abc", "unbalanced braces: missing }", at: 5),
            ErrorCase("x^{2", "unbalanced braces: missing }", at: 2),
            ErrorCase("\\mathbb{R", "unbalanced braces: missing }", at: 7),
            ErrorCase("\\begin{matrix", "unbalanced braces: missing }", at: 6),
            ErrorCase("{a & b}", "misplaced & inside braces", at: 3),
            ErrorCase("\\begingroup a", "missing \\endgroup for \\begingroup", at: 0),
            ErrorCase("a \\endgroup", "\\endgroup without \\begingroup", at: 2),
        ])
    }

    func testMissingArguments() {
        checkErrors([
            ErrorCase("\\frac{a}", "missing argument for \\frac", at: 8),
            ErrorCase("\\frac", "missing argument for \\frac", at: 5),
            ErrorCase("\\sqrt", "missing argument for \\sqrt", at: 5),
            ErrorCase("\\sqrt[3", "missing ] after \\sqrt", at: 5),
            ErrorCase("\\hat}", "missing argument for \\hat", at: 4),
            ErrorCase("x^", "missing superscript after ^", at: 2),
            ErrorCase("x_", "missing subscript after _", at: 2),
            ErrorCase("x^}", "missing superscript after ^", at: 2),
            ErrorCase("\\mathbf", "missing argument for \\mathbf", at: 7),
            ErrorCase("\\textcolor{red}", "missing argument for \\textcolor", at: 15),
            ErrorCase("\\text", "missing argument for \\text", at: 5),
            ErrorCase("\\frac{a}\\right)", "missing argument for \\frac", at: 8),
        ])
    }

    func testScripts() {
        checkErrors([
            ErrorCase("x^2^3", "double superscript", at: 3),
            ErrorCase("x_1_2", "double subscript", at: 3),
            ErrorCase("x^2'", "double superscript", at: 3),
            ErrorCase("\\limits", "\\limits must follow an operator", at: 0),
            ErrorCase("x\\nolimits", "\\nolimits must follow an operator", at: 1),
        ])
    }

    func testEnvironmentsAndDelimiters() {
        checkErrors([
            ErrorCase("\\begin{matrix} a", "missing \\end{matrix}", at: 0),
            ErrorCase("\\begin{matrix} a & b \\end{pmatrix}", "\\end{pmatrix} does not match \\begin{matrix}", at: 21),
            ErrorCase("{\\begin{matrix} a }", "missing \\end{matrix}", at: 1),
            ErrorCase("\\end{matrix}", "\\end without \\begin", at: 0),
            ErrorCase("\\begin{array}{cp{2cm}} a \\end{array}", "unexpected { in the argument of \\begin", at: 16),
            ErrorCase("\\begin{array}{x} a \\end{array}", "unsupported column specification \"x\" (l, c, r, | and : are)", at: 14),
            ErrorCase("\\begin{array}{} a \\end{array}", "the array needs at least one column (l, c or r)", at: 14),
            ErrorCase("\\begin{alignedat}{x} a \\end{alignedat}", "{alignedat} needs a number of columns", at: 18),
            ErrorCase("a & b", "misplaced &: only environments have columns", at: 2),
            ErrorCase("\\hline", "\\hline is only allowed at the start of a table row", at: 0),
            ErrorCase("\\left( x", "missing \\right for \\left", at: 0),
            ErrorCase("\\right)", "\\right without \\left", at: 0),
            ErrorCase("\\middle|", "\\middle without \\left", at: 0),
            ErrorCase("\\left x \\right)", "\\left needs a delimiter", at: 6),
            ErrorCase("\\left( x \\right", "\\right needs a delimiter", at: 15),
            ErrorCase("\\left\\alpha x \\right)", "\\left needs a delimiter, not \\alpha", at: 5),
            ErrorCase("\\left( \\begin{matrix} a \\right)", "missing \\end{matrix}", at: 7),
            ErrorCase("\\substack{a & b}", "misplaced & inside braces", at: 12),
        ])
    }

    func testValuesAndMisuse() {
        checkErrors([
            ErrorCase("\\color{zz#}{x}", "invalid color \"zz#\" for \\color", at: 6),
            ErrorCase("\\textcolor{red;x:1}{x}", "invalid color \"red;x:1\" for \\textcolor", at: 10),
            ErrorCase("\\hspace{2}", "invalid dimension \"2\" for \\hspace", at: 7),
            ErrorCase("\\hspace{1px}", "invalid dimension \"1px\" for \\hspace", at: 7),
            ErrorCase("\\kern", "missing or invalid dimension after \\kern", at: 5),
            ErrorCase("a \\\\[x] b", "invalid dimension \"x\" after \\\\", at: 5),
            ErrorCase("a\\over b\\over c", "ambiguous: two of \\over, \\atop, \\choose in one group; add braces", at: 8),
            ErrorCase("\\not{ab}", "\\not must be followed by a symbol", at: 0),
            ErrorCase("\\tag{1}\\tag{2}", "only one \\tag per formula", at: 7),
            ErrorCase("\\verb", "\\verb needs a delimiter", at: 0),
            ErrorCase("\\verb|abc", "missing closing | for \\verb", at: 0),
            ErrorCase("\\genfrac(){x}{0}{a}{b}", "invalid dimension \"x\" for \\genfrac", at: 11),
            ErrorCase("\\genfrac(){}{9}{a}{b}", "\\genfrac style must be 0, 1, 2 or 3", at: 13),
            ErrorCase("\\smash[x]{a}", "\\smash takes [t], [b] or [tb]", at: 7),
            ErrorCase("#1", "# (macro parameters) is not supported", at: 0),
            ErrorCase("a$b", "unexpected $", at: 1),
            ErrorCase("\\text{$x}", "missing closing $ in text", at: 6),
            ErrorCase("\\text{a^b}", "^ is not allowed in text", at: 7),
            ErrorCase("a\u{1}b", "unexpected character U+0001", at: 1),
            ErrorCase("x^\\color{red}y", "\\color must be inside braces here", at: 2),
        ])
    }

    func testNestingBeyondTheBoundIsAnError() {
        let depth = TeXMath.maximumNestingDepth
        let message = "nested deeper than \(depth) levels"
        for (name, open, close) in Self.nestings {
            let tooDeep = String(repeating: open, count: depth + 1) + "x" + String(repeating: close, count: depth + 1)
            guard case .error(let error) = TeXMath.mathML(tooDeep, display: true) else {
                XCTFail("\(name): \(depth + 1) levels converted")
                continue
            }
            XCTAssertEqual(error.message.english, message, name)
        }
        // Far beyond the bound: an error as well, not a stack overflow.
        let huge = String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)
        XCTAssertEqual(TeXMath.check(huge)?.message.english, message)
    }

    /// Ways to nest: each pair opens and closes one level.
    static let nestings: [(String, String, String)] = [
        ("braces", "{", "}"),
        ("fractions", "\\frac{1}{", "}"),
        ("roots", "\\sqrt{", "}"),
        ("roots without braces", "\\sqrt ", ""),
        ("superscripts", "x^{", "}"),
        ("left and right", "\\left(", "\\right)"),
        ("matrices", "\\begin{pmatrix}", "\\end{pmatrix}"),
        ("text", "\\text{", "}"),
        ("groups in text", "\\text{{", "}}"),
        ("colour", "\\textcolor{red}{", "}"),
        ("accents", "\\hat ", ""),
        ("fonts", "\\mathbf{", "}"),
        ("negation of groups", "\\not{", "}"),
    ]

    func testLegalDeepNestingConvertsOnASmallStack() {
        // The renderer may run on a secondary thread, whose stack is 512 KiB on macOS. A release
        // build needs about 2 KiB a level (64 levels: about 135 KiB); a debug build's frames are
        // about ten times bigger, so it gets 4 MiB here.
        let depth = TeXMath.maximumNestingDepth
        let failures = Failures()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for (name, open, close) in Self.nestings where name != "negation of groups" && name != "groups in text" {
                // The row of the formula itself is one level.
                let legal = String(repeating: open, count: depth - 1) + "x" + String(repeating: close, count: depth - 1)
                if case .error(let error) = TeXMath.mathML(legal, display: true) {
                    failures.list.append("\(name): \(error.message.english)")
                }
            }
            done.signal()
        }
        #if DEBUG
        thread.stackSize = 4 << 20
        #else
        thread.stackSize = 512 << 10
        #endif
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.list, [])
    }

    /// What the thread found; read only after its semaphore is signalled.
    private final class Failures: @unchecked Sendable {
        var list: [String] = []
    }

    /// Random soups of TeX tokens: every one gives MathML whose tags balance, or an error.
    func testRandomInputNeverTrapsAndGivesBalancedMarkup() {
        let pieces = ["{", "}", "^", "_", "&", "\\\\", "x", "2", "+", "(", ")", "[", "]", "|", "'", " ", "%", "\n",
                      "\\frac", "\\sqrt", "\\left(", "\\right)", "\\middle|", "\\begin{matrix}", "\\end{matrix}",
                      "\\begin{cases}", "\\end{cases}", "\\text{", "$", "\\hat", "\\mathbf", "\\over", "\\color{red}",
                      "\\sum", "\\limits", "\\int", "\\alpha", "\\not", "\\operatorname*", "\\hspace{1em}", "\\verb|",
                      "\\\\[1ex]", "\\hline", "\\tag{", "é", "\u{FF}", "\\", "~", "#", "\\left.", "\\right."]
        var random = SeededGenerator(state: 12)
        var converted = 0
        for _ in 0..<3000 {
            var tex = ""
            for _ in 0...random.next(24) { tex += pieces[random.next(pieces.count)] }
            for display in [false, true] {
                switch TeXMath.mathML(tex, display: display) {
                case .mathML(let output):
                    converted += 1
                    XCTAssertTrue(Self.tagsBalance(output), "unbalanced output for \(tex): \(output)")
                case .error(let error):
                    XCTAssertFalse(error.message.english.isEmpty)
                    XCTAssertTrue((0...tex.utf8.count).contains(error.utf8Offset), "offset out of range for \(tex)")
                }
            }
        }
        XCTAssertGreaterThan(converted, 100, "the soup should convert now and then")
    }

    /// True when every `<tag>` has its `</tag>` in order.
    static func tagsBalance(_ markup: String) -> Bool {
        var stack: [Substring] = []
        var rest = markup[...]
        while let open = rest.firstIndex(of: "<") {
            guard let end = rest[open...].firstIndex(of: ">") else { return false }
            let tag = rest[rest.index(after: open)..<end]
            if tag.hasPrefix("/") {
                guard stack.popLast() == tag.dropFirst() else { return false }
            } else {
                stack.append(tag.prefix { $0 != " " })
            }
            rest = rest[rest.index(after: end)...]
        }
        return stack.isEmpty
    }

    func testTheErrorElementShowsTheSource() {
        var output: [UInt8] = []
        let tex = Array("\\foo <b> & \"q\"".utf8)
        let error = TeXMath.writeHTML(tex[...], display: false, into: &output)
        XCTAssertEqual(error?.message.english, "unknown command \\foo")
        XCTAssertEqual(String(decoding: output, as: UTF8.self),
                       #"<code class="math-error" title="unknown command \foo">\foo &lt;b&gt; &amp; &quot;q&quot;</code>"#)
        // Nothing of a failed formula is left in the buffer before the error element.
        output = Array("before ".utf8)
        XCTAssertNotNil(TeXMath.write(Array("\\frac{a".utf8)[...], display: true, into: &output))
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "before ")
    }

    func testAFormulaPastTheLengthLimitIsAnError() {
        let long = String(repeating: "x", count: TeXMath.maximumFormulaLength + 1)
        XCTAssertEqual(TeXMath.check(long)?.message.english, "formula longer than \(TeXMath.maximumFormulaLength) bytes")
    }
}
