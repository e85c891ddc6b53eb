// Texts kept in a buffer of 32-bit words (`LinkList`, `NoteFrontMatter`): a text is an offset and
// a length in words of its own, and its bytes lie in the buffer's text area, whose first word
// is the buffer's third word.

/// Reads the texts of a packed buffer.
enum PackedText {
    /// The text whose offset (in the text area) and byte count are at `index` and `index + 1` of
    /// `buffer`, a non-empty buffer whose word 2 is the first word of its text area.
    static func string(_ buffer: UnsafeBufferPointer<UInt32>, at index: Int) -> String {
        string(buffer, offset: Int(buffer[index]), length: Int(buffer[index + 1]))
    }

    /// The `length` bytes at `offset` of the text area of `buffer` (word 2 is its first word).
    static func string(_ buffer: UnsafeBufferPointer<UInt32>, offset: Int, length: Int) -> String {
        if length == 0 { return "" }
        let start = Int(buffer[2]) * 4 + offset
        return UnsafeRawBufferPointer(buffer).withMemoryRebound(to: UInt8.self) { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)
        }
    }
}

extension PackedText {
    /// A buffer of `textStart` words of records and then `textByteCount` bytes of text, zeroed,
    /// filled by `fill` in place (one allocation), with a writer of texts into its text area.
    static func words(textStart: Int, textByteCount: Int,
                      fill: (UnsafeMutableBufferPointer<UInt32>, inout Writer) -> Void) -> [UInt32] {
        let wordCount = textStart + (textByteCount + 3) / 4
        return [UInt32](unsafeUninitializedCapacity: wordCount) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = wordCount
            buffer[2] = UInt32(textStart)
            var writer = Writer(buffer: buffer, textBytes: UnsafeMutableRawBufferPointer(
                rebasing: UnsafeMutableRawBufferPointer(buffer)[(textStart * 4)...]))
            fill(buffer, &writer)
        }
    }

    /// Writes texts into a buffer's text area, one after the other.
    struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt32>
        let textBytes: UnsafeMutableRawBufferPointer
        private var offset = 0

        init(buffer: UnsafeMutableBufferPointer<UInt32>, textBytes: UnsafeMutableRawBufferPointer) {
            self.buffer = buffer
            self.textBytes = textBytes
        }

        /// Copies `text` into the text area, with its offset and byte count at `index` and
        /// `index + 1` of the buffer.
        mutating func write(_ text: String, at index: Int) {
            let start = append(text)
            buffer[index] = UInt32(start)
            buffer[index + 1] = UInt32(offset - start)
        }

        /// Copies `text` into the text area after the texts before it; returns its offset there.
        mutating func append(_ text: String) -> Int {
            var text = text
            let start = offset
            offset += text.withUTF8 { bytes -> Int in
                if !bytes.isEmpty {
                    UnsafeMutableRawBufferPointer(rebasing: textBytes[start..<(start + bytes.count)])
                        .copyMemory(from: UnsafeRawBufferPointer(bytes))
                }
                return bytes.count
            }
            return start
        }
    }
}
