// The preview as a person sees it: the full page `macmd/preview` gives an editor, loaded in a
// real browser (headless Chromium, `Chromium` in TestSupport), and checked by layout facts:
// every formula is laid out as MathML (a non-zero box, no TeX left as text), every image loads,
// the page's Content-Security-Policy reports no violation and nothing fails to load, and every
// link to a file points at one that exists.
//
// The pages are those of the sample notebook (Fixtures/notebook, the README's tour), asked for
// as the Neovim and Emacs setups ask (`resources: absolute`, the page written outside the
// notebook), in every theme. With `MACMD_SCREENSHOTS=DIR`, the light and dark pages of the home
// note are also saved there as PNGs (Scripts/screenshots.sh makes the README's).

import Foundation
import JSONRPC
import TestSupport
import XCTest
@testable import MacMDServer
import MarkdownHTML

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
        background: getComputedStyle(document.body).backgroundColor,
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
        let browser = try Chromium()
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
        asked += PreviewTheme.allCases.map(\.rawValue).filter { $0 != "light" && $0 != "dark" }.map { ("index.md", $0) }
        var backgrounds: Set<String> = []
        var formulas = 0
        var images = 0
        for (note, theme) in asked {
            let uri = notebook.appendingPathComponent(note).absoluteString
            let result = client.request("macmd/preview", ["textDocument": ["uri": .string(uri)],
                                                          "options": ["fullPage": true, "theme": .string(theme), "resources": "absolute",
                                                                      "sourceLines": true]])
            guard let html = result?.value?["html"]?.stringValue else {
                XCTFail("no preview of \(note) in \(theme): \(String(describing: result))")
                continue
            }
            let file = pages.appendingPathComponent("\(theme)-\(note).html")
            try Data(html.utf8).write(to: file)
            try browser.load(file)
            let facts = try XCTUnwrap(browser.evaluate(Self.facts) as? [String: Any])
            let page = Page(note: note, theme: theme, facts: facts, log: try browser.logEntries())
            check(page)
            formulas += page.facts["formulas"] as? Int ?? 0
            images += (page.facts["images"] as? [[String: Any]])?.count ?? 0
            if note == "index.md", let background = facts["background"] as? String { backgrounds.insert(background) }
            if let folder = ProcessInfo.processInfo.environment["MACMD_SCREENSHOTS"], !folder.isEmpty, note == "index.md",
               theme == "light" || theme == "dark" {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try browser.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("preview-\(theme).png"))
            }
        }
        // The sample notebook has formulas and images to check, and each theme looks like itself.
        XCTAssertGreaterThan(formulas, 4, "the sample notebook's formulas")
        XCTAssertGreaterThan(images, 2, "the sample notebook's images")
        XCTAssertEqual(backgrounds.count, PreviewTheme.allCases.count, "every theme has its own background: \(backgrounds)")
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
        for link in facts["links"] as? [String] ?? [] where link.hasPrefix("file:") {
            guard let url = URL(string: link) else {
                XCTFail("\(name): the link \(link) is no URL", file: file, line: line)
                continue
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(name): the link \(link) points at nothing",
                          file: file, line: line)
        }
    }
}
