// Themes of full-page output: golden pages for two themes (Fixtures/golden/themes/, rewritten
// with MACMD_BLESS=1), and for every theme its own colours, no network resources, print rules,
// and a rule for every highlight class.

import Foundation
import XCTest
import MarkdownSyntax
import TestSupport
@testable import MarkdownHTML
@testable import Themes

final class ThemeTests: XCTestCase {
    static let themesDirectory = TestPaths.fixture("golden/themes")

    static func previewOptions(_ theme: PreviewTheme) -> HTMLOptions {
        var options = HTMLOptions.notebookPreview
        options.fullPage = true
        options.highlightCode = true
        options.theme = theme
        // As the preview and `macmd render --full-page` write maths.
        options.math = .mathML
        return options
    }

    static func page(_ theme: PreviewTheme) throws -> String {
        let source = try Data(contentsOf: themesDirectory.appendingPathComponent("page.md"))
        let tree = MarkdownParser.parse(Array(source), options: ParseOptions(profile: .notebook))
        var options = previewOptions(theme)
        // An embedded section, as the preview shows it (`Transclusion` renders it there).
        options.wikiLinkDestinations = WikiLinkDestinations.resolving(tree) { reference in
            guard reference.isEmbed else { return nil }
            return .embed(EmbeddedNote(url: "compost.md#ingredients", source: "compost.md#ingredients", title: "Compost › Ingredients",
                                       html: Array("<h2 id=\"embed1-ingredients\">Ingredients</h2>\n<p>Greens and browns, two to one.</p>\n".utf8)))
        }
        return HTMLRenderer(options: options).renderString(tree)
    }

    func testGoldenDarkPage() throws { try checkGolden(.dark) }
    func testGoldenNovelPage() throws { try checkGolden(.novel) }

    func checkGolden(_ theme: PreviewTheme, file: StaticString = #filePath, line: UInt = #line) throws {
        Golden.assertMatches(try ThemeTests.page(theme), "golden/themes/page.\(theme.rawValue).html", file: file, line: line)
    }

    func testThemeNamesAreTheProtocolNames() {
        XCTAssertEqual(PreviewTheme.allCases.map(\.rawValue), [
            "light", "dark", "basic", "grass", "homebrew", "man-page", "novel", "ocean", "pro", "red-sands",
            "silver-aerogel", "solid-colors",
        ])
        XCTAssertEqual(PreviewTheme(rawValue: "man-page"), .manPage)
        XCTAssertNil(PreviewTheme(rawValue: "Dark"))
        XCTAssertEqual(HTMLOptions().theme, .light)
    }

    func testEveryThemeHasItsOwnColoursAndNeedsNoNetwork() throws {
        var rootBlocks: [String: PreviewTheme] = [:]
        for theme in PreviewTheme.allCases {
            let html = try ThemeTests.page(theme)
            let palette = theme.palette
            XCTAssertTrue(html.contains("<html data-theme=\"\(theme.rawValue)\">"), "\(theme)")
            // The page's :root block sets this theme's colours.
            guard let rootStart = html.range(of: ":root {\n"), let rootEnd = html.range(of: "}\n", range: rootStart.upperBound..<html.endIndex) else {
                XCTFail("\(theme): no :root block")
                continue
            }
            let root = String(html[rootStart.upperBound..<rootEnd.lowerBound])
            XCTAssertTrue(root.contains("--bg: \(palette.background);"), "\(theme)")
            XCTAssertTrue(root.contains("--fg: \(palette.text);"), "\(theme)")
            XCTAssertTrue(root.contains("--link: \(palette.link);"), "\(theme)")
            XCTAssertTrue(root.contains("--hl-keyword: \(palette.keyword);"), "\(theme)")
            XCTAssertTrue(root.contains("color-scheme: \(palette.isDark ? "dark" : "light");"), "\(theme)")
            if let other = rootBlocks[root] { XCTFail("\(theme) has the same colours as \(other)") }
            rootBlocks[root] = theme
            // Text and background differ, and every colour is a #rrggbb value.
            XCTAssertNotEqual(palette.background, palette.text)
            for colour in [palette.background, palette.text, palette.muted, palette.border, palette.link,
                           palette.codeBackground, palette.tagBackground, palette.tagText, palette.math,
                           palette.success, palette.warning, palette.error, palette.keyword, palette.string,
                           palette.comment, palette.number, palette.type, palette.function, palette.meta] {
                XCTAssertTrue(colour.count == 7 && colour.hasPrefix("#") && colour.dropFirst().allSatisfy(\.isHexDigit),
                              "\(theme): bad colour \(colour)")
            }
            // Nothing is fetched: the only URL in the page is the document's own link.
            guard let styleStart = html.range(of: "<style>"), let styleEnd = html.range(of: "</style>"),
                  styleStart.upperBound <= styleEnd.lowerBound else {
                XCTFail("\(theme): no <style> element")
                continue
            }
            let style = html[styleStart.upperBound..<styleEnd.lowerBound]
            for needle in ["http://", "https://", "url(", "@import", "@font-face", "//"] {
                XCTAssertFalse(style.contains(needle), "\(theme): stylesheet contains \(needle)")
            }
            XCTAssertFalse(html.contains("<script"), "\(theme)")
            XCTAssertFalse(html.contains("<link"), "\(theme)")
            XCTAssertFalse(html.contains("src=\"http"), "\(theme)")
            XCTAssertEqual(html.components(separatedBy: "https://").count - 1, 1, "\(theme): only the note's own link")
            XCTAssertTrue(style.contains("@media print"), "\(theme)")
            XCTAssertTrue(html.contains("<span class=\"hl-keyword\">func</span>"), "\(theme): code is highlighted")
            XCTAssertTrue(html.contains(#"<span class="math math-inline"><math display="inline">"#), "\(theme): maths is MathML")
            XCTAssertTrue(html.contains(#"<code class="math-error" title="unknown command \badcommand">"#), "\(theme)")
        }
        XCTAssertEqual(rootBlocks.count, PreviewTheme.allCases.count)
    }

    /// MathML takes the colour of the text around it in every theme (only TeX source waiting for
    /// a typesetter gets `--math`); display maths is centred and scrolls sideways; a formula
    /// the converter rejected is shown in the error colour, underlined; the page runs no script.
    func testMathsFollowsTheTextColourAndErrorsStandOut() throws {
        let css = String(describing: ThemeStylesheet.base)
        let rules = css.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(rules.contains(".math:not(:has(> math)) { color: var(--math); }"),
                      "only TeX source gets the maths colour: MathML inherits the text colour")
        XCTAssertFalse(rules.contains { $0.hasPrefix(".math {") || $0.hasPrefix(".math,") }, "no colour for every .math")
        guard let display = rules.first(where: { $0.hasPrefix(".math-display {") }) else { return XCTFail("no .math-display rule") }
        for declaration in ["display: block;", "overflow-x: auto;", "text-align: center;"] {
            XCTAssertTrue(display.contains(declaration), "\(display) lacks \(declaration)")
        }
        XCTAssertTrue(rules.contains(".math-display > math { display: inline math; }"),
                      "a formula wider than the page starts at its left edge, so all of it scrolls into view")
        guard let error = rules.first(where: { $0.contains("code.math-error") }) else { return XCTFail("no math-error rule") }
        XCTAssertTrue(error.contains("color: var(--error);") && error.contains("text-decoration: underline dotted;"), error)
        for theme in PreviewTheme.allCases {
            let page = try ThemeTests.page(theme)
            XCTAssertTrue(page.contains("body { margin: 0; color: var(--fg); }"), "\(theme): the text colour maths inherits")
            XCTAssertFalse(page.lowercased().contains("<script"), "\(theme): no script")
        }
    }

    func testTerminalThemesUseTheirProfileColours() {
        let expected: [(PreviewTheme, String, String)] = [
            (.basic, "#ffffff", "#000000"), (.homebrew, "#000000", "#28fe14"), (.ocean, "#224fbc", "#ffffff"),
            (.novel, "#dfdbc3", "#3b2322"), (.manPage, "#fef49c", "#000000"), (.redSands, "#7a251e", "#d7c9a7"),
            (.grass, "#13773d", "#fff0a5"), (.pro, "#000000", "#f2f2f2"),
        ]
        for (theme, background, text) in expected {
            XCTAssertEqual(theme.palette.background, background, "\(theme)")
            XCTAssertEqual(theme.palette.text, text, "\(theme)")
        }
    }

    func testStylesheetStylesEveryHighlightClassAndPrintsLight() {
        let css = PreviewTheme.dark.stylesheet
        for (_, name) in HighlightTests.classes {
            XCTAssertTrue(css.contains(".hl-\(name)"), "no rule for hl-\(name)")
        }
        for selector in [".markdown-alert-note", ".markdown-alert-caution", "a.wikilink", ".tag", ".math", "blockquote",
                         "th, .markdown-body td", "pre"] {
            XCTAssertTrue(css.contains(selector), "no rule for \(selector)")
        }
        // Print falls back to the light palette: a dark page prints black on white.
        guard let print = css.range(of: "@media print {") else { return XCTFail("no print rules") }
        let printRules = css[print.upperBound...]
        XCTAssertTrue(printRules.contains("--bg: \(ThemePalette.of(.light).background);"))
        XCTAssertTrue(printRules.contains("--fg: \(ThemePalette.of(.light).text);"))
        // The base rules name no colour: only the :root blocks do.
        let base = String(describing: ThemeStylesheet.base)
        XCTAssertFalse(base.contains("#"), "the shared stylesheet must take colours from variables")
    }
}
