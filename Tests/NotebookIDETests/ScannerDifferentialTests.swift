import Foundation
import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIDE

/// The editing features read a note line by line (`LineRegions` for the blocks that hide
/// Markdown, `SpanScanner` for the spans on the cursor's line, which completion and
/// auto-pairing share), never by parsing it; the parser's tree is the truth they must agree
/// with. These tests run both over every spec example, every fixture and the corpus in
/// `../shared/corpus`, and fail on any disagreement that is not one of the decisions written down
/// in `LineRegions.swift` and `AutoPairing.swift` (each with its own test in `LineRegionsTests`
/// and `AutoPairingTests`).
final class ScannerDifferentialTests: XCTestCase {
    struct Document {
        var name: String
        var bytes: [UInt8]
    }

    /// Every spec example, every Markdown file under `Fixtures/`, the Rust book and the tldr
    /// pages; what is missing is said, not silently left out.
    static let documents: [Document] = {
        var documents: [Document] = []
        struct Example: Decodable { var example: Int; var markdown: String }
        for file in ["commonmark.json", "commonmark-regression.json", "gfm.json", "gfm-extensions.json", "gfm-regression.json"] {
            guard let url = try? SpecData.url(file), let data = try? Data(contentsOf: url),
                  let examples = try? JSONDecoder().decode([Example].self, from: data) else {
                print("ScannerDifferentialTests: \(file) not found, its examples are left out (set MACMD_SPEC_DIR)")
                continue
            }
            documents += examples.map { Document(name: "\(file) example \($0.example)", bytes: Array($0.markdown.utf8)) }
        }
        let folders = [TestPaths.fixtures] + ["rust-book", "tldr"].compactMap { name -> URL? in
            do { return try CorpusData.folder(name) } catch {
                print("ScannerDifferentialTests: corpus \(name) left out: \(error)")
                return nil
            }
        }
        for folder in folders {
            for url in CorpusData.markdownFiles(in: folder) {
                guard let data = try? Data(contentsOf: url) else { continue }
                documents.append(Document(name: url.path, bytes: Array(data)))
            }
        }
        return documents
    }()

    // MARK: Blocks

    /// The region of every line, as the parser's tree has it: front matter, fenced code (`math`
    /// fences are code to the editing features: they hold no Markdown either), `$$` math, HTML
    /// blocks, or the body. The empty line after a final line break is not a line of the tree.
    static func parserRegions(_ tree: SyntaxTree, lines: TextLines) -> [LineRegion] {
        var regions = [LineRegion](repeating: .body, count: lines.count)
        for node in tree.nodes {
            let region: LineRegion
            switch node.kind {
            case .frontMatter:
                region = .frontMatter
            case .htmlBlock:
                region = .html
            case .codeBlock, .mathBlock:
                let info = tree.codeBlocks[Int(node.data)]
                guard info.isFenced else { continue }
                if info.fenceCharacter == UInt8(ascii: "$") {
                    region = .math
                } else {
                    let words = tree.source[Int(info.info.start)..<Int(info.info.end)].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
                    region = .code(fence: String(repeating: Character(Unicode.Scalar(info.fenceCharacter)), count: Int(info.fenceLength)),
                                   info: words.first.map { String(decoding: $0, as: UTF8.self) } ?? "")
                }
            default:
                continue
            }
            let first = lines.line(ofUTF8Offset: Int(node.sourceStart))
            let last = lines.line(ofUTF8Offset: max(Int(node.sourceStart), Int(node.sourceEnd) - 1))
            for line in first...last { regions[line] = region }
            if node.kind == .frontMatter {
                regions[first] = .frontMatterFence
                regions[last] = .frontMatterFence
            }
        }
        return regions
    }

    func testLineRegionsAgreeWithTheParser() throws {
        var disagreements: [String] = []
        var lineCount = 0
        for document in Self.documents {
            let tree = MarkdownParser.parse(document.bytes, options: .notebook)
            let lines = TextLines(bytes: document.bytes)
            let expected = Self.parserRegions(tree, lines: lines)
            // The empty line after a final line break is no line of the tree.
            let count = document.bytes.last.map { $0 == 0x0A || $0 == 0x0D } == true ? lines.count - 1 : lines.count
            for line in 0..<count {
                let start = lines.lineStarts[line]
                let found = LineRegions.region(at: start, in: document.bytes)
                lineCount += 1
                guard found != expected[line] else { continue }
                disagreements.append("\(document.name) line \(line + 1): parser \(expected[line]), LineRegions \(found): "
                                     + String(decoding: document.bytes[start..<lines.lineEnd(line)], as: UTF8.self).debugDescription)
            }
        }
        XCTAssertGreaterThan(lineCount, 1000)
        print("ScannerDifferentialTests: \(lineCount) lines of \(Self.documents.count) documents, \(disagreements.count) disagreements")
        XCTAssertEqual(disagreements.count, 0, disagreements.prefix(40).joined(separator: "\n"))
    }
}

extension ScannerDifferentialTests {
    /// What the parser's tree says a position inside an inline span is, for the spans the
    /// editing features tell apart.
    static func spanContext(_ kind: NodeKind) -> PairContext? {
        switch kind {
        case .code: return .codeSpan
        case .inlineMath, .displayMath: return .math
        case .wikiLink: return .wikiLink
        case .autolink: return .url
        default: return nil
        }
    }

    /// The spans of the tree the editing features tell apart, each with the bytes between its
    /// delimiters.
    static func parserSpans(_ tree: SyntaxTree) -> [(context: PairContext, whole: Range<Int>, inside: Range<Int>)] {
        var spans: [(PairContext, Range<Int>, Range<Int>)] = []
        let source = tree.source
        for node in tree.nodes {
            guard let context = spanContext(node.kind) else { continue }
            let start = Int(node.sourceStart), end = Int(node.sourceEnd)
            guard start < end, end <= source.count else { continue }
            var open = 0, close = 0
            switch node.kind {
            case .code:
                while start + open < end, source[start + open] == UInt8(ascii: "`") { open += 1 }
                close = open
            case .inlineMath:
                open = source[start] == UInt8(ascii: "\\") ? 2 : 1
                close = open
            case .displayMath:
                open = 2
                close = 2
            case .wikiLink:
                open = source[start] == UInt8(ascii: "!") ? 3 : 2
                close = 2
            default:
                open = source[start] == UInt8(ascii: "<") ? 1 : 0
                close = open
            }
            guard start + open <= end - close else { continue }
            spans.append((context, start..<end, (start + open)..<(end - close)))
        }
        return spans
    }

    /// Inside every code span, maths, wiki-link and autolink the parser finds on one line of the
    /// body, auto-pairing (and completion, which asks it) sees the same span; and where
    /// auto-pairing sees one of those spans, the parser has it.
    func testSpanContextsAgreeWithTheParser() throws {
        var disagreements: [String: [String]] = [:]
        var positions = 0
        for (index, document) in Self.documents.enumerated() {
            // One tldr page in four: they are many, short and alike.
            if document.name.contains("/tldr/"), index % 4 != 0 { continue }
            let bytes = document.bytes
            let tree = MarkdownParser.parse(bytes, options: .notebook)
            let lines = TextLines(bytes: bytes)
            let regions = Self.parserRegions(tree, lines: lines)
            let spans = Self.parserSpans(tree)
            // Lines a span crosses are read on their own by the editing features: left out.
            var crossed = Set<Int>()
            var expected: [Int: PairContext] = [:]
            for span in spans {
                let first = lines.line(ofUTF8Offset: span.whole.lowerBound), last = lines.line(ofUTF8Offset: span.whole.upperBound - 1)
                if first != last {
                    for line in first...last { crossed.insert(line) }
                    continue
                }
                // Strictly inside: a byte of the span's content on each side of the position.
                guard span.inside.count >= 2 else { continue }
                for position in (span.inside.lowerBound + 1)..<span.inside.upperBound { expected[position] = span.context }
            }
            bytes.withUnsafeBufferPointer { buffer in
                let text = EditorText(bytes: buffer)
                for line in 0..<lines.count where regions[line] == .body && !crossed.contains(line) {
                    let start = lines.lineStarts[line], end = lines.lineEnd(line)
                    guard end - start <= 400 else { continue }
                    var reported = false
                    for position in start...end where !reported && (position == end || bytes[position] & 0xC0 != 0x80) {
                        let want = expected[position]
                        guard want != nil || (position - start) % 3 == 0 else { continue }
                        let found = AutoPairing.spanContext(at: position, in: text, extensions: .notebook).context
                        let seen: PairContext? = [.codeSpan, .math, .wikiLink, .url].contains(found) ? found : nil
                        positions += 1
                        // Where the parser has a span, the position must be seen inside it; where it has
                        // none, no span may be seen (the edges of a span are the features' own choice).
                        let problem: String?
                        if let want, found != want, !Self.isDecision(missing: want, at: position, lineStart: start, lineEnd: end, in: bytes) {
                            problem = "parser \(want), pairing \(found)"
                        } else if want == nil, let seen, !spans.contains(where: { $0.whole.contains(position) || $0.whole.upperBound == position }),
                                  !Self.isDecision(seen, at: position, lineStart: start, lineEnd: end, in: bytes) {
                            problem = "parser none, pairing \(seen)"
                        } else {
                            problem = nil
                        }
                        if let problem {
                            reported = true
                            disagreements[problem, default: []].append("\(document.name) line \(line + 1) at \(position - start): "
                                + String(decoding: bytes[start..<end], as: UTF8.self).debugDescription)
                        }
                    }
                }
            }
        }
        let count = disagreements.values.map(\.count).reduce(0, +)
        print("ScannerDifferentialTests: \(positions) positions, \(count) lines where the spans disagree")
        XCTAssertGreaterThan(positions, 10_000)
        let summary = disagreements.sorted { $0.value.count > $1.value.count }.map { problem, lines in
            "\(problem): \(lines.count) lines, as\n  " + lines.prefix(6).joined(separator: "\n  ")
        }
        XCTAssertEqual(count, 0, summary.joined(separator: "\n"))
    }

    /// The places where the editing features see a span the parser does not, on purpose (the
    /// decisions `AutoPairing.swift` lists, each held by `AutoPairingTests.testDecisions`):
    /// - from `[[` to the next `]]` (or the line's end) is a wiki-link being typed, whatever its
    ///   target: empty, blank, or holding brackets;
    /// - a bare URL runs to the next space or `<` while it is typed: trailing punctuation and
    ///   parentheses that GFM leaves out of the link, or a host GFM refuses, may be the URL's next
    ///   part;
    /// - in a table row a `|` ends a cell even between backticks (GFM); the editing features
    ///   read the code span across it.
    static func isDecision(_ seen: PairContext, at position: Int, lineStart: Int, lineEnd: Int, in bytes: [UInt8]) -> Bool {
        let line = Array(bytes[lineStart..<lineEnd])
        let offset = position - lineStart
        switch seen {
        case .wikiLink:
            return line[..<offset].indices.contains { $0 + 1 < offset && line[$0] == UInt8(ascii: "[") && line[$0 + 1] == UInt8(ascii: "[") }
        case .url:
            return true
        case .codeSpan:
            return line.contains(UInt8(ascii: "|"))
        default:
            return false
        }
    }

    /// The places where the parser sees a span the editing features leave to prose, on purpose:
    /// a bare e-mail address (GFM links it) is text to them, where pairing and completion do
    /// nothing that would matter.
    static func isDecision(missing wanted: PairContext, at position: Int, lineStart: Int, lineEnd: Int, in bytes: [UInt8]) -> Bool {
        guard wanted == .url else { return false }
        var start = position
        while start > lineStart, !LineRegions.isSpace(bytes[start - 1]), bytes[start - 1] != UInt8(ascii: "<") { start -= 1 }
        var end = position
        while end < lineEnd, !LineRegions.isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">") { end += 1 }
        return bytes[start..<end].contains(UInt8(ascii: "@")) && !(start > lineStart && bytes[start - 1] == UInt8(ascii: "<"))
    }
}
