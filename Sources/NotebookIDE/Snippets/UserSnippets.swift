// A writer's own snippets, read from the bytes of their files (the caller reads the disk):
// VS Code's snippet files (JSON) and snippet notes (Markdown whose front matter names the
// prefixes and whose body is the snippet).
//
// Invariants:
// - One broken snippet never hides the others: each file gives the snippets it could read and
//   one problem per snippet it could not, with the file, the 0-based line and UTF-8 column
//   where the problem is, and a message. Reading never traps, whatever the bytes.
// - VS Code's rules for its files: `prefix` a string or a list of strings, `body` a string or a
//   list of lines (joined with `\n`), `description` a string (or a list of lines), `scope` and
//   other members ignored; comments and trailing commas allowed (VS Code reads snippet files as
//   JSON with comments). A snippet without a prefix is skipped without a problem: VS Code keeps
//   such snippets for key bindings, never for completion.

import JSON
import Localization
import MarkdownSyntax
import NotebookWorkspace
import TextCore

/// A problem in a snippet file.
public struct SnippetFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file, as the caller named it.
    public var path: String
    /// 0-based.
    public var line: Int
    /// 0-based, in UTF-8 bytes of the line.
    public var utf8Column: Int
    /// The UTF-8 offset in the file.
    public var utf8Offset: Int
    public var message: LocalizedText

    public init(path: String, line: Int, utf8Column: Int, utf8Offset: Int, message: LocalizedText) {
        self.path = path
        self.line = line
        self.utf8Column = utf8Column
        self.utf8Offset = utf8Offset
        self.message = message
    }

    /// `path:line:column: message`, 1-based, for a log line (in English, as the log is).
    public var description: String { "\(path):\(line + 1):\(utf8Column + 1): \(message.english)" }
}

/// What one snippet file gave.
public struct SnippetFile: Sendable, Equatable {
    /// The snippets read, in the file's order.
    public var snippets: [Snippet]
    /// One per snippet (or part of the file) that could not be read.
    public var problems: [SnippetFileProblem]

    public init(snippets: [Snippet] = [], problems: [SnippetFileProblem] = []) {
        self.snippets = snippets
        self.problems = problems
    }
}

/// Reads user snippet files.
public enum UserSnippets {
    /// The snippets of a file `SnippetFiles.read` gave: a VS Code file or a snippet note.
    public static func parse(_ source: SnippetSource) -> SnippetFile {
        switch source.kind {
        case .vscode: return parseVSCodeJSON(source.bytes, path: source.path)
        case .note: return parseSnippetNote(source.bytes, path: source.path)
        }
    }

    /// The snippets of a VS Code snippet file (`{ "Name": { "prefix": …, "body": …,
    /// "description": … }, … }`).
    public static func parseVSCodeJSON(_ bytes: [UInt8], path: String) -> SnippetFile {
        var reader = SnippetFileReader(bytes: bytes, path: path)
        let layout = JSONLayout(jsonWithComments: bytes)
        let start = layout.skipWhitespace(from: 0)
        guard start < layout.bytes.count else { return SnippetFile() }
        let (members, problem) = layout.members(from: start)
        if let problem {
            let message = problem.isNotObject
                ? LocalizedText("snippet.file.notObject") : LocalizedText("snippet.file.badJSON", .text(problem.message))
            reader.problem(message, at: problem.offset)
        }
        for member in members {
            reader.readJSONSnippet(member, layout: layout)
        }
        return reader.file
    }

    /// The snippet of a snippet note: front matter with `prefix:` (a string or a list) and an
    /// optional `description:`; the body after the front matter (one final line break left out)
    /// is the snippet, named after the file.
    public static func parseSnippetNote(_ bytes: [UInt8], path: String) -> SnippetFile {
        var reader = SnippetFileReader(bytes: bytes, path: path)
        var syntaxProblems: [SyntaxProblem] = []
        guard let frontMatter = FrontMatterParser.parse(MarkdownParser.parse(bytes), problems: &syntaxProblems) else {
            reader.problem(LocalizedText("snippet.note.noFrontMatter"), at: 0)
            return reader.file
        }
        let name = SnippetVariables.baseName(SnippetVariables.lastComponent(path))
        guard let prefixEntry = frontMatter.entries.first(where: { $0.key == "prefix" }) else {
            reader.problem(LocalizedText("snippet.note.noPrefix"), at: Int(frontMatter.range.start))
            return reader.file
        }
        let prefixes = prefixEntry.value.items.filter { !$0.isEmpty }
        guard !prefixes.isEmpty else {
            reader.problem(LocalizedText("snippet.note.prefixWords"), at: Int(prefixEntry.keyRange.start))
            return reader.file
        }
        let description = frontMatter["description"]?.scalar.flatMap { $0.isEmpty ? nil : LocalizedText.verbatim($0) }
        var bodyStart = min(Int(frontMatter.range.end), bytes.count)
        if bodyStart < bytes.count, bytes[bodyStart] == 0x0D { bodyStart += 1 }
        if bodyStart < bytes.count, bytes[bodyStart] == 0x0A { bodyStart += 1 }
        var bodyEnd = bytes.count
        if bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0A { bodyEnd -= 1 }
        if bodyEnd > bodyStart, bytes[bodyEnd - 1] == 0x0D { bodyEnd -= 1 }
        let body = String(decoding: bytes[bodyStart..<bodyEnd], as: UTF8.self)
        reader.add(name: name, prefixes: prefixes, description: description, body: body) { error in
            bodyStart + error.utf8Offset
        }
        return reader.file
    }
}

/// The snippets and problems of one file as they are read.
struct SnippetFileReader {
    let path: String
    let lines: LineIndex
    var file = SnippetFile()

    init(bytes: [UInt8], path: String) {
        self.path = path
        self.lines = LineIndex(utf8: bytes)
    }

    mutating func problem(_ message: LocalizedText, at utf8Offset: Int) {
        let offset = max(0, min(utf8Offset, lines.utf8Count))
        let position = lines.position(ofUTF8Offset: offset)
        file.problems.append(SnippetFileProblem(path: path, line: position.line, utf8Column: position.utf8Column,
                                                utf8Offset: offset, message: message))
    }

    /// Adds the snippet, or the problem of its body at the offset `offset` maps its error to.
    mutating func add(name: String, prefixes: [String], description: LocalizedText?, body: String,
                      offset: (SnippetParseError) -> Int) {
        do throws(SnippetParseError) {
            file.snippets.append(try Snippet(name: name, prefixes: prefixes, description: description, body: body, origin: path))
        } catch {
            problem(LocalizedText("snippet.file.body", .string(name), .text(error.message)), at: offset(error))
        }
    }

    /// Reads one member of a VS Code snippet file.
    mutating func readJSONSnippet(_ member: JSONLayout.Member, layout: JSONLayout) {
        let name = member.key
        let value: JSONValue
        switch layout.parse(member.value) {
        case .success(let parsed): value = parsed
        case .failure(let error):
            problem(LocalizedText("snippet.file.badJSONInSnippet", .string(name), .string(error.message)), at: error.offset)
            return
        }
        guard let object = value.objectValue else {
            problem(LocalizedText("snippet.file.notSnippetObject", .string(name)), at: member.value.lowerBound)
            return
        }
        // The positions of the snippet's own members, for problems in them.
        let fields = layout.members(from: member.value.lowerBound).members
        func valueRange(_ key: String) -> Range<Int> {
            fields.last(where: { $0.key == key })?.value ?? member.value
        }

        let prefixes: [String]
        switch object["prefix"] {
        case nil, .null?:
            return
        case .string(let prefix)?:
            prefixes = [prefix]
        case .array(let items)?:
            let strings = items.compactMap(\.stringValue)
            guard strings.count == items.count else {
                problem(LocalizedText("snippet.file.prefixType", .string(name)), at: valueRange("prefix").lowerBound)
                return
            }
            prefixes = strings
        case _?:
            problem(LocalizedText("snippet.file.prefixType", .string(name)), at: valueRange("prefix").lowerBound)
            return
        }
        let nonEmpty = prefixes.filter { !$0.isEmpty }
        guard !nonEmpty.isEmpty else { return }

        guard let bodyValue = object["body"] else {
            problem(LocalizedText("snippet.file.noBody", .string(name)), at: member.keyOffset)
            return
        }
        let bodyRange = valueRange("body")
        // The body's lines and where each string starts in the file.
        let lines: [String]
        let lineStarts: [Int]
        switch bodyValue {
        case .string(let body):
            lines = [body]
            lineStarts = [bodyRange.lowerBound]
        case .array(let items) where items.allSatisfy({ $0.stringValue != nil }):
            lines = items.compactMap(\.stringValue)
            lineStarts = layout.elements(of: bodyRange).map(\.lowerBound)
        default:
            problem(LocalizedText("snippet.file.bodyType", .string(name)), at: bodyRange.lowerBound)
            return
        }
        let description: LocalizedText?
        switch object["description"] {
        case .string(let text)?: description = .verbatim(text)
        case .array(let items)?: description = .verbatim(items.compactMap(\.stringValue).joined(separator: "\n"))
        default: description = nil
        }
        add(name: name, prefixes: nonEmpty, description: description, body: lines.joined(separator: "\n")) { error in
            // Find the line the error is in, then the byte in that line's JSON string.
            var remaining = error.utf8Offset
            for (index, line) in lines.enumerated() {
                let length = line.utf8.count
                if remaining <= length || index == lines.count - 1 {
                    let quote = index < lineStarts.count ? lineStarts[index] : bodyRange.lowerBound
                    return layout.sourceOffset(ofDecoded: remaining, inStringAt: quote)
                }
                remaining -= length + 1
            }
            return bodyRange.lowerBound
        }
    }
}
