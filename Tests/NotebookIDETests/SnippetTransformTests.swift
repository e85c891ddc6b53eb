import XCTest
@testable import NotebookIDE

/// Variable transforms: `${NAME/regex/format/options}` as VS Code applies them.
final class SnippetTransformTests: XCTestCase {
    /// The note is `my-note.md`; its title spans two lines.
    let variables = SnippetTestVariables.make(title: "first line\nsecond line")

    func testTransformsOfKnownVariables() {
        let cases: [(String, String)] = [
            ("${TM_FILENAME_BASE/(.*)/${1:/upcase}/}", "MY-NOTE"),
            ("${TM_FILENAME_BASE/-/ /}", "my note"),
            (#"${TM_FILENAME_BASE/(\w+)-(\w+)/$2 $1/}"#, "note my"),
            (#"${TM_FILENAME_BASE/(\w+)-(\w+)/${2}${1}/}"#, "notemy"),
            (#"${TM_FILENAME_BASE/(^|-)(\w)/${2:/upcase}/g}"#, "MyNote"),
            ("${TM_FILENAME_BASE/(.*)/${1:/pascalcase}/}", "MyNote"),
            ("${TM_FILENAME_BASE/(.*)/${1:/camelcase}/}", "myNote"),
            ("${TM_FILENAME_BASE/(.*)/${1:/capitalize}/}", "My-note"),
            ("${TM_FILENAME_BASE/(MY)/${1:/downcase}x/i}", "myx-note"),
            ("${TM_FILENAME_BASE/[aeiou]/${0:/upcase}/g}", "my-nOtE"),
            ("${TM_FILENAME_BASE/[aeiou]/${0:/upcase}/}", "my-nOte"),
            // Only the match is replaced; the rest of the value stays.
            ("${TM_FILENAME/\\.md$//}", "my-note"),
            // Conditionals: `+if`, `-else`, `?if:else`, and a bare else.
            ("${TM_FILENAME_BASE/(x)?my/${1:+found}${1:-none}/}", "none-note"),
            ("${TM_FILENAME_BASE/(m)?y/${1:+found}/}", "found-note"),
            ("${TM_FILENAME_BASE/(m)(x)?/${2:?yes:no}/}", "noy-note"),
            ("${TM_FILENAME_BASE/(m)(y)?/${2:?yes:no}/}", "yes-note"),
            ("${TM_FILENAME_BASE/(m)(x)?/${2:other}/}", "othery-note"),
            // No match: the value is kept, unless the format has an else text.
            ("${TM_FILENAME_BASE/z/Q/}", "my-note"),
            ("${TM_FILENAME_BASE/(z)/${1:fallback}/}", "fallback"),
            // `\/` in the regular expression, escapes in the format.
            (#"${TM_FILEPATH/.*\/(.*)/$1/}"#, "my-note.md"),
            (#"${TM_FILENAME_BASE/(.*)/\$1\/\}/}"#, "$1/}"),
            (#"${TM_FILENAME_BASE/(.*)/${1:?a\:b:c}/}"#, "a:b"),
            // A group that does not exist is empty.
            ("${TM_FILENAME_BASE/my/[$7]/}", "[]-note"),
            // `m`: `^` at each line start; `s`: `.` across lines.
            ("${NOTE_TITLE/^/> /gm}", "> first line\n> second line"),
            ("${NOTE_TITLE/^/> /g}", "> first line\nsecond line"),
            ("${NOTE_TITLE/line.second/+/}", "first line\nsecond line"),
            ("${NOTE_TITLE/line.second/+/s}", "first + line"),
            // An empty regular expression matches at the start.
            ("${TM_FILENAME_BASE//#/}", "#my-note"),
        ]
        for (body, expected) in cases {
            guard case .success(let template) = SnippetParser.parse(body) else {
                XCTFail("\(body) did not parse")
                continue
            }
            XCTAssertEqual(template.plainText(variables: variables), expected, body)
            XCTAssertEqual(template.snippetText(variables: variables),
                           expected.replacing("$", with: "\\$").replacing("}", with: "\\}"), body)
        }
    }

    func testCaseChanges() {
        let cases: [(SnippetCaseChange, String, String)] = [
            (.upcase, "straße 1", "STRASSE 1"),
            (.downcase, "ÉTÉ Mixed", "été mixed"),
            (.capitalize, "élan vital", "Élan vital"),
            (.capitalize, "", ""),
            (.camelcase, "Hello big-world 2day", "helloBigWorld2day"),
            (.pascalcase, "hello big_world", "HelloBigWorld"),
            (.camelcase, "--", "--"),
            (.pascalcase, "été sur", "TSur"),
        ]
        for (change, input, expected) in cases {
            XCTAssertEqual(change.apply(to: Substring(input)), expected, "\(change) \(input)")
        }
    }

    /// The editor's variables keep their transform, as written, for the editor to apply; plain
    /// text applies it to the empty text (as VS Code does when nothing is selected).
    func testTransformsOfEditorVariablesAreLeftForTheEditor() {
        let body = #"${TM_SELECTED_TEXT/(.*)\/x/${1:/upcase}/gi}"#
        let template = try? SnippetParser.parse(body).get()
        XCTAssertEqual(template?.snippetText(variables: variables), body)
        XCTAssertEqual(template?.plainText(variables: variables), "")
        let withElse = try? SnippetParser.parse("${CLIPBOARD/(.+)/${1:?quoted:empty}/}").get()
        XCTAssertEqual(withElse?.plainText(variables: variables), "empty")
        // An unknown variable with a transform is the transform of the empty text.
        let unknown = try? SnippetParser.parse("${NOPE/^$/none/}").get()
        XCTAssertEqual(unknown?.snippetText(variables: variables), "none")
    }
}
