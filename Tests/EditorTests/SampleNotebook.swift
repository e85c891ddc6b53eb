// What the editor tests read of the sample notebook (Fixtures/notebook) to know what to expect.

import Foundation
import TestSupport

enum SampleNotebook {
    static let root = TestPaths.fixtures.appendingPathComponent("notebook")

    /// The notes (paths from the root, sorted) whose text contains `needle`.
    static func notes(containing needle: String) -> [String] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "md", let text = try? String(contentsOf: url, encoding: .utf8),
                  text.contains(needle) else { continue }
            found.append(String(url.path.dropFirst(root.path.count + 1)))
        }
        return found.sorted()
    }
}
