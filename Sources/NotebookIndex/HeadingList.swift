// A note's headings packed into one buffer: what the index keeps of every heading of every note.
//
// Invariants:
// - One array of 32-bit words per note (none for a note without headings): a header, a record
//   of `recordWords` words per heading (level, ranges, and the offset and length of its text and
//   of its slug), then the bytes of every text. No String per heading: a heading costs its
//   record and its texts' bytes, where a `[HeadingSymbol]` costs 56 bytes a heading and a String
//   allocation for each text or slug longer than 15 bytes.
// - The encoding is a function of the headings' values: equal `[HeadingSymbol]` give equal words.
// - A heading read back (`subscript`) equals the heading stored; its Strings are made when it is
//   read. `level(at:)` reads a level alone, for walks over sections.

import MarkdownSyntax
import TextCore

/// The headings of a note, in document order, packed (see the file comment). Reads like an
/// array of `HeadingSymbol`.
public struct HeadingList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Empty for no headings; otherwise the header (count, unused, the first word of the text),
    /// the records and the text.
    private var words: [UInt32]

    private static let headerWords = 3
    /// Words per heading: level, range, text range, text (offset, length), slug (offset, length).
    private static let recordWords = 9

    public init() { words = [] }

    public init(arrayLiteral headings: HeadingSymbol...) { self.init(headings) }

    /// Packs `headings`: the sizes first, then one buffer filled in place.
    public init(_ headings: [HeadingSymbol]) {
        guard !headings.isEmpty else {
            words = []
            return
        }
        var textCount = 0
        for heading in headings { textCount += heading.text.utf8.count + heading.slug.utf8.count }
        let textStart = HeadingList.headerWords + headings.count * HeadingList.recordWords
        words = PackedText.words(textStart: textStart, textByteCount: textCount) { buffer, writer in
            buffer[0] = UInt32(headings.count)
            for (position, heading) in headings.enumerated() {
                let record = HeadingList.headerWords + position * HeadingList.recordWords
                buffer[record] = UInt32(truncatingIfNeeded: heading.level)
                buffer[record + 1] = UInt32(bitPattern: heading.range.start)
                buffer[record + 2] = UInt32(bitPattern: heading.range.end)
                buffer[record + 3] = UInt32(bitPattern: heading.textRange.start)
                buffer[record + 4] = UInt32(bitPattern: heading.textRange.end)
                writer.write(heading.text, at: record + 5)
                writer.write(heading.slug, at: record + 7)
            }
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { words.isEmpty ? 0 : Int(words[0]) }

    public subscript(position: Int) -> HeadingSymbol {
        precondition(position >= 0 && position < endIndex)
        return words.withUnsafeBufferPointer { buffer in
            let record = HeadingList.headerWords + position * HeadingList.recordWords
            return HeadingSymbol(level: Int(Int32(bitPattern: buffer[record])),
                                 text: PackedText.string(buffer, at: record + 5),
                                 slug: PackedText.string(buffer, at: record + 7),
                                 range: ByteSpan(Int32(bitPattern: buffer[record + 1]), Int32(bitPattern: buffer[record + 2])),
                                 textRange: ByteSpan(Int32(bitPattern: buffer[record + 3]), Int32(bitPattern: buffer[record + 4])))
        }
    }

    /// The level of the heading at `position`, without making its Strings.
    public func level(at position: Int) -> Int {
        precondition(position >= 0 && position < endIndex)
        return Int(Int32(bitPattern: words[HeadingList.headerWords + position * HeadingList.recordWords]))
    }

    /// Equal headings, whatever their bytes: Strings compare by canonical equivalence, so two
    /// lists with different words may still hold equal headings.
    public static func == (a: HeadingList, b: HeadingList) -> Bool {
        a.words == b.words || a.elementsEqual(b)
    }

    public var description: String { Array(self).description }
}
