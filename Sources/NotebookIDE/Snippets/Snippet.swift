// A named snippet: what completion offers (its prefixes, name and description) and what it
// inserts (its body, parsed once into a template).

import Localization

/// A snippet a writer can insert by typing one of its prefixes.
public struct Snippet: Sendable, Equatable {
    /// Where in a note the snippet is offered.
    public enum Placement: Sendable, Equatable {
        /// In the body of a note: not in code, math or the front matter.
        case body
        /// On the first line of a note that has no front matter yet (a front-matter template).
        case noteStart
    }

    /// The snippet's name (a built-in's, a VS Code file's key, a snippet note's file name).
    public var name: String
    /// The words that offer it, at least one.
    public var prefixes: [String]
    /// What it is for, shown beside it; nil when none was written. A built-in's is in the
    /// catalog; a writer's own is shown as written (`verbatim`).
    public var description: LocalizedText?
    /// The body as written, in snippet syntax.
    public var body: String
    /// The body parsed.
    public var template: SnippetTemplate
    public var placement: Placement
    /// Where it was defined: nil for a built-in snippet, else its file's path.
    public var origin: String?

    /// A snippet whose body is parsed here; the body's parse error otherwise.
    public init(name: String, prefixes: [String], description: LocalizedText? = nil, body: String,
                placement: Placement = .body, origin: String? = nil) throws(SnippetParseError) {
        self.name = name
        self.prefixes = prefixes
        self.description = description
        self.body = body
        self.template = try SnippetParser.parse(body).get()
        self.placement = placement
        self.origin = origin
    }

    /// The short text beside the snippet in a completion list: its description, else its name.
    public var detail: LocalizedText {
        description.flatMap { $0.key == nil && $0.english.isEmpty ? nil : $0 } ?? .verbatim(name)
    }

    /// The preview of what the snippet inserts, as Markdown: a fenced code block.
    public func documentation(variables: SnippetVariables) -> String {
        Snippet.codeBlock(template.preview(variables: variables))
    }

    /// `text` in a fenced `markdown` code block whose fence is longer than any backtick run in it.
    static func codeBlock(_ text: String) -> String {
        let longest = text.utf8.split(whereSeparator: { $0 != UInt8(ascii: "`") }).map(\.count).max() ?? 0
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + "markdown\n" + text + "\n" + fence
    }
}
