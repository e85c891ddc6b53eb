// Navigation and refactoring requests: definition, references, hover, rename, file renames,
// document links and code actions. The work is NotebookIndex's (pure, byte ranges); this file
// finds the note, waits for pending index jobs, and converts to LSP positions and URIs.
//
// Invariant: a request sees every edit sent before it. `indexer.sync {}` on the worker waits for
// the index jobs queued by earlier notifications, so the notebook holds the current text.

import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownSyntax
import NotebookIndex
import TextCore

/// Everything a request on one note reads, taken once.
struct NoteContext: Sendable {
    var location: NoteLocation
    var uri: String
    var text: [UInt8]
    var lines: LineIndex
    var symbols: NoteSymbols
    var root: NotebookRoot
    var encoding: PositionEncoding
    var supportsDocumentChanges: Bool

    var notebook: Notebook { root.notebook }

    func offset(_ position: LSPPosition) -> Int { lines.utf8Offset(of: position, encoding: encoding) }
    func range(_ span: ByteSpan) -> LSPRange {
        LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(span.start), encoding: encoding),
                 end: lines.lspPosition(ofUTF8Offset: Int(span.end), encoding: encoding))
    }
}

extension Server {
    /// The note of `uri` with its current symbols, after pending index jobs.
    func noteContext(_ uri: String) -> Result<NoteContext, ResponseError> {
        indexer.sync {}
        guard let location = locate(uri) else {
            // An open buffer that is not a file (`untitled:`) is a notebook of its own.
            guard let document = state.withLock({ $0.documents[uri] }) else {
                return .failure(ResponseError(code: ResponseError.invalidParams,
                                              message: "params.textDocument.uri: \(uri) is not a file URI and not an open document"))
            }
            let path = "untitled.md"
            let symbols = NotebookLoader.symbols(of: document.text, path: path)
            var notebook = Notebook()
            notebook.update(symbols)
            let (encoding, documentChanges) = state.withLock { ($0.client.encoding, $0.client.supportsDocumentChanges) }
            let root = NotebookRoot(path: "", resolvedPath: "", isSingleFolder: true, configuration: NotebookConfiguration(),
                                    notebook: notebook)
            return .success(NoteContext(location: NoteLocation(root: "", path: path), uri: uri, text: document.text,
                                        lines: LineIndex(utf8: document.text), symbols: symbols, root: root,
                                        encoding: encoding, supportsDocumentChanges: documentChanges))
        }
        guard let (text, _, _) = text(of: location) else {
            return .failure(ResponseError(code: ResponseError.invalidParams, message: "cannot read \(uri): it is not open and not on disk"))
        }
        let snapshot = state.withLock { state in
            (state.roots.first { $0.path == location.root }, state.client.encoding, state.client.supportsDocumentChanges,
             state.documents[uri].map { state.indexedVersions[uri] == $0.version } ?? true)
        }
        guard var root = snapshot.0 else {
            return .failure(ResponseError(code: ResponseError.invalidParams, message: "\(uri) is in no notebook"))
        }
        let symbols: NoteSymbols
        // A large note's re-index waits a little (see `scheduleIndexing`); until then its symbols
        // come from the text the request sees.
        if snapshot.3, let indexed = root.notebook.notes[location.path] {
            symbols = indexed
        } else {
            symbols = NotebookLoader.symbols(of: text, path: location.path)
            root.notebook.update(symbols)
        }
        return .success(NoteContext(location: location, uri: uri, text: text, lines: LineIndex(utf8: text), symbols: symbols,
                                    root: root, encoding: snapshot.1, supportsDocumentChanges: snapshot.2))
    }

    /// Runs a position request on the queue with its note's context.
    func positionRequest(id: RequestID, params: JSONValue?,
                         _ work: @escaping @Sendable (NoteContext, DocumentPositionParams) -> Result<JSONValue, ResponseError>) {
        let p: DocumentPositionParams
        do { p = try DocumentPositionParams(params) } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in noteContext(p.uri).flatMap { work($0, p) } }
    }

    /// LSP locations for source ranges in the context's notebook.
    func locations(_ ranges: [SourceRange], _ context: NoteContext) -> JSONValue {
        var lineIndexes: [String: LineIndex] = [context.location.path: context.lines]
        var result: [JSONValue] = []
        for item in ranges {
            let location = NoteLocation(root: context.location.root, path: item.path)
            if lineIndexes[item.path] == nil {
                lineIndexes[item.path] = text(of: location).map { LineIndex(utf8: $0.text) } ?? LineIndex(utf8: [])
            }
            let lines = lineIndexes[item.path] ?? LineIndex(utf8: [])
            let uri = item.path == context.location.path ? context.uri : state.withLock { Server.uri(of: location, state: $0) }
            let range = LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(item.range.start), encoding: context.encoding),
                                 end: lines.lspPosition(ofUTF8Offset: Int(item.range.end), encoding: context.encoding))
            result.append(["uri": .string(uri), "range": range.json])
        }
        return .array(result)
    }

    // MARK: Requests

    func definition(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { [self] context, p in
            guard let target = context.symbols.target(at: context.offset(p.position)) else { return .success(.null) }
            return .success(locations(context.notebook.definition(of: target, in: context.symbols), context))
        }
    }

    func references(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { [self] context, p in
            let target = context.symbols.target(at: context.offset(p.position))
            var found = context.notebook.references(of: target, in: context.symbols)
            if p.includeDeclaration {
                switch target {
                case .heading(let heading)?: found.insert(SourceRange(path: context.location.path, range: heading.range), at: 0)
                case .definition(let definition)?: found.insert(SourceRange(path: context.location.path, range: definition.range), at: 0)
                case .blockID(let block)?: found.insert(SourceRange(path: context.location.path, range: block.blockRange), at: 0)
                default: break
                }
            }
            return .success(locations(found, context))
        }
    }

    func hover(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { [self] context, p in
            let offset = context.offset(p.position)
            switch context.symbols.target(at: offset) {
            case .link(let link)?:
                guard let markdown = linkHover(link, context) else { return .success(.null) }
                return .success(["contents": ["kind": "markdown", "value": .string(markdown)], "range": context.range(link.range).json])
            case .tag(let tag)?:
                let uses = context.notebook.uses(ofTag: tag.name)
                let count = uses.values.reduce(0, +)
                let text = "`#\(tag.name)`: used \(count) \(count == 1 ? "time" : "times") in \(uses.count) \(uses.count == 1 ? "note" : "notes")"
                return .success(["contents": ["kind": "markdown", "value": .string(text)], "range": context.range(tag.range).json])
            default:
                return .success(.null)
            }
        }
    }

    /// The target's title, path and opening lines (of the linked section when a heading is named).
    func linkHover(_ link: LinkSymbol, _ context: NoteContext) -> String? {
        switch context.notebook.catalog.resolve(link, from: context.location.path) {
        case .note(let path, let heading, let block):
            guard let note = context.notebook.notes[path],
                  let (text, _, _) = self.text(of: NoteLocation(root: context.location.root, path: path)) else { return nil }
            var start = Int(note.frontMatter?.range.end ?? 0)
            if let heading { start = Int(heading.range.start) }
            if let block { start = Int(block.blockRange.start) }
            return "**\(note.title)** · `\(path)`\n\n" + Server.openingLines(text, from: start, lines: 8, maxBytes: 600)
        case .file(let path):
            return "`\(path)`" + (context.notebook.assets.contains(path) ? "" : " (missing)")
        case .brokenNote(let target):
            return "No note `\(target)`"
        case .brokenHeading(let note, let heading):
            return "No heading `\(heading)` in `\(note)`"
        case .brokenBlock(let note, let id):
            return "No block `^\(id)` in `\(note)`"
        case .ambiguous(let candidates):
            return "Ambiguous: " + candidates.map { "`\($0)`" }.joined(separator: ", ")
        case .external:
            return nil
        }
    }

    /// Up to `lines` non-blank lines from `start`, cut at `maxBytes` on a character boundary.
    static func openingLines(_ text: [UInt8], from start: Int, lines: Int, maxBytes: Int) -> String {
        var kept: [Substring] = []
        let tail = String(decoding: text[min(max(0, start), text.count)...], as: UTF8.self)
        var bytes = 0
        for line in tail.split(separator: "\n", omittingEmptySubsequences: true) where !line.allSatisfy(\.isWhitespace) {
            if kept.count == lines || bytes + line.utf8.count > maxBytes {
                if kept.isEmpty { kept.append(line.prefix(maxBytes / 4) + "…") }
                break
            }
            kept.append(line)
            bytes += line.utf8.count + 1
        }
        return kept.joined(separator: "\n")
    }

    func prepareRename(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { context, p in
            // The error says why the symbol under the cursor cannot be renamed, before the editor
            // asks for a new name.
            do throws(RenameError) {
                let (range, text) = try context.notebook.prepareRename(context.symbols.target(at: context.offset(p.position)),
                                                                       in: context.symbols)
                return .success(["range": context.range(range).json, "placeholder": .string(text)])
            } catch {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: error.message))
            }
        }
    }

    func rename(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { [self] context, p in
            guard let newName = p.newName else {
                return .failure(ResponseError(code: ResponseError.invalidParams, message: "params.newName: expected a string, got nothing"))
            }
            guard let target = context.symbols.target(at: context.offset(p.position)) else {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: "nothing to rename here: put the cursor on a heading, a tag, a link to a note or a reference label"))
            }
            do throws(RenameError) {
                let (edits, fileRename) = try context.notebook.rename(target, in: context.symbols, to: newName)
                return workspaceEdit(edits, renames: fileRename.map { [$0] } ?? [], context)
            } catch {
                return .failure(ResponseError(code: ResponseError.invalidRequest, message: error.message))
            }
        }
    }

    /// `workspace/willRenameFiles`: the link edits that keep the notebook true after the move.
    func willRenameFiles(id: RequestID, params: JSONValue?) {
        let p: FileOperationParams
        do { p = try FileOperationParams(params, renames: true) } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in
            indexer.sync {}
            var moves: [String: [(old: String, new: String)]] = [:]
            for file in p.files {
                guard let oldPath = file.old.flatMap(FileURI.path(of:)), let newPath = FileURI.path(of: file.new) else { continue }
                let (old, new, roots) = state.withLock { state in
                    (Server.locate(file: oldPath, in: state.roots), Server.locate(file: newPath, in: state.roots), state.roots)
                }
                guard let old, let new, old.root == new.root, let root = roots.first(where: { $0.path == old.root }) else { continue }
                if root.notebook.notes[old.path] != nil || root.notebook.assets.contains(old.path) {
                    moves[old.root, default: []].append((old.path, new.path))
                } else {
                    // A folder: everything under it moves.
                    let prefix = old.path + "/"
                    for path in Array(root.notebook.notes.keys) + Array(root.notebook.assets) where path.hasPrefix(prefix) {
                        moves[old.root, default: []].append((path, new.path + "/" + (String(path.utf8.dropFirst(prefix.utf8.count)) ?? "")))
                    }
                }
            }
            var changes: [String: JSONValue] = [:]
            for (rootPath, list) in moves {
                guard let root = state.withLock({ $0.roots.first { $0.path == rootPath } }) else { continue }
                let edits = root.notebook.moveEdits(list)
                let encoding = state.withLock { $0.client.encoding }
                for (path, group) in Dictionary(grouping: edits, by: \.path) {
                    let location = NoteLocation(root: rootPath, path: path)
                    guard let (text, _, uri) = text(of: location) else { continue }
                    let lines = LineIndex(utf8: text)
                    changes[uri] = .array(group.map { edit in
                        ["range": LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(edit.range.start), encoding: encoding),
                                           end: lines.lspPosition(ofUTF8Offset: Int(edit.range.end), encoding: encoding)).json,
                         "newText": .string(edit.newText)]
                    })
                }
            }
            return .success(changes.isEmpty ? .null : ["changes": .object(changes)])
        }
    }

    /// A WorkspaceEdit: text edits per note, then file renames (which need `documentChanges`).
    func workspaceEdit(_ edits: [NoteEdit], renames: [(old: String, new: String)], _ context: NoteContext) -> Result<JSONValue, ResponseError> {
        var perNote: [(uri: String, version: Int?, edits: [JSONValue])] = []
        for (path, group) in Dictionary(grouping: edits, by: \.path).sorted(by: { $0.key < $1.key }) {
            let location = NoteLocation(root: context.location.root, path: path)
            let current = path == context.location.path
                ? (context.text, state.withLock { $0.documents[context.uri]?.version }, context.uri) : text(of: location)
            guard let (text, version, uri) = current else { continue }
            let lines = LineIndex(utf8: text)
            perNote.append((uri, version, group.map { edit in
                ["range": LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(edit.range.start), encoding: context.encoding),
                                   end: lines.lspPosition(ofUTF8Offset: Int(edit.range.end), encoding: context.encoding)).json,
                 "newText": .string(edit.newText)]
            }))
        }
        if renames.isEmpty && !context.supportsDocumentChanges {
            return .success(["changes": .object(Dictionary(uniqueKeysWithValues: perNote.map { ($0.uri, JSONValue.array($0.edits)) }))])
        }
        guard context.supportsDocumentChanges else {
            return .failure(ResponseError(code: ResponseError.invalidRequest,
                                          message: "renaming a note renames its file, and this editor cannot rename files through LSP (workspaceEdit.documentChanges)"))
        }
        var changes: [JSONValue] = perNote.map { note in
            ["textDocument": ["uri": .string(note.uri), "version": note.version.map { .int(Int64($0)) } ?? .null],
             "edits": .array(note.edits)]
        }
        for (old, new) in renames {
            changes.append(["kind": "rename",
                            "oldUri": .string(FileURI.uri(ofPath: context.root.path + "/" + old)),
                            "newUri": .string(FileURI.uri(ofPath: context.root.path + "/" + new)),
                            "options": ["overwrite": false, "ignoreIfExists": false]])
        }
        return .success(["documentChanges": .array(changes)])
    }

    func documentLinks(id: RequestID, params: JSONValue?) {
        let uri: String
        do { uri = try DocumentParams(params).uri } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in
            noteContext(uri).map { context in
                var links: [JSONValue] = []
                for link in context.symbols.links where link.form != .autolink {
                    let target: String
                    switch context.notebook.catalog.resolve(link, from: context.location.path) {
                    case .note(let path, _, _):
                        if path == context.location.path && link.target.text.isEmpty { continue }
                        target = FileURI.uri(ofPath: context.root.path + "/" + path)
                    case .file(let path):
                        // A link to a file that is not there (a `broken-file`) leads nowhere.
                        guard context.notebook.assets.contains(path) || FileReader.exists(context.root.absolutePath(path)) else { continue }
                        target = FileURI.uri(ofPath: context.root.path + "/" + path)
                    default:
                        continue
                    }
                    let range = link.target.range.isEmpty || link.referenceLabel != nil ? link.range : link.target.range
                    links.append(["range": context.range(range).json, "target": .string(target)])
                }
                return .array(links)
            }
        }
    }
}
