// Outline requests (document symbols, folding ranges, workspace symbols) and code actions
// (table of contents, create the missing note). The work is NotebookIDE's and NotebookIndex's;
// this file converts to LSP.

import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import TextCore

extension Server {
    /// Runs a request on one whole document (`{textDocument: {uri}}`) with its context.
    func documentRequest(id: RequestID, params: JSONValue?,
                         _ work: @escaping @Sendable (NoteContext) -> Result<JSONValue, ResponseError>) {
        let uri: String
        do { uri = try DocumentParams(params).uri } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in noteContext(uri).flatMap(work) }
    }

    func documentSymbols(id: RequestID, params: JSONValue?) {
        documentRequest(id: id, params: params) { context in
            func json(_ symbol: OutlineSymbol) -> JSONValue {
                ["name": .string(symbol.name.isEmpty ? " " : symbol.name), "detail": .string(symbol.detail),
                 // String (15) for headings, as VS Code's Markdown support does; Namespace (3) for front matter.
                 "kind": symbol.kind == .heading ? 15 : 3,
                 "range": context.range(symbol.range).json, "selectionRange": context.range(symbol.selectionRange).json,
                 "children": .array(symbol.children.map(json))]
            }
            return .success(.array(DocumentOutline.symbols(for: context.symbols, source: context.text).map(json)))
        }
    }

    func foldingRanges(id: RequestID, params: JSONValue?) {
        documentRequest(id: id, params: params) { context in
            let tree = MarkdownParser.parse(context.text, options: .notebook)
            return .success(.array(FoldingRanges.compute(tree).map { range in
                ["startLine": .int(Int64(range.startLine)), "endLine": .int(Int64(range.endLine)), "kind": .string(range.kind.lspName)]
            }))
        }
    }

    /// `workspace/symbol`: notes (by title and path), headings and tags, ranked by fuzzy
    /// subsequence match; at most 200.
    func workspaceSymbols(id: RequestID, params: JSONValue?) {
        let query: String
        do { query = try ParamReader(params).field("query").string() } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in
            indexer.sync {}
            let (roots, encoding) = state.withLock { ($0.roots, $0.client.encoding) }
            enum Entry { case note(String, String), heading(String, String, HeadingSymbol), tag(String, String) }
            var entries: [(root: NotebookRoot, entry: Entry)] = []
            var candidates = FuzzyCandidates()
            for root in roots {
                for (path, note) in root.notebook.notes {
                    entries.append((root, .note(path, note.title)))
                    candidates.append(note.title == NoteSymbols.fileStem(of: path) ? path : note.title + " " + path)
                    for heading in note.headings {
                        entries.append((root, .heading(path, note.title, heading)))
                        candidates.append(heading.text)
                    }
                }
                for tag in root.notebook.tagUses.keys {
                    entries.append((root, .tag(tag, root.path)))
                    candidates.append("#" + tag)
                }
            }
            let matcher = FuzzyMatcher(query: query)
            var result: [JSONValue] = []
            var lineIndexes: [String: LineIndex] = [:]
            for match in matcher.rank(candidates, limit: 200) where match.index < entries.count {
                let (root, entry) = entries[match.index]
                switch entry {
                case .note(let path, let title):
                    result.append(["name": .string(title), "kind": 1, "containerName": .string(path),
                                   "location": ["uri": .string(FileURI.uri(ofPath: root.path + "/" + path))]])
                case .heading(let path, let title, let heading):
                    let key = root.path + "/" + path
                    if lineIndexes[key] == nil {
                        lineIndexes[key] = text(of: NoteLocation(root: root.path, path: path)).map { LineIndex(utf8: $0.text) } ?? LineIndex(utf8: [])
                    }
                    let lines = lineIndexes[key] ?? LineIndex(utf8: [])
                    let range = LSPRange(start: lines.lspPosition(ofUTF8Offset: Int(heading.range.start), encoding: encoding),
                                         end: lines.lspPosition(ofUTF8Offset: Int(heading.range.end), encoding: encoding))
                    result.append(["name": .string(heading.text), "kind": 15, "containerName": .string(title),
                                   "location": ["uri": .string(FileURI.uri(ofPath: key)), "range": range.json]])
                case .tag(let tag, _):
                    let count = root.notebook.tagUses[tag]?.count ?? 0
                    let first = root.notebook.tagUses[tag]?.min() ?? ""
                    result.append(["name": .string("#" + tag), "kind": 20, "containerName": .string("\(count) uses"),
                                   "location": ["uri": .string(FileURI.uri(ofPath: root.path + "/" + first))]])
                }
            }
            return .success(.array(result))
        }
    }

    /// Code actions: create the note a broken link names; insert or update the table of contents.
    func codeActions(id: RequestID, params: JSONValue?) {
        let p: DocumentRangeParams
        do { p = try DocumentRangeParams(params) } catch {
            reply(id, .failure(error))
            return
        }
        schedule(id) { [self] in
            noteContext(p.uri).map { context in
                var actions: [JSONValue] = []
                let start = context.offset(p.range.start)
                let end = context.offset(p.range.end)
                for link in context.symbols.links where Int(link.range.start) <= end && start <= Int(link.range.end) {
                    guard case .brokenNote(let target) = context.notebook.catalog.resolve(link, from: context.location.path),
                          !target.isEmpty, let action = createNoteAction(link, target: target, context) else { continue }
                    actions.append(action)
                }
                let tree = MarkdownParser.parse(context.text, options: .notebook)
                if let toc = TableOfContents.edit(tree: tree, note: context.symbols) {
                    let edit: JSONValue = ["changes": .object([context.uri: [["range": context.range(toc.range).json,
                                                                              "newText": .string(toc.newText)]]])]
                    actions.append(["title": .string(toc.isInsertion ? "Insert a table of contents" : "Update the table of contents"),
                                    "kind": "refactor.rewrite", "edit": edit])
                }
                return .array(actions)
            }
        }
    }

    /// A `CreateFile` for the note a broken link names, titled after it.
    func createNoteAction(_ link: LinkSymbol, target: String, _ context: NoteContext) -> JSONValue? {
        guard context.supportsDocumentChanges else { return nil }
        var path: String
        if link.form.isWiki {
            // `[[Greenhouse]]` becomes `Greenhouse.md` beside the linking note; `[[a/b]]` keeps its folder.
            let folder = target.contains("/") ? "" : NoteCatalog.folder(of: context.location.path)
            path = folder.isEmpty ? target : folder + "/" + target
        } else {
            path = target
        }
        if NoteCatalog.pathExtension(path) == nil { path += ".md" }
        let title = NoteSymbols.fileStem(of: path)
        let uri = FileURI.uri(ofPath: context.root.path + "/" + path)
        return ["title": .string("Create note `\(path)`"), "kind": "quickfix",
                "edit": ["documentChanges": [
                    ["kind": "create", "uri": .string(uri), "options": ["overwrite": false, "ignoreIfExists": true]],
                    ["textDocument": ["uri": .string(uri), "version": .null],
                     "edits": [["range": LSPRange(start: .init(line: 0, character: 0), end: .init(line: 0, character: 0)).json,
                                "newText": .string("# \(title)\n\n")]]],
                ]]]
    }
}
