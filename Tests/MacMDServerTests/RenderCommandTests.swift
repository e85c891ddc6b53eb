import Foundation
import TestSupport
import XCTest

/// `macmd render` as a user runs it: wiki-links point at their target as written, or, with
/// `--notebook DIR`, where the notebook resolves them (as the editor preview does).
final class RenderCommandTests: XCTestCase {
    func testWikiLinksFollowTheNotebookOnlyWhenOneIsGiven() throws {
        let fixture = NotebookFixture([
            "garden/beds.md": "[[soil#pH]] ![[pic.png]] [[Missing]]\n",
            "garden/soil.md": "# Soil\n\n## pH\n",
            "img/pic.png": "png",
        ])
        defer { fixture.destroy() }
        let note = fixture.root + "/garden/beds.md"
        let plain = try TestProcess.macmd(["render", note])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, #"<p><a class="wikilink" href="soil.md#ph">soil &gt; pH</a> "#
                       + #"<img class="wikilink-embed" src="pic.png" alt="pic.png" /> "#
                       + #"<a class="wikilink" href="Missing.md">Missing</a></p>"# + "\n")
        let resolved = try TestProcess.macmd(["render", "--notebook", fixture.root, note])
        XCTAssertEqual(resolved.status, 0, resolved.stderr)
        XCTAssertEqual(resolved.stdout, #"<p><a class="wikilink" href="soil.md#ph">soil &gt; pH</a> "#
                       + #"<img class="wikilink-embed" src="../img/pic.png" alt="pic.png" /> "#
                       + #"<a class="wikilink broken">Missing</a></p>"# + "\n")
        let outside = try TestProcess.macmd(["render", "--notebook", fixture.root + "/img", note])
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.stderr.contains("is not inside the notebook"), outside.stderr)
        XCTAssertEqual(try TestProcess.macmd(["render", "--notebook", fixture.root]).status, 2, "no FILE to place in the notebook")
    }
}
