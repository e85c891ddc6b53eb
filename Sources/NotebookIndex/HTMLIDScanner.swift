// The ids raw HTML gives places: `id="…"` on any element, and `name="…"` on `<a>` (the old
// anchor form). Read from the syntax tree's HTML nodes (blocks and inline tags) by
// `SymbolExtractor`.
//
// Invariant: one pass over the bytes; every byte is looked at a bounded number of times (a
// comment or a tag is skipped by one forward scan), so the cost is linear in the HTML's length,
// whatever it holds. Never traps: every index is checked against the end.

enum HTMLIDScanner {
    /// The value ranges (offsets into `bytes`' indices) of the ids in `bytes`, in order.
    static func idRanges(in bytes: ArraySlice<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let end = bytes.endIndex
        var index = bytes.startIndex
        // Most HTML holds no attribute value at all (`<br>`, `</div>`): no `=`, nothing to read.
        guard bytes.contains(where: { $0 == UInt8(ascii: "=") }) else { return result }
        while index < end {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < end else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                // A comment (`<!-- … -->`) or a declaration: nothing in it names a place.
                index = skipComment(bytes, from: index)
                continue
            }
            guard isLetter(next) else {
                index += 1
                continue
            }
            // A start tag: its name, then its attributes up to `>`.
            var cursor = index + 1
            let nameStart = cursor
            while cursor < end, isLetter(bytes[cursor]) || isDigit(bytes[cursor]) || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            let isAnchor = cursor - nameStart == 1 && bytes[nameStart] | 0x20 == UInt8(ascii: "a")
            while cursor < end, bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != UInt8(ascii: "<") {
                let byte = bytes[cursor]
                if isSpace(byte) || byte == UInt8(ascii: "/") {
                    cursor += 1
                    continue
                }
                let attributeStart = cursor
                while cursor < end, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "="),
                      bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != UInt8(ascii: "<"), bytes[cursor] != UInt8(ascii: "/") {
                    cursor += 1
                }
                let attribute = bytes[attributeStart..<cursor]
                var after = cursor
                while after < end, isSpace(bytes[after]) { after += 1 }
                guard after < end, bytes[after] == UInt8(ascii: "=") else {
                    if cursor == attributeStart { cursor += 1 }
                    continue
                }
                after += 1
                while after < end, isSpace(bytes[after]) { after += 1 }
                guard after < end else {
                    cursor = after
                    break
                }
                var valueStart = after
                var valueEnd: Int
                let quote = bytes[after]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    valueStart = after + 1
                    valueEnd = valueStart
                    while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
                    cursor = min(valueEnd + 1, end)
                } else {
                    valueEnd = valueStart
                    while valueEnd < end, !isSpace(bytes[valueEnd]), bytes[valueEnd] != UInt8(ascii: ">") { valueEnd += 1 }
                    cursor = valueEnd
                }
                if valueEnd > valueStart, names(attribute, "id") || (isAnchor && names(attribute, "name")) {
                    result.append(valueStart..<valueEnd)
                }
            }
            index = cursor
        }
        return result
    }

    /// The index after the comment or declaration that starts at `start` (`<!`).
    private static func skipComment(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        let end = bytes.endIndex
        let isComment = start + 3 < end && bytes[start + 2] == UInt8(ascii: "-") && bytes[start + 3] == UInt8(ascii: "-")
        var index = start + 2
        while index < end {
            if isComment {
                if bytes[index] == UInt8(ascii: ">"), index >= start + 6,
                   bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] == UInt8(ascii: "-") { return index + 1 }
            } else if bytes[index] == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return end
    }

    /// True when `attribute` is `name`, ignoring ASCII case.
    private static func names(_ attribute: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard attribute.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { wanted in
            zip(attribute, wanted).allSatisfy { ($0 | 0x20) == $1 }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
