// `macmd/preview`: the rendered HTML of a note as it is now (the open buffer with unsaved edits,
// else the file on disk), with its title, outline and counts.

import Dispatch
import JSONRPC
import LSPTypes
import NotebookWorkspace
import MarkdownHTML
import MarkdownSyntax
import NotebookIDE
import TextCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum PreviewRequest {
    /// One value written by one `concurrentPerform` iteration and read after the join (which
    /// orders the write before the read).
    final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }

    static func invalid(_ message: String) -> ResponseError {
        ResponseError(code: ResponseError.invalidParams, message: message)
    }

    /// Reads a whole file; a message for the user on failure.
    static func readFile(_ path: String) -> Result<[UInt8], ResponseError> {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            return .failure(invalid("cannot read \(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(invalid("cannot read \(path): it is a directory"))
        }
        var result: [UInt8] = []
        if info.st_size > 0 { result.reserveCapacity(Int(info.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(invalid("cannot read \(path): \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return .success(result)
    }
}

extension Server {
    func preview(id: RequestID, params: JSONValue?) {
        let p: PreviewParams
        do { p = try PreviewParams(params) } catch {
            reply(id, .failure(error))
            return
        }
        var options = PreviewOptions()
        if let name = p.profile {
            guard let profile = ParseOptions.Profile(rawValue: name) else {
                reply(id, .failure(PreviewRequest.invalid(
                    "params.options.profile: expected commonmark, gfm or notebook, got \"\(name)\"")))
                return
            }
            options.profile = profile
        }
        let snapshot = state.withLock { $0.documents[p.uri] }
        if let requested = p.theme, PreviewTheme(rawValue: requested) == nil {
            reply(id, .failure(PreviewRequest.invalid(
                "params.options.theme: expected one of \(PreviewTheme.namesList), got \"\(requested)\"")))
            return
        }
        options.fullPage = p.fullPage ?? false
        options.sourceLines = p.sourceLines ?? true
        options.safe = p.safe ?? true
        let path = FileURI.path(of: p.uri)
        if snapshot == nil && path == nil {
            reply(id, .failure(PreviewRequest.invalid("unknown document \(p.uri): it is not open and not a file: URI")))
            return
        }
        scheduleFrame(id) { [self, options] () -> Result<[[UInt8]], ResponseError> in
            // The note's notebook: its configuration gives the theme a request does not name, and
            // its index where wiki-links point. An open note belongs to one (its own folder's,
            // outside every workspace folder); a file that is not open is not worth a scan.
            let location = locate(p.uri, creating: snapshot != nil)
            let root = location.flatMap { location in state.withLock { $0.roots.first { $0.path == location.root } } }
            let themeName = p.theme ?? root?.configuration.previewTheme ?? editorConfiguration().previewTheme
            let theme = PreviewTheme(rawValue: themeName) ?? .light
            let source: [UInt8]
            if let snapshot {
                source = snapshot.text
            } else if let path {
                switch PreviewRequest.readFile(path) {
                case .success(let bytes): source = bytes
                case .failure(let error): return .failure(error)
                }
            } else {
                return .failure(PreviewRequest.invalid("unknown document \(p.uri)"))
            }
            var html = HTMLOptions(safe: options.safe, sourceLines: options.sourceLines, headingIDs: true,
                                   collapseNestedStrong: options.profile != .commonmark, fullPage: options.fullPage)
            html.theme = theme
            html.highlightCode = true
            let t0 = Server.monotonicSeconds()
            // The parser uses one core; the line index (for the outline and the HTML's source
            // lines) needs only the bytes, so it is built on the other one meanwhile.
            let parsed = PreviewRequest.Box<SyntaxTree>()
            let lines = PreviewRequest.Box<LineIndex>()
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    parsed.value = parsedTree(uri: p.uri, version: snapshot?.version, profile: options.profile, source: source)
                } else {
                    lines.value = LineIndex(utf8: source)
                }
            }
            let tree = parsed.value ?? MarkdownParser.parse(source, options: ParseOptions(profile: options.profile))
            if let root, let location {
                // Once per distinct link, before the pieces are rendered on every core.
                html.wikiLinkDestinations = PreviewLinks.destinations(of: tree, notebook: root.notebook, notePath: location.path) {
                    FileReader.exists(root.absolutePath($0))
                }
            }
            let t1 = Server.monotonicSeconds()
            // Each piece of the HTML is escaped for JSON on the core that rendered it; the pieces
            // go into the frame as they are (see `Framing.responseParts`).
            let (preview, pieces) = PreviewBuilder.buildPieces(tree: tree, fileName: path ?? p.uri, html: html,
                                                               lines: lines.value,
                                                               finishPiece: { JSON.escapedStringContents($0) })
            let t2 = Server.monotonicSeconds()
            // A newer version makes this result stale: the client will ask again.
            if let snapshot, let current = currentVersion(of: p.uri), current != snapshot.version {
                return .failure(ResponseError(code: ResponseError.contentModified,
                                              message: "the document changed (version \(snapshot.version) -> \(current))"))
            }
            let members: [String: JSONValue] = [
                "uri": .string(p.uri),
                "version": snapshot.map { .int(Int64($0.version)) } ?? .null,
                "title": .string(preview.title),
                "headings": .array(preview.headings.map {
                    ["level": .int(Int64($0.level)), "text": .string($0.text), "id": .string($0.id), "line": .int(Int64($0.line))]
                }),
                "wordCount": .int(Int64(preview.wordCount)),
                "characterCount": .int(Int64(preview.characterCount)),
                "readingTimeMinutes": .int(Int64(preview.readingTimeMinutes)),
            ]
            let frame = Framing.responseParts(id: id, members: members, stringKey: "html", escapedPieces: pieces)
            let t3 = Server.monotonicSeconds()
            logger.debug("preview \(p.uri): parse \(Int((t1 - t0) * 1e6)) µs, render and escape \(Int((t2 - t1) * 1e6)) µs "
                         + "(\(pieces.count) pieces), frame \(Int((t3 - t2) * 1e6)) µs")
            return .success(frame)
        }
    }

    /// Like `schedule`, for work whose answer is a ready frame in parts (a preview, whose large
    /// HTML is escaped in pieces): runs `work` off the reader thread, answers -32800 if the client
    /// cancels first, and writes the frame's parts back to back through the serial writer.
    func scheduleFrame(_ id: RequestID, _ work: @escaping @Sendable () -> Result<[[UInt8]], ResponseError>) {
        state.withLock { _ = $0.inFlight.insert(id) }
        workers.async { [self] in
            if let workGate {
                workGate.wait()
                workGate.signal()
            }
            let cancelledBefore = state.withLock { $0.cancelled.contains(id) }
            let started = Server.monotonicSeconds()
            let result: Result<[[UInt8]], ResponseError> = cancelledBefore
                ? .failure(ResponseError(code: ResponseError.requestCancelled, message: "request cancelled"))
                : work()
            logger.debug("request \(id) computed in \(Int((Server.monotonicSeconds() - started) * 1_000_000)) µs")
            let cancelled = state.withLock { state -> Bool in
                state.inFlight.remove(id)
                return state.cancelled.remove(id) != nil
            }
            switch result {
            case .success(let parts) where !cancelled:
                let sendStart = Server.monotonicSeconds()
                connection.sendFrame(parts: parts)
                logger.debug("reply \(id) sent in \(Int((Server.monotonicSeconds() - sendStart) * 1e6)) µs")
            case .success:
                reply(id, .failure(ResponseError(code: ResponseError.requestCancelled, message: "request cancelled")))
            case .failure(let error):
                reply(id, .failure(cancelled ? ResponseError(code: ResponseError.requestCancelled, message: "request cancelled") : error))
            }
        }
    }

    /// The parsed tree of an open document's version, parsed once: repeated previews of the same
    /// text (refresh on save, another theme) skip the parse. Files read from disk are not kept.
    func parsedTree(uri: String, version: Int?, profile: ParseOptions.Profile, source: [UInt8]) -> SyntaxTree {
        if let version, let cached = state.withLock({ $0.parsedTrees[uri] }),
           cached.version == version, cached.profile == profile {
            return cached.tree
        }
        let tree = MarkdownParser.parse(source, options: ParseOptions(profile: profile))
        if let version {
            state.withLock { state in
                // Keep it only while that version is still the open one.
                if state.documents[uri]?.version == version {
                    state.parsedTrees[uri] = ParsedTree(version: version, profile: profile, tree: tree)
                }
            }
        }
        return tree
    }
}
