// `macmd search QUERY [NOTEBOOK]`: full-text search of a notebook (NotebookIDE's
// `AnalysisSnapshot.search`, what `macmd/search` answers), the notes found best first:
//
//   garden/soil.md:7:5: The soil ph test came back: the bed by the café is fine…
//
// one a line, `path:line:column:` (1-based; the column counts bytes, as grep's and Vim's do)
// then the excerpt around the best match; `--format json` gives every hit's fields, the
// matches as code units of the excerpt (UTF-16, as `macmd/search` gives them by default).
// NOTEBOOK is a folder read as a notebook (its `.macmd.json` and ignore rules decide which files
// are notes); the default is the current folder. Exit status: 0 (with no hit too, said on
// stderr), 2 for usage errors and a folder that cannot be read.

import CommandLineIO
import JSON
import Localization
import NotebookIDE
import NotebookWorkspace
import TextCore

enum SearchCommand {
    /// `macmd search --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis is typed as shown
        HelpText.usage(["macmd search QUERY [NOTEBOOK] [--limit N] [--format text|json]"]) + "\n"
            + HelpText.paragraph(LocalizedText("cli.search.help"))
    }

    static func run(_ arguments: [String]) -> Int32 {
        var positional: [String] = []
        var json = false
        var limit = 20
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--format":
                guard i + 1 < arguments.count, ["text", "json"].contains(arguments[i + 1]) else {
                    return MacMDCommandLine.usageError("search", LocalizedText("cli.check.error.format"))
                }
                json = arguments[i + 1] == "json"
                i += 1
            case "--limit":
                let value = i + 1 < arguments.count ? arguments[i + 1] : ""
                guard let number = Int(value), number > 0 else {
                    return MacMDCommandLine.usageError("search", LocalizedText("cli.search.error.limit", .string(value)))
                }
                limit = number
                i += 1
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            case let argument where argument.hasPrefix("-") && argument != "-":
                return MacMDCommandLine.usageError("search", LocalizedText("cli.error.unknownOption", .string(argument)))
            default:
                positional.append(arguments[i])
            }
            i += 1
        }
        guard let query = positional.first, positional.count <= 2 else {
            return MacMDCommandLine.usageError("search", LocalizedText("cli.search.error.needsQuery"))
        }
        let path = positional.count == 2 ? positional[1] : "."
        guard let folder = MacMDCommandLine.indexedNotebook(path, command: "search") else { return 2 }
        let hits = MacMDCommandLine.snapshot(of: folder).search(query, limit: limit)
        if hits.isEmpty { MacMDCommandLine.writeError("search", LocalizedText("cli.search.noHits", .string(query))) }
        let prefix = path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
        var output: [UInt8] = []
        if json {
            let found = hits.map { hit -> JSONValue in
                let lines = hit.analysis.lines
                let start = lines.position(ofUTF8Offset: Int(hit.range.start))
                let end = lines.position(ofUTF8Offset: Int(hit.range.end))
                let excerpt = LineIndex(hit.excerpt)
                let matches = hit.matches.map { match -> JSONValue in
                    ["start": .int(Int64(excerpt.lineColumn(ofUTF8Offset: match.lowerBound, unit: .utf16).column)),
                     "end": .int(Int64(excerpt.lineColumn(ofUTF8Offset: match.upperBound, unit: .utf16).column))]
                }
                return ["path": .string(prefix + hit.note.path), "title": .string(hit.title),
                        "line": .int(Int64(start.line + 1)), "column": .int(Int64(start.utf8Column + 1)),
                        "endLine": .int(Int64(end.line + 1)), "endColumn": .int(Int64(end.utf8Column + 1)),
                        "excerpt": .string(hit.excerpt), "score": .double(hit.score), "matches": .array(matches)]
            }
            JSON.serialize(.array(found), into: &output)
            output.append(0x0A)
        } else {
            for hit in hits {
                let start = hit.analysis.lines.position(ofUTF8Offset: Int(hit.range.start))
                output += Array("\(prefix + hit.note.path):\(start.line + 1):\(start.utf8Column + 1): \(hit.excerpt)\n".utf8)
            }
        }
        StandardStreams.writeOutput(output)
        return 0
    }
}
