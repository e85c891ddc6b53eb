// Which embeds are pictures. An embed of an image (`![[photo.png]]`) is an image, like
// `![alt](photo.png)`: it may sit in a link's text. Any other wiki-link or embed is a link, and
// links do not contain links. The parser (which link openers a wiki-link deactivates) and the
// renderer (`<img>` or `<a>`) decide it with these same functions.

extension WikiLinkInfo {
    /// Extensions (lowercased) of the files an embed shows as a picture.
    public static let imageExtensions: [String] = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif"]

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
