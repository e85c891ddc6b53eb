import Foundation

/// A notebook on disk for one test: a fixture's files written into a fresh temporary folder.
public struct NotebookFixture: Sendable {
    public let root: String
    /// The fixture written (its markers give the places tests ask about).
    public let fixture: Fixture

    /// Writes `fixture`'s files (without their markers). Like a real notebook, the folder is
    /// marked as a notebook's root (an empty `.git` folder, which the scan skips) unless
    /// `rootMarker` is false: a folder without a marker is only a guessed root, where a link that
    /// finds nothing is a hint.
    public init(_ fixture: Fixture, rootMarker: Bool = true) {
        root = NSTemporaryDirectory() + "macmd-notebook-" + UUID().uuidString
        self.fixture = fixture
        try? FileManager.default.createDirectory(atPath: root + (rootMarker ? "/.git" : ""), withIntermediateDirectories: true)
        for file in fixture.files { write(file.path, file.text) }
    }

    /// Writes the files given by path (`$0` markers in them are the fixture's, not written).
    public init(_ files: [String: String], rootMarker: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        self.init(Fixture(files: files, file: file, line: line), rootMarker: rootMarker)
    }

    /// Writes a `//- /path` fixture.
    public init(_ text: String, rootMarker: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        self.init(Fixture(text, file: file, line: line), rootMarker: rootMarker)
    }

    public func write(_ path: String, _ text: String) {
        let full = root + "/" + path
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
    }

    public func remove(_ path: String) { try? FileManager.default.removeItem(atPath: root + "/" + path) }
    public func uri(_ path: String) -> String { "file://" + root + "/" + path }
    /// The file's text as it is on disk now.
    public func text(_ path: String) -> String { (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "" }
    public func destroy() { try? FileManager.default.removeItem(atPath: root) }
}
