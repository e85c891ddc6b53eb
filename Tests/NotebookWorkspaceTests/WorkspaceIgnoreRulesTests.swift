import XCTest
@testable import NotebookWorkspace

/// Gitignore matching, table-tested against the examples of git's `gitignore(5)` documentation.
final class WorkspaceIgnoreRulesTests: XCTestCase {
    /// One row: the `.gitignore` text (at the root unless `folder` is set), a path, whether the path
    /// is a folder, and whether git ignores it (parents included).
    struct Row {
        var rules: String
        var folder = ""
        var path: String
        var isDirectory = false
        var ignored: Bool
        var line: UInt
    }

    func check(_ rows: [Row]) {
        for row in rows {
            var rules = IgnoreRules()
            rules.addGitignore(row.rules, folder: row.folder)
            XCTAssertEqual(rules.isIgnored(row.path, isDirectory: row.isDirectory), row.ignored,
                           "pattern \(row.rules.debugDescription) path \(row.path) dir \(row.isDirectory)", line: row.line)
        }
    }

    func testDocumentedExamples() {
        check([
            // "hello.*" matches any file or folder whose name begins with "hello.".
            Row(rules: "hello.*", path: "hello.md", ignored: true, line: #line),
            Row(rules: "hello.*", path: "a/b/hello.c", ignored: true, line: #line),
            Row(rules: "hello.*", path: "hello", ignored: false, line: #line),
            Row(rules: "hello.*", path: "x/hello.d", isDirectory: true, ignored: true, line: #line),
            // "doc/frotz/" matches folder doc/frotz, not a/doc/frotz; "frotz/" matches both.
            Row(rules: "doc/frotz/", path: "doc/frotz", isDirectory: true, ignored: true, line: #line),
            Row(rules: "doc/frotz/", path: "doc/frotz/x.md", ignored: true, line: #line),
            Row(rules: "doc/frotz/", path: "a/doc/frotz", isDirectory: true, ignored: false, line: #line),
            Row(rules: "doc/frotz/", path: "doc/frotz", isDirectory: false, ignored: false, line: #line),
            Row(rules: "frotz/", path: "frotz", isDirectory: true, ignored: true, line: #line),
            Row(rules: "frotz/", path: "a/frotz", isDirectory: true, ignored: true, line: #line),
            Row(rules: "frotz/", path: "a/frotz", isDirectory: false, ignored: false, line: #line),
            // "foo/*" matches foo/test.json and foo/bar but not (by itself) foo/bar/hello.c; the
            // folder foo/bar being ignored hides hello.c anyway.
            Row(rules: "foo/*", path: "foo/test.json", ignored: true, line: #line),
            Row(rules: "foo/*", path: "foo/bar", isDirectory: true, ignored: true, line: #line),
            Row(rules: "foo/*", path: "foo/bar/hello.c", ignored: true, line: #line),
            Row(rules: "foo/*", path: "foo", isDirectory: true, ignored: false, line: #line),
            Row(rules: "foo/*", path: "a/foo/x", ignored: false, line: #line),
            // A leading slash anchors: "/*.c" matches cat-file.c but not mozilla-sha1/sha1.c.
            Row(rules: "/*.c", path: "cat-file.c", ignored: true, line: #line),
            Row(rules: "/*.c", path: "mozilla-sha1/sha1.c", ignored: false, line: #line),
            Row(rules: "*.c", path: "mozilla-sha1/sha1.c", ignored: true, line: #line),
            // "Documentation/*.html" matches Documentation/git.html, not Documentation/ppc/ppc.html.
            Row(rules: "Documentation/*.html", path: "Documentation/git.html", ignored: true, line: #line),
            Row(rules: "Documentation/*.html", path: "Documentation/ppc/ppc.html", ignored: false, line: #line),
            Row(rules: "Documentation/*.html", path: "tools/Documentation/git.html", ignored: false, line: #line),
            // "**/foo" matches foo anywhere; "**/foo/bar" matches bar directly under any foo.
            Row(rules: "**/foo", path: "foo", ignored: true, line: #line),
            Row(rules: "**/foo", path: "a/b/foo", isDirectory: true, ignored: true, line: #line),
            Row(rules: "**/foo/bar", path: "foo/bar", ignored: true, line: #line),
            Row(rules: "**/foo/bar", path: "x/y/foo/bar", ignored: true, line: #line),
            Row(rules: "**/foo/bar", path: "x/foo/z/bar", ignored: false, line: #line),
            // "abc/**" matches everything inside abc, not abc itself.
            Row(rules: "abc/**", path: "abc/x.md", ignored: true, line: #line),
            Row(rules: "abc/**", path: "abc/d/e/x.md", ignored: true, line: #line),
            Row(rules: "abc/**", path: "abc", isDirectory: true, ignored: false, line: #line),
            Row(rules: "abc/**", path: "abc", isDirectory: false, ignored: false, line: #line),
            // "a/**/b" matches a/b, a/x/b, a/x/y/b.
            Row(rules: "a/**/b", path: "a/b", ignored: true, line: #line),
            Row(rules: "a/**/b", path: "a/x/b", ignored: true, line: #line),
            Row(rules: "a/**/b", path: "a/x/y/b", ignored: true, line: #line),
            Row(rules: "a/**/b", path: "a/x/y/c", ignored: false, line: #line),
            Row(rules: "a/**/b", path: "z/a/b", ignored: false, line: #line),
            // "**" elsewhere is an ordinary star.
            Row(rules: "foo**bar", path: "fooXYZbar", ignored: true, line: #line),
            Row(rules: "foo**bar", path: "foo/bar", ignored: false, line: #line),
        ])
    }

    func testWildcardsAndBrackets() {
        check([
            Row(rules: "?.md", path: "a.md", ignored: true, line: #line),
            Row(rules: "?.md", path: "ab.md", ignored: false, line: #line),
            Row(rules: "a?b", path: "a/b", ignored: false, line: #line),
            Row(rules: "[abc].md", path: "b.md", ignored: true, line: #line),
            Row(rules: "[abc].md", path: "d.md", ignored: false, line: #line),
            Row(rules: "[a-c]x", path: "bx", ignored: true, line: #line),
            Row(rules: "[!a-c]x", path: "bx", ignored: false, line: #line),
            Row(rules: "[!a-c]x", path: "dx", ignored: true, line: #line),
            Row(rules: "[^a]x", path: "dx", ignored: true, line: #line),
            Row(rules: "[]]x", path: "]x", ignored: true, line: #line),
            Row(rules: "[ab", path: "[ab", ignored: true, line: #line),
            Row(rules: "*", path: "deep/down/x.md", ignored: true, line: #line),
            Row(rules: "*.MD", path: "x.md", ignored: false, line: #line),
            Row(rules: "draft-*-v?.md", path: "notes/draft-plan-v2.md", ignored: true, line: #line),
            Row(rules: "draft-*-v?.md", path: "notes/draft-plan-v10.md", ignored: false, line: #line),
        ])
    }

    func testCommentsEscapesBlankLinesAndTrailingSpaces() {
        check([
            Row(rules: "# comment", path: "# comment", ignored: false, line: #line),
            Row(rules: "\\#foo", path: "#foo", ignored: true, line: #line),
            Row(rules: "\\!important!.txt", path: "!important!.txt", ignored: true, line: #line),
            Row(rules: "\n\n   \nx.md\n", path: "x.md", ignored: true, line: #line),
            Row(rules: "x.md   ", path: "x.md", ignored: true, line: #line),
            Row(rules: "x\\ ", path: "x ", ignored: true, line: #line),
            Row(rules: "x.md\r\n", path: "x.md", ignored: true, line: #line),
            Row(rules: "a\\*b", path: "a*b", ignored: true, line: #line),
            Row(rules: "a\\*b", path: "axb", ignored: false, line: #line),
        ])
    }

    func testNegationLastMatchWinsAndExcludedFolderCannotBeReincluded() {
        check([
            Row(rules: "*.html\n!foo.html", path: "foo.html", ignored: false, line: #line),
            Row(rules: "*.html\n!foo.html", path: "bar.html", ignored: true, line: #line),
            Row(rules: "!foo.html\n*.html", path: "foo.html", ignored: true, line: #line),
            // Everything except foo/bar, as in the documentation.
            Row(rules: "/*\n!/foo\n/foo/*\n!/foo/bar", path: "foo/bar", isDirectory: true, ignored: false, line: #line),
            Row(rules: "/*\n!/foo\n/foo/*\n!/foo/bar", path: "foo/bar/x.md", ignored: false, line: #line),
            Row(rules: "/*\n!/foo\n/foo/*\n!/foo/bar", path: "foo/baz.md", ignored: true, line: #line),
            Row(rules: "/*\n!/foo\n/foo/*\n!/foo/bar", path: "other.md", ignored: true, line: #line),
            // A file inside an excluded folder cannot be re-included.
            Row(rules: "build/\n!build/keep.md", path: "build/keep.md", ignored: true, line: #line),
            Row(rules: "build/*\n!build/keep.md", path: "build/keep.md", ignored: false, line: #line),
        ])
    }

    func testNestedGitignoreAppliesToItsFolderOnly() {
        check([
            Row(rules: "/x.md", folder: "sub", path: "sub/x.md", ignored: true, line: #line),
            Row(rules: "/x.md", folder: "sub", path: "x.md", ignored: false, line: #line),
            Row(rules: "/x.md", folder: "sub", path: "sub/deeper/x.md", ignored: false, line: #line),
            Row(rules: "x.md", folder: "sub", path: "sub/deeper/x.md", ignored: true, line: #line),
            Row(rules: "x.md", folder: "sub", path: "subway/x.md", ignored: false, line: #line),
            Row(rules: "a/b", folder: "sub", path: "sub/a/b", ignored: true, line: #line),
        ])
        // A deeper file wins over a higher one.
        var rules = IgnoreRules(globs: ["*.md"])
        rules.addGitignore("!keep.md", folder: "notes")
        XCTAssertFalse(rules.isIgnored("notes/keep.md"))
        XCTAssertTrue(rules.isIgnored("keep.md"))
        XCTAssertTrue(rules.isIgnored("notes/other.md"))
    }

    func testStarHeavyPatternsStayFast() {
        // Exponential backtracking would take forever on these; the matcher is polynomial.
        let name = String(repeating: "a", count: 200)
        var rules = IgnoreRules()
        rules.addGitignore(String(repeating: "*a", count: 40) + "b")
        XCTAssertFalse(rules.isIgnored(name))
        let deep = Array(repeating: "a", count: 200).joined(separator: "/")
        var deepRules = IgnoreRules()
        deepRules.addGitignore(Array(repeating: "**", count: 30).joined(separator: "/a/") + "/b")
        XCTAssertFalse(deepRules.isIgnored(deep, isDirectory: false))
        XCTAssertTrue(deepRules.isIgnored(deep + "/b"))
    }
}
