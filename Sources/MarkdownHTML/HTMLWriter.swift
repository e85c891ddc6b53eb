// The output buffer of the HTML renderer and the byte-level escapers cmark uses.
//
// Invariants:
// - Everything written is valid UTF-8: NUL bytes and invalid UTF-8 sequences in the input are
//   written as U+FFFD, with the same sequence boundaries cmark's `utf8proc_check` uses
//   (TextCore's `UTF8Repair`, which the plain text of headings uses too).
// - `text`/`attribute` escape exactly `&`, `<`, `>` and `"` (cmark's `escape_html`).
// - `href` percent-encodes as cmark's `houdini_escape_href` (after the UTF-8 repair above).

import TextCore

/// The writer's bytes: raw memory with a count, because `Array.append(contentsOf:)` costs
/// far more a call than the few bytes it copies, and rendering writes a piece every few bytes.
/// Owned by one `HTMLWriter`, which is non-copyable: no other writer can share it, so a write
/// needs no uniqueness check.
final class HTMLByteStorage {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(never)
    func grow(toAtLeast needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

/// Growing byte buffer with HTML and URL escaping. Non-copyable: a copy would share its storage
/// (a class, written in place), and checking for a shared one cost a call into the runtime on
/// every write.
struct HTMLWriter: ~Copyable {
    private var storage: HTMLByteStorage
    /// The last byte already handed to `sink` (for `cr`), nil before the first flush.
    var flushedLast: UInt8?
    /// Where full chunks go when streaming; nil to keep everything in `bytes`.
    var sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
    /// Flush once `bytes` holds at least this many bytes.
    var chunkSize = Int.max

    init(capacity: Int) { storage = HTMLByteStorage(capacity: capacity) }

    /// The bytes written (and not yet flushed), as an array.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// How many bytes are held.
    var count: Int { storage.count }

    /// The last byte held, if any.
    var last: UInt8? { storage.count > 0 ? storage.base[storage.count - 1] : nil }

    /// Room for `extra` more bytes; returns where they go.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if storage.count + extra > storage.capacity { storage.grow(toAtLeast: storage.count + extra) }
        return storage.base + storage.count
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func put(_ input: UnsafeBufferPointer<UInt8>) {
        guard let source = input.baseAddress, !input.isEmpty else { return }
        let count = input.count
        HTMLWriter.copy(source, to: reserve(count), count: count)
        storage.count += count
    }

    /// Copies `count` bytes. Most runs of text between escapes are short: up to 16 bytes are
    /// copied by two loads and two stores that may overlap, not by a call to `memmove`.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count > 16 {
            destination.update(from: source, count: count)
        } else if count >= 8 {
            let first = from.loadUnaligned(as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let first = from.loadUnaligned(as: UInt32.self)
            let last = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
        } else if count >= 2 {
            let first = from.loadUnaligned(as: UInt16.self)
            let last = from.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
            to.storeBytes(of: first, as: UInt16.self)
            to.storeBytes(of: last, toByteOffset: count - 2, as: UInt16.self)
        } else if count == 1 {
            destination.pointee = source.pointee
        }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func put(_ value: UInt8) {
        reserve(1).pointee = value
        storage.count += 1
    }

    /// Hands the buffered bytes to the sink when a chunk is full (streaming output keeps memory
    /// flat however long the document is).
    @inline(__always)
    mutating func flushIfFull() {
        if storage.count >= chunkSize { flush() }
    }

    mutating func flush() {
        guard let sink, storage.count > 0 else { return }
        flushedLast = last
        sink(UnsafeBufferPointer(start: storage.base, count: storage.count))
        storage.count = 0
    }

    /// Appends ASCII/UTF-8 text as is (for markup the renderer itself writes).
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a Swift string as is (for markup built at run time; the caller escaped it).
    /// Disfavoured so that a string literal picks the `StaticString` overload, which copies its
    /// bytes without going through `String.UTF8View`.
    @_disfavoredOverload
    mutating func literal(_ text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) { put(value) }

    /// Appends a decimal number.
    mutating func number(_ value: Int) {
        // Digits straight into the buffer: `String(value)` allocates, and source lines write a
        // number on every block.
        if value < 0 {
            put(UInt8(ascii: "-"))
            if value == Int.min {
                literal(String(String(value).dropFirst()))
                return
            }
            number(-value)
            return
        }
        if value < 10 {
            put(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                count += 1
            }
            UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]).withMemoryRebound(to: UInt8.self) { put($0) }
        }
    }

    /// Starts a new line unless the output is empty or already ends with one (cmark's `cr`).
    @inline(__always)
    mutating func cr() {
        if let last = last ?? flushedLast, last != 0x0A { put(0x0A) }
    }

    /// Appends `input` with `&<>"` escaped and bad UTF-8 repaired.
    mutating func text(_ input: ArraySlice<UInt8>) {
        input.withUnsafeBufferPointer { text($0) }
    }

    /// Appends `input` with `&<>"` escaped and bad UTF-8 repaired.
    mutating func text(_ input: UnsafeBufferPointer<UInt8>) {
        appendEscapedChecking(input, from: 0, to: input.count)
    }

    /// Appends `whole[start..<end]` with `&<>"` escaped and bad UTF-8 repaired, as
    /// `text(_:)` does; the rest of `whole` may be read (never written or copied), so that short
    /// texts take the sixteen-byte steps too (the renderer's text nodes: slices of one buffer).
    mutating func text(in whole: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        let end = min(end, whole.count)
        let start = max(0, min(start, end))
        appendEscapedChecking(whole, from: start, to: end)
    }

    /// Appends `input[start..<end]` with `&<>"` escaped, checking its UTF-8 on the way: sixteen
    /// bytes a step where they are ASCII with nothing to escape or well-formed characters of two
    /// and three bytes (`cleanPrefix`), otherwise the next byte to look at found sixteen bytes a
    /// step (`nextFlagged`), runs of other characters checked by `UTF8Repair.wellFormedRunEnd`.
    /// At the first NUL or ill-formed sequence the rest goes through the repairing loop
    /// (`append(_:escaping:)`): most text never gets there, and checking it here spares a pass
    /// over the whole content before the rendering. Only `input[start..<end]` is written; the
    /// steps may read the rest of `input`.
    private mutating func appendEscapedChecking(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard let base = input.baseAddress else { return }
        let limit = input.count
        var i = start
        var run = start
        while true {
            // Whole windows where they are clean; the byte path below takes one step where one
            // is not (a window reads the two bytes before it and sixteen from it).
            while i < end && i >= 2 && i &+ 16 <= limit {
                let clean = HTMLWriter.cleanPrefix(base, i, start: start, end: end)
                if clean == 0 { break }
                i &+= clean
            }
            i = HTMLWriter.nextFlagged(base, from: i, count: end)
            guard i < end else { break }
            let value = base[i]
            if value >= 0x80 {
                let runEnd = UTF8Repair.wellFormedRunEnd(base, from: i, count: end)
                i = runEnd
                if runEnd < end && base[runEnd] >= 0x80 { break }
                continue
            }
            if value == 0 { break }
            flush(input, run, i)
            escape(value)
            i += 1
            run = i
        }
        flush(input, run, i)
        if i < end { append(UnsafeBufferPointer(rebasing: input[i..<end]), escaping: true) }
    }

    /// How many of the bytes of `start..<end` from `i` (at most sixteen) text can copy as they
    /// are, ending at a character boundary (0 when the first needs a look). `i` is a boundary,
    /// `i >= 2`, and `base[i - 2 ..< i + 16]` is readable; lanes outside `start..<end` are
    /// masked off. Taken: ASCII other than NUL and `&<>"`, and well-formed characters of two and
    /// three bytes (Cyrillic, Greek, Hangul, CJK…), checked by vector compares where
    /// `wellFormedRunEnd` goes a character at a time. A byte continues a character exactly where
    /// the byte before it leads one (C2–EF) or the byte two before leads a three-byte one
    /// (E0–EF); E0 needs A0 or more after it (shorter forms are overlong), ED less (surrogates);
    /// C0, C1 and four-byte leads are not taken here. Anything wrong anywhere gives 0, and the
    /// byte path finds exactly where. A character the window cuts is left for the next one; one
    /// the text's end cuts is wrong.
    @inline(__always)
    private static func cleanPrefix(_ base: UnsafePointer<UInt8>, _ i: Int, start: Int, end: Int) -> Int {
        typealias Block = ByteBlock
        let raw = UnsafeRawPointer(base)
        let length = end &- i
        let bytes = raw.loadUnaligned(fromByteOffset: i, as: Block.Bytes.self)
        var special = escapeFlags(bytes)
        var high = bytes .>= Block.splat(0x80)
        let lanes = Block.Bytes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        var inText = Block.Flags(repeating: true)
        if length < 16 {
            inText = lanes .< Block.splat(UInt8(truncatingIfNeeded: length))
            special = special .& inText
            high = high .& inText
        }
        let (highLow, highHigh) = Block.words(high)
        if highLow | highHigh == 0 { return min(Block.firstFlagged(special), length) }
        let previous = raw.loadUnaligned(fromByteOffset: i &- 1, as: Block.Bytes.self)
        let beforeThat = raw.loadUnaligned(fromByteOffset: i &- 2, as: Block.Bytes.self)
        var leadsBefore = Block.within(previous, 0xC2, 0xEF)
        var leadsTwoBefore = Block.within(beforeThat, 0xE0, 0xEF)
        let intoText = i &- start
        if intoText < 2 {
            // Bytes before the text lead nothing in it.
            leadsBefore = leadsBefore .& (lanes .>= Block.splat(UInt8(truncatingIfNeeded: 1 &- intoText)))
            leadsTwoBefore = leadsTwoBefore .& (lanes .>= Block.splat(UInt8(truncatingIfNeeded: 2 &- intoText)))
        }
        if length < 16 {
            // Bytes after the text lead nothing; a character its last bytes start is cut.
            leadsBefore = leadsBefore .& (lanes .<= Block.splat(UInt8(truncatingIfNeeded: length)))
            leadsTwoBefore = leadsTwoBefore .& (lanes .<= Block.splat(UInt8(truncatingIfNeeded: length &+ 1)))
        }
        let continuation = Block.within(bytes, 0x80, 0xBF) .& inText
        let overlong = Block.equal(previous, 0xE0) .& (bytes .< Block.splat(0xA0))
        let surrogate = Block.equal(previous, 0xED) .& (bytes .>= Block.splat(0xA0))
        let notTaken = Block.within(bytes, 0xC0, 0xC1) .| (bytes .>= Block.splat(0xF0))
        let bad = (continuation .^ (leadsBefore .| leadsTwoBefore)) .| ((overlong .| surrogate .| notTaken) .& inText)
        let (badLow, badHigh) = Block.words(bad)
        if badLow | badHigh != 0 { return 0 }
        let clean = min(Block.firstFlagged(special), length)
        if length >= 16 {
            // A character that starts in the last two bytes ends in the next window (or is cut
            // by the text's end, which the next window finds).
            if base[i &+ 14] & 0xF0 == 0xE0 { return min(clean, 14) }
            if base[i &+ 15] >= 0xC0 { return min(clean, 15) }
        }
        return clean
    }

    /// The index of the first byte at or after `from` that text cannot copy as it is
    /// (non-ASCII, NUL or one of `&<>"`), or `count`: sixteen bytes a step (`ByteBlock`), a text
    /// shorter than that eight bytes a step, then by the byte.
    @inline(__always)
    private static func nextFlagged(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        if count >= 16 {
            return ByteBlock.firstIndex(in: base, from: from, end: count,
                                        vector: { escapeFlags($0) .| ($0 .>= ByteBlock.splat(0x80)) },
                                        scalar: { $0 >= 0x80 || $0 == 0 || isEscaped($0) })
        }
        var i = from
        if i &+ 8 <= count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let mask = (word | flagged(word, 0) | flagged(word | ones &* 0x04, 0x26)
                | flagged(word | ones &* 0x02, 0x3E)) & highBits
            if mask != 0 { return i &+ mask.trailingZeroBitCount >> 3 }
            i &+= 8
        }
        while i < count {
            let value = base[i]
            if value >= 0x80 || value == 0 || isEscaped(value) { return i }
            i &+= 1
        }
        return count
    }

    /// The flags of the ASCII bytes text cannot copy as they are: NUL and `&<>"` (`"` and `&`
    /// differ in one bit, 0x04, `<` and `>` in another, 0x02: one compare for each pair).
    @inline(__always)
    private static func escapeFlags(_ bytes: ByteBlock.Bytes) -> ByteBlock.Flags {
        ByteBlock.equal(bytes, 0) .| ByteBlock.equal(bytes | ByteBlock.splat(0x04), 0x26)
            .| ByteBlock.equal(bytes | ByteBlock.splat(0x02), 0x3E)
    }

    /// True for the bytes text escapes: `&`, `<`, `>` and `"`.
    @inline(__always)
    private static func isEscaped(_ value: UInt8) -> Bool {
        value == 0x26 || value == 0x3C || value == 0x3E || value == 0x22
    }

    /// Writes the entity of one of `&<>"`.
    @inline(__always)
    private mutating func escape(_ value: UInt8) {
        switch value {
        case 0x26: literal("&amp;")
        case 0x3C: literal("&lt;")
        case 0x3E: literal("&gt;")
        default: literal("&quot;")
        }
    }

    /// Appends `input` with bad UTF-8 repaired but nothing escaped (raw HTML).
    mutating func raw(_ input: ArraySlice<UInt8>) {
        input.withUnsafeBufferPointer { append($0, escaping: false) }
    }

    /// Appends `input` percent-encoded for an `href`/`src` value, as cmark's `houdini_escape_href`.
    mutating func href(_ input: ArraySlice<UInt8>) {
        input.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            let count = source.count
            var i = 0
            while i < count {
                let start = i
                while i < count && HTMLWriter.isHrefSafe(base[i]) { i += 1 }
                if i > start { put(UnsafeBufferPointer(start: base + start, count: i - start)) }
                if i >= count { break }
                let value = base[i]
                if value == 0x26 {
                    literal("&amp;")
                } else if value == 0x27 {
                    literal("&#x27;")
                } else if value >= 0x80 {
                    // A character's bytes are percent-encoded; bad UTF-8 is repaired first, as
                    // U+FFFD (cmark's boundaries), and that is percent-encoded.
                    let length = UTF8Repair.validSequenceLength(source, i)
                    if length > 0 {
                        for offset in 0..<length { percentEncode(base[i + offset]) }
                        i += length
                    } else {
                        literal("%EF%BF%BD")
                        i += -length
                    }
                    continue
                } else if value == 0 {
                    literal("%EF%BF%BD")
                } else {
                    percentEncode(value)
                }
                i += 1
            }
        }
    }

    /// Writes `%XX` for a byte.
    @inline(__always)
    private mutating func percentEncode(_ value: UInt8) {
        put(0x25)
        put(HTMLWriter.hexDigit(value >> 4))
        put(HTMLWriter.hexDigit(value & 0xF))
    }

    /// The upper-case hexadecimal digit of `value` (0...15).
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 &+ value : 0x37 &+ value
    }

    /// Bytes `houdini_escape_href` copies unchanged: ASCII letters, digits and
    /// `-_.+!*(),%#@?=;:/$~`. Of the others, `&` becomes `&amp;`, `'` becomes `&#x27;`, and every
    /// other byte `%XX`. Two 64-bit masks, not a table behind a lazy global.
    @inline(__always)
    static func isHrefSafe(_ value: UInt8) -> Bool {
        if value < 64 { return (0xAFFF_FF3A_0000_0000 as UInt64) >> UInt64(value) & 1 != 0 }
        if value < 128 { return (0x47FF_FFFE_87FF_FFFF as UInt64) >> UInt64(value - 64) & 1 != 0 }
        return false
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// High bits flag the bytes of `word` equal to `target`; only the lowest flag is exact (a
    /// borrow spreads upwards from a byte that matched), which is all `append` uses.
    @inline(__always)
    private static func flagged(_ word: UInt64, _ target: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(target))
        return (x &- ones) & ~x
    }

    /// The escaping/repairing loop: skips clean bytes eight at a time (a byte needs a look when
    /// it is NUL, non-ASCII, or, when escaping, one of `&<>"`) and copies clean runs in one go.
    private mutating func append(_ input: UnsafeBufferPointer<UInt8>, escaping: Bool) {
        let count = input.count
        var i = 0
        var run = 0
        let raw = UnsafeRawPointer(input.baseAddress)
        while i < count {
            if let raw {
                while i + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    var mask = word | HTMLWriter.flagged(word, 0)
                    if escaping {
                        // `"` and `&` differ in one bit (0x04), `<` and `>` in another (0x02):
                        // two tests for the four.
                        mask |= HTMLWriter.flagged(word | HTMLWriter.ones &* 0x04, 0x26)
                            | HTMLWriter.flagged(word | HTMLWriter.ones &* 0x02, 0x3E)
                    }
                    mask &= HTMLWriter.highBits
                    if mask == 0 {
                        i += 8
                    } else {
                        i += mask.trailingZeroBitCount >> 3
                        break
                    }
                }
            }
            guard i < count else { break }
            let value = input[i]
            if value >= 0x80 {
                // Text in most scripts is runs of multi-byte characters: stay here while they last
                // rather than going back to the word loop for each one.
                if let base = input.baseAddress {
                    let end = UTF8Repair.wellFormedRunEnd(base, from: i, count: count)
                    if end > i { i = end; continue }
                }
                let length = UTF8Repair.validSequenceLength(input, i)
                if length > 0 { i += length; continue }
                flush(input, run, i)
                literal("\u{FFFD}")
                i += -length
                run = i
                continue
            }
            if value == 0 {
                flush(input, run, i)
                literal("\u{FFFD}")
                i += 1
                run = i
                continue
            }
            if escaping && HTMLWriter.isEscaped(value) {
                flush(input, run, i)
                escape(value)
                i += 1
                run = i
                continue
            }
            i += 1
        }
        flush(input, run, count)
    }

    @inline(__always)
    private mutating func flush(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        if end > start { put(UnsafeBufferPointer(rebasing: input[start..<end])) }
    }
}
