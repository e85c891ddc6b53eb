// `textDocument/completion` and `completionItem/resolve`: NotebookIDE's engine over the
// notebook's completion index, as LSP items.
//
// Invariants:
// - Every item carries a `textEdit` whose range is exactly what the user typed since the
//   trigger (`[[`, `#`, `(`, …), plus `filterText` and `sortText`; the engine never inserts a
//   second `]]` or `)` when one follows, so no client doubles brackets.
// - The completion index is rebuilt only when notes or files come or go or a title or alias
//   changes; other edits refresh it (headings, tags) cheaply. It is kept per notebook.
// - Previews of notes, headings and blocks are filled in by `completionItem/resolve` from the
//   item's `data` (the target's notebook, path and heading or block), so a `[[` list of 200
//   items reads no file and parses nothing. Resolve reads the target's text as it is now: the
//   open buffer, else the file.

import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import TextCore

extension Server {
    /// The characters that start a completion.
    static let completionTriggers: JSONValue = ["[", "#", "(", "/", "^", "|"]

    func completion(id: RequestID, params: JSONValue?) {
        positionRequest(id: id, params: params) { [self] context, p in
            let offset = context.offset(p.position)
            guard let detected = CompletionContext.detect(text: context.text, cursor: offset) else {
                return .success(["isIncomplete": false, "items": []])
            }
            let sources = CompletionSources(workspace: completionWorkspace(context), currentNote: context.symbols, limit: 200)
            let list = CompletionEngine.complete(context: detected, in: context.location.path, sources: sources)
            var items: [JSONValue] = []
            items.reserveCapacity(list.items.count)
            for candidate in list.items {
                var item: [String: JSONValue] = [
                    "label": .string(candidate.label),
                    "kind": .int(Int64(Server.lspKind(candidate.kind))),
                    "textEdit": ["range": context.range(candidate.replace).json, "newText": .string(candidate.newText)],
                    "filterText": .string(candidate.filterText),
                    "sortText": .string(candidate.sortText),
                ]
                if let detail = candidate.detail { item["detail"] = .string(detail) }
                if let documentation = candidate.documentation {
                    item["documentation"] = ["kind": "markdown", "value": .string(documentation)]
                }
                if let target = candidate.target { item["data"] = Server.resolveData(target, in: context) }
                items.append(.object(item))
            }
            return .success(["isIncomplete": .bool(list.isIncomplete), "items": .array(items)])
        }
    }

    /// An item's `data`: where `completionItem/resolve` finds the target. The note's own buffer
    /// is named by its URI, since an `untitled:` buffer has no notebook path to find it by.
    static func resolveData(_ target: CompletionTarget, in context: NoteContext) -> JSONValue {
        var data: [String: JSONValue] = ["root": .string(context.location.root), "path": .string(target.path)]
        if target.path == context.location.path { data["uri"] = .string(context.uri) }
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
    static func resolveTarget(_ data: JSONValue?) -> (root: String, uri: String?, target: CompletionTarget)? {
        guard let root = data?["root"]?.stringValue, let path = data?["path"]?.stringValue else { return nil }
        let uri = data?["uri"]?.stringValue
        if let text = data?["heading"]?.stringValue {
            let index = data?["headingIndex"]?.intValue ?? -1
            return (root, uri, .heading(path: path, headingIndex: index, text: text))
        }
        if let id = data?["block"]?.stringValue { return (root, uri, .block(path: path, id: id)) }
        return (root, uri, .note(path: path))
    }

    /// `completionItem/resolve`: adds the preview of the note, heading or block an item links to
    /// (title, path and opening lines, of the section or block when it names one).
    func resolveCompletion(id: RequestID, params: JSONValue?) {
        guard case .object(let original)? = params else {
            reply(id, .failure(ResponseError(code: ResponseError.invalidParams, message: "params: expected a completion item")))
            return
        }
        schedule(id) { [self] in
            var item = original
            // Some clients send back `"documentation": null`: that is no documentation either.
            let documented = item["documentation"].map { $0 != .null } ?? false
            guard !documented, let (root, uri, target) = Server.resolveTarget(item["data"]) else {
                return .success(.object(item))
            }
            // The text as it is now: the item's own buffer, else the open buffer or file of the
            // note. `data` comes back from the client: only a note of that notebook is read, so
            // no path in it can make the server read another file.
            var source = uri.flatMap { uri in state.withLock { $0.documents[uri]?.text } }
            let indexed = state.withLock { $0.roots.first { $0.path == root }?.notebook.notes[target.path] }
            if source == nil, indexed != nil { source = text(of: NoteLocation(root: root, path: target.path))?.text }
            // Symbols of exactly this text, so the section and block ranges fit it.
            guard let note = source.map({ NotebookLoader.symbols(of: $0, path: target.path) }) ?? indexed else {
                return .success(.object(item))
            }
            item["documentation"] = ["kind": "markdown", "value": .string(target.documentation(note: note, source: source ?? []))]
            return .success(.object(item))
        }
    }

    /// The notebook's completion index, rebuilt or refreshed as its revisions say.
    func completionWorkspace(_ context: NoteContext) -> CompletionWorkspace {
        let root = context.root
        if let cached = root.completion, cached.catalogRevision == root.catalogRevision {
            if cached.revision == root.revision { return cached.workspace }
            let refreshed = cached.workspace.updating(from: root.notebook)
            store(refreshed, for: root)
            return refreshed
        }
        let built = CompletionWorkspace(notebook: root.notebook)
        store(built, for: root)
        return built
    }

    private func store(_ workspace: CompletionWorkspace, for root: NotebookRoot) {
        state.withLock { state in
            guard let index = state.roots.firstIndex(where: { $0.path == root.path }),
                  state.roots[index].revision == root.revision else { return }
            state.roots[index].completion = (workspace, root.catalogRevision, root.revision)
        }
    }

    static func lspKind(_ kind: CompletionCandidate.Kind) -> Int {
        switch kind {
        case .note, .alias, .file, .image: return 17        // File
        case .folder: return 19                            // Folder
        case .heading, .blockID, .referenceLabel: return 18 // Reference
        case .tag: return 14                               // Keyword
        case .frontMatterKey: return 10                    // Property
        case .frontMatterValue: return 12                  // Value
        }
    }
}
