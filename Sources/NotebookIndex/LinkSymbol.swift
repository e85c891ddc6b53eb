import MarkdownSyntax
import TextCore

/// One outgoing link of a note, split into the parts a resolver and a rename need.
///
/// Texts are decoded (backslash escapes and character references for Markdown links; wiki-links
/// take their text as written) but not percent-decoded: that is the resolver's job.
public struct LinkSymbol: Sendable, Equatable {
    /// How the link was written.
    public enum Form: UInt8, Sendable, Hashable {
        /// `[text](dest)` or `![alt](dest)`.
        case inline
        /// `[text][label]`.
        case fullReference
        /// `[label][]`.
        case collapsedReference
        /// `[label]`.
        case shortcutReference
        /// `<scheme:…>`, `<a@b.c>` or a GFM extended autolink.
        case autolink
        /// `[[target#heading^block|label]]`.
        case wikiLink
        /// `![[target…]]`.
        case wikiEmbed

        /// True for `wikiLink` and `wikiEmbed`.
        public var isWiki: Bool { self == .wikiLink || self == .wikiEmbed }
    }

    /// A piece of a link: its text and where it is written (source bytes).
    public struct Part: Sendable, Equatable {
        public var text: String
        public var range: ByteSpan
        public init(text: String, range: ByteSpan) {
            self.text = text
            self.range = range
        }
    }

    public var form: Form
    /// True for a Markdown image `![alt](…)` (any of the Markdown forms).
    public var isImage: Bool
    /// The note, file or URL linked to, without its `#anchor`: `note.md` in `note.md#heading`,
    /// `note` in `[[note#H]]`. Empty text for a link into the same note (`#heading`, `[[#H]]`).
    /// For reference forms the range lies in the link reference definition, where the
    /// destination is written.
    public var target: Part
    /// The full destination as written and decoded (`note.md#heading`, `note#H#Sub` for a
    /// wiki-link). For autolinks `mailto:`/`http://` are not added. Computed from the parts, so
    /// the index does not keep a second copy of every link's text.
    public var destination: String {
        var result = target.text
        for heading in headings { result += "#" + heading.text }
        // `[[note#H^id]]` writes a block after a heading without its own `#`.
        if let blockID { result += (form.isWiki && !headings.isEmpty ? "^" : "#^") + blockID.text }
        return result
    }
    /// The heading path: one part for a Markdown `#anchor`, each `#Heading` of a wiki-link
    /// outermost first. Empty when there is none.
    public var headings: [Part]
    /// The block id without `^` (`[[note#^id]]`, `note.md#^id`), when there is one.
    public var blockID: Part? {
        get { rare?.blockID }
        set { rare = RareParts.make(blockID: newValue, referenceLabel: referenceLabel, title: title) }
    }
    /// The visible text: the Markdown link text (raw inline Markdown, decoded) or the wiki-link
    /// label after `|`; nil for a wiki-link without `|` and for autolinks.
    public var label: Part?
    /// For reference forms: the normalised label that finds the definition, and where the label
    /// is written in the link.
    public var referenceLabel: Part? {
        get { rare?.referenceLabel }
        set { rare = RareParts.make(blockID: blockID, referenceLabel: newValue, title: title) }
    }
    /// The link title (`"title"`), when there is one.
    public var title: String? {
        get { rare?.title }
        set { rare = RareParts.make(blockID: blockID, referenceLabel: referenceLabel, title: newValue) }
    }
    /// Source bytes of the whole link, brackets and `!` included.
    public var range: ByteSpan
    /// The parts most links do not have, boxed: the index keeps every link of every note, and a
    /// link without them then holds 8 bytes for them instead of 64.
    private var rare: RareParts?

    public init(form: Form, isImage: Bool = false, target: Part, headings: [Part] = [],
                blockID: Part? = nil, label: Part? = nil, referenceLabel: Part? = nil, title: String? = nil,
                range: ByteSpan) {
        self.form = form
        self.isImage = isImage
        self.target = target
        self.headings = headings
        self.label = label
        self.range = range
        self.rare = RareParts.make(blockID: blockID, referenceLabel: referenceLabel, title: title)
    }

    public static func == (a: LinkSymbol, b: LinkSymbol) -> Bool {
        a.form == b.form && a.isImage == b.isImage && a.target == b.target && a.headings == b.headings
            && a.label == b.label && a.range == b.range && a.blockID == b.blockID
            && a.referenceLabel == b.referenceLabel && a.title == b.title
    }

    /// Immutable, so the link stays a value: a change makes a new box.
    private final class RareParts: Sendable {
        let blockID: Part?
        let referenceLabel: Part?
        let title: String?

        private init(blockID: Part?, referenceLabel: Part?, title: String?) {
            self.blockID = blockID
            self.referenceLabel = referenceLabel
            self.title = title
        }

        /// A box, or nil when there is nothing to keep.
        static func make(blockID: Part?, referenceLabel: Part?, title: String?) -> RareParts? {
            blockID == nil && referenceLabel == nil && title == nil
                ? nil : RareParts(blockID: blockID, referenceLabel: referenceLabel, title: title)
        }
    }

    /// True for an image or a wiki embed: the target is shown, not linked.
    public var isEmbed: Bool { isImage || form == .wikiEmbed }

    /// What the link graph compares: where the link points, not where it is written.
    public var key: Key {
        Key(isWiki: form.isWiki, isEmbed: isEmbed, target: target.text, headings: headings.map(\.text),
            blockID: blockID?.text)
    }

    /// A link target without ranges.
    public struct Key: Sendable, Hashable {
        public var isWiki: Bool
        public var isEmbed: Bool
        public var target: String
        public var headings: [String]
        public var blockID: String?
        public init(isWiki: Bool, isEmbed: Bool, target: String, headings: [String] = [], blockID: String? = nil) {
            self.isWiki = isWiki
            self.isEmbed = isEmbed
            self.target = target
            self.headings = headings
            self.blockID = blockID
        }
    }
}
