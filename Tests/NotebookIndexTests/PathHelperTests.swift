@testable import NotebookIndex
import XCTest
import TestSupport

/// The byte-level path helpers give what their definitions (written plainly on `String` here)
/// give, on ASCII, non-ASCII, hidden names, folders, odd dots and bad escapes.
final class PathHelperTests: XCTestCase {
    static let paths = ["", "note", "note.md", "Note.MD", "a/b/c.md", "a/b/c", "a/.hidden", ".hidden", "a.b/c", "a/b.",
                        "dir/file.tar.gz", "é/Ünïcode.markdown", "日本/語.md", "a/b/", "/root.md", "x.md/", "a\\b.md",
                        "100%.md", "a%20b.md", "%E6%97%A5.md", "%FF.md", "%4", "%zz.md", "caf%C3%A9", "..", "./a.md",
                        "ΣΟΦΙΑ.md", "İstanbul.md", "x.MARKDOWN", "x.mdé", "x.MDÉ"]

    private func referenceStem(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let last = name.split(separator: "\\", omittingEmptySubsequences: false).last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    private func referenceExtension(_ path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = String(name[name.index(after: dot)...])
        return ext.isEmpty ? nil : ext
    }

    private func referenceDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                result.append(value)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(validating: result, as: UTF8.self) ?? text
    }

    func testHelpersEqualTheirDefinitions() {
        for path in PathHelperTests.paths {
            XCTAssertEqual(NotebookPath.fileStem(of: path), referenceStem(path), path)
            XCTAssertEqual(NotebookPath.pathExtension(path), referenceExtension(path), path)
            let expectedBare: String
            if let ext = referenceExtension(path), ["md", "markdown", "mdé"].contains(ext.lowercased()) {
                expectedBare = String(path.dropLast(ext.count + 1))
            } else {
                expectedBare = path
            }
            XCTAssertEqual(NotebookPath.removingExtension(path, ["md", "markdown", "mdé"]), expectedBare, path)
            XCTAssertEqual(NotebookPath.percentDecoded(path), referenceDecoded(path), path)
            XCTAssertEqual(path.folded, path.lowercased(), path)
        }
    }
}

/// A catalog table's path list behaves as a sorted set, whatever order paths come and go in.
final class PathListTests: XCTestCase {
    func testPathListIsASortedSet() {
        var generator = SeededGenerator(state: 42)
        func next(_ bound: Int) -> Int { generator.next(bound) }
        let pool = ["a.md", "b/a.md", "B.md", "é.md", "z/z/z.md", "a.markdown", "日.md", "m.md"]
        for _ in 0..<200 {
            var model: Set<String> = []
            var list: PathList?
            for _ in 0..<30 {
                let path = pool[next(pool.count)]
                if next(3) == 0 {
                    model.remove(path)
                    if list?.remove(path) == false { list = nil }
                } else {
                    model.insert(path)
                    if list == nil { list = next(2) == 0 ? PathList(path) : PathList() }
                    list?.insertSorted(path)
                }
                XCTAssertEqual(list.map(Array.init) ?? [], model.sorted())
            }
        }
    }
}
