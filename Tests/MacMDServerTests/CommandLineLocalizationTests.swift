import Foundation
import JSON
import TestSupport
import XCTest

/// `macmd` in the writer's language, chosen from the environment as POSIX has it (`LC_ALL`, then
/// `LC_MESSAGES`, then `LANG`; `C` is English): the help texts, usage errors and the messages of
/// `macmd check` are translated, while option and command names, paths, codes, the severity word
/// and the JSON keys stay as they are typed and parsed. The real binary, run as a user runs it.
final class CommandLineLocalizationTests: XCTestCase {
    /// The environment that picks `language` by `LANG` alone (the test's own `LC_ALL` and
    /// `LC_MESSAGES` are emptied: an empty variable counts as unset).
    static func lang(_ language: String) -> [String: String] {
        ["LC_ALL": "", "LC_MESSAGES": "", "LANG": language]
    }

    func macmd(_ arguments: [String], _ environment: [String: String], in folder: URL? = nil,
               file: StaticString = #filePath, line: UInt = #line) throws -> TestProcess.Result {
        let result = try TestProcess.run(try MacmdBinary.url(), arguments, environment: environment, in: folder, timeout: 60)
        XCTAssertFalse(result.timedOut, "macmd \(arguments.joined(separator: " ")) was killed", file: file, line: line)
        return result
    }

    /// A notebook with one broken wiki-link, at 3:5 of index.md.
    static func brokenNotebook() -> NotebookFixture {
        NotebookFixture(["index.md": "# Home\n\nSee [[Nowhere]].\n"])
    }

    /// The English help of `macmd`, byte for byte as it was before the catalog.
    static let englishUsage = """
        usage: macmd <command> [options]

        Commands:
          render      Render Markdown to HTML
          lsp         Serve the Language Server Protocol on stdin/stdout
          check       Report a notebook's problems (links, front matter)
          stats       Count the words, characters and paragraphs of notes
          search      Search the text of notes, best matches first
          export      Publish a notebook as a website, or print notes to PDF

        Options:
          -h, --help    Show this help (`macmd <command> --help` for a command's options)
          --version     Print the version and the commit it was built from

        """

    func testGermanFromLANG() throws {
        let german = Self.lang("de_DE.UTF-8")
        let help = try macmd(["--help"], german)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("Aufruf: macmd <command> [options]\n\nBefehle:\n  render      Markdown in HTML umwandeln\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("\nOptionen:\n  -h, --help    Diese Hilfe anzeigen"), help.stdout)
        let checkHelp = try macmd(["check", "--help"], german)
        XCTAssertTrue(checkHelp.stdout.hasPrefix("Aufruf: macmd check [DIR] [--format text|json] [--unlinked]\n\nIndiziert das Notizbuch in DIR"), checkHelp.stdout)

        let notebook = Self.brokenNotebook()
        defer { notebook.destroy() }
        let check = try macmd(["check", notebook.root], german)
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stdout, "index.md:3:7: error: Keine Notiz `Nowhere` für `[[Nowhere]]` [broken-wikilink]\n",
                       "the severity word stays English for problem matchers; the message is German")

        let usage = try macmd(["check", "--frob"], german)
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "macmd check: unbekannte Option '--frob'\n`macmd check --help` zeigt die Optionen an.\n")
        let read = try macmd(["render", notebook.root], german)
        XCTAssertEqual(read.status, 2)
        XCTAssertEqual(read.stderr, "macmd render: \(notebook.root) kann nicht gelesen werden: Ist ein Ordner\n")
    }

    /// `LC_ALL` wins over `LANG`; the JSON output keeps its keys and the raw severity.
    func testJapaneseFromLC_ALLOverLANG() throws {
        let japanese = ["LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"]
        let help = try macmd(["--help"], japanese)
        XCTAssertTrue(help.stdout.hasPrefix("使い方: macmd <command> [options]\n\nコマンド:\n  render      Markdown を HTML に変換します\n"), help.stdout)
        let lsp = try macmd(["lsp", "--help"], japanese)
        // The second synopsis line stands under the options of the first, after a wider `usage:`.
        XCTAssertTrue(lsp.stdout.hasPrefix("使い方: macmd lsp [--stdio] [--log-file PATH] [--log-level error|warn|info|debug]\n"
                                           + String(repeating: " ", count: 18) + "[--max-message-size BYTES]\n"), lsp.stdout)

        let notebook = Self.brokenNotebook()
        defer { notebook.destroy() }
        let check = try macmd(["check", notebook.root], japanese)
        XCTAssertEqual(check.stdout, "index.md:3:7: error: `[[Nowhere]]` が指すノート `Nowhere` が見つかりません [broken-wikilink]\n")
        let json = try macmd(["check", notebook.root, "--format", "json"], japanese)
        XCTAssertEqual(json.status, 1)
        let value = try JSON.parse(Array(json.stdout.utf8))
        XCTAssertEqual(value[0]?["severity"], "error")
        XCTAssertEqual(value[0]?["code"], "broken-wikilink")
        XCTAssertEqual(value[0]?["path"], "index.md")
        XCTAssertEqual(value[0]?["message"], .string("`[[Nowhere]]` が指すノート `Nowhere` が見つかりません"))

        let usage = try macmd(["lsp", "--log-level", "loud"], japanese)
        XCTAssertEqual(usage.stderr, "macmd lsp: --log-level には error、warn、info、debug のいずれかを指定します\n"
                       + "オプションは `macmd lsp --help` で確認できます。\n")
    }

    /// `LC_MESSAGES` wins over `LANG` when `LC_ALL` is unset.
    func testArabicFromLC_MESSAGESOverLANG() throws {
        let arabic = ["LC_ALL": "", "LC_MESSAGES": "ar", "LANG": "de_DE.UTF-8"]
        let help = try macmd(["--help"], arabic)
        XCTAssertTrue(help.stdout.hasPrefix("الاستخدام: macmd <command> [options]\n\nالأوامر:\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("\n  check       الإبلاغ عن مشكلات دفتر الملاحظات (الروابط، البيانات الأمامية)\n"), help.stdout)

        let notebook = Self.brokenNotebook()
        defer { notebook.destroy() }
        let check = try macmd(["check", notebook.root], arabic)
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stdout, "index.md:3:7: error: لا توجد ملاحظة `Nowhere` للرابط `[[Nowhere]]` [broken-wikilink]\n")
        let usage = try macmd(["render", "--theme", "neon"], arabic)
        XCTAssertTrue(usage.stderr.hasPrefix("macmd render: سمة غير معروفة 'neon' (light, dark, "), usage.stderr)
    }

    /// `C` (and `POSIX`, and nothing at all) is English, byte for byte as before.
    func testCIsEnglish() throws {
        for environment in [Self.lang("C"), ["LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"], Self.lang("")] {
            let help = try macmd(["--help"], environment)
            XCTAssertEqual(help.stdout, Self.englishUsage, "\(environment)")
            let notebook = Self.brokenNotebook()
            defer { notebook.destroy() }
            let check = try macmd(["check", notebook.root], environment)
            XCTAssertEqual(check.stdout, "index.md:3:7: error: No note `Nowhere` for `[[Nowhere]]` [broken-wikilink]\n", "\(environment)")
            let usage = try macmd(["render", "--unsafe=yes"], environment)
            XCTAssertEqual(usage.stderr, "macmd render: --unsafe takes no value\nRun `macmd render --help` for its options.\n", "\(environment)")
        }
        let lsp = try macmd(["lsp", "--help"], Self.lang("C"))
        XCTAssertTrue(lsp.stdout.hasPrefix("usage: macmd lsp [--stdio] [--log-file PATH] [--log-level error|warn|info|debug]\n"
                                           + String(repeating: " ", count: 17) + "[--max-message-size BYTES]\n\n"), lsp.stdout)
    }

    // MARK: Every language

    /// One environment per language of the catalog.
    static let languages = ["en_US.UTF-8", "de_DE.UTF-8", "es_ES.UTF-8", "es_MX.UTF-8", "fr_FR.UTF-8", "it_IT.UTF-8", "ja_JP.UTF-8",
                            "ko_KR.UTF-8", "pt_BR.UTF-8", "tr_TR.UTF-8", "zh_CN.UTF-8", "zh_TW.UTF-8", "ar_EG.UTF-8"]

    /// Terminal columns of `text`, counted independently of the code under test: East Asian Wide
    /// and Fullwidth characters (the CJK blocks, kana, Hangul syllables, fullwidth forms) take two,
    /// combining marks none.
    static func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                return total + 2
            default:
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .format: return total
                default: return total + 1
                }
            }
        }
    }

    /// The `--options` a help text names.
    static func flags(_ text: String) -> Set<String> {
        var found: Set<String> = []
        for word in text.split(whereSeparator: { " \n[]|,=()`".contains($0) }) where word.hasPrefix("--") && word.count > 2 {
            found.insert(String(word.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }))
        }
        return found
    }

    /// In every language, every help text is translated, names the same options as the English
    /// one, fits 90 columns, and keeps its columns lined up (descriptions from one column, their
    /// further lines indented to it), counted in terminal columns.
    func testEveryLanguagesHelpIsTranslatedAlignedAndNarrow() throws {
        var english: [String: String] = [:]
        for language in Self.languages {
            for command in ["", "render", "check", "lsp"] {
                let arguments = command.isEmpty ? ["--help"] : [command, "--help"]
                let result = try macmd(arguments, Self.lang(language))
                XCTAssertEqual(result.status, 0, "\(language) \(arguments)")
                let text = result.stdout
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if language == "en_US.UTF-8" {
                    english[command] = text
                } else if let reference = english[command] {
                    XCTAssertNotEqual(text, reference, "\(language) macmd \(command) --help is translated")
                    XCTAssertEqual(Self.flags(text), Self.flags(reference), "\(language) macmd \(command) --help names the same options")
                }
                for line in lines {
                    XCTAssertLessThanOrEqual(Self.columns(line), 90, "\(language) macmd \(command) --help: too wide: \(line)")
                }
                switch command {
                case "":
                    // Commands from column 14, options from column 16.
                    try assertColumns(lines, after: 2, column: 14, until: { $0.isEmpty }, "\(language) macmd --help commands")
                    try assertColumns(lines, after: lines.lastIndex { $0.hasPrefix("  -h, --help") }.map { $0 - 1 } ?? 0, column: 16,
                                      until: { $0.isEmpty }, "\(language) macmd --help options")
                case "render":
                    let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  --profile") }) - 1
                    try assertColumns(lines, after: start, column: 22, until: { $0.isEmpty }, "\(language) macmd render --help")
                case "lsp":
                    // The second synopsis line starts under `[--stdio]`, after the translated `usage:`.
                    let first = try XCTUnwrap(lines.first)
                    let options = try XCTUnwrap(first.range(of: "[--stdio]"))
                    let indent = Self.columns(first[..<options.lowerBound])
                    XCTAssertEqual(lines.count > 1 ? String(lines[1]) : "", String(repeating: " ", count: indent) + "[--max-message-size BYTES]",
                                   "\(language) macmd lsp --help")
                default:
                    break
                }
            }
        }
    }

    /// From the line after `heading` up to the first line that satisfies `until`: each row is a
    /// name indented by two spaces with its description from `column` (or alone, too long, with
    /// the description on the next line), or a further description line indented to `column`.
    func assertColumns(_ lines: [Substring], after heading: Int, column: Int, until end: (Substring) -> Bool, _ what: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        var index = heading + 1
        var rows = 0
        while index < lines.count, !end(lines[index]) {
            let text = lines[index]
            index += 1
            let indent = String(repeating: " ", count: column)
            if text.hasPrefix(indent) {
                XCTAssertNotEqual(text.dropFirst(column).first, " ", "\(what): \(text)", file: file, line: line)
                continue
            }
            XCTAssertTrue(text.hasPrefix("  ") && !text.hasPrefix("   "), "\(what): \(text)", file: file, line: line)
            rows += 1
            let name = text.dropFirst(2).prefix { $0 != " " }
            // A name may hold one space (`-h, --help`, `--math mathml|tex`): the description
            // starts after two spaces or more.
            guard let gap = text.dropFirst(2).range(of: "  ") else { continue }
            let description = text[gap.upperBound...].drop { $0 == " " }
            XCTAssertEqual(Self.columns(text[..<description.startIndex]), column, "\(what): \(text) (\(name))", file: file, line: line)
        }
        XCTAssertGreaterThan(rows, 1, what, file: file, line: line)
    }
}
