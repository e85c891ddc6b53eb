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
}

/// Skipping the lines that cannot open or close a block gives the answers of reading every line.
final class LineRegionsSkimTests: XCTestCase {
    /// The region of every line by stepping through all lines from the top (after the front
    /// matter `LineRegions` found).
    private func everyLine(_ bytes: UnsafeBufferPointer<UInt8>, bodyStart: Int) -> [Int: (LineRegions.LineKind, LineRegion)] {
        var scanner = LineRegions.BlockLineScanner()
        var answers: [Int: (LineRegions.LineKind, LineRegion)] = [:]
        var line = bodyStart
        while true {
            let end = ByteSearch.lineEnd(bytes.baseAddress!, from: line, end: bytes.count)
            let kind = scanner.step(bytes, line, end)
            answers[line] = (kind, scanner.region(of: kind, in: bytes))
            let next = LineRegions.nextLineStart(bytes, after: end)
            if next == end { break }
            line = next
        }
        return answers
    }

    func testSkimmingAgreesWithReadingEveryLine() {
        var random = SeededGenerator(state: 0xFE7C)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let pieces = ["```", "~~~", "````", "``", "$$", "$$x$$", "$$ a", "b $$", "> ```", "  ```js", "    ```", "text",
                      "`x` and ```y```", "$x$", "~~", "", " ", "- ```", "```a`b", "~~~~ py"]
        let breaks = ["\n", "\r\n", "\r"]
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<next(14) { text += pieces[next(pieces.count)] + breaks[next(10) == 0 ? next(3) : 0] }
            if next(2) == 0 { text += pieces[next(pieces.count)] }
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                guard buffer.baseAddress != nil else { return }
                let expected = everyLine(buffer, bodyStart: 0)
                for (lineStart, answer) in expected {
                    let found = LineRegions.line(at: lineStart, in: buffer)
                    XCTAssertEqual(found.kind, answer.0, "\(text.debugDescription) line at \(lineStart)")
                    XCTAssertEqual(found.region, answer.1, "\(text.debugDescription) line at \(lineStart)")
                }
                for lineStart in expected.keys {
                    let code = LineRegions.endsInsideCode(from: lineStart, in: buffer)
                    var scanner = LineRegions.BlockLineScanner()
                    var line = lineStart
                    while true {
                        let end = ByteSearch.lineEnd(buffer.baseAddress!, from: line, end: buffer.count)
                        _ = scanner.step(buffer, line, end)
                        let next = LineRegions.nextLineStart(buffer, after: end)
                        if next == end { break }
                        line = next
                    }
                    XCTAssertEqual(code, scanner.isInCode, "\(text.debugDescription) from \(lineStart)")
                }
            }
        }
    }
}
