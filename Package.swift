// swift-tools-version:6.0
import PackageDescription

// MacMD has no package dependencies: the toolchain's own libraries are all it uses.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "MacMD",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "macmd", targets: ["macmd"]),
    ],
    targets: [
        .target(name: "TextCore", swiftSettings: strict),
        .target(name: "MarkdownSyntax", dependencies: ["TextCore"], swiftSettings: strict),
        // TeX to MathML Core for the maths of notes; MarkdownHTML renders maths with it.
        .target(name: "TeXMath", dependencies: ["TextCore"], swiftSettings: strict),
        .target(name: "MarkdownHTML", dependencies: ["TextCore", "MarkdownSyntax", "TeXMath"], swiftSettings: strict),
        // NotebookIndex checks the maths of notes with TeXMath (`math-error`).
        .target(name: "NotebookIndex", dependencies: ["TextCore", "MarkdownSyntax", "TeXMath"], swiftSettings: strict),
        .target(name: "NotebookWorkspace", dependencies: ["TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "JSONRPC"], swiftSettings: strict),
        .target(name: "NotebookIDE", dependencies: ["TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "NotebookWorkspace", "JSONRPC"], swiftSettings: strict),
        .target(name: "JSONRPC", swiftSettings: strict),
        // The writer's language: locale choice, CLDR plurals, the compiled-in string catalog.
        .target(name: "Localization", swiftSettings: strict),
        .target(name: "LSPTypes", dependencies: ["JSONRPC", "TextCore"], swiftSettings: strict),
        .target(name: "MacMDServer", dependencies: ["JSONRPC", "LSPTypes", "TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "NotebookWorkspace", "NotebookIDE"], swiftSettings: strict),
        .target(name: "MacMDBench", dependencies: ["MarkdownSyntax", "MarkdownHTML"], swiftSettings: strict),
        // `BuildInfoPlugin` writes the commit of the checkout into `macmd` (`macmd --version`).
        .executableTarget(name: "macmd", dependencies: ["TextCore", "MarkdownSyntax", "MarkdownHTML", "TeXMath", "MacMDBench", "MacMDServer", "JSONRPC", "LSPTypes", "NotebookIDE", "NotebookIndex", "NotebookWorkspace"], swiftSettings: strict,
                          plugins: ["BuildInfoPlugin"]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // Shared by the test targets: fixtures (`//- /path.md`, `$0` markers), notebooks on disk, golden files.
        .target(name: "TestSupport", dependencies: ["JSONRPC"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "NotebookIDETests", dependencies: ["NotebookIDE", "NotebookIndex", "NotebookWorkspace", "MarkdownSyntax", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NotebookIndexTests", dependencies: ["NotebookIndex", "MarkdownSyntax", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MacMDServerTests", dependencies: ["MacMDServer", "JSONRPC", "LSPTypes", "TextCore", "NotebookIndex", "NotebookWorkspace", "MarkdownHTML", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NotebookWorkspaceTests", dependencies: ["NotebookWorkspace", "NotebookIndex", "NotebookIDE", "MarkdownHTML", "JSONRPC", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TextCoreTests", dependencies: ["TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TeXMathTests", dependencies: ["TeXMath", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownSyntaxTests", dependencies: ["MarkdownSyntax", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LSPTypesTests", dependencies: ["LSPTypes", "JSONRPC", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownHTMLTests", dependencies: ["MarkdownSyntax", "MarkdownHTML", "MacMDBench", "NotebookIndex", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(name: "EditorTests", dependencies: ["TestSupport"], swiftSettings: strict),
    ]
)
