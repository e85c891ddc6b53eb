// A note's tags packed into one buffer: what the index keeps of every tag of every note.
//
// Invariants:
// - One array of 32-bit words per note (none for a note without tags): a header, a record of
//   `recordWords` words per tag (its range, its name's range, where its name starts in the text
//   and whether it came from the front matter), then the bytes of every name, in tag order. A
//   name's length is where the next one starts (the last one's, the header's byte count): a tag
//   costs 20 bytes and its name's bytes, where a `[TagSymbol]` took 40 bytes a tag and a String
//   allocation for each name longer than 15 bytes.
// - The encoding is a function of the tags' values: equal `[TagSymbol]` give equal words.
// - A tag read back (`subscript`) equals the tag stored; its name is made when it is read.

import MarkdownSyntax
import TextCore

/// The tags of a note, in document order, packed (see the file comment). Reads like an array of
/// `TagSymbol`.
public struct TagList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Empty for no tags; otherwise the header (count, the text's byte count, the first word of
    /// the text), the records and the text.
    private var words: [UInt32]

    private static let headerWords = 3
    /// Words per tag: range, name range, then the name's offset in the text with the
    /// front-matter flag in its top bit.
    private static let recordWords = 5
    private static let frontMatterFlag: UInt32 = 1 << 31

    public init() { words = [] }

    public init(arrayLiteral tags: TagSymbol...) { self.init(tags) }

    /// Packs `tags`: the sizes first, then one buffer filled in place.
    public init<Tags: Collection>(_ tags: Tags) where Tags.Element == TagSymbol {
        guard !tags.isEmpty else {
            words = []
            return
        }
        var textCount = 0
        for tag in tags { textCount += tag.name.utf8.count }
        // Offsets share their word with the flag: a note's tag names past 2 GB cannot be (the
        // note itself is smaller), but the check keeps the encoding honest.
        precondition(textCount < Int(TagList.frontMatterFlag))
        let textStart = TagList.headerWords + tags.count * TagList.recordWords
        words = PackedText.words(textStart: textStart, textByteCount: textCount) { buffer, writer in
            buffer[0] = UInt32(tags.count)
            buffer[1] = UInt32(textCount)
            for (position, tag) in tags.enumerated() {
                let record = TagList.headerWords + position * TagList.recordWords
                buffer[record] = UInt32(bitPattern: tag.range.start)
                buffer[record + 1] = UInt32(bitPattern: tag.range.end)
                buffer[record + 2] = UInt32(bitPattern: tag.nameRange.start)
                buffer[record + 3] = UInt32(bitPattern: tag.nameRange.end)
                let offset = writer.append(tag.name)
                buffer[record + 4] = UInt32(offset) | (tag.isFromFrontMatter ? TagList.frontMatterFlag : 0)
            }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { words.isEmpty ? 0 : Int(words[0]) }

    public subscript(position: Int) -> TagSymbol {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { buffer in
            let record = TagList.headerWords + position * TagList.recordWords
            return TagSymbol(name: name(buffer, record: record, position: position),
                             range: ByteSpan(Int32(bitPattern: buffer[record]), Int32(bitPattern: buffer[record + 1])),
                             nameRange: ByteSpan(Int32(bitPattern: buffer[record + 2]), Int32(bitPattern: buffer[record + 3])),
                             isFromFrontMatter: buffer[record + 4] & TagList.frontMatterFlag != 0)
        }
    }

    /// The name of the tag at `position`, without the rest of it.
    public func name(at position: Int) -> String {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { buffer in
            name(buffer, record: TagList.headerWords + position * TagList.recordWords, position: position)
        }
    }

    /// The name of the tag whose record starts at `record`: from its offset to the next tag's.
    private func name(_ buffer: UnsafeBufferPointer<UInt32>, record: Int, position: Int) -> String {
        let start = Int(buffer[record + 4] & ~TagList.frontMatterFlag)
        let end = position + 1 < Int(buffer[0])
            ? Int(buffer[record + TagList.recordWords + 4] & ~TagList.frontMatterFlag)
            : Int(buffer[1])
        return PackedText.string(buffer, offset: start, length: end - start)
    }

    /// Equal tags, whatever their bytes: Strings compare by canonical equivalence, so two lists
    /// with different words may still hold equal tags.
    public static func == (a: TagList, b: TagList) -> Bool {
        a.words == b.words || a.elementsEqual(b)
    }

    public var description: String { Array(self).description }
}
