// The sources against the catalog: no English sentence written as a literal outside the catalog,
// no key used that the catalog lacks, no key in the catalog that nothing uses.
//
// What counts as English: a string literal (the text between its quotes, interpolations left
// out) with two words of two or more letters side by side (`"no note"`, `"Broken link"`). The
// scan reads every module that writes text for people; these stay out of it:
// - `Sources/Localization` (its own errors are about the catalog file, for MacMD's developers);
// - `Sources/MacMDBench`, `Sources/MacMDFuzz` and `Sources/macmd-bench`: figures
//   and findings for developers;
// - `Sources/MarkdownHTML`'s HTML markup (class names such as `"math math-inline"`), whose few
//   visible words are checked where they are written (`// l10n-exempt:` lines say why);
// - `Sources/Themes`: CSS (font names, rules), no words for people;
// - `Sources/NotebookIDE/Site`: a published site's markup, whose words are catalog keys;
// - `Sources/NotebookIndex/DiagnosticCode+Summary.swift`: the codes' documentation in English,
//   generated into the JSON Schema and docs/notebook.md.
// A line may opt out with a comment `// l10n-exempt: <why>` on it or on the line above: the
// server's log for bug reports, protocol text, syntax shown as it must be typed.

import Foundation
import XCTest
import Localization

final class UserFacingLiteralTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Module folders (or file-name prefixes inside one) the scan skips, and why.
    static let skipped: [(path: String, why: String)] = [
        ("Localization/", "the catalog machinery: its errors are for MacMD's developers"),
        ("MacMDBench/", "benchmark generators"),
        ("BenchReport/", "`macmd-bench all`'s tables and plots are for MacMD's developers"),
        ("MacMDFuzz/", "the fuzzers' findings are for MacMD's developers"),
        ("macmd-bench/", "`macmd-bench` reports figures for developers"),
        ("MarkdownHTML/", "HTML markup"),
        ("Themes/", "CSS: font names and rules, no words for people"),
        ("NotebookIDE/Site/", "a published site's HTML markup; every word on its pages is a catalog key (site.*)"),
        ("NotebookIndex/DiagnosticCode+Summary.swift", "the codes' documentation, generated into the schema and docs/notebook.md"),
    ]

    struct Literal {
        var file: String
        var line: Int
        var text: String
    }

    /// Every Swift file under `Sources`, as (path relative to `Sources`, text).
    static func sourceFiles() throws -> [(String, String)] {
        let root = sources.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(String, String)] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            files.append((relative, try String(contentsOfFile: root + "/" + relative, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The string literals of `source`, outside comments, with interpolations left out. Handles
    /// `"…"`, `"""…"""` and raw strings (`#"…"#`), escapes, and literals nested in interpolations.
    static func literals(in source: String, file: String) -> [Literal] {
        let bytes = Array(source.utf8)
        var found: [Literal] = []
        var line = 1
        var index = 0
        func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        /// Reads a literal starting at `index` (at its `#`s or quote); returns its text parts.
        func readLiteral() {
            var hashes = 0
            while peek(0) == UInt8(ascii: "#") { hashes += 1; index += 1 }
            let multiline = peek(0) == UInt8(ascii: "\"") && peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
            index += multiline ? 3 : 1
            let startLine = line
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    if !multiline { return }
                }
                // The closing delimiter: quote(s) then the same number of `#`.
                if byte == UInt8(ascii: "\"") {
                    let quotes = multiline ? 3 : 1
                    if (0..<quotes).allSatisfy({ peek($0) == UInt8(ascii: "\"") }),
                       (0..<hashes).allSatisfy({ peek(quotes + $0) == UInt8(ascii: "#") }) {
                        index += quotes + hashes
                        found.append(Literal(file: file, line: startLine, text: String(decoding: text, as: UTF8.self)))
                        return
                    }
                }
                if byte == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ peek(1 + $0) == UInt8(ascii: "#") }) {
                    index += 1 + hashes
                    if peek(0) == UInt8(ascii: "(") {
                        // An interpolation: code up to the matching `)`, which may hold literals.
                        index += 1
                        var depth = 1
                        while index < bytes.count, depth > 0 {
                            let c = bytes[index]
                            if c == UInt8(ascii: "\"") || (c == UInt8(ascii: "#") && peek(1) == UInt8(ascii: "\"")) {
                                readLiteral()
                                continue
                            }
                            if c == UInt8(ascii: "(") { depth += 1 }
                            if c == UInt8(ascii: ")") { depth -= 1 }
                            if c == UInt8(ascii: "\n") { line += 1 }
                            index += 1
                        }
                        text.append(UInt8(ascii: " "))
                        text.append(UInt8(ascii: "|"))
                        text.append(UInt8(ascii: " "))
                    } else {
                        // An escape such as `\n`, `\"`, `\u{…}`: a separator, not a letter.
                        if peek(0) == UInt8(ascii: "\n") { line += 1 }
                        index += 1
                        text.append(UInt8(ascii: "|"))
                    }
                    continue
                }
                text.append(byte)
                index += 1
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1; index += 1; continue }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && (peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "#"))) {
                readLiteral()
                continue
            }
            index += 1
        }
        return found
    }

    /// Whether `text` reads as words for people: two ASCII words of two or more letters with
    /// one space between them.
    static func readsAsProse(_ text: String) -> Bool {
        var previousWordLength = 0
        var wordLength = 0
        var spaceAfterWord = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic {
                wordLength += 1
                continue
            }
            if wordLength > 0 {
                if spaceAfterWord, previousWordLength >= 2, wordLength >= 2 { return true }
                previousWordLength = wordLength
                wordLength = 0
                spaceAfterWord = scalar == " "
                continue
            }
            spaceAfterWord = false
            previousWordLength = 0
        }
        return spaceAfterWord && previousWordLength >= 2 && wordLength >= 2
    }

    func testNoEnglishIsWrittenOutsideTheCatalog() throws {
        var offenders: [String] = []
        for (file, source) in try Self.sourceFiles() where !Self.skipped.contains(where: { file.hasPrefix($0.path) }) {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            func isExempt(_ line: Int) -> Bool {
                let here = line - 1
                if lines.indices.contains(here), lines[here].contains("l10n-exempt:") { return true }
                if lines.indices.contains(here - 1), lines[here - 1].trimmingCharacters(in: .whitespaces).hasPrefix("// l10n-exempt:") {
                    return true
                }
                return false
            }
            for literal in Self.literals(in: source, file: file) where Self.readsAsProse(literal.text) && !isExempt(literal.line) {
                offenders.append("\(file):\(literal.line): \"\(literal.text.prefix(80))\"")
            }
        }
        XCTAssertTrue(offenders.isEmpty, "English written outside the catalog (use a catalog key, or say why not with `// l10n-exempt:`):\n"
                      + offenders.joined(separator: "\n"))
    }

    func testEveryKeyIsUsedAndEveryUsedKeyExists() throws {
        let catalog = try Catalog(json: Catalog.builtInJSON)
        let namespaces = Set(catalog.entries.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        var used: Set<String> = []
        var unknown: [String] = []
        for (file, source) in try Self.sourceFiles() {
            for literal in Self.literals(in: source, file: file) {
                let text = literal.text
                let segments = text.split(separator: ".", omittingEmptySubsequences: false)
                guard segments.count >= 2, let first = segments.first, namespaces.contains(String(first)),
                      segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else { continue }
                used.insert(text)
                if catalog.entries[text] == nil { unknown.append("\(file):\(literal.line): \(text)") }
            }
        }
        XCTAssertTrue(unknown.isEmpty, "keys the catalog lacks:\n" + unknown.joined(separator: "\n"))
        let unused = catalog.entries.keys.filter { !used.contains($0) }.sorted()
        XCTAssertTrue(unused.isEmpty, "keys nothing in Sources uses:\n" + unused.joined(separator: "\n"))
    }

    /// The scanner itself, on the cases that could fool it.
    func testTheScannerFindsProseAndOnlyProse() {
        let source = #"""
            let a = "No note found" // "in a comment"
            /* "in a block comment" */
            let b = "x\(name) and"
            let c = #"raw text here"#
            let d = """
                multi line
                """
            let e = "key.name"
            let f = "\(items.joined(separator: ", ")) y"
            let g = "a-b c"
            """#
        let literals = UserFacingLiteralTests.literals(in: source, file: "t.swift")
        XCTAssertEqual(literals.map(\.text), ["No note found", "x |  and", "raw text here", "\n    multi line\n    ", "key.name", ", ", " |  y", "a-b c"])
        XCTAssertEqual(literals.map(\.line), [1, 3, 4, 5, 8, 9, 9, 10])
        XCTAssertEqual(literals.map { UserFacingLiteralTests.readsAsProse($0.text) }, [true, false, true, true, false, false, false, false])
    }
}
