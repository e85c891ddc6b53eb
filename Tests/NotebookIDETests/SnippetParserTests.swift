import Synchronization
import XCTest
@testable import NotebookIDE

/// Fixed inputs for snippet expansion: a note, a notebook, a moment and a random source.
enum SnippetTestVariables {
    /// Wednesday 2024-05-01 08:34:56 UTC, 10:34:56 for a writer at UTC+2.
    static let clock = SnippetClock(secondsSinceEpoch: 1_714_552_496, utcOffsetSeconds: 7_200)

    /// The same random number every time (so a `UUID` is known in advance).
    static let constant: @Sendable () -> UInt64 = { 0x0123_4567_89AB_CDEF }

    /// 1, 2, 3, … (a new value at each call).
    static func counting() -> @Sendable () -> UInt64 {
        let state = Mutex<UInt64>(0)
        return {
            state.withLock { value in
                value += 1
                return value
            }
        }
    }

    static func make(filePath: String? = "/home/ann/notes/journal/my-note.md", folder: String? = "/home/ann/notes",
                     title: String? = "My Note", clock: SnippetClock = clock,
                     random: @escaping @Sendable () -> UInt64 = constant) -> SnippetVariables {
        SnippetVariables(filePath: filePath, workspaceFolder: folder, noteTitle: title, clock: clock, random: random)
    }
}

/// The snippet grammar: what each construct expands to, for an editor that takes snippets and
/// for one that does not, and where a malformed body is reported.
final class SnippetParserTests: XCTestCase {
    let variables = SnippetTestVariables.make()

    /// `body` expanded as snippet text and as plain text, or its parse error.
    func expand(_ body: String) -> (snippet: String, plain: String)? {
        guard case .success(let template) = SnippetParser.parse(body) else { return nil }
        return (template.snippetText(variables: variables), template.plainText(variables: variables))
    }

    func check(_ cases: [(body: String, snippet: String, plain: String)], file: StaticString = #filePath, line: UInt = #line) {
        for (body, snippet, plain) in cases {
            switch SnippetParser.parse(body) {
            case .success(let template):
                XCTAssertEqual(template.snippetText(variables: variables), snippet, "snippet text of \(body.debugDescription)", file: file, line: line)
                XCTAssertEqual(template.plainText(variables: variables), plain, "plain text of \(body.debugDescription)", file: file, line: line)
            case .failure(let error):
                XCTFail("\(body.debugDescription) did not parse: \(error)", file: file, line: line)
            }
        }
    }

    func testTabStopsPlaceholdersAndChoices() {
        check([
            ("plain text", "plain text", "plain text"),
            ("", "", ""),
            ("$1 and $2", "$1 and $2", " and "),
            ("${1} x", "$1 x", " x"),
            ("${1}2", "${1}2", "2"),
            ("$12", "$12", ""),
            ("$01", "$1", ""),
            ("a$0", "a$0", "a"),
            ("${1:default}", "${1:default}", "default"),
            ("${1:}", "${1:}", ""),
            ("${1:outer ${2:inner} end}", "${1:outer ${2:inner} end}", "outer inner end"),
            ("${1:a ${2:b ${3:c}}}", "${1:a ${2:b ${3:c}}}", "a b c"),
            ("${1|one,two,three|}", "${1|one,two,three|}", "one"),
            ("${1|only|}", "${1|only|}", "only"),
            ("${2|a$b,c}d|}", "${2|a$b,c}d|}", "a$b"),
            ("${1:x ${2|p,q|}}", "${1:x ${2|p,q|}}", "x p"),
        ])
    }

    func testTabStopsWithTheSameNumberMirrorTheFirstDefault() {
        check([
            ("${1:name} = $1", "${1:name} = $1", "name = name"),
            ("$1 = ${1:late}", "$1 = ${1:late}", "late = late"),
            ("${1:first} ${1:second}", "${1:first} ${1:second}", "first first"),
            ("${1:} ${1:x}", "${1:} ${1:x}", "x x"),
            ("${1|a,b|} $1", "${1|a,b|} $1", "a a"),
            ("${1:v} ${2:[$1]}", "${1:v} ${2:[$1]}", "v [v]"),
            // A placeholder that mirrors itself has nothing to mirror inside.
            ("${1:a $1}", "${1:a $1}", "a "),
            // `$0` is the final stop: it never mirrors.
            ("${0:end} $0", "${0:end} $0", "end "),
        ])
    }

    func testEscapes() {
        check([
            (#"\$1 costs \$5"#, #"\$1 costs \$5"#, "$1 costs $5"),
            (#"a \} b"#, #"a \} b"#, "a } b"),
            (#"back\\slash"#, #"back\\slash"#, #"back\slash"#),
            // A backslash that escapes nothing is itself, at the end too.
            (#"\n \a"#, #"\\n \\a"#, #"\n \a"#),
            (#"end\"#, #"end\\"#, #"end\"#),
            (#"${1:a\}b}"#, #"${1:a\}b}"#, "a}b"),
            (#"${1|a\,b,c\|d,e\\f|}"#, #"${1|a\,b,c\|d,e\\f|}"#, "a,b"),
            (#"${1|x\$y,\}|}"#, #"${1|x$y,}|}"#, "x$y"),
        ])
    }

    func testALoneDollarOrBraceIsText() {
        check([
            ("costs $ 5", #"costs \$ 5"#, "costs $ 5"),
            ("$$", #"\$\$"#, "$$"),
            ("end$", #"end\$"#, "end$"),
            ("$-1", #"\$-1"#, "$-1"),
            ("{ } }", #"{ \} \}"#, "{ } }"),
            ("a{b}", #"a{b\}"#, "a{b}"),
        ])
    }

    func testVariables() {
        check([
            ("$TM_FILENAME", "my-note.md", "my-note.md"),
            ("${TM_FILENAME_BASE}!", "my-note!", "my-note!"),
            ("${TM_FILENAME:unused}", "my-note.md", "my-note.md"),
            ("${NOTE_TITLE}", "My Note", "My Note"),
            ("${1:$TM_FILENAME_BASE}", "${1:my-note}", "my-note"),
            ("$CURRENT_YEAR-$CURRENT_MONTH-$CURRENT_DATE", "2024-05-01", "2024-05-01"),
            // A value that starts with a digit does not extend a tab stop's number.
            ("$1$CURRENT_YEAR", "${1}2024", "2024"),
            // The editor's variables are left for it; plain text takes their default.
            ("${TM_SELECTED_TEXT}", "${TM_SELECTED_TEXT}", ""),
            ("$CLIPBOARD", "${CLIPBOARD}", ""),
            ("${TM_SELECTED_TEXT:fallback}", "${TM_SELECTED_TEXT:fallback}", "fallback"),
            ("${CLIPBOARD:${1:x} on $TM_FILENAME_BASE}", "${CLIPBOARD:${1:x} on my-note}", "x on my-note"),
            // Unknown variables become placeholders holding their name, one number per name.
            ("$FOO", "${1:FOO}", "FOO"),
            ("$2 $FOO $BAR $FOO", "$2 ${3:FOO} ${4:BAR} ${3:FOO}", " FOO BAR FOO"),
            ("${FOO:default}", "default", "default"),
            ("${FOO:}", "", ""),
            ("${FOO:${1:x}}", "${1:x}", "x"),
        ])
    }

    func testServerValuesAreEscapedSoTheyAreNeverSyntax() {
        let odd = SnippetTestVariables.make(filePath: #"/n/pr$1ce}\x.md"#, folder: "/n", title: "${1|a,b|}")
        let template = try? SnippetParser.parse("$TM_FILENAME_BASE ${1:$NOTE_TITLE}").get()
        XCTAssertEqual(template?.snippetText(variables: odd), #"pr\$1ce\}\\x ${1:\${1|a,b|\}}"#)
        XCTAssertEqual(template?.plainText(variables: odd), #"pr$1ce}\x ${1|a,b|}"#)
    }

    func testTheTreeOfANestedBody() {
        let template = try? SnippetParser.parse("a ${1:b $2 ${VAR:c}} ${3|x,y|}$0").get()
        XCTAssertEqual(template?.nodes, [
            .text("a "),
            .placeholder(1, [.text("b "), .tabStop(2), .text(" "), .variable(name: "VAR", default: [.text("c")], transform: nil)]),
            .text(" "),
            .choice(3, ["x", "y"]),
            .tabStop(0),
        ])
        XCTAssertEqual(template?.tabStops, [0, 1, 2, 3])
    }

    // MARK: Malformed bodies

    func testMalformedBodiesAreErrorsWithTheirOffset() {
        let nested = String(repeating: "${1:", count: 40) + String(repeating: "}", count: 40)
        let cases: [(String, String)] = [
            ("${", "unclosed ${ at 0"),
            ("ab ${1:x", "unclosed ${ at 3"),
            ("${1:${2:x}", "unclosed ${ at 0"),
            (#"${1:a\"#, "unclosed ${ at 0"),
            ("${1", "unclosed ${ at 0"),
            ("${1x}", "expected '}', ':' or '|' after the tab stop number at 3"),
            ("${1 }", "expected '}', ':' or '|' after the tab stop number at 3"),
            ("${-1}", "expected a tab stop number or a variable name after '${' at 2"),
            ("${}", "expected a tab stop number or a variable name after '${' at 2"),
            ("${ 1}", "expected a tab stop number or a variable name after '${' at 2"),
            ("x $99999999999999999999", "number larger than 999999 at 3"),
            ("${1234567}", "number larger than 999999 at 2"),
            ("${1|a,b}", "unclosed choice at 0"),
            ("${1|a,b|", "a choice ends with '|}' (write '\\|' for a '|' in an option) at 7"),
            ("${1|a,${2|b|}|}", "a choice ends with '|}' (write '\\|' for a '|' in an option) at 9"),
            ("${1||}", "empty choice option at 4"),
            ("${1|a,,b|}", "empty choice option at 6"),
            ("${VAR", "unclosed ${ at 0"),
            ("${VAR!}", "expected '}', ':' or '/' after the variable name at 5"),
            ("${VAR:${1:x}", "unclosed ${ at 0"),
            ("${VAR/a/b/x}", "unknown regular expression option (use g, i, m, s or u) at 10"),
            ("${VAR/a/b/", "unclosed ${ at 0"),
            ("${VAR/a/b", "unclosed ${ at 0"),
            ("${VAR/a", "unclosed ${ at 0"),
            ("${VAR/a/${1:/shout}/}", "unknown case change '/shout' (use /upcase, /downcase, /capitalize, /camelcase or /pascalcase) at 13"),
            ("${VAR/a/${x}/}", "expected a group number after '${' at 10"),
            ("${VAR/a/${1!}/}", "expected '}' or ':' after the group number at 11"),
            ("${VAR/a/${1:+yes/}", "unclosed ${ at 0"),
            (nested, "nested deeper than 32 levels at 128"),
        ]
        for (body, expected) in cases {
            switch SnippetParser.parse(body) {
            case .success(let template):
                XCTFail("\(body.debugDescription) parsed: \(template)")
            case .failure(let error):
                XCTAssertEqual(error.description, expected, body.debugDescription)
            }
        }
    }

    func testARegularExpressionThatDoesNotCompileIsAnError() {
        for body in ["${VAR/(/x/}", "${VAR/[a-/x/}", "${VAR/a{2,1}/x/}"] {
            guard case .failure(let error) = SnippetParser.parse(body) else {
                XCTFail("\(body) parsed")
                continue
            }
            XCTAssertTrue(error.message.english.hasPrefix("bad regular expression: "), error.description)
            XCTAssertEqual(error.utf8Offset, 6, body)
        }
        let long = "${VAR/" + String(repeating: "a", count: SnippetParser.maxPatternBytes + 1) + "/x/}"
        XCTAssertEqual(try? SnippetParser.parse(long).get(), nil)
        let deep = "${VAR/" + String(repeating: "(", count: 40) + String(repeating: ")", count: 40) + "/x/}"
        if case .failure(let error) = SnippetParser.parse(deep) {
            XCTAssertEqual(error.description, "regular expression nested deeper than 32 groups at 6")
        } else {
            XCTFail("40 nested groups parsed")
        }
    }

    func testNestingUpToTheBoundParses() {
        let depth = SnippetParser.maxDepth
        let body = (1...depth).map { "${\($0):" }.joined() + "x" + String(repeating: "}", count: depth)
        XCTAssertEqual(expand(body)?.plain, "x")
        XCTAssertEqual(expand(body)?.snippet, body)
    }

    // MARK: Robustness

    /// Random bodies built from the grammar's bytes (and a few multi-byte characters) never
    /// trap. When one parses, its snippet text parses too and means the same: the plain texts
    /// agree, so escaping kept every value from being read as syntax.
    func testRandomBodiesNeverTrapAndTheirSnippetTextMeansTheSame() {
        let alphabet: [String] = ["$", "{", "}", "|", ",", ":", "/", "\\", "1", "0", "9", "a", "Z", "_", "+", "-", "?", " ", "\n",
                                  "é", "🌱", "TM_FILENAME", "FOO", "CLIPBOARD", "${1:", "${2|", "|}", "${VAR/", "(.)", "upcase", "g"]
        var generator = SnippetTestRandom(seed: 42)
        var parsed = 0
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 24)
            var body = ""
            for _ in 0..<length { body += alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            guard case .success(let template) = SnippetParser.parse(body) else { continue }
            parsed += 1
            let snippet = template.snippetText(variables: variables)
            let plain = template.plainText(variables: variables)
            _ = template.preview(variables: variables)
            switch SnippetParser.parse(snippet) {
            case .success(let again):
                XCTAssertEqual(again.plainText(variables: variables), plain, "\(body.debugDescription) → \(snippet.debugDescription)")
            case .failure(let error):
                XCTFail("\(body.debugDescription) → \(snippet.debugDescription) does not parse: \(error)")
            }
        }
        XCTAssertGreaterThan(parsed, 300)
    }

    func testRandomBytesNeverTrap() {
        var generator = SnippetTestRandom(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let body = String(decoding: bytes, as: UTF8.self)
            if case .success(let template) = SnippetParser.parse(body) {
                _ = template.snippetText(variables: variables)
                _ = template.plainText(variables: variables)
            }
        }
    }

    func testHugeNestingIsAnErrorNotACrash() {
        let body = String(repeating: "${1:", count: 100_000)
        XCTAssertEqual((try? SnippetParser.parse(body).get()) == nil, true)
        let braces = String(repeating: "${", count: 100_000)
        XCTAssertEqual((try? SnippetParser.parse(braces).get()) == nil, true)
    }

    /// Mirrors of mirrors double the text at each level: the expansion stops at its bound.
    func testMirrorsOfMirrorsStayBounded() {
        var body = "${1:abcdefghijklmnop}"
        for level in 2...31 { body += "${\(level):$\(level - 1)$\(level - 1)}" }
        guard case .success(let template) = SnippetParser.parse(body) else { return XCTFail("did not parse") }
        let plain = template.plainText(variables: variables)
        XCTAssertLessThanOrEqual(plain.utf8.count, 2 * SnippetTemplate.maxExpansionBytes)
        XCTAssertTrue(plain.hasPrefix("abcdefghijklmnopabcdefghijklmnop"))
    }

    func testPreviewShowsTheFirstLines() {
        let body = (1...20).map { "line \($0)" }.joined(separator: "\n")
        let template = try? SnippetParser.parse(body).get()
        let preview = template?.preview(variables: variables, maxLines: 3)
        XCTAssertEqual(preview, "line 1\nline 2\nline 3\n…")
        XCTAssertEqual(try? SnippetParser.parse("a\nb\n").get().preview(variables: variables), "a\nb")
    }
}

/// A small deterministic generator for the random tests: a 64-bit linear congruential step
/// with its high bits folded in (quality hardly matters; reproducibility does).
struct SnippetTestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
