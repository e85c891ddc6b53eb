// The one place where the view model's plain values become LSP: byte ranges become positions in
// the negotiated encoding, notes become URIs, kinds become the protocol's numbers, as
// rust-analyzer's `to_proto.rs` does. No other file of the server converts a range.
//
// Invariants:
// - A range is converted with the very text it was computed from: the request's own document
//   version, an open document's version, else the file as it is read now (a note that cannot be
//   read gives positions at its start, never a failure).
// - A note's URI is the one the client uses for it: its open document's, else a `file:` URI of
//   the folder as the client named it.

import JSON
import JSONRPC
import LSPTypes
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
import TextCore

struct ToLSP {
    let snapshot: AnalysisSnapshot
    let encoding: PositionEncoding
    /// The writer's language: every text for people is written in it.
    let locale: SupportedLocale
    /// The request's own document: its note, URI and text.
    let origin: (note: NoteRef, uri: String, analysis: DocumentAnalysis)?
    /// Notes' texts read so far by this conversion (nil when unreadable).
    private var sources: [NoteRef: DocumentAnalysis?] = [:]

    init(_ snapshot: AnalysisSnapshot, encoding: PositionEncoding, locale: SupportedLocale,
         origin: (note: NoteRef, uri: String, analysis: DocumentAnalysis)? = nil) {
        self.snapshot = snapshot
        self.encoding = encoding
        self.locale = locale
        self.origin = origin
    }

    /// The conversion for what the client of `client` is sent about `snapshot`.
    init(_ snapshot: AnalysisSnapshot, client: Server.ClientInfo) {
        self.init(snapshot, encoding: client.encoding, locale: client.locale)
    }

    /// The conversion for a request about `view`, named `uri` by the client.
    init(_ view: NoteView, uri: String, client: Server.ClientInfo) {
        self.init(view.snapshot, encoding: client.encoding, locale: client.locale, origin: (view.note, uri, view.analysis))
    }

    /// `text` in the writer's language.
    func text(_ text: LocalizedText) -> String { text.string(in: locale) }

    // MARK: Positions

    /// The LSP range of a byte range of `lines`' text: the one span-to-range conversion.
    static func range(_ span: ByteSpan, _ lines: LineIndex, _ encoding: PositionEncoding) -> LSPRange {
        LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(span.start), encoding: encoding),
                 end: lines.lspPosition(ofUTF8Offset: Int(span.end), encoding: encoding))
    }

    /// The range of `span` in the request's own document.
    func range(_ span: ByteSpan) -> LSPRange {
        ToLSP.range(span, origin?.analysis.lines ?? LineIndex(utf8: []), encoding)
    }

    /// A note's text as this conversion sees it (the request's document for its own note).
    mutating func source(_ note: NoteRef) -> DocumentAnalysis? {
        if let origin, origin.note == note { return origin.analysis }
        if let known = sources[note] { return known }
        let read = snapshot.source(of: note)
        sources[note] = read
        return read
    }

    /// The range of `span` in `note`.
    mutating func range(_ span: ByteSpan, in note: NoteRef) -> LSPRange {
        ToLSP.range(span, source(note)?.lines ?? LineIndex(utf8: []), encoding)
    }

    /// A graph node as a call-hierarchy item: a note is a `file`, a heading a `string`; the
    /// heading's text rides in `data`, so the item names its node again.
    mutating func callHierarchyItem(_ node: GraphNode) -> CallHierarchyItem {
        let range = range(node.span, in: node.note)
        return CallHierarchyItem(name: node.name.isEmpty ? node.note.path : node.name, kind: node.heading == nil ? .file : .string,
                                 detail: node.folder.isEmpty ? nil : node.folder, uri: uri(node.note), range: range, selectionRange: range,
                                 data: node.heading.map { .object(["heading": .string($0)]) })
    }

    mutating func location(_ found: NoteSpan) -> Location {
        Location(uri: uri(found.note), range: range(found.span, in: found.note))
    }

    // MARK: Semantic tokens

    /// The legend `initialize` announces: the token types in `SemanticToken.Kind`'s order (a
    /// token's type is its kind's raw value), the modifiers lowest bit first (a token's
    /// modifier bits are its modifiers' raw value: `Modifiers.named` has one bit each, in
    /// order). docs/lsp.md, "Semantic tokens", lists them.
    static let semanticTokensLegend = SemanticTokensLegend(tokenTypes: SemanticToken.Kind.allCases.map(\.name),
                                                           tokenModifiers: SemanticToken.Modifiers.named.map(\.name))

    /// The request's document's tokens (sorted, not overlapping) as LSP's integers: a token
    /// that spans lines is split at each line's end (no client has to support tokens over
    /// several lines, and many do not), its line breaks left out; each piece is `line delta,
    /// start delta, length, type, modifier bits`, columns in the negotiated encoding. The
    /// tokens come in order, so each piece's line and column are found from the piece before
    /// it: the conversion walks the note once.
    func semanticTokens(_ tokens: [SemanticToken]) -> SemanticTokens {
        let lines = origin?.analysis.lines ?? LineIndex(utf8: [])
        let unit = encoding.columnUnit
        var data: [Int] = []
        data.reserveCapacity(tokens.count * 5)
        // The last piece written: its line, its start (an offset on that line) and its column.
        var previous = (line: 0, start: 0, column: 0)
        var line = 0
        for token in tokens {
            var start = max(0, Int(token.span.start))
            let end = min(Int(token.span.end), lines.utf8Count)
            while start < end {
                while line + 1 < lines.lineCount, lines.lineStarts[line + 1] <= start { line += 1 }
                let pieceEnd = min(end, lines.lineEnd(line))
                let length = lines.columns(from: start, to: pieceEnd, unit: unit)
                if pieceEnd > start, length > 0 {
                    let sameLine = line == previous.line && previous.start <= start
                    let column = sameLine
                        ? previous.column + lines.columns(from: previous.start, to: start, unit: unit)
                        : lines.columns(from: lines.lineStart(line), to: start, unit: unit)
                    data.append(line - previous.line)
                    data.append(line == previous.line ? column - previous.column : column)
                    data.append(length)
                    data.append(Int(token.kind.rawValue))
                    data.append(Int(token.modifiers.rawValue))
                    previous = (line, start, column)
                }
                // On to the next line's start (a token ends at the text's end at the latest).
                let next = lines.lineEndIncludingLineEnding(line)
                guard next > start else { break }
                start = next
            }
        }
        return SemanticTokens(data: data)
    }

    // MARK: Notes

    /// The URI the client uses for a note.
    func uri(_ note: NoteRef) -> String {
        if let origin, origin.note == note { return origin.uri }
        if let id = snapshot.openNotes[note] { return id }
        return FileURI.uri(ofPath: snapshot.workspace.folder(note.folder)?.clientPath(note.path) ?? note.folder + "/" + note.path)
    }

    /// The version of a note's open document (nil when it is not open).
    func version(_ note: NoteRef) -> Int? {
        if let origin, origin.note == note { return origin.analysis.version }
        return snapshot.openDocument(note)?.version
    }

    // MARK: Edits

    /// A `WorkspaceEdit`: as `documentChanges` (versioned edits, file operations) when
    /// `documentChanges`, else as `changes` (which cannot create or rename files). Edits to a
    /// note whose text cannot be read are left out.
    /// The LSP form of `change`; with `annotation`, every text edit carries it (`documentChanges`
    /// only: `changes` cannot hold annotated edits).
    mutating func workspaceEdit(_ change: WorkspaceChange, documentChanges: Bool,
                                annotation: (id: String, annotation: ChangeAnnotation)? = nil) -> Result<WorkspaceEdit, ResponseError> {
        var created: Set<NoteRef> = []
        var operations: [DocumentChange] = []
        var changes: [String: [LSPTypes.TextEdit]] = [:]
        for step in change.steps {
            switch step {
            case .edit(let note, let edits):
                // A note created by an earlier step has no text yet.
                guard let lines = created.contains(note) ? LineIndex(utf8: []) : source(note)?.lines else { continue }
                let annotationID = documentChanges ? annotation?.id : nil
                let converted = edits.map {
                    LSPTypes.TextEdit(range: ToLSP.range($0.span, lines, encoding), newText: $0.newText, annotationID: annotationID)
                }
                if documentChanges {
                    operations.append(.edit(TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri(note), version: version(note)),
                                                             edits: converted)))
                } else {
                    changes[uri(note), default: []] += converted
                }
            case .create(let note):
                created.insert(note)
                operations.append(.create(CreateFile(uri: uri(note), options: CreateFileOptions(overwrite: false, ignoreIfExists: true))))
            case .rename(let old, let new):
                operations.append(.rename(RenameFile(oldURI: uri(old), newURI: uri(new), options: RenameFileOptions(overwrite: false, ignoreIfExists: false))))
            }
        }
        if documentChanges {
            return .success(WorkspaceEdit(documentChanges: operations,
                                          changeAnnotations: annotation.map { [$0.id: $0.annotation] }))
        }
        guard !change.hasFileOperations else {
            return .failure(ResponseError(code: ResponseError.invalidRequest,
                                          text: LocalizedText("server.rename.cannotRenameFiles")))
        }
        return .success(WorkspaceEdit(changes: changes))
    }

    // MARK: Diagnostics

    /// A diagnostic of the note whose text `lines` indexes.
    func diagnostic(_ diagnostic: DiagnosticResult, _ lines: LineIndex) -> Diagnostic {
        Diagnostic(range: ToLSP.range(diagnostic.span, lines, encoding), severity: ToLSP.severity(diagnostic.severity),
                   code: diagnostic.code.rawValue, source: "macmd", message: text(diagnostic.message),
                   tags: diagnostic.isUnnecessary ? [.unnecessary] : [],
                   relatedInformation: diagnostic.related.map {
                       DiagnosticRelatedInformation(location: Location(uri: uri($0.note), range: LSPRange(start: .init(line: 0, character: 0), end: .init(line: 0, character: 0))),
                                                    message: text($0.message))
                   })
    }

    // MARK: Kinds

    static func severity(_ severity: NoteDiagnostic.Severity) -> DiagnosticSeverity {
        switch severity {
        case .error: return .error
        case .warning: return .warning
        case .information: return .information
        case .hint: return .hint
        }
    }

    static func completionKind(_ kind: CompletionCandidate.Kind) -> CompletionItemKind {
        switch kind {
        case .note, .alias, .file, .image: return .file
        case .folder: return .folder
        case .heading, .blockID, .referenceLabel: return .reference
        case .tag: return .keyword
        case .frontMatterKey: return .property
        case .frontMatterValue: return .value
        case .snippet: return .snippet
        }
    }

    /// Headings are strings (as VS Code's Markdown support shows them); front matter a namespace.
    static func symbolKind(_ kind: OutlineSymbol.Kind) -> SymbolKind {
        kind == .heading ? .string : .namespace
    }

    static func symbolKind(_ kind: WorkspaceSymbolResult.Kind) -> SymbolKind {
        switch kind {
        case .note: return .file
        case .heading: return .string
        case .tag: return .key
        }
    }

    static func foldingKind(_ kind: NotebookIDE.FoldingRange.Kind) -> FoldingRangeKind {
        switch kind {
        case .comment: return .comment
        case .imports: return .imports
        case .region: return .region
        }
    }

    static func codeActionKind(_ kind: CodeActionResult.Kind) -> CodeActionKind {
        switch kind {
        case .quickFix: return .quickFix
        case .refactorRewrite: return .refactorRewrite
        }
    }

    /// What `codeAction/resolve` needs to make a mention action again: the document, the
    /// action (the mention's byte range and target note, for one mention) and the fingerprint
    /// of the texts its edit was made from (hexadecimal: JSON numbers stop at 2⁵³).
    static func mentionActionData(_ action: MentionAction, uri: String) -> JSONValue {
        var members: [String: JSONValue] = ["uri": .string(uri), "fingerprint": .string(String(action.fingerprint, radix: 16))]
        switch action.kind {
        case .link(let span, let target):
            members["macmd"] = "linkMention"
            members["start"] = .int(Int64(span.start))
            members["end"] = .int(Int64(span.end))
            members["target"] = .string(target)
        case .linkAll:
            members["macmd"] = "linkAllMentions"
        }
        return .object(members)
    }

    // MARK: Completion

    /// An item's `data`: where `completionItem/resolve` finds the target. The note's own buffer
    /// is named by its URI, since a buffer that is not a file has no notebook path to find it by.
    static func completionData(_ target: CompletionTarget, view: NoteView, uri: String) -> CompletionItemData {
        let anchor: CompletionItemData.Anchor
        switch target {
        case .note: anchor = .note
        case .heading(_, let index, let text): anchor = .heading(index: index, text: text)
        case .block(_, let id): anchor = .block(id: id)
        }
        return CompletionItemData(root: view.note.folder, path: target.path, uri: target.path == view.note.path ? uri : nil,
                                  anchor: anchor)
    }
}
