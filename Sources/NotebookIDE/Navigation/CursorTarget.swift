// What the cursor is on in a note, and where results point: ranges and edits in notes' sources.
//
// Invariants: pure functions of a note's symbols; ranges are UTF-8 byte ranges in a note's
// source, never positions (the server converts them).

import MarkdownSyntax
import NotebookIndex
import TextCore

/// A range in one note.
public struct SourceRange: Sendable, Equatable, Hashable {
    public var path: String
    public var range: ByteSpan
    public init(path: String, range: ByteSpan) {
        self.path = path
        self.range = range
    }
}

/// A text edit in one note.
public struct NoteEdit: Sendable, Equatable, Hashable {
    public var path: String
    public var range: ByteSpan
    public var newText: String
    public init(path: String, range: ByteSpan, newText: String) {
        self.path = path
        self.range = range
        self.newText = newText
    }
}

/// What the cursor is on.
public enum CursorTarget: Sendable, Equatable {
    case link(LinkSymbol)
    case heading(HeadingSymbol)
    case tag(TagSymbol)
    case definition(LinkDefinitionSymbol)
    case blockID(BlockIDSymbol)
}

extension NoteSymbols {
    /// The innermost symbol at `offset` (a link inside a heading is the link). The end of a
    /// range counts, so a cursor just after `]]` or a tag is still on it.
    public func target(at offset: Int) -> CursorTarget? {
        func contains(_ span: ByteSpan) -> Bool { Int(span.start) <= offset && offset <= Int(span.end) }
        if let link = links.first(where: { contains($0.range) }) { return .link(link) }
        if let tag = tags.first(where: { contains($0.range) }) { return .tag(tag) }
        if let block = blockIDs.first(where: { contains($0.range) }) { return .blockID(block) }
        if let definition = linkDefinitions.first(where: { contains($0.range) }) { return .definition(definition) }
        if let heading = headings.first(where: { contains($0.range) }) { return .heading(heading) }
        return nil
    }
}
