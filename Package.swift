// swift-tools-version:6.0
import PackageDescription

// MacMD has no package dependencies: the toolchain's own libraries are all it uses.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "MacMD",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "macmd", targets: ["macmd"]),
        .executable(name: "macmd-bench", targets: ["macmd-bench"]),
    ],
    targets: [
        .target(name: "TextCore", dependencies: ["Locks"], swiftSettings: strict),
        // A lock the thread sanitizer understands (`Locked`), for every module that shares state.
        .target(name: "Locks", swiftSettings: strict),
        .target(name: "MarkdownSyntax", dependencies: ["TextCore", "Localization"], swiftSettings: strict),
        // TeX to MathML Core for the maths of notes; MarkdownHTML renders maths with it.
        .target(name: "TeXMath", dependencies: ["TextCore", "Localization"], swiftSettings: strict),
        .target(name: "MarkdownHTML", dependencies: ["TextCore", "MarkdownSyntax", "TeXMath", "Localization"], swiftSettings: strict),
        // NotebookIndex checks the maths of notes with TeXMath (`math-error`).
        .target(name: "NotebookIndex", dependencies: ["TextCore", "MarkdownSyntax", "TeXMath", "Localization"], swiftSettings: strict),
        .target(name: "NotebookWorkspace", dependencies: ["Locks", "TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "JSONRPC", "Localization"], swiftSettings: strict),
        .target(name: "NotebookIDE", dependencies: ["Locks", "TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "NotebookWorkspace", "JSONRPC", "Localization"], swiftSettings: strict),
        .target(name: "JSONRPC", dependencies: ["Localization", "Locks"], swiftSettings: strict),
        // The writer's language: locale choice, CLDR plurals, the compiled-in string catalog.
        // `CatalogPlugin` compiles its string catalog, `Localizable.xcstrings`, into the module.
        .target(name: "Localization", dependencies: ["Locks"], exclude: ["Localizable.xcstrings"], swiftSettings: strict, plugins: ["CatalogPlugin"]),
        .target(name: "LSPTypes", dependencies: ["JSONRPC", "TextCore", "Localization"], swiftSettings: strict),
        .target(name: "MacMDServer", dependencies: ["Locks", "JSONRPC", "LSPTypes", "TextCore", "MarkdownSyntax", "MarkdownHTML", "NotebookIndex", "NotebookWorkspace", "NotebookIDE", "Localization"], swiftSettings: strict),
        // The benchmarks' inputs, and a note served as the server serves it (`ServedNote`).
        .target(name: "MacMDBench", dependencies: ["JSONRPC", "Localization", "MarkdownSyntax", "MarkdownHTML", "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "TextCore"],
                swiftSettings: strict),
        // The figures of `macmd-bench all` as data: JSON, the Markdown table, the SVG plots.
        .target(name: "BenchReport", dependencies: ["JSONRPC"], swiftSettings: strict),
        // Seeded fuzzing of every reader of untrusted input: `swift test` runs a small budget,
        // `macmd-bench fuzz` runs for hours.
        .target(name: "MacMDFuzz", dependencies: ["JSONRPC", "LSPTypes", "MacMDServer", "MarkdownSyntax", "MarkdownHTML", "NotebookIDE", "NotebookIndex", "TeXMath", "TextCore"], swiftSettings: strict),
        // `BuildInfoPlugin` writes the commit of the checkout into `macmd` (`macmd --version`).
        // A release build on Linux links the Swift runtime into the binary: `macmd` then runs on a
        // machine without the toolchain, starts ~1 ms sooner (no Swift libraries to load and bind)
        // and holds ~2 MB less (docs/performance.md, "The index's memory"). Debug and sanitizer
        // builds link it as a library, as the toolchain does by default.
        // The standard streams of both executables: whole-buffer reads and writes.
        .target(name: "CommandLineIO", dependencies: ["Localization", "NotebookWorkspace", "TextCore"], swiftSettings: strict),
        .executableTarget(name: "macmd", dependencies: ["CommandLineIO", "TextCore", "MarkdownSyntax", "MarkdownHTML", "MacMDServer", "JSONRPC", "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "Localization"], swiftSettings: strict,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
                          plugins: ["BuildInfoPlugin"]),
        // The benchmarks, the generator, the fuzzers and the peer drivers: never linked into
        // `macmd`, which they measure (`macmd-bench all`, `macmd-bench fuzz`, …).
        .executableTarget(name: "macmd-bench", dependencies: ["CommandLineIO", "Locks", "TextCore", "MarkdownSyntax", "MarkdownHTML", "TeXMath", "MacMDBench", "BenchReport", "MacMDServer", "JSONRPC", "LSPTypes", "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "Localization", "MacMDFuzz"], swiftSettings: strict,
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        .plugin(name: "CatalogPlugin", capability: .buildTool()),
        // Shared by the test targets: fixtures (`//- /path.md`, `$0` markers), notebooks on disk, golden files.
        .target(name: "TestSupport", dependencies: ["JSONRPC"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "NotebookIDETests", dependencies: ["Localization", "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "MarkdownSyntax", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NotebookIndexTests", dependencies: ["Localization", "NotebookIndex", "MarkdownSyntax", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MacMDServerTests", dependencies: ["Localization", "MacMDServer", "JSONRPC", "LSPTypes", "TextCore", "NotebookIndex", "NotebookWorkspace", "MarkdownHTML", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NotebookWorkspaceTests", dependencies: ["Localization", "NotebookWorkspace", "NotebookIndex", "NotebookIDE", "MarkdownHTML", "JSONRPC", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TextCoreTests", dependencies: ["TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TeXMathTests", dependencies: ["TeXMath", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownSyntaxTests", dependencies: ["MarkdownSyntax", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "Localization", "MacMDBench", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LSPTypesTests", dependencies: ["LSPTypes", "Localization", "JSONRPC", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownHTMLTests", dependencies: ["MarkdownSyntax", "MarkdownHTML", "MacMDBench", "NotebookIndex", "TextCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "BenchReportTests", dependencies: ["BenchReport", "JSONRPC", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LocksTests", dependencies: ["Locks"], swiftSettings: strict),
        .testTarget(name: "FuzzTests", dependencies: ["MacMDFuzz", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(name: "EditorTests", dependencies: ["TestSupport"], swiftSettings: strict),
    ]
)
