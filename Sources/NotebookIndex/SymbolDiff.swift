// What changed between two versions of a note's symbols, by value.
//
// Invariant: ranges never take part. Moving text (inserting a line above a link, reordering
// paragraphs) gives an empty diff; only what the link graph and the tag index hold can differ.
// Each list is a multiset difference: a link written twice and then once shows one removal, so a
// counting index stays exact.

/// The difference between the old and new symbols of one note.
public struct SymbolDiff: Sendable, Equatable {
    public var addedLinks: [LinkSymbol.Key] = []
    public var removedLinks: [LinkSymbol.Key] = []
    public var addedTags: [String] = []
    public var removedTags: [String] = []
    public var addedHeadings: [HeadingSymbol.Key] = []
    public var removedHeadings: [HeadingSymbol.Key] = []
    public var addedBlockIDs: [String] = []
    public var removedBlockIDs: [String] = []
    /// Ids of raw HTML (`<a id="…">`): Markdown fragments may name them.
    public var addedHTMLIDs: [String] = []
    public var removedHTMLIDs: [String] = []
    /// The title changed (wiki-links resolve by title).
    public var titleChanged = false
    /// The aliases changed (wiki-links resolve by alias).
    public var aliasesChanged = false

    public init() {}

    /// True when nothing the workspace index holds has changed.
    public var isEmpty: Bool {
        addedLinks.isEmpty && removedLinks.isEmpty && addedTags.isEmpty && removedTags.isEmpty
            && addedHeadings.isEmpty && removedHeadings.isEmpty && addedBlockIDs.isEmpty && removedBlockIDs.isEmpty
            && addedHTMLIDs.isEmpty && removedHTMLIDs.isEmpty && !titleChanged && !aliasesChanged
    }

    /// Elements of `new` not in `old` (in `new`'s order) and of `old` not in `new` (in `old`'s
    /// order), counting repeats.
    static func difference<Key: Hashable>(old: [Key], new: [Key]) -> (added: [Key], removed: [Key]) {
        if old == new { return ([], []) }
        var remaining: [Key: Int] = [:]
        for key in old { remaining[key, default: 0] += 1 }
        var added: [Key] = []
        for key in new {
            if let count = remaining[key], count > 0 { remaining[key] = count - 1 } else { added.append(key) }
        }
        var removed: [Key] = []
        for key in old {
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                removed.append(key)
            }
        }
        return (added, removed)
    }
}

extension NoteSymbols {
    /// What changed from `old` to `new`, compared by value so that moved text changes nothing.
    public static func diff(old: NoteSymbols, new: NoteSymbols) -> SymbolDiff {
        var diff = SymbolDiff()
        (diff.addedLinks, diff.removedLinks) = SymbolDiff.difference(old: old.links.map(\.key), new: new.links.map(\.key))
        (diff.addedTags, diff.removedTags) = SymbolDiff.difference(old: old.tags.indices.map(old.tags.name(at:)), new: new.tags.indices.map(new.tags.name(at:)))
        (diff.addedHeadings, diff.removedHeadings) = SymbolDiff.difference(old: old.headings.map(\.key),
                                                                           new: new.headings.map(\.key))
        (diff.addedBlockIDs, diff.removedBlockIDs) = SymbolDiff.difference(old: old.blockIDs.map(\.id),
                                                                           new: new.blockIDs.map(\.id))
        if !old.htmlIDs.isEmpty || !new.htmlIDs.isEmpty {
            (diff.addedHTMLIDs, diff.removedHTMLIDs) = SymbolDiff.difference(old: old.htmlIDs.map(\.id), new: new.htmlIDs.map(\.id))
        }
        diff.titleChanged = old.title != new.title
        diff.aliasesChanged = old.aliases != new.aliases
        return diff
    }
}
