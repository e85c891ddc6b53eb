// How a rendered page reaches the notebook's files when it is not shown from the note's own
// folder (a page written to a cache folder, an editor's webview): the page's relative URLs
// (Markdown links and images, wiki-links and embeds) rewritten to absolute ones under a URL
// that stands for the notebook's root, a `<base>` for the rest, and the list of local files a
// page shows (images and embeds), so a client can allow exactly those.
//
// Invariants:
// - Only a relative URL is rewritten: a fragment (`#fn-1`), a query (`?q`), a URL with a scheme
//   (`https:`, `file:`, `mailto:`) or a network path (`//host/x`) and the empty URL are written
//   as they are. `/x` is relative to the notebook's root, anything else to the note's folder;
//   `.` and `..` segments are resolved, and `..` past the root is kept after the root URL (the
//   browser resolves it there).
// - The renderer checks a URL for danger (safe mode) as it was written, before any rewriting:
//   a `file:` URL the author wrote stays inert, one this file makes from a relative URL is ours.
// - The root URL is written as the caller gave it (already a URL); the note's folder is
//   percent-encoded here (spaces, `%`, `#`, `?`, non-ASCII); the part the author wrote keeps its
//   own escapes, and the renderer's URL escaping (`HTMLWriter.href`) applies to all of it.
// - A resource path never climbs above the root: a URL that would is no resource.

import MarkdownSyntax

/// Where the relative URLs of a page lead: a URL standing for the notebook's root, and the
/// rendered note's folder in it.
public struct ResourceBase: Sendable, Equatable {
    /// The URL that stands for the notebook's root folder, as a URL (percent-encoded) ending in
    /// `/`: `file:///home/ann/My%20Notes/`, or what an editor's webview serves that folder as.
    public var rootURL: String
    /// The rendered note's folder from the root, `/`-separated, as on disk (not encoded); empty
    /// when the note is at the root.
    public var noteFolder: String
    /// Rewrite the page's relative URLs to absolute ones under `rootURL`; false leaves them as
    /// written (relative to the note), for a page shown from the note's folder or with a base.
    public var rewritesRelativeURLs: Bool
    /// Write `<base href="…">` (the note's folder under `rootURL`) in the head of a full page.
    /// It also moves in-page links (`#fn-1`, heading and tag links), which a browser then
    /// resolves against the base: a viewer of such a page handles those clicks itself.
    public var writesBaseElement: Bool

    public init(rootURL: String, noteFolder: String, rewritesRelativeURLs: Bool = true, writesBaseElement: Bool = false) {
        self.rootURL = rootURL.hasSuffix("/") ? rootURL : rootURL + "/"
        self.noteFolder = noteFolder
        self.rewritesRelativeURLs = rewritesRelativeURLs
        self.writesBaseElement = writesBaseElement
    }

    /// The URL of the note's folder (ends in `/`): what `<base href>` holds.
    public var noteFolderURL: String {
        var url = Array(rootURL.utf8)
        for segment in noteFolder.utf8.split(separator: UInt8(ascii: "/")) {
            ResourceBase.appendEncoded(segment, to: &url)
            url.append(UInt8(ascii: "/"))
        }
        return String(decoding: url, as: UTF8.self)
    }

    /// True for a URL this base rewrites: not empty, and not a fragment, a query, a network path
    /// or a URL with a scheme.
    public static func isRelative(_ url: ArraySlice<UInt8>) -> Bool {
        guard let first = url.first else { return false }
        if first == UInt8(ascii: "#") || first == UInt8(ascii: "?") { return false }
        if first == UInt8(ascii: "/") { return url.dropFirst().first != UInt8(ascii: "/") }
        // A scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:`.
        guard (first | 0x20) &- UInt8(ascii: "a") < 26 else { return true }
        for byte in url.dropFirst() {
            if byte == UInt8(ascii: ":") { return false }
            let isSchemeByte = (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !isSchemeByte { return true }
        }
        return true
    }

    /// The absolute URL of a relative one (`isRelative`), as written in the page.
    public func absoluteURL(of url: ArraySlice<UInt8>) -> [UInt8] {
        let (segments, climbs, trailingSlash, suffix) = resolved(url)
        var result = Array(rootURL.utf8)
        for _ in 0..<climbs { result.append(contentsOf: "../".utf8) }
        for (index, segment) in segments.enumerated() {
            if index > 0 { result.append(UInt8(ascii: "/")) }
            result.append(contentsOf: segment)
        }
        if trailingSlash && !segments.isEmpty { result.append(UInt8(ascii: "/")) }
        result.append(contentsOf: suffix)
        return result
    }

    /// The path from the root (`/`-separated, percent escapes decoded, without query or
    /// fragment) of the file a relative URL names; nil when it climbs above the root, names a
    /// folder, or is not relative.
    public func pathFromRoot(of url: ArraySlice<UInt8>) -> String? {
        guard ResourceBase.isRelative(url) else { return nil }
        let (segments, climbs, trailingSlash, _) = resolved(url)
        guard climbs == 0, !trailingSlash, !segments.isEmpty else { return nil }
        var path: [UInt8] = []
        for (index, segment) in segments.enumerated() {
            if index > 0 { path.append(UInt8(ascii: "/")) }
            path.append(contentsOf: ResourceBase.percentDecoded(segment))
        }
        return String(decoding: path, as: UTF8.self)
    }

    /// The segments of `url` resolved against the note's folder (or the root for `/x`): the
    /// segments left (URL text: the folder's are encoded), how many `..` went above the root,
    /// whether the path ends in `/`, and the query and fragment as written.
    private func resolved(_ url: ArraySlice<UInt8>)
        -> (segments: [[UInt8]], climbs: Int, trailingSlash: Bool, suffix: ArraySlice<UInt8>) {
        let pathEnd = url.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.endIndex
        let path = url[url.startIndex..<pathEnd]
        var segments: [[UInt8]] = []
        var climbs = 0
        if path.first != UInt8(ascii: "/") {
            for segment in noteFolder.utf8.split(separator: UInt8(ascii: "/")) {
                var bytes: [UInt8] = []
                ResourceBase.appendEncoded(segment, to: &bytes)
                segments.append(bytes)
            }
        }
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var trailingSlash = false
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if part.isEmpty || part.elementsEqual(".".utf8) {
                if isLast { trailingSlash = true }
                continue
            }
            if part.elementsEqual("..".utf8) {
                if segments.isEmpty { climbs += 1 } else { segments.removeLast() }
                if isLast { trailingSlash = true }
                continue
            }
            segments.append(Array(part))
        }
        return (segments, climbs, trailingSlash, url[pathEnd...])
    }

    /// `bytes` percent-encoded but for ASCII letters, digits and `-._~`, appended to `url`.
    static func appendEncoded(_ bytes: some Collection<UInt8>, to url: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            let unreserved = (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if unreserved {
                url.append(byte)
            } else {
                url.append(UInt8(ascii: "%"))
                url.append(hex[Int(byte >> 4)])
                url.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// `%XX` escapes decoded; a `%` without two hex digits stays as written.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}

extension HTMLRenderer {
    /// The files of the notebook that the page of `tree` shows: its images (`![](x.png)`) and
    /// wiki embeds (`![[x.png]]`, `![[note]]`), each the URL the page writes for it (after
    /// `linkDestinations` and `wikiLinkDestinations`, and only when safe mode lets it through)
    /// as a path from the root of `options.resourceBase` (from the note's folder without one).
    /// In document order, each once; URLs that are not relative or climb above the root are
    /// left out. Whether the files exist is the caller's to check.
    public func localResources(of tree: SyntaxTree) -> [String] {
        let state = HTMLRenderState(tree: tree, options: options, outputCapacity: 0)
        let base = options.resourceBase ?? ResourceBase(rootURL: "", noteFolder: "")
        var seen = Set<String>()
        var paths: [String] = []
        func add(_ url: [UInt8]) {
            if options.safe && HTMLRenderState.isDangerousURL(url[...]) { return }
            guard let path = base.pathFromRoot(of: url[...]), seen.insert(path).inserted else { return }
            paths.append(path)
        }
        for node in tree.nodes {
            switch node.kind {
            case .image:
                add(state.destination(of: node))
            case .wikiLink:
                if let url = state.embedURL(of: node) { add(url) }
            default:
                break
            }
        }
        return paths
    }
}

extension HTMLRenderState {
    /// An image's `src` before the resource base: its destination, or what
    /// `HTMLOptions.linkDestinations` makes of it.
    func destination(of node: Node) -> [UInt8] {
        Array(rewritten(linkTarget(node).destination))
    }

    /// The URL a wiki embed's element is written with (before the resource base); nil for a
    /// wiki-link that is no embed and for an embed without one (broken, or ambiguous without a
    /// first candidate).
    func embedURL(of node: Node) -> [UInt8]? {
        guard let info = tree.wikiLinkInfo(of: node), info.isEmbed else { return nil }
        switch options.wikiLinkDestinations?.destination(at: node.data) {
        case .url(let url), .ambiguous(let url?):
            return Array(url.utf8)
        case .embed(let embedded):
            return Array(embedded.url.utf8)
        case .broken, .ambiguous(nil), .unpublished:
            return nil
        case nil:
            return WikiLinkInfo.isImageEmbed(isEmbed: true, target: contentBytes(info.target))
                ? Array(contentBytes(info.target)) : wikiLinkHref(info)
        }
    }

    /// The `<base href>` of a full page, when the options ask for one.
    mutating func writeBaseElement() {
        guard let base = options.resourceBase, base.writesBaseElement else { return }
        out.literal("<base href=\"")
        out.href(Array(base.noteFolderURL.utf8)[...])
        out.literal("\">\n")
    }

    /// `url` as the page writes it: absolute under the resource base when it is relative and
    /// the options ask for that, else as it is.
    func resolvedURL(_ url: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let base = options.resourceBase, base.rewritesRelativeURLs, ResourceBase.isRelative(url) else { return url }
        return base.absoluteURL(of: url)[...]
    }
}
