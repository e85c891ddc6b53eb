// The notebook of one `macmd-bench all` size: `macmd-bench generate`'s notes, byte for byte,
// plus `hub.md`, whose heading "Hub Heading" 500 notes link twice (a wiki-link and a relative
// Markdown link), so that references, a heading rename and a file rename have 500 notes to edit
// at every size (every note links it when there are fewer than 500).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import MacMDBench

struct BenchNotebook {
    /// The folder, absolute.
    var root: String
    /// Every note's path relative to `root`, in the generator's order (`hub.md` not included).
    var notes: [String]
    /// The notes that link the hub.
    var linking: Int
    /// Bytes of Markdown written (the hub included).
    var bytes: Int

    static let hubPath = "hub.md"
    static let hubText = "# Hub\n\nThe note the benchmark's links point at.\n\n## Hub Heading\n\nEvery scenario that edits links renames this heading or this note.\n"
    /// Where "Hub Heading" is in `hubText` (UTF-16 line and column of its first letter).
    static let hubHeadingPosition = (line: 4, character: 3)
    static let linkingNotes = 500

    /// The lines a note that links the hub ends with: `depth` is the number of folders above the
    /// note inside the notebook.
    static func hubLinks(depth: Int) -> String {
        let up = String(repeating: "../", count: depth)
        return "\nSee [[hub#Hub Heading]] and [the hub](\(up)hub.md#hub-heading).\n"
    }

    /// Generates (or overwrites) the notebook of `notes` notes in `root`.
    static func write(root: String, notes: Int, seed: UInt64) -> BenchNotebook? {
        guard BenchCommand.makeDirectories(root) else { return nil }
        let every = max(1, notes / linkingNotes)
        var index = 0
        var linking = 0
        let written = BenchCommand.writeNotebook(root: root, notes: notes, seed: seed) { file in
            guard file.isNote else { return file.bytes }
            defer { index += 1 }
            guard index % every == 0, linking < linkingNotes else { return file.bytes }
            linking += 1
            let depth = file.path.utf8.filter { $0 == UInt8(ascii: "/") }.count
            return file.bytes + Array(hubLinks(depth: depth).utf8)
        }
        guard case .success(let notebook) = written,
              BenchCommand.writeFile(root + "/" + hubPath, Array(hubText.utf8)) else { return nil }
        return BenchNotebook(root: root, notes: notebook.notePaths, linking: linking,
                             bytes: notebook.noteSizes.reduce(0, +) + hubText.utf8.count)
    }

    func uri(_ path: String) -> String { BenchCommand.fileURI(root + "/" + path) }

    /// The text of the note at `path`.
    func text(_ path: String) -> String {
        switch StandardStreams.readInput(path: root + "/" + path) {
        case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .failure: return ""
        }
    }

    /// The relative Markdown link from the note at `path` to the hub.
    func hubLink(from path: String) -> String {
        String(repeating: "../", count: path.utf8.filter { $0 == UInt8(ascii: "/") }.count) + "hub.md"
    }
}

/// A note open in the server, as the editor holds it.
struct OpenNote {
    var uri: String
    var text: String
    var version = 1

    /// The LSP position of the end of the text (UTF-16).
    var end: (line: Int, character: Int) {
        var line = 0
        var character = 0
        for unit in text.utf16 {
            if unit == 0x0A {
                line += 1
                character = 0
            } else {
                character += 1
            }
        }
        return (line, character)
    }
}
