// A snippet as a tree: the LSP 3.17 / VS Code snippet grammar read once (`SnippetParser`), then
// expanded as often as completion asks (`SnippetTemplate+Expansion`).
//
// Invariants:
// - A template is plain, immutable data (`Sendable`, `Equatable`): parsed once per snippet body,
//   shared by every request. Regular expressions are kept as their pattern (validated when
//   parsed) and compiled where a transform is applied, since `Regex` is not `Sendable`.
// - Nesting is bounded (`SnippetParser.maxDepth`), so walking a template recursively is safe.
// - Text nodes hold the text as the writer meant it, escapes removed; expansion escapes again
//   where its output is read as snippet syntax.

/// A parsed snippet body.
public struct SnippetTemplate: Sendable, Equatable {
    /// The body, in order.
    public var nodes: [SnippetNode]

    public init(nodes: [SnippetNode]) {
        self.nodes = nodes
    }

    /// Parses a snippet body (see `SnippetParser.parse`).
    public static func parse(_ body: String) -> Result<SnippetTemplate, SnippetParseError> {
        SnippetParser.parse(body)
    }

    /// The tab stop numbers the body uses (placeholders and choices included), ascending.
    public var tabStops: [Int] {
        var numbers: Set<Int> = []
        SnippetNode.walk(nodes) { node in
            switch node {
            case .tabStop(let number), .placeholder(let number, _), .choice(let number, _): numbers.insert(number)
            case .text, .variable: break
            }
        }
        return numbers.sorted()
    }
}

/// One piece of a snippet body.
public indirect enum SnippetNode: Sendable, Equatable {
    /// Literal text (escapes removed).
    case text(String)
    /// `$1` or `${1}`; `$0` is the final cursor position. Tab stops with the same number
    /// mirror each other.
    case tabStop(Int)
    /// `${1:default}`: a tab stop with default content, which may nest other nodes.
    case placeholder(Int, [SnippetNode])
    /// `${1|one,two|}`: a tab stop that offers its options (at least one).
    case choice(Int, [String])
    /// `$NAME`, `${NAME}`, `${NAME:default}` or `${NAME/regex/format/options}`; `default` is nil
    /// when none was written (`${NAME:}` has an empty one).
    case variable(name: String, default: [SnippetNode]?, transform: SnippetTransform?)

    /// Calls `visit` on every node of `nodes` and of their contents, depth first, in order.
    static func walk(_ nodes: [SnippetNode], _ visit: (SnippetNode) -> Void) {
        for node in nodes {
            visit(node)
            switch node {
            case .placeholder(_, let children): walk(children, visit)
            case .variable(_, let children?, _): walk(children, visit)
            default: break
            }
        }
    }
}

/// `/regex/format/options` after a variable's name: the variable's value with the regular
/// expression's first match (every match with `g`) replaced by the format.
public struct SnippetTransform: Sendable, Equatable {
    /// The regular expression, `\/` already read as `/`.
    public var pattern: String
    /// The replacement.
    public var format: [SnippetFormatPart]
    /// The options as written: `g` (every match), `i` (ignore case), `m` (`^` and `$` at line
    /// ends), `s` (`.` matches line breaks), `u` (accepted; matching is always Unicode).
    public var options: String
    /// The transform exactly as written, from the first `/` to the last option: what an editor
    /// gets back when the variable is left for it to resolve.
    public var source: String

    public init(pattern: String, format: [SnippetFormatPart], options: String, source: String) {
        self.pattern = pattern
        self.format = format
        self.options = options
        self.source = source
    }
}

/// One piece of a transform's format.
public enum SnippetFormatPart: Sendable, Equatable {
    /// Literal text.
    case text(String)
    /// `$1`, `${1}`: the text of a capture group (0 is the whole match); empty when it did not
    /// take part in the match.
    case group(Int)
    /// `${1:/upcase}` and the other case changes of a group.
    case caseChange(Int, SnippetCaseChange)
    /// `${1:+if}`, `${1:?if:else}`, `${1:-else}`, `${1:else}`: `ifMatched` (nil: the group's own
    /// text) when the group matched something, else `otherwise`.
    case conditional(Int, ifMatched: String?, otherwise: String)
}

/// The case changes a format may apply to a group (VS Code's meanings).
public enum SnippetCaseChange: String, Sendable, Equatable, CaseIterable {
    /// Every letter upper case.
    case upcase
    /// Every letter lower case.
    case downcase
    /// The first character upper case, the rest as it is.
    case capitalize
    /// The runs of ASCII letters and digits joined, the first starting lower case, the others
    /// upper case (`foo bar-baz` → `fooBarBaz`).
    case camelcase
    /// The runs of ASCII letters and digits joined, each starting upper case (`FooBarBaz`).
    case pascalcase
}
