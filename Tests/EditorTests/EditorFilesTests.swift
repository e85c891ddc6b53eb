// The editor setups in editors/ are well-formed: VS Code's manifest parses and names what the
// extension uses, Helix runs `macmd lsp`, Emacs registers it with eglot, and every setup knows
// the same preview themes as the server.

import Foundation
import TestSupport
import XCTest

final class EditorFilesTests: XCTestCase {
    static let editors = TestPaths.packageRoot.appendingPathComponent("editors")

    /// The themes `macmd/preview` accepts (issue 3); each editor offers exactly these.
    static let themes = ["light", "dark", "basic", "grass", "homebrew", "man-page", "novel", "ocean",
                         "pro", "red-sands", "silver-aerogel", "solid-colors"]

    /// What marks a notebook's root, in every setup (and in the server: `NotebookFolder.rootMarkers`).
    static let rootMarkers = [".macmd.json", ".obsidian", ".git", ".marksman.toml", ".moxide.toml", "book.toml", "mkdocs.yml"]

    func testEverySetupKnowsTheRootMarkers() throws {
        let helix = try Self.read("helix/languages.toml")
        XCTAssertTrue(helix.contains("roots = [" + Self.rootMarkers.map { "\"\($0)\"" }.joined(separator: ", ") + "]"), helix)
        let nvim = try Self.read("nvim/lua/macmd/init.lua")
        XCTAssertTrue(nvim.contains("root_markers = { " + Self.rootMarkers.map { "'\($0)'" }.joined(separator: ", ") + " }"))
        let emacs = try Self.read("emacs/macmd.el")
        XCTAssertTrue(emacs.contains("(defconst macmd-root-markers '(" + Self.rootMarkers.map { "\"\($0)\"" }.joined(separator: " ") + ")"))
        XCTAssertTrue(emacs.contains("(add-hook 'project-find-functions #'macmd-project-find -90)"))
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: editors.appendingPathComponent(path), encoding: .utf8)
    }

    func testVSCodeManifest() throws {
        let data = try Data(contentsOf: Self.editors.appendingPathComponent("vscode/package.json"))
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(manifest["name"] as? String, "macmd")
        XCTAssertEqual(manifest["main"] as? String, "./extension.js")
        let engines = try XCTUnwrap(manifest["engines"] as? [String: Any])
        XCTAssertEqual(engines["vscode"] as? String, "^1.82.0")
        XCTAssertEqual(manifest["activationEvents"] as? [String], ["onLanguage:markdown"])
        let dependencies = try XCTUnwrap(manifest["dependencies"] as? [String: Any])
        XCTAssertTrue((dependencies["vscode-languageclient"] as? String ?? "").hasPrefix("^9."))

        let contributes = try XCTUnwrap(manifest["contributes"] as? [String: Any])
        let commands = try XCTUnwrap(contributes["commands"] as? [[String: Any]])
        XCTAssertTrue(commands.contains { $0["command"] as? String == "macmd.preview" })
        let configuration = try XCTUnwrap(contributes["configuration"] as? [String: Any])
        let properties = try XCTUnwrap(configuration["properties"] as? [String: Any])
        let path = try XCTUnwrap(properties["macmd.path"] as? [String: Any])
        XCTAssertEqual(path["default"] as? String, "macmd")
        let theme = try XCTUnwrap(properties["macmd.preview.theme"] as? [String: Any])
        // Empty by default: the notebook's theme applies unless the user sets one.
        XCTAssertEqual(theme["enum"] as? [String], [""] + Self.themes)
        XCTAssertEqual(theme["default"] as? String, "")

        // `.macmd.json` gets completion and checks from the schema, which ships in the extension
        // folder (vsce packages nothing outside it; ConfigurationSchemaTests keeps the copy equal).
        let validation = try XCTUnwrap(contributes["jsonValidation"] as? [[String: Any]])
        XCTAssertEqual(validation.count, 1)
        XCTAssertEqual(validation.first?["fileMatch"] as? [String], [".macmd.json"])
        XCTAssertEqual(validation.first?["url"] as? String, "./macmd.schema.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.editors.appendingPathComponent("vscode/macmd.schema.json").path))

        // Format-on-type is off by default in VS Code: the extension turns it on for Markdown,
        // so Enter continues lists there.
        let defaults = try XCTUnwrap(contributes["configurationDefaults"] as? [String: Any])
        let markdown = try XCTUnwrap(defaults["[markdown]"] as? [String: Any])
        XCTAssertEqual(markdown["editor.formatOnType"] as? Bool, true)

        let ignored = try Self.read("vscode/.vscodeignore").split(separator: "\n").filter { !$0.hasPrefix("#") }
        for pattern in ["extension.js", "*.js", "package.json", "node_modules/**", "media/**", "media/preview.js"] {
            XCTAssertFalse(ignored.contains { $0.hasSuffix(pattern) }, "the package must ship \(pattern)")
        }
        XCTAssertTrue(ignored.contains("test/**"), "the Node tests are not shipped")
    }

    func testVSCodeExtensionUsesTheLanguageClientAsDocumented() throws {
        let source = try Self.read("vscode/extension.js")
        // What it does with them is tested in Node (VSCodeExtensionTests).
        for needle in ["require('vscode-languageclient/node')", "new LanguageClient(", "args: ['lsp']",
                       "language: 'markdown'", "'macmd/preview'", "fullPage: true",
                       "onDidChangeTextDocument", "DEBOUNCE_MS = 150",
                       "default-src 'none'; img-src ${cspSource} data:;", "script-src 'nonce-${nonce}';", "enableScripts: true",
                       "localResourceRoots: resourceRoots(document, extensionUri)", "baseUri",
                       "onDidChangeTextEditorVisibleRanges", "onDidChangeTextEditorSelection", "vscode.env.openExternal",
                       "module.exports = { activate, deactivate"] {
            XCTAssertTrue(source.contains(needle), "extension.js lacks \(needle)")
        }
    }

    func testHelixRunsMacmdForMarkdown() throws {
        let toml = try Self.read("helix/languages.toml")
        XCTAssertTrue(toml.contains("[language-server.macmd]"))
        XCTAssertTrue(toml.contains(#"command = "macmd""#))
        XCTAssertTrue(toml.contains(#"args = ["lsp"]"#))
        XCTAssertTrue(toml.contains(#"name = "markdown""#))
        XCTAssertTrue(toml.contains(#"language-servers = ["macmd"]"#), "macmd alone by default, no marksman")
        XCTAssertTrue(toml.hasPrefix("# MacMD for Helix: lines to MERGE into your languages.toml, not a file to copy"))
    }

    func testEmacsRegistersWithEglotAndLSPModeAndPreviews() throws {
        let lisp = try Self.read("emacs/macmd.el")
        XCTAssertTrue(lisp.contains("'eglot-server-programs") && lisp.contains("macmd--eglot-contact"), "registered with eglot")
        XCTAssertTrue(lisp.contains("(lsp-register-client") && lisp.contains(":server-id 'macmd"), "registered with lsp-mode")
        XCTAssertTrue(lisp.contains("(defun macmd-preview"))
        XCTAssertTrue(lisp.contains("(macmd--request-async\n     \"macmd/preview\""), "the preview does not block Emacs")
        XCTAssertTrue(lisp.contains("(browse-url (macmd--page-url"))
        XCTAssertTrue(lisp.contains(#"(:fullPage t :resources "absolute")"#))
        XCTAssertTrue(lisp.contains("(provide 'macmd)"))
        XCTAssertEqual(try Self.parenthesisBalance(lisp), 0, "macmd.el's parentheses balance")
        for theme in Self.themes { XCTAssertTrue(lisp.contains("\"\(theme)\""), "macmd.el lacks \(theme)") }
    }

    func testNeovimPluginFilesAndThemes() throws {
        let plugin = try Self.read("nvim/lua/macmd/init.lua")
        for theme in Self.themes { XCTAssertTrue(plugin.contains("'\(theme)'"), "init.lua lacks \(theme)") }
        XCTAssertTrue(plugin.contains("nvim_create_user_command('MacMDPreview'"))
        let discovery = try Self.read("nvim/lsp/macmd.lua")
        XCTAssertTrue(discovery.contains("require('macmd').lsp_config()"))
    }

    /// The semantic tokens' types and modifiers of docs/lsp.md's legend (the server's,
    /// `SemanticToken.Kind` and `Modifiers`): Neovim's plugin links the groups the docs
    /// suggest, and VS Code's manifest declares the custom types and modifiers and gives each
    /// type a TextMate scope.
    func testSemanticTokenGroupsFollowTheLegend() throws {
        let types = ["link", "heading", "blockId", "tag", "property", "math"]
        let modifiers = ["resolved", "unresolved", "ambiguous", "embed", "declaration"]
        let docs = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/lsp.md"), encoding: .utf8)
        for name in types + modifiers { XCTAssertTrue(docs.contains("`\(name)`"), "docs/lsp.md lacks \(name)") }
        // The links, one a line, `['@lsp…'] = 'group',` in both.
        func links(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("['@lsp.") }.sorted()
        }
        let plugin = try Self.read("nvim/lua/macmd/init.lua")
        XCTAssertEqual(links(plugin), links(docs), "the plugin links the groups docs/lsp.md suggests")
        XCTAssertFalse(links(plugin).isEmpty)
        for line in links(plugin) {
            let group = line.dropFirst(2).prefix { $0 != "'" }.split(separator: ".")
            XCTAssertTrue(types.contains(String(group[2])) || modifiers.contains(String(group[2])), "\(line) names no token type or modifier")
        }

        let data = try Data(contentsOf: Self.editors.appendingPathComponent("vscode/package.json"))
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let contributes = try XCTUnwrap(manifest["contributes"] as? [String: Any])
        let declaredTypes = (contributes["semanticTokenTypes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        // `property` is one of LSP's own types, which VS Code knows.
        XCTAssertEqual(declaredTypes, types.filter { $0 != "property" })
        let declaredModifiers = (contributes["semanticTokenModifiers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        XCTAssertEqual(declaredModifiers, modifiers.filter { $0 != "declaration" })
        let scopes = try XCTUnwrap((contributes["semanticTokenScopes"] as? [[String: Any]])?.first)
        XCTAssertEqual(scopes["language"] as? String, "markdown")
        let mapped = try XCTUnwrap(scopes["scopes"] as? [String: [String]])
        for type in declaredTypes { XCTAssertNotNil(mapped[type], "no TextMate scope for \(type)") }
        XCTAssertEqual(mapped["link.unresolved"]?.first?.hasPrefix("invalid.illegal"), true)
    }

    /// Open minus closed parentheses outside strings, comments and character literals; throws on
    /// a close before its open.
    static func parenthesisBalance(_ lisp: String) throws -> Int {
        var depth = 0
        var inString = false
        var inComment = false
        var escaped = false
        var previous: UInt8 = 0
        for byte in lisp.utf8 {
            defer { previous = byte }
            if inComment { if byte == UInt8(ascii: "\n") { inComment = false }; continue }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if previous == UInt8(ascii: "?") { continue } // ?( and ?) are characters
            switch byte {
            case UInt8(ascii: ";"): inComment = true
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth < 0 { throw TestSupportError("a `)` closes nothing") }
            default: break
            }
        }
        return depth
    }
}
