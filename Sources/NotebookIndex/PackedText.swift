// Texts kept in a buffer of 32-bit words (`LinkList`, `NoteFrontMatter`): a text is an offset and
// a length in words of its own, and its bytes lie in the buffer's text area, whose first word
// is the buffer's third word.

/// Reads the texts of a packed buffer.
enum PackedText {
    /// The text whose offset (in the text area) and byte count are at `index` and `index + 1` of
    /// `buffer`, a non-empty buffer whose word 2 is the first word of its text area.
    static func string(_ buffer: UnsafeBufferPointer<UInt32>, at index: Int) -> String {
        let length = Int(buffer[index + 1])
        if length == 0 { return "" }
        let start = Int(buffer[2]) * 4 + Int(buffer[index])
        return UnsafeRawBufferPointer(buffer).withMemoryRebound(to: UInt8.self) { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)
        }
    }
}
