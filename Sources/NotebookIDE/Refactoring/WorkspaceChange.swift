// Edits to a notebook as an editor applies them: text edits per note, files created and renamed,
// in order. What a rename, a move or a code action returns; the server writes it as an LSP
// `WorkspaceEdit`.
//
// Invariants: text edits of one note never overlap and are sorted by position; notes come in
// path order; a file operation comes where it must happen (a note is created before its first
// text is inserted; a note is renamed after the edits to its links).

import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A replacement of a byte range of a note's text.
public struct TextReplacement: Sendable, Hashable {
    public var span: ByteSpan
    public var newText: String

    public init(span: ByteSpan, newText: String) {
        self.span = span
        self.newText = newText
    }
}

/// Edits to a notebook, in the order they apply.
public struct WorkspaceChange: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// Text edits to one note.
        case edit(NoteRef, [TextReplacement])
        /// A new, empty note (left alone when it exists).
        case create(NoteRef)
        /// A note or file moved (refused when the new path exists).
        case rename(from: NoteRef, to: NoteRef)
    }

    public var steps: [Step] = []
    /// Set when the change should not happen without the writer's yes (a tag renamed onto a tag
    /// that is already used merges the two, which no rename can undo): what to ask.
    public var confirmation: ChangeConfirmation?

    public init(steps: [Step] = []) {
        self.steps = steps
    }

    /// The edits of a notebook's `NoteEdit`s, grouped per note in path order.
    public init(folder: String, edits: [NoteEdit]) {
        for (path, group) in Dictionary(grouping: edits, by: \.path).sorted(by: { $0.key < $1.key }) {
            let sorted = group.sorted { ($0.range.start, $0.range.end) < ($1.range.start, $1.range.end) }
            steps.append(.edit(NoteRef(folder: folder, path: path), sorted.map { TextReplacement(span: $0.range, newText: $0.newText) }))
        }
    }

    public var isEmpty: Bool { steps.isEmpty }

    /// Whether it creates or renames files (which an editor can apply only through
    /// `documentChanges`).
    public var hasFileOperations: Bool {
        steps.contains { if case .edit = $0 { return false } else { return true } }
    }
}

/// What to ask before a change that no rename can undo, and the ways the writer says yes: a
/// choice between `yes` and `no` where the editor can ask, else a new name that says yes ahead.
public struct ChangeConfirmation: Sendable, Equatable {
    /// The question, a sentence without its final full stop.
    public var question: LocalizedText
    /// The titles of the two answers, for an editor that asks with buttons.
    public var yes: LocalizedText
    public var no: LocalizedText
    /// The new name that confirms the change when given to the same rename (the name and `!`).
    public var confirmingName: String

    public init(question: LocalizedText, yes: LocalizedText, no: LocalizedText, confirmingName: String) {
        self.question = question
        self.yes = yes
        self.no = no
        self.confirmingName = confirmingName
    }

    /// Why the change is refused where the editor cannot ask: the question, and the name that
    /// says yes.
    public var refusal: LocalizedText { LocalizedText("rename.tag.mergeCannotAsk", .text(question), .string(confirmingName)) }
}
