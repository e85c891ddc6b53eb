// A note's links packed into one buffer: what the index keeps of every link of every note.
//
// Invariants:
// - One array of 32-bit words per note (none for a note without links): a header, a record of
//   `recordWords` words per link, the parts of the links (label, headings, block id, reference
//   label, title, in that order) two words each, the ranges that do not fit a word, then the
//   bytes of every text. No String, array or box per link, so a link costs its record and its
//   texts' bytes, not three or four allocations; the extractor writes the texts straight in
//   (`Builder`).
// - A text (a target or a part) is two words: where its bytes start in the text area, and its
//   range. Texts lie in the order they are read (each link's target, then its parts), so a
//   text's length is where the next one starts (the last one's, the text's byte count). A range
//   is one word, its start from the link's start (15 bits) and its length (16 bits), when it
//   fits; otherwise the word's top bit is set and the rest indexes two words (start, end) of the
//   overflow area: a reference link's target, defined elsewhere in the note, or a title.
// - The encoding is a function of the links' values: equal `[LinkSymbol]` give equal words.
// - A link read back (`subscript`) equals the link stored; its Strings are made when it is read.

import MarkdownSyntax
import TextCore

/// The links of a note, in document order, packed (see the file comment). Reads like an array
/// of `LinkSymbol`.
public struct LinkList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Empty for no links; otherwise the header (`count`, the first word of the parts, the first
    /// word of the text, the text's byte count, the first word of the overflow ranges), the
    /// records, the parts, the overflow ranges and the text.
    private var words: [UInt32]

    /// Words per link: flags and form, the link's range, its target (text offset, range), and
    /// the index of its first part. (Wiki-links mostly have no label: it is a part.)
    private static let recordWords = 6
    private static let headerWords = 5
    private static let partWords = 2
    /// A range word's flag: the range is in the overflow area.
    private static let overflowFlag: UInt32 = 1 << 31

    // Flags in a record's first word, above the form's byte.
    private static let isImageFlag: UInt32 = 1 << 8
    private static let labelFlag: UInt32 = 1 << 9
    private static let blockIDFlag: UInt32 = 1 << 10
    private static let referenceLabelFlag: UInt32 = 1 << 11
    private static let titleFlag: UInt32 = 1 << 12

    public init() { words = [] }

    public init(arrayLiteral links: LinkSymbol...) { self.init(links) }

    /// Packs `links`.
    public init<Links: Collection>(_ links: Links) where Links.Element == LinkSymbol {
        var builder = Builder(capacity: links.count)
        for link in links {
            builder.beginLink(form: link.form, isImage: link.isImage, range: link.range,
                              target: builder.text(link.target.text, range: link.target.range))
            if let label = link.label { builder.addPart(.label, builder.text(label.text, range: label.range)) }
            for heading in link.headings { builder.addPart(.heading, builder.text(heading.text, range: heading.range)) }
            if let blockID = link.blockID { builder.addPart(.blockID, builder.text(blockID.text, range: blockID.range)) }
            if let reference = link.referenceLabel { builder.addPart(.referenceLabel, builder.text(reference.text, range: reference.range)) }
            if let title = link.title { builder.addPart(.title, builder.text(title, range: .empty)) }
        }
        self = builder.finish(sortingByStart: false)
    }

    private init(words: [UInt32]) { self.words = words }

    /// Packs links one at a time, as an extractor meets them: their texts go straight into one
    /// byte buffer (no String per text), and `finish` puts the links in order and packs them.
    struct Builder {
        /// A text in `bytes` and where it is written in the note.
        struct Text {
            var start: Int
            var end: Int
            var range: ByteSpan
        }

        /// The parts of a link, in the order `addPart` must be called in.
        enum PartKind {
            case label, heading, blockID, referenceLabel, title

            var flag: UInt32 {
                switch self {
                case .label: return LinkList.labelFlag
                case .heading: return 0
                case .blockID: return LinkList.blockIDFlag
                case .referenceLabel: return LinkList.referenceLabelFlag
                case .title: return LinkList.titleFlag
                }
            }
        }

        private struct Link {
            var flags: UInt32
            var range: ByteSpan
            var target: Text
            var parts: Range<Int>
        }

        private var links: [Link] = []
        private var parts: [Text] = []
        /// The texts' bytes, in the order they were made; a decoder may append to it and take
        /// what it wrote with `text(from:range:)`.
        var bytes: [UInt8] = []

        init(capacity: Int) {
            links.reserveCapacity(capacity)
            // Most links have a label and a target of a few dozen bytes: room for those, so the
            // buffers do not double their way up from empty (none for a note without links).
            if capacity > 0 {
                parts.reserveCapacity(capacity + capacity / 2)
                bytes.reserveCapacity(capacity * 40)
            }
        }

        /// `string`'s bytes as a text.
        mutating func text(_ string: String, range: ByteSpan) -> Text {
            let start = bytes.count
            bytes.append(contentsOf: string.utf8)
            return Text(start: start, end: bytes.count, range: range)
        }

        /// The bytes of `slice` as a text.
        mutating func text(_ slice: ArraySlice<UInt8>, range: ByteSpan) -> Text {
            let start = bytes.count
            bytes.append(contentsOf: slice)
            return Text(start: start, end: bytes.count, range: range)
        }

        /// The bytes appended to `bytes` since `start` as a text.
        func text(from start: Int, range: ByteSpan) -> Text {
            Text(start: start, end: bytes.count, range: range)
        }

        /// Starts a link; its parts follow.
        mutating func beginLink(form: LinkSymbol.Form, isImage: Bool, range: ByteSpan, target: Text) {
            links.append(Link(flags: UInt32(form.rawValue) | (isImage ? LinkList.isImageFlag : 0), range: range,
                              target: target, parts: parts.count..<parts.count))
        }

        /// Adds a part to the last link begun: its label, then its headings, block id, reference
        /// label and title, each when it has one.
        mutating func addPart(_ kind: PartKind, _ text: Text) {
            guard let last = links.indices.last else { return }
            parts.append(text)
            links[last].flags |= kind.flag
            links[last].parts = links[last].parts.lowerBound..<parts.count
        }

        /// The list: the links in the order they began, or sorted by where they start (links
        /// made inside-out, an image in a link, come out in document order).
        func finish(sortingByStart: Bool) -> LinkList {
            guard !links.isEmpty else { return LinkList() }
            var order = Array(links.indices)
            if sortingByStart, zip(links, links.dropFirst()).contains(where: { $0.range.start > $1.range.start }) {
                order.sort { links[$0].range.start < links[$1].range.start }
            }
            var textCount = 0
            var overflowCount = 0
            for link in links {
                textCount += link.target.end - link.target.start
                if LinkList.rangeWord(link.target.range, from: link.range.start) == nil { overflowCount += 1 }
                for index in link.parts {
                    textCount += parts[index].end - parts[index].start
                    if LinkList.rangeWord(parts[index].range, from: link.range.start) == nil { overflowCount += 1 }
                }
            }
            let partsStart = LinkList.headerWords + links.count * LinkList.recordWords
            let overflowStart = partsStart + parts.count * LinkList.partWords
            let textStart = overflowStart + overflowCount * 2
            var words = [UInt32](repeating: 0, count: textStart + (textCount + 3) / 4)
            words[0] = UInt32(links.count)
            words[1] = UInt32(partsStart)
            words[2] = UInt32(textStart)
            words[3] = UInt32(textCount)
            words[4] = UInt32(overflowStart)
            bytes.withUnsafeBytes { source in
                words.withUnsafeMutableBufferPointer { buffer in
                    let textBytes = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[(textStart * 4)...])
                    var textOffset = 0
                    var overflow = 0
                    var part = 0
                    /// Copies `text` into the text area, with its offset and range at `index`.
                    func write(_ text: Text, at index: Int, linkStart: Int32) {
                        let count = text.end - text.start
                        if count > 0 {
                            UnsafeMutableRawBufferPointer(rebasing: textBytes[textOffset..<(textOffset + count)])
                                .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[text.start..<text.end]))
                        }
                        buffer[index] = UInt32(textOffset)
                        if let word = LinkList.rangeWord(text.range, from: linkStart) {
                            buffer[index + 1] = word
                        } else {
                            buffer[index + 1] = LinkList.overflowFlag | UInt32(overflow)
                            buffer[overflowStart + overflow * 2] = UInt32(bitPattern: text.range.start)
                            buffer[overflowStart + overflow * 2 + 1] = UInt32(bitPattern: text.range.end)
                            overflow += 1
                        }
                        textOffset += count
                    }
                    for (position, linkIndex) in order.enumerated() {
                        let link = links[linkIndex]
                        let record = LinkList.headerWords + position * LinkList.recordWords
                        buffer[record] = link.flags
                        buffer[record + 1] = UInt32(bitPattern: link.range.start)
                        buffer[record + 2] = UInt32(bitPattern: link.range.end)
                        write(link.target, at: record + 3, linkStart: link.range.start)
                        buffer[record + 5] = UInt32(part)
                        for index in link.parts {
                            write(parts[index], at: partsStart + part * LinkList.partWords, linkStart: link.range.start)
                            part += 1
                        }
                    }
                }
            }
            return LinkList(words: words)
        }
    }

    /// The word of `range` for a link starting at `linkStart`: its offset from the link's start
    /// and its length, when both fit (nil: it goes to the overflow area).
    private static func rangeWord(_ range: ByteSpan, from linkStart: Int32) -> UInt32? {
        let offset = Int(range.start) - Int(linkStart)
        let length = Int(range.end) - Int(range.start)
        guard offset >= 0, offset < 1 << 15, length >= 0, length < 1 << 16 else { return nil }
        return UInt32(offset) << 16 | UInt32(length)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { words.isEmpty ? 0 : Int(words[0]) }

    public subscript(position: Int) -> LinkSymbol {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { buffer -> LinkSymbol in
            let reader = Reader(buffer)
            let record = LinkList.headerWords + position * LinkList.recordWords
            let flags = buffer[record]
            var partIndex = Int(buffer[record + 5])
            let partEnd = reader.partEnd(of: position)
            func nextPart(_ flag: UInt32) -> LinkSymbol.Part? {
                guard flags & flag != 0 else { return nil }
                defer { partIndex += 1 }
                return reader.part(partIndex, of: position)
            }
            let label = nextPart(LinkList.labelFlag)
            let optionalParts = (flags & (LinkList.blockIDFlag | LinkList.referenceLabelFlag | LinkList.titleFlag)).nonzeroBitCount
            var headings: [LinkSymbol.Part] = []
            let headingCount = partEnd - partIndex - optionalParts
            if headingCount > 0 {
                headings.reserveCapacity(headingCount)
                for _ in 0..<headingCount {
                    headings.append(reader.part(partIndex, of: position))
                    partIndex += 1
                }
            }
            let blockID = nextPart(LinkList.blockIDFlag)
            let referenceLabel = nextPart(LinkList.referenceLabelFlag)
            let title = nextPart(LinkList.titleFlag)?.text
            return LinkSymbol(
                form: LinkSymbol.Form(rawValue: UInt8(truncatingIfNeeded: flags)) ?? .inline,
                isImage: flags & LinkList.isImageFlag != 0,
                target: reader.target(of: position), headings: headings, blockID: blockID,
                label: label,
                referenceLabel: referenceLabel, title: title,
                range: ByteSpan(Int32(bitPattern: buffer[record + 1]), Int32(bitPattern: buffer[record + 2])))
        }
    }

    /// The form of the link at `position`, without making its Strings.
    public func form(at position: Int) -> LinkSymbol.Form {
        precondition(position >= 0 && position < endIndex)
        return LinkSymbol.Form(rawValue: UInt8(truncatingIfNeeded: words[LinkList.headerWords + position * LinkList.recordWords])) ?? .inline
    }

    /// The target text of the link at `position` (`link.target.text`), without making the rest.
    public func targetText(at position: Int) -> String {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { Reader($0).targetText(of: position) }
    }

    /// Equal links, whatever their bytes: Strings compare by canonical equivalence, so two lists
    /// with different words may still hold equal links.
    public static func == (a: LinkList, b: LinkList) -> Bool {
        a.words == b.words || a.elementsEqual(b)
    }

    public var description: String { Array(self).description }

    /// Reads the words of a non-empty list.
    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt32>
        init(_ buffer: UnsafeBufferPointer<UInt32>) { self.buffer = buffer }

        var count: Int { Int(buffer[0]) }
        var partsStart: Int { Int(buffer[1]) }
        var overflowStart: Int { Int(buffer[4]) }
        var partCount: Int { (overflowStart - partsStart) / LinkList.partWords }

        func record(_ link: Int) -> Int { LinkList.headerWords + link * LinkList.recordWords }

        /// The index of the first part after the parts of `link`.
        func partEnd(of link: Int) -> Int {
            link + 1 < count ? Int(buffer[record(link + 1) + 5]) : partCount
        }

        /// Where the text after the last one of `link` starts: the next link's target, or the
        /// end of the text.
        func textEnd(of link: Int) -> Int {
            link + 1 < count ? Int(buffer[record(link + 1) + 3]) : Int(buffer[3])
        }

        /// The text whose offset is at `index`, ending where `end` starts.
        func text(at index: Int, end: Int) -> String {
            let start = Int(buffer[index])
            return PackedText.string(buffer, offset: start, length: end - start)
        }

        /// The range in the word at `index`, for a link starting at `linkStart`.
        func range(at index: Int, linkStart: Int32) -> ByteSpan {
            let word = buffer[index]
            if word & LinkList.overflowFlag != 0 {
                let overflow = overflowStart + Int(word & ~LinkList.overflowFlag) * 2
                return ByteSpan(Int32(bitPattern: buffer[overflow]), Int32(bitPattern: buffer[overflow + 1]))
            }
            let start = linkStart + Int32(word >> 16)
            return ByteSpan(start, start + Int32(word & 0xFFFF))
        }

        func targetText(of link: Int) -> String {
            let first = Int(buffer[record(link) + 5])
            let end = first < partEnd(of: link) ? Int(buffer[partsStart + first * LinkList.partWords]) : textEnd(of: link)
            return text(at: record(link) + 3, end: end)
        }

        func target(of link: Int) -> LinkSymbol.Part {
            LinkSymbol.Part(text: targetText(of: link),
                            range: range(at: record(link) + 4, linkStart: Int32(bitPattern: buffer[record(link) + 1])))
        }

        /// The part `index` (of all the list's parts), one of `link`'s.
        func part(_ index: Int, of link: Int) -> LinkSymbol.Part {
            let word = partsStart + index * LinkList.partWords
            let end = index + 1 < partEnd(of: link) ? Int(buffer[word + LinkList.partWords]) : textEnd(of: link)
            return LinkSymbol.Part(text: text(at: word, end: end),
                                   range: range(at: word + 1, linkStart: Int32(bitPattern: buffer[record(link) + 1])))
        }
    }
}
