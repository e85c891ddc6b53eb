// Which embeds are pictures. An embed of an image (`![[photo.png]]`) is an image, like
// `![alt](photo.png)`: it may sit in a link's text. Any other wiki-link or embed is a link, and
// links do not contain links. The parser (which link openers a wiki-link deactivates) and the
// renderer (`<img>` or `<a>`) decide it with these same functions.

extension WikiLinkInfo {
    /// Extensions (lowercased) of the files an embed shows as a picture.
    public static let imageExtensions: [String] = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif"]
    /// Extensions (lowercased) of the files an embed plays as sound (`<audio>`), as Obsidian does.
    public static let audioExtensions: [String] = ["mp3", "wav", "m4a", "ogg", "oga", "opus", "flac", "aac", "3gp"]
    /// Extensions (lowercased) of the files an embed plays as a film (`<video>`).
    public static let videoExtensions: [String] = ["mp4", "webm", "ogv", "mov", "m4v", "mkv"]

    /// Obsidian's size of an embedded picture, written where its label or alt text ends:
    /// `300` (the width) or `300x200` (width and height), in CSS pixels. `bytes` is the whole
    /// label; the result says how many bytes of it remain for the alt text (`alt|300`: 3; a
    /// label that is only a size: 0, and then no `|` is needed). Nil when the label ends in no
    /// size, or a number is 0 or longer than five digits.
    public static func pictureSize<Bytes: BidirectionalCollection>(in bytes: Bytes, requiringPipe: Bool)
        -> (width: Int, height: Int?, altLength: Int)? where Bytes.Element == UInt8, Bytes.Index == Int {
        var numbers: [Int] = []
        var digits = 0
        var value = 0
        var index = bytes.endIndex
        func closeNumber() -> Bool {
            guard digits > 0, digits <= 5, value > 0 else { return false }
            numbers.insert(value, at: 0)
            digits = 0
            value = 0
            return true
        }
        var scale = 1
        while index > bytes.startIndex {
            let byte = bytes[bytes.index(before: index)]
            if byte &- UInt8(ascii: "0") < 10 {
                guard digits < 5 else { return nil }
                value += Int(byte &- UInt8(ascii: "0")) * scale
                scale *= 10
                digits += 1
            } else if byte == UInt8(ascii: "x"), numbers.isEmpty {
                guard closeNumber() else { return nil }
                scale = 1
            } else {
                break
            }
            index = bytes.index(before: index)
        }
        guard closeNumber() else { return nil }
        var altEnd = index
        if index > bytes.startIndex, bytes[bytes.index(before: index)] == UInt8(ascii: "|") {
            altEnd = bytes.index(before: index)
        } else if requiringPipe || index > bytes.startIndex {
            return nil
        }
        return (numbers[0], numbers.count > 1 ? numbers[1] : nil, altEnd - bytes.startIndex)
    }

    /// The lowercased extension of the last path component of `path`, if it has one (at most
    /// five ASCII bytes, no space).
    public static func fileExtension<Bytes: BidirectionalCollection>(of path: Bytes) -> String?
    where Bytes.Element == UInt8 {
        guard let dot = path.lastIndex(of: 0x2E) else { return nil }
        if let slash = path.lastIndex(of: 0x2F), slash > dot { return nil }
        let ext = path[path.index(after: dot)...]
        guard !ext.isEmpty, ext.count <= 5, ext.allSatisfy({ $0 < 0x80 && $0 != 0x20 }) else { return nil }
        return String(decoding: ext, as: UTF8.self).lowercased()
    }

    /// True for an embed whose target (`target`, its bytes) names an image file: it renders as
    /// a picture, not as a link.
    public static func isImageEmbed<Bytes: BidirectionalCollection>(isEmbed: Bool, target: Bytes) -> Bool
    where Bytes.Element == UInt8 {
        guard isEmbed, let ext = fileExtension(of: target) else { return false }
        return imageExtensions.contains(ext)
    }
}
