// The editing requests: list continuation and the other keystroke edits
// (`textDocument/onTypeFormatting`), auto-pairing hints (`macmd/pairs`), table alignment
// (`textDocument/formatting`, `rangeFormatting`) and, with the option `macmd.textWidth`, prose
// filled to a width (`rangeFormatting` for `gq`). NotebookIDE decides; this file converts.
//
// Invariant: these read their document's text alone, never the notebook: they neither file the
// document nor take a snapshot, so a keystroke's answer costs the feature itself (a few lines
// read), not a parse of the note. Only formatting, which aligns every table, parses (once per
// version, shared with the other features).

import JSONRPC
import LSPTypes
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookWorkspace
import TextCore

extension Server {
    /// Runs a request about the text of the document `uri` on `workers`: the document as the
    /// reader thread has it now, or the file when it is not open.
    func onText<Request: ClientRequest>(_ id: RequestID, _ uri: String, _ request: Request.Type,
                                        _ work: @escaping @Sendable (DocumentAnalysis) -> Result<Request.Response, ResponseError>) {
        let document = state.withLock { $0.host.documents[uri] }
        schedule(id, request) {
            if let document { return work(document.analysis) }
            guard let file = FileURI.path(of: uri) else {
                return .failure(FromLSP.invalid(LocalizedText("server.document.notFileNorOpen", "params.textDocument.uri", .string(uri))))
            }
            return self.fileAnalysis(file).flatMap(work)
        }
    }

    /// A file that is not open, read for a request and parsed as its notebook's settings say;
    /// refused (RequestFailed, saying why) when it is larger than a note may be (`maxFileSize`).
    func fileAnalysis(_ file: String) -> Result<DocumentAnalysis, ResponseError> {
        let configuration = state.withLock { $0.host.workspace.configuration(forFile: file) }
        switch FileReader.snapshot(of: file, maxSize: configuration.maxFileSize) {
        case .read(let read): return .success(DocumentAnalysis(version: nil, text: read.bytes, options: configuration.parseOptions))
        case .tooLarge(let size): return .failure(Server.overSizeLimit(Int(clamping: size), limit: configuration.maxFileSize))
        case .failed(let error): return .failure(FromLSP.invalid(error.description))
        }
    }

    /// The refusal of a request about a note larger than its notebook lets a note be.
    static func overSizeLimit(_ size: Int, limit: Int64) -> ResponseError {
        ResponseError(code: ResponseError.requestFailed, text: LocalizedText("document.overLimit", .string(String(size)), .string(String(limit))))
    }

    /// The edits as LSP text edits, converted with the text they apply to.
    func textEdits(_ replacements: [TextReplacement], _ analysis: DocumentAnalysis) -> [LSPTypes.TextEdit] {
        let encoding = client.encoding
        return replacements.map {
            LSPTypes.TextEdit(range: ToLSP.range($0.span, analysis.lines, encoding), newText: $0.newText)
        }
    }

    func onTypeFormatting(_ id: RequestID, _ params: DocumentOnTypeFormattingParams) {
        onText(id, params.textDocument.uri, DocumentOnTypeFormattingRequest.self) { [self] analysis in
            let offset = FromLSP.offset(params.position, analysis.lines, client.encoding)
            let edits = OnTypeFormatting.edits(typed: params.character, at: offset, in: analysis.text)
            var lspEdits = textEdits(edits.replacements, analysis)
            if let index = edits.cursorBefore, lspEdits.indices.contains(index) { lspEdits[index].cursorBefore = true }
            return .success(lspEdits)
        }
    }

    func pairs(_ id: RequestID, _ params: TextDocumentPositionParams) {
        onText(id, params.textDocument.uri, MacMDPairsRequest.self) { [self] analysis in
            let hints = AutoPairing.pairs(at: FromLSP.offset(params.position, analysis.lines, client.encoding), in: analysis.text)
            return .success(PairsResult(context: hints.context.rawValue, language: hints.language,
                                        pairs: hints.pairs.map { AutoPairItem(open: $0.open, close: $0.close, kind: $0.kind.rawValue,
                                                                         withdrawOn: $0.withdrawOn.isEmpty ? nil : $0.withdrawOn) }))
        }
    }

    func formatting(_ id: RequestID, _ params: DocumentFormattingParams) {
        onText(id, params.textDocument.uri, DocumentFormattingRequest.self) { [self] analysis in
            .success(textEdits(TableFormatting.edits(for: analysis.tree), analysis))
        }
    }

    func rangeFormatting(_ id: RequestID, _ params: DocumentRangeFormattingParams) {
        onText(id, params.textDocument.uri, DocumentRangeFormattingRequest.self) { [self] analysis in
            let encoding = client.encoding
            let range = ByteSpan(FromLSP.offset(params.range.start, analysis.lines, encoding),
                                 FromLSP.offset(params.range.end, analysis.lines, encoding))
            var edits = TableFormatting.edits(for: analysis.tree, in: range)
            // `gq` (the option `macmd.textWidth`): the range's prose filled too.
            if let width = params.options.textWidth {
                edits = (edits + ProseWrapping.edits(for: analysis.tree, in: range, width: width)).sorted { $0.span.start < $1.span.start }
            }
            return .success(textEdits(edits, analysis))
        }
    }
}
