// The requests about notes: each parses nothing and computes nothing of its own. It takes its
// document's view (`onDocument`), asks NotebookIDE, and converts the answer (`ToLSP`).

import Dispatch
import JSON
import JSONRPC
import LSPTypes
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookWorkspace
import TextCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Server {
    /// The negotiated position encoding, and whether edits may create and rename files.
    var client: ClientInfo { state.withLock { $0.client } }

    /// The UTF-8 offset of an LSP position in the view's text.
    func offset(_ position: LSPPosition, in view: NoteView) -> Int {
        FromLSP.offset(position, view.lines, client.encoding)
    }

    // MARK: Navigation

    func definition(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onDocument(id, params.textDocument.uri, DefinitionRequest.self) { [self] view in
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            // A cursor on nothing is `null`; on a link that leads nowhere, no locations.
            return .success(view.definition(at: offset(params.position, in: view))?.map { convert.location($0) })
        }
    }

    func references(_ id: RequestID, _ params: ReferenceParams) {
        onDocument(id, params.textDocument.uri, ReferencesRequest.self) { [self] view in
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            let found = view.references(at: offset(params.position, in: view), includeDeclaration: params.context.includeDeclaration)
            return .success(found.map { convert.location($0) })
        }
    }

    func documentHighlight(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onDocument(id, params.textDocument.uri, DocumentHighlightRequest.self) { [self] view in
            guard let found = view.highlights(at: offset(params.position, in: view)) else { return .success(nil) }
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            return .success(found.map { DocumentHighlight(range: convert.range($0.span), kind: $0.isDeclaration ? .write : .read) })
        }
    }

    func selectionRanges(_ id: RequestID, _ params: SelectionRangeParams) {
        onDocument(id, params.textDocument.uri, SelectionRangeRequest.self) { [self] view in
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            return .success(params.positions.map { position in
                var result: SelectionRange? = nil
                for span in view.selectionRanges(at: offset(position, in: view)).reversed() {
                    result = SelectionRange(range: convert.range(span), parent: result)
                }
                return result ?? SelectionRange(range: LSPRange(start: position, end: position), parent: nil)
            })
        }
    }

    // MARK: Semantic tokens

    /// `textDocument/semanticTokens/full`: every token of the note.
    func semanticTokens(_ id: RequestID, _ params: SemanticTokensParams) {
        onDocument(id, params.textDocument.uri, SemanticTokensFullRequest.self) { [self] view in
            .success(ToLSP(view, uri: params.textDocument.uri, client: client).semanticTokens(view.semanticTokens()))
        }
    }

    /// `textDocument/semanticTokens/range`: the tokens that meet the range (whole: a token over
    /// several lines that begins above the range is sent from its start).
    func semanticTokens(_ id: RequestID, _ params: SemanticTokensRangeParams) {
        onDocument(id, params.textDocument.uri, SemanticTokensRangeRequest.self) { [self] view in
            let span = ByteSpan(offset(params.range.start, in: view), offset(params.range.end, in: view))
            return .success(ToLSP(view, uri: params.textDocument.uri, client: client).semanticTokens(view.semanticTokens(in: span)))
        }
    }

    /// Asks the client to ask for the semantic tokens of the notes it shows again, when one of
    /// `notes` is open: another note's change made their links reach something else (a note
    /// that appeared or went, a heading renamed), or the notebook's first scan ended. One
    /// request for the changes of a moment (`semanticTokensRefreshDelay`); none for a client that
    /// cannot take it or a server whose tokens are switched off.
    func refreshSemanticTokens(_ notes: some Sequence<NoteRef>) {
        scheduleRefresh(SemanticTokensRefreshRequest.self, after: Server.semanticTokensRefreshDelay) { state in
            state.client.supportsSemanticTokensRefresh && !state.disabledFeatures.contains(.semanticTokens)
                && notes.contains(where: { state.host.document(at: $0) != nil })
        }
    }

    /// Asks the client to ask again for the code lenses it shows (their counts follow the links
    /// of other notes), when it can be asked and lenses are on: once for every change within
    /// half a second, so typing sends at most two a second.
    func refreshCodeLenses() {
        scheduleRefresh(CodeLensRefreshRequest.self, after: .milliseconds(500)) { state in
            state.client.supportsCodeLensRefresh && !state.disabledFeatures.contains(.codeLens)
        }
    }

    /// Sends the refresh request `Request` after `delay`, once for every call made meanwhile
    /// that `wanted` (asked under the state's lock) agrees to.
    func scheduleRefresh<Request: ServerRequest>(_ request: Request.Type, after delay: DispatchTimeInterval,
                                                 if wanted: (State) -> Bool) where Request.Params == NoParams {
        let due = state.withLock { state in wanted(state) && state.refreshesDue.insert(Request.method).inserted }
        guard due else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            _ = state.withLock { $0.refreshesDue.remove(Request.method) }
            send(Request.self, NoParams()) { _ in }
        }
    }

    /// How long a refresh of semantic tokens waits for more changes to come with it: the
    /// notes a scan or a file event changes come in bursts.
    static let semanticTokensRefreshDelay = DispatchTimeInterval.milliseconds(50)

    // MARK: The graph (call hierarchy)

    func prepareCallHierarchy(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onDocument(id, params.textDocument.uri, CallHierarchyPrepareRequest.self) { [self] view in
            guard let node = view.graphNode(at: offset(params.position, in: view)) else { return .success(nil) }
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            return .success([convert.callHierarchyItem(node)])
        }
    }

    func incomingCalls(_ id: RequestID, _ params: CallHierarchyCallsParams) {
        onDocument(id, params.item.uri, CallHierarchyIncomingCallsRequest.self) { [self] view in
            guard let node = view.graphNode(view.note.path, heading: params.item.data?["heading"]?.stringValue) else { return .success([]) }
            var convert = ToLSP(view, uri: params.item.uri, client: client)
            return .success(view.incoming(to: node).map { edge in
                CallHierarchyIncomingCall(from: convert.callHierarchyItem(edge.node), fromRanges: edge.spans.map { convert.range($0, in: edge.node.note) })
            })
        }
    }

    func outgoingCalls(_ id: RequestID, _ params: CallHierarchyCallsParams) {
        onDocument(id, params.item.uri, CallHierarchyOutgoingCallsRequest.self) { [self] view in
            guard let node = view.graphNode(view.note.path, heading: params.item.data?["heading"]?.stringValue) else { return .success([]) }
            var convert = ToLSP(view, uri: params.item.uri, client: client)
            return .success(view.outgoing(from: node).map { edge in
                CallHierarchyOutgoingCall(to: convert.callHierarchyItem(edge.node), fromRanges: edge.spans.map { convert.range($0, in: node.note) })
            })
        }
    }

    /// The lenses of a note, each with what names it again in `codeLens/resolve` (`data`: the
    /// note's URI and the heading), its command left to that request.
    func codeLenses(_ id: RequestID, _ params: TextDocumentParams) {
        onDocument(id, params.textDocument.uri, CodeLensRequest.self) { [self] view in
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            return .success(view.referenceLenses().map { lens in
                var data: [String: JSONValue] = ["uri": .string(params.textDocument.uri)]
                if let heading = lens.heading { data["heading"] = .string(heading) }
                return CodeLens(range: convert.range(lens.span), data: .object(data))
            })
        }
    }

    /// A lens's count and command: `macmd.showReferences` with the arguments of VS Code's
    /// `editor.action.showReferences` (the note's URI, the lens's position, the places).
    func resolveCodeLens(_ id: RequestID, _ lens: CodeLens) {
        guard let uri = lens.data?["uri"]?.stringValue else {
            reply(id, .success(lens.json))
            return
        }
        onDocument(id, uri, CodeLensResolveRequest.self) { [self] view in
            var convert = ToLSP(view, uri: uri, client: client)
            let mentions = state.withLock { !$0.disabledFeatures.contains(.unlinkedMentions) }
            let found = view.lensReferences(heading: lens.data?["heading"]?.stringValue, mentions: mentions)
            var title = convert.text(LocalizedText("lens.backlinks", .integer(found.backlinks.count)))
            if !found.unlinkedMentions.isEmpty {
                title += " · " + convert.text(LocalizedText("lens.unlinkedMentions", .integer(found.unlinkedMentions.count)))
            }
            let places = (found.backlinks + found.unlinkedMentions).map { convert.location($0).json }
            var resolved = lens
            resolved.command = Command(title: title, command: "macmd.showReferences",
                                       arguments: [.string(uri), lens.range.start.json, .array(places)])
            return .success(resolved)
        }
    }

    func hover(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onDocument(id, params.textDocument.uri, HoverRequest.self) { [self] view in
            guard let hover = view.hover(at: offset(params.position, in: view)) else { return .success(nil) }
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            let markdown = convert.text(hover.markdown)
            let contents = client.wantsPlainTextHover ? MarkupContent(kind: .plainText, value: PlainHover.text(of: markdown))
                : MarkupContent(kind: .markdown, value: markdown)
            return .success(Hover(contents: contents, range: convert.range(hover.span)))
        }
    }

    func documentLinks(_ id: RequestID, _ params: DocumentLinkParams) {
        onDocument(id, params.textDocument.uri, DocumentLinkRequest.self) { [self] view in
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            return .success(view.documentLinks().map { link in
                DocumentLink(range: convert.range(link.span),
                             target: FileURI.uri(ofPath: view.folder.clientPath(link.target.path)))
            })
        }
    }

    func documentSymbols(_ id: RequestID, _ params: DocumentSymbolParams) {
        onDocument(id, params.textDocument.uri, DocumentSymbolRequest.self) { [self] view in
            let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            func symbol(_ entry: OutlineSymbol) -> DocumentSymbol {
                let name = convert.text(entry.name)
                return DocumentSymbol(name: name.isEmpty ? " " : name, detail: entry.detail, kind: ToLSP.symbolKind(entry.kind),
                                      range: convert.range(entry.range), selectionRange: convert.range(entry.selectionRange),
                                      children: entry.children.map(symbol))
            }
            return .success(view.outline().map(symbol))
        }
    }

    func foldingRanges(_ id: RequestID, _ params: FoldingRangeParams) {
        onDocument(id, params.textDocument.uri, FoldingRangeRequest.self) { view in
            .success(view.foldingRanges().map {
                LSPTypes.FoldingRange(startLine: $0.startLine, endLine: $0.endLine, kind: ToLSP.foldingKind($0.kind))
            })
        }
    }

    /// `workspace/symbol`: notes, headings and tags of every notebook; at most 200.
    func workspaceSymbols(_ id: RequestID, _ params: WorkspaceSymbolParams) {
        schedule(id, WorkspaceSymbolRequest.self) { [self] in
            var convert = ToLSP(state.withLock { $0.host.snapshot() }, client: client)
            return .success(convert.snapshot.workspaceSymbols(matching: params.query).map { found in
                WorkspaceSymbol(name: found.name, kind: ToLSP.symbolKind(found.kind), containerName: convert.text(found.containerName),
                                uri: convert.uri(found.note), range: found.span.map { convert.range($0, in: found.note) })
            })
        }
    }

    // MARK: Refactoring

    func prepareRename(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onDocument(id, params.textDocument.uri, PrepareRenameRequest.self) { [self] view in
            // The error says why the symbol under the cursor cannot be renamed, before the editor
            // asks for a new name.
            do throws(RenameError) {
                let (span, placeholder) = try view.prepareRename(at: offset(params.position, in: view))
                let convert = ToLSP(view, uri: params.textDocument.uri, client: client)
                return .success(PrepareRenameResult(range: convert.range(span), placeholder: placeholder))
            } catch {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: error.message.string(in: client.locale)))
            }
        }
    }

    /// `textDocument/rename`. A rename that needs the writer's yes (a tag merged into another)
    /// asks it as the protocol allows: edits marked `needsConfirmation` for a client that shows
    /// change annotations; else `window/showMessageRequest`, answered when the writer chooses
    /// (no choice, or "no", is no edit: `null`); else the question comes back as the error,
    /// with the name that says yes ahead (`ChangeConfirmation.confirmingName`). A rename asked
    /// again is asked again: repeating a request is never a yes.
    func rename(_ id: RequestID, _ params: RenameParams) {
        let uri = params.textDocument.uri
        let document = state.withLock { $0.host.documents[uri] }
        scheduleDeferrable(id, RenameRequest.self) { [self] answer in
            let view: NoteView
            switch self.view(of: uri, document) {
            case .success(let found): view = found
            case .failure(let error): return .failure(error)
            }
            let change: WorkspaceChange
            do throws(RenameError) {
                change = try view.rename(at: offset(params.position, in: view), to: params.newName)
            } catch {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: error.message.string(in: client.locale)))
            }
            let client = client
            let text = { (text: LocalizedText) in text.string(in: client.locale) }
            guard let confirmation = change.confirmation else { return renameEdit(change, view: view, uri: uri, annotation: nil) }
            if client.supportsChangeAnnotations && client.supportsDocumentChanges {
                let annotation = ChangeAnnotation(label: text(confirmation.yes), needsConfirmation: true,
                                                  description: text(confirmation.question))
                return renameEdit(change, view: view, uri: uri, annotation: ("macmd.confirm", annotation))
            }
            guard client.supportsShowMessageRequest else {
                return .failure(ResponseError(code: ResponseError.invalidRequest, text: confirmation.refusal))
            }
            let yes = MessageActionItem(title: text(confirmation.yes))
            let question = ShowMessageRequestParams(type: .warning, message: text(confirmation.question),
                                                    actions: [yes, MessageActionItem(title: text(confirmation.no))])
            send(ShowMessageRequest.self, question) { [self] choice in
                workers.async { [self] in
                    switch choice {
                    case .success(let chosen?) where chosen == yes:
                        answer(renameEdit(change, view: view, uri: uri, annotation: nil))
                    case .success:
                        answer(.success(nil))
                    case .failure:
                        // A client that says it answers and then cannot: the question as the error.
                        answer(.failure(ResponseError(code: ResponseError.invalidRequest, text: confirmation.refusal)))
                    }
                }
            }
            return nil
        }
    }

    /// The edit of a rename, unless a note it touches changed since the view was taken: the
    /// edits would then land in the wrong places.
    func renameEdit(_ change: WorkspaceChange, view: NoteView, uri origin: String,
                    annotation: (id: String, annotation: ChangeAnnotation)?) -> Result<WorkspaceEdit?, ResponseError> {
        let client = client
        var convert = ToLSP(view, uri: origin, client: client)
        let edit = convert.workspaceEdit(change, documentChanges: client.supportsDocumentChanges, annotation: annotation)
        let touched = Set(change.steps.flatMap { step -> [String] in
            switch step {
            case .edit(let note, _), .create(let note): [convert.uri(note)]
            case .rename(let from, let to): [convert.uri(from), convert.uri(to)]
            }
        })
        let changed = state.withLock { state in
            touched.sorted().first { uri in
                let used = uri == origin ? view.analysis.version : view.snapshot.documents[uri]?.analysis.version
                return used != state.host.documents[uri]?.analysis.version
            }
        }
        if let changed {
            return .failure(ResponseError(code: ResponseError.contentModified,
                                          text: LocalizedText("server.rename.documentChanged", .string(changed))))
        }
        return edit.map { $0 }
    }

    /// `workspace/willRenameFiles`: the link edits that keep the notebooks true after the move.
    func willRenameFiles(_ id: RequestID, _ params: RenameFilesParams) {
        schedule(id, WillRenameFilesRequest.self) { [self] in
            let moves = params.files.compactMap { file -> (old: String, new: String)? in
                guard let old = FileURI.path(of: file.oldURI), let new = FileURI.path(of: file.newURI) else { return nil }
                return (old, new)
            }
            var convert = ToLSP(state.withLock { $0.host.snapshot() }, client: client)
            let change = convert.snapshot.moveEdits(moves)
            if change.isEmpty { return .success(nil) }
            return convert.workspaceEdit(change, documentChanges: false).map { $0 }
        }
    }

    /// Code actions: create the note a broken link names; insert or update the table of contents;
    /// link unlinked mentions (unless `features.unlinkedMentions` is off). A mention action goes
    /// without its edit to a client that resolves actions: its `data` names it and fingerprints
    /// the texts its edit was made from (`codeAction/resolve` makes it again, or refuses).
    func codeActions(_ id: RequestID, _ params: CodeActionParams) {
        let mentions = state.withLock { !$0.disabledFeatures.contains(.unlinkedMentions) }
        onDocument(id, params.textDocument.uri, CodeActionRequest.self) { [self] view in
            let client = client
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            let actions = view.codeActions(start: offset(params.range.start, in: view), end: offset(params.range.end, in: view),
                                           canCreateFiles: client.supportsDocumentChanges, mentions: mentions)
            return .success(actions.compactMap { action in
                if let mention = action.mention, client.supportsCodeActionResolve {
                    return CodeAction(title: convert.text(action.title), kind: ToLSP.codeActionKind(action.kind),
                                      data: ToLSP.mentionActionData(mention, uri: params.textDocument.uri))
                }
                return codeAction(action, convert: &convert)
            })
        }
    }

    /// The LSP action of `action`, with its edit: versioned `documentChanges` when it creates
    /// files or edits notes by their text as read (a mention action, so the editor refuses it
    /// for a buffer that moved on), where the client takes them; else plain `changes`.
    func codeAction(_ action: CodeActionResult, convert: inout ToLSP) -> CodeAction? {
        let versioned = action.change.hasFileOperations || (action.mention != nil && client.supportsDocumentChanges)
        guard case .success(let edit) = convert.workspaceEdit(action.change, documentChanges: versioned) else { return nil }
        return CodeAction(title: convert.text(action.title), kind: ToLSP.codeActionKind(action.kind), edit: edit)
    }

    /// `codeAction/resolve`: the edit of a mention action, made anew; refused (ContentModified)
    /// when a note it edits changed since the action was offered (its fingerprint differs), or
    /// the mention is gone. An action MacMD did not send comes back as it is.
    func resolveCodeAction(_ id: RequestID, _ echoed: EchoedCodeAction) {
        guard let (uri, kind, fingerprint) = FromLSP.mentionAction(echoed.data) else {
            reply(id, .success(echoed.json))
            return
        }
        let document = state.withLock { $0.host.documents[uri] }
        schedule(id, CodeActionResolveRequest.self) { [self] in
            let view: NoteView
            switch self.view(of: uri, document) {
            case .success(let found): view = found
            case .failure(let error): return .failure(error)
            }
            guard let action = view.mentionAction(kind), action.mention?.fingerprint == fingerprint else {
                return .failure(ResponseError(code: ResponseError.contentModified, text: LocalizedText("server.mention.changed", .string(uri))))
            }
            var convert = ToLSP(view, uri: uri, client: client)
            guard let made = codeAction(action, convert: &convert), let edit = made.edit else {
                return .failure(ResponseError(code: ResponseError.contentModified, text: LocalizedText("server.mention.changed", .string(uri))))
            }
            var resolved = echoed
            resolved.setEdit(edit)
            return .success(resolved)
        }
    }

    // MARK: Unlinked mentions

    /// `macmd/unlinkedMentions`: the places in the other notes whose plain text names the note,
    /// each with the line it is on. Asked while the notebook's first scan runs, it waits for the
    /// scan's end: from part of the notebook the answer would miss mentions.
    func unlinkedMentions(_ id: RequestID, _ params: TextDocumentParams) {
        let uri = params.textDocument.uri
        if answerAfterScan(id, of: uri, { [self] in unlinkedMentions(id, params) }) { return }
        onDocument(id, uri, MacMDUnlinkedMentionsRequest.self) { [self] view in
            let convert = ToLSP(view, uri: uri, client: client)
            var result: [UnlinkedMention] = []
            for found in view.unlinkedMentions() {
                let lines = found.analysis.lines
                let text = found.analysis.text
                let mentionURI = convert.uri(found.note)
                for mention in found.mentions {
                    let line = lines.lineRange(lines.line(containingUTF8Offset: Int(mention.range.start)))
                    result.append(UnlinkedMention(uri: mentionURI, range: ToLSP.range(mention.range, lines, convert.encoding),
                                                  text: String(decoding: text[line.clamped(to: text.indices)], as: UTF8.self)))
                }
            }
            return .success(result)
        }
    }

    /// `macmd/statistics`: the words, characters, paragraphs and reading time of the note, or
    /// of the selection `range`, as it is now (an open document's text, else the file's).
    func statistics(_ id: RequestID, _ params: StatisticsParams) {
        onDocument(id, params.textDocument.uri, MacMDStatisticsRequest.self) { [self] view in
            let range = params.range.map { offset($0.start, in: view)..<max(offset($0.start, in: view), offset($0.end, in: view)) }
            var options = TextStatistics.Options()
            if let code = params.code { options.code = code }
            if let urls = params.urls { options.urls = urls }
            if let frontMatter = params.frontMatter { options.frontMatter = frontMatter }
            let counted = TextStatistics(tree: view.analysis.tree, range: range, options: options)
            return .success(Statistics(words: counted.words, characters: counted.characters,
                                       charactersWithoutSpaces: counted.charactersWithoutSpaces, paragraphs: counted.paragraphs,
                                       readingSeconds: counted.readingSeconds))
        }
    }

    /// `macmd/search`: the notes of every notebook holding the query's words, best first
    /// (`AnalysisSnapshot.search`); `matches` in the excerpt's units of the negotiated encoding.
    /// Asked while a notebook's first scan runs, it is answered when the scan ends (as
    /// unlinked mentions are): a search of half a notebook would miss notes without saying so.
    func search(_ id: RequestID, _ params: SearchParams) {
        let waits = state.withLock { state -> Bool in
            guard let folder = state.host.workspace.folders.first(where: { $0.scan == .pending || $0.scan == .running }) else { return false }
            state.awaitingScan[folder.path, default: []].append { [self] in search(id, params) }
            state.inFlight.insert(id)
            return true
        }
        if waits { return }
        schedule(id, MacMDSearchRequest.self) { [self] in
            let convert = ToLSP(state.withLock { $0.host.snapshot() }, client: client)
            let limit = min(max(params.limit ?? 50, 0), 1000)
            let unit = convert.encoding.columnUnit
            return .success(convert.snapshot.search(params.query, limit: limit).map { hit in
                let excerpt = LineIndex(hit.excerpt)
                let matches = hit.matches.map { match in
                    SearchMatch(start: excerpt.lineColumn(ofUTF8Offset: match.lowerBound, unit: unit).column,
                                end: excerpt.lineColumn(ofUTF8Offset: match.upperBound, unit: unit).column)
                }
                return SearchResult(uri: convert.uri(hit.note), range: ToLSP.range(hit.range, hit.analysis.lines, convert.encoding),
                                    title: hit.title, excerpt: hit.excerpt, score: hit.score, matches: matches)
            })
        }
    }

    // MARK: Completion

    func completion(_ id: RequestID, _ params: CompletionParams) {
        completion(id, params, scanRunning: nil)
    }

    /// `scanRunning`: nil on the first call; once the request has waited for the scan, whether
    /// the scan was still running when the wait ended.
    func completion(_ id: RequestID, _ params: CompletionParams, scanRunning: Bool?) {
        let uri = params.textDocument.uri
        let document = state.withLock { $0.host.documents[uri] }
        // A link, tag or front-matter completion asked while the notebook's first scan runs (the
        // first moments after start-up) waits for it, a second at most
        // (`completionScanWaitSeconds`): answered from the notes indexed so far it would offer
        // few or none of them.
        if scanRunning == nil, let document {
            let analysis = document.analysis
            let offset = FromLSP.offset(params.position, analysis.lines, client.encoding)
            if AnalysisSnapshot.completionNeedsNotebook(text: analysis.text, at: offset), answerAfterScan(id, of: uri, atMost: configuration.completionScanWaitSeconds, { [self] ended in
                completion(id, params, scanRunning: !ended)
            }) { return }
        }
        schedule(id, CompletionRequest.self) { [self] in
            let client = client
            // The user's snippet folder is outside every notebook and watched by no one: a
            // completion has it read again when it changed (at most every two seconds), so a
            // snippet added there is offered from a keystroke or two on.
            checkUserSnippets()
            let encoding = client.encoding
            let query = CompletionQuery(offset: { FromLSP.offset(params.position, $0, encoding) }, invoked: params.isInvoked,
                                        snippetSupport: client.supportsSnippets, locale: client.locale,
                                        languageCode: client.language, clock: Server.snippetClock(),
                                        notebookIncomplete: scanRunning == true)
            let snapshot = state.withLock { $0.host.snapshot() }
            return snapshot.completion(in: document, query) { view(of: uri, document) }.map { answer in
                completionList(answer, uri: uri)
            }
        }
    }

    /// Completion candidates as LSP items: snippets in snippet syntax when the client takes it;
    /// an item that links somewhere carries its target in `data` for `completionItem/resolve`.
    func completionList(_ answer: CompletionAnswer, uri: String) -> LSPTypes.CompletionList {
        let client = client
        return LSPTypes.CompletionList(isIncomplete: answer.isIncomplete, items: answer.items.map { candidate in
            CompletionItem(label: candidate.label, kind: ToLSP.completionKind(candidate.kind), detail: candidate.detail,
                           documentation: candidate.documentation.map { MarkupContent(kind: .markdown, value: $0) },
                           sortText: candidate.sortText, filterText: candidate.filterText,
                           insertTextFormat: candidate.kind == .snippet && client.supportsSnippets ? .snippet : nil,
                           textEdit: LSPTypes.TextEdit(range: ToLSP.range(candidate.replace, answer.lines, client.encoding),
                                                       newText: candidate.newText),
                           data: candidate.target.flatMap { target in answer.view.map { ToLSP.completionData(target, view: $0, uri: uri) } })
        })
    }

    /// Now, in the writer's time zone (`TZ`), for the date and time snippet variables.
    static func snippetClock() -> SnippetClock {
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        return SnippetClock(secondsSinceEpoch: Int64(now), utcOffsetSeconds: Int(local.tm_gmtoff))
    }

    /// `completionItem/resolve`: adds the preview of the note, heading or block an item links to.
    /// `data` comes back from the client: only a note of that notebook (or the open buffer it
    /// names) is read, so no path in it can make the server read another file.
    func resolveCompletion(_ id: RequestID, _ item: EchoedCompletionItem) {
        schedule(id, CompletionItemResolveRequest.self) { [self] in
            // Some clients send back `"documentation": null`: that is no documentation either.
            guard !item.hasDocumentation, let data = item.data else { return .success(item) }
            let (folder, uri, target) = FromLSP.completionTarget(data)
            let snapshot = state.withLock { $0.host.snapshot() }
            guard let documentation = snapshot.completionDocumentation(target, folder: folder, document: uri) else { return .success(item) }
            var resolved = item
            resolved.members["documentation"] = MarkupContent(kind: .markdown, value: documentation).json
            return .success(resolved)
        }
    }
}
