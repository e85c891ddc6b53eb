// `textDocument/completion` and `completionItem/resolve`: NotebookIDE's engine over the
// notebook's completion index, as LSP items.
//
// Invariants:
// - Every item carries a `textEdit` whose range is exactly what the user typed since the
//   trigger (`[[`, `#`, `(`, …), plus `filterText` and `sortText`; the engine never inserts a
//   second `]]` or `)` when one follows, so no client doubles brackets.
// - The completion index is rebuilt only when notes or files come or go or a title or alias
//   changes; other edits refresh it (headings, tags) cheaply. It is kept per notebook.
// - Note previews are filled in by `completionItem/resolve`, so a `[[` list of 200 items reads
//   no files.

import JSONRPC
import LSPTypes
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
                } else if candidate.kind == .note || candidate.kind == .alias,
                          let path = Server.notePath(of: candidate, in: context) {
                    item["data"] = ["root": .string(context.location.root), "path": .string(path)]
                }
                items.append(.object(item))
            }
            return .success(["isIncomplete": .bool(list.isIncomplete), "items": .array(items)])
        }
    }

    /// The note a note or alias item inserts a link to, resolved as the link will be.
    static func notePath(of candidate: CompletionCandidate, in context: NoteContext) -> String? {
        var target = candidate.newText
        if let bar = target.firstIndex(of: "|") { target = String(target[..<bar]) }
        if target.hasSuffix("]]") { target.removeLast(2) }
        let link = LinkSymbol(form: .wikiLink, target: .init(text: target, range: .empty), range: .empty)
        if case .note(let path, _, _) = context.notebook.catalog.resolve(link, from: context.location.path) { return path }
        return nil
    }

    /// `completionItem/resolve`: adds the note's title and opening lines to a note item.
    func resolveCompletion(id: RequestID, params: JSONValue?) {
        guard case .object(let original)? = params else {
            reply(id, .failure(ResponseError(code: ResponseError.invalidParams, message: "params: expected a completion item")))
            return
        }
        schedule(id) { [self] in
            var item = original
            guard let root = item["data"]?["root"]?.stringValue, let path = item["data"]?["path"]?.stringValue else {
                return .success(.object(item))
            }
            let note = state.withLock { $0.roots.first { $0.path == root }?.notebook.notes[path] }
            if let note, let (text, _, _) = text(of: NoteLocation(root: root, path: path)) {
                item["documentation"] = ["kind": "markdown", "value": .string(HoverText.note(note, source: text))]
            }
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
