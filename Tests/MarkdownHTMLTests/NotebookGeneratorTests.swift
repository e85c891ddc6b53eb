import MacMDBench
import MarkdownSyntax
import NotebookIndex
import XCTest

/// The benchmark notebook (`macmd-bench generate`) is what its issue asks for: deterministic,
/// sized and shaped like a real notebook, and linked so that the index resolves nearly every link.
final class NotebookGeneratorTests: XCTestCase {
    /// One notebook of 2,000 notes, generated and indexed once for all the tests that read it.
    struct Indexed: Sendable {
        var files: [NotebookGenerator.File]
        var notes: [NoteSymbols]
        var problems: [String: [SyntaxProblem]]
        var catalog: NoteCatalog
    }

    static let indexed: Indexed = {
        let files = NotebookGenerator(notes: 2000, seed: 2024).files()
        var notes: [NoteSymbols] = []
        var problems: [String: [SyntaxProblem]] = [:]
        for file in files where file.isNote {
            let tree = MarkdownParser.parse(file.bytes, options: .notebook)
            notes.append(NoteSymbols.extract(from: tree, path: file.path))
            problems[file.path] = tree.problems
        }
        return Indexed(files: files, notes: notes, problems: problems, catalog: NoteCatalog(notes))
    }()

    var noteFiles: [NotebookGenerator.File] { Self.indexed.files.filter(\.isNote) }

    func testSameSeedGivesSameBytesAndOtherSeedsDiffer() {
        let first = NotebookGenerator(notes: 150, seed: 9).files()
        let second = NotebookGenerator(notes: 150, seed: 9).files()
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.filter(\.isNote).count, 150)
        let other = NotebookGenerator(notes: 150, seed: 10).files()
        XCTAssertNotEqual(first.map(\.bytes), other.map(\.bytes))
        XCTAssertNotEqual(first.map(\.path), other.map(\.path))
    }

    func testEdgeCountsGenerateWithoutTrapping() {
        XCTAssertTrue(NotebookGenerator(notes: 0, seed: 1).files().isEmpty)
        XCTAssertEqual(NotebookGenerator(notes: -3, seed: 1).files().count, 0)
        let one = NotebookGenerator(notes: 1, seed: 1).files()
        XCTAssertEqual(one.filter(\.isNote).count, 1)
        XCTAssertEqual(NotebookGenerator(notes: 2, seed: UInt64.max).files().filter(\.isNote).count, 2)
    }

    func testSizesAreLogNormalAroundOneAndAHalfKilobytes() {
        let sizes = noteFiles.map(\.bytes.count).sorted()
        XCTAssertEqual(sizes.count, 2000)
        guard let smallest = sizes.first, let largest = sizes.last else { return XCTFail("no notes") }
        let median = sizes[sizes.count / 2]
        print("NotebookGeneratorTests: sizes min \(smallest), median \(median), p99 \(sizes[sizes.count * 99 / 100]), max \(largest)")
        XCTAssertTrue((1200...1800).contains(median), "median \(median) bytes")
        XCTAssertGreaterThanOrEqual(sizes.first ?? 0, 300)
        XCTAssertLessThanOrEqual(sizes.last ?? .max, 50_000)
        // A long tail: some notes far above the median.
        XCTAssertGreaterThan(sizes[sizes.count * 99 / 100], 3 * median)
    }

    func testPathsAreAtMostThreeFoldersDeepAndUnique() {
        let paths = Self.indexed.files.map(\.path)
        XCTAssertEqual(Set(paths).count, paths.count)
        XCTAssertEqual(Set(paths.map { $0.lowercased() }).count, paths.count, "paths must differ ignoring case (macOS)")
        var depths: [Int: Int] = [:]
        for path in paths {
            let depth = path.utf8.filter { $0 == UInt8(ascii: "/") }.count
            depths[depth, default: 0] += 1
            XCTAssertFalse(path.hasPrefix("/") || path.contains("//") || path.contains(".."), path)
            for component in path.split(separator: "/") {
                XCTAssertLessThanOrEqual(component.utf8.count, 80, "file names stay short: \(path)")
                XCTAssertFalse(component.hasPrefix(" ") || component.hasSuffix(" ") || component.contains("  "), path)
            }
        }
        XCTAssertLessThanOrEqual(depths.keys.max() ?? 0, 3)
        XCTAssertGreaterThan(depths[3] ?? 0, 0, "some notes three folders deep")
        XCTAssertGreaterThan(depths[0] ?? 0, 0, "some notes at the root")
    }

    func testEveryNoteHasOneToEightHeadingsAndNoParserProblems() {
        var frontMatter = 0
        for note in Self.indexed.notes {
            XCTAssertTrue((1...8).contains(note.headings.count), "\(note.path): \(note.headings.count) headings")
            XCTAssertEqual(note.headings.first?.level, 1, note.path)
            XCTAssertEqual(Set(note.headings.map(\.slug)).count, note.headings.count, "\(note.path): repeated heading")
            if note.frontMatter != nil { frontMatter += 1 }
            XCTAssertEqual(Self.indexed.problems[note.path] ?? [], [], note.path)
        }
        let share = Double(frontMatter) / Double(Self.indexed.notes.count)
        XCTAssertTrue((0.75...0.85).contains(share), "front matter on \(share)")
    }

    func testAFifthOfTheNotesAreInNonLatinScripts() {
        var nonLatin = 0
        for file in noteFiles {
            let high = file.bytes.filter { $0 >= 0x80 }.count
            if Double(high) > 0.3 * Double(file.bytes.count) { nonLatin += 1 }
        }
        let share = Double(nonLatin) / Double(noteFiles.count)
        print("NotebookGeneratorTests: \(nonLatin) non-Latin notes")
        XCTAssertTrue((0.16...0.24).contains(share), "non-Latin share \(share)")
    }

    func testTagsComeFromASkewedVocabularyWithNestedTags() {
        var counts: [String: Int] = [:]
        for note in Self.indexed.notes {
            for tag in note.tags { counts[tag.name, default: 0] += 1 }
        }
        XCTAssertGreaterThan(counts.count, 200)
        XCTAssertLessThanOrEqual(counts.count, 700, "the vocabulary is 500, plus a few non-Latin tags")
        XCTAssertTrue(counts.keys.contains { $0.contains("/") }, "nested tags")
        let frequencies = counts.values.sorted(by: >)
        guard let most = frequencies.first else { return XCTFail("no tags") }
        print("NotebookGeneratorTests: \(counts.count) tags, top \(frequencies.prefix(5)), median \(frequencies[frequencies.count / 2])")
        XCTAssertGreaterThan(most, 20 * frequencies[frequencies.count / 2], "Zipf-like head")
    }

    func testMostLinksResolveAndAFewAreBrokenOnPurpose() {
        let catalog = Self.indexed.catalog
        var total = 0
        var broken = 0
        var kinds: [String: Int] = [:]
        for note in Self.indexed.notes {
            for link in note.links {
                total += 1
                switch catalog.resolve(link, from: note.path) {
                case .note(_, let heading, let block, _):
                    kinds["note", default: 0] += 1
                    if heading != nil { kinds["heading", default: 0] += 1 }
                    if block != nil { kinds["block", default: 0] += 1 }
                    if link.form.isWiki { kinds["wiki", default: 0] += 1 } else { kinds["markdown", default: 0] += 1 }
                case .file: kinds["file", default: 0] += 1
                case .external: kinds["external", default: 0] += 1
                case .outside: kinds["outside", default: 0] += 1
                case .ambiguous(let candidates): XCTFail("\(note.path): \(link.destination) matches \(candidates)")
                case .brokenNote, .brokenHeading, .brokenBlock: broken += 1
                }
            }
        }
        print("NotebookGeneratorTests: \(total) links, \(broken) broken, \(kinds.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(total, 2000 * 4, "links per note")
        let brokenShare = Double(broken) / Double(total)
        XCTAssertTrue((0.005...0.04).contains(brokenShare), "broken share \(brokenShare)")
        XCTAssertGreaterThan(kinds["heading"] ?? 0, total / 10)
        XCTAssertGreaterThan(kinds["block"] ?? 0, 50)
        XCTAssertGreaterThan(kinds["wiki"] ?? 0, total / 3)
        XCTAssertGreaterThan(kinds["markdown"] ?? 0, total / 4)
        XCTAssertGreaterThan(kinds["file"] ?? 0, 20)
    }

    func testDiagnosticsReportOnlyTheBrokenLinks() {
        let catalog = Self.indexed.catalog
        let attachments = Set(Self.indexed.files.filter { !$0.isNote }.map(\.path))
        var codes: [String: Int] = [:]
        var links = 0
        for note in Self.indexed.notes {
            links += note.links.count
            let diagnostics = NotebookDiagnostics.check(note, catalog: catalog) { attachments.contains($0) }
            for diagnostic in diagnostics { codes[diagnostic.code.rawValue, default: 0] += 1 }
        }
        let expected: Set<String> = ["broken-link", "broken-wikilink", "broken-heading", "broken-block"]
        XCTAssertTrue(Set(codes.keys).isSubset(of: expected), "unexpected diagnostics \(codes)")
        let errors = codes.values.reduce(0, +)
        print("NotebookGeneratorTests: diagnostics \(codes.sorted { $0.key < $1.key }) for \(links) links")
        XCTAssertGreaterThan(errors, 0)
        XCTAssertLessThan(Double(errors), 0.04 * Double(links), "\(codes)")
    }

    func testNotesHoldCodeTablesMathBlockIDsAndEmbeds() {
        let all = noteFiles.map { String(decoding: $0.bytes, as: UTF8.self) }
        func count(_ needle: String) -> Int { all.filter { $0.contains(needle) }.count }
        XCTAssertGreaterThan(count("```"), 100)
        XCTAssertGreaterThan(count("| --- |") + count("| :-- |") + count("| :-: |") + count("| --: |"), 100)
        XCTAssertGreaterThan(count("$$\n"), 50)
        XCTAssertGreaterThan(count("![["), 20)
        XCTAssertGreaterThan(count("|"), 100)
        XCTAssertGreaterThan(Self.indexed.notes.filter { !$0.blockIDs.isEmpty }.count, 300)
        XCTAssertGreaterThan(Self.indexed.notes.filter { !$0.aliases.isEmpty }.count, 100)
        // The attachments are real PNG files.
        for file in Self.indexed.files where !file.isNote {
            XCTAssertEqual(Array(file.bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
    }
}
