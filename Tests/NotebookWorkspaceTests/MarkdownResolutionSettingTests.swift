import JSON
import NotebookIndex
import TestSupport
import XCTest
@testable import NotebookWorkspace

/// `links.markdownResolution`: how Markdown links whose path reaches nothing are read, by default
/// as the notebook's root says (a vault's `.obsidian` folder), else as configured.
final class MarkdownResolutionSettingTests: XCTestCase {
    private func configuration(_ value: JSONValue) -> NotebookConfiguration {
        NotebookConfiguration(layers: [ConfigurationLayer(source: "test", value: value)])
    }

    func testTheKeyTakesRelativeOrObsidianAndRefusesAnythingElse() {
        XCTAssertEqual(configuration([:]).markdownResolution, .relative)
        XCTAssertEqual(configuration(["links": ["markdownResolution": "obsidian"]]).markdownResolution, .obsidian)
        XCTAssertEqual(configuration(["links": ["markdownResolution": "relative"]]).markdownResolution, .relative)
        let bad = configuration(["links": ["markdownResolution": "nearest", "style": "wiki"]])
        XCTAssertEqual(bad.markdownResolution, .relative)
        XCTAssertEqual(bad.problems.map(\.reason.english), ["`links.markdownResolution`: expected \"relative\" or \"obsidian\", got \"nearest\"",
                                                    "unknown key `links.style` ignored"])
        XCTAssertEqual(configuration(["links": "obsidian"]).problems.map(\.reason.english),
                       ["`links` must be an object such as {\"markdownResolution\": \"obsidian\"}"])
    }

    func testAVaultDefaultsToObsidianAndTheKeyWins() {
        let vault = NotebookFixture([".obsidian/app.json": "{}\n", "Home.md": "[r](Recipe%20Book.md)\n",
                                     "cooking/Recipe Book.md": "# Recipes\n"])
        defer { vault.destroy() }
        let (folder, _, _) = NotebookFolder.indexed(path: vault.root)
        XCTAssertEqual(folder.configuration.markdownResolution, .obsidian)
        XCTAssertEqual(folder.notebook.markdownResolution, .obsidian)
        XCTAssertEqual(folder.notebook.diagnostics(for: "Home.md"), [], "the link finds its note by name")

        vault.write(".macmd.json", #"{"links": {"markdownResolution": "relative"}}"#)
        let (relative, _, _) = NotebookFolder.indexed(path: vault.root)
        XCTAssertEqual(relative.notebook.markdownResolution, .relative)
        XCTAssertEqual(relative.notebook.diagnostics(for: "Home.md").map(\.code), [.brokenLink])

        let plain = NotebookFixture(["Home.md": "[r](Recipe%20Book.md)\n", "cooking/Recipe Book.md": "# Recipes\n"])
        defer { plain.destroy() }
        XCTAssertEqual(NotebookFolder.indexed(path: plain.root).folder.notebook.markdownResolution, .relative)
        plain.write(".macmd.json", #"{"links": {"markdownResolution": "obsidian"}}"#)
        XCTAssertEqual(NotebookFolder.indexed(path: plain.root).folder.notebook.markdownResolution, .obsidian)
    }

    /// Settings that change at run time change how links resolve at once.
    func testChangedSettingsReResolveEveryLink() {
        var folder = NotebookFolder(path: "/notebook", singleFolder: false)
        XCTAssertEqual(folder.notebook.markdownResolution, .relative)
        let revision = folder.catalogRevision
        let layer = ConfigurationLayer(source: "editor", value: ["links": ["markdownResolution": "obsidian"]])
        folder.adopt(FolderSettings(resolvedPath: "/notebook", configuration: NotebookConfiguration(layers: [layer])))
        XCTAssertEqual(folder.notebook.markdownResolution, .obsidian)
        XCTAssertNotEqual(folder.catalogRevision, revision, "every link may resolve anew")
    }
}
