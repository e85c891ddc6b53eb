// What each diagnostic code reports, in English: the documentation the JSON Schema's
// `diagnostics` properties and the table of docs/notebook.md are generated from
// (`macmd-bench codes --write`). It is documentation for writers who configure codes, not a
// message shown in a note, so it is written here rather than in the catalog.

extension DiagnosticCode {
    /// What it reports: one line of Markdown, without a final full stop.
    public var summary: String {
        switch self {
        case .brokenLink:
            "a Markdown link to a note that does not exist"
        case .brokenWikilink:
            "a wiki-link or embed that matches no note"
        case .brokenHeading:
            "a link to a heading the target note (or this note) does not have"
        case .brokenBlock:
            "a link to a `^block-id` the target note does not have"
        case .brokenImage:
            "an image (`![alt](a.png)`, `![[a.png]]`) that is not in the notebook or on disk"
        case .brokenFile:
            "a link to another file that is not in the notebook or on disk"
        case .linkOutsideNotebook:
            "a relative link that climbs above the notebook's root (`../std/index.html`): it cannot be checked"
        case .ambiguousWikilink:
            "a wiki-link (or a Markdown link read by name) that several notes (or files, for `![[a.png]]`) "
                + "match equally well; the candidates are its related information"
        case .undefinedReference:
            "`[text][label]` or `[label][]` with no definition of `label` (a bare `[label]` is ordinary text)"
        case .duplicateDefinition:
            "a second link reference definition of a label (the first is used)"
        case .unusedDefinition:
            "a link reference definition no link uses (shown faded)"
        case .duplicateHeading:
            "a link by heading text (or shared id) to a heading the note has twice: it reaches the first "
                + "(the message lists the ids of the first ten such headings)"
        case .malformedFrontMatter:
            "front matter that is not the YAML subset"
        case .nestingLimit:
            "quotes, list items or footnotes nested deeper than `maxNestingDepth` (100): from there their "
                + "markers are read as text; once per note, where it first happens"
        case .noteTooLarge:
            "a note open in the editor that is larger than `maxFileSize` (5 MB): MacMD does not read it, "
                + "as the scan skips such a file; at its first line, and its preview is refused with the same message"
        case .mathError:
            "a formula the MathML converter does not understand (`$\\fracc{1}{2}$`: `unknown command \\fracc`), "
                + "over the whole formula; off until the configuration gives it a severity "
                + "(`\"diagnostics\": {\"math-error\": \"warning\"}`), since KaTeX or MathJax may typeset what it does not"
        case .snippetError:
            "a snippet file or snippet note of the notebook that cannot give a snippet, at the broken place, "
                + "while the file is open ([snippets](editing.md#your-own-snippets))"
        case .unlinkedMention:
            "plain text that names another note by its title, an alias or its file name without linking it "
                + "([unlinked mentions](#unlinked-mentions)); off until the configuration gives it a severity "
                + "(`\"diagnostics\": {\"unlinked-mention\": \"hint\"}`), and `macmd check --unlinked` reports them as hints"
        }
    }
}
