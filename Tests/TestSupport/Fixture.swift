import Foundation
import XCTest

/// A test's notebook written as text, in rust-analyzer's fixture style:
///
/// ```
/// //- /index.md
/// See [[so$0il]].
/// //- /garden/soil.md
/// # Soil
/// ```
///
/// - `//- /path` on a line of its own starts a file; the file's text is everything up to the
///   next such line (so it ends with the line break before it). The path is kept without the
///   leading `/`: `garden/soil.md`. Text without any `//-` line is one file's text, at
///   `defaultPath`; so is text before the first `//-` line, unless it is only white space.
/// - `$0` marks the cursor; two `$0` in one file mark a range (from the first to the second).
///   The markers are removed from the text; offsets count UTF-8 bytes of the text without them.
///
/// A fixture with more than two markers, or two in different files, fails the test that made it.
public struct Fixture: Sendable {
    /// One file of the fixture.
    public struct File: Sendable, Hashable {
        /// The path inside the notebook, without a leading `/`.
        public let path: String
        /// The text without markers.
        public let text: String
    }

    /// The files, in the order the fixture names them.
    public let files: [File]
    /// The place of a single `$0`, if the fixture has one.
    public let cursor: FixtureLocation?
    /// The range between two `$0` in one file, if the fixture has them.
    public let range: FixtureSpan?

    /// Parses `text`; a file before any `//- /path` line gets `defaultPath`.
    public init(_ text: String, defaultPath: String = "note.md", file: StaticString = #filePath, line: UInt = #line) {
        self.init(marked: Fixture.split(text, defaultPath: defaultPath), file: file, line: line)
    }

    /// The fixture of files given by path (each text may hold markers), in path order.
    public init(files: [String: String], file: StaticString = #filePath, line: UInt = #line) {
        self.init(marked: files.sorted { $0.key < $1.key }.map { (path: $0.key, text: $0.value) }, file: file, line: line)
    }

    private init(marked: [(path: String, text: String)], file: StaticString, line: UInt) {
        let parsed = Fixture.parse(marked)
        files = parsed.files
        cursor = parsed.cursor
        range = parsed.range
        if let problem = parsed.problem { XCTFail(problem, file: file, line: line) }
    }

    /// The files without their markers, and what the markers mark; `problem` says why the
    /// markers mark nothing when there are too many of them.
    static func parse(_ marked: [(path: String, text: String)])
        -> (files: [File], cursor: FixtureLocation?, range: FixtureSpan?, problem: String?) {
        var files: [File] = []
        var marks: [FixtureLocation] = []
        for (path, markedText) in marked {
            let (text, offsets) = Fixture.removingMarkers(markedText)
            files.append(File(path: path, text: text))
            marks += offsets.map { FixtureLocation(path: path, utf8Offset: $0) }
        }
        switch marks.count {
        case 0:
            return (files, nil, nil, nil)
        case 1:
            return (files, marks[0], nil, nil)
        case 2 where marks[0].path == marks[1].path:
            return (files, nil, FixtureSpan(path: marks[0].path, utf8Start: marks[0].utf8Offset, utf8End: marks[1].utf8Offset), nil)
        default:
            return (files, nil, nil, "a fixture takes one `$0` (a cursor) or two in one file (a range), not \(marks)")
        }
    }

    /// The files as `(path, marked text)`, in order.
    static func split(_ text: String, defaultPath: String) -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        var current: (path: String, lines: [Substring])? = nil
        var before: [Substring] = []
        // Split after each `\n` so every line keeps its own ending (`\r\n` stays whole).
        var lines: [Substring] = []
        var start = text.startIndex
        for index in text.indices where text[index] == "\n" || text[index] == "\r\n" {
            let next = text.index(after: index)
            lines.append(text[start..<next])
            start = next
        }
        if start < text.endIndex { lines.append(text[start...]) }
        for line in lines {
            if line.hasPrefix("//- /") {
                if let finished = current { files.append((finished.path, finished.lines.joined())) }
                let path = line.dropFirst("//- /".count).trimmingCharacters(in: .newlines)
                current = (path, [])
            } else if current != nil {
                current?.lines.append(line)
            } else {
                before.append(line)
            }
        }
        if let finished = current { files.append((finished.path, finished.lines.joined())) }
        let leading = before.joined()
        if files.isEmpty || !leading.allSatisfy(\.isWhitespace) { files.insert((defaultPath, leading), at: 0) }
        return files
    }

    /// `text` without its `$0` markers, and the UTF-8 offset of each in the text without them.
    public static func removingMarkers(_ text: String) -> (text: String, utf8Offsets: [Int]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var offsets: [Int] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "$"), index + 1 < source.count, source[index + 1] == UInt8(ascii: "0") {
                offsets.append(bytes.count)
                index += 2
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return (String(decoding: bytes, as: UTF8.self), offsets)
    }

    // MARK: Reading the fixture

    /// The texts by path.
    public var texts: [String: String] {
        Dictionary(files.map { ($0.path, $0.text) }, uniquingKeysWith: { _, last in last })
    }

    /// The paths, in order.
    public var paths: [String] { files.map(\.path) }

    /// The text of the file at `path` ("" for a path the fixture does not have).
    public func text(_ path: String) -> String {
        files.first { $0.path == path }?.text ?? ""
    }

    /// The text of the first file: a single-file fixture's text.
    public var text: String { files.first?.text ?? "" }

    /// The first file's path: a single-file fixture's path.
    public var path: String { files.first?.path ?? "" }

    /// The lines of the file at `path`.
    public func lines(_ path: String) -> TextLines { TextLines(text(path)) }

    /// The line and character of `location`.
    public func position(_ location: FixtureLocation) -> TextPosition {
        lines(location.path).position(ofUTF8Offset: location.utf8Offset)
    }

    /// The line and character of the cursor.
    public var cursorPosition: TextPosition? { cursor.map(position) }

    /// The lines and characters of the range's ends.
    public var rangePositions: (start: TextPosition, end: TextPosition)? {
        guard let range else { return nil }
        let lines = lines(range.path)
        return (lines.position(ofUTF8Offset: range.utf8Start), lines.position(ofUTF8Offset: range.utf8End))
    }

    /// The text the range covers.
    public var rangeText: String? {
        range.map { String(decoding: Array(text($0.path).utf8)[$0.utf8Range], as: UTF8.self) }
    }

    // MARK: More places in the same files

    /// The place a `$0` marks in `marked`, a piece of `path`'s text that occurs there once (as
    /// the text without the marker): more cursors in a fixture that has its own.
    public func cursor(at marked: String, in path: String, file: StaticString = #filePath, line: UInt = #line) -> FixtureLocation? {
        switch marks(at: marked, in: path, count: 1) {
        case .success(let offsets):
            return FixtureLocation(path: path, utf8Offset: offsets[0])
        case .failure(let problem):
            XCTFail(problem.description, file: file, line: line)
            return nil
        }
    }

    /// The range two `$0` mark in `marked`, a piece of `path`'s text that occurs there once.
    public func range(at marked: String, in path: String, file: StaticString = #filePath, line: UInt = #line) -> FixtureSpan? {
        switch marks(at: marked, in: path, count: 2) {
        case .success(let offsets):
            return FixtureSpan(path: path, utf8Start: offsets[0], utf8End: offsets[1])
        case .failure(let problem):
            XCTFail(problem.description, file: file, line: line)
            return nil
        }
    }

    /// The offsets in `path`'s text of the `count` markers of `marked`, a piece of that text
    /// that must occur there once (without its markers).
    func marks(at marked: String, in path: String, count: Int) -> Result<[Int], TestSupportError> {
        let (piece, offsets) = Fixture.removingMarkers(marked)
        guard offsets.count == count else {
            return .failure(TestSupportError("\(marked.debugDescription) needs \(count) `$0`, not \(offsets.count)"))
        }
        let haystack = Array(text(path).utf8)
        let needle = Array(piece.utf8)
        var found: [Int] = []
        if !needle.isEmpty, needle.count <= haystack.count {
            for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                found.append(start)
            }
        }
        guard found.count == 1 else {
            return .failure(TestSupportError("\(piece.debugDescription) occurs \(found.count) times in \(path), not once"))
        }
        return .success(offsets.map { found[0] + $0 })
    }
}

/// A place in a fixture: a file and a UTF-8 offset in its text.
public struct FixtureLocation: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let utf8Offset: Int

    public init(path: String, utf8Offset: Int) {
        self.path = path
        self.utf8Offset = utf8Offset
    }

    public var description: String { "\(path)@\(utf8Offset)" }
}

/// A range in one file of a fixture, in UTF-8 offsets.
public struct FixtureSpan: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let utf8Start: Int
    public let utf8End: Int

    public init(path: String, utf8Start: Int, utf8End: Int) {
        self.path = path
        self.utf8Start = utf8Start
        self.utf8End = utf8End
    }

    public var utf8Range: Range<Int> { utf8Start..<utf8End }
    public var start: FixtureLocation { FixtureLocation(path: path, utf8Offset: utf8Start) }
    public var end: FixtureLocation { FixtureLocation(path: path, utf8Offset: utf8End) }
    public var description: String { "\(path)@\(utf8Start)..<\(utf8End)" }
}
