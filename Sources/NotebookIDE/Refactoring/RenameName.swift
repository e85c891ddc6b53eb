// What a rename may call a note, a tag, a heading or a reference label.
//
// A rename writes the new name into files and links, so a name is accepted only when what is
// written reads back as that name: the renamed note stays in its folder inside the notebook, and
// every rewritten link still parses and still reaches what it reached. Each check returns the
// name to write, or throws a `RenameError` whose message names the character or rule at fault
// (the server sends it to the editor as it is).

import Localization
import MarkdownSyntax
import NotebookIndex
import TextCore

enum RenameName {
    /// Characters that end or split a wiki-link (`[[a]]b]]`, `[[x|y]]`, `[[a#b]]`, `[[a^b]]`),
    /// with what each does there.
    static let wikiLinkBreakers: [(Character, LocalizedText)] = [
        ("[", LocalizedText("rename.wikiLink.openBracket")),
        ("]", LocalizedText("rename.wikiLink.closeBracket")),
        ("|", LocalizedText("rename.wikiLink.bar")),
        ("#", LocalizedText("rename.wikiLink.hash")),
        ("^", LocalizedText("rename.wikiLink.caret")),
    ]

    /// What a name is, for the message that it cannot hold a control character.
    enum Kind { case note, tag, heading, label }

    /// The longest file name the common file systems allow, in bytes.
    static let maxFileNameBytes = 255

    /// A new note name for a rename from a link: a file name in the note's folder (the note
    /// extension may be given or left out), one that `[[name]]` reaches.
    static func note(_ newName: String) throws(RenameError) -> String {
        let name = NotebookPath.trimmed(newName)
        guard !name.isEmpty else { throw RenameError("rename.name.empty") }
        try rejectControlCharacters(name, what: .note)
        if name.contains("/") || name.contains("\\") {
            let slash = name.contains("/") ? "/" : "\\"
            throw RenameError("rename.note.slash", .string(slash))
        }
        if name.allSatisfy({ $0 == "." }) { throw RenameError("rename.note.notFileName", .string(name)) }
        if name.hasPrefix(".") { throw RenameError("rename.note.leadingDot") }
        if name.hasSuffix(".") { throw RenameError("rename.note.trailingDot") }
        for (character, why) in wikiLinkBreakers where name.contains(character) {
            throw RenameError("rename.note.wikiLinkCharacter", .string(String(character)), .text(why), .string(name))
        }
        if NotebookPath.isExternal(name) {
            throw RenameError("rename.note.url", .string(name), .string(String(name.prefix { $0 != ":" })))
        }
        return name
    }

    /// A new tag name, without `#` (one may be typed): what the tag scanner reads after `#`
    /// (letters, digits, `_`, `-`, `/`, with a character that is not a digit), nesting levels
    /// not empty.
    static func tag(_ newName: String) throws(RenameError) -> String {
        var name = NotebookPath.trimmed(newName)
        if name.hasPrefix("#") { name.removeFirst() }
        guard !name.isEmpty else { throw RenameError("rename.tag.empty") }
        try rejectControlCharacters(name, what: .tag)
        if tagRead(name) != name {
            // With a letter in front, the scanner stops at the first character a tag cannot hold.
            let taken = String(tagRead("x" + name).dropFirst())
            if taken != name, name.hasPrefix(taken), let bad = name.dropFirst(taken.count).first {
                switch bad {
                case " ": throw RenameError("rename.tag.space")
                case "\t": throw RenameError("rename.tag.tab")
                default: throw RenameError("rename.tag.character", .string(String(bad)))
                }
            }
            if name.allSatisfy(\.isNumber) {
                throw RenameError("rename.tag.digitsOnly", .string(name))
            }
            throw RenameError("rename.tag.notTag", .string(name))
        }
        if name.hasPrefix("/") || name.hasSuffix("/") || name.contains("//") {
            throw RenameError("rename.tag.emptyLevel")
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
        guard !name.isEmpty else { throw RenameError("rename.name.empty") }
        try rejectControlCharacters(name, what: .heading)
        // Read it back as the heading it will be (an ATX heading of the same level).
        let prefix = String(repeating: "#", count: min(max(level, 1), 6)) + " "
        let tree = MarkdownParser.parse(prefix + name, options: .notebook)
        let headings = NoteSymbols.extract(from: tree, path: "").headings
        let start = Int32(prefix.utf8.count)
        guard headings.count == 1, let heading = headings.first,
              heading.textRange == ByteSpan(start, start + Int32(name.utf8.count)) else {
            if name.hasSuffix("#") {
                throw RenameError("rename.heading.closingHashes")
            }
            throw RenameError("rename.heading.notReadBack", .string(name))
        }
        guard !heading.text.isEmpty else { throw RenameError("rename.heading.noText", .string(name)) }
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
        guard !name.isEmpty else { throw RenameError("rename.label.empty") }
        try rejectControlCharacters(name, what: .label)
        if let bracket = name.first(where: { $0 == "[" || $0 == "]" }) {
            throw RenameError("rename.label.bracket", .string(String(bracket)))
        }
        if name.hasSuffix("\\") { throw RenameError("rename.label.trailingBackslash") }
        if name.count > 999 { throw RenameError("rename.label.tooLong", .integer(999)) }
        return name
    }

    /// Throws when `name` holds a control character or a line break.
    static func rejectControlCharacters(_ name: String, what: Kind) throws(RenameError) {
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                let code = String(scalar.value, radix: 16, uppercase: true)
                let shown = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
                if scalar == "\n" || scalar == "\r" {
                    switch what {
                    case .note: throw RenameError("rename.note.lineBreak")
                    case .tag: throw RenameError("rename.tag.lineBreak")
                    case .heading: throw RenameError("rename.heading.lineBreak")
                    case .label: throw RenameError("rename.label.lineBreak")
                    }
                }
                switch what {
                case .note: throw RenameError("rename.note.controlCharacter", .string(shown))
                case .tag: throw RenameError("rename.tag.controlCharacter", .string(shown))
                case .heading: throw RenameError("rename.heading.controlCharacter", .string(shown))
                case .label: throw RenameError("rename.label.controlCharacter", .string(shown))
                }
            default:
                continue
            }
        }
    }
}
