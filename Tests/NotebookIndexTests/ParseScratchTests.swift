import Foundation
import MarkdownSyntax
import TestSupport
import XCTest
@testable import NotebookIndex

/// A cold index parses note after note on each thread in the same arrays
/// (`MarkdownParser.ParseScratch`). Nothing of the note before may show in the next one: each
/// tree and each note's symbols must be what a fresh parse gives, whatever came before.
final class ParseScratchTests: XCTestCase {
    /// Every Markdown file of `Fixtures/` (syntax trees, notebooks, golden pages, maths) and,
    /// when the spec data is there, every CommonMark and GFM example.
    func documents() throws -> [(name: String, bytes: [UInt8])] {
        var documents: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(at: TestPaths.fixtures, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "md" else { continue }
            documents.append((url.lastPathComponent, Array(try Data(contentsOf: url))))
        }
        XCTAssertGreaterThan(documents.count, 30)
        for file in ["commonmark.json", "gfm.json"] {
            guard let url = try? SpecData.url(file) else {
                print("ParseScratchTests: \(file) not found, the spec examples are left out (set MACMD_SPEC_DIR)")
                continue
            }
            struct Example: Decodable { let markdown: String; let example: Int }
            for example in try JSONDecoder().decode([Example].self, from: Data(contentsOf: url)) {
                documents.append(("\(file) example \(example.example)", Array(example.markdown.utf8)))
            }
        }
        return documents.sorted { $0.0 < $1.0 }
    }

    func testAParseWithAScratchIsAFreshParse() throws {
        let documents = try documents()
        let fresh = documents.map { MarkdownParser.parse($0.bytes, options: .notebook).dump() }
        let freshSymbols = documents.map { NoteSymbols.parsing($0.bytes, path: "note.md") }
        var generator = SeededGenerator(state: 42)
        var shuffled = Array(documents.indices)
        for index in shuffled.indices.reversed() { shuffled.swapAt(index, generator.next(index + 1)) }
        for order in [Array(documents.indices), documents.indices.reversed(), shuffled] {
            var scratch = MarkdownParser.ParseScratch()
            for index in order {
                let tree = MarkdownParser.parse(documents[index].bytes, options: .notebook, scratch: &scratch)
                XCTAssertEqual(tree.dump(), fresh[index], documents[index].name)
                scratch.recycle(tree)
            }
            var noteScratch = NoteSymbols.Scratch()
            for index in order {
                let symbols = NoteSymbols.parsing(documents[index].bytes, path: "note.md", scratch: &noteScratch)
                XCTAssertEqual(symbols, freshSymbols[index], documents[index].name)
            }
        }
    }
}
