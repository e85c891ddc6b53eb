// One completion request, assembled: which candidates answer a keystroke, and from what.
//
// Invariants:
// - Where nothing links, tags or names a path and no snippet needs the syntax
//   (`completionNeedsNotebook` is false), an open document's text alone answers (its notebook's
//   and the writer's snippets): the note is not parsed again for the keystroke.
// - Otherwise a view answers (made by the caller, which files the document into its notebook
//   first): the engine's items, then the snippets, the notebook's and the writer's first.
// - The answer is incomplete when the engine dropped items over the limit, or when the
//   notebook's first scan still runs: the client asks again as the writer types.

import Localization
import NotebookWorkspace
import TextCore

/// What a completion request asks, besides the note: the cursor, how it was asked, what the
/// editor shows, and the writer's clock, language and randomness for snippet variables.
public struct CompletionQuery: Sendable {
    /// The cursor as a UTF-8 offset in a text with these lines (the request's position, which
    /// the caller converts in the text the answer comes from).
    public var offset: @Sendable (LineIndex) -> Int
    /// Asked for by the writer (not triggered by typing): every snippet on an empty line.
    public var invoked: Bool
    public var snippetSupport: Bool
    public var locale: SupportedLocale
    /// The writer's language for dates (`LocaleChoice.dateLanguage`).
    public var languageCode: String
    public var clock: SnippetClock
    public var random: @Sendable () -> UInt64
    /// The notebook's first scan still runs: the answer is partial.
    public var notebookIncomplete: Bool

    public init(offset: @escaping @Sendable (LineIndex) -> Int, invoked: Bool, snippetSupport: Bool, locale: SupportedLocale,
                languageCode: String, clock: SnippetClock, random: @escaping @Sendable () -> UInt64 = SnippetVariables.systemRandom,
                notebookIncomplete: Bool = false) {
        self.offset = offset
        self.invoked = invoked
        self.snippetSupport = snippetSupport
        self.locale = locale
        self.languageCode = languageCode
        self.clock = clock
        self.random = random
        self.notebookIncomplete = notebookIncomplete
    }
}

/// The answer to a completion request.
public struct CompletionAnswer: Sendable {
    /// Best first: the engine's items, then the snippets.
    public var items: [CompletionCandidate]
    public var isIncomplete: Bool
    /// The lines of the text the items' ranges are in.
    public var lines: LineIndex
    /// The view that answered; nil when the text alone did (its items then link nowhere).
    public var view: NoteView?
}

extension AnalysisSnapshot {
    /// Whether completion at `offset` of `text` needs the notebook: a link, heading, tag or path
    /// is being typed, or a snippet there needs the syntax tree.
    public static func completionNeedsNotebook(text: [UInt8], at offset: Int) -> Bool {
        CompletionContext.detect(text: text, cursor: offset) != nil || SnippetCompletion.needsSyntax(text: text, cursor: offset)
    }

    /// The completion of `query` in `document` (nil for a note that is not open), from its text
    /// alone where that suffices, else from the view `view` makes (which may fail, and then so
    /// does the request).
    public func completion<Failure: Error>(in document: OpenDocument?, _ query: CompletionQuery,
                                           view: () -> Result<NoteView, Failure>) -> Result<CompletionAnswer, Failure> {
        if let document {
            let analysis = document.analysis
            let offset = query.offset(analysis.lines)
            if !Self.completionNeedsNotebook(text: analysis.text, at: offset) {
                let items = snippetCompletion(in: document, at: offset, clock: query.clock, languageCode: query.languageCode,
                                              random: query.random, snippetSupport: query.snippetSupport,
                                              invoked: query.invoked, locale: query.locale)
                return .success(CompletionAnswer(items: items, isIncomplete: false, lines: analysis.lines, view: nil))
            }
        }
        return view().map { $0.completion(query) }
    }
}

extension NoteView {
    /// The completion of `query` in this note: the engine's items (at most the notebook's
    /// `maxCompletionItems`), then the snippets where a word is typed at a line start or after
    /// white space (every one, asked for on an empty line), the notebook's and the writer's first.
    public func completion(_ query: CompletionQuery) -> CompletionAnswer {
        let offset = query.offset(lines)
        let list = completion(at: offset, locale: query.locale, limit: folder.configuration.maxCompletionItems)
        let snippets = snippetCompletion(at: offset, snippets: snapshot.snippets.snippets(forFolder: isStandalone ? nil : note.folder),
                                         variables: snippetVariables(clock: query.clock, languageCode: query.languageCode,
                                                                     random: query.random),
                                         snippetSupport: query.snippetSupport, invoked: query.invoked, locale: query.locale)
        return CompletionAnswer(items: list.items + snippets, isIncomplete: list.isIncomplete || query.notebookIncomplete,
                                lines: lines, view: self)
    }
}
