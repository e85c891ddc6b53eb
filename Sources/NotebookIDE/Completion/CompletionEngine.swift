// Turns a `CompletionContext` into ranked items over the indexed workspace.
//
// Invariants:
// - Pure: reads its arguments only, never traps.
// - Ranking first, strings after: every candidate is scored on precomputed byte keys, sorted,
//   cut to `limit`, and only the survivors get their label and texts built, so 10,000 notes
//   cost one pass of byte comparisons and one sort. Previews of notes, headings and blocks are
//   not built here at all: items carry a `CompletionTarget` for `completionItem/resolve`.
// - An item's `newText` never repeats the trigger (the context's range starts after it) and ends
//   with the context's `carried` text and `closing` (what is missing of `]]`, `)`, `>)`, `]`,
//   `: `), so the construct ends exactly once whatever already followed the cursor.
// - Wiki-link items insert the text the resolver takes back to that note (`linkTarget`);
//   Markdown path items are relative to the note's folder and percent-encoded.
// - MacMD's own words in details and documentation come from the catalog in `sources.locale`
//   (counts through plural variations); names and paths go in as arguments, unchanged.

import Localization
import MarkdownSyntax
import NotebookIndex
import TextCore

/// Completion items for a context.
public enum CompletionEngine {
    /// The items for `context` in the note at `notePath` (workspace-relative), best first.
    public static func complete(context: CompletionContext, in notePath: String,
                                sources: CompletionSources) -> CompletionList {
        let request = Request(context: context, notePath: notePath, sources: sources)
        switch context.kind {
        case .wikiTarget(let isEmbed): return request.wikiTargets(isEmbed: isEmbed)
        case .wikiHeading(let note, let parents): return request.headings(of: note, parents: parents, isWiki: true)
        case .wikiBlock(let note): return request.blocks(of: note, isWiki: true)
        case .markdownPath(let folder, let isImage, let inAngleBrackets):
            return request.paths(in: folder, isImage: isImage, inAngleBrackets: inAngleBrackets)
        case .markdownHeading(let path): return request.headings(of: path, parents: [], isWiki: false)
        case .markdownBlock(let path): return request.blocks(of: path, isWiki: false)
        case .referenceLabel: return request.referenceLabels()
        case .tag, .frontMatterTag: return request.tags()
        case .frontMatterKey: return request.frontMatterKeys()
        case .frontMatterValue(let key): return request.frontMatterValues(of: key)
        }
    }

    /// `0000`, `0001`, … (as wide as the limit needs), so clients that sort by text keep the
    /// engine's order (snippet completion numbers its items the same way).
    static func sortText(_ index: Int, limit: Int) -> String {
        let digits = String(index)
        let width = max(4, String(limit).utf8.count, digits.utf8.count)
        return String(repeating: "0", count: width - digits.utf8.count) + digits
    }
}

/// One request's state: the query key and the helpers that rank and build items.
private struct Request {
    let context: CompletionContext
    let notePath: String
    let sources: CompletionSources
    let query: [UInt8]
    var workspace: CompletionWorkspace { sources.workspace }
    var limit: Int { max(sources.limit, 1) }
    var locale: SupportedLocale { sources.locale }

    /// The catalog message `key` with `arguments`, in the request's language.
    func localized(_ key: String, _ arguments: CatalogArgument...) -> String {
        LocalizedText(key, arguments: arguments).string(in: locale)
    }

    init(context: CompletionContext, notePath: String, sources: CompletionSources) {
        self.context = context
        self.notePath = notePath
        self.sources = sources
        self.query = CompletionMatcher.key(context.typed)
    }

    /// A scored candidate: `key` sorts ascending (better first), `index` picks the entry, `field`
    /// says which of its texts matched (or which alias).
    struct Ranked {
        var key: UInt64
        var index: Int32
        var field: Int32
    }

    /// Sorts, cuts to the limit and builds the survivors with `make`, numbering `sortText`.
    func finish(_ ranked: [Ranked], make: (Ranked) -> CompletionCandidate?) -> CompletionList {
        var ranked = ranked
        ranked.sort { $0.key != $1.key ? $0.key < $1.key : ($0.index != $1.index ? $0.index < $1.index : $0.field < $1.field) }
        let isIncomplete = ranked.count > limit
        var items: [CompletionCandidate] = []
        items.reserveCapacity(min(ranked.count, limit))
        for entry in ranked.prefix(limit) {
            guard var item = make(entry) else { continue }
            item.sortText = CompletionEngine.sortText(items.count, limit: limit)
            items.append(item)
        }
        return CompletionList(items: items, isIncomplete: isIncomplete)
    }

    static func tierBits(_ tier: Int) -> UInt64 { UInt64(CompletionMatcher.prefix - tier) << 60 }

    var replace: ByteSpan { context.replace }

    /// `text` followed by what the construct is missing, so it ends exactly once.
    func closed(_ text: String) -> String { text + context.carried + context.closing }

    // MARK: Notes

    /// The symbols of the note at `path`: the fresh ones for the current note.
    func symbols(at path: String) -> NoteSymbols? {
        if path == notePath, let current = sources.currentNote { return current }
        return workspace.catalog.notes[path]
    }

    /// The note a link target names, by the resolver's rules (empty: this note).
    func targetNote(_ target: String, isWiki: Bool) -> NoteSymbols? {
        let trimmed = ContextScanner.trimmed(target)
        if trimmed.isEmpty { return symbols(at: notePath) ?? sources.currentNote }
        let link = LinkSymbol(form: isWiki ? .wikiLink : .inline, target: LinkSymbol.Part(text: trimmed, range: .empty),
                              range: .empty)
        switch workspace.catalog.resolve(link, from: notePath) {
        case .note(let path, _, _, _): return symbols(at: path)
        case .ambiguous(let paths): return paths.first.flatMap(symbols(at:))
        default: return nil
        }
    }

    /// The index of the note at `path` in `notes` (sorted by path), or -1.
    static func index(of path: String, in notes: [CompletionWorkspace.Note]) -> Int {
        let low = lowerBound(path, in: notes)
        return low < notes.count && notes[low].path == path ? low : -1
    }

    /// The first index of `notes` (sorted by path) whose path is not before `path`.
    static func lowerBound(_ path: String, in notes: [CompletionWorkspace.Note]) -> Int {
        var low = 0
        var high = notes.count
        while low < high {
            let middle = low + (high - low) / 2
            if notes[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// What a file that is not a note is, for its item's documentation.
    func fileDocumentation(_ path: String, isImage: Bool) -> String {
        let key: String
        if isImage {
            key = "completion.file.image"
        } else if CompletionPath.lowercasedExtension(path) == "pdf" {
            key = "completion.file.pdf"
        } else {
            key = "completion.file.other"
        }
        return localized(key, .string(NavigationText.codeSpan(path)))
    }

    /// A folder's item documentation: its path and what it holds.
    func folderDocumentation(_ path: String) -> String {
        var notes = 0
        var folders = 0
        var images = 0
        var files = 0
        for entry in workspace.folders[path] ?? [] {
            switch entry.kind {
            case .note: notes += 1
            case .folder: folders += 1
            case .file: if entry.isImage { images += 1 } else { files += 1 }
            }
        }
        var parts: [String] = []
        if notes > 0 { parts.append(localized("completion.folder.notes", .integer(notes))) }
        if folders > 0 { parts.append(localized("completion.folder.folders", .integer(folders))) }
        if images > 0 { parts.append(localized("completion.folder.images", .integer(images))) }
        if files > 0 { parts.append(localized("completion.folder.otherFiles", .integer(files))) }
        let contents = parts.isEmpty ? localized("completion.folder.empty") : parts.joined(separator: localized("completion.folder.separator"))
        return localized("completion.folder.documentation", .string(NavigationText.codeSpan(path + "/")), .string(contents))
    }

    /// The indices of the notes in the template folder (`CompletionSources.templateFolder`): one
    /// run, since the notes are sorted by path.
    static func templateIndices(_ folder: String?, in notes: [CompletionWorkspace.Note]) -> Range<Int> {
        guard let folder, !folder.isEmpty else { return 0..<0 }
        let prefix = folder + "/"
        let low = lowerBound(prefix, in: notes)
        var end = low
        while end < notes.count, notes[end].path.hasPrefix(prefix) { end += 1 }
        return low..<end
    }

    /// Notes a wiki-link may name: every note but the one being edited (a link to itself is
    /// `[[#heading]]`, which heading completion offers) and the templates of the snippets folder.
    func wikiTargets(isEmbed: Bool) -> CompletionList {
        let notes = workspace.notes
        let currentFolder = Array(CompletionPath.folder(of: notePath).utf8)
        let selfIndex = Request.index(of: notePath, in: notes)
        let templates = Request.templateIndices(sources.templateFolder, in: notes)
        let aliasKeys = workspace.aliasKeys
        var ranked: [Ranked] = []
        ranked.reserveCapacity(query.isEmpty ? notes.count : 256)
        let queryMask = CompletionMatcher.mask(query)
        query.withUnsafeBufferPointer { q in
            workspace.keyArena.withUnsafeBufferPointer { arena in
                workspace.noteKeys.withUnsafeBufferPointer { keys in
                    currentFolder.withUnsafeBufferPointer { current in
                        func bytes(_ slice: CompletionWorkspace.Slice) -> UnsafeBufferPointer<UInt8> {
                            let start = Int(slice.start)
                            return UnsafeBufferPointer(rebasing: arena[start..<(start + Int(slice.count))])
                        }
                        for index in keys.indices {
                            let note = keys[index]
                            if queryMask & ~note.mask != 0 || index == selfIndex || templates.contains(index) { continue }
                            let titleTier = CompletionMatcher.tier(q, bytes(note.title))
                            let stemTier = CompletionMatcher.tier(q, bytes(note.stem))
                            let pathTier = CompletionMatcher.tier(q, bytes(note.path))
                            var best = titleTier
                            var field: Int32 = 0
                            if stemTier > best { best = stemTier; field = 1 }
                            if pathTier > best { best = pathTier; field = 2 }
                            // Closer notes first: more shared folders, then fewer folders, then
                            // shorter paths.
                            let common = UInt64(min(CompletionPath.commonFolders(current, bytes(note.folder)), 255))
                            let place = (255 - common) << 51 | UInt64(min(max(note.depth, 0), 255)) << 43
                                | UInt64(min(max(note.pathLength, 0), 0xFFFFF)) << 23
                            if best != CompletionMatcher.none {
                                ranked.append(Ranked(key: Request.tierBits(best) | place, index: Int32(index), field: field))
                            }
                            guard q.count > 0 else { continue }
                            var alias = 0
                            while alias < Int(note.aliasCount) {
                                let slice = aliasKeys[Int(note.aliasStart) + alias]
                                let tier = CompletionMatcher.tier(q, bytes(slice))
                                if tier != CompletionMatcher.none {
                                    ranked.append(Ranked(key: Request.tierBits(tier) | place, index: Int32(index),
                                                         field: Int32(3 + alias)))
                                }
                                alias += 1
                            }
                        }
                    }
                }
            }
        }
        if isEmbed {
            for index in workspace.files.indices {
                let file = workspace.files[index]
                if queryMask & ~file.mask != 0 { continue }
                let tier = CompletionMatcher.tier(query, file.key)
                guard tier != CompletionMatcher.none else { continue }
                let common = UInt64(min(currentFolder.withUnsafeBufferPointer { current in
                    file.folder.withUnsafeBufferPointer { CompletionPath.commonFolders(current, $0) }
                }, 255))
                let place = (255 - common) << 51 | UInt64(min(file.depth, 255)) << 43
                    | UInt64(min(file.path.utf8.count, 0xFFFFF)) << 23
                ranked.append(Ranked(key: Request.tierBits(tier) | place, index: Int32(index), field: -1))
            }
        }
        return finish(ranked) { entry in
            if entry.field == -1 {
                let file = workspace.files[Int(entry.index)]
                return CompletionCandidate(label: CompletionPath.name(of: file.path), kind: file.isImage ? .image : .file,
                                           newText: closed(workspace.catalog.wikiFileTarget(to: file.path, from: notePath)),
                                           replace: replace, filterText: file.path,
                                           detail: file.path,
                                           documentation: fileDocumentation(file.path, isImage: file.isImage))
            }
            let note = notes[Int(entry.index)]
            let title = note.title.isEmpty ? note.stem : note.title
            let linkTarget = workspace.linkTarget(of: note, from: notePath)
            if entry.field >= 3 {
                let alias = note.aliases[Int(entry.field) - 3]
                // A label already written stays; before a `#heading` a label would split the link,
                // and an alias with `]` or `|` in it would end or split it.
                let targetOnly = context.labelFollows || context.headingFollows
                    || alias.utf8.contains { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "|") }
                let text = targetOnly ? linkTarget : linkTarget + "|" + alias
                return CompletionCandidate(label: alias, kind: .alias, newText: closed(text), replace: replace,
                                           filterText: alias, detail: localized("completion.alias.detail", .string(title), .string(note.path)),
                                           target: .note(path: note.path))
            }
            let filter: String
            switch entry.field {
            case 1: filter = note.stem
            case 2: filter = CompletionPath.removingExtension(note.path, workspace.catalog.noteExtensions)
            default: filter = title
            }
            return CompletionCandidate(label: title, kind: .note, newText: closed(linkTarget), replace: replace,
                                       filterText: filter, detail: note.path, target: .note(path: note.path))
        }
    }

    // MARK: Headings and blocks

    /// Indices of the headings inside the section named by `parents` (all when empty).
    static func headingsInside(_ parents: [String], of headings: [HeadingSymbol]) -> [Int] {
        guard !parents.isEmpty else { return Array(headings.indices) }
        func matches(_ heading: HeadingSymbol, _ part: String) -> Bool {
            let lowered = part.lowercased()
            return (!heading.slug.isEmpty && (heading.slug == part || heading.slug == lowered))
                || heading.text.lowercased() == lowered
        }
        var sections = headings.indices.filter { matches(headings[$0], parents[0]) }
        var partIndex = 1
        while true {
            // The headings inside each current section.
            var inside: [Int] = []
            var seen: Set<Int> = []
            for parent in sections {
                let level = headings[parent].level
                var index = parent + 1
                while index < headings.count, headings[index].level > level {
                    if seen.insert(index).inserted { inside.append(index) }
                    index += 1
                }
            }
            inside.sort()
            guard partIndex < parents.count else { return inside }
            sections = inside.filter { matches(headings[$0], parents[partIndex]) }
            partIndex += 1
        }
    }

    func headings(of target: String, parents: [String], isWiki: Bool) -> CompletionList {
        guard let note = targetNote(target, isWiki: isWiki) else { return CompletionList() }
        let headings = Array(note.headings)
        var ranked: [Ranked] = []
        for index in Request.headingsInside(parents, of: headings) {
            let heading = headings[index]
            var tier = CompletionMatcher.tier(query, CompletionMatcher.key(heading.text))
            if !isWiki { tier = max(tier, CompletionMatcher.tier(query, CompletionMatcher.key(heading.slug))) }
            guard tier != CompletionMatcher.none, isWiki || !heading.slug.isEmpty else { continue }
            // Document order: the index alone sorts them.
            ranked.append(Ranked(key: 0, index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let heading = headings[Int(entry.index)]
            let level = "H" + String(heading.level)
            let target = CompletionTarget.heading(path: note.path, headingIndex: Int(entry.index), text: heading.text)
            if isWiki {
                // A heading with `#`, `|`, `^` or brackets would end or split the link: its slug,
                // which the resolver accepts as well, is written instead.
                let written = heading.slug.isEmpty || !heading.text.utf8.contains(where: Request.isWikiDelimiter)
                    ? heading.text : heading.slug
                return CompletionCandidate(label: heading.text, kind: .heading, newText: closed(written),
                                           replace: replace, filterText: heading.text, detail: level, target: target)
            }
            return CompletionCandidate(label: heading.text, kind: .heading, newText: closed(heading.slug),
                                       replace: replace, filterText: heading.slug, detail: level + " #" + heading.slug,
                                       target: target)
        }
    }

    /// Bytes that mean something inside `[[…]]`: `#` (heading), `|` (label), `^` (block) and
    /// the brackets.
    static func isWikiDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "#") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "^")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }

    func blocks(of target: String, isWiki: Bool) -> CompletionList {
        guard let note = targetNote(target, isWiki: isWiki) else { return CompletionList() }
        let blockIDs = note.blockIDs
        var ranked: [Ranked] = []
        for index in blockIDs.indices {
            let tier = CompletionMatcher.tier(query, CompletionMatcher.key(blockIDs[index].id))
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: 0, index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let id = blockIDs[Int(entry.index)].id
            return CompletionCandidate(label: "^" + id, kind: .blockID, newText: closed(id), replace: replace,
                                       filterText: id, detail: localized("completion.block.detail", .string(note.path)),
                                       target: .block(path: note.path, id: id))
        }
    }

    // MARK: Markdown paths

    func paths(in typedFolder: String, isImage: Bool, inAngleBrackets: Bool) -> CompletionList {
        let decoded = CompletionPath.percentDecoded(typedFolder)
        let joined: String
        if decoded.utf8.first == UInt8(ascii: "/") {
            joined = decoded
        } else {
            joined = CompletionPath.folder(of: notePath) + "/" + decoded
        }
        guard let base = CompletionPath.normalized(joined) else { return CompletionList() }
        let entries = workspace.folders[base] ?? []
        let nameQuery = CompletionMatcher.key(CompletionPath.percentDecoded(context.typed))
        var ranked: [Ranked] = []
        for index in entries.indices {
            let entry = entries[index]
            let tier = CompletionMatcher.tier(nameQuery, entry.key)
            guard tier != CompletionMatcher.none else { continue }
            let order: UInt64
            switch entry.kind {
            case .note: order = isImage ? 2 : 0
            case .folder: order = 1
            case .file: order = isImage && entry.isImage ? 0 : 3
            }
            ranked.append(Ranked(key: Request.tierBits(tier) | order << 56, index: Int32(index), field: 0))
        }
        // `../` leads out of a subfolder when nothing, or only dots, has been typed, at the start
        // of the path or after other `../`: after `journal/` it would only lead back.
        let typedOnlyDots = context.typed.utf8.allSatisfy { $0 == UInt8(ascii: ".") } && context.typed.utf8.count <= 2
        let folderClimbsOnly = typedFolder.split(separator: "/", omittingEmptySubsequences: false)
            .dropLast().allSatisfy { $0 == ".." }
        if !base.isEmpty && typedOnlyDots && folderClimbsOnly {
            ranked.append(Ranked(key: UInt64(7) << 56, index: -1, field: 0))
        }
        // In a vault, notes and files of other folders by name, as Obsidian writes Markdown links
        // ("shortest path when possible"): once a name is typed, and no folder.
        let byName = workspace.catalog.markdownResolution == .obsidian && typedFolder.isEmpty && !nameQuery.isEmpty
            ? namedElsewhere(nameQuery, outside: base, isImage: isImage) : []
        ranked += byName
        let slash = context.slashFollows ? "" : "/"
        let publishedExtension = publishedNoteExtension()
        // Inside `<…>` a name is written as it is (spaces and parentheses allowed); elsewhere it
        // is percent-encoded. The client filters on the text as it appears in the link.
        func written(_ name: String) -> String {
            inAngleBrackets ? Request.angleDestination(name) : CompletionPath.percentEncoded(name)
        }
        return finish(ranked) { item in
            if item.index < 0 {
                return CompletionCandidate(label: "../", kind: .folder, newText: ".." + slash, replace: replace,
                                           filterText: "..", detail: CompletionPath.folder(of: base),
                                           documentation: folderDocumentation(CompletionPath.folder(of: base)))
            }
            if item.field != 0 { return byNameCandidate(item, written: written) }
            let entry = entries[Int(item.index)]
            let name = written(entry.name)
            switch entry.kind {
            case .folder:
                return CompletionCandidate(label: entry.name + "/", kind: .folder, newText: name + slash,
                                           replace: replace, filterText: name, detail: entry.path + "/",
                                           documentation: folderDocumentation(entry.path))
            case .note:
                // A note that links to its neighbours' pages (`chapter.html`) gets one more such link.
                let page = publishedExtension.map {
                    written(CompletionPath.removingExtension(entry.name, workspace.catalog.noteExtensions) + "." + $0)
                } ?? name
                return CompletionCandidate(label: entry.name, kind: .note, newText: closed(page), replace: replace,
                                           filterText: page, detail: entry.path, target: .note(path: entry.path))
            case .file:
                return CompletionCandidate(label: entry.name, kind: entry.isImage ? .image : .file,
                                           newText: closed(name), replace: replace, filterText: name,
                                           detail: entry.path,
                                           documentation: fileDocumentation(entry.path, isImage: entry.isImage))
            }
        }
    }

    /// Notes (field 1, by index in `workspace.notes`) and files (field 2, in `workspace.files`)
    /// outside the folder `base` whose file name matches `nameQuery`, ranked after the folder's own
    /// entries, closer ones first.
    func namedElsewhere(_ nameQuery: [UInt8], outside base: String, isImage: Bool) -> [Ranked] {
        var ranked: [Ranked] = []
        let queryMask = CompletionMatcher.mask(nameQuery)
        let current = Array(CompletionPath.folder(of: notePath).utf8)
        func place(_ folder: [UInt8], depth: Int, order: UInt64) -> UInt64 {
            let common = UInt64(min(current.withUnsafeBufferPointer { a in
                folder.withUnsafeBufferPointer { CompletionPath.commonFolders(a, $0) }
            }, 255))
            return order << 56 | (255 - common) << 48 | UInt64(min(max(depth, 0), 255)) << 40
        }
        let notes = workspace.notes
        nameQuery.withUnsafeBufferPointer { q in
            workspace.keyArena.withUnsafeBufferPointer { arena in
                for (index, keys) in workspace.noteKeys.enumerated() where queryMask & ~keys.mask == 0 {
                    let start = Int(keys.stem.start)
                    let tier = CompletionMatcher.tier(q, UnsafeBufferPointer(rebasing: arena[start..<(start + Int(keys.stem.count))]))
                    guard tier != CompletionMatcher.none, CompletionPath.folder(of: notes[index].path) != base else { continue }
                    let folder = Array(CompletionPath.folder(of: notes[index].path).utf8)
                    ranked.append(Ranked(key: Request.tierBits(tier) | place(folder, depth: Int(keys.depth), order: isImage ? 6 : 4),
                                         index: Int32(index), field: 1))
                }
            }
        }
        for (index, file) in workspace.files.enumerated() where queryMask & ~file.mask == 0 {
            let tier = CompletionMatcher.tier(nameQuery, CompletionMatcher.key(CompletionPath.name(of: file.path)))
            guard tier != CompletionMatcher.none, CompletionPath.folder(of: file.path) != base else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier) | place(file.folder, depth: file.depth, order: isImage && file.isImage ? 4 : 6),
                                 index: Int32(index), field: 2))
        }
        return ranked
    }

    /// The item of a note or file found by name (`namedElsewhere`): its name, percent-encoded,
    /// when the name alone takes a Markdown link written here to it; nil otherwise (the path
    /// completion one folder at a time reaches it).
    func byNameCandidate(_ item: Ranked, written: (String) -> String) -> CompletionCandidate? {
        let isNote = item.field == 1
        let path = isNote ? workspace.notes[Int(item.index)].path : workspace.files[Int(item.index)].path
        let name = CompletionPath.name(of: path)
        let text = written(name)
        let link = LinkSymbol(form: .inline, target: LinkSymbol.Part(text: text, range: .empty), range: .empty)
        switch workspace.catalog.resolve(link, from: notePath) {
        case .note(let found, _, _, _) where found == path: break
        case .file(let found) where found == path: break
        default: return nil
        }
        if isNote {
            return CompletionCandidate(label: name, kind: .note, newText: closed(text), replace: replace, filterText: text,
                                       detail: path, target: .note(path: path))
        }
        let isImage = workspace.files[Int(item.index)].isImage
        return CompletionCandidate(label: name, kind: isImage ? .image : .file, newText: closed(text), replace: replace,
                                   filterText: text, detail: path, documentation: fileDocumentation(path, isImage: isImage))
    }

    /// `html` (or `htm`) when the note being written links to other notes by their published
    /// pages (`chapter.html`, as books for mdBook do) more often than by their files: Markdown
    /// path completion then writes notes that way too. Nil otherwise.
    func publishedNoteExtension() -> String? {
        guard let note = sources.currentNote else { return nil }
        var html = 0
        var htm = 0
        var files = 0
        for link in note.links where !link.form.isWiki && link.form != .autolink && !link.target.text.isEmpty {
            guard let ext = NotebookPath.pathExtension(link.target.text)?.folded else { continue }
            if ext == "html" {
                html += 1
            } else if ext == "htm" {
                htm += 1
            } else if workspace.catalog.noteExtensions.contains(ext) {
                files += 1
            }
        }
        guard html + htm > files else { return nil }
        return htm > html ? "htm" : "html"
    }

    /// A file name as written inside `<…>`: as it is, except the bytes that would end the
    /// destination or change its meaning there (`<`, `>`, `#`, `%`, line breaks and other
    /// controls), which are percent-encoded as the resolver decodes them.
    static func angleDestination(_ name: String) -> String {
        let needs: (UInt8) -> Bool = {
            $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "#")
                || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\")
        }
        return NotebookPath.percentEncoded(name, where: needs)
    }

    // MARK: Reference labels

    func referenceLabels() -> CompletionList {
        guard let note = symbols(at: notePath) ?? sources.currentNote else { return CompletionList() }
        let definitions = note.linkDefinitions
        var seen: Set<String> = []
        var ranked: [Ranked] = []
        for index in definitions.indices {
            let definition = definitions[index]
            guard !definition.label.isEmpty, seen.insert(definition.normalizedLabel).inserted else { continue }
            let tier = CompletionMatcher.tier(query, CompletionMatcher.key(definition.label))
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier), index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let definition = definitions[Int(entry.index)]
            return CompletionCandidate(label: definition.label, kind: .referenceLabel, newText: closed(definition.label),
                                       replace: replace, filterText: definition.label, detail: definition.destination,
                                       documentation: definition.title)
        }
    }

    // MARK: Tags and front matter

    /// `text` as a plain YAML scalar when it can be one, else double-quoted: quoting is needed
    /// for a leading indicator, `: ` or ` #` inside, list punctuation, or surrounding spaces.
    static func yamlScalar(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, let last = bytes.last else { return "\"\"" }
        var needsQuotes = first == 0x20 || last == 0x20 || last == UInt8(ascii: ":")
            || "-?:,[]{}#&*!|>'\"%@`".utf8.contains(first)
        var index = 0
        while !needsQuotes, index < bytes.count {
            let byte = bytes[index]
            let next: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            if (byte == UInt8(ascii: ":") && next == 0x20) || (byte == 0x20 && next == UInt8(ascii: "#"))
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte < 0x20 {
                needsQuotes = true
            }
            index += 1
        }
        guard needsQuotes else { return text }
        return "\"" + yamlValue(text, quote: "\"") + "\""
    }

    /// `1 use`, `2 uses`: an item's detail.
    func uses(_ count: Int) -> String { localized("completion.uses", .integer(count)) }

    func tags() -> CompletionList {
        let tags = workspace.tags
        // The half-typed tag at the cursor is counted as a use when the counts include this note;
        // it is not a use to offer.
        let ignoringCase = CompletionWorkspace.tagsIgnoreCase(workspace.catalog)
        let beingTyped = sources.currentNote?.tags.first { $0.nameRange == replace }.map { ignoringCase ? $0.name.folded : $0.name }
        func isBeingTyped(_ tag: CompletionWorkspace.Counted) -> Bool {
            beingTyped != nil && (ignoringCase ? tag.text.folded : tag.text) == beingTyped
        }
        var ranked: [Ranked] = []
        for index in tags.indices {
            let tag = tags[index]
            if isBeingTyped(tag) && tag.count <= 1 { continue }
            let tier = CompletionMatcher.tier(query, tag.key)
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier), index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let tag = tags[Int(entry.index)]
            let count = isBeingTyped(tag) ? tag.count - 1 : tag.count
            let code = CatalogArgument.string(NavigationText.codeSpan("#" + tag.text))
            // A tag in a quoted front-matter value needs the closing quote when none follows.
            return CompletionCandidate(label: tag.text, kind: .tag, newText: closed(tag.text), replace: replace,
                                       filterText: tag.text, detail: uses(count),
                                       documentation: count == 1 ? localized("completion.tag.usedOnce", code)
                                           : localized("completion.tag.used", code, .integer(count)))
        }
    }

    func frontMatterKeys() -> CompletionList {
        let keys = workspace.frontMatterKeys
        // Keys this note already has elsewhere are not offered again (YAML keys are unique).
        var present: Set<String> = []
        for entry in sources.currentNote?.frontMatter?.entries ?? [] {
            let onThisLine = entry.keyRange.start <= replace.end && replace.start <= entry.keyRange.end
            if !onThisLine { present.insert(entry.key) }
        }
        var ranked: [Ranked] = []
        for index in keys.indices where !present.contains(keys[index].key.text) {
            let tier = CompletionMatcher.tier(query, keys[index].key.key)
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier), index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let key = keys[Int(entry.index)].key
            return CompletionCandidate(label: key.text, kind: .frontMatterKey, newText: closed(key.text),
                                       replace: replace, filterText: key.text, detail: uses(key.count))
        }
    }

    func frontMatterValues(of key: String) -> CompletionList {
        let keys = workspace.frontMatterKeys
        let lowered = key.lowercased()
        guard let found = keys.first(where: { $0.key.text == key }) ?? keys.first(where: { $0.key.text.lowercased() == lowered })
        else { return CompletionList() }
        // The counts include this note as it was indexed, so the value being typed would come back
        // as its own suggestion: only other notes' uses count (a value they share stays).
        var own: [String: Int] = [:]
        for entry in workspace.catalog.notes[notePath]?.frontMatter?.entries ?? [] where entry.key == found.key.text {
            let items = entry.value.items.isEmpty ? [entry.value.scalar ?? ""] : entry.value.items
            for item in items where !item.isEmpty { own[item, default: 0] += 1 }
        }
        let values = found.values
        var ranked: [Ranked] = []
        for index in values.indices {
            let value = values[index]
            let others = value.count - (own[value.text] ?? 0)
            guard others > 0 else { continue }
            let tier = CompletionMatcher.tier(query, value.key)
            guard tier != CompletionMatcher.none else { continue }
            // Most used by other notes first (the values are sorted by all uses).
            let rarity = UInt64(UInt32.max) - UInt64(min(others, Int(UInt32.max)))
            ranked.append(Ranked(key: Request.tierBits(tier) | rarity << 24, index: Int32(index),
                                 field: Int32(clamping: others)))
        }
        return finish(ranked) { entry in
            let value = values[Int(entry.index)]
            return CompletionCandidate(label: value.text, kind: .frontMatterValue,
                                       newText: closed(Request.yamlValue(value.text, quote: context.quote)),
                                       replace: replace, filterText: value.text, detail: uses(Int(entry.field)))
        }
    }

    /// `text` as a YAML value written after `quote` (`"`, `'` or nothing): escaped for the quote
    /// it is in, or a plain scalar, quoted when it needs to be.
    static func yamlValue(_ text: String, quote: String) -> String {
        switch quote {
        case "\"":
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\t": escaped += "\\t"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped
        case "'":
            var escaped = ""
            for scalar in text.unicodeScalars {
                if scalar == "'" { escaped += "''" } else { escaped.unicodeScalars.append(scalar) }
            }
            return escaped
        default:
            return yamlScalar(text)
        }
    }
}
