// The index of one notebook (one workspace folder): every note's symbols, the catalog that
// resolves links, the link graph, tag uses, front-matter values and the other files (images).
//
// Invariants:
// - A plain value. `update` and `remove` cost what the changed note holds (its links, tags,
//   names), never the notebook's size: every table is keyed, nothing is rebuilt.
// - Built in any order, or by any sequence of updates, the same notes give an equal `Notebook`
//   (the incremental-equals-scratch test checks this). Tables never keep empty entries.
// - The link graph is keyed by *names* (a link's target stem or wiki text, a note's stem, title
//   and aliases), not by resolved paths: a link whose resolution depends on other notes (a stem
//   shared by two notes, a title) is found by name and resolved when asked, so adding, renaming
//   or removing a note never leaves a stale edge.
// - Unlinked mentions need no table: each note's symbols keep the hashed words of its prose
//   (`ProseWords`), and the automaton of every name is a memo made on first use after a name
//   changed (Notebook+Mentions.swift), the one thing rebuilt rather than updated.
// - Full-text search keeps an inverted index: for each of 65,536 buckets of terms (a term's
//   hash's high 16 bits, `SearchTerms`) the numbers of the notes holding a term of it, once a
//   note; and each note's terms with their weights, by number. A term's notes are its bucket's
//   that hold it (their own sorted terms say). A note's update files only the buckets that came
//   or went (a merge of its old and new sorted terms); the total length of the notes (BM25's
//   average) is kept as a sum (Notebook+Search.swift). Buckets, not a table keyed by term: an
//   array index where a hash table took a hash and a probe for each of a scan's two million
//   postings.

import TextCore

/// What an update changed, and which other notes may now resolve their links differently.
public struct NotebookChange: Sendable, Equatable {
    /// True when a note was added or removed or its title or aliases changed: what link
    /// completion lists by name.
    public var catalogChanged: Bool
    /// Other notes whose diagnostics may change: those with links that can reach this note by a
    /// name it had or has. Empty when nothing others can link to changed.
    public var affected: Set<String>
    /// True when what a link can reach changed: a note came or went, or its title, aliases,
    /// headings, block ids or HTML ids changed (whoever links to them). False for an edit that
    /// leaves them: every link of the notebook resolves as it did before it.
    public var linkTargetsChanged: Bool
    /// True when a note came or went or its links changed (what they name, not where they are
    /// written): the backlinks of other notes may have changed.
    public var linksChanged: Bool

    public init(catalogChanged: Bool, affected: Set<String>, linkTargetsChanged: Bool = true, linksChanged: Bool = true) {
        self.catalogChanged = catalogChanged
        self.affected = affected
        self.linkTargetsChanged = linkTargetsChanged
        self.linksChanged = linksChanged
    }
}

/// A use of a note found by `Notebook.backlinks(to:)`.
public struct Backlink: Sendable, Equatable {
    /// The note the link is written in.
    public var source: String
    public var link: LinkSymbol
    /// The heading and block of the target the link names, when it names them.
    public var heading: HeadingSymbol?
    public var blockID: BlockIDSymbol?
    /// What the link names that the note does not have (the heading path joined with `#`, or
    /// `^id`); nil when the link reaches all it names. Such a link is still a use of the note:
    /// moving or renaming the note must rewrite it.
    public var missingAnchor: String? = nil
    /// The HTML id (`<a id="…">`) the link's fragment names, when it names one.
    public var htmlID: HTMLIDSymbol? = nil
}

public struct Notebook: Sendable, Equatable {
    /// The notes and the tables that resolve links to them.
    public private(set) var catalog: NoteCatalog
    /// Files that are not notes (images, PDFs), workspace-relative. The catalog keeps them by
    /// file name too, for wiki-links by name (`![[photo.png]]`).
    public private(set) var assets: Set<String> = []
    /// For each tag (full name, as written): the numbers (`NoteCatalog.number(of:)`) of the notes using it,
    /// once per use (a multiset in no particular order, four bytes a use where a path took
    /// sixteen).
    private var tagUsers: [QuickHashKey: [Int32]] = [:]
    /// For each front-matter key: its scalar values and list items, with the number of uses.
    public private(set) var frontMatterValues: [String: [String: Int]] = [:]
    /// For each link name (see the file comment): the numbers (the catalog's) of the notes with
    /// such links, once per link (a multiset in no particular order; an array per name, where a
    /// dictionary would cost a hash table each, of four-byte numbers, where a path took sixteen).
    private var linkSources: [QuickHashKey: [Int32]] = [:]
    /// The automaton of the notes' names for unlinked mentions, made when first asked for;
    /// replaced by an empty box whenever a name changes (Notebook+Mentions.swift).
    var mentionMatcherBox = MentionMatcherBox()
    /// Each note's prose words by its number (`NoteCatalog.number(of:)`; empty for a number not
    /// in use): what looking for a note's mentions reads of every note, in one array, where
    /// reading them from the notes' table copied every note's symbols. Follows the catalog.
    var proseWordsByNumber: [ProseWords] = []
    /// For each bucket of search terms (`Notebook.searchBucket(of:)`): the numbers of the notes
    /// holding a term of it, once each (a set kept as an array, in no particular order); empty
    /// until the first note with terms is filed.
    var searchPostings: [[Int32]] = []
    /// Each note's search terms by its number (empty for a number not in use). Follows the
    /// catalog, like `proseWordsByNumber`.
    var searchTermsByNumber: [SearchTerms] = []
    /// The sum of every note's weighted length (`SearchTerms.length`).
    public private(set) var searchLength: UInt64 = 0

    public init(noteExtensions: [String] = ["md", "markdown"]) {
        catalog = NoteCatalog(noteExtensions: noteExtensions)
    }

    /// All the notes, by path.
    public var notes: ShardedDictionary<String, NoteSymbols> { catalog.notes }

    /// How Markdown links whose path reaches nothing are read (`links.markdownResolution`).
    public var markdownResolution: MarkdownResolution {
        get { catalog.markdownResolution }
        set { catalog.markdownResolution = newValue }
    }

    /// The folder holding a published book's notes (`sourceFolder`), when the notebook is one.
    public var sourceFolder: String? {
        get { catalog.sourceFolder }
        set { catalog.sourceFolder = newValue }
    }

    /// Adds or replaces a note. A replaced note changes the tables by the difference of its
    /// symbols only: an edit that moves text or changes prose costs no table work at all.
    @discardableResult
    public mutating func update(_ note: NoteSymbols) -> NotebookChange {
        guard let old = catalog.notes[note.path] else {
            let number = catalog.insert(note)
            register(note, number: number)
            mentionMatcherBox = MentionMatcherBox()
            var affected = linkers(names: names(of: note))
            affected.remove(note.path)
            return NotebookChange(catalogChanged: true, affected: affected)
        }
        let diff = NoteSymbols.diff(old: old, new: note)
        let number = diff.titleChanged || diff.aliasesChanged ? catalog.insert(note) : catalog.replaceSymbols(note)
        fileProseWords(note.proseWords, number: number)
        fileSearchTerms(note.searchTerms, replacing: old.searchTerms, number: number)
        if diff.titleChanged || diff.aliasesChanged { mentionMatcherBox = MentionMatcherBox() }
        for key in diff.removedLinks { for name in Notebook.linkNames(isWiki: key.isWiki, target: key.target) { removeSource(number, name) } }
        for key in diff.addedLinks {
            for name in Notebook.linkNames(isWiki: key.isWiki, target: key.target) { linkSources[QuickHashKey(name), default: []].append(number) }
        }
        for tag in diff.removedTags { Notebook.removeOne(number, &tagUsers, QuickHashKey(tag)) }
        for tag in diff.addedTags { tagUsers[QuickHashKey(tag), default: []].append(number) }
        if old.frontMatter != note.frontMatter {
            unregisterFrontMatter(old)
            Notebook.forEachFrontMatterPair(note) { key, value in frontMatterValues[key, default: [:]][value, default: 0] += 1 }
        }
        let namesChanged = diff.titleChanged || diff.aliasesChanged || !diff.addedHeadings.isEmpty
            || !diff.removedHeadings.isEmpty || !diff.addedBlockIDs.isEmpty || !diff.removedBlockIDs.isEmpty
            || !diff.addedHTMLIDs.isEmpty || !diff.removedHTMLIDs.isEmpty
        var affected: Set<String> = []
        if namesChanged {
            affected = linkers(names: names(of: note).union(names(of: old)))
            affected.remove(note.path)
        }
        return NotebookChange(catalogChanged: diff.titleChanged || diff.aliasesChanged, affected: affected,
                              linkTargetsChanged: namesChanged, linksChanged: !diff.addedLinks.isEmpty || !diff.removedLinks.isEmpty)
    }

    /// Adds notes in bulk (a scan): the same tables as `update`, without working out which other
    /// notes each one affects.
    public mutating func insert(_ notes: [NoteSymbols]) {
        insert(notes.map { Notebook.prepare($0, noteExtensions: catalog.noteExtensions) })
    }

    /// A note with the keys the tables file it under, worked out without touching the notebook,
    /// so scans do that part on every core and only the table updates run one at a time.
    public struct PreparedNote: Sendable {
        public let symbols: NoteSymbols
        let catalogKeys: [(NoteCatalog.Table, UInt32)]
        let linkNames: [String]
    }

    /// The keys of `note` for a notebook whose notes have `noteExtensions` (lowercased).
    public static func prepare(_ note: NoteSymbols, noteExtensions: [String] = ["md", "markdown"]) -> PreparedNote {
        var names: [String] = []
        names.reserveCapacity(note.links.count)
        let links = note.links
        for index in links.indices { Notebook.appendLinkNames(isWiki: links.form(at: index).isWiki, target: links.targetText(at: index), to: &names) }
        return PreparedNote(symbols: note, catalogKeys: NoteCatalog.keys(of: note, extensions: noteExtensions), linkNames: names)
    }

    /// Makes room for `notes` more notes, so a scan does not rehash the tables as they grow.
    public mutating func reserveCapacity(notes count: Int) {
        catalog.reserveCapacity(count)
        proseWordsByNumber.reserveCapacity(proseWordsByNumber.count + count)
        searchTermsByNumber.reserveCapacity(searchTermsByNumber.count + count)
        linkSources.reserveCapacity(linkSources.count + count)
    }

    /// Adds prepared notes in bulk.
    public mutating func insert(_ prepared: [PreparedNote]) {
        if !prepared.isEmpty { mentionMatcherBox = MentionMatcherBox() }
        for item in prepared {
            let note = item.symbols
            // The number the catalog gives a note new to it (one hash of its path, not two).
            guard let number = catalog.insertNew(note, keys: item.catalogKeys) else {
                update(note)
                continue
            }
            for name in item.linkNames { linkSources[QuickHashKey(name), default: []].append(number) }
            registerTagsAndFrontMatter(note, number: number)
            fileProseWords(note.proseWords, number: number)
            fileSearchTerms(note.searchTerms, replacing: SearchTerms(), number: number)
        }
    }

    /// Removes the note at `path`; nil when there was none.
    @discardableResult
    public mutating func remove(path: String) -> NotebookChange? {
        guard let number = catalog.number(of: path), let old = catalog.remove(path: path) else { return nil }
        unregister(old, number: number)
        fileProseWords(ProseWords(), number: number)
        fileSearchTerms(SearchTerms(), replacing: old.searchTerms, number: number)
        mentionMatcherBox = MentionMatcherBox()
        var affected = linkers(names: names(of: old))
        affected.remove(path)
        return NotebookChange(catalogChanged: true, affected: affected)
    }

    /// Records a file that is not a note; returns the notes whose links may reach it.
    @discardableResult
    public mutating func addAsset(_ path: String) -> Set<String> {
        assets.insert(path)
        catalog.insertAsset(path)
        return linkers(names: [Notebook.linkName(NotebookPath.fileStem(of: path))])
    }

    /// Forgets a file that is not a note; returns the notes whose links may reach it.
    @discardableResult
    public mutating func removeAsset(_ path: String) -> Set<String> {
        assets.remove(path)
        catalog.removeAsset(path)
        return linkers(names: [Notebook.linkName(NotebookPath.fileStem(of: path))])
    }

    // MARK: Queries

    /// How often each tag is used, nested tags counted under their own full name.
    public var tagCounts: [String: Int] {
        Dictionary(uniqueKeysWithValues: tagUsers.lazy.map { ($0.key.string, $0.value.count) })
    }

    /// For each tag (full name, as written): the notes using it, the path once per use (a
    /// multiset, in no particular order). Made when asked, from the note numbers kept.
    public var tagUses: [String: [String]] {
        Dictionary(uniqueKeysWithValues: tagUsers.lazy.map { ($0.key.string, $0.value.map { catalog.path(ofNumber: $0) }) })
    }

    /// Every link in the notebook that reaches the note at `path` (any heading or block of it
    /// included, and links naming a heading or block it does not have), sorted by source path
    /// and position; only those `including` takes, when given (it is asked before a link is
    /// resolved: `{ !$0.headings.isEmpty }` costs the links to headings alone).
    public func backlinks(to path: String, including: ((LinkSymbol) -> Bool)? = nil) -> [Backlink] {
        guard let target = catalog.notes[path] else { return [] }
        let targetNames = names(of: target)
        var sources = linkers(names: targetNames)
        sources.insert(path)
        var result: [Backlink] = []
        for source in sources.sorted() {
            guard let note = catalog.notes[source] else { continue }
            for link in note.links {
                // Only a link that names the note can reach it (a note's own links to itself
                // may name no note: `[[#Heading]]`): the others are not resolved at all, so a
                // note many notes link to costs its links, not all of theirs.
                if let including, !including(link) { continue }
                if source != path, !Notebook.linkNames(isWiki: link.form.isWiki, target: link.target.text).contains(where: targetNames.contains) {
                    continue
                }
                switch catalog.resolve(link, from: source) {
                case .note(let reached, let heading, let block, let htmlID) where reached == path:
                    result.append(Backlink(source: source, link: link, heading: heading, blockID: block, htmlID: htmlID))
                case .brokenHeading(let reached, let heading) where reached == path:
                    result.append(Backlink(source: source, link: link, heading: nil, blockID: nil, missingAnchor: heading))
                case .brokenBlock(let reached, let id) where reached == path:
                    result.append(Backlink(source: source, link: link, heading: nil, blockID: nil, missingAnchor: "^" + id))
                default:
                    break
                }
            }
        }
        return result
    }

    /// The notes with a link that can reach `path` (a note or an asset) by one of its names.
    public func linkers(of path: String) -> Set<String> {
        if let note = catalog.notes[path] { return linkers(names: names(of: note)) }
        return linkers(names: [Notebook.linkName(NotebookPath.fileStem(of: path))])
    }

    /// The problems of the note at `path` (empty when it is not indexed). Files that are not
    /// notes exist when `assets` lists them or `fileExists` says so.
    public func diagnostics(for path: String, fileExists: (String) -> Bool = { _ in false }) -> [NoteDiagnostic] {
        guard let note = catalog.notes[path] else { return [] }
        return NotebookDiagnostics.check(note, catalog: catalog) { assets.contains($0) || fileExists($0) }
    }

    /// The notes using `tag` or a tag nested under it, with their counts.
    public func uses(ofTag tag: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for (name, uses) in tagUsers where TagSymbol.name(name.string, matches: tag) {
            for number in uses { result[catalog.path(ofNumber: number), default: 0] += 1 }
        }
        return result
    }

    // MARK: Bookkeeping

    /// Files the links, tags and front matter of `note`, the catalog's note `number`.
    private mutating func register(_ note: NoteSymbols, number: Int32) {
        fileProseWords(note.proseWords, number: number)
        fileSearchTerms(note.searchTerms, replacing: SearchTerms(), number: number)
        for link in note.links {
            for name in Notebook.linkNames(isWiki: link.form.isWiki, target: link.target.text) {
                linkSources[QuickHashKey(name), default: []].append(number)
            }
        }
        registerTagsAndFrontMatter(note, number: number)
    }

    /// Files the prose words of the note numbered `number`.
    private mutating func fileProseWords(_ words: ProseWords, number: Int32) {
        let index = Int(number)
        guard index >= 0 else { return }
        if index >= proseWordsByNumber.count {
            guard !words.isEmpty else { return }
            proseWordsByNumber.append(contentsOf: repeatElement(ProseWords(), count: index + 1 - proseWordsByNumber.count))
        }
        proseWordsByNumber[index] = words
    }

    /// Files the search terms of the note numbered `number`, which had `old`: only the terms
    /// that came or went change the postings (both lists are sorted: one merge).
    private mutating func fileSearchTerms(_ terms: SearchTerms, replacing old: SearchTerms, number: Int32) {
        let index = Int(number)
        guard index >= 0 else { return }
        searchLength = searchLength &- UInt64(old.length) &+ UInt64(terms.length)
        if searchPostings.isEmpty, !terms.isEmpty { searchPostings = Array(repeating: [], count: Notebook.searchBucketCount) }
        // The buckets of each side, in order, each once (sorted terms: a bucket's are together).
        let new = terms.hashes
        let before = old.hashes
        var i = 0
        var j = 0
        while i < new.count || j < before.count {
            let newBucket = i < new.count ? Notebook.searchBucket(of: new[i]) : Int.max
            let oldBucket = j < before.count ? Notebook.searchBucket(of: before[j]) : Int.max
            if newBucket < oldBucket {
                searchPostings[newBucket].append(number)
            } else if oldBucket < newBucket {
                Notebook.removeOne(number, from: &searchPostings[oldBucket])
            }
            let bucket = min(newBucket, oldBucket)
            while i < new.count, Notebook.searchBucket(of: new[i]) == bucket { i += 1 }
            while j < before.count, Notebook.searchBucket(of: before[j]) == bucket { j += 1 }
        }
        if index >= searchTermsByNumber.count {
            guard !terms.isEmpty else { return }
            searchTermsByNumber.append(contentsOf: repeatElement(SearchTerms(), count: index + 1 - searchTermsByNumber.count))
        }
        searchTermsByNumber[index] = terms
    }

    private mutating func registerTagsAndFrontMatter(_ note: NoteSymbols, number: Int32) {
        for index in note.tags.indices { tagUsers[QuickHashKey(note.tags.name(at: index)), default: []].append(number) }
        Notebook.forEachFrontMatterPair(note) { key, value in frontMatterValues[key, default: [:]][value, default: 0] += 1 }
    }

    private mutating func unregister(_ note: NoteSymbols, number: Int32) {
        for link in note.links {
            for name in Notebook.linkNames(isWiki: link.form.isWiki, target: link.target.text) { removeSource(number, name) }
        }
        for index in note.tags.indices { Notebook.removeOne(number, &tagUsers, QuickHashKey(note.tags.name(at: index))) }
        unregisterFrontMatter(note)
    }

    private mutating func unregisterFrontMatter(_ note: NoteSymbols) {
        Notebook.forEachFrontMatterPair(note) { key, value in
            // In place (see `removeOne`): copying the key's values out would copy them all.
            guard let count = frontMatterValues[key]?[value] else { return }
            frontMatterValues[key]?[value] = count > 1 ? count - 1 : nil
            if frontMatterValues[key]?.isEmpty == true { frontMatterValues[key] = nil }
        }
    }

    private mutating func removeSource(_ number: Int32, _ name: String) {
        Notebook.removeOne(number, &linkSources, QuickHashKey(name))
    }


    static let searchBucketCount = 1 << 16

    /// The bucket of postings of the search term `term`.
    @inline(__always)
    static func searchBucket(of term: UInt32) -> Int { Int(term &>> 16) }

    /// Removes `number` from `list` (once), in place: swapped with the last, which goes.
    private static func removeOne(_ number: Int32, from list: inout [Int32]) {
        guard let index = list.lastIndex(of: number) else { return }
        list.swapAt(index, list.count - 1)
        list.removeLast()
    }

    /// Removes one `path` from the multiset under `key`, in place: an array taken out of the
    /// table would be copied for each removal (the table still holds it), which made removing a
    /// note with thousands of links to a few names quadratic.
    private static func removeOne<Key: Hashable, Element: Equatable>(_ element: Element, _ table: inout [Key: [Element]], _ key: Key) {
        guard let index = table[key]?.lastIndex(of: element), let last = table[key]?.indices.last else { return }
        if last == 0 {
            table[key] = nil
            return
        }
        table[key]?.swapAt(index, last)
        table[key]?.removeLast()
    }

    /// Equal notebooks hold the same notes, files, tags, front matter and links, whatever order
    /// they came in.
    public static func == (a: Notebook, b: Notebook) -> Bool {
        guard a.catalog == b.catalog, a.assets == b.assets, a.frontMatterValues == b.frontMatterValues else { return false }
        func sameMultisets(_ x: [String: [String]], _ y: [String: [String]]) -> Bool {
            x.count == y.count && x.allSatisfy { y[$0.key]?.sorted() == $0.value.sorted() }
        }
        func paths(_ notebook: Notebook) -> [String: [String]] {
            Dictionary(uniqueKeysWithValues: notebook.linkSources.lazy.map { ($0.key.string, $0.value.map { notebook.catalog.path(ofNumber: $0) }) })
        }
        // By bucket, the empty ones left out (a notebook that never held a term has no buckets).
        func postings(_ notebook: Notebook) -> [Int: [String]] {
            var result: [Int: [String]] = [:]
            for (bucket, numbers) in notebook.searchPostings.enumerated() where !numbers.isEmpty {
                result[bucket] = numbers.map { notebook.catalog.path(ofNumber: $0) }.sorted()
            }
            return result
        }
        return sameMultisets(paths(a), paths(b))
            && sameMultisets(a.tagUses, b.tagUses)
            && a.searchLength == b.searchLength && postings(a) == postings(b)
    }

    /// The names other notes can reach `note` by: its stem, title and aliases; for a stem with
    /// `#`, `|` or `^`, also what a wiki-link that writes it as it is has for its target (the
    /// text before the first of them: `C` for `C# notes`).
    private func names(of note: NoteSymbols) -> Set<String> {
        let stem = NotebookPath.fileStem(of: note.path)
        var result: Set<String> = [Notebook.linkName(stem)]
        if let split = stem.utf8.firstIndex(where: NoteCatalog.splitsWikiTarget) {
            result.insert(Notebook.linkName(String(stem[..<split])))
        }
        if !note.title.isEmpty { result.insert(Notebook.linkName(note.title)) }
        for alias in note.aliases where !alias.isEmpty { result.insert(Notebook.linkName(alias)) }
        return result
    }

    private func linkers(names: Set<String>) -> Set<String> {
        var result: Set<String> = []
        for name in names {
            for number in linkSources[QuickHashKey(name)] ?? [] { result.insert(catalog.path(ofNumber: number)) }
        }
        return result
    }

    static func linkName(_ text: String) -> String { NotebookPath.trimmed(text).folded }

    /// The names a link can reach a note by; none for external links and links into the same
    /// note. (Autolinks are external by their scheme; an e-mail autolink only adds a name no
    /// note is likely to have.)
    static func linkNames(isWiki: Bool, target written: String) -> [String] {
        var target = isWiki ? written : NotebookPath.percentDecoded(written)
        target = NotebookPath.trimmed(target)
        if target.isEmpty || NotebookPath.isExternal(target) { return [] }
        let stem = linkName(NotebookPath.fileStem(of: target))
        if !isWiki { return [stem] }
        let whole = linkName(target)
        var result = whole == stem ? [stem] : [stem, whole]
        // `[[C%23 notes]]` reaches `C# notes.md` by its decoded name.
        let decoded = NotebookPath.percentDecoded(target)
        if decoded != target {
            for name in linkNames(isWiki: true, target: decoded) where !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// Appends `linkNames(isWiki:target:)` to `names`. Most targets are paths or names with
    /// nothing to decode or trim, in scripts that lowercasing leaves alone but for ASCII
    /// capitals: those are read in one pass over their bytes, and each name is made as a String
    /// once, already folded; the rest take the general path.
    static func appendLinkNames(isWiki: Bool, target original: String, to names: inout [String]) {
        // A Markdown link's target is read decoded (`%20` is a space: a third of the Markdown
        // links of a notebook are written so), then as any other; a wiki-link's is read as
        // written and decoded (`linkNames`).
        let written = isWiki ? original : NotebookPath.percentDecoded(original)
        var target = written
        let done = target.withUTF8 { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return true }
            if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return false }
            if isWiki && bytes.contains(UInt8(ascii: "%")) { return false }
            if NotebookPath.isExternal(bytes) { return true }
            guard let hasCapitals = String.foldingKind(of: bytes) else { return false }
            // The stem (`fileStem(of:)`), without the blanks `linkName` trims.
            let stem = NotebookPath.stemRange(of: bytes)
            var stemStart = stem.lowerBound
            var stemEnd = stem.upperBound
            while stemStart < stemEnd, bytes[stemStart] == 0x20 || bytes[stemStart] == 0x09 { stemStart += 1 }
            while stemEnd > stemStart, bytes[stemEnd - 1] == 0x20 || bytes[stemEnd - 1] == 0x09 { stemEnd -= 1 }
            let isWhole = stemStart == 0 && stemEnd == bytes.count
            // A name that is the target as written shares its storage.
            names.append(isWhole && !hasCapitals ? written : String.asciiFolded(UnsafeBufferPointer(rebasing: bytes[stemStart..<stemEnd])))
            if isWiki && !isWhole { names.append(hasCapitals ? String.asciiFolded(bytes) : written) }
            return true
        }
        if !done { names += linkNames(isWiki: isWiki, target: original) }
    }

    /// Calls `body` with each front-matter key and each of its scalar values or list items
    /// (lists of tags included), without building a list of them.
    private static func forEachFrontMatterPair(_ note: NoteSymbols, _ body: (String, String) -> Void) {
        // Read from the packed words: no entry or list array, and no String for values not counted.
        note.frontMatter?.forEachEntry { key, value in
            if isUniqueValueKey(key) || (value.isScalar && value.count > 0 && value.byteCount(0) > 80) {
                body(key, "")
            } else if value.isList && value.count > 0 {
                for index in 0..<value.count { body(key, value.text(index)) }
            } else if value.isScalar && value.count > 0 {
                body(key, value.text(0))
            } else {
                body(key, "")
            }
        }
    }

    /// Keys whose values are one per note (titles, dates, ids): completion never offers them,
    /// so the index does not count them (the key itself is still counted, with an empty value).
    /// (A comparison: these keys are small strings, cheaper to compare than to hash.)
    private static func isUniqueValueKey(_ key: String) -> Bool {
        switch key {
        case "title", "aliases", "alias", "date", "created", "updated", "modified", "id", "uid": return true
        default: return false
        }
    }
}
