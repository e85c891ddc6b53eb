// The snippets every notebook has. Bodies are written in the snippet syntax and parsed once;
// a test checks that every one parses (a body that did not would be missing from `all`).
//
// Block snippets end without a line break: the final stop is where the writer goes on typing,
// and a line the note already has after the cursor is not pushed down by an empty one.

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
        try? Snippet(name: definition.name, prefixes: definition.prefixes, description: definition.description,
                     body: definition.body, placement: definition.placement)
    }

    /// The snippets as written: name, prefixes, description, body, placement.
    static let definitions: [(name: String, prefixes: [String], description: String, body: String, placement: Snippet.Placement)] = [
        ("Table", ["table"], "A table with two columns: the cells are tab stops",
         "| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |\n| ${5:Cell} | ${6:Cell} |$0", .body),
        ("Code block", ["code", "fence"], "A fenced code block with a language",
         "```${1|" + fenceLanguages.joined(separator: ",") + "|}\n$0\n```", .body),
        ("Link", ["link"], "A link with text and a destination", "[${1:text}](${2:https://})$0", .body),
        ("Image", ["image", "img"], "An image with alternative text", "![${1:alt text}](${2:path})$0", .body),
        ("Wiki-link", ["wikilink"], "A link to a note of the notebook", "[[${1:note}]]$0", .body),
        ("Task", ["task", "todo"], "A task list item", "- [ ] ${1:task}$0", .body),
        ("Alert", ["alert", "callout"], "A GitHub alert: note, tip, important, warning or caution",
         "> [!${1|NOTE,TIP,IMPORTANT,WARNING,CAUTION|}]\n> $0", .body),
        ("Math block", ["math"], "A display math block", "\\$\\$\n$0\n\\$\\$", .body),
        ("Front matter", ["frontmatter", "fm"], "Front matter: title, date and tags",
         "---\ntitle: ${1:$TM_FILENAME_BASE}\ndate: " + date + "\ntags: [$2]\n---\n$0", .noteStart),
        ("Footnote", ["footnote"], "A footnote reference", "[^${1:1}]$0", .body),
        ("Footnote definition", ["footnotedef"], "A footnote's text", "[^${1:1}]: ${2:text}$0", .body),
        ("Details", ["details"], "A collapsible section with a summary",
         "<details>\n<summary>${1:Summary}</summary>\n\n$0\n\n</details>", .body),
        ("Date", ["date"], "Today's date (yyyy-mm-dd)", date, .body),
        ("Time", ["time"], "The time (hh:mm)", time, .body),
        ("Date and time", ["datetime", "now"], "Today's date and the time", date + " " + time, .body),
        ("Table of contents", ["toc"], "A table of contents: the code action fills it in",
         TableOfContents.startMarker + "\n" + TableOfContents.endMarker + "$0", .body),
    ]
}
