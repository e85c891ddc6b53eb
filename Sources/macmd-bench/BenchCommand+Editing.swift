// `macmd-bench editing`: the editing requests, measured the way an editor meets them: a child
// `macmd lsp` on pipes, and each measure is a keystroke: the `didChange` that types it, then the
// request, from the first byte sent to the last byte of the answer received.
//   - snippet completion: `t` typed on an empty line at the end of a 5 KB note (four snippets
//     match), then `textDocument/completion` there; the same at the end of the 1 MB note (where
//     nothing but snippets completes, the server reads the line and the line starts above it,
//     not the note's syntax);
//   - `textDocument/onTypeFormatting` in the 1 MB note: Enter at the end of a list item (the
//     answer continues the list), and `|` typed at the end of a table row (the answer aligns the
//     table);
//   - `macmd/pairs` in the 1 MB note: a letter typed in the middle of a paragraph, then the pairs
//     at the cursor.
// After each measure a second `didChange` takes the keystroke back, so the note stays the same.
// `--rounds N` (default 500) per measure; `--note FILE` replaces the generated 1 MB note (it must
// have list items, table rows and paragraphs); `--server PATH` measures another build's server.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSON
import JSONRPC

extension BenchCommand {
    static let editingUsage = "usage: macmd-bench editing [--rounds N] [--note FILE] [--server PATH]\n"

    static func editing(_ arguments: [String]) -> Int32 {
        var rounds = 500
        var noteFile: String?
        var serverPath: String?
        var i = 0
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch (arguments[i], value) {
            case ("--rounds", let value?) where Int(value).map({ $0 > 0 }) == true: rounds = Int(value) ?? rounds
            case ("--note", let value?): noteFile = value
            case ("--server", let value?): serverPath = value
            case ("-h", _), ("--help", _):
                StandardStreams.writeOutput(Array(editingUsage.utf8))
                return 0
            default:
                StandardStreams.writeError("macmd-bench editing: unexpected argument '\(arguments[i])'\n" + editingUsage)
                return 2
            }
            i += 2
        }
        guard let large = largeNote(file: noteFile, command: "editing") else { return 2 }
        let small = largeNote(bytes: 5_000)
        guard let server = ServerProcess.started(serverPath ?? macmdPath(), capabilities: [
            "textDocument": ["completion": ["completionItem": ["snippetSupport": true]]],
        ], command: "editing") else { return 1 }

        var session = EditingSession(server: server)
        let smallURI = "file:///bench/editing/small.md"
        let largeURI = "file:///bench/editing/large.md"
        session.open(smallURI, small)
        session.open(largeURI, large)
        let largeLines = large.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let smallLines = small.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let listItems = largeLines.indices.filter { largeLines[$0].hasPrefix("- ") || largeLines[$0].hasPrefix("1. ") }
        let tableRows = largeLines.indices.filter {
            largeLines[$0].hasPrefix("| ") && largeLines[$0].hasSuffix("|") && $0 > 1 && largeLines[$0 - 1].hasPrefix("|-")
        }
        // Paragraph lines with a sentence end (`. `) after which a word starts: prose, wherever the
        // links and code spans of the line are.
        let paragraphs: [(row: Int, column: Int)] = largeLines.indices.compactMap { row in
            let line = largeLines[row]
            let bytes = Array(line.utf8)
            guard line.first?.isLetter == true,
                  let end = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: ".") && bytes[$0 + 1] == UInt8(ascii: " ") })
            else { return nil }
            return (row, String(decoding: bytes[...(end + 1)], as: UTF8.self).utf16.count)
        }
        guard !listItems.isEmpty, !tableRows.isEmpty, !paragraphs.isEmpty else {
            StandardStreams.writeError("macmd-bench editing: the note needs list items, table rows after a delimiter row, and paragraphs\n")
            return 2
        }

        var report = "macmd lsp editing requests (release build recommended), \(rounds) keystrokes each, didChange + request, first byte sent to last byte received\n"
        func line(_ name: String, _ times: [Double], _ detail: String, target: String?) {
            let sorted = times.sorted()
            guard !sorted.isEmpty else { return }
            report += "\(name) (\(detail)): p50 \(format(sorted[sorted.count / 2] * 1000, 3)) ms, p99 \(format(sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000, 3)) ms"
            report += target.map { " (target \($0))" } ?? ""
            report += "\n"
        }

        // Snippet completion: `t` on a new last line.
        for (uri, lines, name, target) in [(smallURI, smallLines, "snippet completion, 5 KB note", "p99 2 ms"),
                                           (largeURI, largeLines, "snippet completion, 1 MB note", "p99 2 ms")] {
            let last = lines.count - 1
            var items = 0
            let times = session.keystrokes(rounds, uri: uri, type: { _ in (TextPosition(last, lines[last].utf16.count), "t") }) { session, _, position in
                let answer = session.request("textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": position.json])
                items = answer?["items"]?.arrayValue?.count ?? 0
                return items > 0
            }
            guard let times else { return session.failed(report, "no snippet in the completion of `t`") }
            line(name, times, "\(items) items", target: target)
        }

        // Enter at the end of a list item: the answer starts the next item.
        var enter = session.keystrokes(rounds, uri: largeURI, type: { round in
            let row = listItems[round % listItems.count]
            return (TextPosition(row, largeLines[row].utf16.count), "\n")
        }) { session, round, _ in
            let row = listItems[round % listItems.count]
            let answer = session.request("textDocument/onTypeFormatting", [
                "textDocument": ["uri": .string(largeURI)], "position": TextPosition(row + 1, 0).json, "ch": "\n",
                "options": ["tabSize": 4, "insertSpaces": true]])
            return answer?.arrayValue?.isEmpty == false
        }
        guard let enterTimes = enter else { return session.failed(report, "no list continuation after Enter") }
        line("onTypeFormatting Enter after a list item, 1 MB note", enterTimes, "\(listItems.count) items in turn", target: "p99 2 ms")

        // `|` typed at the end of a table row (a new cell): the answer aligns the table.
        enter = session.keystrokes(rounds, uri: largeURI, type: { round in
            let row = tableRows[round % tableRows.count]
            return (TextPosition(row, largeLines[row].utf16.count), " x |")
        }) { session, round, _ in
            let row = tableRows[round % tableRows.count]
            let answer = session.request("textDocument/onTypeFormatting", [
                "textDocument": ["uri": .string(largeURI)], "position": TextPosition(row, largeLines[row].utf16.count + 4).json, "ch": "|",
                "options": ["tabSize": 4, "insertSpaces": true]])
            return answer?.arrayValue?.isEmpty == false
        }
        guard let pipeTimes = enter else { return session.failed(report, "no table alignment after `|`") }
        line("onTypeFormatting `|` at the end of a table row, 1 MB note", pipeTimes, "\(tableRows.count) tables in turn", target: "p99 2 ms")

        // A letter in the middle of a paragraph, then the pairs at the cursor.
        let pairs = session.keystrokes(rounds, uri: largeURI, type: { round in
            let paragraph = paragraphs[(round * 7) % paragraphs.count]
            return (TextPosition(paragraph.row, paragraph.column), "x")
        }) { session, _, position in
            let answer = session.request("macmd/pairs", ["textDocument": ["uri": .string(largeURI)], "position": position.json])
            return answer?["context"]?.stringValue == "text"
        }
        guard let pairTimes = pairs else { return session.failed(report, "macmd/pairs did not answer `text` in a paragraph") }
        line("macmd/pairs in a paragraph, 1 MB note", pairTimes, "\(paragraphs.count) paragraphs in turn", target: "p99 2 ms")

        session.server.stop()
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// An LSP position (line, UTF-16 column) for the benchmark's requests.
    struct TextPosition {
        var line: Int
        var character: Int
        init(_ line: Int, _ character: Int) { self.line = line; self.character = character }
        var json: JSONValue { ["line": .int(Int64(line)), "character": .int(Int64(character))] }

        /// Where the cursor is after `text` is typed here.
        func after(_ text: String) -> TextPosition {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count == 1 ? TextPosition(line, character + text.utf16.count) : TextPosition(line + lines.count - 1, lines.last?.utf16.count ?? 0)
        }
    }

    /// Open documents on one server, with their versions, and the keystroke loop.
    struct EditingSession {
        var server: ServerProcess
        var versions: [String: Int] = [:]
        var nextID = 0

        mutating func open(_ uri: String, _ text: String) {
            versions[uri] = 1
            server.send(.notification(method: "textDocument/didOpen", params: ["textDocument": [
                "uri": .string(uri), "languageId": "markdown", "version": 1, "text": .string(text)]]))
        }

        /// Replaces `start..<end` of `uri` with `text`.
        mutating func change(_ uri: String, _ start: TextPosition, _ end: TextPosition, _ text: String) {
            let version = (versions[uri] ?? 1) + 1
            versions[uri] = version
            server.send(.notification(method: "textDocument/didChange", params: [
                "textDocument": ["uri": .string(uri), "version": .int(Int64(version))],
                "contentChanges": [["range": ["start": start.json, "end": end.json], "text": .string(text)]]]))
        }

        /// Sends a request and waits for its result (nil on an error or the end of the stream).
        mutating func request(_ method: String, _ params: JSONValue) -> JSONValue? {
            nextID += 1
            let id = RequestID.string("edit-\(nextID)")
            server.send(.request(id: id, method: method, params: params))
            guard case .success(let result)? = server.response(to: id) else { return nil }
            return result
        }

        /// `rounds` keystrokes: each types `type(round).text` at its position, runs `ask` (with
        /// the cursor after the typed text) and takes the keystroke back. The times run from the
        /// typing to `ask`'s answer; nil when an answer is not what `ask` expects.
        mutating func keystrokes(_ rounds: Int, uri: String, type: (Int) -> (position: TextPosition, text: String),
                                 ask: (inout EditingSession, Int, TextPosition) -> Bool) -> [Double]? {
            var times: [Double] = []
            times.reserveCapacity(rounds)
            for round in -1..<rounds {
                let typed = type(max(round, 0))
                let cursor = typed.position.after(typed.text)
                let start = BenchCommand.now()
                change(uri, typed.position, typed.position, typed.text)
                guard ask(&self, max(round, 0), cursor) else { return nil }
                // The first round warms the server up (the note's first parse, the line index).
                if round >= 0 { times.append(BenchCommand.now() - start) }
                change(uri, typed.position, cursor, "")
            }
            return times
        }

        mutating func failed(_ report: String, _ message: String) -> Int32 {
            StandardStreams.writeOutput(Array(report.utf8))
            StandardStreams.writeError("macmd-bench editing: \(message)\n")
            server.stop()
            return 1
        }
    }
}
