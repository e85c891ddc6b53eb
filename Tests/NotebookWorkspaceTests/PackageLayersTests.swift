import Foundation
import TestSupport
import XCTest

/// The layers read from `Package.swift` are the layers of the code: every target names exactly
/// the modules of this package its files import (its direct dependencies, no more), the targets
/// come bottom-up (a dependency before the targets that use it), the core modules import no
/// transport, and docs/architecture.md's module table gives each module the same arrows.
final class PackageLayersTests: XCTestCase {
    struct Target: Equatable {
        var name: String
        var kind: String
        var dependencies: [String]
        var path: String
    }

    static let root = TestPaths.packageRoot

    /// The targets of `Package.swift` in the order it lists them.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [Target] = []
        var rest = manifest[...]
        while let open = rest.range(of: #"\.(target|executableTarget|testTarget|plugin)\(name: ""#, options: .regularExpression) {
            let kind = String(manifest[manifest.index(after: open.lowerBound)...].prefix { $0 != "(" })
            let afterName = rest[open.upperBound...]
            guard let quote = afterName.firstIndex(of: "\"") else { break }
            let name = String(afterName[..<quote])
            // The call's text runs to the next target (dependencies never hold a `.target(`).
            let next = afterName.range(of: #"\.(target|executableTarget|testTarget|plugin)\(name: ""#, options: .regularExpression)
            let call = afterName[..<(next?.lowerBound ?? afterName.endIndex)]
            var dependencies: [String] = []
            if let list = call.range(of: "dependencies: [") {
                let inside = call[list.upperBound...].prefix { $0 != "]" }
                dependencies = inside.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }.filter { !$0.isEmpty }
            }
            var path = (kind == "testTarget" ? "Tests/" : kind == "plugin" ? "Plugins/" : "Sources/") + name
            if let given = call.range(of: #"path: ""#) {
                path = String(call[given.upperBound...].prefix { $0 != "\"" })
            }
            targets.append(Target(name: name, kind: kind, dependencies: dependencies, path: path))
            rest = afterName[quote...]
        }
        return targets
    }

    /// The modules `import`ed by the Swift files under `path` (code only: not inside `"""`
    /// literals, which hold programs in other languages).
    static func imports(under path: String) throws -> Set<String> {
        let directory = root.appendingPathComponent(path)
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var modules: Set<String> = []
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            var inLiteral = false
            for line in text.split(separator: "\n") {
                if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inLiteral.toggle(); continue }
                guard !inLiteral else { continue }
                var words = line.split(separator: " ")
                while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
                if words.count == 2, words[0] == "import" { modules.insert(String(words[1])) }
            }
        }
        return modules
    }

    func testEveryTargetDependsOnExactlyWhatItImports() throws {
        let targets = try Self.targets()
        XCTAssertGreaterThan(targets.count, 20, "Package.swift read: \(targets.map(\.name))")
        let ours = Set(targets.map(\.name))
        for target in targets where target.kind != "plugin" {
            let imported = try Self.imports(under: target.path).intersection(ours).subtracting([target.name])
            XCTAssertEqual(Set(target.dependencies).subtracting(["BuildInfoPlugin", "CatalogPlugin"]), imported,
                           "\(target.name): Package.swift lists \(target.dependencies.sorted()); its files import \(imported.sorted())")
        }
    }

    func testTargetsAreListedBottomUp() throws {
        let targets = try Self.targets()
        var seen: Set<String> = []
        for target in targets {
            for dependency in target.dependencies {
                XCTAssertTrue(seen.contains(dependency), "\(target.name) comes before its dependency \(dependency) in Package.swift")
            }
            seen.insert(target.name)
        }
    }

    /// The core modules read no transport: they see JSON as a value, never JSON-RPC or LSP.
    func testCoreModulesKnowNoTransport() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0) })
        for core in ["TextCore", "JSON", "Themes", "MarkdownSyntax", "TeXMath", "MarkdownHTML", "NotebookIndex", "NotebookWorkspace", "NotebookIDE"] {
            let target = try XCTUnwrap(targets[core], "Package.swift has a target \(core)")
            for transport in ["JSONRPC", "LSPTypes", "MacMDServer"] {
                XCTAssertFalse(target.dependencies.contains(transport), "\(core) depends on \(transport)")
            }
        }
        XCTAssertEqual(targets["Themes"]?.dependencies, [], "Themes is a leaf")
        XCTAssertFalse(targets["NotebookWorkspace"]?.dependencies.contains("MarkdownHTML") ?? true,
                       "NotebookWorkspace does not depend on the renderer")
    }

    /// docs/architecture.md's table "The arrows in `Package.swift`" has one row per module and
    /// plugin, and each row's "Depends on" is the target's dependency list (remarks in
    /// parentheses aside).
    func testArchitectureTableMatchesThePackage() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in doc.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            var depends = cells[2]
            while let open = depends.firstIndex(of: "("), let close = depends[open...].firstIndex(of: ")") {
                depends.removeSubrange(open...close)
            }
            rows[name] = Set(depends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "—" })
        }
        let targets = try Self.targets().filter { $0.kind != "testTarget" && $0.name != "TestSupport" }
        XCTAssertEqual(Set(rows.keys), Set(targets.map(\.name)), "docs/architecture.md's table lists the modules and plugins of Package.swift")
        for target in targets {
            let declared = Set(target.dependencies).subtracting(["BuildInfoPlugin", "CatalogPlugin"])
            XCTAssertEqual(rows[target.name], declared,
                           "docs/architecture.md: `\(target.name)` depends on \(declared.sorted()) in Package.swift")
        }
    }
}
