// The pieces of `macmd --help` and each command's `--help`, in the writer's language
// (`MacMDCommandLine.locale`).
//
// Invariants:
// - Option names, command names and the synopsis after `usage:` are never translated: they are
//   typed as shown. Only the words around them come from the catalog.
// - Columns stay lined up in every language: padding is counted in terminal columns of the text
//   actually written (`DisplayColumns`: East Asian Wide and Fullwidth take two), and a
//   description's lines break where its translation breaks them (`\n` in the catalog value).

import Localization
import NotebookIDE

enum HelpText {
    /// `usage: SYNOPSIS` in the writer's language; each further synopsis line is lined up under
    /// the first one's options (the text after `macmd COMMAND `), whatever the width of the
    /// translated `usage:`.
    static func usage(_ synopsis: [String]) -> String {
        guard let first = synopsis.first else { return "" }
        // The translated pattern around the synopsis, found with a marker no translation holds.
        let marker = "\u{1}"
        let labelled = MacMDCommandLine.text(LocalizedText("cli.help.usage", .string(marker)))
        let parts = labelled.split(separator: marker, maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let before = parts.first ?? ""
        let after = parts.count > 1 ? parts[1] : ""
        var text = before + first + after + "\n"
        // `macmd lsp ` (the program and command names) and what precedes them.
        let words = first.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        let command = words.prefix(2).joined(separator: " ") + " "
        let indent = String(repeating: " ", count: DisplayColumns.of(before) + DisplayColumns.of(command))
        for line in synopsis.dropFirst() { text += indent + line + "\n" }
        return text
    }

    /// A heading such as `Options:`, on its own line.
    static func heading(_ title: LocalizedText) -> String {
        MacMDCommandLine.text(title) + "\n"
    }

    /// A paragraph, broken into lines where its translation breaks it, ending in a newline.
    static func paragraph(_ body: LocalizedText) -> String {
        MacMDCommandLine.text(body) + "\n"
    }

    /// Two columns: each name indented by two spaces, its description from `column` (at least two
    /// spaces after the name; a name too long for that stands on a line of its own), and the
    /// description's further lines indented to `column`.
    static func rows(_ rows: [(name: String, description: LocalizedText)], column: Int) -> String {
        let indent = String(repeating: " ", count: column)
        var text = ""
        for (name, description) in rows {
            let lines = MacMDCommandLine.text(description).split(separator: "\n", omittingEmptySubsequences: false)
            let nameWidth = 2 + DisplayColumns.of(name)
            text += "  " + name
            if nameWidth + 2 <= column {
                text += String(repeating: " ", count: column - nameWidth)
            } else {
                text += "\n" + indent
            }
            for (index, line) in lines.enumerated() {
                text += (index == 0 ? "" : indent) + line + "\n"
            }
        }
        return text
    }
}
