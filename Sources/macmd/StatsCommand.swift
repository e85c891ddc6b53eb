// `macmd stats [PATH...]`: the writing statistics of notes (NotebookIDE's `TextStatistics`, the
// counts of `macmd/statistics` and of the preview): one row a note, then the total.
//
//   note              words  characters  no spaces  paragraphs  reading
//   soil-tests.md       412        2630       2214           9    2 min
//
// A PATH is a note, or a folder read as a notebook (its `.macmd.json` and ignore rules decide
// which files are notes); the default is the current folder. Exit status: 0, or 2 for usage
// errors and a path that cannot be read.

import CommandLineIO
import JSON
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookWorkspace
import TextCore

enum StatsCommand {
    /// `macmd stats --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis is typed as shown
        HelpText.usage(["macmd stats [PATH...] [--format text|json] [--no-code] [--no-urls] [--front-matter]"]) + "\n"
            + HelpText.paragraph(LocalizedText("cli.stats.help"))
    }

    /// One counted note: its path as shown, and its counts.
    struct Row {
        var path: String
        var counts: TextStatistics
    }

    static func run(_ arguments: [String]) -> Int32 {
        var paths: [String] = []
        var json = false
        var options = TextStatistics.Options()
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--format":
                guard i + 1 < arguments.count, ["text", "json"].contains(arguments[i + 1]) else {
                    return MacMDCommandLine.usageError("stats", LocalizedText("cli.check.error.format"))
                }
                json = arguments[i + 1] == "json"
                i += 1
            case "--no-code": options.code = false
            case "--no-urls": options.urls = false
            case "--front-matter": options.frontMatter = true
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            case let argument where argument.hasPrefix("-") && argument != "-":
                return MacMDCommandLine.usageError("stats", LocalizedText("cli.error.unknownOption", .string(argument)))
            default:
                paths.append(arguments[i])
            }
            i += 1
        }
        if paths.isEmpty { paths = ["."] }
        var rows: [Row] = []
        var unreadable = false
        for path in paths {
            guard let found = counts(of: path, options: options, unreadable: &unreadable) else { return 2 }
            rows += found
        }
        let total = rows.reduce(TextStatistics()) { $0 + $1.counts }
        var output: [UInt8] = []
        if json {
            func object(_ counts: TextStatistics) -> [String: JSONValue] {
                ["words": .int(Int64(counts.words)), "characters": .int(Int64(counts.characters)),
                 "charactersWithoutSpaces": .int(Int64(counts.charactersWithoutSpaces)),
                 "paragraphs": .int(Int64(counts.paragraphs)), "readingSeconds": .int(Int64(counts.readingSeconds))]
            }
            let notes = rows.map { row -> JSONValue in
                var fields = object(row.counts)
                fields["path"] = .string(row.path)
                return .object(fields)
            }
            JSON.serialize(["notes": .array(notes), "total": .object(object(total))], into: &output)
            output.append(0x0A)
        } else {
            output = Array(table(rows, total: total).utf8)
        }
        StandardStreams.writeOutput(output)
        // The counts of the notes that could be read are shown; the one that could not was
        // named, and the status says the total lacks it.
        return unreadable ? 2 : 0
    }

    /// The rows of `path`: the note, or every note of the notebook at the folder; nil, with the
    /// reason written, when it cannot be read. A note of the notebook that cannot be read is
    /// named on standard error, left out, and `unreadable` set.
    static func counts(of path: String, options: TextStatistics.Options, unreadable: inout Bool) -> [Row]? {
        if FileReader.isDirectory(path) {
            guard let notebook = MacMDCommandLine.indexedNotebook(path, command: "stats") else { return nil }
            let prefix = path == "." ? "" : (path.hasSuffix("/") ? path : path + "/")
            var rows: [Row] = []
            for note in notebook.notebook.notes.keys.sorted() {
                switch FileReader.contents(of: notebook.absolutePath(note)) {
                case .success(let bytes):
                    let tree = MarkdownParser.parse(bytes, options: notebook.configuration.parseOptions)
                    rows.append(Row(path: prefix + note, counts: TextStatistics(tree: tree, options: options)))
                case .failure(let error):
                    MacMDCommandLine.writeError("stats", error.text)
                    unreadable = true
                }
            }
            return rows
        }
        switch FileReader.contents(of: path) {
        case .success(let bytes):
            return [Row(path: path, counts: TextStatistics(tree: MarkdownParser.parse(bytes, options: .notebook), options: options))]
        case .failure(let error):
            MacMDCommandLine.writeError("stats", error.text)
            return nil
        }
    }

    /// The rows as a table: the path left, the counts right-aligned, the total last when there
    /// is more than one note.
    static func table(_ rows: [Row], total: TextStatistics) -> String {
        let text = MacMDCommandLine.text
        let headings = ["cli.stats.column.note", "cli.stats.column.words", "cli.stats.column.characters",
                        "cli.stats.column.withoutSpaces", "cli.stats.column.paragraphs", "cli.stats.column.reading"]
            .map { text(LocalizedText($0)) }
        func cells(_ path: String, _ counts: TextStatistics) -> [String] {
            [path, String(counts.words), String(counts.characters), String(counts.charactersWithoutSpaces), String(counts.paragraphs),
             text(LocalizedText("cli.stats.minutes", .integer(counts.readingMinutes)))]
        }
        var lines = [headings] + rows.map { cells($0.path, $0.counts) }
        if rows.count > 1 { lines.append(cells(text(LocalizedText("cli.stats.total", .integer(rows.count))), total)) }
        var widths = [Int](repeating: 0, count: headings.count)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], DisplayColumns.of(cell)) }
        }
        return lines.map { line in
            line.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - DisplayColumns.of(cell))
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
