// The preview as a person sees it: the full page `macmd/preview` gives an editor, loaded in a
// real browser (headless Chromium, `Chromium` in TestSupport), and checked by layout facts:
// every formula is laid out as MathML (a non-zero box, no TeX left as text), every image loads,
// the page's Content-Security-Policy reports no violation and nothing fails to load, and every
// link to a file points at one that exists.
//
// The pages are those of the sample notebook (Fixtures/notebook, the README's tour), asked for
// as the Neovim and Emacs setups ask (`resources: absolute`, the page written outside the
// notebook), in every theme, with the embedded sections they show. With `MACMD_SCREENSHOTS=DIR`, the light and dark pages of the note
// on compost (maths and highlighted code) are also saved there as PNGs (Scripts/screenshots.sh makes the
// README's).

import Foundation
import TestSupport
import XCTest
@testable import MacMDServer
import MarkdownHTML
import Themes

final class PreviewBrowserTests: XCTestCase {
    /// The layout facts of the loaded page, gathered in the page.
    static let facts = """
    (() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
      const formulas = [...document.querySelectorAll('.math')];
      const hidden = (node) => node.parentElement && node.parentElement.closest('code, pre, math, annotation');
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const texts = [];
      while (walker.nextNode()) { if (!hidden(walker.currentNode)) texts.push(walker.currentNode.data); }
      return {
        formulas: formulas.length,
        laidOut: formulas.filter((f) => { const m = f.querySelector('math'); return m && box(m); }).length,
        errors: [...document.querySelectorAll('.math-error')].map((e) => e.title),
        rawTeX: texts.filter((t) => /\\\\(frac|sum|int|sqrt|left|right|begin|text)\\b|\\$\\$|\\\\[\\(\\[]/.test(t)),
        images: [...document.images].map((i) => ({ src: i.src, loaded: i.complete && i.naturalWidth > 0 })),
        links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
        embeds: [...document.querySelectorAll('.embed')].map((e) => ({
          source: e.dataset.source, shown: box(e), border: parseFloat(getComputedStyle(e).borderLeftWidth),
          content: e.children.length > 1 && box(e.children[1]),
          title: getComputedStyle(e.querySelector('.embed-source a')).color })),
        ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
        background: [document.body, document.documentElement].map((e) => getComputedStyle(e).backgroundColor)
          .find((c) => c !== 'rgba(0, 0, 0, 0)') || 'rgb(255, 255, 255)',
        colors: [document.querySelector('article p'), document.querySelector('math')].filter((e) => e)
          .map((e) => getComputedStyle(e).color),
      };
    })()
    """

    struct Page {
        var note: String
        var theme: String
        var facts: [String: Any]
        var log: [[String: Any]]
    }

    func testTheSampleNotebooksPreviewLooksRightInABrowser() throws {
        let browser = try Chromium(width: 860, height: 1250)
        defer { browser.close() }
        let notebook = TestPaths.fixtures.appendingPathComponent("notebook").standardizedFileURL
        let notes = try FileManager.default.contentsOfDirectory(atPath: notebook.path).filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThan(notes.count, 5)
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: pages) }

        let client = LSPTestClient()
        defer { client.close() }
        _ = client.initialize(capabilities: ["window": ["workDoneProgress": true]],
                              workspaceFolders: [notebook.path])
        client.waitForScanEnd()
        // Every note in the two themes the screenshots show; the home note in every theme.
        var asked: [(note: String, theme: String)] = notes.flatMap { note in ["light", "dark"].map { (note, $0) } }
        asked += PreviewTheme.allCases.map(\.rawValue).filter { $0 != "light" && $0 != "dark" }.flatMap {
            [("index.md", $0), ("companion-planting.md", $0)]
        }
        // A journal page that embeds a section of another folder's note, with its links and footnote.
        asked += [("journal/2026-04-12.md", "light")]
        var backgrounds: [String: String] = [:]
        var formulas = 0
        var images = 0
        var embeds = 0
        for (note, theme) in asked {
            let uri = notebook.appendingPathComponent(note).absoluteString
            let result = client.request("macmd/preview", ["textDocument": ["uri": .string(uri)],
                                                          "options": ["fullPage": true, "theme": .string(theme), "resources": "absolute",
                                                                      "sourceLines": true]])
            guard let html = result?.value?["html"]?.stringValue else {
                XCTFail("no preview of \(note) in \(theme): \(String(describing: result))")
                continue
            }
            let file = pages.appendingPathComponent("\(theme)-\(note.replacingOccurrences(of: "/", with: "-")).html")
            try Data(html.utf8).write(to: file)
            try browser.load(file)
            let facts = try XCTUnwrap(browser.evaluate(Self.facts) as? [String: Any])
            let page = Page(note: note, theme: theme, facts: facts, log: try browser.logEntries())
            check(page)
            embeds += (page.facts["embeds"] as? [[String: Any]])?.count ?? 0
            formulas += page.facts["formulas"] as? Int ?? 0
            images += (page.facts["images"] as? [[String: Any]])?.count ?? 0
            if note == "index.md", let background = facts["background"] as? String { backgrounds[theme] = background }
            if let folder = ProcessInfo.processInfo.environment["MACMD_SCREENSHOTS"], !folder.isEmpty, note == "compost.md",
               theme == "light" || theme == "dark" {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try browser.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("preview-\(theme).png"))
            }
        }
        // The sample notebook has formulas and images to check, and the themes were applied.
        XCTAssertGreaterThan(formulas, 4, "the sample notebook's formulas")
        XCTAssertGreaterThan(images, 2, "the sample notebook's images")
        XCTAssertGreaterThanOrEqual(embeds, PreviewTheme.allCases.count + 1, "an embedded section in every theme")
        XCTAssertEqual(backgrounds.count, PreviewTheme.allCases.count)
        XCTAssertNotEqual(backgrounds["light"], backgrounds["dark"], "light and dark pages: \(backgrounds)")
    }

    func check(_ page: Page, file: StaticString = #filePath, line: UInt = #line) {
        let facts = page.facts
        let name = "\(page.note) (\(page.theme))"
        XCTAssertEqual(facts["laidOut"] as? Int, facts["formulas"] as? Int,
                       "\(name): every formula is laid out as MathML", file: file, line: line)
        XCTAssertEqual(facts["errors"] as? [String], [], "\(name): formulas the converter did not understand", file: file, line: line)
        XCTAssertEqual(facts["rawTeX"] as? [String], [], "\(name): TeX shown as text", file: file, line: line)
        for image in facts["images"] as? [[String: Any]] ?? [] where image["loaded"] as? Bool != true {
            XCTFail("\(name): the image \(image["src"] ?? "?") does not load", file: file, line: line)
        }
        for entry in page.log {
            XCTFail("\(name): the browser logged \(entry["source"] ?? "") \(entry["level"] ?? ""): \(entry["text"] ?? entry)",
                    file: file, line: line)
        }
        // Text and formulas are readable on the page's background (WCAG's 4.5:1 for body text).
        if let background = (facts["background"] as? String).flatMap(Self.rgb) {
            for color in facts["colors"] as? [String] ?? [] {
                guard let foreground = Self.rgb(color) else { continue }
                XCTAssertGreaterThanOrEqual(Self.contrast(foreground, background), 4.5,
                                            "\(name): \(color) on \(facts["background"] ?? "")", file: file, line: line)
            }
        }
        // An embed is a visible block, marked by its border, with its content drawn and its
        // source's name readable; no id is written twice (an embed's ids are its own).
        for embed in facts["embeds"] as? [[String: Any]] ?? [] {
            let source = embed["source"] as? String ?? "?"
            XCTAssertEqual(embed["shown"] as? Bool, true, "\(name): the embed of \(source) is drawn", file: file, line: line)
            XCTAssertEqual(embed["content"] as? Bool, true, "\(name): the content of \(source) is drawn", file: file, line: line)
            XCTAssertGreaterThanOrEqual(embed["border"] as? Double ?? 0, 2, "\(name): the embed of \(source) is marked", file: file, line: line)
            if let background = (facts["background"] as? String).flatMap(Self.rgb), let title = (embed["title"] as? String).flatMap(Self.rgb) {
                XCTAssertGreaterThanOrEqual(Self.contrast(title, background), 3, "\(name): the name of \(source)", file: file, line: line)
            }
        }
        let ids = facts["ids"] as? [String] ?? []
        XCTAssertEqual(Set(ids).count, ids.count, "\(name): ids written twice: \(ids)", file: file, line: line)
        for link in facts["links"] as? [String] ?? [] where link.hasPrefix("file:") {
            guard let url = URL(string: link) else {
                XCTFail("\(name): the link \(link) is no URL", file: file, line: line)
                continue
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(name): the link \(link) points at nothing",
                          file: file, line: line)
        }
    }

    /// `rgb(r, g, b)` or `rgba(r, g, b, a)` as three numbers from 0 to 255.
    static func rgb(_ css: String) -> [Double]? {
        let numbers = css.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        return numbers.count >= 3 ? Array(numbers.prefix(3)) : nil
    }

    /// WCAG 2's contrast ratio of two sRGB colours.
    static func contrast(_ a: [Double], _ b: [Double]) -> Double {
        func luminance(_ color: [Double]) -> Double {
            let linear = color.map { channel -> Double in
                let value = channel / 255
                return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
