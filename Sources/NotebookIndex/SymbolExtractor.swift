// One pass over a syntax tree that fills a `NoteSymbols`.
//
// Invariants: every side-table index and content span is checked before use; detached nodes are
// skipped; decoded text goes through one reused scratch buffer, so the pass allocates Strings only
// for the symbols it records. The links recorded are the link nodes of the tree, exactly those
// the renderer writes as links: a link inside an image description is alt text there, so it is
// not recorded either.

import MarkdownSyntax
import TextCore

extension NoteSymbols {
    /// The symbols of the note at `path` (workspace-relative) parsed as `tree`. Heading texts and
    /// slugs are the tree's `headingAnchors()`, exactly those the HTML renderer writes. Without
    /// `proseWords` (what a benchmark compares), the note's prose is not read for unlinked
    /// mentions nor search: its `proseWords` and `searchTerms` are empty.
    public static func extract(from tree: SyntaxTree, path: String, proseWords: Bool = true) -> NoteSymbols {
        var extractor = SymbolExtractor(tree: tree)
        var symbols = extractor.run(path: path)
        if proseWords {
            symbols.proseWords = ProseWords(tree: tree)
            symbols.searchTerms = SearchTerms(tree: tree, title: symbols.title)
        }
        return symbols
    }
}

/// The state of one extraction pass.
struct SymbolExtractor {
    let tree: SyntaxTree
    private var scratch: [UInt8] = []
    /// The links met so far, packed as they come.
    private var linkBuilder = LinkList.Builder(capacity: 0)
    private var ignoredCodes: Set<String> = []
    /// The formulas met so far.
    private var formulaCount = 0

    /// Maps content offsets to the source (spans come mostly in document order).
    private var cursor: ContentSourceCursor

    init(tree: SyntaxTree) {
        self.tree = tree
        cursor = ContentSourceCursor(tree)
    }

    mutating func run(path: String) -> NoteSymbols {
        extract(path: path)
    }

    private mutating func extract(path: String) -> NoteSymbols {
        let anchors = tree.headingAnchors()
        var anchorCursor = 0
        // The side tables tell how many headings, links and definitions to expect (detached
        // nodes aside), so these arrays are made once at their size instead of doubling.
        var headings: [HeadingSymbol] = []
        headings.reserveCapacity(anchors.count)
        linkBuilder = LinkList.Builder(capacity: tree.links.count + tree.wikiLinks.count)
        var definitions: [LinkDefinitionSymbol] = []
        definitions.reserveCapacity(tree.linkDefinitions.count)
        var tags: [TagSymbol] = []
        var blockIDs: [BlockIDSymbol] = []
        var htmlIDs: [HTMLIDSymbol] = []
        var firstH1: String? = nil

        if let frontMatter = tree.frontMatter {
            tags = frontMatterTags(frontMatter)
        }

        for index in tree.nodes.indices {
            let node = tree.nodes[index]
            // The inline pass leaves used-up nodes in the arena, detached.
            guard node.parent != .none || index == 0 else { continue }
            let id = NodeID(index)
            switch node.kind {
            case .heading:
                while anchorCursor < anchors.count, anchors[anchorCursor].node < id { anchorCursor += 1 }
                let contentSpan = ByteSpan(node.contentStart, node.contentEnd)
                let text: String
                let slug: String
                if anchorCursor < anchors.count, anchors[anchorCursor].node == id {
                    text = anchors[anchorCursor].text
                    slug = anchors[anchorCursor].id
                } else {
                    text = decodedString(contentSpan)
                    slug = ""
                }
                let level = Int(node.data)
                if level == 1, firstH1 == nil, !text.isEmpty { firstH1 = text }
                headings.append(HeadingSymbol(level: level, text: text, slug: slug, range: sourceSpan(of: node),
                                              textRange: source(contentSpan)))
                continue
            case .link, .image, .autolink:
                guard node.data >= 0, Int(node.data) < tree.links.count, !tree.isInImageDescription(node) else { continue }
                markdownLink(tree.links[Int(node.data)], node: node, isImage: node.kind == .image)
                continue
            case .wikiLink:
                guard node.data >= 0, Int(node.data) < tree.wikiLinks.count, !tree.isInImageDescription(node) else { continue }
                wikiLink(tree.wikiLinks[Int(node.data)], node: node)
                continue
            case .linkDefinition:
                guard node.data >= 0, Int(node.data) < tree.linkDefinitions.count else { continue }
                definitions.append(linkDefinition(tree.linkDefinitions[Int(node.data)], node: node))
                continue
            case .tag:
                // Content is `#name`.
                let nameSpan = ByteSpan(min(node.contentStart + 1, node.contentEnd), node.contentEnd)
                tags.append(TagSymbol(name: rawString(nameSpan), range: sourceSpan(of: node),
                                      nameRange: source(nameSpan), isFromFrontMatter: false))
                continue
            case .htmlBlock, .inlineHTML:
                let html = contentSlice(ByteSpan(node.contentStart, node.contentEnd))
                readIgnoreComment(html)
                for range in HTMLIDScanner.idRanges(in: html) {
                    let span = ByteSpan(range.lowerBound, range.upperBound)
                    htmlIDs.append(HTMLIDSymbol(id: rawString(span), range: source(span)))
                }
                continue
            case .blockID:
                let idSpan = ByteSpan(min(node.contentStart + 1, node.contentEnd), node.contentEnd)
                blockIDs.append(BlockIDSymbol(id: rawString(idSpan), range: sourceSpan(of: node),
                                              blockRange: namedBlockRange(of: node)))
                continue
            case .mathBlock, .inlineMath, .displayMath:
                if !tree.isInImageDescription(node) { formulaCount += 1 }
            default:
                continue
            }
        }

        // Node order is parse order; nested links (an image inside a link) are made inside-out.
        sortBySourceStart(&tags) { $0.range }
        sortBySourceStart(&blockIDs) { $0.range }
        sortBySourceStart(&htmlIDs) { $0.range }

        var title = ""
        var titleSource = NoteSymbols.TitleSource.fileStem
        if let fromFrontMatter = tree.frontMatter?.title {
            title = fromFrontMatter
            titleSource = .frontMatter
        } else if let h1 = firstH1 {
            title = h1
            titleSource = .firstHeading
        } else {
            title = NotebookPath.fileStem(of: path)
        }

        // The index keeps symbols for every note: arrays are copied to their exact size, not the
        // doubling capacity `append` left them with.
        // (An array is copied only when it wastes more than an eighth of its room: the allocator
        // rounds sizes up, so an exact copy often has spare capacity too.)
        func fitted<T>(_ array: [T]) -> [T] {
            array.capacity - array.count <= max(1, array.count / 8) ? array : array.withUnsafeBufferPointer { Array($0) }
        }
        var symbols = NoteSymbols(path: path, title: title, titleSource: titleSource, aliases: aliases(),
                                  headings: headings, linkDefinitions: fitted(definitions),
                                  tags: tags, blockIDs: fitted(blockIDs), frontMatter: tree.frontMatter,
                                  ignoredCodes: ignoredCodes, problems: tree.problems)
        symbols.links = linkBuilder.finish(sortingByStart: true)
        symbols.htmlIDs = htmlIDs
        symbols.formulaCount = formulaCount
        symbols.undefinedReferences = tree.undefinedReferences.map { .init(text: rawString($0.label), range: source($0.label)) }
        return symbols
    }

    /// `<!-- macmd-ignore CODE [CODE …] -->` (in an HTML block or inline) switches those
    /// diagnostic codes off for the whole note.
    private mutating func readIgnoreComment(_ bytes: ArraySlice<UInt8>) {
        let marker = Array("<!-- macmd-ignore".utf8)
        var i = bytes.startIndex
        while i + marker.count <= bytes.endIndex {
            guard bytes[i] == UInt8(ascii: "<"), bytes[i..<(i + marker.count)].elementsEqual(marker) else {
                i += 1
                continue
            }
            var j = i + marker.count
            var words: [String] = []
            var word: [UInt8] = []
            while j < bytes.endIndex {
                let c = bytes[j]
                if c == UInt8(ascii: "-") && j + 2 < bytes.endIndex && bytes[j + 1] == UInt8(ascii: "-")
                    && bytes[j + 2] == UInt8(ascii: ">") { break }
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ",") {
                    if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)); word.removeAll() }
                } else {
                    word.append(c)
                }
                j += 1
            }
            if j < bytes.endIndex {
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                ignoredCodes.formUnion(words)
            }
            i = j
        }
    }

    // MARK: Links

    private mutating func markdownLink(_ info: LinkInfo, node: Node, isImage: Bool) {
        let range = sourceSpan(of: node)
        let form: LinkSymbol.Form
        switch info.form {
        case .inline: form = .inline
        case .full: form = .fullReference
        case .collapsed: form = .collapsedReference
        case .shortcut: form = .shortcutReference
        case .uriAutolink, .emailAutolink, .wwwAutolink, .urlAutolink, .extendedEmailAutolink: form = .autolink
        }
        if form == .autolink {
            // Autolinks decode references but not escapes, and a `#` in a URL is the URL's own.
            let start = linkBuilder.bytes.count
            CharacterReferences.decodeEntities(contentSlice(info.destination), into: &linkBuilder.bytes)
            linkBuilder.beginLink(form: form, isImage: false, range: range,
                                  target: linkBuilder.text(from: start, range: source(info.destination)))
            return
        }

        var destinationSpan = info.destination
        var titleSpan: ByteSpan? = info.hasTitle ? info.title : nil
        var definition: LinkDefinition? = nil
        if form != .inline {
            if info.definition >= 0, Int(info.definition) < tree.linkDefinitions.count {
                definition = tree.linkDefinitions[Int(info.definition)]
                destinationSpan = definition?.destination ?? .empty
                titleSpan = definition.flatMap { $0.hasTitle ? $0.title : nil }
            } else {
                destinationSpan = .empty
            }
        }

        // `note.md#heading` and `note.md#^block`: split at the first `#` not escaped.
        let (pathSpan, anchorSpan) = splitAnchor(destinationSpan)
        linkBuilder.beginLink(form: form, isImage: isImage, range: range, target: decodedText(pathSpan))
        linkBuilder.addPart(.label, decodedText(info.text))
        if let anchor = anchorSpan {
            let bytes = contentSlice(anchor)
            if let first = bytes.first, first == UInt8(ascii: "^") {
                linkBuilder.addPart(.blockID, decodedText(ByteSpan(anchor.start + 1, anchor.end)))
            } else {
                linkBuilder.addPart(.heading, decodedText(anchor))
            }
        }
        if form != .inline {
            let labelRange = source(info.label)
            if let definition {
                linkBuilder.addPart(.referenceLabel, linkBuilder.text(definition.normalizedLabel, range: labelRange))
            } else {
                linkBuilder.addPart(.referenceLabel, linkBuilder.text(contentSlice(info.label), range: labelRange))
            }
        }
        if let titleSpan {
            let text = decodedText(titleSpan)
            linkBuilder.addPart(.title, LinkList.Builder.Text(start: text.start, end: text.end, range: .empty))
        }
    }

    private func splitAnchor(_ span: ByteSpan) -> (path: ByteSpan, anchor: ByteSpan?) {
        let bytes = contentSlice(span)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "#") {
                return (ByteSpan(bytes.startIndex, index), ByteSpan(index + 1, bytes.endIndex))
            }
            index += 1
        }
        return (ByteSpan(bytes.startIndex, bytes.endIndex), nil)
    }

    private mutating func wikiLink(_ info: WikiLinkInfo, node: Node) {
        linkBuilder.beginLink(form: info.isEmbed ? .wikiEmbed : .wikiLink, isImage: false, range: sourceSpan(of: node),
                              target: rawText(info.target))
        if info.hasLabel { linkBuilder.addPart(.label, rawText(info.label)) }
        for heading in info.headings { linkBuilder.addPart(.heading, rawText(heading)) }
        if info.hasBlockID { linkBuilder.addPart(.blockID, rawText(info.blockID)) }
    }

    private mutating func linkDefinition(_ definition: LinkDefinition, node: Node) -> LinkDefinitionSymbol {
        LinkDefinitionSymbol(
            label: rawString(definition.label), normalizedLabel: definition.normalizedLabel,
            destination: decodedString(definition.destination),
            title: definition.hasTitle ? decodedString(definition.title) : nil,
            range: trimmingLineEnd(sourceSpan(of: node)), labelRange: source(definition.label),
            destinationRange: source(definition.destination),
            titleRange: definition.hasTitle ? source(definition.title) : .empty)
    }

    // MARK: Blocks

    /// A block id names its paragraph, or the list item the paragraph belongs to.
    private func namedBlockRange(of node: Node) -> ByteSpan {
        guard node.parent >= 0, Int(node.parent) < tree.nodes.count else { return sourceSpan(of: node) }
        let paragraph = tree.nodes[Int(node.parent)]
        if paragraph.parent >= 0, Int(paragraph.parent) < tree.nodes.count, tree.nodes[Int(paragraph.parent)].kind == .item {
            return sourceSpan(of: tree.nodes[Int(paragraph.parent)])
        }
        return sourceSpan(of: paragraph)
    }

    // MARK: Front matter

    private func aliases() -> [String] {
        guard let frontMatter = tree.frontMatter else { return [] }
        var result: [String] = []
        for entry in frontMatter.entries where entry.key == "aliases" || entry.key == "alias" {
            switch entry.value {
            case .list(let items):
                result.append(contentsOf: items.filter { !$0.isEmpty })
            case .scalar(let text):
                for piece in text.split(separator: ",") {
                    let trimmed = piece.trimmingSpaces
                    if !trimmed.isEmpty { result.append(trimmed) }
                }
            case .raw:
                continue
            }
        }
        return result
    }

    /// Tags of `tags:`/`tag:` in every form: a flow or block list (one tag per item), or a scalar
    /// of tags separated by commas or spaces; a leading `#` is dropped.
    private func frontMatterTags(_ frontMatter: FrontMatter) -> [TagSymbol] {
        var result: [TagSymbol] = []
        let source = tree.source
        for entry in frontMatter.entries where entry.key == "tags" || entry.key == "tag" {
            switch entry.value {
            case .list:
                for itemRange in entry.itemRanges {
                    appendTag(in: itemRange.range, to: &result)
                }
            case .scalar:
                // Scan the line after the colon ourselves: `tags: #a #b` reads as a YAML comment.
                var index = Int(entry.keyRange.end)
                let limit = min(Int(frontMatter.range.end), source.count)
                while index < limit, source[index] != UInt8(ascii: ":") { index += 1 }
                index += 1
                var lineEnd = index
                while lineEnd < limit, source[lineEnd] != 0x0A, source[lineEnd] != 0x0D { lineEnd += 1 }
                while index < lineEnd {
                    let byte = source[index]
                    if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    var tokenEnd = index
                    while tokenEnd < lineEnd, source[tokenEnd] != 0x20, source[tokenEnd] != 0x09,
                          source[tokenEnd] != UInt8(ascii: ",") { tokenEnd += 1 }
                    // A lone `#` starts a YAML comment.
                    if tokenEnd == index + 1, byte == UInt8(ascii: "#") { break }
                    appendTag(in: index..<tokenEnd, to: &result)
                    index = tokenEnd
                }
            case .raw:
                continue
            }
        }
        return result
    }

    /// Appends the tag written in `source[range]`, without quotes or a leading `#`.
    private func appendTag(in range: Range<Int>, to result: inout [TagSymbol]) {
        let source = tree.source
        var start = max(0, range.lowerBound)
        var end = min(range.upperBound, source.count)
        guard start < end else { return }
        let quote = source[start]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") { start += 1 }
        if end > start, source[end - 1] == UInt8(ascii: "\"") || source[end - 1] == UInt8(ascii: "'") { end -= 1 }
        if start < end, source[start] == UInt8(ascii: "#") { start += 1 }
        guard start < end else { return }
        result.append(TagSymbol(name: String(decoding: source[start..<end], as: UTF8.self),
                                range: ByteSpan(range.lowerBound, range.upperBound),
                                nameRange: ByteSpan(start, end), isFromFrontMatter: true))
    }

    // MARK: Bytes

    /// `span` clamped to the content buffer.
    @inline(__always)
    private func contentSlice(_ span: ByteSpan) -> ArraySlice<UInt8> { tree.contentBytes(in: span) }

    private func rawString(_ span: ByteSpan) -> String {
        String(decoding: contentSlice(span), as: UTF8.self)
    }

    private mutating func decodeIntoScratch(_ span: ByteSpan, escapes: Bool) {
        scratch.removeAll(keepingCapacity: true)
        let slice = contentSlice(span)
        if escapes {
            CharacterReferences.decode(slice, into: &scratch)
        } else {
            CharacterReferences.decodeEntities(slice, into: &scratch)
        }
    }

    /// The text of a content span with backslash escapes and character references decoded.
    private mutating func decodedString(_ span: ByteSpan) -> String {
        let slice = contentSlice(span)
        if !SymbolExtractor.needsDecoding(slice) {
            return String(decoding: slice, as: UTF8.self)
        }
        decodeIntoScratch(span, escapes: true)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Whether a span holds `\` or `&`: most hold neither, and skip the decoder.
    private static func needsDecoding(_ slice: ArraySlice<UInt8>) -> Bool {
        slice.contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "&") }
    }

    /// The bytes of a content span as a link's text, with its source range.
    private mutating func rawText(_ span: ByteSpan) -> LinkList.Builder.Text {
        linkBuilder.text(contentSlice(span), range: source(span))
    }

    /// `decodedString(span)` as a link's text, with its source range, decoded straight into the
    /// links' bytes.
    private mutating func decodedText(_ span: ByteSpan) -> LinkList.Builder.Text {
        let slice = contentSlice(span)
        if !SymbolExtractor.needsDecoding(slice) {
            return linkBuilder.text(slice, range: source(span))
        }
        let start = linkBuilder.bytes.count
        CharacterReferences.decode(slice, into: &linkBuilder.bytes)
        return linkBuilder.text(from: start, range: source(span))
    }

    /// The source range of a content span.
    private mutating func source(_ span: ByteSpan) -> ByteSpan {
        let range = cursor.sourceRange(forContent: span)
        return ByteSpan(range.lowerBound, range.upperBound)
    }

    private func sourceSpan(of node: Node) -> ByteSpan {
        ByteSpan(node.sourceStart, max(node.sourceStart, node.sourceEnd))
    }

    /// `span` without the line endings it closes with (a definition's node keeps its "\n").
    private func trimmingLineEnd(_ span: ByteSpan) -> ByteSpan {
        var end = min(Int(span.end), tree.source.count)
        while end > Int(span.start), tree.source[end - 1] == 0x0A || tree.source[end - 1] == 0x0D { end -= 1 }
        return ByteSpan(Int(span.start), max(Int(span.start), end))
    }

    private func sortBySourceStart<T>(_ items: inout [T], _ range: (T) -> ByteSpan) {
        var sorted = true
        for index in items.indices.dropFirst() where range(items[index - 1]).start > range(items[index]).start {
            sorted = false
            break
        }
        if !sorted { items.sort { range($0).start < range($1).start } }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
