import JSON
import TestSupport

/// Fixture places as the LSP JSON a client sends and a server answers: positions and ranges
/// come from the `$0` markers of the fixture text, never from numbers written in a test.
extension TextPosition {
    /// The LSP `Position`, its character counted in `encoding`.
    func json(_ encoding: ColumnEncoding = .utf16) -> JSONValue {
        ["line": .int(Int64(line)), "character": .int(Int64(character(encoding)))]
    }
}

extension Fixture {
    /// The LSP `Position` of `location` (`null` when a marked place was not found, which has
    /// failed the test already).
    func lspPosition(_ location: FixtureLocation?, _ encoding: ColumnEncoding = .utf16) -> JSONValue {
        location.map { position($0).json(encoding) } ?? .null
    }

    /// The LSP `Range` of `span`.
    func lspRange(_ span: FixtureSpan?, _ encoding: ColumnEncoding = .utf16) -> JSONValue {
        guard let span else { return .null }
        return ["start": lspPosition(span.start, encoding), "end": lspPosition(span.end, encoding)]
    }

    /// The range of the cursor in a one-file fixture: the LSP `Range` of `$0…$0`.
    func lspRange(_ encoding: ColumnEncoding = .utf16) -> JSONValue { lspRange(range, encoding) }
}

extension NotebookFixture {
    /// `textDocument` and `position` params for `location` in the notebook.
    func at(_ location: FixtureLocation?, _ encoding: ColumnEncoding = .utf16) -> JSONValue {
        ["textDocument": ["uri": .string(uri(location?.path ?? ""))], "position": fixture.lspPosition(location, encoding)]
    }

    /// `textDocument` and `position` params for the place `$0` marks in `marked`, a piece of the
    /// text of `path` that occurs there once.
    func at(_ marked: String, in path: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
        at(fixture.cursor(at: marked, in: path, file: file, line: line))
    }

    /// The LSP `Range` that two `$0` mark in `marked`, a piece of the text of `path`.
    func range(_ marked: String, in path: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
        fixture.lspRange(fixture.range(at: marked, in: path, file: file, line: line))
    }
}

extension JSONValue {
    /// These params with more fields (`context`, `newName`, …).
    func adding(_ fields: [String: JSONValue]) -> JSONValue {
        .object((objectValue ?? [:]).merging(fields) { $1 })
    }
}

/// What an editor shows after applying an item's or an edit's `textEdit`s to `text`, their
/// ranges read in `encoding`; `<no textEdit>` or `<bad range …>` when there is nothing to apply.
func applying(_ item: JSONValue?, to text: String, _ encoding: ColumnEncoding = .utf16) -> String {
    guard let edit = item?["textEdit"] else { return "<no textEdit>" }
    return applying(edits: [edit], to: text, encoding)
}

/// `text` with LSP `TextEdit`s applied (from the last to the first), ranges read in `encoding`.
func applying(edits: [JSONValue], to text: String, _ encoding: ColumnEncoding = .utf16) -> String {
    let lines = TextLines(text)
    func offset(_ position: JSONValue?) -> Int? {
        guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue else { return nil }
        return lines.utf8Offset(line: line, character: character, encoding)
    }
    var replacements: [(range: Range<Int>, text: String)] = []
    for edit in edits {
        guard let newText = edit["newText"]?.stringValue, let start = offset(edit["range"]?["start"]),
              let end = offset(edit["range"]?["end"]), start <= end else { return "<bad range \(edit)>" }
        replacements.append((start..<end, newText))
    }
    var bytes = lines.bytes
    for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
        bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
}
