// Scanners for link syntax shared by the block pass (reference definitions) and the inline pass.
//
// Invariants:
// - Every scanner reads only `bytes[start..<end]`, never traps, and returns nil (or 0) for "no match".
// - Work is bounded by the bytes it matches: destination parenthesis nesting is capped at 32 (as
//   in cmark) and labels at 999 bytes, so repeated failed attempts stay linear overall.
// - Offsets returned are offsets into `bytes` (the caller's content offsets).

import TextCore

/// A link reference definition found at the start of a paragraph's content.
public struct ScannedLinkDefinition: Sendable, Equatable {
    public var label: ByteSpan          // content offsets, without brackets
    public var destination: ByteSpan    // without <>
    public var destinationIsPointy: Bool
    public var title: ByteSpan          // without quotes/parens
    public var hasTitle: Bool
    public var end: Int                 // content offset just past the definition (past its "\n" if any)
}

/// Byte-level scanners for link labels, destinations and titles.
public enum LinkScanners {
    /// Longest link label, in bytes, that CommonMark allows.
    public static let maximumLabelLength = 999
    /// Deepest parenthesis nesting accepted in a bare link destination (cmark's bound).
    public static let maximumDestinationParenthesisDepth = 32

    /// Scans one link reference definition starting exactly at `start` in bytes[start..<end]
    /// (CommonMark 0.31.2 rules: label ≤ 999 bytes with a non-blank char, destination, optional title
    /// which must be followed only by spaces/tabs to end of line — if the title line has trailing
    /// junk, the definition ends before the title when the destination ended a line).
    public static func scanLinkDefinition(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> ScannedLinkDefinition? {
        let end = min(end, bytes.count)
        guard start >= 0, start < end else { return nil }
        guard let label = scanLinkLabel(bytes, at: start, end: end) else { return nil }
        var position = label.next
        guard position < end, bytes[position] == UInt8(ascii: ":") else { return nil }
        position += 1
        // Label must contain a non-whitespace character.
        var blank = true
        for index in label.span.range where !isSpaceOrNewline(bytes[index]) { blank = false; break }
        if blank { return nil }
        position = skipSpacesAndOneNewline(bytes, at: position, end: end)
        guard let destination = scanLinkDestination(bytes, at: position, end: end) else { return nil }
        if !destination.pointy && destination.span.isEmpty { return nil }
        position = destination.next
        // Where the definition ends if there is no (valid) title: the end of the destination's line.
        var endWithoutTitle = -1
        var afterSpaces = position
        while afterSpaces < end, bytes[afterSpaces] == 0x20 || bytes[afterSpaces] == 0x09 { afterSpaces += 1 }
        if afterSpaces >= end {
            endWithoutTitle = end
        } else if bytes[afterSpaces] == 0x0A {
            endWithoutTitle = afterSpaces + 1
        }
        let titleStart = skipSpacesAndOneNewline(bytes, at: position, end: end)
        if titleStart > position, let title = scanLinkTitle(bytes, at: titleStart, end: end) {
            var after = title.next
            while after < end, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            if after >= end || bytes[after] == 0x0A {
                return ScannedLinkDefinition(label: label.span, destination: destination.span,
                                             destinationIsPointy: destination.pointy, title: title.span,
                                             hasTitle: true, end: min(after + 1, end))
            }
        }
        guard endWithoutTitle >= 0 else { return nil }
        return ScannedLinkDefinition(label: label.span, destination: destination.span,
                                     destinationIsPointy: destination.pointy, title: .empty,
                                     hasTitle: false, end: endWithoutTitle)
    }

    /// An e-mail autolink `<local@domain>` at `start` (`<`): the offset of its `>`, or nil.
    public static func scanEmailAutolink(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Int? {
        var index = start + 1
        let localStart = index
        while index < end, isEmailLocalByte(bytes[index]) { index += 1 }
        guard index > localStart, index < end, bytes[index] == UInt8(ascii: "@") else { return nil }
        index += 1
        while true {
            // One domain label: alphanumeric at both ends, hyphens inside, at most 63 bytes.
            let labelStart = index
            guard index < end, UnicodeClass.isASCIIAlphanumeric(bytes[index]) else { return nil }
            while index < end, UnicodeClass.isASCIIAlphanumeric(bytes[index]) || bytes[index] == UInt8(ascii: "-") {
                index += 1
                if index - labelStart > 63 { return nil }
            }
            guard bytes[index - 1] != UInt8(ascii: "-") else { return nil }
            guard index < end else { return nil }
            if bytes[index] == UInt8(ascii: ">") { return index }
            if bytes[index] == UInt8(ascii: ".") { index += 1; continue }
            return nil
        }
    }

    static func isEmailLocalByte(_ byte: UInt8) -> Bool {
        if UnicodeClass.isASCIIAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "/"),
             UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Label normalisation for matching: trim, collapse internal whitespace runs to one space, and
    /// apply full Unicode case folding (so "ẞ", "ß" and "SS" all become "ss", "ﬀ" becomes "ff", the
    /// Kelvin sign "k", final sigma "σ", while dotless "ı" stays distinct from "i"). ASCII-only
    /// labels take a byte fast path.
    public static func normalizeLabel(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(bytes.count)
        var pendingSpace = false
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if isSpaceOrNewline(byte) {
                pendingSpace = !collapsed.isEmpty
                index += 1
                continue
            }
            if pendingSpace {
                collapsed.append(0x20)
                pendingSpace = false
            }
            if byte < 0x80 {
                collapsed.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                index += 1
            } else {
                let (value, length) = UnicodeClass.decode(bytes, at: index, end: count)
                UnicodeClass.appendCaseFolded(value, to: &collapsed)
                index += length
            }
        }
        return String(decoding: collapsed, as: UTF8.self)
    }

    /// Scans a link label `[…]` at `position`: at most 999 bytes, no unescaped brackets inside.
    /// Returns the span between the brackets and the offset after `]`.
    public static func scanLinkLabel(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> (span: ByteSpan, next: Int)? {
        let end = min(end, bytes.count)
        guard position >= 0, position < end, bytes[position] == UInt8(ascii: "[") else { return nil }
        var index = position + 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") {
                return (ByteSpan(position + 1, index), index + 1)
            }
            if byte == UInt8(ascii: "[") { return nil }
            if byte == UInt8(ascii: "\\"), index + 1 < end, UnicodeClass.isASCIIPunctuation(bytes[index + 1]) {
                index += 2
            } else {
                index += 1
            }
            if index - position - 1 > maximumLabelLength { return nil }
        }
        return nil
    }

    /// Scans a link destination at `position`: `<…>` (no line ending, no unescaped `<` or `>`), or a
    /// bare run without spaces or controls and with balanced parentheses (which may be empty).
    /// Returns the destination without `<>`, whether it was pointy, and the offset after it.
    public static func scanLinkDestination(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> (span: ByteSpan, pointy: Bool, next: Int)? {
        let end = min(end, bytes.count)
        guard position >= 0, position <= end else { return nil }
        if position < end, bytes[position] == UInt8(ascii: "<") {
            var index = position + 1
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") { return (ByteSpan(position + 1, index), true, index + 1) }
                if byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "<") { return nil }
                if byte == UInt8(ascii: "\\"), index + 1 < end, UnicodeClass.isASCIIPunctuation(bytes[index + 1]) {
                    index += 2
                } else {
                    index += 1
                }
            }
            return nil
        }
        var index = position
        var depth = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, UnicodeClass.isASCIIPunctuation(bytes[index + 1]) {
                index += 2
            } else if byte == UInt8(ascii: "(") {
                depth += 1
                if depth > maximumDestinationParenthesisDepth { return nil }
                index += 1
            } else if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
                index += 1
            } else if byte <= 0x20 || byte == 0x7F {
                break
            } else {
                index += 1
            }
        }
        guard depth == 0 else { return nil }
        return (ByteSpan(position, index), false, index)
    }

    /// Scans a link title `"…"`, `'…'` or `(…)` at `position` (escapes allowed; a `(` title may not
    /// contain an unescaped `(`). Returns the span inside the delimiters and the offset after it.
    public static func scanLinkTitle(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> (span: ByteSpan, next: Int)? {
        let end = min(end, bytes.count)
        guard position >= 0, position < end else { return nil }
        let open = bytes[position]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""): close = open
        case UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return nil
        }
        var index = position + 1
        while index < end {
            let byte = bytes[index]
            if byte == close { return (ByteSpan(position + 1, index), index + 1) }
            if open == UInt8(ascii: "("), byte == open { return nil }
            if byte == UInt8(ascii: "\\"), index + 1 < end, UnicodeClass.isASCIIPunctuation(bytes[index + 1]) {
                index += 2
            } else {
                index += 1
            }
        }
        return nil
    }

    /// Skips spaces and tabs, at most one line ending, then spaces and tabs again.
    public static func skipSpacesAndOneNewline(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Int {
        var index = position
        let end = min(end, bytes.count)
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index < end, bytes[index] == 0x0A {
            index += 1
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }
        return index
    }

    @inline(__always) static func isSpaceOrNewline(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
