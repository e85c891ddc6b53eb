// A note's links packed into one buffer: what the index keeps of every link of every note.
//
// Invariants:
// - One array of 32-bit words per note (none for a note without links): a header, a record of
//   `recordWords` words per link, the parts of the links (label, headings, block id, reference
//   label, title, in that order) four words each, then the bytes of every text. No String, array
//   or box per link, so a link costs its record and its texts' bytes, not three or four
//   allocations; the extractor writes the texts straight in (`Builder`).
// - The encoding is a function of the links' values: equal `[LinkSymbol]` give equal words.
// - A link read back (`subscript`) equals the link stored; its Strings are made when it is read.

import MarkdownSyntax

/// The links of a note, in document order, packed (see the file comment). Reads like an array
/// of `LinkSymbol`.
public struct LinkList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Empty for no links; otherwise the header (`count`, the first word of the parts, the first
    /// word of the text, the text's byte count), the records, the parts and the text.
    private var words: [UInt32]

    /// Words per link: flags and form, the link's range, its target (text offset, text length,
    /// range), and the index of its first part. (Wiki-links mostly have no label: it is a part.)
    private static let recordWords = 8
    private static let headerWords = 4

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
            for link in links { textCount += link.target.end - link.target.start }
            for part in parts { textCount += part.end - part.start }
            let partsStart = LinkList.headerWords + links.count * LinkList.recordWords
            let textStart = partsStart + parts.count * 4
            var words = [UInt32](repeating: 0, count: textStart + (textCount + 3) / 4)
            words[0] = UInt32(links.count)
            words[1] = UInt32(partsStart)
            words[2] = UInt32(textStart)
            words[3] = UInt32(textCount)
            bytes.withUnsafeBytes { source in
                words.withUnsafeMutableBufferPointer { buffer in
                    let textBytes = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[(textStart * 4)...])
                    var textOffset = 0
                    var part = 0
                    /// Copies `text` into the text area, with its offset, length and range at `index`.
                    func write(_ text: Text, at index: Int) {
                        let count = text.end - text.start
                        if count > 0 {
                            UnsafeMutableRawBufferPointer(rebasing: textBytes[textOffset..<(textOffset + count)])
                                .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[text.start..<text.end]))
                        }
                        buffer[index] = UInt32(textOffset)
                        buffer[index + 1] = UInt32(count)
                        buffer[index + 2] = UInt32(bitPattern: text.range.start)
                        buffer[index + 3] = UInt32(bitPattern: text.range.end)
                        textOffset += count
                    }
                    for (position, linkIndex) in order.enumerated() {
                        let link = links[linkIndex]
                        let record = LinkList.headerWords + position * LinkList.recordWords
                        buffer[record] = link.flags
                        buffer[record + 1] = UInt32(bitPattern: link.range.start)
                        buffer[record + 2] = UInt32(bitPattern: link.range.end)
                        write(link.target, at: record + 3)
                        buffer[record + 7] = UInt32(part)
                        for index in link.parts {
                            write(parts[index], at: partsStart + part * 4)
                            part += 1
                        }
                    }
                }
            }
            return LinkList(words: words)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { words.isEmpty ? 0 : Int(words[0]) }

    public subscript(position: Int) -> LinkSymbol {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { buffer -> LinkSymbol in
            let reader = Reader(buffer)
            let record = LinkList.headerWords + position * LinkList.recordWords
            let flags = buffer[record]
            var partIndex = Int(buffer[record + 7])
            let partEnd = position + 1 < endIndex ? Int(buffer[record + LinkList.recordWords + 7]) : reader.partCount
            func nextPart(_ flag: UInt32) -> LinkSymbol.Part? {
                guard flags & flag != 0 else { return nil }
                defer { partIndex += 1 }
                return reader.part(at: reader.partsStart + partIndex * 4)
            }
            let label = nextPart(LinkList.labelFlag)
            let optionalParts = (flags & (LinkList.blockIDFlag | LinkList.referenceLabelFlag | LinkList.titleFlag)).nonzeroBitCount
            var headings: [LinkSymbol.Part] = []
            let headingCount = partEnd - partIndex - optionalParts
            if headingCount > 0 {
                headings.reserveCapacity(headingCount)
                for _ in 0..<headingCount {
                    headings.append(reader.part(at: reader.partsStart + partIndex * 4))
                    partIndex += 1
                }
            }
            let blockID = nextPart(LinkList.blockIDFlag)
            let referenceLabel = nextPart(LinkList.referenceLabelFlag)
            let title = nextPart(LinkList.titleFlag)?.text
            return LinkSymbol(
                form: LinkSymbol.Form(rawValue: UInt8(truncatingIfNeeded: flags)) ?? .inline,
                isImage: flags & LinkList.isImageFlag != 0,
                target: reader.part(at: record + 3), headings: headings, blockID: blockID,
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
        return words.withUnsafeBufferPointer { Reader($0).text(at: LinkList.headerWords + position * LinkList.recordWords + 3) }
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

        var partsStart: Int { Int(buffer[1]) }
        var partCount: Int { (Int(buffer[2]) - partsStart) / 4 }

        /// The text whose offset and length are at `index` and `index + 1`.
        func text(at index: Int) -> String { PackedText.string(buffer, at: index) }

        /// The part (text and range) whose four words start at `index`.
        func part(at index: Int) -> LinkSymbol.Part {
            LinkSymbol.Part(text: text(at: index),
                            range: ByteSpan(Int32(bitPattern: buffer[index + 2]), Int32(bitPattern: buffer[index + 3])))
        }
    }
}
