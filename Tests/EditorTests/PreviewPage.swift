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

    /// Runs `command` (an editor on a script that opens the served preview of
    /// `journal/2026-04-12.md` with the cursor on `MACMD_TEST_LINE` 24 and a line added without a
    /// save, writes the URL it opened to `$MACMD_TEST_OUT/url`, and serves until
    /// `$MACMD_TEST_OUT/quit` appears), then browses the pages in headless Chromium as a reader
    /// does: the page opens at the heading above the cursor, shows the unsaved words and loads its
    /// images; a click on a note link opens that note's page, a click on a tag chip the tag's
    /// page, which lists its notes; nothing is served without the token or outside the notebook.
    static func browseServed(_ command: [String], environment: [String: String], in work: URL, notebook: URL,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let browser = try Chromium()
        defer { browser.close() }
        let out = work.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = work
        process.environment = TestProcess.childEnvironment(TestProcess.isolatedHome(in: work).merging([
            "MACMD_TEST_BIN": try MacmdBinary.url().path, "MACMD_TEST_REPORT": work.appendingPathComponent("report.json").path,
            "MACMD_TEST_SERVER_LOG": work.appendingPathComponent("server.log").path,
            "MACMD_TEST_NOTE": notebook.appendingPathComponent("journal/2026-04-12.md").path, "MACMD_TEST_LINE": "24",
            "MACMD_TEST_OUT": out.path,
        ]) { $1 }.merging(environment) { $1 })
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            FileManager.default.createFile(atPath: out.appendingPathComponent("quit").path, contents: Data())
            _ = Terminal.wait(timeout: 20) { !process.isRunning }
            if process.isRunning { process.terminate() }
        }
        let urlFile = out.appendingPathComponent("url")
        guard Terminal.wait(timeout: 60, { FileManager.default.fileExists(atPath: urlFile.path) || !process.isRunning }),
              let opened = try? String(contentsOf: urlFile, encoding: .utf8) else {
            let report = (try? String(contentsOf: work.appendingPathComponent("report.json"), encoding: .utf8)) ?? "(no report)"
            return XCTFail("\(command[0]): the preview opened nothing\n\(report)", file: file, line: line)
        }
        XCTAssertTrue(opened.hasPrefix("http://127.0.0.1:") && opened.hasSuffix("/journal/2026-04-12.md#also-today"), opened,
                      file: file, line: line)
        let page = try XCTUnwrap(URL(string: opened), file: file, line: line)
        try browser.load(page)
        XCTAssertEqual(try browser.evaluate("document.title") as? String, "Saturday 12 April 2026: soil day", file: file, line: line)
        XCTAssertEqual(try browser.evaluate("document.body.innerText.includes('Words typed and not saved.')") as? Bool, true,
                       "the page shows the buffer, unsaved words and all", file: file, line: line)
        XCTAssertEqual(try browser.evaluate("[...document.images].length > 0 && [...document.images].every(i => i.complete && i.naturalWidth > 0)") as? Bool,
                       true, "every image of the page loads from the notebook", file: file, line: line)
        // A link to a note opens that note's page, served too.
        try browser.click("a.wikilink[href*='compost.md']")
        XCTAssertEqual(try browser.evaluate("document.title") as? String, "Compost", file: file, line: line)
        XCTAssertEqual(try browser.evaluate("location.href.startsWith('http://127.0.0.1:')") as? Bool, true, file: file, line: line)
        // A tag chip opens the tag's page, listing the notes that carry it.
        try browser.load(page)
        try browser.click("a.tag[href$='/journal']")
        XCTAssertEqual(try browser.evaluate("document.title") as? String, "#journal", file: file, line: line)
        let listed = try XCTUnwrap(browser.evaluate("[...document.querySelectorAll('li a')].map(a => a.textContent)") as? [String],
                                   file: file, line: line)
        XCTAssertTrue(listed.contains("Saturday 12 April 2026: soil day"), "\(listed)", file: file, line: line)
        try browser.click("li a")
        XCTAssertEqual(try browser.evaluate("document.querySelector('h1') !== null") as? Bool, true, "a note's page from the tag's",
                       file: file, line: line)
        // Nothing without the token, and nothing outside the notebook.
        let origin = "http://127.0.0.1:\(page.port ?? 0)"
        let token = page.path.split(separator: "/").first.map(String.init) ?? ""
        for (path, reason) in [("/", "no token"), ("/x\(token)/1/n/index.md", "a wrong token"),
                               ("/\(token)/1/n/..%2F..%2Fetc%2Fpasswd", "a path that leaves the notebook"),
                               ("/\(token)/1/n/%2Fetc%2Fpasswd", "an absolute path")] {
            try browser.load(try XCTUnwrap(URL(string: origin + path), file: file, line: line))
            XCTAssertFalse((try browser.evaluate("document.body.innerText") as? String ?? "").contains("root:"), reason, file: file, line: line)
            XCTAssertNotEqual(try browser.evaluate("document.title") as? String, "Allotment research notebook", reason, file: file, line: line)
        }
    }
}
