// Path arithmetic for completion: folders, normalisation, relative paths and percent coding.
// Paths are workspace-relative with `/`; nothing here touches the disk or traps on any input.

import NotebookIndex

/// Small path helpers shared by the workspace index and the engine.
enum CompletionPath {
    // The path rules are the resolver's: one implementation serves both.
    static func folder(of path: String) -> String { NotebookPath.folder(of: path) }
    static func name(of path: String) -> String { NotebookPath.lastComponent(of: path) }
    static func removingExtension(_ path: String, _ extensions: [String]) -> String {
        NotebookPath.removingExtension(path, extensions)
    }
    static func normalized(_ path: String) -> String? { NotebookPath.normalized(path) }
    static func percentDecoded(_ text: String) -> String { NotebookPath.percentDecoded(text) }
    static func percentEncoded(_ text: String) -> String { NotebookPath.markdownDestination(text) }

    /// The last extension of the file name, lowercased, without `.`; nil when there is none.
    static func lowercasedExtension(_ path: String) -> String? { NotebookPath.pathExtension(path)?.lowercased() }

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "tif", "tiff", "avif", "heic", "ico"]

    static func isImage(_ path: String) -> Bool {
        guard let ext = lowercasedExtension(path) else { return false }
        return imageExtensions.contains(ext)
    }

    /// The number of leading folders `a` and `b` share (`x/y` and `x/z`: 1).
    static func commonFolders(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var common = 0
        let count = min(a.count, b.count)
        while index < count, a[index] == b[index] {
            if a[index] == UInt8(ascii: "/") { common += 1 }
            index += 1
        }
        // A whole folder matched when both end there or continue with `/`.
        let aEnds = index == a.count || a[index] == UInt8(ascii: "/")
        let bEnds = index == b.count || b[index] == UInt8(ascii: "/")
        if index > 0 && aEnds && bEnds && index == count { common += 1 }
        return common
    }
}
