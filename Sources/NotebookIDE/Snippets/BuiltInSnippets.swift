// The snippets every notebook has. Bodies are written in the snippet syntax and parsed once;
// a test checks that every one parses (a body that did not would be missing from `all`).
//
// Block snippets end without a line break: the final stop is where the writer goes on typing,
// and a line the note already has after the cursor is not pushed down by an empty one.

import Localization

/// The built-in snippets.
public enum BuiltInSnippets {
    /// The code fence's language choice (`text` first: what a client without snippets gets).
    static let fenceLanguages = ["text", "markdown", "swift", "python", "javascript", "typescript", "json", "yaml",
                                 "shell", "html", "css", "rust", "go", "c", "cpp", "java", "sql"]

    /// Today's date as `yyyy-mm-dd`, in the writer's time zone.
    static let date = "$CURRENT_YEAR-$CURRENT_MONTH-$CURRENT_DATE"
    /// The time as `hh:mm`.
    static let time = "$CURRENT_HOUR:$CURRENT_MINUTE"

    /// Every built-in snippet, in the order a list shows them.
    public static let all: [Snippet] = definitions.compactMap { definition in
        try? Snippet(name: definition.name, prefixes: definition.prefixes, description: LocalizedText(definition.description),
                     body: definition.body, placement: definition.placement)
    }

    /// The snippets as written: name (shown as it is, like the names of a writer's own snippets),
    /// prefixes, the catalog key of the description, body, placement.
    static let definitions: [(name: String, prefixes: [String], description: String, body: String, placement: Snippet.Placement)] = [
        ("Table", ["table"], "snippet.builtIn.table",
         "| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |\n| ${5:Cell} | ${6:Cell} |$0", .body),
        ("Code block", ["code", "fence"], "snippet.builtIn.codeBlock", // l10n-exempt: a snippet's name, shown as written
         "```${1|" + fenceLanguages.joined(separator: ",") + "|}\n$0\n```", .body),
        ("Link", ["link"], "snippet.builtIn.link", "[${1:text}](${2:https://})$0", .body),
        // l10n-exempt: a snippet's name and its body's placeholder, inserted as written
        ("Image", ["image", "img"], "snippet.builtIn.image", "![${1:alt text}](${2:path})$0", .body),
        ("Wiki-link", ["wikilink"], "snippet.builtIn.wikiLink", "[[${1:note}]]$0", .body),
        ("Task", ["task", "todo"], "snippet.builtIn.task", "- [ ] ${1:task}$0", .body),
        ("Alert", ["alert", "callout"], "snippet.builtIn.alert",
         "> [!${1|NOTE,TIP,IMPORTANT,WARNING,CAUTION|}]\n> $0", .body),
        ("Math block", ["math"], "snippet.builtIn.mathBlock", "\\$\\$\n$0\n\\$\\$", .body), // l10n-exempt: a snippet's name, shown as written
        ("Front matter", ["frontmatter", "fm"], "snippet.builtIn.frontMatter", // l10n-exempt: a snippet's name, shown as written
         "---\ntitle: ${1:$TM_FILENAME_BASE}\ndate: " + date + "\ntags: [$2]\n---\n$0", .noteStart),
        ("Footnote", ["footnote"], "snippet.builtIn.footnote", "[^${1:1}]$0", .body),
        ("Footnote definition", ["footnotedef"], "snippet.builtIn.footnoteDefinition", "[^${1:1}]: ${2:text}$0", .body), // l10n-exempt: a snippet's name, shown as written
        ("Details", ["details"], "snippet.builtIn.details",
         "<details>\n<summary>${1:Summary}</summary>\n\n$0\n\n</details>", .body),
        ("Date", ["date"], "snippet.builtIn.date", date, .body),
        ("Time", ["time"], "snippet.builtIn.time", time, .body),
        ("Date and time", ["datetime", "now"], "snippet.builtIn.dateAndTime", date + " " + time, .body), // l10n-exempt: a snippet's name, shown as written
        ("Table of contents", ["toc"], "snippet.builtIn.tableOfContents", // l10n-exempt: a snippet's name, shown as written
         TableOfContents.startMarker + "\n" + TableOfContents.endMarker + "$0", .body),
    ]
}
