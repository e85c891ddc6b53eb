// A `MathTree` as MathML text, appended to a byte buffer.
//
// Invariants:
// - Visits each node once; recursion follows the tree, whose depth the parser bounds.
// - Token text is escaped (`&`, `<`, `>`); attribute text was made by the parser from checked
//   values (colours, lengths) and is written as it is. The TeX source in the annotation is escaped
//   and repaired (NUL and ill-formed UTF-8 as U+FFFD, `UTF8Repair`'s rule).
// - An `mrow` of one child is that child, unless it must stay a row (`MathNode.keepRow`, or it
//   has attributes).
// - Writes through a `ByteOutput`, which moves the bytes to the caller's array a chunk at a time.

import TextCore

/// Bytes gathered in a small chunk of raw memory and moved to an array a chunk at a time:
/// `Array.append(contentsOf:)` costs far more a call than the few bytes it copies, and the
/// writer has a piece to write every few bytes. The owner calls `finish()` once, which frees the
/// chunk.
struct ByteOutput {
    /// What has been flushed; the caller's buffer, swapped in.
    var result: [UInt8]
    private let chunk: UnsafeMutablePointer<UInt8>
    private var used = 0
    private static let chunkSize = 4096

    init(appendingTo result: [UInt8]) {
        self.result = result
        chunk = .allocate(capacity: Self.chunkSize)
    }

    /// All bytes written, the chunk freed; the output must not be used afterwards.
    mutating func finish() -> [UInt8] {
        flush()
        chunk.deallocate()
        var bytes: [UInt8] = []
        swap(&bytes, &result)
        return bytes
    }

    /// How many bytes were written.
    var count: Int { result.count + used }

    private mutating func flush() {
        result.append(contentsOf: UnsafeBufferPointer(start: chunk, count: used))
        used = 0
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if bytes.count > Self.chunkSize - used {
            flush()
            if bytes.count > Self.chunkSize {
                result.append(contentsOf: bytes)
                return
            }
        }
        (chunk + used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if used == Self.chunkSize { flush() }
        chunk[used] = byte
        used += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }
}

struct MathMLWriter {
    let tree: MathTree
    var out: ByteOutput

    @inline(__always)
    mutating func put(_ text: StaticString) {
        out.append(text)
    }

    /// The whole `<math>` element.
    mutating func writeMath(_ top: NodeList, source: UnsafeBufferPointer<UInt8>, display: Bool) {
        put(display ? "<math display=\"block\">" : "<math display=\"inline\">")  // l10n-exempt: MathML markup
        if top.isEmpty {
            put("</math>")
            return
        }
        put("<semantics>")
        if top.count == 1 {
            node(top.head)
        } else {
            put("<mrow>")
            children(top.head)
            put("</mrow>")
        }
        put("<annotation encoding=\"application/x-tex\">")  // l10n-exempt: MathML markup
        Self.escape(source, into: &out)
        put("</annotation></semantics></math>")
    }

    private mutating func children(_ first: Int32) {
        var child = first
        while child >= 0 {
            node(child)
            child = tree.nodes[Int(child)].nextSibling
        }
    }

    private mutating func node(_ id: Int32) {
        let node = tree.nodes[Int(id)]
        if node.tag == .mrow, node.flags & MathNode.keepRow == 0, node.attributesStart == node.attributesEnd,
           node.firstChild >= 0, tree.nodes[Int(node.firstChild)].nextSibling < 0 {
            self.node(node.firstChild)
            return
        }
        let name = node.tag.name
        out.append(UInt8(ascii: "<"))
        out.append(name)
        if node.attributesEnd > node.attributesStart {
            tree.bytes.withUnsafeBufferPointer { bytes in
                out.append(UnsafeBufferPointer(rebasing: bytes[Int(node.attributesStart)..<Int(node.attributesEnd)]))
            }
        }
        if node.flags & MathNode.upright != 0, node.tag == .mi, isSingleScalar(node) { put(" mathvariant=\"normal\"") }
        if node.flags & MathNode.prefixForm != 0 { put(" form=\"prefix\"") }
        if node.flags & MathNode.fixedLimits != 0 { put(" movablelimits=\"false\"") }
        out.append(UInt8(ascii: ">"))
        if node.tag.isToken {
            tree.bytes.withUnsafeBufferPointer { bytes in
                Self.escape(UnsafeBufferPointer(rebasing: bytes[Int(node.textStart)..<Int(node.textEnd)]), into: &out)
            }
        } else {
            children(node.firstChild)
        }
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "/"))
        out.append(name)
        out.append(UInt8(ascii: ">"))
    }

    private func isSingleScalar(_ node: MathNode) -> Bool {
        let count = Int(node.textEnd - node.textStart)
        guard count > 0 else { return false }
        let lead = tree.bytes[Int(node.textStart)]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return length == count
    }

    /// Appends `input` with `&`, `<`, `>` and `"` escaped, NUL and ill-formed UTF-8 as U+FFFD.
    static func escape(_ input: UnsafeBufferPointer<UInt8>, into out: inout ByteOutput) {
        var copied = 0
        var index = 0
        while index < input.count {
            let byte = input[index]
            var replacement: StaticString?
            var skip = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case 0: replacement = "\u{FFFD}"
            case 0x80...:
                let length = UTF8Repair.validSequenceLength(input, index)
                if length > 0 {
                    index += length
                    continue
                }
                replacement = "\u{FFFD}"
                skip = -length
            default:
                index += 1
                continue
            }
            if index > copied { out.append(UnsafeBufferPointer(rebasing: input[copied..<index])) }
            if let replacement { out.append(replacement) }
            index += skip
            copied = index
        }
        if input.count > copied { out.append(UnsafeBufferPointer(rebasing: input[copied...])) }
    }
}
