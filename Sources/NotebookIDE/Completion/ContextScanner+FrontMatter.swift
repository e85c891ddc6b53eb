// Front matter for completion (`LineRegions.frontMatter` says whether the cursor is inside the
// leading `---` block): what it is completing there (a key at a line start, a value after `key: `, or a list item under a key).
// Only the fence lines and the lines above the cursor inside the block are read.

import MarkdownSyntax
import TextCore

extension ContextScanner {
    /// The key of the block list the line at `lineStart` belongs to: the nearest line above
    /// with no indentation, if it reads `key:` (with nothing or a comment after it).
    private func keyAbove() -> String? {
        var end = lineStart
        while end > 0 {
            // Step to the previous line.
            var lineEndIndex = end
            if lineEndIndex > 0, bytes[lineEndIndex - 1] == 0x0A { lineEndIndex -= 1 }
            if lineEndIndex > 0, bytes[lineEndIndex - 1] == 0x0D { lineEndIndex -= 1 }
            var start = lineEndIndex
            while start > 0, !ContextScanner.isLineBreak(bytes[start - 1]) { start -= 1 }
            end = start
            guard start < lineEndIndex else { continue }
            let first = bytes[start]
            if ContextScanner.isSpace(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "#") { continue }
            guard let colon = keyColon(start, lineEndIndex) else { return nil }
            return keyText(start, colon)
        }
        return nil
    }

    /// The `:` that ends the key of the line `start..<end` (followed by a space or the line end).
    private func keyColon(_ start: Int, _ end: Int) -> Int? {
        var index = start
        var quote: UInt8 = 0
        while index < end {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ":"), index + 1 == end || ContextScanner.isSpace(bytes[index + 1]) {
                return index > start ? index : nil
            }
            index += 1
        }
        return nil
    }

    private func keyText(_ start: Int, _ colon: Int) -> String {
        var key = ContextScanner.trimmed(string(start, colon))
        if key.utf8.count >= 2, let first = key.utf8.first, first == UInt8(ascii: "\"") || first == UInt8(ascii: "'"),
           key.utf8.last == first {
            key = String(key.dropFirst().dropLast())
        }
        return key
    }

    private func valueKind(forKey key: String) -> CompletionContext.Kind {
        let lowered = key.lowercased()
        return lowered == "tags" || lowered == "tag" ? .frontMatterTag : .frontMatterValue(key: key)
    }

    /// A value starting at `start` (after an optional quote) up to `stop` (exclusive), trimmed:
    /// the replaced range, provided the cursor is inside it.
    private func valueContext(_ key: String, start: Int, stop: Int) -> CompletionContext? {
        var valueStart = start
        var quote: UInt8 = 0
        if valueStart < cursor, bytes[valueStart] == UInt8(ascii: "\"") || bytes[valueStart] == UInt8(ascii: "'") {
            quote = bytes[valueStart]
            valueStart += 1
        }
        guard valueStart <= cursor else { return nil }
        var end = max(stop, cursor)
        while end > cursor, ContextScanner.isSpace(bytes[end - 1]) { end -= 1 }
        let quoteText = quote == 0 ? "" : String(UnicodeScalar(quote))
        var closing = quoteText
        if quote != 0, let closeQuote = bytes[cursor..<end].firstIndex(of: quote) {
            end = closeQuote
            closing = ""
        }
        return CompletionContext(kind: valueKind(forKey: key), replace: ByteSpan(valueStart, end),
                                 typed: string(valueStart, cursor), closing: closing, quote: quoteText)
    }

    func detectFrontMatter() -> CompletionContext? {
        var first = lineStart
        while first < cursor, ContextScanner.isSpace(bytes[first]) { first += 1 }
        // A block list item `- value` under a key.
        if first < lineEnd, bytes[first] == UInt8(ascii: "-") {
            guard first + 1 < lineEnd, ContextScanner.isSpace(bytes[first + 1]), first + 1 < cursor,
                  let key = keyAbove() else { return nil }
            var valueStart = first + 1
            while valueStart < cursor, ContextScanner.isSpace(bytes[valueStart]) { valueStart += 1 }
            return valueContext(key, start: valueStart, stop: lineEnd)
        }
        guard first == lineStart else { return nil }
        guard let colon = keyColon(lineStart, cursor) else {
            // A key being typed at the line start.
            guard !bytes[lineStart..<cursor].contains(where: { ContextScanner.isSpace($0) || $0 == UInt8(ascii: "#") }) else {
                return nil
            }
            var end = cursor
            while end < lineEnd, !ContextScanner.isSpace(bytes[end]), bytes[end] != UInt8(ascii: ":") { end += 1 }
            return CompletionContext(kind: .frontMatterKey, replace: ByteSpan(lineStart, end),
                                     typed: string(lineStart, cursor),
                                     closing: end < lineEnd && bytes[end] == UInt8(ascii: ":") ? "" : ": ")
        }
        let key = keyText(lineStart, colon)
        var valueStart = colon + 1
        while valueStart < cursor, ContextScanner.isSpace(bytes[valueStart]) { valueStart += 1 }
        // `key:` with the cursor before the space: a value needs `key: ` first.
        guard valueStart > colon + 1 else { return nil }
        if valueStart < cursor, bytes[valueStart] == UInt8(ascii: "[") {
            // A flow list: the item after the last `[` or `,` before the cursor.
            var itemStart = valueStart + 1
            for index in (valueStart + 1)..<cursor where bytes[index] == UInt8(ascii: ",") { itemStart = index + 1 }
            if bytes[(valueStart + 1)..<cursor].contains(UInt8(ascii: "]")) { return nil }
            while itemStart < cursor, ContextScanner.isSpace(bytes[itemStart]) { itemStart += 1 }
            var stop = cursor
            while stop < lineEnd, bytes[stop] != UInt8(ascii: ","), bytes[stop] != UInt8(ascii: "]") { stop += 1 }
            return valueContext(key, start: itemStart, stop: stop)
        }
        return valueContext(key, start: valueStart, stop: lineEnd)
    }
}
