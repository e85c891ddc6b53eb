// Turns a `CompletionContext` into ranked items over the indexed workspace.
//
// Invariants:
// - Pure: reads its arguments only (the preview closure is the caller's), never traps.
// - Ranking first, strings after: every candidate is scored on precomputed byte keys, sorted,
//   cut to `limit`, and only the survivors get their label, texts and documentation built, so
//   10,000 notes cost one pass of byte comparisons and one sort.
// - An item's `newText` never repeats the trigger (the context's range starts after it) and adds
//   the closing text (`]]`, `)`, `]`, `: `) only when the context says none follows.
// - Wiki-link items insert the text the resolver takes back to that note (`linkTarget`);
//   Markdown path items are relative to the note's folder and percent-encoded.

import MarkdownSyntax
import NotebookIndex

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
        case .markdownPath(let folder, let isImage): return request.paths(in: folder, isImage: isImage)
        case .markdownHeading(let path): return request.headings(of: path, parents: [], isWiki: false)
        case .markdownBlock(let path): return request.blocks(of: path, isWiki: false)
        case .referenceLabel: return request.referenceLabels()
        case .tag, .frontMatterTag: return request.tags()
        case .frontMatterKey: return request.frontMatterKeys()
        case .frontMatterValue(let key): return request.frontMatterValues(of: key)
        }
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
            item.sortText = Request.sortText(items.count, limit: limit)
            items.append(item)
        }
        return CompletionList(items: items, isIncomplete: isIncomplete)
    }

    /// `0000`, `0001`, … (as wide as the limit needs), so clients that sort by text keep the
    /// engine's order.
    static func sortText(_ index: Int, limit: Int) -> String {
        let digits = String(index)
        let width = max(4, String(limit).utf8.count, digits.utf8.count)
        return String(repeating: "0", count: width - digits.utf8.count) + digits
    }

    static func tierBits(_ tier: Int) -> UInt64 { UInt64(CompletionMatcher.prefix - tier) << 60 }

    var replace: ByteSpan { context.replace }

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
        case .note(let path, _, _): return symbols(at: path)
        case .ambiguous(let paths): return paths.first.flatMap(symbols(at:))
        default: return nil
        }
    }

    /// The index of the note at `path` in `notes` (sorted by path), or -1.
    static func index(of path: String, in notes: [CompletionWorkspace.Note]) -> Int {
        var low = 0
        var high = notes.count
        while low < high {
            let middle = low + (high - low) / 2
            if notes[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low < notes.count && notes[low].path == path ? low : -1
    }

    func noteDocumentation(title: String, path: String) -> String {
        var text = "**" + title + "**\n\n`" + path + "`"
        if let body = sources.preview?(path), !body.isEmpty { text += "\n\n" + body }
        return text
    }

    func wikiTargets(isEmbed: Bool) -> CompletionList {
        let notes = workspace.notes
        let currentFolder = Array(CompletionPath.folder(of: notePath).utf8)
        let selfIndex = Request.index(of: notePath, in: notes)
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
                            if queryMask & ~note.mask != 0 { continue }
                            let titleTier = CompletionMatcher.tier(q, bytes(note.title))
                            let stemTier = CompletionMatcher.tier(q, bytes(note.stem))
                            let pathTier = CompletionMatcher.tier(q, bytes(note.path))
                            var best = titleTier
                            var field: Int32 = 0
                            if stemTier > best { best = stemTier; field = 1 }
                            if pathTier > best { best = pathTier; field = 2 }
                            // Closer notes first: more shared folders, then fewer folders, then
                            // shorter paths; the note itself last.
                            let common = UInt64(min(CompletionPath.commonFolders(current, bytes(note.folder)), 255))
                            let isSelf: UInt64 = index == selfIndex ? 1 : 0
                            let place = isSelf << 59 | (255 - common) << 51 | UInt64(min(max(note.depth, 0), 255)) << 43
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
        let close = context.closingFollows ? "" : "]]"
        return finish(ranked) { entry in
            if entry.field == -1 {
                let file = workspace.files[Int(entry.index)]
                return CompletionCandidate(label: CompletionPath.name(of: file.path), kind: file.isImage ? .image : .file,
                                           newText: file.path + close, replace: replace, filterText: file.path,
                                           detail: file.path)
            }
            let note = notes[Int(entry.index)]
            let title = note.title.isEmpty ? note.stem : note.title
            if entry.field >= 3 {
                let alias = note.aliases[Int(entry.field) - 3]
                let text = context.labelFollows ? note.linkTarget : note.linkTarget + "|" + alias
                return CompletionCandidate(label: alias, kind: .alias, newText: text + close, replace: replace,
                                           filterText: alias, detail: "alias of " + title + " — " + note.path,
                                           documentation: noteDocumentation(title: title, path: note.path))
            }
            let filter: String
            switch entry.field {
            case 1: filter = note.stem
            case 2: filter = CompletionPath.removingExtension(note.path, workspace.catalog.noteExtensions)
            default: filter = title
            }
            return CompletionCandidate(label: title, kind: .note, newText: note.linkTarget + close, replace: replace,
                                       filterText: filter, detail: note.path,
                                       documentation: noteDocumentation(title: title, path: note.path))
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
        let headings = note.headings
        var ranked: [Ranked] = []
        for index in Request.headingsInside(parents, of: headings) {
            let heading = headings[index]
            var tier = CompletionMatcher.tier(query, CompletionMatcher.key(heading.text))
            if !isWiki { tier = max(tier, CompletionMatcher.tier(query, CompletionMatcher.key(heading.slug))) }
            guard tier != CompletionMatcher.none, isWiki || !heading.slug.isEmpty else { continue }
            // Document order: the index alone sorts them.
            ranked.append(Ranked(key: 0, index: Int32(index), field: 0))
        }
        let close = context.closingFollows ? "" : (isWiki ? "]]" : ")")
        return finish(ranked) { entry in
            let heading = headings[Int(entry.index)]
            let level = "H" + String(heading.level)
            if isWiki {
                return CompletionCandidate(label: heading.text, kind: .heading, newText: heading.text + close,
                                           replace: replace, filterText: heading.text, detail: level)
            }
            return CompletionCandidate(label: heading.text, kind: .heading, newText: heading.slug + close,
                                       replace: replace, filterText: heading.slug, detail: level + " #" + heading.slug)
        }
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
        let close = context.closingFollows ? "" : (isWiki ? "]]" : ")")
        return finish(ranked) { entry in
            let id = blockIDs[Int(entry.index)].id
            return CompletionCandidate(label: "^" + id, kind: .blockID, newText: id + close, replace: replace,
                                       filterText: id, detail: "block in " + note.path)
        }
    }

    // MARK: Markdown paths

    func paths(in typedFolder: String, isImage: Bool) -> CompletionList {
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
        // `../` leads out of a subfolder when nothing, or only dots, has been typed.
        let typedOnlyDots = context.typed.utf8.allSatisfy { $0 == UInt8(ascii: ".") } && context.typed.utf8.count <= 2
        if !base.isEmpty && typedOnlyDots {
            ranked.append(Ranked(key: UInt64(7) << 56, index: -1, field: 0))
        }
        let close = context.closingFollows ? "" : ")"
        let slash = context.slashFollows ? "" : "/"
        return finish(ranked) { item in
            if item.index < 0 {
                return CompletionCandidate(label: "../", kind: .folder, newText: ".." + slash, replace: replace,
                                           filterText: "..", detail: CompletionPath.folder(of: base))
            }
            let entry = entries[Int(item.index)]
            let encoded = CompletionPath.percentEncoded(entry.name)
            switch entry.kind {
            case .folder:
                return CompletionCandidate(label: entry.name + "/", kind: .folder, newText: encoded + slash,
                                           replace: replace, filterText: encoded, detail: entry.path + "/")
            case .note:
                let title = workspace.catalog.notes[entry.path]?.title ?? entry.name
                return CompletionCandidate(label: entry.name, kind: .note, newText: encoded + close, replace: replace,
                                           filterText: encoded, detail: entry.path,
                                           documentation: noteDocumentation(title: title, path: entry.path))
            case .file:
                return CompletionCandidate(label: entry.name, kind: entry.isImage ? .image : .file,
                                           newText: encoded + close, replace: replace, filterText: encoded,
                                           detail: entry.path)
            }
        }
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
        let close = context.closingFollows ? "" : "]"
        return finish(ranked) { entry in
            let definition = definitions[Int(entry.index)]
            return CompletionCandidate(label: definition.label, kind: .referenceLabel, newText: definition.label + close,
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
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    static func uses(_ count: Int) -> String { count == 1 ? "1 use" : String(count) + " uses" }

    func tags() -> CompletionList {
        let tags = workspace.tags
        // The half-typed tag at the cursor is counted as a use when the counts include this note;
        // it is not a use to offer.
        let beingTyped = sources.currentNote?.tags.first { $0.nameRange == replace }?.name
        var ranked: [Ranked] = []
        for index in tags.indices {
            let tag = tags[index]
            if tag.text == beingTyped && tag.count <= 1 { continue }
            let tier = CompletionMatcher.tier(query, tag.key)
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier), index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let tag = tags[Int(entry.index)]
            let count = tag.text == beingTyped ? tag.count - 1 : tag.count
            return CompletionCandidate(label: tag.text, kind: .tag, newText: tag.text, replace: replace,
                                       filterText: tag.text, detail: Request.uses(count))
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
        let suffix = context.closingFollows ? "" : ": "
        return finish(ranked) { entry in
            let key = keys[Int(entry.index)].key
            return CompletionCandidate(label: key.text, kind: .frontMatterKey, newText: key.text + suffix,
                                       replace: replace, filterText: key.text, detail: Request.uses(key.count))
        }
    }

    func frontMatterValues(of key: String) -> CompletionList {
        let keys = workspace.frontMatterKeys
        let lowered = key.lowercased()
        guard let found = keys.first(where: { $0.key.text == key }) ?? keys.first(where: { $0.key.text.lowercased() == lowered })
        else { return CompletionList() }
        let values = found.values
        var ranked: [Ranked] = []
        for index in values.indices {
            let tier = CompletionMatcher.tier(query, values[index].key)
            guard tier != CompletionMatcher.none else { continue }
            ranked.append(Ranked(key: Request.tierBits(tier), index: Int32(index), field: 0))
        }
        return finish(ranked) { entry in
            let value = values[Int(entry.index)]
            let text = context.isQuoted ? value.text : Request.yamlScalar(value.text)
            return CompletionCandidate(label: value.text, kind: .frontMatterValue, newText: text,
                                       replace: replace, filterText: value.text, detail: Request.uses(value.count))
        }
    }
}
