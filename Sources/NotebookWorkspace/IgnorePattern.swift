// One gitignore pattern, parsed from a line, and its matcher over byte paths.
//
// Invariants: matching never recurses and never backtracks exponentially. A pattern is split into
// `/`-separated segments; `**` segments match any number of whole path components and other
// segments match exactly one component. Both levels use the classic "remember the last star"
// wildcard algorithm, which is correct because a star (or `**`) matches any sequence, so the cost
// is at most O(segments × components) segment matches, each O(pattern × name) bytes.
// Matching is case-sensitive, as git is on Linux. POSIX classes such as `[[:alpha:]]` are not
// supported: `[` starts a plain bracket expression.

/// A parsed gitignore pattern (one line of a `.gitignore` or one configured glob).
public struct IgnorePattern: Sendable, Equatable {
    /// The folder the pattern applies to and below, relative to the scan root, without a trailing
    /// `/` (empty for the root).
    public var base: [UInt8]
    /// `!pattern`: a match re-includes the path.
    public var isNegated: Bool
    /// `pattern/`: matches folders only.
    public var isDirectoryOnly: Bool
    /// True when the pattern contains a `/` before its end: it matches the path relative to
    /// `base`; otherwise it matches the last component at any depth.
    public var isAnchored: Bool
    /// The `/`-separated segments, escapes kept (the matcher reads `\x` as a literal `x`).
    public var segments: [[UInt8]]

    /// Parses one line, or returns nil for a blank line or a comment.
    public init?(line: some Collection<UInt8>, base: [UInt8] = []) {
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // Trailing spaces are ignored unless escaped with a backslash.
        while bytes.last == UInt8(ascii: " ") {
            let count = bytes.count
            var backslashes = 0
            var k = count - 2
            while k >= 0, bytes[k] == UInt8(ascii: "\\") { backslashes += 1; k -= 1 }
            if backslashes % 2 == 1 { break }
            bytes.removeLast()
        }
        guard let first = bytes.first, first != UInt8(ascii: "#") else { return nil }
        var negated = false
        if first == UInt8(ascii: "!") {
            negated = true
            bytes.removeFirst()
        }
        var directoryOnly = false
        while bytes.last == UInt8(ascii: "/") {
            directoryOnly = true
            bytes.removeLast()
        }
        guard !bytes.isEmpty else { return nil }
        let anchored = bytes.contains(UInt8(ascii: "/"))
        var segments: [[UInt8]] = []
        if anchored {
            for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
                segments.append(Array(part))
            }
            // "a/**" matches everything inside "a" but not "a" itself: at least one component.
            if segments.count > 1, segments.last == IgnorePattern.doubleStar {
                segments.insert([UInt8(ascii: "*")], at: segments.count - 1)
            }
        } else {
            segments = [bytes]
        }
        guard !segments.isEmpty else { return nil }
        var trimmedBase = base
        while trimmedBase.last == UInt8(ascii: "/") { trimmedBase.removeLast() }
        self.base = trimmedBase
        self.isNegated = negated
        self.isDirectoryOnly = directoryOnly
        self.isAnchored = anchored
        self.segments = segments
    }

    /// Parses a configured glob such as `drafts/**` or `!keep.md` that applies from the root.
    public init?(glob: String) {
        self.init(line: Array(glob.utf8), base: [])
    }

    static let doubleStar: [UInt8] = [UInt8(ascii: "*"), UInt8(ascii: "*")]

    /// Whether the pattern matches `path` (relative to the scan root, `/`-separated, no leading or
    /// trailing `/`), ignoring negation. A path outside `base` never matches.
    public func matches(path bytes: [UInt8], isDirectory: Bool) -> Bool {
        if isDirectoryOnly && !isDirectory { return false }
        var start = 0
        if !base.isEmpty {
            guard bytes.count > base.count, bytes[base.count] == UInt8(ascii: "/"),
                  bytes[0..<base.count].elementsEqual(base) else { return false }
            start = base.count + 1
        }
        let relative = bytes[start...]
        if !isAnchored {
            let lastSlash = relative.lastIndex(of: UInt8(ascii: "/"))
            let name = lastSlash.map { relative[($0 + 1)...] } ?? relative
            return IgnorePattern.matchSegment(segments[0], name)
        }
        let components = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        return IgnorePattern.matchComponents(segments, components)
    }

    /// Matches segments against components; `**` matches zero or more components.
    static func matchComponents(_ segments: [[UInt8]], _ components: [ArraySlice<UInt8>]) -> Bool {
        var p = 0, c = 0
        var starP = -1, starC = 0
        while c < components.count {
            if p < segments.count, segments[p] == doubleStar {
                starP = p
                starC = c
                p += 1
            } else if p < segments.count, matchSegment(segments[p], components[c]) {
                p += 1
                c += 1
            } else if starP >= 0 {
                starC += 1
                c = starC
                p = starP + 1
            } else {
                return false
            }
        }
        while p < segments.count, segments[p] == doubleStar { p += 1 }
        return p == segments.count
    }

    /// Matches one segment (`*`, `?`, `[...]`, `\x`) against one component name.
    static func matchSegment(_ pattern: [UInt8], _ name: ArraySlice<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        var p = 0
        var s = name.startIndex
        var starP = -1
        var starS = s
        while s < name.endIndex {
            if p < pattern.count, pattern[p] == star {
                while p < pattern.count, pattern[p] == star { p += 1 }
                starP = p
                starS = s
                continue
            }
            if p < pattern.count, let length = matchOne(pattern, p, name[s]) {
                p += length
                s += 1
            } else if starP >= 0 {
                starS += 1
                s = starS
                p = starP
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// Matches the pattern element at `p` (not `*`) against one byte; returns the element's
    /// length in the pattern, or nil when it does not match.
    static func matchOne(_ pattern: [UInt8], _ p: Int, _ byte: UInt8) -> Int? {
        let c = pattern[p]
        switch c {
        case UInt8(ascii: "?"):
            return byte == UInt8(ascii: "/") ? nil : 1
        case UInt8(ascii: "\\"):
            if p + 1 < pattern.count { return pattern[p + 1] == byte ? 2 : nil }
            return byte == c ? 1 : nil
        case UInt8(ascii: "["):
            guard let (matched, length) = matchBracket(pattern, p, byte) else {
                return byte == c ? 1 : nil  // No closing `]`: a literal `[`.
            }
            return matched ? length : nil
        default:
            return byte == c ? 1 : nil
        }
    }

    /// A bracket expression at `p`: whether `byte` is in it, and its length; nil if unclosed.
    static func matchBracket(_ pattern: [UInt8], _ start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var i = start + 1
        var negate = false
        if i < pattern.count, pattern[i] == UInt8(ascii: "!") || pattern[i] == UInt8(ascii: "^") {
            negate = true
            i += 1
        }
        var matched = false
        var first = true
        while i < pattern.count {
            var low = pattern[i]
            if low == UInt8(ascii: "]") && !first {
                return (matched != negate && byte != UInt8(ascii: "/"), i + 1 - start)
            }
            first = false
            if low == UInt8(ascii: "\\"), i + 1 < pattern.count {
                i += 1
                low = pattern[i]
            }
            var high = low
            if i + 2 < pattern.count, pattern[i + 1] == UInt8(ascii: "-"), pattern[i + 2] != UInt8(ascii: "]") {
                i += 2
                high = pattern[i]
                if high == UInt8(ascii: "\\"), i + 1 < pattern.count {
                    i += 1
                    high = pattern[i]
                }
            }
            if low <= byte && byte <= high { matched = true }
            i += 1
        }
        return nil
    }
}
