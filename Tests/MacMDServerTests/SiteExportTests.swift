import Foundation
import TestSupport
import XCTest

/// `macmd export NOTEBOOK --out DIR` as a writer runs it, and the site as readers and real
/// checkers see it: every page opened in headless Chromium (no console message, no
/// Content-Security-Policy violation, every image loaded, the stylesheet applied, formulas laid
/// out), Debian's `tidy` (no HTML error) and `linkchecker` (no broken link); then a second
/// export after edits, which rewrites only what changed and removes what went. With
/// `MACMD_SCREENSHOTS=DIR`, a note with its backlinks and a tag page are saved there as PNGs
/// (docs/images holds them).
final class SiteExportTests: XCTestCase {
    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("macmd-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every HTML page under `site`, paths from it, sorted.
    func pages(in site: URL) throws -> [String] {
        let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: site.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }.sorted()
    }

    /// What the browser sees of a loaded page.
    static let facts = """
    (() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
      return {
        images: [...document.images].map((i) => ({ src: i.src, loaded: i.complete && i.naturalWidth > 0 })),
        styled: getComputedStyle(document.querySelector('.site-header nav')).display === 'flex',
        formulas: document.querySelectorAll('.math').length,
        laidOut: [...document.querySelectorAll('.math')].filter((f) => { const m = f.querySelector('math'); return m && box(m); }).length,
        scripts: document.scripts.length,
        links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
      };
    })()
    """

    func testTheSampleNotebooksSiteLoadsCleanInABrowserAndPassesTidyAndLinkchecker() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        let notebook = TestPaths.fixtures.appendingPathComponent("notebook").path
        let result = try TestProcess.macmd(["export", notebook, "--out", site.path], timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix(site.path + ": "), result.stdout)
        XCTAssertFalse(result.stderr.contains("\r"), "no progress bar when standard error is no terminal")
        let pages = try pages(in: site)
        XCTAssertTrue(pages.contains("index.html") && pages.contains("_tags/index.html") && pages.contains("compost.html"), "\(pages)")
        XCTAssertFalse(pages.contains { $0.hasPrefix("Snippets/") }, "the snippets are templates, not notes to publish")

        let (formulas, images) = try checkInBrowser(site, pages: pages, screenshots: ["journal/2026-04-12.html": "site-note.png", "_tags/soil.html": "site-tag.png"])
        XCTAssertGreaterThan(formulas, 4, "the sample notebook's formulas")
        XCTAssertGreaterThan(images, 0, "the sample notebook's images")
        try checkWithTidyAndLinkchecker(site, pages: pages)
    }

    func testAGeneratedThousandNoteSiteLoadsCleanInABrowserAndPassesTidyAndLinkchecker() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let notebook = work.appendingPathComponent("notebook")
        let generated = try TestProcess.macmdBench(["generate", "--notes", "1000", "--seed", "1", notebook.path])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let site = work.appendingPathComponent("site")
        let result = try TestProcess.macmd(["export", notebook.path, "--out", site.path], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let pages = try pages(in: site)
        XCTAssertGreaterThan(pages.count, 1000, "a page per note, the lists and the tags")
        let (_, images) = try checkInBrowser(site, pages: pages, screenshots: [:])
        XCTAssertGreaterThan(images, 0, "the generated notes' images")
        try checkWithTidyAndLinkchecker(site, pages: pages)
    }

    /// Opens every page of `site` in headless Chromium and checks what a reader would notice;
    /// the formulas and images seen. `screenshots` names the pages saved as PNGs under
    /// `MACMD_SCREENSHOTS`, when it is set.
    func checkInBrowser(_ site: URL, pages: [String], screenshots: [String: String]) throws -> (formulas: Int, images: Int) {
        // Every page in a real browser.
        let browser = try Chromium(width: 1000, height: 1300)
        defer { browser.close() }
        var formulas = 0
        var images = 0
        for page in pages {
            try browser.load(site.appendingPathComponent(page))
            let facts = try XCTUnwrap(browser.evaluate(Self.facts) as? [String: Any])
            for entry in try browser.logEntries() {
                XCTFail("\(page): the browser logged \(entry["source"] ?? "") \(entry["level"] ?? ""): \(entry["text"] ?? entry)")
            }
            for image in facts["images"] as? [[String: Any]] ?? [] where image["loaded"] as? Bool != true {
                XCTFail("\(page): the image \(image["src"] ?? "?") does not load")
            }
            XCTAssertEqual(facts["styled"] as? Bool, true, "\(page): the site's stylesheet applies")
            XCTAssertEqual(facts["scripts"] as? Int, 0, page)
            XCTAssertEqual(facts["laidOut"] as? Int, facts["formulas"] as? Int, "\(page): formulas laid out as MathML")
            for link in facts["links"] as? [String] ?? [] where link.hasPrefix("file://") {
                let path = URL(string: link).map { $0.path } ?? link
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(page) links to \(link), which is not there")
                XCTAssertTrue(path.hasPrefix(site.path), "\(page) links outside the site: \(link)")
            }
            formulas += facts["formulas"] as? Int ?? 0
            images += (facts["images"] as? [[String: Any]])?.count ?? 0
            if let folder = ProcessInfo.processInfo.environment["MACMD_SCREENSHOTS"], !folder.isEmpty, let name = screenshots[page] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try browser.screenshot(wholePage: true).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
            }
        }
        return (formulas, images)
    }

    /// Debian's `tidy` on every page (no HTML error; its warnings about the links safe mode
    /// emptied aside) and `linkchecker` from the index (every page reached, no broken link).
    func checkWithTidyAndLinkchecker(_ site: URL, pages: [String]) throws {
        let tidy = try Clients.require("tidy", install: "apt install tidy")
        // A hundred pages a run: tidy names no file in its messages, so a failure is found by
        // running the batch page by page.
        for start in stride(from: 0, to: pages.count, by: 100) {
            let batch = Array(pages[start..<min(start + 100, pages.count)])
            let checked = try TestProcess.run(URL(fileURLWithPath: tidy), ["-q", "-e"] + batch.map { site.appendingPathComponent($0).path })
            let problems = checked.stderr.split(separator: "\n").filter { !$0.contains(#"attribute "href" lacks value"#) }
            guard !problems.isEmpty else { continue }
            for page in batch {
                let one = try TestProcess.run(URL(fileURLWithPath: tidy), ["-q", "-e", site.appendingPathComponent(page).path])
                let found = one.stderr.split(separator: "\n").filter { !$0.contains(#"attribute "href" lacks value"#) }
                XCTAssertEqual(found, [], "tidy on \(page)")
            }
        }
        let linkchecker = try Clients.require("linkchecker", install: "apt install linkchecker")
        let checked = try TestProcess.run(URL(fileURLWithPath: linkchecker), ["--no-status", "--no-warnings", site.appendingPathComponent("index.html").path],
                                          timeout: 300)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stdout.contains(" 0 errors found"), checked.stdout)
        // Every page is reached from the index: none is an orphan a reader cannot find.
        let reached = checked.stdout.components(separatedBy: " URLs checked").first?.split(separator: " ").last.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThanOrEqual(reached, pages.count, checked.stdout)
    }

    func testExportingAgainRewritesOnlyWhatChangedAndRemovesWhatWent() throws {
        let folder = NotebookFixture([
            "index.md": "# Home\n\nSee [[a]] and [[b]].\n",
            "a.md": "# A\n\nAbout [[b]]. #topic\n",
            "b.md": "# B\n\nPlain.\n",
            "c/d.md": "# D\n\n![pic](pic.png)\n",
            "c/pic.png": "png",
        ])
        defer { folder.destroy() }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("out/site")
        let first = try TestProcess.macmd(["export", folder.root, "--out", site.path], timeout: 60)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, site.path + ": 7 pages · 8 written · 1 file copied · 0 removed\n",
                       "4 notes, the list of notes, the tags and #topic; the stylesheet; the picture")
        // A file of the writer's own in the site's folder is never touched.
        try Data("mine".utf8).write(to: site.appendingPathComponent("CNAME"))

        // Every file an old time, so a rewrite shows.
        let old = Date(timeIntervalSince1970: 1_000_000)
        let files = try pages(in: site) + ["_macmd.css", "c/pic.png"]
        for file in files {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: site.appendingPathComponent(file).path)
        }
        func rewritten() throws -> [String] {
            try (pages(in: site) + ["_macmd.css", "c/pic.png"]).filter { file in
                let date = try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(file).path)[.modificationDate] as? Date
                return date != old
            }
        }

        // Nothing changed: nothing written.
        let same = try TestProcess.macmd(["export", folder.root, "--out", site.path, "--quiet"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stdout, "", "--quiet says nothing")
        XCTAssertEqual(try rewritten(), [])

        // B gets a new title and a link to A: B's page, A's (a new backlink) and the list of
        // notes (B's title) change; the home note (which names B as written) and the tags do not.
        folder.write("b.md", "# Bee\n\nPlain, and back to [[a]].\n")
        let edited = try TestProcess.macmd(["export", folder.root, "--out", site.path])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(try rewritten(), ["_notes.html", "a.html", "b.html"],
                       "B itself, A (now linked from B), the list of notes (B's new title); not the home note nor the tags")

        // A note goes: its page goes, and the pages that linked to it change.
        folder.remove("c/d.md")
        let removed = try TestProcess.macmd(["export", folder.root, "--out", site.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertTrue(removed.stdout.hasSuffix("· 2 removed\n"), removed.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("c/d.html").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("c").path), "its emptied folder too")
        XCTAssertEqual(try String(contentsOf: site.appendingPathComponent("CNAME"), encoding: .utf8), "mine")

        // publish: false takes a note out, and its links become text.
        folder.write("a.md", "---\npublish: false\n---\n# A\n\nAbout [[b]]. #topic\n")
        let unpublished = try TestProcess.macmd(["export", folder.root, "--out", site.path])
        XCTAssertEqual(unpublished.status, 0, unpublished.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("a.html").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("_tags/topic.html").path))
        let home = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(home.contains(#"<span class="unpublished">a</span>"#), home)
    }

    /// Every file under `folder` with its bytes (the manifest too).
    func tree(_ folder: URL) throws -> [String: Data] {
        let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        var files: [String: Data] = [:]
        for case let path as String in walker {
            var isFolder: ObjCBool = false
            let full = folder.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }

    func testAnExportAfterRandomEditsEqualsAFreshOne() throws {
        var random = SeededGenerator(state: 34)
        let names = ["soil", "beds", "compost", "garden/peas", "garden/beans", "log/may", "log/june"]
        func note(_ name: String) -> String {
            let other = names[random.next(names.count)]
            var text = random.next(4) == 0 ? "---\npublish: false\n---\n" : ""
            text += "# \(name.capitalized) \(random.next(3))\n\nSee [[\(NSString(string: other).lastPathComponent)]]"
            if random.next(2) == 0 { text += " and [the bed](/\(names[random.next(names.count)]).md#heading)" }
            text += ". #t\(random.next(3))" + (random.next(2) == 0 ? "/n\(random.next(2))" : "") + "\n\n## Heading\n\nText.\n"
            if random.next(3) == 0 { text += "\n![[\(NSString(string: names[random.next(names.count)]).lastPathComponent)#Heading]]\n" }
            if random.next(3) == 0 { text += "\n![picture](/pic\(random.next(2)).png)\n" }
            return text
        }
        let folder = NotebookFixture(["index.md": "# Home\n\n[[soil]] ![a picture](pic0.png)\n", "pic0.png": "png0", "pic1.png": "png1"])
        defer { folder.destroy() }
        for name in names { folder.write(name + ".md", note(name)) }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let incremental = work.appendingPathComponent("incremental")
        for round in 0..<12 {
            // Edit, add or remove a note or a picture.
            for _ in 0...random.next(3) {
                let name = names[random.next(names.count)]
                switch random.next(6) {
                case 0: folder.remove(name + ".md")
                case 1: folder.remove("pic1.png")
                default: folder.write(name + ".md", note(name))
                }
            }
            // A picture changes (its size too, so the change shows within the same second).
            folder.write("pic\(random.next(2)).png", String(repeating: "png", count: round + 2))
            let again = try TestProcess.macmd(["export", folder.root, "--out", incremental.path, "--quiet"])
            XCTAssertEqual(again.status, 0, again.stderr)
            let fresh = work.appendingPathComponent("fresh\(round)")
            let once = try TestProcess.macmd(["export", folder.root, "--out", fresh.path, "--quiet"])
            XCTAssertEqual(once.status, 0, once.stderr)
            let (kept, made) = (try tree(incremental), try tree(fresh))
            XCTAssertEqual(kept.keys.sorted(), made.keys.sorted(), "round \(round): the same files")
            for (path, bytes) in made where kept[path] != bytes && path != ".macmd-export" {
                XCTFail("round \(round): \(path) differs from a fresh export's")
            }
            try FileManager.default.removeItem(at: fresh)
        }
    }

    func testAnUnusableOutIsRefusedBeforeAnythingIsWritten() throws {
        let folder = NotebookFixture(["index.md": "# Home\n"])
        defer { folder.destroy() }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let cases: [(out: String, message: String)] = [
            (folder.root + "/site", "is inside the notebook: choose a folder outside it"),
            (folder.root, "is inside the notebook: choose a folder outside it"),
            (NSString(string: folder.root).deletingLastPathComponent, "holds the notebook: choose a folder beside it"),
            (file.path, "is a file, not a folder for the website"),
            (file.path + "/site", "is a file, not a folder for the website"),
            ("/proc/macmd-site", "cannot write the website to /proc/macmd-site: the folder cannot be made or is not writable"),
        ]
        for (out, message) in cases {
            let result = try TestProcess.macmd(["export", folder.root, "--out", out])
            XCTAssertEqual(result.status, 2, "\(out): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("macmd export: ") && result.stderr.contains(message), "\(out): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.root + "/site"))
        let note = try TestProcess.macmd(["export", folder.root + "/index.md", "--out", work.appendingPathComponent("s").path])
        XCTAssertEqual(note.status, 2)
        XCTAssertTrue(note.stderr.contains("a website is exported from a notebook's folder"), note.stderr)
        let missing = try TestProcess.macmd(["export", work.appendingPathComponent("nowhere").path, "--out", work.appendingPathComponent("s").path])
        XCTAssertEqual(missing.status, 2, missing.stderr)
    }

    func testOnATerminalTheExportShowsItsProgress() throws {
        let folder = NotebookFixture((1...30).reduce(into: [String: String]()) { $0["n\($1).md"] = "# Note \($1)\n" })
        defer { folder.destroy() }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        // `script` gives the command a terminal; its transcript is what the writer saw.
        let script = try Clients.require("script", install: "apt install bsdutils")
        let command = try MacmdBinary.url().path + " export '\(folder.root)' --out '\(work.path)/site'"
        let seen = try TestProcess.run(URL(fileURLWithPath: script), ["-qec", command, "/dev/null"], timeout: 60)
        XCTAssertEqual(seen.status, 0, seen.stdout + seen.stderr)
        XCTAssertTrue(seen.stdout.contains("Exporting [##############################] 32/32"), seen.stdout)
        XCTAssertTrue(seen.stdout.contains("32 pages"), seen.stdout)
        let quiet = try TestProcess.run(URL(fileURLWithPath: script), ["-qec", command + " --quiet", "/dev/null"], timeout: 60)
        XCTAssertFalse(quiet.stdout.contains("Exporting"), quiet.stdout)
    }
}
