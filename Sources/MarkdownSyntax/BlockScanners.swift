// Small scanners over the bytes of one line, used by the block pass, and public so that what
// reads a note line by line without parsing it (the editing features' `LineRegions`) decides
// with the parser's own rules, not a copy of them.
//
// Each scanner takes a buffer, a start offset and the line's end offset (exclusive, line ending
// not included) and returns the number of bytes it matched, 0 for no match. None reads outside
// `start..<end`.

@usableFromInline let byteSpace: UInt8 = 0x20
@usableFromInline let byteTab: UInt8 = 0x09
@usableFromInline let byteNewline: UInt8 = 0x0A
@usableFromInline let byteReturn: UInt8 = 0x0D

@inlinable func isSpaceOrTab(_ c: UInt8) -> Bool { c == byteSpace || c == byteTab }
@inlinable func isASCIIDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inlinable func isASCIILetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
@inlinable func asciiLower(_ c: UInt8) -> UInt8 { isASCIILetter(c) ? c | 0x20 : c }

public enum BlockScanners {
    public typealias Bytes = UnsafeBufferPointer<UInt8>

    /// True when only spaces and tabs remain in `start..<end`.
    public static func isBlank(_ b: Bytes, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if !isSpaceOrTab(b[i]) { return false }
            i += 1
        }
        return true
    }

    /// `#{1,6}` followed by a space, a tab or the end of the line. Returns the level and the number
    /// of `#`s; nil for no heading.
    public static func atxHeadingStart(_ b: Bytes, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while i < end, b[i] == UInt8(ascii: "#"), i - start < 7 { i += 1 }
        let level = i - start
        guard level >= 1, level <= 6 else { return nil }
        if i == end || isSpaceOrTab(b[i]) { return level }
        return nil
    }

    /// Three or more `*`, `-` or `_` (the same one), with only spaces and tabs between them.
    /// `failure` receives where a failed scan stopped: a scan from any later start before that
    /// point fails too, so the caller skips it (cmark's `thematic_break_kill_pos`), which keeps a
    /// line like `- - - - … x` linear.
    public static func thematicBreak(_ b: Bytes, _ start: Int, _ end: Int, failure: inout Int) -> Bool {
        guard start < end else { return false }
        let c = b[start]
        guard c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else { return false }
        var count = 0
        var i = start
        while i < end {
            let d = b[i]
            if d == c { count += 1 } else if !isSpaceOrTab(d) {
                failure = i
                return false
            }
            i += 1
        }
        if count < 3 { failure = end }
        return count >= 3
    }

    /// A setext underline: `=+` or `-+` then only spaces and tabs. Returns the heading level.
    public static func setextUnderline(_ b: Bytes, _ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        let c = b[start]
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return nil }
        var i = start
        while i < end, b[i] == c { i += 1 }
        guard isBlank(b, i, end) else { return nil }
        return c == UInt8(ascii: "=") ? 1 : 2
    }

    /// An opening code fence: 3+ backticks or tildes; after backticks the info string may not
    /// contain a backtick. Returns the fence length.
    public static func openingFence(_ b: Bytes, _ start: Int, _ end: Int, allowDollar: Bool = false) -> Int? {
        guard start < end else { return nil }
        let c = b[start]
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var i = start
        while i < end, b[i] == c { i += 1 }
        let length = i - start
        guard length >= 3 else { return nil }
        if c == UInt8(ascii: "`") {
            while i < end {
                if b[i] == UInt8(ascii: "`") { return nil }
                i += 1
            }
        }
        return length
    }

    /// A closing fence of at least `minimum` `c`s followed only by spaces and tabs.
    public static func closingFence(_ b: Bytes, _ start: Int, _ end: Int, character c: UInt8, minimum: Int) -> Bool {
        var i = start
        while i < end, b[i] == c { i += 1 }
        guard i - start >= minimum else { return false }
        return isBlank(b, i, end)
    }

    /// `$$` at `first` starts a math block when the line is one whole `$$ … $$` formula, or when
    /// no other `$$` follows on the line (the formula continues below); `$$x$$ and more text`
    /// stays a paragraph with inline display math.
    public static func opensDollarMath(_ b: Bytes, _ first: Int, _ end: Int) -> Bool {
        guard end - first >= 2, b[first] == UInt8(ascii: "$"), b[first + 1] == UInt8(ascii: "$") else { return false }
        var e = end
        while e > first + 2 && isSpaceOrTab(b[e - 1]) { e -= 1 }
        if e - (first + 2) >= 2 && b[e - 1] == UInt8(ascii: "$") && b[e - 2] == UInt8(ascii: "$") { return true }
        var i = first + 2
        while i + 1 < e {
            if b[i] == UInt8(ascii: "$") && b[i + 1] == UInt8(ascii: "$") { return false }
            i += 1
        }
        return true
    }

    /// A line of an open `$$` block from `start` that ends it: its last non-blank bytes are `$$`.
    public static func closesDollarMath(_ b: Bytes, _ start: Int, _ end: Int) -> Bool {
        var e = end
        while e > start && isSpaceOrTab(b[e - 1]) { e -= 1 }
        return e - start >= 2 && b[e - 1] == UInt8(ascii: "$") && b[e - 2] == UInt8(ascii: "$")
    }

    /// A fence line of the front matter: `c` (`-`, or `.` for a closing line) three times at the
    /// line's start, then only spaces and tabs.
    public static func isFrontMatterFence(_ b: Bytes, _ start: Int, _ end: Int, _ c: UInt8) -> Bool {
        guard end - start >= 3, b[start] == c, b[start + 1] == c, b[start + 2] == c else { return false }
        return isBlank(b, start + 3, end)
    }

    /// List marker data found by `listMarker`.
    public struct ListMarker {
        public var ordered: Bool
        public var delimiter: ListDelimiter
        public var start: Int32
        /// Bytes of the marker itself (`-`, `12.`).
        public var length: Int
    }

    /// A bullet (`-`, `+`, `*`) or ordered (`1.`, `1)`, up to 9 digits) marker followed by a space,
    /// a tab or the end of the line. When it would interrupt a paragraph, the item may not be
    /// empty and an ordered list must start at 1.
    public static func listMarker(_ b: Bytes, _ start: Int, _ end: Int, interruptsParagraph: Bool) -> ListMarker? {
        guard start < end else { return nil }
        let c = b[start]
        var marker: ListMarker
        var i = start
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "*") {
            i += 1
            let delimiter: ListDelimiter = c == UInt8(ascii: "-") ? .dash : (c == UInt8(ascii: "+") ? .plus : .star)
            marker = ListMarker(ordered: false, delimiter: delimiter, start: 0, length: 1)
        } else if isASCIIDigit(c) {
            var value: Int32 = 0
            while i < end, isASCIIDigit(b[i]), i - start < 9 {
                value = value * 10 + Int32(b[i] - 0x30)
                i += 1
            }
            guard i < end, i - start <= 9 else { return nil }
            let d = b[i]
            guard d == UInt8(ascii: ".") || d == UInt8(ascii: ")") else { return nil }
            i += 1
            marker = ListMarker(ordered: true, delimiter: d == UInt8(ascii: ".") ? .period : .paren,
                                start: value, length: i - start)
            if interruptsParagraph && value != 1 { return nil }
        } else {
            return nil
        }
        guard i == end || isSpaceOrTab(b[i]) else { return nil }
        if interruptsParagraph && isBlank(b, i, end) { return nil }
        return marker
    }

    // MARK: HTML blocks

    /// Tag names that start an HTML block of type 6 (CommonMark 0.31.2), each packed into an
    /// integer (`packedName`): looking a name up makes no array.
    static let blockTagNames: Set<UInt128> = Set(([
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
        "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
        "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu",
        "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ] as [String]).map { name in
        Array(name.utf8).withUnsafeBufferPointer { packedName($0, from: 0, to: $0.count) }
    })

    /// The bytes `b[start..<end]` (at most 16), lower-cased, as the bytes of an integer.
    static func packedName(_ b: Bytes, from start: Int, to end: Int) -> UInt128 {
        var packed: UInt128 = 0
        for k in start..<min(end, start + 16) { packed |= UInt128(asciiLower(b[k])) << (8 * (k - start)) }
        return packed
    }

    static let type1TagNames: [StaticString] = ["script", "pre", "style", "textarea"]

    /// The HTML block type (1...7) that this line starts, or nil. Type 7 is reported only when
    /// `allowType7` (it cannot interrupt a paragraph).
    public static func htmlBlockStart(_ b: Bytes, _ start: Int, _ end: Int, allowType7: Bool) -> Int? {
        guard end - start >= 2, b[start] == UInt8(ascii: "<") else { return nil }
        let s = start + 1
        // Type 1: <script, <pre, <style, <textarea followed by space, tab, > or end of line.
        for name in type1TagNames where ByteSearch.hasPrefix(b, from: s, to: end, name, ignoringCase: true) {
            let after = s + name.utf8CodeUnitCount
            if after == end || isSpaceOrTab(b[after]) || b[after] == UInt8(ascii: ">") { return 1 }
        }
        if ByteSearch.hasPrefix(b, from: s, to: end, "!--", ignoringCase: false) { return 2 }
        if b[s] == UInt8(ascii: "?") { return 3 }
        if ByteSearch.hasPrefix(b, from: s, to: end, "![CDATA[", ignoringCase: false) { return 5 }
        if b[s] == UInt8(ascii: "!"), s + 1 < end, isASCIILetter(b[s + 1]) { return 4 }
        // Type 6: a block tag name, open or closing.
        var i = s
        if b[i] == UInt8(ascii: "/") { i += 1 }
        let nameStart = i
        while i < end, isASCIILetter(b[i]) || isASCIIDigit(b[i]) { i += 1 }
        if i > nameStart, i - nameStart <= 10 {
            if blockTagNames.contains(packedName(b, from: nameStart, to: i)) {
                if i == end || isSpaceOrTab(b[i]) || b[i] == UInt8(ascii: ">") { return 6 }
                if b[i] == UInt8(ascii: "/"), i + 1 < end, b[i + 1] == UInt8(ascii: ">") { return 6 }
            }
        }
        if allowType7 {
            let n = HTMLTagScanner.openTag(b, start, end) ?? HTMLTagScanner.closingTag(b, start, end)
            if let n, isBlank(b, start + n, end) {
                return 7
            }
        }
        return nil
    }

    /// True when the line satisfies the end condition of an HTML block of type 1...5.
    public static func htmlBlockEnds(type: Int, _ b: Bytes, _ start: Int, _ end: Int) -> Bool {
        switch type {
        case 1:
            var i = start
            while i + 1 < end {
                if b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "/") {
                    for name in type1TagNames where ByteSearch.hasPrefix(b, from: i + 2, to: end, name, ignoringCase: true) {
                        let after = i + 2 + name.utf8CodeUnitCount
                        if after < end, b[after] == UInt8(ascii: ">") { return true }
                    }
                }
                i += 1
            }
            return false
        case 2: return contains(b, start, end, "-->")
        case 3: return contains(b, start, end, "?>")
        case 4: return contains(b, start, end, ">")
        case 5: return contains(b, start, end, "]]>")
        default: return false
        }
    }

    static func contains(_ b: Bytes, _ start: Int, _ end: Int, _ needle: StaticString) -> Bool {
        var i = start
        while i < end {
            if ByteSearch.hasPrefix(b, from: i, to: end, needle, ignoringCase: false) { return true }
            i += 1
        }
        return false
    }
}

/// Scanners for HTML open and closing tags (CommonMark "raw HTML"), shared by the block pass
/// (HTML block type 7) and the editing features' reading of a line. They never read past `end`.
public enum HTMLTagScanner {
    public typealias Bytes = UnsafeBufferPointer<UInt8>

    @inline(__always) static func isTagNameChar(_ c: UInt8) -> Bool {
        isASCIILetter(c) || isASCIIDigit(c) || c == UInt8(ascii: "-")
    }

    @inline(__always) static func isHTMLWhitespace(_ c: UInt8) -> Bool {
        c == byteSpace || c == byteTab || c == byteNewline || c == byteReturn || c == 0x0C
    }

    /// `<name attr…>` or `<name attr… />`. Returns the length including `<` and `>`.
    public static func openTag(_ b: Bytes, _ start: Int, _ end: Int) -> Int? {
        var i = start
        guard i < end, b[i] == UInt8(ascii: "<") else { return nil }
        i += 1
        guard i < end, isASCIILetter(b[i]) else { return nil }
        while i < end, isTagNameChar(b[i]) { i += 1 }
        // Attributes.
        while true {
            var j = i
            while j < end, isHTMLWhitespace(b[j]) { j += 1 }
            let hadSpace = j > i
            guard j < end else { return nil }
            let c = b[j]
            if c == UInt8(ascii: ">") { return j + 1 - start }
            if c == UInt8(ascii: "/") {
                if j + 1 < end, b[j + 1] == UInt8(ascii: ">") { return j + 2 - start }
                return nil
            }
            guard hadSpace, isASCIILetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { return nil }
            j += 1
            while j < end, isASCIILetter(b[j]) || isASCIIDigit(b[j]) || b[j] == UInt8(ascii: "_")
                || b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: ":") || b[j] == UInt8(ascii: "-") { j += 1 }
            i = j
            // Optional value specification.
            var k = j
            while k < end, isHTMLWhitespace(b[k]) { k += 1 }
            if k < end, b[k] == UInt8(ascii: "=") {
                k += 1
                while k < end, isHTMLWhitespace(b[k]) { k += 1 }
                guard k < end else { return nil }
                let q = b[k]
                if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                    k += 1
                    while k < end, b[k] != q { k += 1 }
                    guard k < end else { return nil }
                    i = k + 1
                } else {
                    let valueStart = k
                    while k < end {
                        let v = b[k]
                        if isHTMLWhitespace(v) || v == UInt8(ascii: "\"") || v == UInt8(ascii: "'") || v == UInt8(ascii: "=")
                            || v == UInt8(ascii: "<") || v == UInt8(ascii: ">") || v == UInt8(ascii: "`") { break }
                        k += 1
                    }
                    guard k > valueStart else { return nil }
                    i = k
                }
            }
        }
    }

    /// `</name>` with optional whitespace before `>`. Returns the length.
    public static func closingTag(_ b: Bytes, _ start: Int, _ end: Int) -> Int? {
        var i = start
        guard i + 2 < end, b[i] == UInt8(ascii: "<"), b[i + 1] == UInt8(ascii: "/"), isASCIILetter(b[i + 2]) else { return nil }
        i += 3
        while i < end, isTagNameChar(b[i]) { i += 1 }
        while i < end, isHTMLWhitespace(b[i]) { i += 1 }
        guard i < end, b[i] == UInt8(ascii: ">") else { return nil }
        return i + 1 - start
    }
}
