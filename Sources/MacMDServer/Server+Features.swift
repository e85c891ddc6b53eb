// The requests about notes: each parses nothing and computes nothing of its own. It takes its
// document's view (`onDocument`), asks NotebookIDE, and converts the answer (`ToLSP`).

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

    func rename(_ id: RequestID, _ params: RenameParams) {
        onDocument(id, params.textDocument.uri, RenameRequest.self) { [self] view in
            let change: WorkspaceChange
            do throws(RenameError) {
                change = try view.rename(at: offset(params.position, in: view), to: params.newName)
            } catch {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: error.message.string(in: client.locale)))
            }
            let client = client
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            var annotation: (id: String, annotation: ChangeAnnotation)?
            if let question = change.confirmation {
                // A client that shows change annotations asks the writer itself; for the others
                // the first request is refused with the question, and the same rename again is
                // the yes.
                if client.supportsChangeAnnotations && client.supportsDocumentChanges {
                    annotation = ("macmd.confirm", ChangeAnnotation(label: convert.text(LocalizedText("rename.tag.mergeLabel")), needsConfirmation: true,
                                                                    description: convert.text(question)))
                } else if !confirmed(params) {
                    return .failure(ResponseError(code: ResponseError.invalidRequest,
                                                  text: LocalizedText("rename.tag.mergeAgain", .text(question))))
                }
            }
            let edit = convert.workspaceEdit(change, documentChanges: client.supportsDocumentChanges, annotation: annotation)
            // The edits are computed against the versions of the open notes in this snapshot: if
            // one of the notes they touch changed meanwhile, they would land in the wrong places.
            let touched = Set(change.steps.flatMap { step -> [String] in
                switch step {
                case .edit(let note, _), .create(let note): [convert.uri(note)]
                case .rename(let from, let to): [convert.uri(from), convert.uri(to)]
                }
            })
            let origin = params.textDocument.uri
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
    }

    /// Whether this rename was asked for, and refused for confirmation, less than a minute ago:
    /// then it is the writer's yes. Otherwise it is remembered as the question now pending.
    func confirmed(_ params: RenameParams) -> Bool {
        let key = "\(params.textDocument.uri)|\(params.position.line):\(params.position.character)|\(params.newName)"
        let now = Server.monotonicSeconds()
        return state.withLock { state in
            if let pending = state.pendingConfirmation, pending.key == key, now - pending.time < 60 {
                state.pendingConfirmation = nil
                return true
            }
            state.pendingConfirmation = (key, now)
            return false
        }
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

    /// Code actions: create the note a broken link names; insert or update the table of contents.
    func codeActions(_ id: RequestID, _ params: CodeActionParams) {
        onDocument(id, params.textDocument.uri, CodeActionRequest.self) { [self] view in
            let client = client
            var convert = ToLSP(view, uri: params.textDocument.uri, client: client)
            let actions = view.codeActions(start: offset(params.range.start, in: view), end: offset(params.range.end, in: view),
                                           canCreateFiles: client.supportsDocumentChanges)
            return .success(actions.compactMap { action in
                // Creating a file needs `documentChanges`; a text edit goes as plain `changes`.
                guard case .success(let edit) = convert.workspaceEdit(action.change, documentChanges: action.change.hasFileOperations) else { return nil }
                return CodeAction(title: convert.text(action.title), kind: ToLSP.codeActionKind(action.kind), edit: edit)
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
            let needsNotebook = CompletionContext.detect(text: analysis.text, cursor: offset) != nil
                || SnippetCompletion.needsSyntax(text: analysis.text, cursor: offset)
            if needsNotebook, answerAfterScan(id, of: uri, atMost: configuration.completionScanWaitSeconds, { [self] ended in
                completion(id, params, scanRunning: !ended)
            }) { return }
        }
        schedule(id, CompletionRequest.self) { [self] in
            let client = client
            let clock = Server.snippetClock()
            // The user's snippet folder is outside every notebook and watched by no one: a
            // completion has it read again when it changed (at most every two seconds), so a
            // snippet added there is offered from a keystroke or two on.
            checkUserSnippets()
            if let document {
                // Where nothing links, tags or names a path (a word at a line start, typed or
                // not), snippets are all there is: found from the text, so a keystroke there
                // does not parse the note again.
                let analysis = document.analysis
                let offset = FromLSP.offset(params.position, analysis.lines, client.encoding)
                if CompletionContext.detect(text: analysis.text, cursor: offset) == nil,
                   !SnippetCompletion.needsSyntax(text: analysis.text, cursor: offset) {
                    let snippets = state.withLock { $0.host.snapshot() }.snippetCompletion(
                        in: document, at: offset, clock: clock, languageCode: client.language, random: SnippetVariables.systemRandom,
                        snippetSupport: client.supportsSnippets, invoked: params.isInvoked, locale: client.locale)
                    return .success(completionList(snippets, isIncomplete: false) { ToLSP.range($0, analysis.lines, client.encoding) })
                }
            }
            return view(of: uri, document).map { view in
                let convert = ToLSP(view, uri: uri, client: client)
                let offset = offset(params.position, in: view)
                let list = view.completion(at: offset, locale: client.locale, limit: view.folder.configuration.maxCompletionItems)
                // Snippets where a word is typed at a line start or after white space (or every
                // one, asked for on an empty line); the notebook's and the user's first.
                let snippets = view.snippetCompletion(at: offset, snippets: view.snapshot.snippets.snippets(forFolder: view.isStandalone ? nil : view.note.folder),
                                                      variables: view.snippetVariables(clock: clock, languageCode: client.language,
                                                                                       random: SnippetVariables.systemRandom),
                                                      snippetSupport: client.supportsSnippets, invoked: params.isInvoked, locale: client.locale)
                return completionList(list.items + snippets, isIncomplete: list.isIncomplete || scanRunning == true, range: convert.range) {
                    Server.resolveData($0, view: view, uri: uri)
                }
            }
        }
    }

    /// Completion candidates as LSP items: snippets in snippet syntax when the client takes it.
    func completionList(_ candidates: [CompletionCandidate], isIncomplete: Bool, range: (ByteSpan) -> LSPRange,
                        data: (CompletionTarget) -> JSONValue? = { _ in nil }) -> LSPTypes.CompletionList {
        let supportsSnippets = client.supportsSnippets
        return LSPTypes.CompletionList(isIncomplete: isIncomplete, items: candidates.map { candidate in
            CompletionItem(label: candidate.label, kind: ToLSP.completionKind(candidate.kind), detail: candidate.detail,
                           documentation: candidate.documentation.map { MarkupContent(kind: .markdown, value: $0) },
                           sortText: candidate.sortText, filterText: candidate.filterText,
                           insertTextFormat: candidate.kind == .snippet && supportsSnippets ? .snippet : nil,
                           textEdit: LSPTypes.TextEdit(range: range(candidate.replace), newText: candidate.newText),
                           data: candidate.target.flatMap(data))
        })
    }

    /// Now, in the writer's time zone (`TZ`), for the date and time snippet variables.
    static func snippetClock() -> SnippetClock {
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        return SnippetClock(secondsSinceEpoch: Int64(now), utcOffsetSeconds: Int(local.tm_gmtoff))
    }

    /// An item's `data`: where `completionItem/resolve` finds the target. The note's own buffer
    /// is named by its URI, since a buffer that is not a file has no notebook path to find it by.
    static func resolveData(_ target: CompletionTarget, view: NoteView, uri: String) -> JSONValue {
        var data: [String: JSONValue] = ["root": .string(view.note.folder), "path": .string(target.path)]
        if target.path == view.note.path { data["uri"] = .string(uri) }
        switch target {
        case .note:
            break
        case .heading(_, let headingIndex, let text):
            data["headingIndex"] = .int(Int64(headingIndex))
            data["heading"] = .string(text)
        case .block(_, let id):
            data["block"] = .string(id)
        }
        return .object(data)
    }

    /// The target an item's `data` names (nil when it names none).
    static func resolveTarget(_ data: JSONValue?) -> (folder: String, uri: String?, target: CompletionTarget)? {
        guard let folder = data?["root"]?.stringValue, let path = data?["path"]?.stringValue else { return nil }
        let uri = data?["uri"]?.stringValue
        if let text = data?["heading"]?.stringValue {
            return (folder, uri, .heading(path: path, headingIndex: data?["headingIndex"]?.intValue ?? -1, text: text))
        }
        if let id = data?["block"]?.stringValue { return (folder, uri, .block(path: path, id: id)) }
        return (folder, uri, .note(path: path))
    }

    /// `completionItem/resolve`: adds the preview of the note, heading or block an item links to.
    /// `data` comes back from the client: only a note of that notebook (or the open buffer it
    /// names) is read, so no path in it can make the server read another file.
    func resolveCompletion(_ id: RequestID, _ item: EchoedCompletionItem) {
        schedule(id, CompletionItemResolveRequest.self) { [self] in
            // Some clients send back `"documentation": null`: that is no documentation either.
            guard !item.hasDocumentation, let (folder, uri, target) = Server.resolveTarget(item.data) else { return .success(item) }
            let snapshot = state.withLock { $0.host.snapshot() }
            guard let documentation = snapshot.completionDocumentation(target, folder: folder, document: uri) else { return .success(item) }
            var resolved = item
            resolved.members["documentation"] = MarkupContent(kind: .markdown, value: documentation).json
            return .success(resolved)
        }
    }
}
