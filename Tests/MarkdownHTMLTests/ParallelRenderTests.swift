import Foundation
import TestSupport
import XCTest
@testable import MarkdownHTML
@testable import MarkdownSyntax

/// Rendering on two cores must give exactly the bytes of one walk.
final class ParallelRenderTests: XCTestCase {
    /// The sample notebook's notes, repeated past the parallel threshold.
    func largeDocument() throws -> [UInt8] {
        let folder = TestPaths.fixture("notebook")
        var text: [UInt8] = []
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(files.isEmpty)
        while text.count < HTMLRenderer.parallelThreshold * 2 {
            for file in files {
                var bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
                // Front matter only counts at the very start; elsewhere `---` is a thematic break.
                bytes.append(contentsOf: Array("\n\n".utf8))
                text.append(contentsOf: bytes)
            }
        }
        return text
    }

    func testParallelOutputEqualsOneWalk() throws {
        let source = try largeDocument()
        let withoutFootnotes = Array(String(decoding: source, as: UTF8.self)
            .replacingOccurrences(of: "[^", with: "[").utf8)
        for bytes in [source, withoutFootnotes] {
            let tree = MarkdownParser.parse(bytes, options: .notebook)
            for options in [HTMLOptions(safe: true, sourceLines: true, headingIDs: true, collapseNestedStrong: true),
                            HTMLOptions(safe: false, headingIDs: false),
                            HTMLOptions(safe: true, headingIDs: true, fullPage: true, title: "T")] {
                let renderer = HTMLRenderer(options: options)
                let one = renderer.render(tree)
                let two = renderer.renderInParallel(tree)
                XCTAssertEqual(one.count, two.count)
                XCTAssertTrue(one == two, "parallel output differs (\(options))")
            }
        }
    }

    func testPiecesJoinToOneWalkAndEachIsFinished() throws {
        let source = Array(String(decoding: try largeDocument(), as: UTF8.self)
            .replacingOccurrences(of: "[^", with: "[").utf8)
        let tree = MarkdownParser.parse(source, options: .notebook)
        let renderer = HTMLRenderer(options: HTMLOptions(safe: true, sourceLines: true, headingIDs: true))
        let pieces = renderer.renderPieces(tree)
        XCTAssertEqual(pieces.count, max(2, source.count / HTMLRenderer.pieceSourceBytes))
        XCTAssertTrue(Array(pieces.joined()) == renderer.render(tree))
        let alongside = LockedFlag()
        let finished = renderer.renderPieces(tree, alongside: { alongside.set() }, finishPiece: { [0x5B] + $0 + [0x5D] })
        XCTAssertTrue(alongside.isSet)
        XCTAssertEqual(finished.count, pieces.count)
        for (plain, wrapped) in zip(pieces, finished) { XCTAssertTrue([0x5B] + plain + [0x5D] == wrapped) }
    }

    func testSmallDocumentsRenderInOnePiece() {
        let tree = MarkdownParser.parse("# A\n\n# A\n", options: .notebook)
        let renderer = HTMLRenderer(options: HTMLOptions(headingIDs: true))
        XCTAssertEqual(renderer.renderInParallel(tree), renderer.render(tree))
    }
}

/// Set once from another thread, read after the join.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
