import Localization
import NotebookIndex
import TestSupport
import TextCore
import XCTest
@testable import NotebookIDE

/// Unlinked mentions as an editor asks for them: the list of a note's mentions in the other
/// notes, and the code actions that link them, each checked as data (`IDECheck`).
final class UnlinkedMentionsTests: XCTestCase {
    func testTheMentionsOfANoteInTheOtherNotesByPathThenPosition() {
        IDECheck.unlinkedMentions("""
            //- /garden/soil.md
            ---
            title: Soil Tests
            aliases: [dirt]
            ---
            # Soil Tests$0

            About soil tests (its own text: never a mention of itself).
            //- /beds.md
            # Beds

            Raised beds need SOIL TESTS, and dirt.
            Not `soil tests`, not [[soil]], not [soil tests](garden/soil.md), not $soil$.
            //- /a.md
            The soil is tested: soil tests.
            """, """
            a.md: «soil» in: The soil is tested: soil tests.
            a.md: «soil tests» in: The soil is tested: soil tests.
            beds.md: «SOIL TESTS» in: Raised beds need SOIL TESTS, and dirt.
            beds.md: «dirt» in: Raised beds need SOIL TESTS, and dirt.
            """)
    }

    func testANoteNobodyMentionsHasNone() {
        IDECheck.unlinkedMentions("""
            //- /garden/compost.md
            # Compost$0
            //- /beds.md
            Raised beds, composted.
            """, "")
    }

    /// On a mention: "Link to" the note it names, written as the mention when that reaches the
    /// note as a wiki target.
    func testLinkToTheNoteAMentionNames() {
        IDECheck.mentionActions("""
            //- /garden/soil.md
            # Soil Tests
            //- /beds.md
            Raised beds need SOIL T$0ESTS.
            """, """
            Link to [[SOIL TESTS]]
            //- /beds.md
            Raised beds need [[SOIL TESTS]].

            """)
    }

    /// A name two notes share gives an action for each; the one the mention would not reach as
    /// a wiki target (a stem comes before a title) gets the shortest target that does, with
    /// the mention as its label.
    func testLinkToEachNoteOfASharedName() {
        IDECheck.mentionActions("""
            //- /home.md
            # Start
            //- /notes/index.md
            # Home
            //- /journal.md
            Back h$0ome.
            """, """
            Link to [[home]]
            //- /journal.md
            Back [[home]].
            Link to [[index|home]]
            //- /journal.md
            Back [[index|home]].

            """)
    }

    /// On the note's title: "Link all N mentions", every mention in every other note.
    func testLinkAllTheMentionsOfANote() {
        IDECheck.mentionActions("""
            //- /garden/soil.md
            # Soil $0Tests
            //- /beds.md
            Raised beds need SOIL TESTS; soil tests again.
            //- /a.md
            The soil tests.
            """, """
            Link all 3 mentions
            //- /a.md
            The [[soil tests]].
            //- /beds.md
            Raised beds need [[SOIL TESTS]]; [[soil tests]] again.

            """)
    }

    func testNoMentionActionOffAMentionOrWithoutMentions() {
        IDECheck.mentionActions("""
            //- /garden/soil.md
            # Soil $0Tests
            //- /beds.md
            Raised beds.
            """, "")
        IDECheck.mentionActions("""
            //- /garden/soil.md
            # Soil Tests
            //- /beds.md
            Raised $0beds need soil tests.
            """, "")
    }

    /// An action made again from the same texts has the same fingerprint; once a note it edits
    /// changed, another (what `codeAction/resolve` refuses).
    func testTheFingerprintChangesWithTheTextsTheEditChanges() throws {
        let notes = """
            //- /garden/soil.md
            # Soil $0Tests
            //- /beds.md
            Raised beds need soil tests.
            """
        let parsed = Fixture(notes)
        let (view, _) = try XCTUnwrap(IDECheck.view(parsed, file: #filePath, line: #line))
        let first = try XCTUnwrap(view.mentionAction(.linkAll)?.mention)
        XCTAssertEqual(view.mentionAction(.linkAll)?.mention, first)
        let edited = Fixture(notes.replacingOccurrences(of: "Raised beds", with: "Raised  beds"))
        let (changed, _) = try XCTUnwrap(IDECheck.view(edited, file: #filePath, line: #line))
        XCTAssertNotEqual(changed.mentionAction(.linkAll)?.mention?.fingerprint, first.fingerprint)
        XCTAssertEqual(changed.mentionAction(.linkAll)?.title.english, "Link 1 mention")
    }
}
