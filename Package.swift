// swift-tools-version:6.0
import PackageDescription

// MacMD has no package dependencies: the toolchain's own libraries are all it uses.
//
// Targets are listed bottom-up, layer by layer, each with its direct dependencies only (the
// modules its files import). docs/architecture.md draws the same arrows, and
// `PackageLayersTests` fails when either drifts from the imports.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// A release build on Linux links the Swift runtime into the executables: `macmd` then runs on a
// machine without the toolchain, starts ~1 ms sooner (no Swift libraries to load and bind) and
// holds ~2 MB less (docs/performance.md, "The index's memory"). Debug and sanitizer builds link
// it as a library, as the toolchain does by default.
let staticRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]

let package = Package(
    name: "MacMD",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "macmd", targets: ["macmd"]),
        .executable(name: "macmd-bench", targets: ["macmd-bench"]),
    ],
    targets: [
        // MARK: Leaves

        // A lock the thread sanitizer understands (`Locked`), for every module that shares state.
        .target(name: "Locks", swiftSettings: strict),
        // The preview's colour themes: names, palettes, the one stylesheet.
        .target(name: "Themes", swiftSettings: strict),
        // Bytes, lines, slugs and byte ranges; a lock for `LineIndex`'s shared column cache.
        .target(name: "TextCore", dependencies: ["Locks"], swiftSettings: strict),
        // The writer's language: locale choice, CLDR plurals, the compiled-in string catalog.
        // `CatalogPlugin` compiles its string catalog, `Localizable.xcstrings`, into the module.
        .target(name: "Localization", dependencies: ["Locks"], exclude: ["Localizable.xcstrings"],
                swiftSettings: strict, plugins: ["CatalogPlugin"]),
        // JSON values, parser, writer and escaping; its errors are sentences for writers.
        .target(name: "JSON", dependencies: ["Localization"], swiftSettings: strict),

        // MARK: Markdown

        .target(name: "MarkdownSyntax", dependencies: ["Localization", "TextCore"], swiftSettings: strict),
        // TeX to MathML Core for the maths of notes; MarkdownHTML renders maths with it.
        .target(name: "TeXMath", dependencies: ["Localization", "TextCore"], swiftSettings: strict),
        .target(name: "MarkdownHTML", dependencies: ["Localization", "MarkdownSyntax", "TeXMath", "TextCore", "Themes"],
                swiftSettings: strict),

        // MARK: The notebook

        // NotebookIndex checks the maths of notes with TeXMath (`math-error`).
        .target(name: "NotebookIndex", dependencies: ["Localization", "Locks", "MarkdownSyntax", "TeXMath", "TextCore"],
                swiftSettings: strict),
        .target(name: "NotebookWorkspace",
                dependencies: ["JSON", "Localization", "Locks", "MarkdownSyntax", "NotebookIndex", "TextCore", "Themes"],
                swiftSettings: strict),
        .target(name: "NotebookIDE",
                dependencies: ["JSON", "Localization", "Locks", "MarkdownHTML", "MarkdownSyntax", "NotebookIndex",
                               "NotebookWorkspace", "TextCore", "Themes"],
                swiftSettings: strict),

        // MARK: The protocol and the server

        .target(name: "JSONRPC", dependencies: ["JSON", "Localization", "Locks"], swiftSettings: strict),
        .target(name: "LSPTypes", dependencies: ["JSON", "JSONRPC", "Localization", "TextCore"], swiftSettings: strict),
        .target(name: "MacMDServer",
                dependencies: ["JSON", "JSONRPC", "LSPTypes", "Localization", "Locks", "MarkdownHTML", "MarkdownSyntax",
                               "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "TextCore", "Themes"],
                swiftSettings: strict),

        // MARK: The executables

        // The standard streams of both executables: whole-buffer reads and writes.
        .target(name: "CommandLineIO", dependencies: ["Localization", "NotebookWorkspace", "TextCore"], swiftSettings: strict),
        // `BuildInfoPlugin` writes the commit of the checkout into `macmd` (`macmd --version`).
        .executableTarget(name: "macmd",
                          dependencies: ["CommandLineIO", "JSON", "JSONRPC", "Localization", "MacMDServer", "MarkdownHTML",
                                         "MarkdownSyntax", "NotebookIDE", "NotebookIndex", "NotebookWorkspace", "TextCore",
                                         "Themes"],
                          swiftSettings: strict, linkerSettings: staticRuntime, plugins: ["BuildInfoPlugin"]),

        // MARK: The benchmarks (never linked into `macmd`)

        // The benchmarks' inputs, and a note served as the server serves it (`ServedNote`).
        .target(name: "MacMDBench",
                dependencies: ["JSON", "JSONRPC", "Localization", "MarkdownHTML", "MarkdownSyntax", "NotebookIDE",
                               "NotebookIndex", "NotebookWorkspace", "TextCore"],
                swiftSettings: strict),
        // The figures of `macmd-bench all` as data: JSON, the Markdown table, the SVG plots.
        .target(name: "BenchReport", dependencies: ["JSON"], swiftSettings: strict),
        // Seeded fuzzing of every reader of untrusted input: `swift test` runs a small budget,
        // `macmd-bench fuzz` runs for hours.
        .target(name: "MacMDFuzz",
                dependencies: ["JSON", "JSONRPC", "LSPTypes", "MacMDServer", "MarkdownHTML", "MarkdownSyntax", "NotebookIDE",
                               "NotebookIndex", "TeXMath", "TextCore"],
                swiftSettings: strict),
        // The benchmarks, the generator, the fuzzers and the peer drivers, measuring the `macmd`
        // built beside them (`macmd-bench all`, `macmd-bench fuzz`, …).
        .executableTarget(name: "macmd-bench",
                          dependencies: ["BenchReport", "CommandLineIO", "JSON", "JSONRPC", "LSPTypes", "Locks", "MacMDBench",
                                         "MacMDFuzz", "MacMDServer", "MarkdownHTML", "MarkdownSyntax", "NotebookIDE",
                                         "NotebookIndex", "NotebookWorkspace", "TeXMath"],
                          swiftSettings: strict, linkerSettings: staticRuntime),

        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        .plugin(name: "CatalogPlugin", capability: .buildTool()),

        // MARK: Tests

        // Shared by the test targets: fixtures (`//- /path.md`, `$0` markers), notebooks on disk, golden files.
        .target(name: "TestSupport", dependencies: ["JSON"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(name: "LocksTests", dependencies: ["Locks"], swiftSettings: strict),
        .testTarget(name: "TextCoreTests", dependencies: ["TestSupport", "TextCore"], swiftSettings: strict),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"], swiftSettings: strict),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownSyntaxTests", dependencies: ["MarkdownSyntax", "TestSupport", "TextCore"], swiftSettings: strict),
        .testTarget(name: "TeXMathTests", dependencies: ["TeXMath", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MarkdownHTMLTests",
                    dependencies: ["MacMDBench", "MarkdownHTML", "MarkdownSyntax", "NotebookIndex", "TestSupport", "TextCore",
                                   "Themes"],
                    swiftSettings: strict),
        .testTarget(name: "NotebookIndexTests", dependencies: ["MarkdownSyntax", "NotebookIndex", "TestSupport", "TextCore"],
                    swiftSettings: strict),
        .testTarget(name: "NotebookWorkspaceTests",
                    dependencies: ["JSON", "Localization", "MacMDBench", "MarkdownHTML", "MarkdownSyntax", "NotebookIDE",
                                   "NotebookIndex", "NotebookWorkspace", "TestSupport", "TextCore", "Themes"],
                    swiftSettings: strict),
        .testTarget(name: "NotebookIDETests",
                    dependencies: ["Localization", "MarkdownHTML", "MarkdownSyntax", "NotebookIDE", "NotebookIndex",
                                   "NotebookWorkspace", "TestSupport", "TextCore"],
                    swiftSettings: strict),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSON", "JSONRPC", "Localization", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LSPTypesTests", dependencies: ["JSON", "JSONRPC", "LSPTypes"], swiftSettings: strict),
        .testTarget(name: "MacMDServerTests",
                    dependencies: ["JSON", "JSONRPC", "LSPTypes", "Localization", "MacMDServer", "MarkdownHTML", "MarkdownSyntax",
                                   "NotebookIndex", "NotebookWorkspace", "TestSupport", "TextCore", "Themes"],
                    swiftSettings: strict),
        .testTarget(name: "BenchReportTests", dependencies: ["BenchReport", "MacMDBench", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "FuzzTests", dependencies: ["MacMDFuzz", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "EditorTests", dependencies: ["TestSupport"], swiftSettings: strict),
    ]
)
