// Unlinked mentions from the notebook's side: the automaton of its names, kept until a name
// changes, and the questions "which notes may mention this one" and "what does this note's
// prose mention".
//
// Invariants:
// - The matcher is a memo of the catalog's names under the notebook value (`MentionMatcherBox`:
//   made on first use, under its lock, once). Every change of a name (a note added or removed,
//   a title or aliases changed) gives the notebook a new, empty box, so a copy taken before
//   keeps the matcher of its own names; equality ignores the box.
// - Looking for a note's mentions reads no text to choose where to look: `mentionCandidates`
//   filters the notes by their `ProseWords`. The caller reads each candidate's text, searches it
//   whole for the note's names (`NameSearch`, no parse), and only where one is found parses it
//   and matches its prose (`mentions(in:path:naming:)`), which decides. No note is ever its own
//   candidate.

import Locks
import MarkdownSyntax
import TextCore

/// The matcher of one set of names, made when first asked for (see the file comment).
final class MentionMatcherBox: Sendable {
    private let matcher = Locked<MentionMatcher?>(nil)

    func matcher(for catalog: NoteCatalog) -> MentionMatcher {
        matcher.withLock { matcher in
            if let matcher { return matcher }
            let made = MentionMatcher(catalog: catalog)
            matcher = made
            return made
        }
    }
}

extension Notebook {
    /// The automaton over every name of the notebook (made on first use, kept until a name
    /// changes).
    public var mentionMatcher: MentionMatcher { mentionMatcherBox.matcher(for: catalog) }

    /// The notes other than `path` whose prose may name it (by its `ProseWords`), sorted by
    /// path: the only notes whose text can hold its unlinked mentions. Empty when no name of
    /// the note takes part in matching.
    public func mentionCandidates(of path: String) -> [String] {
        guard let note = catalog.notes[path], let own = catalog.number(of: path) else { return [] }
        let required = MentionMatcher.requiredKeys(of: note)
        guard !required.isEmpty else { return [] }
        var result: [String] = []
        for number in proseWordsByNumber.indices where number != Int(own) {
            if required.contains(where: proseWordsByNumber[number].mayContain) {
                let other = catalog.path(ofNumber: Int32(number))
                if !other.isEmpty { result.append(other) }
            }
        }
        return result.sorted()
    }

    /// The unlinked mentions in `tree`, the text of the note at `path`: each place of its prose
    /// that names other notes, with those notes. A name the note has itself is never a mention
    /// there, even when other notes have it too: the note speaks of itself. In document order.
    /// With `target`, only the mentions that name the note at that path (`search`: its
    /// `nameSearch`, when the caller has it already).
    public func mentions(in tree: SyntaxTree, path: String, naming target: String? = nil,
                         search: MentionMatcher.NameSearch? = nil) -> [Mention] {
        let matcher = mentionMatcher
        let own = catalog.number(of: path)
        let wanted = target.flatMap { catalog.number(of: $0) }
        if target != nil, wanted == nil { return [] }
        // With a target, only the prose runs that hold one of its names.
        return matcher.matches(in: tree, within: search ?? target.flatMap(nameSearch(of:))).compactMap { match in
            if let own, matcher.isOwned(match.name, by: own) { return nil }
            if let wanted, !matcher.isOwned(match.name, by: wanted) { return nil }
            let targets = matcher.owners(of: match.name).map { catalog.path(ofNumber: $0) }.filter { !$0.isEmpty && $0 != path }
            return targets.isEmpty ? nil : Mention(source: path, range: match.range, targets: targets.sorted())
        }
    }

    /// The names of the note at `path` to look for in whole texts (`MentionMatcher.NameSearch`);
    /// nil when there is no such note.
    public func nameSearch(of path: String) -> MentionMatcher.NameSearch? {
        catalog.notes[path].map(MentionMatcher.NameSearch.init)
    }

    /// The unlinked mentions of the note at `path` in the other notes, by path, then position:
    /// each candidate's text (`text`; nil when it cannot be read) searched for the note's names
    /// as a whole, and only where it holds one, its prose (`tree`) matched against every name.
    public func unlinkedMentions(of path: String, text: (String) -> [UInt8]?, tree: (String) -> SyntaxTree?) -> [Mention] {
        guard let search = nameSearch(of: path) else { return [] }
        var result: [Mention] = []
        for source in mentionCandidates(of: path) {
            guard let bytes = text(source), search.isIn(bytes), let sourceTree = tree(source) else { continue }
            result += mentions(in: sourceTree, path: source, naming: path, search: search)
        }
        return result
    }
}
