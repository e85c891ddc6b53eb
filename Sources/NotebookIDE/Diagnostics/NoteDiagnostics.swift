// The diagnostics an editor (or `macmd check`) shows for a note: the index's problems
// (`NotebookDiagnostics`) with the notebook's configured severities applied, related places and
// tags. One function for the server's pushes and pulls and for `macmd check`.
//
// Invariants: every diagnostic has a stable `code`; a code configured `off` is left out; ranges
// are byte ranges of the symbols' text (the caller converts them with that very text).

import Localization
import MarkdownSyntax
import NotebookIndex
import NotebookWorkspace
import TextCore

/// A diagnostic as it is shown.
public struct DiagnosticResult: Sendable, Equatable {
    /// Another place worth showing with a diagnostic (a candidate of an ambiguous link).
    public struct Related: Sendable, Equatable {
        public var note: NoteRef
        public var message: LocalizedText
    }

    public var span: ByteSpan
    public var severity: NoteDiagnostic.Severity
    public var code: DiagnosticCode
    /// What a person reads, in their language when it is shown.
    public var message: LocalizedText
    public var related: [Related]
    /// Shown faded (an unused definition), where the editor can.
    public var isUnnecessary: Bool

    /// The diagnostics of `note` (its symbols) in `folder`'s notebook, with its configuration's
    /// severities. `fileExists` answers for notebook-relative paths of files that are not notes.
    /// A note of the snippets folder (`snippets.folder`) has none: its body is a template, whose
    /// `[[${1:note}]]` is a placeholder, not a broken link. Until the notebook's index is complete
    /// (its first scan running), a note has only its own problems, none that depends on other
    /// notes (`DiagnosticCode.dependsOnOtherNotes`): a link is never called broken because the
    /// scan has not reached its target yet. When the notebook's root is a guess
    /// (`NotebookFolder.isRootGuessed`: no `.macmd.json`, `.obsidian`, `.git`, … in it), a link
    /// that finds nothing may mean a note outside it: those problems
    /// (`DiagnosticCode.meansNotFound`) are hints, not errors, unless the settings say
    /// otherwise. Maths errors (`math-error`, off unless configured) come from the note's tree,
    /// which `tree` gives (parsing the note, or nil when it cannot be had); it is asked for only
    /// when the code is on and the note has formulas. So are unlinked mentions
    /// (`unlinked-mention`, off unless configured), once the index is complete.
    public static func list(for note: NoteSymbols, in folder: NotebookFolder, configuration: NotebookConfiguration,
                            tree: () -> SyntaxTree? = { nil }, fileExists: (String) -> Bool) -> [DiagnosticResult] {
        if SnippetFiles.isSnippetPath(note.path, in: folder) { return [] }
        let notebook = folder.notebook
        var found = NotebookDiagnostics.check(note, catalog: notebook.catalog) { notebook.assets.contains($0) || fileExists($0) }
        if !folder.isIndexComplete { found.removeAll { $0.code.dependsOnOtherNotes } }
        // The tree is made at most once, for the codes that read it.
        var parsed: SyntaxTree?? = nil
        func noteTree() -> SyntaxTree? {
            if let parsed { return parsed }
            let made = tree()
            parsed = .some(made)
            return made
        }
        func wants(_ code: DiagnosticCode) -> Bool {
            !note.ignoredCodes.contains(code.rawValue) && configuration.severity(of: code) != nil
        }
        if note.formulaCount > 0, wants(.mathError), let tree = noteTree() {
            found += NotebookDiagnostics.mathErrors(in: tree, path: note.path)
        }
        if folder.isIndexComplete, !note.proseWords.isEmpty, wants(.unlinkedMention), let tree = noteTree() {
            found += NotebookDiagnostics.unlinkedMentions(in: tree, path: note.path, notebook: notebook)
        }
        if parsed != nil { found.sort(by: NoteDiagnostic.inNoteOrder) }
        let guessed = folder.isRootGuessed
        return found.compactMap { diagnostic in
            var severity = diagnostic.severity
            var message = diagnostic.message
            if guessed, diagnostic.code.meansNotFound {
                severity = .hint
                message = LocalizedText("diagnostic.rootGuessed", .text(message),
                                        .string(NotebookFolder.rootMarkers.joined(separator: ", ")))
            }
            guard let severity = configuration.severity(of: diagnostic.code, default: severity) else { return nil }
            return DiagnosticResult(span: diagnostic.range, severity: severity, code: diagnostic.code, message: message,
                                    related: diagnostic.related.map {
                                        Related(note: NoteRef(folder: folder.path, path: $0), message: LocalizedText("diagnostic.related.candidate", .string($0)))
                                    },
                                    isUnnecessary: diagnostic.code.facts.isUnnecessary)
        }
    }
}

extension NoteView {
    /// The diagnostics of this note's text: its problems as a note, and as a snippet file when
    /// user snippets come from it (a file that is no note by its name, such as a VS Code snippet
    /// file, has only those). A note in no notebook has none: its links cannot be checked
    /// without the notes they lead to, and a false error is worse than none.
    public func diagnostics() -> [DiagnosticResult] {
        if isStandalone { return [] }
        let snippetProblems = snapshot.snippets.problems(ofFile: folder.absolutePath(note.path)).compactMap { problem -> DiagnosticResult? in
            guard let severity = folder.configuration.severity(of: .snippetError) else { return nil }
            let start = max(0, min(problem.utf8Offset, text.count))
            var end = start
            while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
            return DiagnosticResult(span: ByteSpan(start, end), severity: severity, code: .snippetError,
                                    message: problem.message, related: [], isUnnecessary: false)
        }
        guard folder.isNote(note.path) else { return snippetProblems }
        return DiagnosticResult.list(for: symbols, in: folder, configuration: folder.configuration, tree: { analysis.tree }) {
            fileExists($0)
        } + snippetProblems
    }
}

extension AnalysisSnapshot {
    /// The diagnostics of an indexed note as its notebook holds it (for notes that are not
    /// open); nil when no notebook holds it.
    public func diagnostics(of note: NoteRef) -> [DiagnosticResult]? {
        guard let folder = folder(of: note), let symbols = folder.notebook.notes[note.path] else { return nil }
        return DiagnosticResult.list(for: symbols, in: folder, configuration: folder.configuration,
                                     tree: { source(of: note)?.tree }) {
            files.exists(folder.absolutePath($0))
        }
    }
}
