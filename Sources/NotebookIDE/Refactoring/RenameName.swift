// What a rename may call a note, a tag, a heading or a reference label.
//
// A rename writes the new name into files and links, so a name is accepted only when what is
// written reads back as that name: the renamed note stays in its folder inside the notebook, and
// every rewritten link still parses and still reaches what it reached. Each check returns the
// name to write, or throws a `RenameError` whose message names the character or rule at fault
// (the server sends it to the editor as it is).

import MarkdownSyntax
import NotebookIndex
import TextCore

enum RenameName {
    /// Characters that end or split a wiki-link (`[[a]]b]]`, `[[x|y]]`, `[[a#b]]`, `[[a^b]]`),
    /// with what each does there.
    static let wikiLinkBreakers: [(Character, String)] = [
        ("[", "`[` opens a link"),
        ("]", "`]` closes a wiki-link"),
        ("|", "`|` starts a wiki-link's label"),
        ("#", "`#` starts a heading in a wiki-link"),
        ("^", "`^` starts a block id in a wiki-link"),
    ]

    /// The longest file name the common file systems allow, in bytes.
    static let maxFileNameBytes = 255

    /// A new note name for a rename from a link: a file name in the note's folder (the note
    /// extension may be given or left out), one that `[[name]]` reaches.
    static func note(_ newName: String) throws(RenameError) -> String {
        let name = NotebookPath.trimmed(newName)
        guard !name.isEmpty else { throw RenameError("the new name is empty") }
        try rejectControlCharacters(name, what: "a note name")
        if name.contains("/") || name.contains("\\") {
            let slash = name.contains("/") ? "/" : "\\"
            throw RenameError("a note name cannot contain `\(slash)`: renaming from a link keeps the note in its folder (move the file with the editor's file explorer)")
        }
        if name.allSatisfy({ $0 == "." }) { throw RenameError("`\(name)` is not a file name") }
        if name.hasPrefix(".") { throw RenameError("a note name cannot start with `.`: that makes a hidden file") }
        if name.hasSuffix(".") { throw RenameError("a note name cannot end with `.`") }
        for (character, why) in wikiLinkBreakers where name.contains(character) {
            throw RenameError("a note name cannot contain `\(character)`: \(why), so `[[\(name)]]` would not reach the note")
        }
        if NotebookPath.isExternal(name) {
            throw RenameError("`\(name)` reads as a URL in a link (`\(name.prefix { $0 != ":" }):`), so no link could reach the note")
        }
        return name
    }

    /// A new tag name, without `#` (one may be typed): what the tag scanner reads after `#`
    /// (letters, digits, `_`, `-`, `/`, with a character that is not a digit), nesting levels
    /// not empty.
    static func tag(_ newName: String) throws(RenameError) -> String {
        var name = NotebookPath.trimmed(newName)
        if name.hasPrefix("#") { name.removeFirst() }
        guard !name.isEmpty else { throw RenameError("the new tag is empty") }
        try rejectControlCharacters(name, what: "a tag")
        if tagRead(name) != name {
            // With a letter in front, the scanner stops at the first character a tag cannot hold.
            let taken = String(tagRead("x" + name).dropFirst())
            if taken != name, name.hasPrefix(taken), let bad = name.dropFirst(taken.count).first {
                let shown = bad == " " ? "spaces" : bad == "\t" ? "tabs" : "`\(bad)`"
                throw RenameError("a tag cannot contain \(shown): tags are letters, digits, `_`, `-` and `/`")
            }
            if name.allSatisfy(\.isNumber) {
                throw RenameError("a tag needs a character that is not a digit (`#\(name)` is not a tag)")
            }
            throw RenameError("`#\(name)` does not read as a tag: tags are letters, digits, `_`, `-` and `/`")
        }
        if name.hasPrefix("/") || name.hasSuffix("/") || name.contains("//") {
            throw RenameError("a tag's levels cannot be empty (`/` at the start or the end, or `//`)")
        }
        return name
    }

    /// The tag the parser reads in `#text` at its start (empty when none).
    private static func tagRead(_ text: String) -> String {
        let tree = MarkdownParser.parse("#" + text, options: .notebook)
        return NoteSymbols.extract(from: tree, path: "").tags.first { $0.range.start == 0 }?.name ?? ""
    }

    /// A new heading: the text to write in the heading, the plain text a reader sees (what
    /// wiki-links name it by) and its id. Markup is allowed (`*Acidity*` reads `Acidity`).
    static func heading(_ newName: String, level: Int) throws(RenameError) -> (source: String, text: String, slug: String) {
        let name = NotebookPath.trimmed(newName)
        guard !name.isEmpty else { throw RenameError("the new name is empty") }
        try rejectControlCharacters(name, what: "a heading")
        // Read it back as the heading it will be (an ATX heading of the same level).
        let prefix = String(repeating: "#", count: min(max(level, 1), 6)) + " "
        let tree = MarkdownParser.parse(prefix + name, options: .notebook)
        let headings = NoteSymbols.extract(from: tree, path: "").headings
        let start = Int32(prefix.utf8.count)
        guard headings.count == 1, let heading = headings.first,
              heading.textRange == ByteSpan(start, start + Int32(name.utf8.count)) else {
            if name.hasSuffix("#") {
                throw RenameError("a heading cannot end with ` #`: a closing `#` sequence is not part of the heading's text")
            }
            throw RenameError("`\(name)` would not read back as the heading's text")
        }
        guard !heading.text.isEmpty else { throw RenameError("`\(name)` leaves the heading without text") }
        return (name, heading.text, heading.slug)
    }

    /// The text a wiki-link names a heading by: its plain text, or its id when the text holds a
    /// character that would split the link (`C# tips` is written `[[note#c-tips]]`).
    static func wikiHeadingPart(text: String, slug: String) -> String? {
        if !wikiLinkBreakers.contains(where: { text.contains($0.0) }) { return text }
        return slug.isEmpty ? nil : slug
    }

    /// A new reference label: not blank, on one line, without brackets, at most 999 characters
    /// (CommonMark's limit).
    static func label(_ newName: String) throws(RenameError) -> String {
        let name = NotebookPath.trimmed(newName)
        guard !name.isEmpty else { throw RenameError("the new label is empty") }
        try rejectControlCharacters(name, what: "a reference label")
        if let bracket = name.first(where: { $0 == "[" || $0 == "]" }) {
            throw RenameError("a reference label cannot contain `\(bracket)`")
        }
        if name.hasSuffix("\\") { throw RenameError("a reference label cannot end with `\\`: it would escape the closing `]`") }
        if name.count > 999 { throw RenameError("a reference label has at most 999 characters") }
        return name
    }

    /// Throws when `name` holds a control character or a line break.
    static func rejectControlCharacters(_ name: String, what: String) throws(RenameError) {
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                let code = String(scalar.value, radix: 16, uppercase: true)
                let shown = scalar == "\n" || scalar == "\r" ? "a line break" : "the control character U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
                throw RenameError("\(what) cannot contain \(shown)")
            default:
                continue
            }
        }
    }
}
