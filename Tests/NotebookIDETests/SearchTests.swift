import TestSupport
import XCTest
@testable import NotebookIDE

/// Full-text search as an editor asks for it (`macmd/search`): the hits, best first, each with
/// its excerpt (matches in «») and the text at its place, checked as data (`IDECheck.search`).
final class SearchTests: XCTestCase {
    func testExcerptsMarkTheMatchedWordsFoldedAsWritten() {
        IDECheck.search("cafe soil", """
            //- /a.md
            # Breakfast

            We met at the CAFÉ to talk about soil, then left.
            Nothing else here.
            //- /b.md
            Soil, soil, soil; no coffee.
            """, "a.md: We met at the «CAFÉ» to talk about «soil», then left. Nothing else here. [at CAFÉ]")
    }

    func testPhrasesAreCheckedInTheText() {
        IDECheck.search("\"soil tests\"", """
            //- /a.md
            The soil tests came back.
            //- /b.md
            Tests of the soil.
            //- /c.md
            Soil-tests, written with a hyphen.
            """, "a.md: The «soil» «tests» came back. [at soil tests]\nc.md: «Soil»-«tests», written with a hyphen. [at Soil-tests]")
    }

    func testJapaneseFindsAPairInsideAWord() {
        IDECheck.search("本語", """
            //- /ja.md
            # 勉強

            毎日日本語を勉強します。
            //- /other.md
            本 and 語 apart.
            """, "ja.md: 毎日日«本語»を勉強します。 [at 本語]")
    }

    func testALongNoteGivesAnExcerptAroundItsBestPlace() {
        IDECheck.search("mulch compost", """
            //- /long.md
            # Garden

            A first paragraph about mulch alone, which says nothing more of interest to anyone reading this far into it.

            A second paragraph, long and winding, that goes on and on about beds and weeds and water before it says, at last, that mulch and compost belong together in every bed of the garden, all year round, whatever the weather.
            """, "long.md: …and water before it says, at last, that «mulch» and «compost» belong together in every bed of the garden, all year round, whatever the weather. [at mulch]")
    }

    func testTheNoteAboutAWordRanksAboveTheOneThatMentionsItInCode() {
        IDECheck.search("compost", """
            //- /code.md
            # Notes

            Some words here to make the note about as long as the other one.

            `compost = 1`
            //- /title.md
            # Compost

            A note about it, with words to make it as long as the other one.
            """, "title.md: # «Compost»  A note about it, with words to make it as long as the other one. [at Compost]\ncode.md: `«compost» = 1` [at compost]")
    }

    func testLimitAndFiltersAlone() {
        IDECheck.search("tag:garden", """
            //- /c.md
            #garden c
            //- /a.md
            #garden/beds a
            //- /b.md
            #garden b
            //- /d.md
            #other d
            """, "a.md: #garden/beds a [at ]\nb.md: #garden b [at ]", limit: 2)
    }
}
