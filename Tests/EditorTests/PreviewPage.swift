// What every editor's preview page must hold when it is written away from the note (a cache
// folder) with `resources: "absolute"`: image and link URLs that lead to the notebook's files.

import Foundation
import TestSupport
import XCTest

enum PreviewPage {
    /// A copy of the sample notebook in `work/Mes notes é` (a space and an accent in its folder,
    /// which its page's URLs must encode).
    static func copyNotebook(into work: URL) throws -> URL {
        let notebook = work.appendingPathComponent("Mes notes é", isDirectory: true)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("notebook"), to: notebook)
        return notebook
    }

    /// The `href` and `src` values of `html`, in order.
    static func urls(_ html: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    /// Checks that every URL of the page of `journal/2026-04-12.md` (of the sample notebook,
    /// copied to `notebook`) is an anchor of the page (or a tag's link) or an absolute `file:`
    /// URL of a file in the notebook that exists, the embedded image among them; returns them.
    @discardableResult
    static func checkURLs(of html: String, notebook: URL, context: String,
                          file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let urls = try urls(html)
        XCTAssertTrue(urls.contains { $0.hasSuffix("/Mes%20notes%20%C3%A9/plot-map.png") }, "the embedded image: \(urls)\n\(context)",
                      file: file, line: line)
        XCTAssertTrue(html.contains("<img class=\"wikilink-embed\" src=\"file://"), html, file: file, line: line)
        XCTAssertGreaterThanOrEqual(urls.count, 6, "\(urls)", file: file, line: line)
        for url in urls {
            if url.hasPrefix("#") {
                // A tag's link names the tag (`#journal`), not a place in the page.
                XCTAssertTrue(html.contains("id=\"\(url.dropFirst().removingPercentEncoding ?? "")\"")
                              || html.contains("<a class=\"tag\" href=\"\(url)\""), "\(url) is an anchor of the page",
                              file: file, line: line)
                continue
            }
            XCTAssertTrue(url.hasPrefix("file:///"), "\(url) is absolute", file: file, line: line)
            let path = try XCTUnwrap(URL(string: url.replacingOccurrences(of: "&amp;", with: "&"))?.path, url)
            XCTAssertTrue(path.hasPrefix(notebook.path + "/"), "\(url) is in the notebook", file: file, line: line)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(url) names a file that exists", file: file, line: line)
        }
        return urls
    }
}
