// MentionMatcher: one automaton over every name of a notebook (each note's title, aliases and
// file stem), and the matching of a note's prose against it: where its plain text names another
// note without a link.
//
// Invariants:
// - A trie over names cut into tokens (`MentionTokens`): an edge is a token's hash and whether
//   white space came before it (not for a name's first token), so one walk from each token of
//   the prose finds every name that starts there, whatever the number of names. A name longer
//   than `maximumNameTokens` tokens is not matched: each walk is bounded, and matching a note is
//   linear in its prose.
// - A name takes part only when it has at least two characters (white space aside) and a
//   letter or digit, in at most `maximumNameTokens` tokens: one letter would match everywhere.
// - Matches are verified: a trie edge compares hashes, so a match is kept only when the folded
//   text of the prose equals the name's; a hash shared by two words never makes a mention.
// - Where names overlap, the longest wins (in bytes of the prose; the leftmost of two as long),
//   whosever they are: a note's own names take part, and the caller drops what names only the
//   note itself.
// - Built from the catalog alone, in any order of notes, with the same answers; kept by the
//   notebook until a name changes (`Notebook.mentionMatcher`).
// - Plain arrays: an open-addressed table of edges, per node the name ending there, the names'
//   folded texts packed in one buffer and their owners as note numbers.

import MarkdownSyntax
import TextCore

/// A place in a note's prose that names other notes without linking them.
public struct Mention: Sendable, Equatable {
    /// The note the mention is written in (workspace-relative).
    public var source: String
    /// The mention's source bytes in that note.
    public var range: ByteSpan
    /// The notes it names, sorted by path; never `source` itself.
    public var targets: [String]

    public init(source: String, range: ByteSpan, targets: [String]) {
        self.source = source
        self.range = range
        self.targets = targets
    }
}

/// The automaton over every name of a notebook (see the file comment).
public struct MentionMatcher: Sendable {
    /// The longest name matched, in tokens.
    public static let maximumNameTokens = 32

    /// The trie's edges: `node << 32 | tokenKey`, `emptySlot` where there is none.
    private var edgeKeys: [UInt64]
    private var edgeChildren: [Int32]
    private var edgeCount = 0
    /// For each node, the name that ends there (an index into the name tables), or -1.
    private var nodeNames: [Int32] = [-1]
    /// The names' folded texts, one after the other; `nameEnds[n]` is where name `n`'s ends.
    private var nameText: [UInt8] = []
    private var nameEnds: [Int32] = []
    /// The number (`NoteCatalog.number(of:)`) of the first note having each name, and of the
    /// others for the few names several notes share.
    private var nameOwners: [Int32] = []
    private var moreOwners: [Int32: [Int32]] = [:]

    private static let emptySlot = UInt64.max

    /// The automaton of every name of `catalog`'s notes.
    public init(catalog: NoteCatalog) {
        edgeKeys = [UInt64](repeating: MentionMatcher.emptySlot, count: 64)
        edgeChildren = [Int32](repeating: -1, count: 64)
        nodeNames.reserveCapacity(catalog.notes.count * 4)
        var scratch = NameScratch()
        for (path, note) in catalog.notes {
            guard let number = catalog.number(of: path) else { continue }
            MentionMatcher.forEachName(of: note, scratch: &scratch) { tokens, folded in
                insert(tokens, folded: folded, owner: number)
            }
        }
    }

    /// The number of names.
    public var nameCount: Int { nameEnds.count }

    /// Arrays reused from one name to the next.
    struct NameScratch {
        var tokens: [MentionToken] = []
        var folded: [UInt8] = []
        /// The folded texts of the note's names so far: each name once.
        var seen: [[UInt8]] = []
    }

    /// Calls `body` with the tokens and the folded text of each name of `note` that takes part
    /// in matching (see the file comment), each once. One reading of names for the automaton and
    /// for the look-up of one note's mentions, so both take the same names.
    static func forEachName(of note: NoteSymbols, scratch: inout NameScratch, _ body: ([MentionToken], [UInt8]) -> Void) {
        scratch.seen.removeAll(keepingCapacity: true)
        func take(_ name: String) {
            var name = name
            scratch.tokens.removeAll(keepingCapacity: true)
            scratch.folded.removeAll(keepingCapacity: true)
            let taken = name.withUTF8 { bytes -> Bool in
                MentionTokens.tokenize(bytes, from: 0, to: bytes.count, into: &scratch.tokens)
                guard MentionMatcher.qualifies(scratch.tokens, in: bytes) else { return false }
                MentionTokens.foldedText(bytes, scratch.tokens[...], into: &scratch.folded)
                return true
            }
            guard taken, !scratch.seen.contains(scratch.folded) else { return }
            scratch.seen.append(scratch.folded)
            body(scratch.tokens, scratch.folded)
        }
        if !note.title.isEmpty { take(note.title) }
        for alias in note.aliases { take(alias) }
        take(NotebookPath.fileStem(of: note.path))
    }

    /// Whether a name cut into `tokens` (of its bytes `bytes`) takes part in matching: one
    /// token at least and `maximumNameTokens` at most, a word or a letter among them, and two
    /// characters or more.
    static func qualifies(_ tokens: [MentionToken], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !tokens.isEmpty, tokens.count <= maximumNameTokens, tokens.contains(where: { $0.kind != .symbol }) else { return false }
        var characters = 0
        for token in tokens {
            for index in Int(token.start)..<min(Int(token.end), bytes.count) where bytes[index] & 0xC0 != 0x80 {
                characters += 1
                if characters >= 2 { return true }
            }
        }
        return false
    }

    /// The keys (`ProseWords`) the prose of a note must hold for it to mention each name of
    /// `note`: one list per name.
    static func requiredKeys(of note: NoteSymbols) -> [[UInt16]] {
        var result: [[UInt16]] = []
        var scratch = NameScratch()
        forEachName(of: note, scratch: &scratch) { tokens, _ in result.append(ProseWords.requiredKeys(tokens[...])) }
        return result
    }

    // MARK: Building

    private mutating func insert(_ tokens: [MentionToken], folded: [UInt8], owner: Int32) {
        var node: Int32 = 0
        for (index, token) in tokens.enumerated() {
            let key = MentionMatcher.edgeKey(node, token, isFirst: index == 0)
            if let child = child(key) {
                node = child
            } else {
                let created = Int32(nodeNames.count)
                nodeNames.append(-1)
                addEdge(key, created)
                node = created
            }
        }
        let existing = nodeNames[Int(node)]
        if existing >= 0 {
            // The same name (folded) has another note; a hash shared by two names keeps the first.
            guard nameBytes(existing).elementsEqual(folded) else { return }
            if nameOwners[Int(existing)] != owner, moreOwners[existing]?.contains(owner) != true {
                moreOwners[existing, default: []].append(owner)
            }
            return
        }
        nodeNames[Int(node)] = Int32(nameEnds.count)
        nameText += folded
        nameEnds.append(Int32(nameText.count))
        nameOwners.append(owner)
    }

    /// The key of the edge from `node` by `token`.
    @inline(__always)
    private static func edgeKey(_ node: Int32, _ token: MentionToken, isFirst: Bool) -> UInt64 {
        UInt64(UInt32(bitPattern: node)) << 32 | UInt64(tokenKey(token, isFirst: isFirst))
    }

    /// A token as an edge reads it: its hash, and whether white space came before it (not for
    /// a name's first token) in the lowest bit.
    @inline(__always)
    static func tokenKey(_ token: MentionToken, isFirst: Bool) -> UInt32 {
        token.hash & ~1 | (token.spaceBefore && !isFirst ? 1 : 0)
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (edgeKeys.count - 1)
    }

    @inline(__always)
    private func child(_ key: UInt64) -> Int32? {
        var index = slot(key)
        while true {
            let found = edgeKeys[index]
            if found == key { return edgeChildren[index] }
            if found == MentionMatcher.emptySlot { return nil }
            index = (index + 1) & (edgeKeys.count - 1)
        }
    }

    private mutating func addEdge(_ key: UInt64, _ child: Int32) {
        if (edgeCount + 1) * 2 > edgeKeys.count {
            let oldKeys = edgeKeys
            let oldChildren = edgeChildren
            edgeKeys = [UInt64](repeating: MentionMatcher.emptySlot, count: oldKeys.count * 2)
            edgeChildren = [Int32](repeating: -1, count: oldKeys.count * 2)
            for index in oldKeys.indices where oldKeys[index] != MentionMatcher.emptySlot {
                place(oldKeys[index], oldChildren[index])
            }
        }
        place(key, child)
        edgeCount += 1
    }

    private mutating func place(_ key: UInt64, _ child: Int32) {
        var index = slot(key)
        while edgeKeys[index] != MentionMatcher.emptySlot { index = (index + 1) & (edgeKeys.count - 1) }
        edgeKeys[index] = key
        edgeChildren[index] = child
    }

    private func nameBytes(_ name: Int32) -> ArraySlice<UInt8> {
        let start = name == 0 ? 0 : Int(nameEnds[Int(name) - 1])
        return nameText[start..<Int(nameEnds[Int(name)])]
    }

    // MARK: Matching

    /// A name found in prose: the source bytes and the name's index.
    public struct Match: Sendable, Equatable {
        public var range: ByteSpan
        public var name: Int32
    }

    /// The numbers of the notes having the name `name`.
    public func owners(of name: Int32) -> [Int32] {
        guard name >= 0, Int(name) < nameOwners.count else { return [] }
        return [nameOwners[Int(name)]] + (moreOwners[name] ?? [])
    }

    /// Whether the note numbered `number` has the name `name`.
    public func isOwned(_ name: Int32, by number: Int32) -> Bool {
        guard name >= 0, Int(name) < nameOwners.count else { return false }
        return nameOwners[Int(name)] == number || moreOwners[name]?.contains(number) == true
    }

    // MARK: Looking for one note's names

    /// The names of one note as the matcher reads them, to look for in a whole text at once
    /// before its prose is read: a text that holds none of them anywhere (prose, code or link)
    /// mentions the note nowhere.
    public struct NameSearch: Sendable {
        /// Each name's edge keys (`edgeKey` without the node).
        let names: [[UInt32]]

        /// The names of `note` that take part in matching.
        public init(_ note: NoteSymbols) {
            var names: [[UInt32]] = []
            var scratch = NameScratch()
            MentionMatcher.forEachName(of: note, scratch: &scratch) { tokens, _ in
                names.append(tokens.enumerated().map { MentionMatcher.tokenKey($0.element, isFirst: $0.offset == 0) })
            }
            self.names = names
        }

        public var isEmpty: Bool { names.isEmpty }

        /// Whether `text` holds one of the names, its tokens in a row, anywhere.
        public func isIn(_ text: [UInt8]) -> Bool {
            guard !names.isEmpty else { return false }
            var tokens: [MentionToken] = []
            text.withUnsafeBufferPointer { MentionTokens.tokenize($0, from: 0, to: $0.count, into: &tokens) }
            return isIn(tokens)
        }

        /// Whether `tokens` hold one of the names, in a row.
        func isIn(_ tokens: [MentionToken]) -> Bool {
            for first in tokens.indices {
                let key = MentionMatcher.tokenKey(tokens[first], isFirst: true)
                for name in names where name[0] == key && first + name.count <= tokens.count {
                    var index = 1
                    while index < name.count, MentionMatcher.tokenKey(tokens[first + index], isFirst: false) == name[index] { index += 1 }
                    if index == name.count { return true }
                }
            }
            return false
        }
    }

    /// The names in `tree`'s prose (`ProseText`), in document order: in each run, every name
    /// found, overlapping ones settled longest first. With `within`, only the runs that hold
    /// one of its names are matched (overlaps are settled within a run, so the matches of
    /// those names are the same as without it).
    public func matches(in tree: SyntaxTree, within search: NameSearch? = nil) -> [Match] {
        var result: [Match] = []
        var scratch = Scratch()
        tree.source.withUnsafeBufferPointer { source in
            ProseText.forEachRun(in: tree) { start, end in
                matches(source, from: start, to: end, within: search, scratch: &scratch, into: &result)
            }
        }
        // Blocks come in the arena's order; a paragraph's inlines after the blocks.
        if !result.indices.dropFirst().allSatisfy({ result[$0 - 1].range.start <= result[$0].range.start }) {
            result.sort { $0.range.start < $1.range.start }
        }
        return result
    }

    /// Arrays reused from one run to the next.
    private struct Scratch {
        var tokens: [MentionToken] = []
        var candidates: [(first: Int, end: Int, name: Int32)] = []
        var folded: [UInt8] = []
        var taken: [Bool] = []
    }

    /// The names in the prose run `source[start..<end]`, appended to `result`.
    private func matches(_ source: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, within search: NameSearch?,
                         scratch: inout Scratch, into result: inout [Match]) {
        scratch.tokens.removeAll(keepingCapacity: true)
        MentionTokens.tokenize(source, from: start, to: end, into: &scratch.tokens)
        let tokens = scratch.tokens
        if let search, !search.isIn(tokens) { return }
        scratch.candidates.removeAll(keepingCapacity: true)
        for first in tokens.indices {
            var node: Int32 = 0
            for index in first..<min(tokens.count, first + MentionMatcher.maximumNameTokens) {
                guard let next = child(MentionMatcher.edgeKey(node, tokens[index], isFirst: index == first)) else { break }
                node = next
                let name = nodeNames[Int(node)]
                guard name >= 0 else { continue }
                scratch.folded.removeAll(keepingCapacity: true)
                MentionTokens.foldedText(source, tokens[first...index], into: &scratch.folded)
                if scratch.folded.elementsEqual(nameBytes(name)) { scratch.candidates.append((first, index + 1, name)) }
            }
        }
        guard !scratch.candidates.isEmpty else { return }
        // Longest first (in bytes), then leftmost; each takes its tokens if none is taken yet.
        func length(_ candidate: (first: Int, end: Int, name: Int32)) -> Int32 {
            tokens[candidate.end - 1].end - tokens[candidate.first].start
        }
        scratch.candidates.sort { length($0) != length($1) ? length($0) > length($1) : $0.first < $1.first }
        scratch.taken.removeAll(keepingCapacity: true)
        scratch.taken.append(contentsOf: repeatElement(false, count: tokens.count))
        let before = result.count
        for candidate in scratch.candidates where !scratch.taken[candidate.first..<candidate.end].contains(true) {
            for index in candidate.first..<candidate.end { scratch.taken[index] = true }
            result.append(Match(range: ByteSpan(Int(tokens[candidate.first].start), Int(tokens[candidate.end - 1].end)),
                                name: candidate.name))
        }
        result[before...].sort { $0.range.start < $1.range.start }
    }
}
