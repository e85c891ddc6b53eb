// `macmd/preview`, MacMD's own request: a note rendered as HTML with its title, outline and counts.

import JSON
import JSONRPC

/// `{ textDocument: {uri}, tag?, options?: {profile?, theme?, fullPage?, sourceLines?, safe?,
/// resources?, baseUri?, baseHref?, math?, scriptNonce?, tagPages?} }`. The params must be an
/// object, and `options`, when present, too. With `tag`, the page is that tag's in the notebook of
/// `textDocument`. Which profile, theme, resources and maths names are valid is the server's to
/// check.
public struct PreviewParams: Sendable, Equatable, LSPDecodable {
    public static let method = MacMDPreviewRequest.method
    public var uri: String
    public var profile: String?
    public var theme: String?
    public var fullPage: Bool?
    public var sourceLines: Bool?
    public var safe: Bool?
    /// How the page reaches the notebook's files: `relative` or `absolute`.
    public var resources: String?
    /// A URI standing for the notebook's root, under which relative URLs are written.
    public var baseUri: String?
    /// Write `<base href>` in a full page.
    public var baseHref: Bool?
    /// How maths is written: `mathml` or `tex`.
    public var math: String?
    /// The nonce of the client's own script, which the full page's policy then allows.
    public var scriptNonce: String?
    /// Where tag chips lead: this URI followed by the tag's name (a page the client serves).
    public var tagPages: String?
    /// The tag whose page this is (`garden`, `#garden`); nil for the note's own preview.
    public var tag: String?

    public init(uri: String, profile: String? = nil, theme: String? = nil, fullPage: Bool? = nil, sourceLines: Bool? = nil,
                safe: Bool? = nil, resources: String? = nil, baseUri: String? = nil, baseHref: Bool? = nil,
                math: String? = nil, scriptNonce: String? = nil) {
        self.scriptNonce = scriptNonce
        self.resources = resources
        self.baseUri = baseUri
        self.baseHref = baseHref
        self.uri = uri
        self.profile = profile
        self.theme = theme
        self.fullPage = fullPage
        self.sourceLines = sourceLines
        self.safe = safe
        self.math = math
    }

    public init(_ params: JSONValue?) throws(ResponseError) {
        try self.init(params: params)
    }

    public init(_ reader: ParamReader) throws(ResponseError) {
        _ = try reader.object()
        uri = try TextDocumentIdentifier(reader.field("textDocument")).uri
        tag = try reader.field("tag").optionalString()
        let options = reader.field("options")
        if options.isPresent {
            _ = try options.object()
            profile = try options.field("profile").optionalString()
            theme = try options.field("theme").optionalString()
            fullPage = try options.field("fullPage").optionalBool()
            sourceLines = try options.field("sourceLines").optionalBool()
            safe = try options.field("safe").optionalBool()
            resources = try options.field("resources").optionalString()
            baseUri = try options.field("baseUri").optionalString()
            baseHref = try options.field("baseHref").optionalBool()
            math = try options.field("math").optionalString()
            scriptNonce = try options.field("scriptNonce").optionalString()
            tagPages = try options.field("tagPages").optionalString()
        }
    }
}

/// A heading of the previewed note: `{level, text, id, line}` (`id` is the HTML anchor, `line`
/// 0-based in the source).
public struct PreviewHeading: Sendable, Equatable, LSPEncodable {
    public var level: Int
    public var text: String
    public var id: String
    public var line: Int

    public init(level: Int, text: String, id: String, line: Int) {
        self.level = level
        self.text = text
        self.id = id
        self.line = line
    }

    public var json: JSONValue { ["level": level.json, "text": .string(text), "id": .string(id), "line": line.json] }
}

/// `macmd/preview`'s result without its `html`: `{uri, version, title, headings, wordCount,
/// characterCount, readingTimeMinutes, resources}`, `version` `null` for a file that is not
/// open, `resources` the `file:` URIs of the local files the page shows. The server
/// writes `html` itself, into the frame, from pieces escaped on the cores that rendered them
/// (`Framing.responseParts(id:members:stringKey:escapedPieces:)` takes `members`).
public struct PreviewResult: Sendable, Equatable, LSPEncodable {
    public var uri: String
    public var version: Int?
    public var title: String
    public var headings: [PreviewHeading]
    public var wordCount: Int
    public var characterCount: Int
    public var readingTimeMinutes: Int
    public var resources: [String]

    public init(uri: String, version: Int?, title: String, headings: [PreviewHeading], wordCount: Int, characterCount: Int,
                readingTimeMinutes: Int, resources: [String] = []) {
        self.resources = resources
        self.uri = uri
        self.version = version
        self.title = title
        self.headings = headings
        self.wordCount = wordCount
        self.characterCount = characterCount
        self.readingTimeMinutes = readingTimeMinutes
    }

    /// The result's members, every one but `html`.
    public var members: [String: JSONValue] {
        [
            "uri": .string(uri), "version": version.json, "title": .string(title), "headings": headings.json,
            "wordCount": wordCount.json, "characterCount": characterCount.json, "readingTimeMinutes": readingTimeMinutes.json,
            "resources": .array(resources.map { .string($0) }),
        ]
    }

    public var json: JSONValue { .object(members) }
}
