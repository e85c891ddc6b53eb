import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// Which block the typed line is in, read from line starts alone: the same answer as the parser
/// for front matter, fenced code and `$$` math.
final class LineRegionsTests: XCTestCase {
    func region(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LineRegion? {
        let fixture = Fixture(text, file: file, line: line)
        guard let cursor = fixture.cursor else { return nil }
        return LineRegions.region(at: cursor.utf8Offset, in: Array(fixture.text(cursor.path).utf8))
    }

    func testFrontMatterFencesCodeAndMath() {
        let cases: [(String, LineRegion)] = [
            ("---\ntitle: A$0\n---\nBody\n", .frontMatter),
            ("---$0\ntitle: A\n---\n", .frontMatterFence),
            ("---\ntitle: A\n---$0\n", .frontMatterFence),
            ("---\ntitle: A\n---\nBo$0dy\n", .body),
            ("---\nnot closed\nBo$0dy\n", .body),
            ("Text\n\n```swift\nlet x$0 = 1\n```\n", .code(fence: "```", info: "swift")),
            ("```swift\nlet x = 1\n```\nAfter$0\n", .body),
            ("````\n```\ninner$0\n````\n", .code(fence: "````", info: "")),
            ("~~~ python\nx = 1\n```\nstill$0 code\n", .code(fence: "~~~", info: "python")),
            ("``` a`b\nnot a fence$0\n", .body),
            ("> ```\n> quoted$0 code\n> ```\n", .code(fence: "```", info: "")),
            ("- item\n\n  ```\n  lis$0ted\n  ```\n", .code(fence: "```", info: "")),
            ("$$\nx^2$0\n$$\nafter\n", .math),
            ("$$\nx^2\n$$\naf$0ter\n", .body),
            ("$$x$$\nafter$0\n", .body),
            ("$$x$$ and more\nafter$0\n", .body),
            ("Unclosed\n```\ncode$0", .code(fence: "```", info: "")),
            ("$0", .body),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(region(text), expected, text)
        }
    }

    /// Block quotes and list items, followed as the parser follows them
    /// (`ScannerDifferentialTests` holds the rest against the parser).
    func testContainers() {
        let code = LineRegion.code(fence: "```", info: "")
        let cases: [(String, LineRegion)] = [
            // A line that leaves the quote ends the code block inside it (CommonMark 128, 237).
            ("> ```\n> aaa\n\nbb$0b\n", .body),
            ("> ```\nfo$0o\n```\n", .body),
            ("> ```\nfoo\n```\nopen$0ed again\n", code),
            // A fence on the item's marker line, closed by the item's end (318).
            ("- a\n- ```\n  b$0\n", code),
            ("- ```\n  b\n- c$0\n", .body),
            ("1. ```\n   foo\n   ```\n\n   ba$0r\n", .body),
            // Four columns past the container: indented code or paragraph text, never a fence (134).
            ("    ```\n    aa$0a\n", .body),
            ("- item\n\n      ```\n      no$0t code\n", .body),
            ("- item\n\n  ```\n  co$0de\n", code),
            // An HTML block hides Markdown, a fence too, until it ends (161).
            ("<div></div>\n``` c\nint x$0 = 33;\n```\n", .html),
            ("<div>\n\n```\nco$0de\n```\n", code),
            ("<div>\n\nafter$0 the blank line\n", .body),
            ("<!-- a\n[[no$0t a link]]\n-->\nafter\n", .html),
            ("<!-- a\n-->\naf$0ter\n", .body),
            ("<pre>\n\nst$0ill pre\n</pre>\n", .html),
            ("Text <span>inline</span>$0\n", .body),
            // Paragraph text continues lazily in its quote; a fence there is code again.
            ("> para\nlazy$0\n", .body),
            ("> a\n> ```\n> x\n> ```\n>\n> ```\nqu$0oted\n", .body),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(region(text), expected, text)
        }
    }
}
