// Front matter read as a small YAML subset: `key: value` lines with plain or quoted scalars,
// flow lists `[a, b]` and block lists (`- a` lines under a key). Anything deeper (nested
// mappings, multi-line strings) is kept as raw text. A line that fits none of these is a
// `malformedFrontMatter` problem with its source range; reading never fails.

import Localization
import TextCore

/// The parsed front matter of a note.
public struct FrontMatter: Sendable, Equatable {
    /// A value: one scalar, a list of scalars, or raw text for structure we do not model.
    public enum Value: Sendable, Equatable {
        case scalar(String)
        case list([String])
        case raw(String)

        /// The scalar, or the items of a list, as a list.
        public var items: [String] {
            switch self {
            case .scalar(let s): return s.isEmpty ? [] : [s]
            case .list(let l): return l
            case .raw: return []
            }
        }

        /// The scalar's text; nil for lists and raw values.
        public var scalar: String? {
            if case .scalar(let s) = self { return s }
            return nil
        }
    }

    /// One `key: value` entry. Ranges are source bytes.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: Value
        public var keyRange: ByteSpan
        /// The whole value (for a block list: from the first item to the last).
        public var valueRange: ByteSpan
        /// Each list item's text range (empty for scalars).
        public var itemRanges: [ByteSpan]
    }

    public var entries: [Entry]
    /// Source range of the whole block, fences included.
    public var range: ByteSpan

    /// The first entry with this key (keys compare exactly).
    public subscript(key: String) -> Value? {
        entries.first(where: { $0.key == key })?.value
    }

    /// `title`, when it is a non-empty scalar.
    public var title: String? {
        guard let t = self["title"]?.scalar, !t.isEmpty else { return nil }
        return t
    }
}

/// Reads the YAML subset of `FrontMatter`.
public enum FrontMatterParser {
    /// Parses the tree's `frontMatter` node, if there is one; problems are appended to `problems`.
    public static func parse(_ tree: SyntaxTree, problems: inout [SyntaxProblem]) -> FrontMatter? {
        // The block parser makes front matter the document's first child, when there is any.
        let first = tree[SyntaxTree.root].firstChild
        guard first != .none, Int(first) < tree.nodes.count, tree[first].kind == .frontMatter else { return nil }
        let node = first
        let n = tree[node]
        let content = tree.content
        var entries: [FrontMatter.Entry] = []
        var seenKeys: Set<String> = []

        // Split the content into lines (content lines end with "\n").
        var lines: [(start: Int, end: Int)] = []
        lines.reserveCapacity(16)
        var p = max(0, Int(n.contentStart))
        let end = min(content.count, Int(n.contentEnd))
        content.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while p < end {
                let e = ByteSearch.firstIndex(of: byteNewline, in: base, from: p, end: end)
                lines.append((p, e))
                p = e + 1
            }
        }
        func text(_ s: Int, _ e: Int) -> String { String(decoding: content[s..<max(s, e)], as: UTF8.self) }
        var cursor = ContentSourceCursor(tree)
        func source(_ s: Int, _ e: Int) -> ByteSpan {
            let r = cursor.sourceRange(forContent: ByteSpan(s, e))
            return ByteSpan(r.lowerBound, r.upperBound)
        }
        func problem(_ message: LocalizedText, _ s: Int, _ e: Int) {
            problems.append(SyntaxProblem(code: .malformedFrontMatter, message: message, range: source(s, max(e, s + 1))))
        }
        func isBlankOrComment(_ line: (start: Int, end: Int)) -> Bool {
            var i = line.start
            while i < line.end && isSpaceOrTab(content[i]) { i += 1 }
            return i == line.end || content[i] == UInt8(ascii: "#")
        }
        func indentation(_ line: (start: Int, end: Int)) -> Int {
            var i = line.start
            while i < line.end && content[i] == byteSpace { i += 1 }
            return i - line.start
        }

        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            if isBlankOrComment(line) { continue }
            if indentation(line) > 0 || content[line.start] == byteTab {
                problem(LocalizedText("frontMatter.unexpectedIndent"), line.start, line.end)
                continue
            }
            // key: value
            var colon = line.start
            var quote: UInt8 = 0
            while colon < line.end {
                let c = content[colon]
                if quote != 0 { if c == quote { quote = 0 } }
                else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c }
                else if c == UInt8(ascii: ":"), colon + 1 == line.end || isSpaceOrTab(content[colon + 1]) { break }
                colon += 1
            }
            guard colon < line.end, colon > line.start else {
                if content[line.start] == UInt8(ascii: "-") {
                    problem(LocalizedText("frontMatter.listItemWithoutKey"), line.start, line.end)
                } else {
                    problem(LocalizedText("frontMatter.expectedKeyValue", .string(String(text(line.start, line.end).prefix(40)))), line.start, line.end)
                }
                continue
            }
            var keyEnd = colon
            while keyEnd > line.start && isSpaceOrTab(content[keyEnd - 1]) { keyEnd -= 1 }
            // A quoted key loses its quotes (checked on bytes: both are ASCII).
            let opening = content[line.start]
            let quoted = keyEnd - line.start >= 2 && (opening == UInt8(ascii: "\"") || opening == UInt8(ascii: "'"))
                && content[keyEnd - 1] == opening
            let key = quoted ? text(line.start + 1, keyEnd - 1) : text(line.start, keyEnd)
            var valueStart = colon + 1
            while valueStart < line.end && isSpaceOrTab(content[valueStart]) { valueStart += 1 }
            var valueEnd = line.end
            while valueEnd > valueStart && isSpaceOrTab(content[valueEnd - 1]) { valueEnd -= 1 }
            // A scan of the few entries before; past 16, a set: a scan made 128,000 keys cost 8
            // billion comparisons, a set for every note's three keys cost more than them.
            let repeated: Bool
            if entries.count < 16 {
                repeated = entries.contains { $0.key == key }
            } else {
                if seenKeys.isEmpty { seenKeys = Set(entries.map(\.key)) }
                repeated = !seenKeys.insert(key).inserted
            }
            if repeated {
                problem(LocalizedText("frontMatter.duplicateKey", .string(key)), line.start, keyEnd)
            }
            let keyRange = source(line.start, keyEnd)

            if valueStart == valueEnd || content[valueStart] == UInt8(ascii: "#") {
                // Block list, nested structure, or empty.
                var items: [String] = []
                var itemRanges: [ByteSpan] = []
                var rawStart = -1, rawEnd = -1
                var isList = true
                while index < lines.count {
                    let next = lines[index]
                    if isBlankOrComment(next) { index += 1; continue }
                    let ind = indentation(next)
                    let first = next.start + ind
                    let isItem = first < next.end && content[first] == UInt8(ascii: "-")
                        && (first + 1 == next.end || isSpaceOrTab(content[first + 1]))
                    if ind == 0 && !isItem { break }
                    if rawStart < 0 { rawStart = next.start }
                    rawEnd = next.end
                    if isItem && isList {
                        var s = first + 1
                        while s < next.end && isSpaceOrTab(content[s]) { s += 1 }
                        let (value, ok) = scalar(content, s, next.end)
                        if !ok { problem(LocalizedText("frontMatter.unclosedQuoteInListItem"), s, next.end) }
                        items.append(value)
                        itemRanges.append(source(s, trimmedEnd(content, s, next.end)))
                    } else {
                        isList = false
                    }
                    index += 1
                }
                if rawStart < 0 {
                    entries.append(.init(key: key, value: .scalar(""), keyRange: keyRange,
                                         valueRange: source(valueStart, valueStart), itemRanges: []))
                } else if isList {
                    entries.append(.init(key: key, value: .list(items), keyRange: keyRange,
                                         valueRange: source(rawStart, rawEnd), itemRanges: itemRanges))
                } else {
                    entries.append(.init(key: key, value: .raw(text(rawStart, rawEnd)), keyRange: keyRange,
                                         valueRange: source(rawStart, rawEnd), itemRanges: []))
                }
            } else if content[valueStart] == UInt8(ascii: "[") {
                // Flow list.
                guard let close = lastIndex(of: UInt8(ascii: "]"), content, valueStart, valueEnd) else {
                    problem(LocalizedText("frontMatter.unclosedList", .string(key)), valueStart, valueEnd)
                    entries.append(.init(key: key, value: .raw(text(valueStart, valueEnd)), keyRange: keyRange,
                                         valueRange: source(valueStart, valueEnd), itemRanges: []))
                    continue
                }
                var items: [String] = []
                var itemRanges: [ByteSpan] = []
                var s = valueStart + 1
                while s < close {
                    while s < close && isSpaceOrTab(content[s]) { s += 1 }
                    var e = s
                    var q: UInt8 = 0
                    while e < close {
                        let c = content[e]
                        if q != 0 { if c == q { q = 0 } } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { q = c }
                        else if c == UInt8(ascii: ",") { break }
                        e += 1
                    }
                    let te = trimmedEnd(content, s, e)
                    if te > s {
                        let (value, ok) = scalar(content, s, te)
                        if !ok { problem(LocalizedText("frontMatter.unclosedQuote", .string(key)), s, te) }
                        items.append(value)
                        itemRanges.append(source(s, te))
                    }
                    s = e + 1
                }
                entries.append(.init(key: key, value: .list(items), keyRange: keyRange,
                                     valueRange: source(valueStart, close + 1), itemRanges: itemRanges))
            } else if content[valueStart] == UInt8(ascii: "|") || content[valueStart] == UInt8(ascii: ">")
                        || content[valueStart] == UInt8(ascii: "{") {
                // Block scalars and flow mappings: kept raw, with their indented continuation lines.
                var rawEnd = valueEnd
                while index < lines.count, isBlankOrComment(lines[index]) || indentation(lines[index]) > 0 {
                    rawEnd = max(rawEnd, lines[index].end)
                    index += 1
                }
                entries.append(.init(key: key, value: .raw(text(valueStart, rawEnd)), keyRange: keyRange,
                                     valueRange: source(valueStart, rawEnd), itemRanges: []))
            } else {
                let (value, ok) = scalar(content, valueStart, valueEnd)
                if !ok { problem(LocalizedText("frontMatter.unclosedQuote", .string(key)), valueStart, valueEnd) }
                entries.append(.init(key: key, value: .scalar(value), keyRange: keyRange,
                                     valueRange: source(valueStart, trimmedEnd(content, valueStart, valueEnd)), itemRanges: []))
            }
        }
        return FrontMatter(entries: entries, range: ByteSpan(n.sourceStart, n.sourceEnd))
    }

    private static func trimmedEnd(_ b: [UInt8], _ s: Int, _ e: Int) -> Int {
        var e = e
        while e > s && isSpaceOrTab(b[e - 1]) { e -= 1 }
        return e
    }

    private static func lastIndex(of c: UInt8, _ b: [UInt8], _ s: Int, _ e: Int) -> Int? {
        var i = e
        while i > s {
            i -= 1
            if b[i] == c { return i }
        }
        return nil
    }

    /// A plain or quoted scalar in `b[s..<e]`. Returns the value and whether quotes were closed.
    static func scalar(_ b: [UInt8], _ s: Int, _ e: Int) -> (String, Bool) {
        guard s < e else { return ("", true) }
        let q = b[s]
        if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
            var out: [UInt8] = []
            var i = s + 1
            while i < e {
                let c = b[i]
                if c == q {
                    if q == UInt8(ascii: "'"), i + 1 < e, b[i + 1] == q { out.append(q); i += 2; continue }
                    return (String(decoding: out, as: UTF8.self), true)
                }
                if q == UInt8(ascii: "\""), c == UInt8(ascii: "\\"), i + 1 < e {
                    let n = b[i + 1]
                    switch n {
                    case UInt8(ascii: "n"): out.append(byteNewline)
                    case UInt8(ascii: "t"): out.append(byteTab)
                    default: out.append(n)
                    }
                    i += 2
                    continue
                }
                out.append(c)
                i += 1
            }
            return (String(decoding: out, as: UTF8.self), false)
        }
        // Plain scalar: a ` #` starts a comment.
        var end = e
        var i = s
        while i < e {
            if b[i] == UInt8(ascii: "#"), i > s, isSpaceOrTab(b[i - 1]) { end = i; break }
            i += 1
        }
        end = trimmedEnd(b, s, end)
        return (String(decoding: b[s..<end], as: UTF8.self), true)
    }
}
