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
}
