import MarkdownSyntax

/// The stress inputs of `../shared/spec/PATHOLOGICAL.md`, regenerated from its description.
/// `cases(divisor:multiplier:)` scales every count (the reference sizes at 1/1); the test suite
/// runs them small, `macmd-bench pathological` at 1x and 10x.
public enum PathologicalCases {
    public struct Case: Sendable {
        public var name: String
        public var input: String
        /// A regular expression that must be found in the output.
        public var check: String
        public var extensions: ParseOptions.Extensions = []
        /// When set, the whole output must equal this.
        public var exact: String? = nil
        /// When set, decides instead of `check` (for outputs too deep for ICU's regex engine).
        public var verify: (@Sendable (String) -> Bool)? = nil
        /// The bench and the test also serve the input as a note (`ServedNote`): its symbols filed
        /// into a notebook, its diagnostics, outline, folding, hovers, preview and LSP positions.
        /// Front matter and the notebook constructs are read mostly there.
        public var indexed = false
        /// When set, what serving the note gave must satisfy this (for `indexed` cases).
        public var served: (@Sendable (ServedNote) -> Bool)? = nil
    }

    /// Matches `(<tag>\n?)+` + middle + `(</tag>\n)+` over the whole output without a regex engine:
    /// deep outputs overflow ICU's backtracking stack.
    public static func isWrapped(_ html: String, openNewlineOptional: Bool, middle: (Substring.UTF8View) -> Int?) -> Bool {
        let b = Array(html.utf8)
        var i = 0
        func tag(closing: Bool) -> Bool {
            var j = i
            guard j < b.count, b[j] == UInt8(ascii: "<") else { return false }
            j += 1
            if closing {
                guard j < b.count, b[j] == UInt8(ascii: "/") else { return false }
                j += 1
            }
            let nameStart = j
            while j < b.count, (b[j] | 0x20) >= UInt8(ascii: "a") && (b[j] | 0x20) <= UInt8(ascii: "z") || (b[j] >= 0x30 && b[j] <= 0x39) { j += 1 }
            guard j > nameStart, j < b.count, b[j] == UInt8(ascii: ">") else { return false }
            j += 1
            if j < b.count, b[j] == 0x0A { j += 1 } else if closing || !openNewlineOptional { return false }
            i = j
            return true
        }
        var opens = 0
        while tag(closing: false) { opens += 1 }
        guard opens > 0 else { return false }
        let rest = Substring(html).utf8.dropFirst(i)
        guard let used = middle(rest) else { return false }
        i += used
        var closes = 0
        while tag(closing: true) { closes += 1 }
        return closes > 0 && i == b.count
    }


    /// Cases at `1/divisor` of the reference counts (the same generator serves the benchmark).
    public static func cases(divisor: Int = 1, multiplier: Int = 1) -> [Case] {
        func n(_ count: Int) -> Int { max(1, count * multiplier / divisor) }
        func rep(_ s: String, _ count: Int) -> String { String(repeating: s, count: count) }
        var cases: [Case] = []
        let a = n(32500)
        cases.append(Case(name: "nested strong emph", input: rep("*a **a ", a) + "b" + rep(" a** a*", a),
                          check: "", exact: "<p>" + rep("<em>a <strong>a ", a) + "b" + rep(" a</strong> a</em>", a) + "</p>\n"))
        cases.append(Case(name: "many emph closers with no openers", input: rep("a_ ", a), check: "(a_ ){\(a - 1)}a_"))
        cases.append(Case(name: "many emph openers with no closers", input: rep("_a ", a), check: "(_a ){\(a - 1)}_a"))
        cases.append(Case(name: "many link closers with no openers", input: rep("a]", a), check: "(a\\]){\(a)}"))
        cases.append(Case(name: "many link openers with no closers", input: rep("[a", a), check: "(\\[a){\(a)}"))
        let m = n(25000)
        cases.append(Case(name: "mismatched openers and closers", input: rep("*a_ ", m), check: "(\\*a_ ){\(m - 1)}\\*a_"))
        let k = n(20000)
        cases.append(Case(name: "issue #389", input: rep("*a ", k) + rep("_a*_ ", k),
                          check: "(<em>a ){\(k)}(_a</em>_ ?){\(k)}"))
        cases.append(Case(name: "openers and closers multiple of 3", input: "a**b" + rep("c* ", m),
                          check: "a\\*\\*b(c\\* ){\(m - 1)}c\\*"))
        cases.append(Case(name: "link openers and emph closers", input: rep("[ a_", m), check: "(\\[ a_){\(m)}"))
        let p = n(40000)
        cases.append(Case(name: "pattern [ (]( repeated", input: rep("[ (](", p), check: "(\\[ \\(\\]\\(){\(p)}"))
        let q = n(160000)
        cases.append(Case(name: "pattern ![[]() repeated", input: rep("![[]()", q), check: "(!\\[<a href=\"\"></a>){\(q)}"))
        cases.append(Case(name: "hard link/emph case", input: "**x [a*b**c*](d)",
                          check: "\\*\\*x <a href=\"d\">a<em>b\\*\\*c</em></a>"))
        cases.append(Case(name: "nested brackets", input: rep("[", m) + "a" + rep("]", m), check: "\\[{\(m)}a\\]{\(m)}"))
        var backticks = ""
        // The input grows with the square of the longest run, so the run count scales by the root.
        let runs = max(1, Int(2499.0 * (Double(multiplier) / Double(divisor)).squareRoot()))
        for i in 1...runs { backticks += "e" + rep("`", i) }
        cases.append(Case(name: "backticks", input: backticks, check: "^<p>[e`]*</p>\\n$"))
        let u = n(30000)
        cases.append(Case(name: "unclosed links A", input: rep("[a](<b", u), check: "(\\[a\\]\\(&lt;b){\(u)}"))
        cases.append(Case(name: "unclosed links B", input: rep("[a](b", u), check: "(\\[a\\]\\(b){\(u)}"))
        let h = n(300000)
        cases.append(Case(name: "unclosed <!--", input: "</" + rep("<!--", h), check: "&lt;/(&lt;!--){\(h)}"))
        // Reference collisions: labels whose sdbm hash is 0 mod 16.
        let wanted = n(25000)
        var labels: [String] = []
        var i = 0
        while labels.count < wanted {
            let s = "x\(i)"
            var hash: UInt32 = 0
            for c in s.unicodeScalars {
                hash = UInt32(c.value) &+ (hash << 6) &+ (hash << 16) &- hash
            }
            if hash % 16 == 0 { labels.append(s) }
            i += 1
        }
        var collisions = ""
        for label in labels.dropFirst() { collisions += "[\(label)]: /url\n\n[\(labels[0])]\n\n" }
        cases.append(Case(name: "reference collisions", input: collisions,
                          check: "(<p>\\[\(labels[0])\\]</p>\\n){\(max(0, wanted - 1))}"))
        let b = n(25000)
        cases.append(Case(name: "nested block quotes", input: rep("> ", b) + "a", check: "(<blockquote>\\n){\(b)}"))
        var lists = ""
        // The input grows with the square of the depth, so the depth scales by the root.
        let levels = max(2, Int(500.0 * (Double(multiplier) / Double(divisor)).squareRoot()))
        for level in 0..<levels { lists += rep("  ", level) + "* a\n" }
        cases.append(Case(name: "deeply nested lists", input: lists,
                          check: "^<ul>\\n(<li>a\\n<ul>\\n){\(levels - 1)}<li>a</li>\\n</ul>\\n(</li>\\n</ul>\\n){\(levels - 1)}$"))
        let d = n(30000)
        let justX: @Sendable (String) -> Bool = { html in
            isWrapped(html, openNewlineOptional: true) { $0.first == UInt8(ascii: "x") ? 1 : nil }
        }
        cases.append(Case(name: "empty lines in deeply nested lists", input: rep("- ", d) + "x" + rep("\n", d),
                          check: "^(<\\w+>\\n?)+x(</\\w+>\\n)+$", verify: justX))
        cases.append(Case(name: "empty lines in deeply nested lists in blockquote",
                          input: "> " + rep("- ", d) + "x\n" + rep(">\n", d), check: "^(<\\w+>\\n?)+x(</\\w+>\\n)+$",
                          verify: justX))
        let e = n(100000)
        cases.append(Case(name: "emph in deep blockquote", input: rep(">", e) + rep("a*", e),
                          check: "^(<\\w+>\\n)+<p>.*</p>\\n(</\\w+>\\n)+$", verify: { html in
            isWrapped(html, openNewlineOptional: false) { rest in
                // `<p>` … `</p>\n` with no newline inside: everything up to the first newline.
                guard rest.starts(with: "<p>".utf8), let nl = rest.firstIndex(of: 0x0A) else { return nil }
                let line = rest[rest.startIndex..<nl]
                guard line.count >= 7, line.suffix(4).elementsEqual("</p>".utf8) else { return nil }
                return line.count + 1
            }
        }))
        cases.append(Case(name: "U+0000 in input", input: "abc\u{0}de\u{0}", check: "abc\u{FFFD}?de\u{FFFD}?"))
        let t = n(30000)
        var tableCheck = "^<p>aaa</p>\\n<table>\\n<thead>\\n<tr>\\n<th>bbb</th>\\n</tr>\\n</thead>\\n<tbody>\\n"
        tableCheck += "(<tr>\\n<td>aaa</td>\\n</tr>\\n<tr>\\n<td>bbb</td>\\n</tr>\\n<tr>\\n<td>-\\x{0B}</td>\\n</tr>\\n){\(t - 1)}"
        tableCheck += "</tbody>\\n</table>\\n$"
        cases.append(Case(name: "tables", input: rep("aaa\rbbb\n-\u{0B}\n", t), check: tableCheck, extensions: .table))
        cases += mathCases(divisor: divisor, multiplier: multiplier)
        cases += frontMatterCases(divisor: divisor, multiplier: multiplier)
        cases += notebookCases(divisor: divisor, multiplier: multiplier)
        return cases
    }

    /// Maths openers with far or no closers (issue 12): each `$` formula closes at the next `$` at
    /// its brace level, each `\(` at the next `\)`, so an opener that rescanned the rest of the
    /// block would make these quadratic. They are served as notes too (formulas are counted
    /// there, and checked when `math-error` is on).
    public static func mathCases(divisor: Int = 1, multiplier: Int = 1) -> [Case] {
        func n(_ count: Int) -> Int { max(1, count * multiplier / divisor) }
        func rep(_ s: String, _ count: Int) -> String { String(repeating: s, count: count) }
        func text(_ name: String, _ input: String, _ shown: String? = nil) -> Case {
            Case(name: name, input: input, check: "", extensions: .math, exact: "<p>" + (shown ?? input) + "</p>\n", indexed: true)
        }
        let dollars = n(100_000)
        return [
            // Every `$` one brace deeper than the last: no `$` at its level closes it.
            text("math openers each in a deeper brace", rep("${", n(50_000))),
            // The same, then the braces close: each opener ends at an unmatched `}`.
            text("math openers ended by closing braces", rep("${", n(50_000)) + rep("}", n(50_000))),
            text("escaped parentheses never closed", rep("\\(", n(100_000)), rep("(", n(100_000))),
            text("escaped brackets never closed", rep("\\[a", n(100_000)), rep("[a", n(100_000))),
            // Greedy from the left: `$$$$` is an empty display formula, again and again (after a
            // word: a line that starts with `$$` is a maths block).
            Case(name: "dollar run", input: "a " + rep("$", dollars), check: "^<p>a .*</p>\\n$", extensions: .math,
                 verify: { $0.hasPrefix("<p>a ") && $0.hasSuffix("</p>\n") }, indexed: true),
        ]
    }

    /// Front matter of every shape, each followed by `# Body`, at `multiplier/divisor` of the
    /// reference counts (issue 11: 128,000 keys took quadratic time, each key compared with
    /// every key before it to find duplicates). They are `indexed`: most of front matter is read
    /// there.
    public static func frontMatterCases(divisor: Int = 1, multiplier: Int = 1) -> [Case] {
        func n(_ count: Int) -> Int { max(1, count * multiplier / divisor) }
        func frontMatter(_ name: String, _ count: Int, head: String = "", _ line: (Int) -> String) -> Case {
            var input = "---\n" + head
            input.reserveCapacity(count * 24)
            for index in 0..<count { input += line(index) }
            input += "---\n# Body\n"
            return Case(name: "front matter: " + name, input: input, check: "", extensions: .frontMatter,
                        exact: "<h1>Body</h1>\n", indexed: true)
        }
        let spaces = String(repeating: " ", count: 256)
        return [
            frontMatter("many keys", n(128_000)) { "field\($0): \($0)\n" },
            frontMatter("long block list", n(128_000), head: "tags:\n") { "  - tag\($0)\n" },
            frontMatter("many flow lists", n(64_000)) { "k\($0): [a\($0), \"b, \($0)\", c]\n" },
            // Indentations of 1 to 256 spaces in an order that covers them evenly at any count,
            // so that 10 times the lines are 10 times the bytes.
            frontMatter("deep indentation", n(16_000), head: "nested:\n") { " " + spaces.prefix($0 * 37 % 256) + "k\($0): v\n" },
            frontMatter("very long values", 1, head: "title: " + String(repeating: "word ", count: n(200_000)) + "\n"
                        + "summary: \"" + String(repeating: "a\\\"b ", count: n(50_000)) + "\"\n"
                        + "tags: [" + (0..<n(50_000)).map { "t\($0)" }.joined(separator: ", ") + "]\n"
                        + "aliases: " + (0..<n(50_000)).map { "a\($0)" }.joined(separator: ", ") + "\n") { _ in "" },
            frontMatter("many duplicate keys", n(64_000)) { "tags: t\($0), #u\($0)\n" },
            frontMatter("many aliases", n(128_000), head: "aliases:\n") { "  - alias \($0)\n" },
        ]
    }

}
