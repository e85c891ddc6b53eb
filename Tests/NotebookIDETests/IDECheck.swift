import Foundation
import Localization
import MarkdownSyntax
import NotebookWorkspace
import TestSupport
import TextCore
import XCTest
@testable import NotebookIDE

/// One check per NotebookIDE feature, each `feature(fixture, expected)`: the fixture in
/// TestSupport's syntax (`//- /path` starts a note, `$0` is the cursor, two `$0` a range), the
/// feature asked as the server asks it (an `AnalysisHost` with every note of the fixture open, the
/// view of the note that holds the cursor), and its answer written as the text a writer would
/// see. `Expect` compares it, so `MACMD_BLESS=1` writes a changed answer into the test itself.
enum IDECheck {
    /// The folder the fixtures' notebooks live in (nothing is read from disk).
    static let folder = "/fixture-notebook"

    /// The view of the note that holds the fixture's cursor, and the fixture. `indexComplete`:
    /// the notebook's first scan has ended (cross-note problems are reported).
    static func view(_ fixture: Fixture, indexComplete: Bool = false, file: StaticString, line: UInt) -> (view: NoteView, offset: Int)? {
        guard let cursor = fixture.cursor ?? fixture.range.map({ FixtureLocation(path: $0.path, utf8Offset: $0.utf8Start) }) else {
            XCTFail("the fixture has no `$0`", file: file, line: line)
            return nil
        }
        let snapshot = snapshot(fixture, indexComplete: indexComplete)
        guard let document = snapshot.documents[cursor.path] else { return nil }
        return (snapshot.view(of: document), cursor.utf8Offset)
    }

    /// A snapshot with every note of the fixture open (by its path as id) and filed.
    static func snapshot(_ fixture: Fixture, indexComplete: Bool = false) -> AnalysisSnapshot {
        var host = AnalysisHost()
        host.addFolder(folder)
        if indexComplete { host.updateFolder(folder) { $0.scan = .done } }
        for note in fixture.files {
            host.open(OpenDocument(id: note.path, file: folder + "/" + note.path, languageID: "markdown", version: 1,
                                   text: Array(note.text.utf8)))
        }
        // Filed into the notebook as the server files an open note.
        for note in fixture.files {
            if let (_, analysis) = host.needsFiling(note.path, version: 1) {
                host.bringUpToDate(note.path, version: 1, symbols: analysis.symbols(path: note.path))
            }
        }
        return host.snapshot()
    }

    /// The hits of `query` (`macmd/search`), one a line: `path: excerpt` with each match in
    /// «», then the text the hit's range covers.
    static func search(_ query: String, _ fixture: String, _ expected: String, limit: Int = 10,
                       file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        let hits = snapshot(parsed).search(query, limit: limit)
        let out = hits.map { hit in
            var excerpt = Array(hit.excerpt.utf8)
            for match in hit.matches.reversed() {
                excerpt.insert(contentsOf: "»".utf8, at: match.upperBound)
                excerpt.insert(contentsOf: "«".utf8, at: match.lowerBound)
            }
            let bytes = hit.analysis.text
            let at = String(decoding: bytes[hit.range.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
            return "\(hit.note.path): \(String(decoding: excerpt, as: UTF8.self)) [at \(at)]"
        }
        Expect.equal(out.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// `path: text` for each span, one a line (the path of the note, the text the span covers).
    static func show(_ spans: [NoteSpan], in fixture: Fixture) -> String {
        spans.map { span in
            let bytes = Array(fixture.text(span.note.path).utf8)
            return "\(span.note.path): " + String(decoding: bytes[span.span.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
        }.joined(separator: "\n")
    }

    // MARK: Navigation

    /// Where the symbol at the cursor leads (`textDocument/definition`); `nil` on no symbol.
    static func definition(_ fixture: String, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        Expect.equal(view.definition(at: offset).map { show($0, in: parsed) }, expected, fixture: fixture, file: file, line: line)
    }

    /// Every use of the symbol at the cursor (`textDocument/references`, without the declaration).
    static func references(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        Expect.equal(show(view.references(at: offset, includeDeclaration: false), in: parsed), expected, fixture: fixture,
                     file: file, line: line)
    }

    /// The hover's Markdown in English (`textDocument/hover`); `nil` for no hover.
    static func hover(_ fixture: String, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        Expect.equal(view.hover(at: offset)?.markdown.english, expected, fixture: fixture, file: file, line: line)
    }

    /// The outline of the cursor's note (`textDocument/documentSymbol`): one line a symbol,
    /// indented by depth, `detail name` and the text it selects.
    static func outline(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, _) = view(parsed, file: file, line: line) else { return }
        let bytes = Array(parsed.text(parsed.cursor?.path ?? "").utf8)
        var out: [String] = []
        var stack: [(OutlineSymbol, Int)] = view.outline().reversed().map { ($0, 0) }
        while let (symbol, depth) = stack.popLast() {
            let selected = String(decoding: bytes[symbol.selectionRange.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
            out.append(String(repeating: "  ", count: depth) + "\(symbol.detail) \(symbol.name.english) '\(selected)'")
            stack += symbol.children.reversed().map { ($0, depth + 1) }
        }
        Expect.equal(out.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// The folding ranges of the cursor's note (`textDocument/foldingRange`): `first-last kind`
    /// in 0-based lines, one a line.
    static func folding(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, _) = view(parsed, file: file, line: line) else { return }
        let shown = view.foldingRanges().map { "\($0.startLine)-\($0.endLine) \($0.kind)" }.joined(separator: "\n")
        Expect.equal(shown, expected, fixture: fixture, file: file, line: line)
    }

    /// The places `textDocument/documentHighlight` marks in the cursor's note, one a line, the
    /// declaration marked `(declared)`; `nil` off a symbol.
    static func highlights(_ fixture: String, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        let bytes = Array(parsed.text(view.note.path).utf8)
        let shown = view.highlights(at: offset).map { found in
            found.map { String(decoding: bytes[$0.span.range.clamped(to: 0..<bytes.count)], as: UTF8.self) + ($0.isDeclaration ? " (declared)" : "") }
                .joined(separator: "\n")
        }
        Expect.equal(shown, expected, fixture: fixture, file: file, line: line)
    }

    /// The selection ranges at the cursor (`textDocument/selectionRange`), innermost first, each
    /// the text it selects, one a line (line breaks shown as `⏎`).
    static func selections(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        let bytes = Array(parsed.text(view.note.path).utf8)
        let shown = view.selectionRanges(at: offset).map {
            String(decoding: bytes[$0.range.clamped(to: 0..<bytes.count)], as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎")
        }
        Expect.equal(shown.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// The semantic tokens of the cursor's note (`textDocument/semanticTokens/full`), or of the
    /// range between two `$0` (`/range`), in a notebook whose first scan has ended unless
    /// `indexComplete` is false: one a line, the text it covers (line breaks as `⏎`), its kind
    /// and its modifiers.
    static func semanticTokens(_ fixture: String, _ expected: String, indexComplete: Bool = true,
                               file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, _) = view(parsed, indexComplete: indexComplete, file: file, line: line) else { return }
        let bytes = Array(parsed.text(view.note.path).utf8)
        let range = parsed.range.map { ByteSpan($0.utf8Start, $0.utf8End) }
        let shown = view.semanticTokens(in: range).map { token in
            let text = String(decoding: bytes[token.span.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
            return ([text.replacingOccurrences(of: "\n", with: "⏎"), token.kind.name] + token.modifiers.names).joined(separator: " ")
        }
        Expect.equal(shown.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// The graph around the cursor (`textDocument/prepareCallHierarchy`, then
    /// `callHierarchy/incomingCalls` and `outgoingCalls`): the node, then each edge as
    /// `path "name": the text of each link`.
    static func graph(_ fixture: String, _ expected: String?, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        guard let node = view.graphNode(at: offset) else {
            Expect.equal(nil, expected, fixture: fixture, file: file, line: line)
            return
        }
        func text(_ path: String, _ span: ByteSpan) -> String {
            let bytes = Array(parsed.text(path).utf8)
            return String(decoding: bytes[span.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
        }
        var out = ["\(node.note.path)\(node.heading.map { "#" + $0 } ?? "") \"\(node.name)\" in \"\(node.folder)\": \(text(node.note.path, node.span))"]
        out.append("incoming:")
        for edge in view.incoming(to: node) {
            out.append("  \(edge.node.note.path) \"\(edge.node.name)\": " + edge.spans.map { text(edge.node.note.path, $0) }.joined(separator: " | "))
        }
        out.append("outgoing:")
        for edge in view.outgoing(from: node) {
            out.append("  \(edge.node.note.path) \"\(edge.node.name)\": " + edge.spans.map { text(node.note.path, $0) }.joined(separator: " | "))
        }
        Expect.equal(out.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// The code lenses of the cursor's note (`textDocument/codeLens`, then `codeLens/resolve`):
    /// one a line, the text the lens stands on, then each place it counts as `path: text`
    /// (unlinked mentions after `~`).
    static func lenses(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, _) = view(parsed, file: file, line: line) else { return }
        func text(_ path: String, _ span: ByteSpan) -> String {
            let bytes = Array(parsed.text(path).utf8)
            return String(decoding: bytes[span.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
        }
        let shown = view.referenceLenses().map { lens in
            let found = view.lensReferences(heading: lens.heading)
            return "\"\(text(view.note.path, lens.span))\": "
                + (found.backlinks.map { "\($0.note.path): \(text($0.note.path, $0.span))" }
                   + found.unlinkedMentions.map { "~\($0.note.path): \(text($0.note.path, $0.span))" }).joined(separator: " | ")
        }
        Expect.equal(shown.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    // MARK: Refactoring

    /// The notes a rename at the cursor changes, each written whole after the change in the
    /// fixture syntax (`//- /path` then its text), or the refusal (`error: …`, in English).
    static func rename(_ fixture: String, _ expected: String, to newName: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        let shown: String
        do {
            let change = try view.rename(at: offset, to: newName)
            var out = applied(change, to: parsed)
            if let confirmation = change.confirmation { out += "asks: \(confirmation.question.english)\n" }
            shown = out
        } catch {
            shown = "error: \(error.message.english)"
        }
        Expect.equal(shown, expected, fixture: fixture, file: file, line: line)
    }

    // MARK: Unlinked mentions

    /// The unlinked mentions of the cursor's note (`macmd/unlinkedMentions`), one a line:
    /// `path: «the mention» in: the line it is on`.
    static func unlinkedMentions(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, _) = view(parsed, file: file, line: line) else { return }
        var out: [String] = []
        for found in view.unlinkedMentions() {
            let bytes = found.analysis.text
            let lines = found.analysis.lines
            for mention in found.mentions {
                let lineRange = lines.lineRange(lines.line(containingUTF8Offset: Int(mention.range.start)))
                out.append("\(found.note.path): «\(String(decoding: bytes[mention.range.range], as: UTF8.self))» in: "
                           + String(decoding: bytes[lineRange], as: UTF8.self))
            }
        }
        XCTAssertEqual(view.unlinkedMentionCount(), out.count, "the count agrees with the list", file: file, line: line)
        Expect.equal(out.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }

    /// The mention code actions at the cursor (or on the range), each its English title and the
    /// notes its edit changes, written whole after the change (`//- /path` then the text).
    static func mentionActions(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        let end = parsed.range.map { $0.utf8End } ?? offset
        var out = ""
        for action in view.codeActions(start: offset, end: end, canCreateFiles: true) where action.mention != nil {
            out += "\(action.title.english)\n" + applied(action.change, to: parsed)
        }
        Expect.equal(out, expected, fixture: fixture, file: file, line: line)
    }

    /// The notes `change` edits, each written whole after it in the fixture syntax (`//- /path`
    /// then its text; `//- create /path`, `//- move /a to /b` for file operations).
    static func applied(_ change: WorkspaceChange, to parsed: Fixture) -> String {
        var out = ""
        for step in change.steps {
            switch step {
            case .edit(let note, let edits):
                var bytes = Array(parsed.text(note.path).utf8)
                for edit in edits.reversed() { bytes.replaceSubrange(edit.span.range, with: Array(edit.newText.utf8)) }
                out += "//- /\(note.path)\n" + String(decoding: bytes, as: UTF8.self)
                if bytes.last != 0x0A { out += "\n" }
            case .create(let note):
                out += "//- create /\(note.path)\n"
            case .rename(let from, let to):
                out += "//- move /\(from.path) to /\(to.path)\n"
            }
        }
        return out
    }

    // MARK: Completion

    /// The labels completion offers at the cursor (`textDocument/completion`, typed), one a line,
    /// best first, with what picking the first one leaves on the cursor's line after `=> `.
    static func completion(_ fixture: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = Fixture(fixture, file: file, line: line)
        guard let (view, offset) = view(parsed, file: file, line: line) else { return }
        let query = CompletionQuery(offset: { _ in offset }, invoked: false, snippetSupport: false, locale: .en,
                                    languageCode: "en", clock: SnippetTestVariables.clock)
        let items = view.completion(query).items
        var shown = items.map(\.label)
        if let first = items.first {
            var bytes = Array(parsed.text(parsed.cursor?.path ?? "").utf8)
            bytes.replaceSubrange(first.replace.range.clamped(to: 0..<bytes.count), with: Array(first.newText.utf8))
            let lineStart = bytes[..<min(first.replace.range.lowerBound, bytes.count)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            shown.append("=> " + String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
        }
        Expect.equal(shown.joined(separator: "\n"), expected, fixture: fixture, file: file, line: line)
    }
}
