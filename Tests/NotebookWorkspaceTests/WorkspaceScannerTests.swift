import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import NotebookWorkspace

/// The workspace scan over real temporary folder trees.
final class WorkspaceScannerTests: XCTestCase {
    var root = ""
    let fileManager = FileManager.default

    override func setUpWithError() throws {
        let base = NSTemporaryDirectory() + "macmd-scan-\(getpid())-\(UUID().uuidString)"
        try fileManager.createDirectory(atPath: base, withIntermediateDirectories: true)
        root = base
    }

    override func tearDownWithError() throws {
        // Make any chmod 000 folder removable again before deleting the tree.
        if let enumerator = fileManager.enumerator(atPath: root) {
            for case let path as String in enumerator {
                chmod(root + "/" + path, 0o755)
            }
        }
        try? fileManager.removeItem(atPath: root)
    }

    /// Writes `contents` at `path` relative to the root, creating folders.
    func write(_ path: String, _ contents: String = "# note\n") {
        let full = root + "/" + path
        try? fileManager.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(fileManager.createFile(atPath: full, contents: Data(contents.utf8)), path)
    }

    func paths(_ result: ScanResult) -> [String] { result.files.map(\.path) }

    func testFindsNotesInNestedFoldersCaseInsensitivelyAndSorted() {
        write("b.md")
        write("a.MARKDOWN")
        write("z/deep/er/c.Md")
        write("z/readme.txt")
        write("m/d.markdown")
        write("noextension")
        write(".md")
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertNil(result.refusal)
        XCTAssertEqual(paths(result), ["a.MARKDOWN", "b.md", "m/d.markdown", "z/deep/er/c.Md"])
        XCTAssertEqual(result.files.first?.size, Int64("# note\n".utf8.count))
        XCTAssertGreaterThan(result.files.first?.modificationTimeNanoseconds ?? 0, 1_500_000_000 * 1_000_000_000)
        XCTAssertEqual(result.skipped, [])
    }

    /// The walk lists a folder's entries in the order of the paths below them, so its files
    /// come out sorted without a sort: a folder sorts as its name followed by `/`.
    func testFolderEntriesAreListedInTheOrderOfThePathsBelowThem() {
        let alphabet: [UInt8] = Array("ab.-0é".utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let entries = (0..<12).map { _ in
                (name: (0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! },
                 isFolder: Bool.random(using: &generator))
            }
            // What the walk's order must give: a folder's files' paths start with `name/`.
            func path(_ entry: (name: [UInt8], isFolder: Bool)) -> [UInt8] { entry.isFolder ? entry.name + Array("/x.md".utf8) : entry.name }
            let listed = entries.sorted { a, b in
                a.name.withUnsafeBufferPointer { a1 in b.name.withUnsafeBufferPointer { b1 in
                    WorkspaceScanner.listsBefore(a1, isFolder: a.isFolder, b1, isFolder: b.isFolder)
                } }
            }
            let byPath = listed.map(path)
            XCTAssertEqual(byPath, byPath.sorted { $0.lexicographicallyPrecedes($1) }, "\(listed.map { String(decoding: $0.name, as: UTF8.self) + ($0.isFolder ? "/" : "") })")
        }
        // And on disk, with a symlinked folder (walked after the others: its target is hidden,
        // so not walked itself) and assets.
        for path in ["b.md", "b/x.md", "b0.md", "b-c.md", "B/y.md", "a b/z.md", "é/e.md", "e/f.md", "b/c/d.md", "b.txt", "b/a.png",
                     ".kept/f.md"] { write(path) }
        XCTAssertEqual(symlink(root + "/.kept", root + "/d-link"), 0)
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(paths(result), ["B/y.md", "a b/z.md", "b-c.md", "b.md", "b/c/d.md", "b/x.md", "b0.md", "d-link/f.md", "e/f.md", "é/e.md"]
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(result.assets, ["b.txt", "b/a.png"])
    }

    /// The root's folders are walked side by side, each by a walker of its own; a progress
    /// callback makes the walk go alone. Both find the same, in the same order, on a tree of
    /// nested folders with notes, assets, ignored and hidden entries, nested settings and a
    /// symlinked folder.
    func testTheWalkSideBySideFindsWhatTheWalkAloneFinds() throws {
        var generator = SeededGenerator(state: 7)
        let names = ["a", "B", "b.md", "c d", "é", "日本", "z", "notes", "0"]
        for index in 0..<300 {
            var path: [String] = []
            for _ in 0..<generator.next(4) { path.append(names[generator.next(names.count)]) }
            let leaf = "n\(index)" + [".md", ".markdown", ".png", ".txt"][generator.next(4)]
            write((path + [leaf]).joined(separator: "/"))
        }
        write(".hidden/secret.md")
        write("node_modules/x.md")
        write("a/.gitignore", "ignored.md\n")
        write("a/ignored.md")
        write("B/.macmd.json", "{}")
        XCTAssertEqual(symlink(root + "/.hidden", root + "/linked"), 0)
        var options = ScanOptions()
        options.progressInterval = 1_000_000
        let alone = WorkspaceScanner.scan(root: root, options: options) { _ in }
        let sideBySide = WorkspaceScanner.scan(root: root, options: options)
        XCTAssertGreaterThan(alone.files.count, 100)
        XCTAssertEqual(sideBySide.files, alone.files)
        XCTAssertEqual(sideBySide.assets, alone.assets)
        XCTAssertEqual(sideBySide.skipped, alone.skipped)
        XCTAssertEqual(sideBySide.nestedSettings, alone.nestedSettings)
        XCTAssertTrue(paths(sideBySide).contains("linked/secret.md"))
        XCTAssertFalse(paths(sideBySide).contains("a/ignored.md"))
    }

    func testConfiguredExtensions() {
        write("a.md")
        write("b.txt")
        var options = ScanOptions()
        options.extensions = ["txt"]
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root, options: options)), ["b.txt"])
    }

    func testSkipsHiddenFoldersGitAndNodeModules() {
        write("keep.md")
        write(".git/notes.md")
        write(".obsidian/x.md")
        write("node_modules/pkg/readme.md")
        write("sub/node_modules/readme.md")
        write("sub/.hidden/x.md")
        write("sub/.visible-file.md")
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root)), ["keep.md", "sub/.visible-file.md"])
    }

    func testGitignoreAtSeveralLevelsWithNegation() {
        write(".gitignore", "*.tmp.md\nbuild/\ndrafts/*\n!drafts/keep.md\n")
        write("a.md")
        write("a.tmp.md")
        write("build/out.md")
        write("drafts/keep.md")
        write("drafts/other.md")
        write("notes/.gitignore", "/local.md\n!b.tmp.md\nprivate/\n")
        write("notes/local.md")
        write("notes/b.tmp.md")
        write("notes/c.tmp.md")
        write("notes/private/p.md")
        write("notes/sub/local.md")
        write("other/local.md")
        write("other/private/p.md")
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root)), [
            "a.md", "drafts/keep.md", "notes/b.tmp.md", "notes/sub/local.md", "other/local.md", "other/private/p.md",
        ])
        var options = ScanOptions()
        options.readsGitignore = false
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root, options: options)).count, 12)
    }

    func testConfiguredGlobs() {
        write("a.md")
        write("archive/2020/old.md")
        write("journal/2024-01-01.md")
        write("journal/index.md")
        write("x/templates/t.md")
        var options = ScanOptions()
        options.ignoreGlobs = ["archive/", "journal/*", "!journal/index.md", "**/templates/**"]
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root, options: options)), ["a.md", "journal/index.md"])
    }

    func testSymlinkLoopIsSurvivedAndRecorded() throws {
        write("a/b/note.md")
        try fileManager.createSymbolicLink(atPath: root + "/a/b/loop", withDestinationPath: root + "/a")
        try fileManager.createSymbolicLink(atPath: root + "/self", withDestinationPath: ".")
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(paths(result), ["a/b/note.md"])
        XCTAssertEqual(result.skipped, [
            ScanSkip(path: "a/b/loop", reason: .alreadyVisited),
            ScanSkip(path: "self", reason: .alreadyVisited),
        ])
    }

    func testSymlinksOutOfTheNotebookAreNotFollowed() throws {
        let outside = root + "-outside"
        try fileManager.createDirectory(atPath: outside + "/dir", withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(atPath: outside) }
        XCTAssertTrue(fileManager.createFile(atPath: outside + "/external.md", contents: Data("# external note\n".utf8)))
        XCTAssertTrue(fileManager.createFile(atPath: outside + "/dir/inner.md", contents: Data("x".utf8)))
        write("local.md")
        try fileManager.createSymbolicLink(atPath: root + "/linked.md", withDestinationPath: outside + "/external.md")
        try fileManager.createSymbolicLink(atPath: root + "/linked-dir", withDestinationPath: outside + "/dir")
        try fileManager.createSymbolicLink(atPath: root + "/broken.md", withDestinationPath: outside + "/missing.md")
        // A link inside the notebook, even by `..` out and back in, is followed.
        write("notes/kept.md")
        try fileManager.createSymbolicLink(atPath: root + "/inside.md", withDestinationPath: "../" + (root as NSString).lastPathComponent + "/notes/kept.md")
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(paths(result), ["inside.md", "local.md", "notes/kept.md"])
        XCTAssertEqual(result.skipped.sorted { $0.path < $1.path }, [
            ScanSkip(path: "broken.md", reason: .brokenSymlink(errno: ENOENT)),
            ScanSkip(path: "linked-dir", reason: .linksOutside),
            ScanSkip(path: "linked.md", reason: .linksOutside),
        ])
        // A file event for the link is judged the same way.
        var membership = ScanMembership(root: WorkspaceScanner.realPath(root) ?? root, options: ScanOptions())
        XCTAssertEqual(membership.verdict(of: "linked.md"), .excluded(ScanSkipReason.linksOutside.text))
        XCTAssertEqual(membership.verdict(of: "inside.md"), .note)
    }

    func testUnreadableFolderIsSkippedWithAReason() {
        write("ok.md")
        write("locked/secret.md")
        chmod(root + "/locked", 0o000)
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertNil(result.refusal)
        if getuid() == 0 {
            // Root reads anything: the scan must simply succeed.
            XCTAssertTrue(paths(result).contains("ok.md"))
        } else {
            XCTAssertEqual(paths(result), ["ok.md"])
            XCTAssertEqual(result.skipped, [ScanSkip(path: "locked", reason: .unreadableFolder(errno: EACCES))])
            XCTAssertEqual(result.skipped.first?.reason.description.contains("cannot be read"), true)
        }
    }

    func testFileOverTheSizeLimitIsSkippedWithAReason() {
        write("small.md", "tiny")
        write("big.md", String(repeating: "x", count: 2000))
        var options = ScanOptions()
        options.maxFileSize = 1000
        let result = WorkspaceScanner.scan(root: root, options: options)
        XCTAssertEqual(paths(result), ["small.md"])
        XCTAssertEqual(result.skipped, [ScanSkip(path: "big.md", reason: .tooLarge(size: 2000, limit: 1000))])
        XCTAssertEqual(result.skipped.first?.reason.description, "file is 2000 bytes, over the 1000-byte limit")
        XCTAssertEqual(ScanOptions().maxFileSize, 5 * 1024 * 1024)
    }

    func testRefusesHomeAndRootUnlessAllowed() {
        write("a.md")
        var options = ScanOptions()
        options.homeDirectory = root
        let home = WorkspaceScanner.scan(root: root + "/", options: options)
        guard case .homeDirectory? = home.refusal else { return XCTFail("expected a home refusal, got \(String(describing: home.refusal))") }
        XCTAssertEqual(home.files, [])
        XCTAssertTrue(home.refusal?.description.contains("home folder") ?? false)
        options.allowHomeOrRoot = true
        XCTAssertEqual(paths(WorkspaceScanner.scan(root: root, options: options)), ["a.md"])
        XCTAssertEqual(WorkspaceScanner.scan(root: "/").refusal, .fileSystemRoot)
        XCTAssertEqual(WorkspaceScanner.scan(root: root + "/missing").refusal, .notAFolder(errno: ENOENT))
        XCTAssertEqual(WorkspaceScanner.scan(root: root + "/a.md").refusal, .notAFolder(errno: ENOTDIR))
    }

    func testOrderIsDeterministicAndProgressIsReported() {
        for index in (0..<60).reversed() {
            write("f\(index % 7)/n\(index).md")
        }
        var options = ScanOptions()
        options.progressInterval = 25
        var reports: [Int] = []
        let first = WorkspaceScanner.scan(root: root, options: options) { reports.append($0) }
        let second = WorkspaceScanner.scan(root: root, options: options)
        XCTAssertEqual(first.files, second.files)
        XCTAssertEqual(paths(first), paths(first).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(first.files.count, 60)
        XCTAssertEqual(reports, [25, 50])
    }

    func testFolderVanishingMidScanIsSkippedNotFatal() {
        write("a.md")
        write("gone/x.md")
        write("gone/y/z.md")
        var options = ScanOptions()
        options.progressInterval = 1
        let doomed = root + "/gone"
        let result = WorkspaceScanner.scan(root: root, options: options) { _ in
            try? FileManager.default.removeItem(atPath: doomed)
        }
        XCTAssertNil(result.refusal)
        XCTAssertEqual(paths(result), ["a.md"])
        XCTAssertEqual(result.skipped, [ScanSkip(path: "gone", reason: .vanished)])
        XCTAssertEqual(result.logLines, ["skipped gone: disappeared during the scan"])
    }

    func testUnreadableFileIsSkippedWithAReason() {
        write("ok.md")
        write("locked.md")
        chmod(root + "/locked.md", 0o000)
        let result = WorkspaceScanner.scan(root: root)
        if getuid() == 0 {
            XCTAssertEqual(paths(result), ["locked.md", "ok.md"])
        } else {
            XCTAssertEqual(paths(result), ["ok.md"])
            XCTAssertEqual(result.skipped, [ScanSkip(path: "locked.md", reason: .unreadableFile(errno: EACCES))])
        }
    }

    func testFoldersBeyondTheDepthBoundAreSkipped() {
        write("1/2/3/deep.md")
        write("1/shallow.md")
        var options = ScanOptions()
        options.maxDepth = 2
        let result = WorkspaceScanner.scan(root: root, options: options)
        XCTAssertEqual(paths(result), ["1/shallow.md"])
        XCTAssertEqual(result.skipped, [ScanSkip(path: "1/2/3", reason: .tooDeep(limit: 2))])
    }

    func testRefusalIsLogged() {
        XCTAssertEqual(WorkspaceScanner.scan(root: "/").logLines,
                       ["workspace /: not indexing the file-system root /; set allowHomeOrRoot to index it"])
    }

    func testRealFolderWinsOverASymlinkToIt() throws {
        write("zreal/n.md")
        try fileManager.createSymbolicLink(atPath: root + "/alink", withDestinationPath: root + "/zreal")
        try fileManager.createSymbolicLink(atPath: root + "/zreal/blink", withDestinationPath: root + "/other")
        try fileManager.createSymbolicLink(atPath: root + "/zreal/alink2", withDestinationPath: root + "/other")
        write("other/o.md")
        let result = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(paths(result), ["other/o.md", "zreal/n.md"])
        XCTAssertEqual(result.skipped.map(\.path), ["alink", "zreal/alink2", "zreal/blink"])
        // Two links to one folder outside the notebook: neither is followed.
        try fileManager.removeItem(atPath: root + "/other")
        let outside = root + "-outside2"
        try fileManager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(atPath: outside) }
        XCTAssertTrue(fileManager.createFile(atPath: outside + "/o.md", contents: Data("x".utf8)))
        try fileManager.removeItem(atPath: root + "/zreal/blink")
        try fileManager.removeItem(atPath: root + "/zreal/alink2")
        try fileManager.createSymbolicLink(atPath: root + "/zreal/blink", withDestinationPath: outside)
        try fileManager.createSymbolicLink(atPath: root + "/zreal/alink2", withDestinationPath: outside)
        let second = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(paths(second), ["zreal/n.md"], "links out of the notebook are not followed")
        XCTAssertEqual(second.skipped.map(\.path).sorted(), ["alink", "zreal/alink2", "zreal/blink"])
    }

    // MARK: Listing notes without inspecting them, and the loader that inspects them instead

    /// Options of the cold index's walk: notes not inspected.
    func uninspected(maxFileSize: Int64 = ScanOptions().maxFileSize) -> ScanOptions {
        var options = ScanOptions()
        options.inspectsFiles = false
        options.maxFileSize = maxFileSize
        return options
    }

    /// Loads `scan` and returns the paths of the notes delivered, sorted, and the report.
    func load(_ scan: ScanResult) -> (delivered: [String], report: NotebookLoader.Report) {
        let delivered = Mutex<[String]>([])
        let report = NotebookLoader.load(scan) { notes, _, _, _ in delivered.withLock { $0 += notes.map(\.symbols.path) } }
        return (delivered.withLock { $0 }.sorted(), report)
    }

    func testUninspectedNotesAreListedWithoutSizeOrTimeButSymlinksAreInspected() throws {
        // The link's target is inside the notebook, in a hidden folder the walk does not enter.
        let outside = root + "/.store"
        try fileManager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        XCTAssertTrue(fileManager.createFile(atPath: outside + "/external.md", contents: Data("# external note\n".utf8)))
        try fileManager.createSymbolicLink(atPath: root + "/linked.md", withDestinationPath: outside + "/external.md")
        try fileManager.createSymbolicLink(atPath: root + "/broken.md", withDestinationPath: outside + "/missing.md")
        write("a.md")
        write("sub/b.markdown")
        write("big.md", String(repeating: "x", count: 2000))
        write("locked.md")
        chmod(root + "/locked.md", 0o000)
        write("image.png")
        XCTAssertTrue(ScanOptions().inspectsFiles, "the default walk inspects every note")

        let result = WorkspaceScanner.scan(root: root, options: uninspected(maxFileSize: 1000))
        // Over the limit and unreadable, but listed: the walk did not look.
        XCTAssertEqual(paths(result), ["a.md", "big.md", "linked.md", "locked.md", "sub/b.markdown"])
        for file in result.files where file.path != "linked.md" {
            XCTAssertNil(file.size, file.path)
            XCTAssertNil(file.modificationTimeNanoseconds, file.path)
        }
        // The link had to be followed to learn what it is, so its size and time came free.
        let linked = result.files.first { $0.path == "linked.md" }
        XCTAssertEqual(linked?.size, Int64("# external note\n".utf8.count))
        XCTAssertGreaterThan(linked?.modificationTimeNanoseconds ?? 0, 1_500_000_000 * 1_000_000_000)
        XCTAssertEqual(result.assets, ["image.png"])
        XCTAssertEqual(result.skipped, [ScanSkip(path: "broken.md", reason: .brokenSymlink(errno: ENOENT))])
        XCTAssertEqual(result.maxFileSize, 1000)

        // The same tree inspected: the big note is skipped and every size is known.
        var inspecting = ScanOptions()
        inspecting.maxFileSize = 1000
        let inspected = WorkspaceScanner.scan(root: root, options: inspecting)
        XCTAssertFalse(paths(inspected).contains("big.md"))
        XCTAssertTrue(inspected.files.allSatisfy { $0.size != nil && $0.modificationTimeNanoseconds != nil })
    }

    func testUninspectedSymlinkOverTheLimitIsSkippedByTheWalk() throws {
        write("real/big.txt", String(repeating: "x", count: 2000))
        try fileManager.createSymbolicLink(atPath: root + "/big.md", withDestinationPath: root + "/real/big.txt")
        let result = WorkspaceScanner.scan(root: root, options: uninspected(maxFileSize: 1000))
        XCTAssertEqual(paths(result), [])
        XCTAssertEqual(result.skipped, [ScanSkip(path: "big.md", reason: .tooLarge(size: 2000, limit: 1000))])
    }

    func testLoaderLearnsSizesAndTimesFromItsReads() {
        write("a.md", "# a\n")
        write("b/c.md", "# c\n\nlonger text\n")
        write("b/d.MD", "")
        for index in 0..<150 { write("many/n\(index).md", String(repeating: "y", count: index)) }
        let (delivered, report) = load(WorkspaceScanner.scan(root: root, options: uninspected()))
        let inspected = WorkspaceScanner.scan(root: root)
        XCTAssertEqual(inspected.files.count, 153)
        // What the reads' fstat found is what a walk that stats every note lists, in its order.
        XCTAssertEqual(report.files, inspected.files)
        XCTAssertEqual(delivered, paths(inspected).sorted())
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(report.failures, [])
    }

    func testLoaderSkipsANoteOverTheLimitWithTheScannersLogLine() {
        write("small.md", "tiny")
        write("big.md", String(repeating: "x", count: 2000))
        let result = WorkspaceScanner.scan(root: root, options: uninspected(maxFileSize: 1000))
        XCTAssertEqual(paths(result), ["big.md", "small.md"])
        let (delivered, report) = load(result)
        XCTAssertEqual(delivered, ["small.md"])
        XCTAssertEqual(report.files.map(\.path), ["small.md"])
        XCTAssertEqual(report.skipped, [ScanSkip(path: "big.md", reason: .tooLarge(size: 2000, limit: 1000))])
        XCTAssertEqual(report.logLines, ["skipped big.md: file is 2000 bytes, over the 1000-byte limit"])
        // The same line the inspecting walk gives, and a whole notebook's index passes it on.
        var inspecting = ScanOptions()
        inspecting.maxFileSize = 1000
        XCTAssertEqual(WorkspaceScanner.scan(root: root, options: inspecting).logLines, report.logLines)
        let built = NotebookFolder.indexed(path: root, editor: [ConfigurationLayer(source: "test", value: ["maxFileSize": 1000])])
        XCTAssertEqual(built.log.map(\.english), report.logLines)
        XCTAssertEqual(built.folder.notebook.notes.keys.sorted(), ["small.md"])
    }

    func testLoaderReportsNotesItCannotReadVanishedOrReplacedSinceTheWalk() throws {
        write("ok.md")
        write("locked.md")
        write("gone.md")
        write("now-a-folder.md")
        chmod(root + "/locked.md", 0o000)
        let result = WorkspaceScanner.scan(root: root, options: uninspected())
        XCTAssertEqual(paths(result), ["gone.md", "locked.md", "now-a-folder.md", "ok.md"])
        // Between the walk and the reads: one note deleted, one replaced by a folder.
        try fileManager.removeItem(atPath: root + "/gone.md")
        try fileManager.removeItem(atPath: root + "/now-a-folder.md")
        try fileManager.createDirectory(atPath: root + "/now-a-folder.md", withIntermediateDirectories: false)
        let (delivered, report) = load(result)
        let base = result.resolvedRoot
        var failures = [
            "skipped gone.md: cannot read \(base)/gone.md: No such file or directory",
            "skipped now-a-folder.md: cannot read \(base)/now-a-folder.md: it is a folder",
        ]
        if getuid() == 0 {
            // Root reads anything.
            XCTAssertEqual(delivered, ["locked.md", "ok.md"])
        } else {
            failures.insert("skipped locked.md: cannot read \(base)/locked.md: Permission denied", at: 1)
            XCTAssertEqual(delivered, ["ok.md"])
        }
        XCTAssertEqual(report.failures.map(\.english), failures)
        XCTAssertEqual(report.logLines, failures)
        XCTAssertEqual(report.files.map(\.path), delivered)
        XCTAssertEqual(report.skipped, [])
    }

    func testOpenNotesAreNotReadAndOthersKeepTheScansOrder() {
        for index in (0..<70).reversed() { write("n\(index).md") }
        let result = WorkspaceScanner.scan(root: root, options: uninspected())
        let delivered = Mutex<[String]>([])
        let report = NotebookLoader.load(result, skipping: ["n5.md", "n64.md"]) { notes, _, _, _ in
            delivered.withLock { $0 += notes.map(\.symbols.path) }
        }
        let expected = paths(result).filter { $0 != "n5.md" && $0 != "n64.md" }
        XCTAssertEqual(report.files.map(\.path), expected)
        XCTAssertEqual(delivered.withLock { $0 }.sorted(), expected.sorted())
    }

    /// Deliveries never overlap, every note arrives exactly once, and the counts only grow,
    /// however the workers' chunks and deliveries interleave (a slow delivery makes the other
    /// worker leave several batches for the next one).
    func testDeliveriesNeverOverlapAndCarryEveryNoteOnce() {
        for index in 0..<700 { write("f\(index % 7)/n\(index).md", "# Note \(index)\n[[n\(index + 1)]] #tag\(index % 5)\n") }
        let result = WorkspaceScanner.scan(root: root, options: uninspected())
        let state = Mutex<(inside: Bool, overlapped: Bool, paths: [String], counts: [Int], batches: Int)>((false, false, [], [], 0))
        _ = NotebookLoader.load(result) { notes, _, done, total in
            state.withLock { state in
                if state.inside { state.overlapped = true }
                state.inside = true
            }
            usleep(2_000)
            state.withLock { state in
                state.inside = false
                state.paths += notes.map(\.symbols.path)
                state.counts.append(done)
                state.batches += 1
                XCTAssertEqual(total, 700)
            }
        }
        let final = state.withLock { $0 }
        XCTAssertFalse(final.overlapped, "two deliveries ran at once")
        XCTAssertEqual(final.paths.sorted(), paths(result).sorted())
        XCTAssertEqual(final.counts, final.counts.sorted())
        XCTAssertEqual(final.counts.last, 700)
        XCTAssertLessThanOrEqual(final.batches, 11, "700 notes come in 11 chunks of 64")
    }
}
