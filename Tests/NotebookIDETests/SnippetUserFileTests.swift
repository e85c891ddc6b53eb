import NotebookWorkspace
import TestSupport
import XCTest
@testable import NotebookIDE

/// User snippets read from the bytes of VS Code snippet files and of snippet notes: the
/// snippets each gives, and one problem (file, line, column, message) per broken snippet.
final class SnippetUserFileTests: XCTestCase {
    let variables = SnippetTestVariables.make()

    /// `name [prefixes] → plain text` for each snippet, and `line:column message` for each
    /// problem (1-based, as a writer reads them).
    func summary(_ file: SnippetFile) -> (snippets: [String], problems: [String]) {
        (file.snippets.map { "\($0.name) \($0.prefixes) → \($0.template.plainText(variables: variables))" },
         file.problems.map { "\($0.line + 1):\($0.utf8Column + 1) \($0.message)" })
    }

    func json(_ text: String) -> (snippets: [String], problems: [String]) {
        summary(UserSnippets.parseVSCodeJSON(Array(text.utf8), path: "/cfg/markdown.json"))
    }

    func testAVSCodeSnippetFile() {
        let file = UserSnippets.parseVSCodeJSON(Array("""
            {
              // Comments and trailing commas, as VS Code allows.
              "Meeting": {
                "prefix": ["meet", "mtg"],
                "body": ["# Meeting on ${1:$CURRENT_DATE}", "", "- $0"],
                "description": "A meeting note",
                "scope": "markdown",
              },
              "Sign": { "prefix": "sig", "body": "— ${1:Ann}" },
              /* a block
                 comment */
              "Bound": { "body": "no prefix: kept for key bindings in VS Code, not offered here" },
            }
            """.utf8), path: "/cfg/markdown.json")
        XCTAssertEqual(summary(file).snippets, ["Meeting [\"meet\", \"mtg\"] → # Meeting on 01\n\n- ", "Sign [\"sig\"] → — Ann"])
        XCTAssertEqual(summary(file).problems, [])
        XCTAssertEqual(file.snippets.first?.description?.english, "A meeting note")
        XCTAssertEqual(file.snippets.first?.origin, "/cfg/markdown.json")
        XCTAssertEqual(file.snippets.first?.body, "# Meeting on ${1:$CURRENT_DATE}\n\n- $0")
        XCTAssertEqual(file.snippets.first?.placement, .body)
    }

    func testOneBrokenSnippetDoesNotHideTheOthers() {
        let result = json("""
            {
              "First": { "prefix": "one", "body": "1" },
              "No body": { "prefix": "nb" },
              "Bad body": { "prefix": "bb", "body": "x ${1:open" },
              "Bad line": { "prefix": "bl", "body": ["fine", "  ${2|a,b}"] },
              "Number": { "prefix": "num", "body": 42 },
              "Bad prefix": { "prefix": 7, "body": "x" },
              "Not an object": "body",
              "Bad JSON": { "prefix": "bj", "body": tru },
              "Last": { "prefix": ["last"], "body": "end" }
            }
            """)
        XCTAssertEqual(result.snippets, ["First [\"one\"] → 1", "Last [\"last\"] → end"])
        XCTAssertEqual(result.problems, [
            "3:3 snippet \"No body\" has no `body`",
            "4:44 snippet \"Bad body\": unclosed ${",
            "5:53 snippet \"Bad line\": unclosed choice",
            "6:40 the body of \"Number\" is not a string or a list of strings",
            "7:29 the prefix of \"Bad prefix\" is not a string or a list of strings",
            "8:20 snippet \"Not an object\" is not an object with a `prefix` and a `body`",
            "9:44 bad JSON in snippet \"Bad JSON\": invalid literal, expected 'true'",
        ])
    }

    /// The column of a body's problem counts the bytes of the JSON string as written: escapes
    /// and characters beyond ASCII included.
    func testProblemsInBodiesPointAtTheBytesAsWritten() {
        let result = json(#"{ "E": { "prefix": "e", "body": "a\"\u00e9\\ é ${" } }"#)
        XCTAssertEqual(result.problems, ["1:49 snippet \"E\": unclosed ${"])
        let bytes = Array(#"{ "E": { "prefix": "e", "body": "a\"\u00e9\\ é ${" } }"#.utf8)
        XCTAssertEqual(bytes[48], UInt8(ascii: "$"))
        let surrogates = json(#"{ "S": { "prefix": "s", "body": "\ud83c\udf31 ${x" } }"#)
        XCTAssertEqual(surrogates.problems, ["1:47 snippet \"S\": unclosed ${"])
    }

    /// The files the server reads are parsed by their kind.
    func testSourcesByKind() {
        let json = SnippetSource(path: "/n/.macmd/snippets/a.json", kind: .vscode,
                                 bytes: Array(#"{ "A": { "prefix": "a", "body": "x" } }"#.utf8))
        let note = SnippetSource(path: "/n/snippets/b.md", kind: .note, bytes: Array("---\nprefix: b\n---\ny".utf8))
        XCTAssertEqual(summary(UserSnippets.parse(json)).snippets, ["A [\"a\"] → x"])
        XCTAssertEqual(summary(UserSnippets.parse(note)).snippets, ["b [\"b\"] → y"])
        XCTAssertEqual(UserSnippets.parse(note).snippets.first?.origin, "/n/snippets/b.md")
    }

    func testFilesThatAreNotSnippetObjects() {
        XCTAssertEqual(json("").problems, [])
        XCTAssertEqual(json("  \n").snippets, [])
        XCTAssertEqual(json("{}").problems, [])
        XCTAssertEqual(json("[1, 2]").problems, ["1:1 a snippet file is a JSON object of named snippets"])
        XCTAssertEqual(json("{\n  \"A\": { \"prefix\": \"a\", \"body\": \"x\" }\n  \"B\": {}\n}").problems,
                       ["3:3 bad JSON: expected ',' or '}'"])
        XCTAssertEqual(json("{\n  \"A\": { \"prefix\": \"a\", \"body\": \"x\" },\n  \"B\": { \"body\": [\n").problems,
                       ["3:8 bad JSON: value not closed"])
        XCTAssertEqual(json("{\n  \"A\": { \"prefix\": \"a\", \"body\": \"x\" }").snippets, ["A [\"a\"] → x"])
        XCTAssertEqual(json("{ \"A\" 1 }").problems, ["1:7 bad JSON: expected ':' after the key"])
        XCTAssertEqual(json("\u{FEFF}{ \"A\": { \"prefix\": \"a\", \"body\": \"x\" } }").snippets, ["A [\"a\"] → x"])
    }

    func testRandomBytesNeverTrap() {
        var generator = SnippetTestRandom(seed: 11)
        let pieces = ["{", "}", "[", "]", "\"", ":", ",", "//", "/*", "*/", "\\", "\"prefix\"", "\"body\"", "\"$1\"", "\"${\"",
                      " ", "\n", "1", "true", "\u{FEFF}", "é"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 40) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let file = UserSnippets.parseVSCodeJSON(Array(text.utf8), path: "x.json")
            for problem in file.problems {
                XCTAssertTrue((0...text.utf8.count).contains(problem.utf8Offset), text)
            }
            _ = UserSnippets.parseSnippetNote(Array(text.utf8), path: "x.md")
            let bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = UserSnippets.parseVSCodeJSON(bytes, path: "y.json")
            _ = UserSnippets.parseSnippetNote(bytes, path: "y.md")
        }
    }

    // MARK: Snippet notes

    func note(_ text: String, path: String = "/notes/snippets/Meeting notes.md") -> (snippets: [String], problems: [String]) {
        summary(UserSnippets.parseSnippetNote(Array(text.utf8), path: path))
    }

    func testASnippetNote() {
        let text = """
            ---
            prefix: [meet, mtg]
            description: A meeting
            tags: [snippet]
            ---
            # ${1:Meeting} on $CURRENT_YEAR

            - $0

            """
        XCTAssertEqual(note(text).snippets, ["Meeting notes [\"meet\", \"mtg\"] → # Meeting on 2024\n\n- "])
        let file = UserSnippets.parseSnippetNote(Array(text.utf8), path: "/notes/snippets/Meeting notes.md")
        XCTAssertEqual(file.snippets.first?.description?.english, "A meeting")
        XCTAssertEqual(file.snippets.first?.body, "# ${1:Meeting} on $CURRENT_YEAR\n\n- $0")
        XCTAssertEqual(note("---\r\nprefix: sig\r\n---\r\n— Ann\r\n").snippets, ["Meeting notes [\"sig\"] → — Ann"])
        XCTAssertEqual(note("---\nprefix: x\n---\n").snippets, ["Meeting notes [\"x\"] → "])
        XCTAssertEqual(note("---\nprefix:\n  - a\n  - b\n---\nbody").snippets, ["Meeting notes [\"a\", \"b\"] → body"])
    }

    func testBrokenSnippetNotes() {
        XCTAssertEqual(note("# Just a note\n").problems, ["1:1 a snippet note starts with front matter that has `prefix:`"])
        XCTAssertEqual(note("---\ntitle: x\n---\nbody").problems, ["1:1 the front matter has no `prefix:`"])
        XCTAssertEqual(note("---\nprefix:\n---\nbody").problems, ["2:1 `prefix:` is a word or a list of words"])
        XCTAssertEqual(note("---\nprefix: p\n---\nline one\nline ${2:two\n").problems,
                       ["5:6 snippet \"Meeting notes\": unclosed ${"])
        XCTAssertEqual(note("---\nprefix: p\nunclosed\n").problems, ["1:1 a snippet note starts with front matter that has `prefix:`"])
    }
}
