import Foundation

/// A notebook on disk for one test: files written into a fresh temporary folder.
public struct NotebookFixture {
    public let root: String

    public init(_ files: [String: String]) {
        root = NSTemporaryDirectory() + "macmd-notebook-" + UUID().uuidString
        for (path, text) in files { write(path, text) }
    }

    public func write(_ path: String, _ text: String) {
        let full = root + "/" + path
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
    }

    public func remove(_ path: String) { try? FileManager.default.removeItem(atPath: root + "/" + path) }
    public func uri(_ path: String) -> String { "file://" + root + "/" + path }
    public func text(_ path: String) -> String { (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "" }
    public func destroy() { try? FileManager.default.removeItem(atPath: root) }
}

