// Unlinked mentions from an editor's side: the places in other notes whose plain text names this
// note (`macmd/unlinkedMentions`), their count (for a lens), and the two code actions that turn
// them into links: "Link to [[…]]" on a mention, "Link all N mentions" on the note's title.
//
// Invariants:
// - Pure functions of the view: the notebook (with this view's text filed) says which notes may
//   mention the note (`Notebook.mentionCandidates`, no text read), and only those are read, as
//   they are now (an open document's text, else the disk's), searched whole for the note's
//   names, and only those that hold one parsed and matched. Each result carries the text it was
//   found in, so positions are converted with that very text.
// - Many candidates are read and matched on both cores; the result does not depend on it.
// - A mention action carries a fingerprint of the texts its edit was made from
//   (`MentionAction`): asked for again later (`codeAction/resolve`), the action is made anew and
//   refused when its fingerprint changed, so an edit never lands in text that moved since.

import Dispatch
import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// The unlinked mentions of a note found in one other note, with the text they were found in.
public struct MentionsInNote: Sendable {
    public var note: NoteRef
    /// The text read (an open document's version, or the disk's).
    public var analysis: DocumentAnalysis
    /// The mentions, in document order.
    public var mentions: [Mention]
}

/// A mention code action, as the editor may ask for its edit later.
public struct MentionAction: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Link the mention at `span` of this note to the note at `target`.
        case link(span: ByteSpan, target: String)
        /// Link every unlinked mention of this note.
        case linkAll
    }

    public var kind: Kind
    /// A hash of the paths and texts of the notes the edit changes, as they were read.
    public var fingerprint: UInt64

    public init(kind: Kind, fingerprint: UInt64) {
        self.kind = kind
        self.fingerprint = fingerprint
    }

    /// The fingerprint of the texts of `notes` (in order).
    static func fingerprint(of notes: [(path: String, text: [UInt8])]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for (path, text) in notes {
            for byte in path.utf8 { mix(byte) }
            mix(0)
            for byte in text { mix(byte) }
            mix(0xFF)
        }
        return hash
    }
}

extension NoteView {
    /// The unlinked mentions of this note in the other notes of its notebook, by path, then
    /// position; none for a note in no notebook.
    public func unlinkedMentions() -> [MentionsInNote] {
        guard !isStandalone else { return [] }
        let path = note.path
        let notebook = notebook
        guard let search = notebook.nameSearch(of: path), !search.isEmpty else { return [] }
        let candidates = notebook.mentionCandidates(of: path)
        let find = { @Sendable (source: String) -> MentionsInNote? in
            // The text searched whole first: most candidates hold the name's words apart, and
            // are never parsed.
            guard let analysis = self.source(of: source), search.isIn(analysis.text) else { return nil }
            let found = notebook.mentions(in: analysis.tree, path: source, naming: path, search: search)
            return found.isEmpty ? nil : MentionsInNote(note: self.ref(source), analysis: analysis, mentions: found)
        }
        // Reading and parsing dominate: two halves on the two cores when there are many.
        guard candidates.count >= 16 else { return candidates.compactMap(find) }
        let halves = [ResultBox<[MentionsInNote]>(), ResultBox<[MentionsInNote]>()]
        let middle = candidates.count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            halves[half].value = (half == 0 ? candidates[..<middle] : candidates[middle...]).compactMap(find)
        }
        return (halves[0].value ?? []) + (halves[1].value ?? [])
    }

    /// How many unlinked mentions of this note the other notes hold (what a lens shows).
    public func unlinkedMentionCount() -> Int {
        unlinkedMentions().reduce(0) { $0 + $1.mentions.count }
    }

    /// The unlinked mentions in this note's own text, each with the notes it names.
    public func mentions() -> [Mention] {
        guard !isStandalone else { return [] }
        return notebook.mentions(in: analysis.tree, path: note.path)
    }

    // MARK: Code actions

    /// The mention actions for the byte range `start...end`: "Link to [[…]]" for each mention
    /// in it (one per note it names), and "Link all N mentions" when it touches the note's
    /// title and other notes mention the note.
    func mentionActions(start: Int, end: Int) -> [CodeActionResult] {
        guard !isStandalone else { return [] }
        var actions: [CodeActionResult] = []
        for mention in mentions() where Int(mention.range.start) <= end && start <= Int(mention.range.end) {
            for target in mention.targets {
                actions.append(linkAction(mention, to: target))
                if actions.count >= NoteView.maximumMentionActions { return actions }
            }
        }
        if touchesTitle(start: start, end: end), let action = mentionAction(.linkAll) { actions.append(action) }
        return actions
    }

    /// At most this many "Link to" actions are offered at once (a selection of a whole note).
    static let maximumMentionActions = 20

    /// The action `kind` as it is now, with its edit and the fingerprint of the texts it edits;
    /// nil when there is nothing to do (the mention is gone, no note mentions this one).
    public func mentionAction(_ kind: MentionAction.Kind) -> CodeActionResult? {
        switch kind {
        case .link(let span, let target):
            guard let mention = mentions().first(where: { $0.range == span && $0.targets.contains(target) }) else { return nil }
            return linkAction(mention, to: target)
        case .linkAll:
            let found = unlinkedMentions()
            guard !found.isEmpty else { return nil }
            let count = found.reduce(0) { $0 + $1.mentions.count }
            let steps = found.map { group in
                WorkspaceChange.Step.edit(group.note, group.mentions.map {
                    TextReplacement(span: $0.range, newText: mentionLink($0, in: group.analysis.text, to: note.path))
                })
            }
            let fingerprint = MentionAction.fingerprint(of: found.map { ($0.note.path, $0.analysis.text) })
            return CodeActionResult(title: LocalizedText("codeAction.mention.linkAll", .integer(count)), kind: .refactorRewrite,
                                    change: WorkspaceChange(steps: steps), mention: MentionAction(kind: kind, fingerprint: fingerprint))
        }
    }

    /// "Link to [[…]]": `mention`, in this note, linked to the note at `target`.
    func linkAction(_ mention: Mention, to target: String) -> CodeActionResult {
        let link = mentionLink(mention, in: text, to: target)
        return CodeActionResult(title: LocalizedText("codeAction.mention.link", .string(link)), kind: .refactorRewrite,
                                change: WorkspaceChange(steps: [.edit(note, [TextReplacement(span: mention.range, newText: link)])]),
                                mention: MentionAction(kind: .link(span: mention.range, target: target),
                                                       fingerprint: MentionAction.fingerprint(of: [(note.path, text)])))
    }

    /// Whether `start...end` touches the note's title: its title heading, its front matter's
    /// `title`, or (a title from the file name) the note's first line.
    func touchesTitle(start: Int, end: Int) -> Bool {
        func touches(_ span: ByteSpan) -> Bool { Int(span.start) <= end && start <= Int(span.end) }
        if let heading = symbols.titleHeading, touches(heading.range) { return true }
        switch symbols.titleSource {
        case .frontMatter:
            guard let key = symbols.frontMatter?.entries.first(where: { $0.key == "title" })?.keyRange else { return false }
            return touches(ByteSpan(Int(key.start), lineEnd(from: Int(key.start))))
        case .fileStem:
            return touches(ByteSpan(0, lineEnd(from: 0)))
        case .firstHeading:
            return false
        }
    }

    private func lineEnd(from offset: Int) -> Int {
        var end = min(max(0, offset), text.count)
        while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
        return end
    }

    /// The wiki-link that replaces `mention` (in `source`'s text `text`) to reach the note at
    /// `target`: the mention as written when, as a wiki target from that note, it reaches the
    /// note (`[[machine learning]]`), else the shortest target that does with the mention as
    /// its label (`[[ml|machine learning]]`), or without one when the mention cannot be a label.
    func mentionLink(_ mention: Mention, in text: [UInt8], to target: String) -> String {
        let written = String(decoding: text[mention.range.range.clamped(to: text.indices)], as: UTF8.self)
        let catalog = notebook.catalog
        let special: Set<UInt8> = [UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"), UInt8(ascii: "#"), UInt8(ascii: "^")]
        if !written.utf8.contains(where: special.contains) {
            let link = LinkSymbol(form: .wikiLink, target: LinkSymbol.Part(text: written, range: .empty), range: .empty)
            if case .note(let reached, _, _, _) = catalog.resolve(link, from: mention.source), reached == target { return "[[\(written)]]" }
        }
        let name = catalog.stemTable(NoteCatalog.stemKey(of: target)).map { catalog.wikiTarget(to: target, from: mention.source, table: $0) }
            ?? NotebookPath.wikiTarget(NotebookPath.removingExtension(target, catalog.noteExtensions))
        if written.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) {
            return "[[\(name)]]"
        }
        return "[[\(name)|\(written)]]"
    }
}
