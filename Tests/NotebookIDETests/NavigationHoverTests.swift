import XCTest
import MarkdownSyntax
import NotebookIndex
@testable import NotebookIDE
import TextCore

/// What a user sees when hovering a link or a tag.
final class NavigationHoverTests: XCTestCase {
    private let soil = """
        ---
        title: Soil tests
        tags: [garden]
        ---
        # Soil

        Line 1
        Line 2

        ## pH
        Acid soils.
        ### Details
        More.
        ## Texture
        Sandy. ^sandy

        """

    /// The hover of a link written `link` in `from.md`, resolved against a notebook of `soil.md`.
    private func hover(_ link: String, maximumLines: Int = 8, maximumBytes: Int = 1200) -> String? {
        let target = MarkdownParser.parse(soil)
        let note = NoteSymbols.extract(from: target, path: "garden/soil.md")
        let from = NoteSymbols.extract(from: MarkdownParser.parse(link), path: "from.md")
        guard let symbol = from.links.first else { return nil }
        switch NoteCatalog([note, from]).resolve(symbol, from: "from.md") {
        case .note(_, let heading, let block, _):
            return HoverText.note(note, source: target.source, heading: heading, block: block,
                                  maximumLines: maximumLines, maximumBytes: maximumBytes)
        case let other:
            return HoverText.unresolved(other)?.english
        }
    }

    func testLinkHoverShowsTitlePathAndTheOpeningLinesAfterFrontMatter() {
        XCTAssertEqual(hover("[[soil]]", maximumLines: 4), """
            **Soil tests**

            `garden/soil.md`

            ---

            # Soil

            Line 1
            Line 2

            ## pH …
            """)
    }

    func testHeadingAndBlockLinksShowTheirSectionOrBlock() {
        XCTAssertEqual(hover("[[soil#pH]]"), """
            **Soil tests** › pH

            `garden/soil.md`

            ---

            Acid soils.
            ### Details
            More.
            """)
        XCTAssertEqual(hover("[x](garden/soil.md#texture)"), """
            **Soil tests** › Texture

            `garden/soil.md`

            ---

            Sandy. ^sandy
            """)
        XCTAssertEqual(hover("[[soil#^sandy]]"), """
            **Soil tests**

            `garden/soil.md`

            ---

            Sandy. ^sandy
            """)
    }

    func testBrokenAndNonNoteLinksSayWhat() {
        XCTAssertEqual(hover("[[clay]]"), "Broken link: no note matches `clay`")
        XCTAssertEqual(hover("[[soil#Nope]]"), "Broken link: no heading `Nope` in `garden/soil.md`")
        XCTAssertEqual(hover("![p](photo.png)"), "File `photo.png`")
        XCTAssertNil(hover("<https://example.com>"))
        XCTAssertEqual(HoverText.unresolved(.ambiguous(["a/x.md", "b/x.md"]))?.english,
                       "Ambiguous link: it matches 2 notes\n- `a/x.md`\n- `b/x.md`")
    }

    func testExcerptsAreCutAtACharacterBoundaryAndCloseAnOpenFence() {
        let source = Array("éééééé\n".utf8)  // 2 bytes each
        XCTAssertEqual(HoverText.excerpt(source, region: ByteSpan(0, source.count), maximumBytes: 6), "éé …")
        let code = Array("Intro\n```swift\nlet a = 1\nlet b = 2\n```\nAfter\n".utf8)
        XCTAssertEqual(HoverText.excerpt(code, region: ByteSpan(0, code.count), maximumLines: 3),
                       "Intro\n```swift\nlet a = 1\n…\n```")
        XCTAssertEqual(HoverText.excerpt(code, region: ByteSpan(0, code.count)), "Intro\n```swift\nlet a = 1\nlet b = 2\n```\nAfter")
        XCTAssertEqual(HoverText.excerpt(code, region: ByteSpan(-5, 1_000)), HoverText.excerpt(code, region: ByteSpan(0, code.count)),
                       "out-of-range regions are clamped")
    }

    func testTitlesAndPathsCannotTurnIntoMarkup() {
        let note = NoteSymbols(path: "odd `name`.md", title: "A *star* [link]", titleSource: .fileStem)
        XCTAssertEqual(HoverText.note(note, source: []), "**A \\*star\\* \\[link\\]**\n\n``odd `name`.md``")
    }

    func testTagHoverCountsUsesAndNotes() {
        XCTAssertEqual(HoverText.tag("garden/soil", uses: 3, notes: 2).english, "`#garden/soil` — used 3 times in 2 notes")
        XCTAssertEqual(HoverText.tag("x", uses: 1, notes: 1).english, "`#x` — used once in 1 note")
        XCTAssertEqual(HoverText.tag("x", uses: 0, notes: 0).english, "`#x` — not used in any note")
    }
}

/// Hovers as the server answers them (`IDECheck`).
final class NavigationHoverCheckTests: XCTestCase {
    func testHover() {
        IDECheck.hover("""
            //- /index.md
            See [[so$0il#pH]].
            //- /garden/soil.md
            ---
            title: Soil tests
            ---
            # Soil

            ## pH
            Acid soils need lime.
            """, "**Soil tests** › pH\n\n`garden/soil.md`\n\n---\n\nAcid soils need lime.")
        IDECheck.hover("""
            //- /index.md
            See [[gre$0enhouse]].
            """, "Broken link: no note matches `greenhouse`")
        IDECheck.hover("""
            //- /index.md
            Tagged #gar$0den twice #garden
            """, "`#garden` — used 2 times in 1 note")
        IDECheck.hover("""
            //- /index.md
            No li$0nk.
            """, nil)
    }

    /// An embed's hover shows the section the page shows, not only its opening lines.
    func testEmbedHoverShowsTheWholeSection() {
        IDECheck.hover("""
            //- /index.md
            ![[so$0il#Steps]]

            [[soil#Steps]]
            //- /soil.md
            # Soil
            ## Steps
            1. one
            2. two
            3. three
            4. four
            5. five
            6. six
            7. seven
            8. eight
            9. nine
            10. ten
            ## Next
            Not this.
            """, "**Soil** › Steps\n\n`soil.md`\n\n---\n\n1. one\n2. two\n3. three\n4. four\n5. five\n6. six\n7. seven\n8. eight\n9. nine\n10. ten")
    }
}
