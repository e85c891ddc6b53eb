import MarkdownSyntax
import TextCore

/// One use of a tag, inline (`#a/b`) or in front matter (`tags: [a/b]`).
public struct TagSymbol: Sendable, Equatable {
    /// The full tag path without `#`, as written (`a/b/c`).
    public var name: String
    /// Source bytes of the occurrence as written (`#a/b` inline; the list item or word, quotes
    /// included, in front matter).
    public var range: ByteSpan
    /// Source bytes of `name` alone (no `#`, no quotes): what a rename replaces.
    public var nameRange: ByteSpan
    /// True when the tag came from the front matter's `tags`/`tag`.
    public var isFromFrontMatter: Bool

    public init(name: String, range: ByteSpan, nameRange: ByteSpan, isFromFrontMatter: Bool) {
        self.name = name
        self.range = range
        self.nameRange = nameRange
        self.isFromFrontMatter = isFromFrontMatter
    }

    /// The enclosing tags of a nested tag, outermost first: `a`, `a/b` for `a/b/c`.
    public var ancestors: [String] { TagSymbol.ancestors(of: name) }

    /// The enclosing tags of `name`, outermost first (empty segments are skipped).
    public static func ancestors(of name: String) -> [String] {
        var result: [String] = []
        var prefix = ""
        let segments = name.split(separator: "/", omittingEmptySubsequences: true)
        for (index, segment) in segments.enumerated() where index + 1 < segments.count {
            prefix += prefix.isEmpty ? String(segment) : "/" + segment
            result.append(prefix)
        }
        return result
    }

    /// True when this tag is `query` or nested under it (`a/b` matches `a` and `a/b`, not `a/bc`).
    public func matches(_ query: String) -> Bool { TagSymbol.name(name, matches: query) }

    /// True when the tag `name` is `query` or nested under it.
    public static func name(_ name: String, matches query: String) -> Bool {
        guard name.hasPrefix(query) else { return false }
        if name.utf8.count == query.utf8.count { return true }
        return name.utf8.dropFirst(query.utf8.count).first == UInt8(ascii: "/")
    }
}
