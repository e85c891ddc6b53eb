// `macmd-bench tokens DIR`: semantic tokens of a link-dense 100 KB note in a notebook such as
// `macmd-bench generate --notes 10000 --seed 1 DIR` writes (target: 2 ms).
//
//   - in process: `SemanticToken.tokens` of the note (its links, tags, block ids, front matter
//     and maths), its symbols and tree made beforehand, as an open note's are: cold (every link
//     resolved in the notebook) and kept (where the links led known from the tokens before, as
//     after a keystroke that changes no heading or name: `ResolvedLinks`); median and p95 of N;
//   - through the server, as an editor meets it: a child `macmd lsp` on the notebook, the note
//     opened (a new note, not on disk), then `textDocument/semanticTokens/full` in UTF-16 from
//     the first byte sent to the last byte of the answer received: the first (cold), then
//     after each of N keystrokes (a `didChange` typing or deleting a letter at the note's end,
//     not timed, and its diagnostics awaited: the version is parsed and filed); median and p95
//     (`--server none` skips it, `--server PATH` measures another build's server).
// The note is made from the notebook's own notes: paragraphs of wiki-links (some to a heading,
// block or alias, some embeds), relative Markdown links to headings, a broken link in ten,
// tags, inline maths and block ids, about one link every 40 bytes.

import CommandLineIO
import JSON
import JSONRPC
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension BenchCommand {
    static let tokensUsage = "usage: macmd-bench tokens DIR [--rounds N] [--bytes B] [--server PATH]\n"

    static func tokens(_ arguments: [String]) -> Int32 {
        let (arguments, serverPath) = takingServer(arguments)
        guard let (folder, counts) = folderAndCounts(arguments, ["--rounds": 200, "--bytes": 100_000], usage: tokensUsage) else { return 2 }
        let rounds = counts["--rounds"] ?? 200
        let anywhere = [ConfigurationLayer(source: "bench", value: ["allowHomeOrRoot": true])]
        let indexed = NotebookFolder.indexed(path: folder, editor: anywhere).folder
        var notebook = indexed.notebook
        guard !notebook.notes.isEmpty else {
            StandardStreams.writeError("macmd-bench tokens: no notes in \(folder)\n")
            return 2
        }
        let notePath = "bench-tokens.md"
        let text = linkDenseNote(bytes: counts["--bytes"] ?? 100_000, notebook: notebook)
        let tree = MarkdownParser.parse(Array(text.utf8), options: .notebook)
        let symbols = NoteSymbols.extract(from: tree, path: notePath)
        notebook.update(symbols)
        var report = "notebook \(folder): \(notebook.notes.count) notes; the note: \(text.utf8.count) bytes, \(symbols.links.count) links, \(symbols.tags.count) tags, \(symbols.formulaCount) formulas\n"

        // 1. In process, cold and with the links' resolutions kept.
        let assets = notebook.assets
        var count = 0
        var kept = ResolvedLinks()
        for keeps in [false, true] {
            var times: [Double] = []
            for _ in 0..<rounds {
                var resolved = keeps ? kept : ResolvedLinks()
                let start = now()
                count = SemanticToken.tokens(of: symbols, tree: tree, in: notebook, checksLinks: true, resolved: &resolved) { assets.contains($0) }.count
                times.append(now() - start)
                kept = resolved
            }
            times.sort()
            report += "tokens in process, \(keeps ? "links' resolutions kept" : "cold") (\(count) tokens, \(rounds)x): median \(format(times[times.count / 2] * 1000, 2)) ms, p95 \(format(times[times.count * 95 / 100] * 1000, 2)) ms (target 2 ms)\n"
        }
        // Written now: `--server none` stops here (for `perf stat` of the part in process).
        StandardStreams.writeOutput(Array(report.utf8))
        report = ""
        if serverPath == "none" { return 0 }

        // 2. Through the server.
        let executable = serverPath ?? macmdPath()
        guard var server = ServerProcess.spawn(executable) else {
            StandardStreams.writeError("macmd-bench tokens: cannot start \(executable) lsp\n")
            return 1
        }
        server.send(.request(id: .string("init"), method: "initialize", params: [
            "processId": .null, "rootUri": .null,
            "workspaceFolders": [["uri": .string(fileURI(indexed.resolvedPath)), "name": "bench"]],
            "capabilities": ["window": ["workDoneProgress": true]],
        ]))
        _ = server.response(to: .string("init"))
        server.send(.notification(method: "initialized", params: [:]))
        while let message = server.nextMessage() {
            if case .request(let id, _, _) = message { server.send(.response(id: id, result: .success(.null))) }
            if case .notification("$/progress", let params) = message, params?["value"]?["kind"]?.stringValue == "end" { break }
        }
        let uri = fileURI(indexed.resolvedPath + "/" + notePath)
        server.send(.notification(method: "textDocument/didOpen", params: ["textDocument": [
            "uri": .string(uri), "languageId": "markdown", "version": 1, "text": .string(text)]]))
        _ = server.diagnostics(uri: uri, version: 1)
        var served: [Double] = []
        var first = 0.0
        var integers = 0
        let lastLine = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        for round in -1..<rounds {
            if round >= 0 {
                // A keystroke at the end of the note: a letter typed, then deleted.
                let at: JSONValue = ["line": .int(Int64(lastLine)), "character": 0]
                let end: JSONValue = ["line": .int(Int64(lastLine)), "character": .int(round % 2 == 0 ? 0 : 1)]
                server.send(.notification(method: "textDocument/didChange", params: [
                    "textDocument": ["uri": .string(uri), "version": .int(Int64(round + 2))],
                    "contentChanges": [["range": ["start": at, "end": end], "text": .string(round % 2 == 0 ? "x" : "")]]]))
                // Its diagnostics: the version is parsed and filed, as it is a moment after typing.
                _ = server.diagnostics(uri: uri, version: round + 2)
            }
            let id = RequestID.string("t\(round)")
            let start = now()
            server.send(.request(id: id, method: "textDocument/semanticTokens/full", params: ["textDocument": ["uri": .string(uri)]]))
            guard case .success(let result)? = server.response(to: id) else { break }
            if round >= 0 { served.append(now() - start) } else { first = now() - start }
            integers = result["data"]?.arrayValue?.count ?? 0
        }
        server.stop()
        served.sort()
        if !served.isEmpty {
            report += "textDocument/semanticTokens/full through the server (\(integers / 5) tokens): the first \(format(first * 1000, 2)) ms; "
            report += "after a keystroke (\(served.count)x) median \(format(served[served.count / 2] * 1000, 2)) ms, p95 \(format(served[served.count * 95 / 100] * 1000, 2)) ms\n"
        }
        StandardStreams.writeOutput(Array(report.utf8))
        return 0
    }

    /// A note of about `bytes` bytes dense with links to the notes of `notebook` (see the file
    /// comment), the same for the same notebook.
    static func linkDenseNote(bytes: Int, notebook: Notebook) -> String {
        let paths = notebook.notes.keys.sorted()
        var text = "---\ntitle: Links\ntags: [bench, links]\n---\n# Links\n\n"
        var index = 0
        while text.utf8.count < bytes {
            // A stride through the notes, so each paragraph links to notes all over the notebook.
            func next() -> (path: String, note: NoteSymbols?) {
                index += 1
                let path = paths[(index * 7919) % paths.count]
                return (path, notebook.notes[path])
            }
            let first = next()
            let second = next()
            let third = next()
            let stem = NotebookPath.removingExtension(NotebookPath.lastComponent(of: first.path), ["md"])
            var line = "See [[\(stem)]]"
            if let heading = second.note?.headings.last {
                line += ", [[\(NotebookPath.removingExtension(second.path, ["md"]))#\(heading.text)]]"
            }
            if let heading = third.note?.headings.last {
                line += " and [the section](<\(third.path)#\(heading.slug)>)"
            }
            if let block = first.note?.blockIDs.first { line += ", the block [[\(stem)#^\(block.id)]]" }
            if let alias = second.note?.aliases.first { line += ", also [[\(alias)|by its alias]]" }
            if index % 10 == 0 { line += ", a broken [[missing note \(index)]]" }
            if index % 7 == 0 { line += ", embedded ![[\(stem)]]" }
            line += "; #topic/t\(index % 50) with $x_{\(index)}^2$."
            if index % 5 == 0 { line += " ^p\(index)" }
            text += line + "\n\n"
        }
        return text
    }
}
