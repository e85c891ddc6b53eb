// The settings problems, the scan's reasons and the maths errors in the writer's language: each
// case gives the input and its message in English (today's text), German and Japanese, as the
// server's `window/showMessage`, `macmd check` and the preview's tooltip show them.

import JSON
import Localization
import MarkdownHTML
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import XCTest
import Themes

final class LocalizedProblemsTests: XCTestCase {
    /// A settings layer and the one problem it has, in each language.
    static let settingsCases: [(layer: JSONValue, en: String, de: String, ja: String)] = [
        (["maxFileSize": -1],
         "`maxFileSize` must be a positive number of bytes",
         "`maxFileSize` muss eine positive Anzahl Bytes sein",
         "`maxFileSize` は正のバイト数にする必要があります"),
        (["diagnostics": ["broken-link": "loud"]],
         "`diagnostics.broken-link`: expected error, warning, information, hint or off, got `loud`",
         "`diagnostics.broken-link`: erwartet wird error, warning, information, hint oder off, angegeben ist `loud`",
         "`diagnostics.broken-link`: error、warning、information、hint、off のいずれかが必要ですが、`loud` が指定されています"),
        (["links": ["markdownResolution": "nearest"]],
         "`links.markdownResolution`: expected \"relative\" or \"obsidian\", got \"nearest\"",
         "`links.markdownResolution`: erwartet wird \"relative\" oder \"obsidian\", angegeben ist \"nearest\"",
         "`links.markdownResolution`: \"nearest\" は使えません。指定できる値: \"relative\" または \"obsidian\""),
        (["previw": ["theme": "dark"]],
         "unknown key `previw` ignored",
         "unbekannter Schlüssel `previw` wird ignoriert",
         "不明なキー `previw` は無視されます"),
        ("dark",
         "expected a JSON object; using the defaults",
         "erwartet wird ein JSON-Objekt; die Standardwerte werden verwendet",
         "JSON オブジェクトが必要です。既定値を使います"),
    ]

    func testSettingsProblemsInEachLanguage() {
        for item in Self.settingsCases {
            let problems = NotebookConfiguration(layers: [ConfigurationLayer(source: "initializationOptions", value: item.layer)]).problems
            XCTAssertEqual(problems.count, 1, item.en)
            guard let problem = problems.first else { continue }
            XCTAssertEqual(problem.reason.english, item.en)
            XCTAssertEqual(problem.reason.string(in: .de), item.de)
            XCTAssertEqual(problem.reason.string(in: .ja), item.ja)
            // What the editor's message and `macmd check` show: where, then why.
            XCTAssertEqual(problem.description, "initializationOptions: " + item.en)
            XCTAssertEqual(problem.string(in: .de), "initializationOptions: " + item.de)
        }
    }

    /// The nested value a message holds (the values a setting takes) is in the same language.
    func testAnExpectedValueListIsInTheMessagesLanguage() throws {
        let problem = try XCTUnwrap(NotebookConfiguration(layers: [ConfigurationLayer(source: "x", value: ["preview": ["theme": "neon"]])]).problems.first)
        let names = PreviewTheme.namesList
        XCTAssertEqual(problem.reason.english, "`preview.theme`: expected one of \(names), got \"neon\"")
        XCTAssertEqual(problem.reason.string(in: .de), "`preview.theme`: erwartet wird einer der Werte \(names), angegeben ist \"neon\"")
        XCTAssertEqual(problem.reason.string(in: .ja), "`preview.theme`: \"neon\" は使えません。指定できる値: \(names) のいずれか")
    }

    func testScanReasonsInEachLanguage() {
        let cases: [(reason: LocalizedText, en: String, de: String, ja: String)] = [
            (ScanSkipReason.tooLarge(size: 2000, limit: 1000).text, "file is 2000 bytes, over the 1000-byte limit",
             "Datei hat 2000 Byte und überschreitet die Grenze von 1000 Byte", "ファイルは 2000 バイトで、上限の 1000 バイトを超えています"),
            (ScanSkipReason.tooDeep(limit: 1).text, "more than 1 folder deep", "mehr als 1 Ordner tief", "1 階層より深いフォルダーにあります"),
            (ScanSkipReason.tooDeep(limit: 128).text, "more than 128 folders deep", "mehr als 128 Ordner tief", "128 階層より深いフォルダーにあります"),
            (ScanRefusal.fileSystemRoot.text, "not indexing the file-system root /; set allowHomeOrRoot to index it",
             "das Stammverzeichnis / des Dateisystems wird nicht indiziert; allowHomeOrRoot setzen, um es zu indizieren",
             "ファイルシステムのルート / はインデックスしません。インデックスするには allowHomeOrRoot を設定してください"),
            (ScanSkip(path: "gone.md", reason: .vanished).logText, "skipped gone.md: disappeared during the scan",
             "gone.md übersprungen: während des Durchsuchens verschwunden", "gone.md をスキップしました: スキャン中に見つからなくなりました"),
        ]
        for item in cases {
            XCTAssertEqual(item.reason.english, item.en)
            XCTAssertEqual(item.reason.string(in: .de), item.de)
            XCTAssertEqual(item.reason.string(in: .ja), item.ja)
        }
    }

    /// A formula and the converter's error (`TeXMath`), in each language.
    static let mathCases: [(tex: String, en: String, de: String, ja: String)] = [
        (#"\foo"#, #"unknown command \foo"#, #"unbekannter Befehl \foo"#, #"不明なコマンド \foo です"#),
        ("x^", "missing superscript after ^", "Exponent nach ^ fehlt", "^ の後に上付き文字がありません"),
        ("x_", "missing subscript after _", "Index nach _ fehlt", "_ の後に下付き文字がありません"),
        (#"\left( x"#, #"missing \right for \left"#, #"\right zu \left fehlt"#, #"\left に対応する \right がありません"#),
        (#"\frac{1}"#, #"missing argument for \frac"#, #"Argument für \frac fehlt"#, #"\frac の引数がありません"#),
        (#"\begin{foo}x\end{foo}"#, "unknown environment {foo}", "unbekannte Umgebung {foo}", "不明な環境 {foo} です"),
        ("x & y", "misplaced &: only environments have columns", "& an falscher Stelle: nur Umgebungen haben Spalten", "& の位置が不適切です: 列があるのは環境だけです"),
        (String(repeating: "{", count: 70) + String(repeating: "}", count: 70), "nested deeper than 64 levels",
         "tiefer als 64 Ebenen verschachtelt", "入れ子が 64 段階を超えています"),
    ]

    func testMathErrorsInEachLanguage() throws {
        for item in Self.mathCases {
            // Through the `math-error` diagnostic, which carries the converter's message.
            let tree = MarkdownParser.parse(Array("Some $\(item.tex)$ maths.\n".utf8), options: .notebook)
            let diagnostics = NotebookDiagnostics.mathErrors(in: tree, path: "a.md")
            XCTAssertEqual(diagnostics.count, 1, item.tex)
            let message = try XCTUnwrap(diagnostics.first, item.tex).message
            XCTAssertEqual(message.english, item.en, item.tex)
            XCTAssertEqual(message.string(in: .de), item.de, item.tex)
            XCTAssertEqual(message.string(in: .ja), item.ja, item.tex)
        }
    }

    /// The `math-error` diagnostic carries the converter's message, so the server and
    /// `macmd check` write it in the writer's language.
    func testTheMathErrorDiagnosticIsLocalized() throws {
        let tree = MarkdownParser.parse(Array("Some $\\foo$ maths.\n".utf8), options: .notebook)
        let diagnostic = try XCTUnwrap(NotebookDiagnostics.mathErrors(in: tree, path: "a.md").first)
        XCTAssertEqual(diagnostic.code, .mathError)
        XCTAssertEqual(diagnostic.message.english, #"unknown command \foo"#)
        XCTAssertEqual(diagnostic.message.string(in: .de), #"unbekannter Befehl \foo"#)
        XCTAssertEqual(diagnostic.message.string(in: .ja), #"不明なコマンド \foo です"#)
    }

    /// The preview's tooltip of a formula it cannot render is in `HTMLOptions.locale`; English
    /// by default.
    func testTheMathErrorTooltipIsInTheOptionsLanguage() {
        let tree = MarkdownParser.parse(Array("$x^$\n".utf8), options: .notebook)
        func html(_ locale: SupportedLocale?) -> String {
            var options = HTMLOptions(math: .mathML)
            if let locale { options.locale = locale }
            return HTMLRenderer(options: options).renderString(tree)
        }
        let source = #">x^</code>"#
        XCTAssertTrue(html(nil).contains(#"<code class="math-error" title="missing superscript after ^""# + source), html(nil))
        XCTAssertEqual(html(.en), html(nil))
        XCTAssertTrue(html(.de).contains(#"title="Exponent nach ^ fehlt""# + source), html(.de))
        XCTAssertTrue(html(.ja).contains(#"title="^ の後に上付き文字がありません""# + source), html(.ja))
    }
}
