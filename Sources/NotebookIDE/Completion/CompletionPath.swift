// Path arithmetic for completion: folders, normalisation, relative paths and percent coding.
// Paths are workspace-relative with `/`; nothing here touches the disk or traps on any input.

/// Small path helpers shared by the workspace index and the engine.
enum CompletionPath {
    /// The folder of `path` (`a/b` for `a/b/c.md`), empty at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func name(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The last extension of the file name, lowercased, without `.`; nil when there is none.
    static func lowercasedExtension(_ path: String) -> String? {
        let name = name(of: path)
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return nil }
        let ext = String(name[name.utf8.index(after: dot)...]).lowercased()
        return ext.isEmpty ? nil : ext
    }

    /// `path` without its last extension when that is one of `extensions` (lowercased).
    static func removingExtension(_ path: String, _ extensions: [String]) -> String {
        guard let ext = lowercasedExtension(path), extensions.contains(ext) else { return path }
        return String(path.utf8.dropLast(ext.utf8.count + 1)) ?? path
    }

    /// `path` with empty and `.` segments dropped and `..` applied; nil when `..` climbs above
    /// the root.
    static func normalized(_ path: String) -> String? {
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

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "tif", "tiff", "avif", "heic", "ico"]

    static func isImage(_ path: String) -> Bool {
        guard let ext = lowercasedExtension(path) else { return false }
        return imageExtensions.contains(ext)
    }

    /// `%XX` escapes decoded; the text unchanged when the result would not be UTF-8.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return String(validating: result, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A path component as a Markdown destination writes it: spaces and the bytes that would end
    /// or split the destination (`(`, `)`, `<`, `>`, `#`, `%`) percent-encoded; other bytes,
    /// non-ASCII included, as they are.
    static func percentEncoded(_ text: String) -> String {
        let needs: (UInt8) -> Bool = {
            $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: "<")
                || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
        }
        guard text.utf8.contains(where: needs) else { return text }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
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

    /// The number of leading folders `a` and `b` share (`x/y` and `x/z`: 1).
    static func commonFolders(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var common = 0
        let count = min(a.count, b.count)
        while index < count, a[index] == b[index] {
            if a[index] == UInt8(ascii: "/") { common += 1 }
            index += 1
        }
        // A whole folder matched when both end there or continue with `/`.
        let aEnds = index == a.count || a[index] == UInt8(ascii: "/")
        let bEnds = index == b.count || b[index] == UInt8(ascii: "/")
        if index > 0 && aEnds && bEnds && index == count { common += 1 }
        return common
    }
}
