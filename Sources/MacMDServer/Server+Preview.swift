// `macmd/preview`: the rendered HTML of a note as it is now (the open buffer with unsaved edits,
// else the file on disk), with its title, outline and counts. NotebookIDE renders; this file
// checks the options, reads the file through the workspace's reader, and writes the answer's
// frame with the HTML escaped in pieces on the cores that rendered them.

import JSON
import JSONRPC
import LSPTypes
import Localization
import NotebookIDE
import NotebookWorkspace

extension Server {
    func preview(_ id: RequestID, _ params: PreviewParams) {
        let options: PreviewOptions
        switch FromLSP.previewOptions(params) {
        case .success(var parsed):
            parsed.locale = client.locale
            options = parsed
        case .failure(let error): return reply(id, .failure(error))
        }
        let uri = params.uri
        if let tag = params.tag {
            return tagPage(id, tag: tag, uri: uri, options: options)
        }
        // The document as the reader thread has it now: the preview shows this version.
        let document = state.withLock { $0.host.documents[uri] }
        let file = FileURI.path(of: uri)
        if document == nil && file == nil {
            return reply(id, .failure(FromLSP.invalid(LocalizedText("server.preview.unknownDocumentNotFile", .string(uri)))))
        }
        // During its notebook's first scan a note's links would show what the notes indexed so
        // far reach, and nothing renders the page again when the scan ends: it waits for the end.
        if answerAfterScan(id, of: uri, { [self] in preview(id, uri: uri, document: document, file: file, options: options) }) { return }
        preview(id, uri: uri, document: document, file: file, options: options)
    }

    /// The page of `tag` in the notebook of the document `uri` (after its first scan, so that it
    /// lists every note), and answers `id`.
    private func tagPage(_ id: RequestID, tag: String, uri: String, options: PreviewOptions) {
        let folder = state.withLock { state in
            (state.host.location(of: uri) ?? FileURI.path(of: uri).flatMap(state.host.workspace.locate(file:)))?.folder
        }
        guard let folder else {
            return reply(id, .failure(FromLSP.invalid(LocalizedText("server.preview.unknownDocumentNotFile", .string(uri)))))
        }
        let answer: @Sendable () -> Void = { [self] in
            scheduleParts(id) { [self, options] () -> Result<[[UInt8]], ResponseError> in
                let snapshot = state.withLock { $0.host.snapshot() }
                guard let (preview, pieces) = snapshot.tagPage(tag, folder: folder, options: options,
                                                               finishPiece: { JSON.escapedStringContents($0) }) else {
                    return .failure(FromLSP.invalid(LocalizedText("server.preview.unknownDocumentNotFile", .string(uri))))
                }
                let result = PreviewResult(uri: uri, version: nil, title: preview.title,
                                           headings: preview.headings.map { PreviewHeading(level: $0.level, text: $0.text, id: $0.id, line: $0.line) },
                                           wordCount: preview.wordCount, characterCount: preview.characterCount,
                                           readingTimeMinutes: preview.readingTimeMinutes, resources: [])
                return .success(Framing.responseParts(id: id, members: result.json.objectValue ?? [:], stringKey: "html", escapedPieces: pieces))
            }
        }
        if answerAfterScan(id, of: uri, answer) { return }
        answer()
    }

    /// Renders `document` (else the note `file` as it is on disk) and answers `id`.
    private func preview(_ id: RequestID, uri: String, document: OpenDocument?, file: String?, options: PreviewOptions) {
        scheduleParts(id) { [self, options] () -> Result<[[UInt8]], ResponseError> in
            let snapshot = state.withLock { $0.host.snapshot() }
            let analysis: DocumentAnalysis
            if let document {
                analysis = document.analysis
                // A note over the size limit is not read: nothing to show but why.
                if analysis.isOverSizeLimit, let limit = analysis.options.maximumSize {
                    return .failure(Server.overSizeLimit(analysis.text.count, limit: Int64(limit)))
                }
            } else if let file {
                switch fileAnalysis(file) {
                case .success(let read): analysis = read
                case .failure(let error): return .failure(error)
                }
            } else {
                return .failure(FromLSP.invalid(LocalizedText("server.preview.unknownDocument", .string(uri))))
            }
            let started = Server.monotonicSeconds()
            let (preview, pieces) = snapshot.preview(analysis, note: file.flatMap(snapshot.workspace.locate(file:)), file: file,
                                                     fileName: file ?? uri, options: options,
                                                     finishPiece: { JSON.escapedStringContents($0) })
            let rendered = Server.monotonicSeconds()
            // A newer version makes this result stale: the client will ask again.
            if let document, let current = state.withLock({ $0.host.documents[uri]?.version }), current != document.version {
                return .failure(ResponseError(code: ResponseError.contentModified,
                                              text: LocalizedText("server.preview.documentChanged", .string(String(document.version)), .string(String(current)))))
            }
            let result = PreviewResult(uri: uri, version: document?.version, title: preview.title,
                                       headings: preview.headings.map { PreviewHeading(level: $0.level, text: $0.text, id: $0.id, line: $0.line) },
                                       wordCount: preview.wordCount, characterCount: preview.characterCount,
                                       readingTimeMinutes: preview.readingTimeMinutes,
                                       resources: preview.resources.map(FileURI.uri(ofPath:)))
            let frame = Framing.responseParts(id: id, members: result.json.objectValue ?? [:], stringKey: "html", escapedPieces: pieces)
            // l10n-exempt: developer log
            logger.debug("preview \(uri): parse, render and escape \(Int((rendered - started) * 1e6)) µs (\(pieces.count) pieces), "
                         + "frame \(Int((Server.monotonicSeconds() - rendered) * 1e6)) µs")
            return .success(frame)
        }
    }
}
