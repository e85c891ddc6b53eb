import XCTest
import Localization
import NotebookIndex
import NotebookWorkspace
@testable import NotebookIDE

/// Rename errors and code action titles are catalog messages: the same refusal or action reads
/// in English, German and Arabic, with the writer's names in it unchanged.
final class RefactoringLocalizationTests: XCTestCase {
    static let text = "# Garden\n\nSee [[Greenhouse]] and #soil today.\n"

    /// The note's view, from an open document in a notebook.
    func view() -> NoteView {
        var host = AnalysisHost()
        host.addFolder("/home/ann/notes")
        let document = OpenDocument(id: "a", file: "/home/ann/notes/index.md", languageID: "markdown", version: 1,
                                    text: Array(RefactoringLocalizationTests.text.utf8))
        host.open(document)
        return host.snapshot().view(of: document)
    }

    /// The byte offset of `marker`'s `|` in the note's text (`"an|d"`).
    func offset(_ marker: String) -> Int {
        let bare = marker.replacingOccurrences(of: "|", with: "")
        guard let range = RefactoringLocalizationTests.text.range(of: bare),
              let bar = marker.firstIndex(of: "|") else { return -1 }
        let text = RefactoringLocalizationTests.text
        return text.utf8.distance(from: text.startIndex, to: range.lowerBound) + marker.utf8.distance(from: marker.startIndex, to: bar)
    }

    func testRenameErrorsInTheWritersLanguage() {
        // (cursor, new name or nil for prepareRename, English, German, Arabic)
        let cases: [(String, String?, String, String, String)] = [
            ("an|d", nil,
             "nothing to rename here: put the cursor on a heading, a tag, a link to a note or a reference label",
             "hier gibt es nichts umzubenennen: den Cursor auf eine Überschrift, einen Tag, einen Link zu einer Notiz oder eine Referenzbezeichnung setzen",
             "لا يوجد هنا ما يمكن إعادة تسميته: ضع المؤشر على عنوان أو وسم أو رابط إلى ملاحظة أو تسمية مرجع"),
            ("#so|il", "rich soil",
             "a tag cannot contain spaces: tags are letters, digits, `_`, `-` and `/`",
             "ein Tag darf keine Leerzeichen enthalten: Tags bestehen aus Buchstaben, Ziffern, `_`, `-` und `/`",
             "لا يمكن أن يحتوي الوسم على مسافات: تتكون الوسوم من حروف وأرقام و`_` و`-` و`/`"),
            ("#so|il", "2024",
             "a tag needs a character that is not a digit (`#2024` is not a tag)",
             "ein Tag braucht ein Zeichen, das keine Ziffer ist (`#2024` ist kein Tag)",
             "يحتاج الوسم إلى حرف ليس رقمًا (`#2024` ليس وسمًا)"),
            ("Gar|den", "Beds\nPaths",
             "a heading cannot contain a line break",
             "eine Überschrift darf keinen Zeilenumbruch enthalten",
             "لا يمكن أن يحتوي العنوان على فاصل أسطر"),
        ]
        let view = view()
        for (marker, newName, english, german, arabic) in cases {
            let error: RenameError?
            do throws(RenameError) {
                if let newName { _ = try view.rename(at: offset(marker), to: newName) } else { _ = try view.prepareRename(at: offset(marker)) }
                error = nil
            } catch let refused {
                error = refused
            }
            guard let message = error?.message else {
                XCTFail("\(marker) \(newName ?? "") was not refused")
                continue
            }
            XCTAssertEqual(message.english, english, marker)
            XCTAssertEqual(message.string(in: .de), german, marker)
            XCTAssertEqual(message.string(in: .ar), arabic, marker)
        }
    }

    func testCodeActionTitlesInTheWritersLanguage() {
        let actions = view().codeActions(start: offset("[[Green|house]]"), end: offset("[[Green|house]]"), canCreateFiles: true)
        // (English, German, Arabic), in the order the actions come.
        let expected: [(String, String, String)] = [
            ("Create note `Greenhouse.md`", "Notiz `Greenhouse.md` anlegen", "إنشاء الملاحظة `Greenhouse.md`"),
            ("Insert a table of contents", "Inhaltsverzeichnis einfügen", "إدراج جدول المحتويات"),
        ]
        XCTAssertEqual(actions.map(\.title.english), expected.map(\.0))
        XCTAssertEqual(actions.map { $0.title.string(in: .de) }, expected.map(\.1))
        XCTAssertEqual(actions.map { $0.title.string(in: .ar) }, expected.map(\.2))
    }

    /// A tag renamed onto one already used asks first; the count of notes picks the plural.
    func testTheTagMergeQuestionCountsNotes() throws {
        var host = AnalysisHost()
        host.addFolder("/home/ann/notes")
        let index = OpenDocument(id: "a", file: "/home/ann/notes/index.md", languageID: "markdown", version: 1,
                                 text: Array(RefactoringLocalizationTests.text.utf8))
        host.open(index)
        let expected: [(String, String, String)] = [
            ("`#garden` is already a tag (in 1 note): renaming `#soil` to it merges the two, and no rename can part them again",
             "`#garden` ist bereits ein Tag (in 1 Notiz): `#soil` in diesen Namen umzubenennen führt beide zusammen, und keine Umbenennung kann sie wieder trennen",
             "`#garden` وسم بالفعل (في ملاحظة واحدة): إعادة تسمية `#soil` إليه تدمجهما، ولا يمكن لأي إعادة تسمية أن تفصلهما مجددًا"),
            ("`#garden` is already a tag (in 2 notes): renaming `#soil` to it merges the two, and no rename can part them again",
             "`#garden` ist bereits ein Tag (in 2 Notizen): `#soil` in diesen Namen umzubenennen führt beide zusammen, und keine Umbenennung kann sie wieder trennen",
             "`#garden` وسم بالفعل (في ملاحظتين): إعادة تسمية `#soil` إليه تدمجهما، ولا يمكن لأي إعادة تسمية أن تفصلهما مجددًا"),
        ]
        for (number, (english, german, arabic)) in expected.enumerated() {
            let path = "beds \(number).md"
            host.updateFolder("/home/ann/notes") { folder in
                folder.apply([FileUpdate(path: path, change: .note(CompletionFixture.symbols("# Beds\n\n#garden\n", path: path),
                                                                    modificationTime: nil))])
            }
            let change = try host.snapshot().view(of: index).rename(at: offset("#so|il"), to: "garden")
            let confirmation = try XCTUnwrap(change.confirmation)
            let question = confirmation.question
            XCTAssertEqual(question.english, english)
            XCTAssertEqual(question.string(in: .de), german)
            XCTAssertEqual(question.string(in: .ar), arabic)
            XCTAssertEqual(confirmation.confirmingName, "garden!")
            XCTAssertEqual(confirmation.refusal.string(in: .de),
                           german + ". Dieser Editor kann nicht vorher fragen: Zum Zusammenführen in `garden!` umbenennen.")
            XCTAssertNil(try host.snapshot().view(of: index).rename(at: offset("#so|il"), to: "garden!").confirmation,
                         "`garden!` says yes ahead")
        }
    }
}
