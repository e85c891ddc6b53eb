// A note's front matter as the index keeps it: what features read of every note's front matter
// (each entry's key, key range and value, and the block's range), packed.
//
// Invariants:
// - One array of 32-bit words per note with front matter (none when it has no entries): a
//   header, a record of `recordWords` words per entry, a record of two words per value text (the
//   scalar or raw text, or each list item), then the bytes of every text. No String, array or
//   enum per entry, so an entry costs its words and its texts' bytes. (The parser's
//   `FrontMatter` keeps an array of entries with two Strings or a list, and an array of item
//   ranges, each: about 350 bytes for a note's title, date and tags.)
// - The encoding is a function of the front matter's entries: equal entries give equal words.
// - An entry read back (`entries`) has the key, key range and value of the entry stored; its
//   Strings are made when it is read. The value and item ranges are not kept: no feature reads
//   them from the index (an open note's editor features read its tree).

import MarkdownSyntax
import TextCore

/// A note's front matter in the index (see the file comment).
public struct NoteFrontMatter: Sendable, Equatable {
    /// One `key: value` entry.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: FrontMatter.Value
        /// Source bytes of the key.
        public var keyRange: ByteSpan
    }

    /// Source range of the whole block, fences included.
    public var range: ByteSpan
    /// Empty for no entries; otherwise the header (entry count, the first word of the value
    /// records, the first word of the text), the entry records, the value records and the text.
    private var words: [UInt32]

    private static let headerWords = 3
    /// Words per entry: the value's kind, the key's text (offset, length), the key's range, and
    /// the index of its first value record.
    private static let recordWords = 6

    fileprivate enum Kind: UInt32 { case scalar, list, raw }

    /// Packs `frontMatter`: the sizes first, then one buffer filled in place.
    public init(_ frontMatter: FrontMatter) {
        range = frontMatter.range
        let entries = frontMatter.entries
        guard !entries.isEmpty else {
            words = []
            return
        }
        var valueCount = 0
        var textCount = 0
        for entry in entries {
            textCount += entry.key.utf8.count
            switch entry.value {
            case .scalar(let text), .raw(let text):
                valueCount += 1
                textCount += text.utf8.count
            case .list(let items):
                valueCount += items.count
                for item in items { textCount += item.utf8.count }
            }
        }
        let valuesStart = NoteFrontMatter.headerWords + entries.count * NoteFrontMatter.recordWords
        let textStart = valuesStart + valueCount * 2
        var value = 0
        words = PackedText.words(textStart: textStart, textByteCount: textCount) { buffer, writer in
            buffer[0] = UInt32(entries.count)
            buffer[1] = UInt32(valuesStart)
            /// Writes `text` as the next value record.
            func writeValue(_ text: String) {
                writer.write(text, at: valuesStart + value * 2)
                value += 1
            }
            for (position, entry) in entries.enumerated() {
                let record = NoteFrontMatter.headerWords + position * NoteFrontMatter.recordWords
                writer.write(entry.key, at: record + 1)
                buffer[record + 3] = UInt32(bitPattern: entry.keyRange.start)
                buffer[record + 4] = UInt32(bitPattern: entry.keyRange.end)
                buffer[record + 5] = UInt32(value)
                switch entry.value {
                case .scalar(let text):
                    buffer[record] = Kind.scalar.rawValue
                    writeValue(text)
                case .raw(let text):
                    buffer[record] = Kind.raw.rawValue
                    writeValue(text)
                case .list(let items):
                    buffer[record] = Kind.list.rawValue
                    for item in items { writeValue(item) }
                }
            }
        }
    }

    /// The value of an entry as `forEachEntry` reads it: its kind and its texts (the scalar or
    /// raw text, or each list item), each made when asked for. Valid only inside the call.
    struct ValueReader {
        fileprivate let buffer: UnsafeBufferPointer<UInt32>
        fileprivate let kind: Kind
        fileprivate let first: Int
        /// How many texts: one for a scalar or raw value, the items of a list.
        let count: Int

        var isList: Bool { kind == .list }
        var isScalar: Bool { kind == .scalar }

        /// The text at `index` (0 for a scalar or raw value).
        func text(_ index: Int) -> String { PackedText.string(buffer, at: Int(buffer[1]) + (first + index) * 2) }

        /// The byte count of the text at `index`.
        func byteCount(_ index: Int) -> Int { Int(buffer[Int(buffer[1]) + (first + index) * 2 + 1]) }
    }

    /// Calls `body` with each entry's key and its value, in order, making no String but the
    /// keys and the texts `body` reads (no entry or list array, as `entries` makes).
    func forEachEntry(_ body: (String, ValueReader) -> Void) {
        guard !words.isEmpty else { return }
        words.withUnsafeBufferPointer { buffer in
            let count = Int(buffer[0])
            let valueCount = (Int(buffer[2]) - Int(buffer[1])) / 2
            for index in 0..<count {
                let record = NoteFrontMatter.headerWords + index * NoteFrontMatter.recordWords
                let first = Int(buffer[record + 5])
                let end = index + 1 < count ? Int(buffer[record + NoteFrontMatter.recordWords + 5]) : valueCount
                body(PackedText.string(buffer, at: record + 1),
                     ValueReader(buffer: buffer, kind: Kind(rawValue: buffer[record]) ?? .raw, first: first, count: end - first))
            }
        }
    }

    /// The entries, in order.
    public var entries: [Entry] {
        var result: [Entry] = []
        var position = 0
        forEachEntry { key, value in
            let record = NoteFrontMatter.headerWords + position * NoteFrontMatter.recordWords
            position += 1
            let entryValue: FrontMatter.Value
            switch value.kind {
            case .scalar: entryValue = .scalar(value.count > 0 ? value.text(0) : "")
            case .raw: entryValue = .raw(value.count > 0 ? value.text(0) : "")
            case .list: entryValue = .list((0..<value.count).map(value.text))
            }
            let keyRange = ByteSpan(Int32(bitPattern: value.buffer[record + 3]), Int32(bitPattern: value.buffer[record + 4]))
            result.append(Entry(key: key, value: entryValue, keyRange: keyRange))
        }
        return result
    }

    /// The value of the first entry with this key (keys compare exactly).
    public subscript(key: String) -> FrontMatter.Value? {
        entries.first(where: { $0.key == key })?.value
    }

    /// Equal front matter, whatever the bytes: Strings compare by canonical equivalence, so two
    /// with different words may still hold equal entries.
    public static func == (a: NoteFrontMatter, b: NoteFrontMatter) -> Bool {
        a.range == b.range && (a.words == b.words || a.entries == b.entries)
    }
}
