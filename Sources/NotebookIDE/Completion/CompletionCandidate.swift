// One completion item as plain data: what to show, what to insert where, and how to order it.
// Ranges are UTF-8 byte offsets in the note's source; the server converts them to positions.

import MarkdownSyntax
import TextCore

/// One completion item.
public struct CompletionCandidate: Sendable, Equatable {
    /// What the item stands for (the server maps it to an LSP `CompletionItemKind`).
    public enum Kind: UInt8, Sendable, Hashable {
        /// A note, by title, stem or path (LSP: `file`).
        case note
        /// A note by one of its aliases (LSP: `reference`).
        case alias
        /// A file that is not a note (LSP: `file`).
        case file
        /// An image file (LSP: `file`).
        case image
        /// A folder (LSP: `folder`).
        case folder
        /// A heading, by text or slug (LSP: `reference`).
        case heading
        /// A block id (LSP: `reference`).
        case blockID
        /// A link reference label (LSP: `reference`).
        case referenceLabel
        /// A tag (LSP: `keyword`).
        case tag
        /// A front-matter key (LSP: `property`).
        case frontMatterKey
        /// A front-matter value (LSP: `value`).
        case frontMatterValue
        /// A snippet (LSP: `snippet`); its `newText` is in the snippet syntax when the editor
        /// takes snippets, else plain text.
        case snippet
    }

    /// What the list shows.
    public var label: String
    public var kind: Kind
    /// The text that replaces `replace` (the trigger is never repeated; closing text is added
    /// only when it does not already follow).
    public var newText: String
    /// The source bytes the item replaces (LSP `textEdit.range`).
    public var replace: ByteSpan
    /// What the client matches the typed text against.
    public var filterText: String
    /// Orders the items as the engine ranked them (`0000`, `0001`, …).
    public var sortText: String
    /// A short note beside the label: the path, `H2`, `12 uses`.
    public var detail: String?
    /// Markdown documentation known when the list is made (a tag's uses, what a file is).
    public var documentation: String?
    /// The note, heading or block whose preview is the item's documentation. Reading the
    /// target's text is left to `completionItem/resolve` (`CompletionTarget.documentation`), so
    /// a list of 200 notes reads no file.
    public var target: CompletionTarget?

    public init(label: String, kind: Kind, newText: String, replace: ByteSpan, filterText: String,
                sortText: String = "", detail: String? = nil, documentation: String? = nil,
                target: CompletionTarget? = nil) {
        self.label = label
        self.kind = kind
        self.newText = newText
        self.replace = replace
        self.filterText = filterText
        self.sortText = sortText
        self.detail = detail
        self.documentation = documentation
        self.target = target
    }
}

/// The items for one request, best first.
public struct CompletionList: Sendable, Equatable {
    public var items: [CompletionCandidate]
    /// True when the engine dropped items over its limit: the client should ask again as the
    /// user types instead of filtering this list.
    public var isIncomplete: Bool

    public init(items: [CompletionCandidate] = [], isIncomplete: Bool = false) {
        self.items = items
        self.isIncomplete = isIncomplete
    }
}
