import XCTest
@testable import NotebookIDE

/// Markdown link completion: relative paths, heading slugs, block ids and reference labels.
final class CompletionMarkdownLinkTests: XCTestCase {
    func testPathsAreRelativeToTheNotesFolder() {
        XCTAssertEqual(labels("[x]($0"), ["Note title.md", "index.md", "archive/", "docs/", "garden/", "images/",
                                          "journal/", "recipes/", "日本/"])
        assertCompletion("[x](no$0", pick: "Note title.md", gives: "[x](Note%20title.md)")
        assertCompletion("[x](gar$0)", pick: "garden/", gives: "[x](garden/)")
        assertCompletion("[x](garden/$0)", pick: "soil tests.md", gives: "[x](garden/soil%20tests.md)")
        assertCompletion("[x](garden/$0", pick: "soil tests.md", gives: "[x](garden/soil%20tests.md)")
    }

    func testPathsFromASubfolderClimbWithDotDot() {
        let path = "garden/plants/tomato.md"
        XCTAssertEqual(labels("[x]($0", in: path), ["tomato.md", "../"])
        assertCompletion("[x](../$0", in: path, pick: "soil tests.md", gives: "[x](../soil%20tests.md)")
        assertCompletion("[x](../$0", in: path, pick: "bed.jpg", gives: "[x](../bed.jpg)")
        assertCompletion("[x](../../im$0", in: path, pick: "images/", gives: "[x](../../images/")
        assertCompletion("[x](../../images/$0)", in: path, pick: "photo one.png",
                         gives: "[x](../../images/photo%20one.png)")
        assertCompletion("[x]($0", in: path, pick: "../", gives: "[x](../")
        assertCompletion("[x](/ind$0", in: path, pick: "index.md", gives: "[x](/index.md)")
        // Above the root there is nothing.
        XCTAssertEqual(labels("[x](../../../$0", in: path), [])
    }

    func testAFolderInTheMiddleOfAPathKeepsTheRest() {
        assertCompletion("[x](gar$0den/soil%20tests.md)", pick: "garden/", gives: "[x](garden/soil%20tests.md)")
    }

    func testImageLinksOfferImagesFirst() {
        let found = labels("![alt](../$0", in: "garden/plants/tomato.md")
        XCTAssertEqual(found.first, "bed.jpg")
        let percentTyped = labels("![alt](../../images/photo%20o$0", in: "garden/plants/tomato.md")
        XCTAssertEqual(percentTyped, ["photo one.png"])
    }

    func testHeadingSlugsOfAnotherNoteAndOfThisNote() {
        assertCompletion("[x](garden/soil%20tests.md#p$0", pick: "pH & lime", gives: "[x](garden/soil%20tests.md#ph--lime)")
        assertCompletion("[x](index.md#get$0)", pick: "Getting Started", gives: "[x](index.md#getting-started)")
        assertCompletion("[x](index#us$0", pick: "Usage", gives: "[x](index#usage)")
        let (_, _, list) = CompletionFixture.complete("[x](index.md#$0")
        XCTAssertEqual(list.items.map(\.newText), ["home)", "getting-started)", "install)", "usage)", "install-1)"])
        XCTAssertEqual(list.items.map(\.filterText), ["home", "getting-started", "install", "usage", "install-1"])
        let text = "# Alpha beta\n\n## Gamma\n\n[y](#$0)\n"
        assertCompletion(text, pick: "Gamma", gives: "[y](#gamma)")
        assertCompletion(text, pick: "Alpha beta", gives: "[y](#alpha-beta)")
    }

    func testBlockIDsInMarkdownLinks() {
        assertCompletion("[x](index.md#^$0", pick: "^intro", gives: "[x](index.md#^intro)")
    }

    func testReferenceLabelsOfThisNote() {
        let text = """
            See [the docs][ma$0

            [manual]: https://example.org/manual "The manual"
            [Main page]: /index.md
            [other]: x.md

            """
        XCTAssertEqual(labels(text), ["manual", "Main page"])
        assertCompletion(text, pick: "Main page", gives: "See [the docs][Main page]")
        let closed = "See [x][$0] and\n\n[manual]: https://example.org\n"
        assertCompletion(closed, pick: "manual", gives: "See [x][manual] and")
        let (_, _, list) = CompletionFixture.complete(text)
        XCTAssertEqual(list.items.first?.detail, "https://example.org/manual")
        XCTAssertEqual(list.items.first?.documentation, "The manual")
    }
}
