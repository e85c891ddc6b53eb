// JSONEscaper: the contents of a JSON string (no quotes) from UTF-8 bytes, eight bytes a step.
//
// Invariants:
// - The output is exactly what `JSONWriter` writes between the quotes: `"` and `\` and the
//   control characters U+0000...U+001F are escaped (`\b \t \n \f \r` short, the rest `\u00XX`),
//   every other byte is copied. The bytes are not validated: callers pass valid UTF-8 (a
//   `String`'s, or HTML from `HTMLWriter`, which repairs its output).
// - The fast loop copies eight bytes at a time with one unaligned store, then moves on by the
//   number of plain bytes among them, so a run of plain bytes costs about two instructions per
//   byte and an escape a dozen. It writes only inside capacity it reserved, keeping 16 bytes
//   of room for one step, and hands what is left to the plain byte loop when that room runs out.
// - The first flagged byte of the SWAR tests below is always a byte that needs escaping: a
//   borrow only spreads upwards from a byte that did match, so the lowest flag is exact.

enum JSONEscaper {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is `"`, `\` or below 0x20 is set; bits above the
    /// lowest set one may be false alarms (see the invariant above).
    @inline(__always)
    private static func specialMask(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highBits
    }

    /// What each byte below 0x80 needs: 0 = copy, 1 = `\u00XX`, else the short escape letter.
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 128)
        for byte in 0..<0x20 { table[byte] = 1 }
        table[0x08] = UInt8(ascii: "b")
        table[0x09] = UInt8(ascii: "t")
        table[0x0A] = UInt8(ascii: "n")
        table[0x0C] = UInt8(ascii: "f")
        table[0x0D] = UInt8(ascii: "r")
        table[Int(UInt8(ascii: "\""))] = UInt8(ascii: "\"")
        table[Int(UInt8(ascii: "\\"))] = UInt8(ascii: "\\")
        return table
    }()

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// Writes the escape of `byte` (one that needs escaping) at `output`; returns its length.
    @inline(__always)
    private static func writeEscape(_ byte: UInt8, to output: UnsafeMutablePointer<UInt8>,
                                    table: UnsafePointer<UInt8>) -> Int {
        let escape = table[Int(byte & 0x7F)]
        output[0] = UInt8(ascii: "\\")
        if escape > 1 {
            output[1] = escape
            return 2
        }
        output[1] = UInt8(ascii: "u")
        output[2] = UInt8(ascii: "0")
        output[3] = UInt8(ascii: "0")
        output[4] = hexDigit(byte >> 4)
        output[5] = hexDigit(byte & 0xF)
        return 6
    }

    /// Escapes `input[start...]` into `output` (which has room for `capacity` bytes) until the
    /// input ends or fewer than 16 bytes of room are left; returns how far each got.
    private static func escapeFast(_ input: UnsafeBufferPointer<UInt8>, from start: Int,
                                   into output: UnsafeMutablePointer<UInt8>, capacity: Int) -> (read: Int, written: Int) {
        guard let base = input.baseAddress else { return (start, 0) }
        let raw = UnsafeRawPointer(base)
        let count = input.count
        var read = start
        var written = 0
        table.withUnsafeBufferPointer { tableBuffer in
            guard let table = tableBuffer.baseAddress else { return }
            while read + 8 <= count, written + 16 <= capacity {
                let word = raw.loadUnaligned(fromByteOffset: read, as: UInt64.self)
                UnsafeMutableRawPointer(output + written).storeBytes(of: word, as: UInt64.self)
                let mask = specialMask(word)
                if mask == 0 {
                    read += 8
                    written += 8
                    continue
                }
                let plain = mask.trailingZeroBitCount >> 3
                read += plain
                written += plain
                written += writeEscape(base[read], to: output + written, table: table)
                read += 1
            }
            while read < count, written + 16 <= capacity {
                let byte = base[read]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                    written += writeEscape(byte, to: output + written, table: table)
                } else {
                    output[written] = byte
                    written += 1
                }
                read += 1
            }
        }
        return (read, written)
    }

    /// Appends the escaped form of `input` to `output`.
    static func append(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var read = 0
        while read < input.count {
            // Room for the rest if about one byte in four needs escaping, plus one step's slack;
            // denser input takes another round.
            let left = input.count - read
            let room = left + left / 4 + 32
            let oldCount = output.count
            output.append(contentsOf: repeatElement(0, count: room))
            let written = output.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                let result = escapeFast(input, from: read, into: base + oldCount, capacity: room)
                read = result.read
                return result.written
            }
            output.removeLast(room - written)
        }
    }

    /// The escaped form of `input` in a new array.
    static func escaped(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var read = 0
        let capacity = input.count + input.count / 4 + 32
        var output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            guard let base = buffer.baseAddress else { return }
            let result = escapeFast(input, from: 0, into: base, capacity: buffer.count)
            read = result.read
            initializedCount = result.written
        }
        if read < input.count {
            append(UnsafeBufferPointer(rebasing: input[read...]), to: &output)
        }
        return output
    }
}

extension JSON {
    /// The bytes JSON writes between the quotes of a string with these UTF-8 contents (`"`, `\`
    /// and control characters escaped, the rest copied). The bytes must be valid UTF-8; they
    /// are not checked. With `Framing.responseParts` this sends a large string (a rendered
    /// preview) without building a `String` and escaping it on one core after the fact.
    public static func escapedStringContents(_ utf8: [UInt8]) -> [UInt8] {
        utf8.withUnsafeBufferPointer { JSONEscaper.escaped($0) }
    }
}
