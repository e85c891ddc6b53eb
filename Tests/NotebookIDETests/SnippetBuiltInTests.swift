import XCTest
@testable import NotebookIDE

/// The built-in snippets: what each inserts in an editor with snippets and in one without.
final class SnippetBuiltInTests: XCTestCase {
    let variables = SnippetTestVariables.make()

    func testEveryBuiltInParses() {
        XCTAssertEqual(BuiltInSnippets.all.map(\.name), BuiltInSnippets.definitions.map(\.name))
        XCTAssertEqual(BuiltInSnippets.all.map(\.name), [
            "Table", "Code block", "Link", "Image", "Wiki-link", "Task", "Alert", "Math block", "Front matter", "Footnote",
            "Footnote definition", "Details", "Date", "Time", "Date and time", "Table of contents",
        ])
        for snippet in BuiltInSnippets.all {
            XCTAssertFalse(snippet.prefixes.isEmpty, snippet.name)
            XCTAssertFalse(snippet.description?.english.isEmpty ?? true, snippet.name)
            XCTAssertNil(snippet.origin, snippet.name)
        }
        // Prefixes are unique, so each one names a single snippet.
        let prefixes = BuiltInSnippets.all.flatMap(\.prefixes)
        XCTAssertEqual(Set(prefixes).count, prefixes.count)
    }

    func testWhatEachInserts() {
        let languages = BuiltInSnippets.fenceLanguages.joined(separator: ",")
        let cases: [(name: String, snippet: String, plain: String)] = [
            ("Table", "| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |\n| ${5:Cell} | ${6:Cell} |$0",
             "| Column | Column |\n| --- | --- |\n| Cell | Cell |\n| Cell | Cell |"),
            ("Code block", "```${1|\(languages)|}\n$0\n```", "```text\n\n```"),
            ("Link", "[${1:text}](${2:https://})$0", "[text](https://)"),
            ("Image", "![${1:alt text}](${2:path})$0", "![alt text](path)"),
            ("Wiki-link", "[[${1:note}]]$0", "[[note]]"),
            ("Task", "- [ ] ${1:task}$0", "- [ ] task"),
            ("Alert", "> [!${1|NOTE,TIP,IMPORTANT,WARNING,CAUTION|}]\n> $0", "> [!NOTE]\n> "),
            ("Math block", "\\$\\$\n$0\n\\$\\$", "$$\n\n$$"),
            ("Front matter", "---\ntitle: ${1:my-note}\ndate: 2024-05-01\ntags: [$2]\n---\n$0",
             "---\ntitle: my-note\ndate: 2024-05-01\ntags: []\n---\n"),
            ("Footnote", "[^${1:1}]$0", "[^1]"),
            ("Footnote definition", "[^${1:1}]: ${2:text}$0", "[^1]: text"),
            ("Details", "<details>\n<summary>${1:Summary}</summary>\n\n$0\n\n</details>",
             "<details>\n<summary>Summary</summary>\n\n\n\n</details>"),
            ("Date", "2024-05-01", "2024-05-01"),
            ("Time", "10:34", "10:34"),
            ("Date and time", "2024-05-01 10:34", "2024-05-01 10:34"),
            ("Table of contents", "<!-- toc -->\n<!-- /toc -->$0", "<!-- toc -->\n<!-- /toc -->"),
        ]
        XCTAssertEqual(cases.map(\.name), BuiltInSnippets.all.map(\.name))
        for (name, snippet, plain) in cases {
            guard let found = BuiltInSnippets.all.first(where: { $0.name == name }) else {
                XCTFail("no built-in \(name)")
                continue
            }
            XCTAssertEqual(found.template.snippetText(variables: variables), snippet, name)
            XCTAssertEqual(found.template.plainText(variables: variables), plain, name)
        }
    }

    func testTheFrontMatterSnippetIsForTheFirstLine() {
        XCTAssertEqual(BuiltInSnippets.all.filter { $0.placement == .noteStart }.map(\.name), ["Front matter"])
    }

    /// The table of contents it inserts is the one the code action fills in.
    func testTheTableOfContentsMarkersAreTheCodeActions() {
        let toc = BuiltInSnippets.all.first { $0.name == "Table of contents" }
        let text = toc?.template.plainText(variables: variables) ?? ""
        XCTAssertTrue(text.hasPrefix(TableOfContents.startMarker))
        XCTAssertTrue(text.hasSuffix(TableOfContents.endMarker))
    }

    func testDocumentationIsAMarkdownCodeBlockOfThePreview() {
        let fence = BuiltInSnippets.all.first { $0.name == "Code block" }
        XCTAssertEqual(fence?.documentation(variables: variables), "````markdown\n```text\n\n```\n````")
        let link = BuiltInSnippets.all.first { $0.name == "Link" }
        XCTAssertEqual(link?.documentation(variables: variables), "```markdown\n[text](https://)\n```")
        XCTAssertEqual(link?.detail.english, "A link with text and a destination")
    }
}
