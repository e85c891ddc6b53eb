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

    func testAngleBracketDestinationsKeepSpacesAndCloseOnce() {
        assertCompletion("[x](<Note t$0", pick: "Note title.md", gives: "[x](<Note title.md>)")
        assertCompletion("[x](<Note t$0)", pick: "Note title.md", gives: "[x](<Note title.md>)")
        assertCompletion("[x](<Note t$0>)", pick: "Note title.md", gives: "[x](<Note title.md>)")
        assertCompletion("[x](<Note t$0> \"Title\")", pick: "Note title.md", gives: "[x](<Note title.md> \"Title\")")
        assertCompletion("[x](<garden/soil t$0", pick: "soil tests.md", gives: "[x](<garden/soil tests.md>)")
        assertCompletion("[x](<gar$0", pick: "garden/", gives: "[x](<garden/")
        assertCompletion("![x](<images/pho$0", pick: "photo one.png", gives: "![x](<images/photo one.png>)")
        assertCompletion("[x](<Note title.md#no$0", pick: "Note title", gives: "[x](<Note title.md#note-title>)")
        assertCompletion("[x](<Note title.md#no$0>)", pick: "Note title", gives: "[x](<Note title.md#note-title>)")
        XCTAssertEqual(labels("[x](<garden/$0"), ["soil tests.md", "plants/", "bed.jpg"])
        // The link written resolves to the note.
        let (bytes, _, list) = CompletionFixture.complete("See [x](<garden/soil t$0")
        guard let item = list.items.first(where: { $0.label == "soil tests.md" }) else { return XCTFail("no item") }
        let text = CompletionFixture.appliedText(item, to: bytes)
        let links = CompletionFixture.symbols(text, path: "scratch.md").links
        XCTAssertEqual(links.map { CompletionFixture.sharedWorkspace.catalog.resolve($0, from: "scratch.md") },
                       [.note("garden/soil tests.md", heading: nil, blockID: nil)], text)
    }

    func testAClosingParenthesisOrTitleAfterTheCursorIsNotDoubled() {
        assertCompletion("[x](no$0 \"Title\")", pick: "Note title.md", gives: "[x](Note%20title.md \"Title\")")
        assertCompletion("[x](in$0dex.md)", pick: "index.md", gives: "[x](index.md)")
        assertCompletion("[x](index.md#us$0age) more", pick: "Usage", gives: "[x](index.md#usage) more")
        assertCompletion("[x](gar$0den/soil%20tests.md)", pick: "garden/", gives: "[x](garden/soil%20tests.md)")
        assertCompletion("See [the docs][ma$0] x\n\n[manual]: /m\n", pick: "manual", gives: "See [the docs][manual] x")
        for fixture in ["[x]($0", "[x]($0)", "[x](<$0", "[x](<$0)", "[x](<$0>)", "[x](in$0 'T')", "[x](index.md#$0",
                        "[x](index.md#$0)", "[x](<index.md#$0", "[x](<index.md#$0>)"] {
            let (bytes, _, list) = CompletionFixture.complete(fixture)
            XCTAssertFalse(list.items.isEmpty, fixture)
            for item in list.items where item.kind != .folder {
                let line = CompletionFixture.applied(item, to: bytes)
                XCTAssertEqual(line.utf8.count(where: { $0 == UInt8(ascii: ")") }), 1, "\(fixture) -> \(line)")
                XCTAssertEqual(line.utf8.count(where: { $0 == UInt8(ascii: ">") }), fixture.contains("<") ? 1 : 0,
                               "\(fixture) -> \(line)")
            }
        }
    }

    func testDotDotIsOfferedOnlyWhereItClimbs() {
        XCTAssertFalse(labels("[x](journal/$0").contains("../"))
        XCTAssertFalse(labels("[x](journal/$0", in: "garden/plants/tomato.md").contains("../"))
        XCTAssertFalse(labels("[x](../garden/$0", in: "journal/today.md").contains("../"))
        XCTAssertFalse(labels("[x](/garden/$0", in: "journal/today.md").contains("../"))
        XCTAssertTrue(labels("[x]($0", in: "journal/today.md").contains("../"))
        XCTAssertTrue(labels("[x](../$0", in: "garden/plants/tomato.md").contains("../"))
        XCTAssertTrue(labels("[x](..$0", in: "journal/today.md").contains("../"))
        // From the root there is nothing above.
        XCTAssertFalse(labels("[x]($0").contains("../"))
    }

    func testPathItemsSayWhatTheyAre() {
        XCTAssertEqual(CompletionFixture.documentation("[x](gar$0", pick: "garden/"),
                       "Folder `garden/`: 1 note, 1 folder, 1 image")
        XCTAssertEqual(CompletionFixture.documentation("![x](images/$0", pick: "photo one.png"), "Image `images/photo one.png`")
        XCTAssertEqual(CompletionFixture.documentation("[x](docs/$0", pick: "manual.pdf"), "PDF document `docs/manual.pdf`")
        XCTAssertEqual(CompletionFixture.documentation("[x](no$0", pick: "Note title.md"),
                       "**Note title**\n\n`Note title.md`\n\n---\n\n# Note title")
        XCTAssertEqual(CompletionFixture.documentation("[x](index.md#us$0", pick: "Usage"),
                       "**Home** › Usage\n\n`index.md`\n\n---\n\n### Install")
        XCTAssertEqual(CompletionFixture.documentation("[x](index.md#^$0", pick: "^intro"),
                       "**Home**\n\n`index.md`\n\n---\n\nIntro text. ^intro")
    }
}
