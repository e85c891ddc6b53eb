import XCTest
import TestSupport
import MarkdownSyntax
@testable import NotebookIndex

/// Problems a writer sees in a small notebook: each broken or ambiguous link is reported at the
/// part that is wrong, with a message that names what is missing.
final class NotebookDiagnosticsTests: XCTestCase {
    let files: [(String, String)] = [
        ("index.md", """
            # Home

            [[Soil]] [[Missing note]] [[Soil#No such heading]] [[Soil#^nope]]
            [text](soil.md) [gone](gone.md) ![pic](img/missing.png) ![ok](img/there.png)
            [[Dup]] [used][ref] [short] [text][nowhere] [Undefined][] [plain brackets]

            [ref]: soil.md
            [short]: soil.md
            [REF]: again.md
            [spare]: soil.md
            """),
        ("soil.md", "# Soil\n\nText ^b1\n\n## Notes\n\n## Notes\n"),
        ("links.md", "[[Soil#Notes]] [x](soil.md#notes-1) [y](soil.md#notes)\n"),
        ("quiet.md", "<!-- macmd-ignore broken-wikilink, unused-definition -->\n[[Nowhere]] [x](gone.md)\n\n[unused]: a.md\n"),
        ("a/dup.md", "# A\n"),
        ("b/dup.md", "# B\n"),
        ("bad.md", "---\ntags: [a, b\n---\nBody\n"),
    ]

    func testDiagnosticsNameWhatIsMissing() {
        var notes: [NoteSymbols] = []
        var sources: [String: [UInt8]] = [:]
        for (path, text) in files {
            let tree = MarkdownParser.parse(text, options: .notebook)
            notes.append(NoteSymbols.extract(from: tree, path: path))
            sources[path] = Array(text.utf8)
        }
        let catalog = NoteCatalog(notes)
        var found: [(String, String, String)] = []   // (path, code, text at range)
        var messages: [String] = []
        for note in notes {
            for d in NotebookDiagnostics.check(note, catalog: catalog,
                                               fileExists: { $0 == "img/there.png" }) {
                let bytes = sources[d.path] ?? []
                let text = String(decoding: bytes[d.range.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
                found.append((d.path, d.code.rawValue, text))
                messages.append(d.message.english)
            }
        }
        let expected: [(String, String, String)] = [
            ("index.md", "broken-wikilink", "Missing note"),
            ("index.md", "broken-heading", "No such heading"),
            ("index.md", "broken-block", "nope"),
            ("index.md", "broken-link", "gone.md"),
            ("index.md", "broken-image", "img/missing.png"),
            ("index.md", "ambiguous-wikilink", "Dup"),
            ("index.md", "undefined-reference", "nowhere"),
            ("index.md", "undefined-reference", "Undefined"),
            ("index.md", "duplicate-definition", "REF"),
            ("index.md", "unused-definition", "spare"),
            ("links.md", "duplicate-heading", "Notes"),
            ("links.md", "duplicate-heading", "notes"),
            ("quiet.md", "broken-link", "gone.md"),
            ("bad.md", "malformed-front-matter", "[a, b"),
        ]
        XCTAssertEqual(found.map { "\($0.0) \($0.1) \($0.2)" }, expected.map { "\($0.0) \($0.1) \($0.2)" })
        XCTAssertTrue(messages.contains("No note `Missing note` for `[[Missing note]]`"), "\(messages)")
        XCTAssertTrue(messages.contains("No link definition for `[nowhere]`"), "\(messages)")
        XCTAssertTrue(messages.contains("No heading `No such heading` in `soil.md`"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("a/dup.md, b/dup.md") }, "\(messages)")
    }

    /// Embeds by file name reach the notebook's files wherever they are; a missing embedded
    /// image is a broken image, whether written `![[…]]` or `![…](…)`, and the message shows the
    /// link as written.
    func testEmbedsFindFilesByNameAndMissingImagesAreBrokenImages() {
        var notebook = Notebook()
        let text = "![[pic.png]] ![[nope.png]] ![i](nope.png) ![[doc.pdf]] [[plan.pdf]] ![[chart.svg]] ![[img/pic.png|80]] ![[nowhere]]\n"
        notebook.update(NoteSymbols.extract(from: MarkdownParser.parse(text, options: .notebook), path: "notes/index.md"))
        for asset in ["img/pic.png", "a/chart.svg", "b/chart.svg", "files/plan.pdf"] { notebook.addAsset(asset) }
        let bytes = Array(text.utf8)
        let found = notebook.diagnostics(for: "notes/index.md").map {
            "\($0.code) \(bytes.text($0.range.range)): \($0.message)"
        }
        XCTAssertEqual(found, [
            "broken-image nope.png: No image `nope.png` for `![[nope.png]]`",
            "broken-image nope.png: No image `notes/nope.png` for `nope.png`",
            "broken-file doc.pdf: No file `doc.pdf` for `![[doc.pdf]]`",
            "ambiguous-wikilink chart.svg: `![[chart.svg]]` matches 2 files: a/chart.svg, b/chart.svg",
            "broken-wikilink nowhere: No note `nowhere` for `![[nowhere]]`",
        ])
        XCTAssertEqual(notebook.diagnostics(for: "notes/index.md", fileExists: { $0 == "doc.pdf" }).map(\.code.rawValue),
                       ["broken-image", "broken-image", "ambiguous-wikilink", "broken-wikilink"], "a file on disk that the scan did not list")
    }

    /// `math-error`: each formula the converter rejects, over the whole formula (a block without
    /// its last line ending), with the converter's message; every form of maths is checked, maths
    /// in alt text is not, and good maths is silent. The index only counts formulas: checking
    /// them is for whoever asks (`NotebookDiagnostics.mathErrors`), never `check`.
    func testMathErrorsCoverTheFormulaWithTheConvertersMessage() {
        let cases: [(markdown: String, formulas: Int, expected: [String], line: UInt)] = [
            ("$x^2$ and $$\\frac{a}{b}$$\n", 2, [], #line),
            ("A $\\foo x$ here\n", 1, ["$\\foo x$: unknown command \\foo"], #line),
            ("In $$x^$$ text\n", 1, ["$$x^$$: missing superscript after ^"], #line),
            ("A \\(\\foo\\) and \\[\\left( x\\] end\n", 2,
             ["\\(\\foo\\): unknown command \\foo", "\\[\\left( x\\]: missing \\right for \\left"], #line),
            ("$$\n\\left( x\n$$\n", 1, ["$$\n\\left( x\n$$: missing \\right for \\left"], #line),
            ("```math\n\\bad\n```\n\nok $y$\n", 2, ["```math\n\\bad\n```: unknown command \\bad"], #line),
            ("> $$\n> \\left( x\n> $$\n", 1, ["$$\n> \\left( x\n> $$: missing \\right for \\left"], #line),
            ("![a $\\bad$ graph](g.png) and $\\worse$\n", 1, ["$\\worse$: unknown command \\worse"], #line),
            ("$\\zzz$ then $\\yyy$\n", 2, ["$\\zzz$: unknown command \\zzz", "$\\yyy$: unknown command \\yyy"], #line),
        ]
        for (markdown, formulas, expected, line) in cases {
            let tree = MarkdownParser.parse(markdown, options: .notebook)
            let symbols = NoteSymbols.extract(from: tree, path: "n.md")
            XCTAssertEqual(symbols.formulaCount, formulas, markdown, line: line)
            XCTAssertFalse(NotebookDiagnostics.check(symbols, catalog: NoteCatalog([symbols])) { _ in true }
                .contains { $0.code == .mathError }, "the index's own check never converts maths", line: line)
            let bytes = Array(markdown.utf8)
            let found = NotebookDiagnostics.mathErrors(in: tree, path: "n.md").map {
                XCTAssertEqual($0.code, .mathError, line: line)
                return "\(bytes.text($0.range.range)): \($0.message)"
            }
            XCTAssertEqual(found, expected, markdown, line: line)
        }
        XCTAssertEqual(DiagnosticCode.allCases.filter { $0.defaultSeverity == nil }, [.mathError, .unlinkedMention],
                       "only maths errors and unlinked mentions are off until asked for")
    }
}
