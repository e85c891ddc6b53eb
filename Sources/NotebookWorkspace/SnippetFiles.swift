// The files user snippets come from, read from disk for the snippet engine (NotebookIDE parses
// them): VS Code snippet files in a notebook's `.macmd/snippets/` and in the user's
// `$XDG_CONFIG_HOME/macmd/snippets/` (`~/.config/macmd/snippets/` when it is unset), and the notes
// of a notebook's snippets folder (`snippets.folder` in `.macmd.json`).
//
// Invariants: reading never fails (a folder that is not there gives no files; a file that cannot
// be read is left out); only the top of each folder is read (no walk below it); at most
// `maxFiles` files of at most 1 MB each, so a folder full of other things cannot stall the disk
// queue. A `stamp` of a folder (its own and its files' modification times and sizes) tells
// whether anything there changed since it was read.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NotebookIndex

/// A file that may hold snippets.
public struct SnippetSource: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A VS Code snippet file (`*.json`).
        case vscode
        /// A note whose front matter has `prefix:` and whose body is the snippet.
        case note
    }

    /// The absolute path.
    public var path: String
    public var kind: Kind
    public var bytes: [UInt8]

    public init(path: String, kind: Kind, bytes: [UInt8]) {
        self.path = path
        self.kind = kind
        self.bytes = bytes
    }
}

public enum SnippetFiles {
    /// The most files read from one folder.
    public static let maxFiles = 256

    /// The user's snippet folder: `$XDG_CONFIG_HOME/macmd/snippets`, else
    /// `$HOME/.config/macmd/snippets`; nil when neither variable is set.
    public static func userFolder(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), !config.isEmpty { return config + "/macmd/snippets" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.config/macmd/snippets" }
        return nil
    }

    /// The snippet folders of a notebook: its `.macmd/snippets` and its snippets folder.
    public static func folders(of notebook: NotebookFolder) -> [(path: String, kind: SnippetSource.Kind)] {
        var result: [(String, SnippetSource.Kind)] = [(notebook.absolutePath(".macmd/snippets"), .vscode)]
        if let folder = notebook.configuration.snippetsFolder { result.append((notebook.absolutePath(folder), .note)) }
        return result
    }

    /// Whether a notebook-relative path is one its snippets come from.
    public static func isSnippetPath(_ relative: String, in notebook: NotebookFolder) -> Bool {
        if relative.hasPrefix(".macmd/snippets/") && relative.hasSuffix(".json") { return true }
        if let folder = notebook.configuration.snippetsFolder, relative.hasPrefix(folder + "/") {
            return notebook.isNote(relative)
        }
        return false
    }

    /// The snippet files in `folder` (`.json` files for `.vscode`, notes by the notebook's
    /// extensions for `.note`), sorted by path.
    public static func read(folder: String, kind: SnippetSource.Kind, noteExtensions: [String] = ["md", "markdown"]) -> [SnippetSource] {
        entries(of: folder).filter { name in
            kind == .vscode ? ScanMembership.hasExtension(name, in: ["json"]) : ScanMembership.hasExtension(name, in: noteExtensions)
        }.prefix(maxFiles).compactMap { name in
            let path = folder + "/" + name
            guard case .success(let bytes) = FileReader.contents(of: path, limit: 1 << 20) else { return nil }
            return SnippetSource(path: path, kind: kind, bytes: bytes)
        }
    }

    /// What changes when anything in `folder` changes: its own modification time and its
    /// entries' names, sizes and times; nil when it is not there.
    public static func stamp(of folder: String) -> [Int64]? {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        var stamp = [FileReader.modificationTime(info)]
        for name in entries(of: folder).prefix(maxFiles) {
            var file = stat()
            if stat(folder + "/" + name, &file) == 0 {
                stamp.append(Int64(file.st_size))
                stamp.append(FileReader.modificationTime(file))
            }
        }
        return stamp
    }

    /// The names in `folder` that are not hidden, sorted.
    static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.isEmpty || name.hasPrefix(".") { continue }
            names.append(name)
        }
        return names.sorted()
    }
}
