import Dispatch
import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE
import TextCore

/// Snippet completion at `$0` (TestSupport's fixtures): which snippets are offered where, and
/// the text a writer has after picking one.
final class SnippetCompletionTests: XCTestCase {
    let variables = SnippetTestVariables.make()

    func items(_ text: String, snippets: [Snippet] = BuiltInSnippets.all, snippetSupport: Bool = true, invoked: Bool = false,
               file: StaticString = #filePath, line: UInt = #line) -> (bytes: [UInt8], items: [CompletionCandidate]) {
        let (bytes, cursor) = CompletionFixture.cursor(text, file: file, line: line)
        return (bytes, SnippetCompletion.complete(text: bytes, cursor: cursor, snippets: snippets, variables: variables,
                                                  snippetSupport: snippetSupport, invoked: invoked))
    }

    func snippetLabels(_ text: String, invoked: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        items(text, invoked: invoked, file: file, line: line).items.map(\.label)
    }

    /// The whole text after picking the item labelled `label`.
    func picking(_ label: String, in text: String, snippetSupport: Bool = true, invoked: Bool = false,
                 file: StaticString = #filePath, line: UInt = #line) -> String {
        let (bytes, list) = items(text, snippetSupport: snippetSupport, invoked: invoked, file: file, line: line)
        guard let item = list.first(where: { $0.label == label }) else { return "<no item \(label) in \(list.map(\.label))>" }
        return CompletionFixture.appliedText(item, to: bytes)
    }

    static let everyBodySnippet = BuiltInSnippets.all.filter { $0.placement == .body }.map { $0.prefixes[0] }

    func testOfferedWhereTheTypedWordIsAPrefix() {
        let cases: [(String, [String])] = [
            ("tab$0", ["table"]),
            ("Some text\n\nta$0", ["table", "task"]),
            ("Some text\nTA$0", ["table", "task"]),
            ("Some text\n- ta$0", ["table", "task"]),
            ("Some text\n> ta$0", ["table", "task"]),
            ("Some text and ta$0", ["table", "task"]),
            ("Some text and\tta$0", ["table", "task"]),
            ("Some text\r\nta$0", ["table", "task"]),
            ("d$0", ["details", "date", "datetime"]),
            ("i$0", ["image"]),
            ("no$0", ["now"]),
            // The second prefix matches when the first does not.
            ("Text\ntod$0", ["todo"]),
            // A prefix that is the typed word comes first.
            ("Text\ndate$0", ["date", "datetime"]),
            // Only at a line start or after white space.
            ("Text\n(ta$0", []),
            ("Text\nwordta$0", []),
            ("Text\n[[ta$0", []),
            ("Text\ntable2$0", []),
            // Typing nothing offers nothing.
            ("Text\n$0", []),
            ("Text\n  $0", []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(snippetLabels(text), expected, text.debugDescription)
        }
    }

    func testInvokedOnAnEmptyLineOrWhiteSpaceOffersEverySnippet() {
        let cases: [(String, [String])] = [
            ("Text\n$0", Self.everyBodySnippet),
            ("Text\n   $0", Self.everyBodySnippet),
            ("Text and $0", Self.everyBodySnippet),
            ("Text\n\n$0\n\nMore", Self.everyBodySnippet),
            // On the first line of a note without front matter, the front matter too.
            ("$0", BuiltInSnippets.all.map { $0.prefixes[0] }),
            ("$0\n# Title\n", BuiltInSnippets.all.map { $0.prefixes[0] }),
            // Invoked after a word, the word still filters.
            ("Text\nlin$0", ["link"]),
            ("Text\nxyz$0", []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(snippetLabels(text, invoked: true), expected, text.debugDescription)
        }
    }

    func testNeverInCodeMathOrFrontMatter() {
        let cases = [
            "```\nta$0\n```\n",
            "Text\n\n~~~ python\nx = 1\nta$0\n",
            "> ```\n> ta$0\n> ```\n",
            "$$\nta$0\n$$\n",
            "---\ntitle: A\nta$0\n---\nBody\n",
            "---\ntitle: A\n---\n\n`code ta$0 span`\n",
            "Text with `` a ta$0 `` in code\n",
        ]
        for text in cases {
            XCTAssertEqual(snippetLabels(text), [], text.debugDescription)
            XCTAssertEqual(snippetLabels(text, invoked: true), [], text.debugDescription)
        }
        // After the block, or after a closed code span, snippets are back.
        XCTAssertEqual(snippetLabels("```\ncode\n```\nta$0"), ["table", "task"])
        XCTAssertEqual(snippetLabels("$$\nx\n$$\nta$0"), ["table", "task"])
        XCTAssertEqual(snippetLabels("---\ntitle: A\n---\nta$0"), ["table", "task"])
        XCTAssertEqual(snippetLabels("Some `code` and ta$0"), ["table", "task"])
    }

    func testTheFrontMatterSnippetOnlyOnTheFirstLineOfANoteWithoutOne() {
        XCTAssertEqual(snippetLabels("fm$0"), ["fm"])
        XCTAssertEqual(snippetLabels("fr$0"), ["frontmatter"])
        XCTAssertEqual(snippetLabels("fm$0\n# Title\n"), ["fm"])
        XCTAssertEqual(snippetLabels(" fm$0"), [])
        XCTAssertEqual(snippetLabels("Text\nfm$0"), [])
        XCTAssertEqual(snippetLabels("---\ntitle: A\n---\nfm$0"), [])
        XCTAssertEqual(snippetLabels("---\ntitle: A\n---\n$0", invoked: true), Self.everyBodySnippet)
        XCTAssertEqual(picking("fm", in: "fm$0\n# Title\n", snippetSupport: false),
                       "---\ntitle: my-note\ndate: 2024-05-01\ntags: []\n---\n\n# Title\n")
    }

    func testWhatTheWriterGets() {
        XCTAssertEqual(picking("table", in: "Intro\n\ntab$0\n\nOutro"),
                       "Intro\n\n| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |\n| ${5:Cell} | ${6:Cell} |$0\n\nOutro")
        XCTAssertEqual(picking("table", in: "Intro\n\ntab$0\n\nOutro", snippetSupport: false),
                       "Intro\n\n| Column | Column |\n| --- | --- |\n| Cell | Cell |\n| Cell | Cell |\n\nOutro")
        XCTAssertEqual(picking("task", in: "- [x] done\n- ta$0"), "- [x] done\n- - [ ] ${1:task}$0")
        XCTAssertEqual(picking("date", in: "Written on da$0", snippetSupport: false), "Written on 2024-05-01")
        XCTAssertEqual(picking("link", in: "See li$0 here", snippetSupport: false), "See [text](https://) here")
    }

    func testTheItemsFields() {
        let (_, list) = items("Text\n\nal$0")
        XCTAssertEqual(list.count, 1)
        guard let item = list.first else { return }
        XCTAssertEqual(item.label, "alert")
        XCTAssertEqual(item.kind, .snippet)
        XCTAssertEqual(item.replace, ByteSpan(6, 8))
        XCTAssertEqual(item.filterText, "alert")
        XCTAssertEqual(item.sortText, "0000")
        XCTAssertEqual(item.detail, "A GitHub alert: note, tip, important, warning or caution")
        XCTAssertEqual(item.newText, "> [!${1|NOTE,TIP,IMPORTANT,WARNING,CAUTION|}]\n> $0")
        XCTAssertEqual(item.documentation, "```markdown\n> [!NOTE]\n> \n```")
        XCTAssertNil(item.target)
        let plain = items("Text\n\nal$0", snippetSupport: false).items.first
        XCTAssertEqual(plain?.newText, "> [!NOTE]\n> ")
        XCTAssertEqual(plain?.documentation, item.documentation)
        let numbered = items("d$0").items.map(\.sortText)
        XCTAssertEqual(numbered, ["0000", "0001", "0002"])
    }

    func testUserSnippetsWithTheSamePrefixAreAllOffered() throws {
        let mine = [
            try Snippet(name: "Long", prefixes: ["dx-long"], body: "long"),
            try Snippet(name: "Short", prefixes: ["dx"], description: .verbatim(""), body: "short"),
        ]
        let list = items("dx$0", snippets: mine + BuiltInSnippets.all).items
        XCTAssertEqual(list.map(\.label), ["dx", "dx-long"])
        // Without a description, the name is the detail.
        XCTAssertEqual(list.map(\.detail), ["Short", "Long"])
    }

    func testAnyCursorIsAccepted() {
        let bytes = Array("Text\nta".utf8)
        for cursor in [-5, 0, 3, 5, 7, 100] {
            let list = SnippetCompletion.complete(text: bytes, cursor: cursor, snippets: BuiltInSnippets.all,
                                                  variables: variables, snippetSupport: true, invoked: true)
            for item in list {
                XCTAssertLessThanOrEqual(item.replace.start, item.replace.end)
                XCTAssertLessThanOrEqual(Int(item.replace.end), bytes.count)
            }
        }
        XCTAssertEqual(SnippetCompletion.complete(text: [], cursor: 0, snippets: BuiltInSnippets.all, variables: variables,
                                                  snippetSupport: true, invoked: true).count, BuiltInSnippets.all.count)
    }

    // MARK: Large notes

    /// ~50 snippets on a 1 MB note, at its end: the right items, typed and invoked. (How long it
    /// takes is measured on a release build by `macmd-bench editing`, not here.)
    func testALargeNote() throws {
        var text = "---\ntitle: Big\n---\n"
        var section = 0
        while text.utf8.count < 1_048_576 {
            section += 1
            text += "## Section \(section)\n\nSome *text* with a [link](other.md) and `code`, then more words.\n"
            if section % 10 == 0 { text += "\n```swift\nlet x = \(section)\n```\n\n$$\nx^2\n$$\n" }
            text += "- item one\n- item two\n\n"
        }
        text += "\nta"
        let bytes = Array(text.utf8)
        var snippets = BuiltInSnippets.all
        for index in 0..<(50 - snippets.count) {
            snippets.append(try Snippet(name: "Mine \(index)", prefixes: ["mine\(index)", "ta\(index)"],
                                        body: "# ${1:Heading \(index)}\n\n$TM_FILENAME_BASE on $CURRENT_DATE\n$0"))
        }
        XCTAssertEqual(snippets.count, 50)
        for invoked in [false, true] {
            // Typed (`ta` matches 36 snippets), and invoked on the empty word.
            let list = SnippetCompletion.complete(text: bytes, cursor: invoked ? bytes.count - 2 : bytes.count, snippets: snippets,
                                                  variables: variables, snippetSupport: true, invoked: invoked)
            XCTAssertEqual(list.count, invoked ? 49 : 36)
        }
    }
}
