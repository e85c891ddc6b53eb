// Paths and link destinations as the notebook writes them: workspace-relative, `/`-separated,
// percent-encoded in Markdown destinations. Pure functions on strings, working on UTF-8 bytes.
//
// Invariants: nothing here traps on any input (bad escapes stay as written, `..` above the root is
// nil, not an error); no IO.

/// The notebook's path rules, one function each.
public enum NotebookPath {
    /// True for `scheme:…` (two or more characters: letter, then letters, digits, `+`, `-`, `.`)
    /// and for `//host/…`.
    public static func isExternal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isExternal($0) }
    }

    /// `isExternal` of UTF-8 bytes.
    static func isExternal(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.count >= 2 && utf8[0] == UInt8(ascii: "/") && utf8[1] == UInt8(ascii: "/") { return true }
        var count = 0
        for byte in utf8 {
            let isLetter = (byte | 0x20) &- 0x61 < 26
            if byte == UInt8(ascii: ":") { return count >= 2 }
            if count == 0 ? !isLetter
                : !(isLetter || byte &- 0x30 < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")) {
                return false
            }
            count += 1
        }
        return false
    }

    /// A path as a Markdown link destination writes it: spaces, control bytes and the bytes that
    /// would end or split the destination (`(`, `)`, `<`, `>`, `#`, `%`) percent-encoded; other
    /// bytes, non-ASCII included, as they are. `percentDecoded` reads it back.
    public static func markdownDestination(_ text: String) -> String {
        let needs: (UInt8) -> Bool = {
            $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: "<")
                || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
        }
        return percentEncoded(text, where: needs)
    }

    /// `text` with the bytes `needs` picks written `%XX` (upper-case hex), the others as they are.
    public static func percentEncoded(_ text: String, where needs: (UInt8) -> Bool) -> String {
        guard text.utf8.contains(where: needs) else { return text }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if needs(byte) {
                result.append(UInt8(ascii: "%"))
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `%XX` escapes decoded; the text unchanged when it has none or they do not make UTF-8.
    public static func percentDecoded(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.contains(UInt8(ascii: "%")) else { return nil }
            // Decoding only shortens the text.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out -> String? in
                var length = 0
                var index = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                       let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                        out[length] = high << 4 | low
                        index += 3
                    } else {
                        out[length] = byte
                        index += 1
                    }
                    length += 1
                }
                return String(validating: UnsafeBufferPointer(rebasing: out[0..<length]), as: UTF8.self)
            }
        } ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `path` with empty and `.` segments dropped and `..` applied; nil when `..` climbs above
    /// the root.
    public static func normalized(_ path: String) -> String? {
        // Most paths are already normal: no empty, `.` or `..` segment. Check that on bytes.
        if path.isEmpty { return path }
        var length = 0
        var dots = 0
        var clean = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) {
                    clean = false
                    break
                }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if clean && length > 0 && !(dots == length && length <= 2) { return path }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if segments.popLast() == nil { return nil }
                continue
            }
            segments.append(segment)
        }
        return segments.joined(separator: "/")
    }

    /// The folder of `path` (`a/b` for `a/b/c.md`), empty at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The candidates a link by short name (`[[Name]]`, `![[photo.png]]`) written in a note in
    /// `sourceFolder` reaches, in their order, as Obsidian picks them: those in the linking
    /// note's own folder, else those with the shortest path (counted in UTF-16 units, as
    /// Obsidian measures it). One path is a match; several are ambiguous.
    public static func preferred(_ candidates: [String], from sourceFolder: String) -> [String] {
        guard candidates.count > 1 else { return candidates }
        let local = candidates.filter { folder(of: $0) == sourceFolder }
        if !local.isEmpty { return local }
        let lengths = candidates.map { $0.utf16.count }
        let least = lengths.min() ?? 0
        return zip(candidates, lengths).filter { $0.1 == least }.map(\.0)
    }

    /// A heading's text (or a link's heading part) as Obsidian compares them: ASCII punctuation
    /// and blanks are separators, runs of separators one space, none at either end, and case
    /// ignored (`How large can it be?` and `how large can it be`, `` `move` `` and `move`, the
    /// slug `ph--lime` and `pH & lime` give the same key). Letters of other scripts, emoji and
    /// non-ASCII punctuation are kept as they are.
    public static func looseHeadingKey(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            let isWord = byte >= 0x80 || (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
            if !isWord {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).folded
    }

    /// True for the bytes that split a wiki-link's target (`#` heading, `^` block, `|` label) or
    /// end it (`[`, `]`).
    public static func isWikiDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "#") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "^")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }

    /// A note name or path as a wiki-link target writes it: as it is, unless it holds a byte that
    /// would split or end the link (`#`, `|`, `^`, `[`, `]`); then those bytes and `%` are
    /// percent-encoded (`C%23 notes` for `C# notes`), which the resolver decodes.
    public static func wikiTarget(_ name: String) -> String {
        guard name.utf8.contains(where: isWikiDelimiter) else { return name }
        return percentEncoded(name) { isWikiDelimiter($0) || $0 == UInt8(ascii: "%") }
    }

    public static func depth(of path: String) -> Int {
        path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
    }

    /// The last extension of the file name, without `.`; nil when there is none (a leading dot
    /// starts a hidden name, not an extension).
    public static func pathExtension(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes in
            guard let dot = extensionDot(bytes), dot + 1 < bytes.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), as: UTF8.self)
        }
    }

    /// The index of the `.` that starts the last extension of the file name in `bytes`.
    private static func extensionDot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count
        while index > 0 {
            index -= 1
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") { return nil }
            if byte == UInt8(ascii: ".") {
                // A dot that opens the name is a hidden name, not an extension.
                return index == 0 || bytes[index - 1] == UInt8(ascii: "/") ? nil : index
            }
        }
        return nil
    }

    /// `path` without its last extension when that is a note extension (any case).
    public static func removingExtension(_ path: String, _ extensions: [String]) -> String {
        var text = path
        return text.withUTF8 { bytes -> String? in
            guard let dot = noteExtensionDot(bytes, extensions) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<dot]), as: UTF8.self)
        } ?? path
    }

    /// Where the note extension of the UTF-8 path `bytes` starts (its dot), nil when it has
    /// none of `extensions` (folded).
    static func noteExtensionDot(_ bytes: UnsafeBufferPointer<UInt8>, _ extensions: [String]) -> Int? {
        guard let dot = extensionDot(bytes), dot + 1 < bytes.count else { return nil }
        let suffix = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
        // Note extensions are folded: compare an ASCII suffix ignoring ASCII case, any other
        // suffix folded.
        let isNote: Bool
        if suffix.allSatisfy({ $0 < 0x80 }) {
            isNote = extensions.contains { wanted in
                wanted.utf8.count == suffix.count
                    && zip(wanted.utf8, suffix).allSatisfy { $0 == ($1 &- 0x41 < 26 ? $1 | 0x20 : $1) }
            }
        } else {
            isNote = extensions.contains(String(decoding: suffix, as: UTF8.self).folded)
        }
        return isNote ? dot : nil
    }

    public static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        func blank(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard blank(utf8.first) || blank(utf8.last) else { return text }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, blank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, blank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(text[start..<end])
    }

    /// The file name without its folder and last extension: `soil tests` for `garden/soil tests.md`.
    public static func fileStem(of path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            // Cut at ASCII bytes only, so the slice is valid UTF-8 whenever the path is.
            String(decoding: UnsafeBufferPointer(rebasing: bytes[stemRange(of: bytes)]), as: UTF8.self)
        }
    }

    /// Where `fileStem(of:)` lies in a path's UTF-8 bytes: after the last `/` or `\`, up to the
    /// last `.` that does not open the name.
    static func stemRange(of bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var nameStart = 0
        var dot = -1
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") {
                nameStart = index + 1
                dot = -1
            } else if byte == UInt8(ascii: "."), index != nameStart {
                dot = index
            }
        }
        return nameStart..<(dot >= 0 ? dot : bytes.count)
    }

    /// `to` relative to the folder `from` (both workspace-relative), with `../` as needed.
    public static func relativePath(from folder: String, to path: String) -> String {
        let base = folder.split(separator: "/").map(String.init)
        let target = path.split(separator: "/").map(String.init)
        var common = 0
        while common < base.count, common < target.count - 1, base[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }
}
