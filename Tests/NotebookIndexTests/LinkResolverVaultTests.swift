import MarkdownSyntax
import NotebookIndex
import TestSupport
import XCTest

/// Table-driven tests of the resolution rules that Obsidian vaults and static-site books rely on
/// (docs/notebook.md, "Link resolution"): one case per rule, over a small vault of parsed notes and files.
final class LinkResolverVaultTests: XCTestCase {
    /// The vault's notes, in TestSupport's fixture syntax (`//- /path` starts a note).
    private static let notes = Fixture("""
        //- /Home.md
        # Home
        //- /Plan.md
        # The root plan
        //- /work/Plan.md
        # Work plan
        //- /home/Plan.md
        # Home plan
        //- /work/Meeting.md
        # Work meeting
        //- /home/Meeting.md
        # Home meeting
        //- /a/b/Idea.md
        # Short path, two folders
        //- /zzzz/Idea.md
        # Longer path, one folder
        //- /cooking/Recipe Book.md
        # Recipes
        //- /Reference/Commands.md
        # Commands

        ### `move`

        ## How large can it be?

        ## pH & lime

        ## Moving files

        //- /book/chapter.md
        # Chapter

        <a id="old-heading"></a>

        ## New heading

        Text with <a name="legacy"></a> an old anchor and <span id='inline-id'>an inline id</span>.

        <div id="box" class="note"><p name="not-an-anchor">x</p></div>

        <!-- <a id="commented-out"></a> -->

        //- /book/intro.md
        # Intro
        //- /C# notes.md
        # C sharp

        ## Intro
        //- /A|B testing.md
        # A/B
        //- /x^2.md
        # Squares
        //- /Sq]uare.md
        # Bracket

        """).files

    private static let assets = [
        "attachments/clip.mp4", "attachments/voice memo.m4a", "attachments/Scan (2).pdf", "attachments/diagram.png",
        "work/diagram.png", "LICENSE", "tools/Makefile", "book/print.html",
    ]

    private static func catalog(_ mode: MarkdownResolution) -> NoteCatalog {
        var catalog = NoteCatalog(notes.map {
            NoteSymbols.extract(from: MarkdownParser.parse(Array($0.text.utf8), options: .notebook), path: $0.path)
        })
        for asset in assets { catalog.insertAsset(asset) }
        catalog.markdownResolution = mode
        return catalog
    }

    private static let relative = catalog(.relative)
    private static let obsidian = catalog(.obsidian)

    /// Each case: the link (the first of a one-line note), where it is written, and what it
    /// reaches; in both modes unless `catalog` is given.
    private func check(_ cases: [(link: String, from: String, expected: String)], in catalogs: [NoteCatalog] = [relative, obsidian],
                       file: StaticString = #filePath, line: UInt = #line) {
        for (markdown, source, expected) in cases {
            let symbols = NoteSymbols.extract(from: MarkdownParser.parse(Array(markdown.utf8), options: .notebook), path: source)
            guard let link = symbols.links.first else {
                XCTFail("no link in \(markdown)", file: file, line: line)
                continue
            }
            for catalog in catalogs {
                XCTAssertEqual(catalog.resolve(link, from: source).described, expected,
                               "\(markdown) from \(source) (\(catalog.markdownResolution))", file: file, line: line)
            }
        }
    }

    // MARK: Names several notes share

    func testTheLinkingNotesOwnFolderWinsThenTheShortestPath() {
        check([
            // The linking note's own folder, before the name is called ambiguous.
            ("[[Meeting]]", "work/Today.md", "note work/Meeting.md"),
            ("[[Meeting]]", "home/Diary.md", "note home/Meeting.md"),
            ("[[meeting#Work meeting]]", "work/Today.md", "note work/Meeting.md#Work meeting"),
            // Elsewhere, the shortest path: equal lengths are ambiguous.
            ("[[Meeting]]", "Home.md", "ambiguous home/Meeting.md, work/Meeting.md"),
            ("[[Meeting]]", "a/b/Idea.md", "ambiguous home/Meeting.md, work/Meeting.md"),
            // The shortest path string, not the fewest folders (as Obsidian measures).
            ("[[Idea]]", "Home.md", "note a/b/Idea.md"),
            // An exact path from the root wins over the own folder.
            ("[[Plan]]", "work/Today.md", "note Plan.md"),
            ("[[work/Plan]]", "home/Diary.md", "note work/Plan.md"),
            // Files by name follow the same rules.
            ("![[diagram.png]]", "work/Today.md", "file work/diagram.png"),
            ("![[diagram.png]]", "Home.md", "file work/diagram.png"),
            ("![[diagram.png]]", "attachments/x.md", "file attachments/diagram.png"),
        ])
    }

    // MARK: Attachments

    func testAttachmentsOfAnyKindAreFoundByNameAlsoWithAFragment() {
        check([
            ("![[clip.mp4#t=10]]", "Home.md", "file attachments/clip.mp4"),
            ("![[clip.mp4]]", "book/intro.md", "file attachments/clip.mp4"),
            ("![[diagram.png#interface]]", "home/Diary.md", "file work/diagram.png"),
            ("![[voice memo.m4a]]", "Home.md", "file attachments/voice memo.m4a"),
            ("[[Scan (2).pdf]]", "Home.md", "file attachments/Scan (2).pdf"),
            ("![[scan (2).PDF#page=3]]", "Home.md", "file attachments/Scan (2).pdf"),
            ("[[attachments/clip.mp4|the clip]]", "Home.md", "file attachments/clip.mp4"),
            // Not in the notebook: a file to look for on disk (and a broken file when missing).
            ("![[missing.mp3]]", "Home.md", "file missing.mp3"),
        ])
    }

    func testAFileWithoutAnExtensionIsAFileNotANote() {
        check([
            ("[[LICENSE]]", "book/intro.md", "file LICENSE"),
            ("[[Makefile]]", "Home.md", "file tools/Makefile"),
            ("[license](LICENSE)", "Home.md", "file LICENSE"),
            ("[make](../tools/Makefile)", "book/intro.md", "file tools/Makefile"),
            // A note of that name still comes first.
            ("[[Home]]", "book/intro.md", "note Home.md"),
        ])
    }

    // MARK: Headings

    func testHeadingsMatchAsObsidianComparesThem() {
        check([
            ("[[Commands#`move`]]", "Home.md", "note Reference/Commands.md#move"),
            ("[[Commands#move]]", "Home.md", "note Reference/Commands.md#move"),
            ("[[Commands#How large can it be]]", "Home.md", "note Reference/Commands.md#How large can it be?"),
            ("[[Commands#how large can it be?]]", "Home.md", "note Reference/Commands.md#How large can it be?"),
            ("[[Commands#pH lime]]", "Home.md", "note Reference/Commands.md#pH & lime"),
            ("[[#How large can it be]]", "Reference/Commands.md", "note Reference/Commands.md#How large can it be?"),
            ("[x](Commands.md#how-large-can-it-be)", "Reference/Commands.md", "note Reference/Commands.md#How large can it be?"),
            ("[x](Commands.md#How%20large%20can%20it%20be)", "Reference/Commands.md",
             "note Reference/Commands.md#How large can it be?"),
            // Words must all be there, in order.
            ("[[Commands#How large]]", "Home.md", "brokenHeading Reference/Commands.md#How large"),
            ("[[Commands#be it can large how]]", "Home.md", "brokenHeading Reference/Commands.md#be it can large how"),
        ])
    }

    // MARK: Markdown links by name

    func testMarkdownLinksThatReachNothingFallBackToTheNameInAVault() {
        let cases: [(link: String, from: String, relative: String, obsidian: String)] = [
            ("[r](Recipe%20Book.md)", "Home.md", "broken Recipe Book.md", "note cooking/Recipe Book.md"),
            ("[r](<Recipe Book.md>)", "work/Today.md", "broken work/Recipe Book.md", "note cooking/Recipe Book.md"),
            ("[r](Recipe%20Book)", "Home.md", "broken Recipe Book", "note cooking/Recipe Book.md"),
            ("[m](Commands.md#Moving%20files)", "Home.md", "broken Commands.md", "note Reference/Commands.md#Moving files"),
            ("[m](Meeting.md)", "work/Today.md", "note work/Meeting.md", "note work/Meeting.md"),
            ("[m](Meeting.md)", "Home.md", "broken Meeting.md", "ambiguous home/Meeting.md, work/Meeting.md"),
            ("![d](diagram.png)", "home/Diary.md", "file home/diagram.png", "file work/diagram.png"),
            ("[c](clip.mp4)", "Home.md", "file clip.mp4", "file attachments/clip.mp4"),
            // A path that reaches something is never looked up by name.
            ("[p](Plan.md)", "work/Today.md", "note work/Plan.md", "note work/Plan.md"),
            ("[p](../Plan.md)", "work/Today.md", "note Plan.md", "note Plan.md"),
            // Nothing of that name: broken either way.
            ("[q](Quarterly%20report.md)", "Home.md", "broken Quarterly report.md", "broken Quarterly report.md"),
            // Above the root: not checked, unless the name is found.
            ("[r](../../Recipe%20Book.md)", "work/Today.md", "outside ../../Recipe Book.md", "note cooking/Recipe Book.md"),
            ("[s](../std/index.html)", "Home.md", "outside ../std/index.html", "outside ../std/index.html"),
        ]
        check(cases.map { ($0.link, $0.from, $0.relative) }, in: [Self.relative])
        check(cases.map { ($0.link, $0.from, $0.obsidian) }, in: [Self.obsidian])
    }

    // MARK: Static sites

    func testPublishedPagesReachTheirNotes() {
        check([
            ("[c](chapter.html)", "book/intro.md", "note book/chapter.md"),
            ("[c](./chapter.htm)", "book/intro.md", "note book/chapter.md"),
            ("[c](chapter.HTML#new-heading)", "book/intro.md", "note book/chapter.md#New heading"),
            ("[c](/book/chapter.html)", "Home.md", "note book/chapter.md"),
            ("[c](chapter.html#nope)", "book/intro.md", "brokenHeading book/chapter.md#nope"),
            // A real page of that name wins; a page with no note is a file (checked on disk).
            ("[p](print.html)", "book/intro.md", "file book/print.html"),
            ("[o](other.html)", "book/intro.md", "file book/other.html"),
        ])
    }

    func testFragmentsNameHTMLIDsAsWellAsHeadings() {
        check([
            ("[o](chapter.html#old-heading)", "book/intro.md", "note book/chapter.md id=old-heading"),
            ("[o](chapter.md#legacy)", "book/intro.md", "note book/chapter.md id=legacy"),
            ("[o](chapter.html#inline-id)", "book/intro.md", "note book/chapter.md id=inline-id"),
            ("[o](chapter.html#box)", "book/intro.md", "note book/chapter.md id=box"),
            ("[o](#old-heading)", "book/chapter.md", "note book/chapter.md id=old-heading"),
            ("[[chapter#old-heading]]", "Home.md", "note book/chapter.md id=old-heading"),
            // `name` names a place on `<a>` only; a comment holds no place.
            ("[o](chapter.html#not-an-anchor)", "book/intro.md", "brokenHeading book/chapter.md#not-an-anchor"),
            ("[o](chapter.html#commented-out)", "book/intro.md", "brokenHeading book/chapter.md#commented-out"),
        ])
    }

    func testPathsAboveTheRootAreOutsideTheNotebook() {
        check([
            ("[s](../std/index.html)", "Home.md", "outside ../std/index.html"),
            ("[s](../../reference/items.html#unions)", "book/intro.md", "outside ../../reference/items.html"),
            ("[[../../elsewhere]]", "book/intro.md", "outside ../../elsewhere"),
            // Relative wiki-links by path.
            ("[[./chapter]]", "book/intro.md", "note book/chapter.md"),
            ("[[../Home]]", "book/intro.md", "note Home.md"),
            ("[[../nowhere]]", "book/intro.md", "broken nowhere"),
        ])
    }

    // MARK: Names with `# | ^ ]`

    func testNamesWithWikiLinkDelimitersCanBeLinked() {
        check([
            // Percent-encoded, as completion writes them.
            ("[[C%23 notes]]", "Home.md", "note C# notes.md"),
            ("[[C%23 notes#Intro]]", "Home.md", "note C# notes.md#Intro"),
            ("[[A%7CB testing|A/B]]", "Home.md", "note A|B testing.md"),
            ("[[x%5E2]]", "Home.md", "note x^2.md"),
            ("[[Sq%5Duare]]", "Home.md", "note Sq]uare.md"),
            // As the name is written: the parts the link splits into, put back together.
            ("[[C# notes]]", "Home.md", "note C# notes.md"),
            ("[[A|B testing]]", "Home.md", "note A|B testing.md"),
            ("[[x^2]]", "Home.md", "note x^2.md"),
            // Markdown links percent-encode as usual.
            ("[c](C%23%20notes.md)", "Home.md", "note C# notes.md"),
        ])
    }

    func testResultsDoNotDependOnTheOrderOfTheNotes() {
        var reversed = NoteCatalog(Self.notes.reversed().map {
            NoteSymbols.extract(from: MarkdownParser.parse(Array($0.text.utf8), options: .notebook), path: $0.path)
        })
        for asset in Self.assets.reversed() { reversed.insertAsset(asset) }
        reversed.markdownResolution = .obsidian
        for markdown in ["[[Meeting]]", "[m](Meeting.md)", "![[diagram.png]]", "[[C# notes]]", "[[Idea]]"] {
            let symbols = NoteSymbols.extract(from: MarkdownParser.parse(Array(markdown.utf8), options: .notebook), path: "Home.md")
            guard let link = symbols.links.first else { continue }
            XCTAssertEqual(reversed.resolve(link, from: "Home.md"), Self.obsidian.resolve(link, from: "Home.md"), markdown)
        }
    }
}
