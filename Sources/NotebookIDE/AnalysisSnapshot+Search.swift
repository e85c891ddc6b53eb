// Full-text search (`macmd/search`, `macmd search`): the notes of every notebook that hold a
// query's words, best first, each with the place that matches best and an excerpt around it.
//
// Invariants:
// - Pure: the notebooks rank (an open document's unfiled text filed into the request's copy) (`Notebook.search`, BM25 over their inverted indexes); only the
//   notes ranked first are read (an open document's text, else the disk's), to check phrases
//   and to cut excerpts, and never parsed.
// - At most `limit` hits, best first; ties by notebook and path.
// - Offsets are UTF-8: `range` in the note's text, `matches` in the excerpt's bytes (the server
//   turns them into UTF-16).
// - An excerpt is one line of at most about `excerptLength` bytes, cut at characters (never
//   inside a UTF-8 sequence), its line breaks and tabs turned into spaces; `…` marks a cut.

import NotebookIndex
import NotebookWorkspace
import TextCore

/// A note a full-text query found.
public struct SearchHit: Sendable {
    public var note: NoteRef
    /// The note's title.
    public var title: String
    /// Where the best match is, in the note's text (UTF-8; empty at 0 when only filters matched).
    public var range: ByteSpan
    /// The text around the best match, on one line.
    public var excerpt: String
    /// The matched words inside `excerpt`, as UTF-8 offsets of the excerpt, in order.
    public var matches: [Range<Int>]
    /// The BM25 score (0 when only filters matched).
    public var score: Double
    /// The text read (an open document's version, or the disk's): what `range` is in.
    public var analysis: DocumentAnalysis
}

extension AnalysisSnapshot {
    /// About how long an excerpt is, in UTF-8 bytes.
    public static let excerptLength = 160

    /// The notes of every notebook matching `query` (see `SearchQuery`), best first.
    public func search(_ query: String, limit: Int = 50) -> [SearchHit] {
        let parsed = SearchQuery(query)
        guard limit > 0, !parsed.isEmpty else { return [] }
        var hits: [SearchHit] = []
        for var folder in workspace.folders {
            // An open document's latest text may not be filed yet: it wins, in this copy alone
            // (as a view's own note does, `NoteView`).
            for (note, id) in openNotes where note.folder == folder.path {
                guard let symbols = documents[id]?.analysis.symbols(path: note.path), folder.notebook.notes[note.path] != symbols else { continue }
                folder.update(document: symbols)
            }
            _ = folder.notebook.search(parsed, limit: limit) { candidate in
                let note = NoteRef(folder: folder.path, path: candidate.path)
                guard let analysis = source(of: note), parsed.holdsEveryPhrase(analysis.text) else { return false }
                let matches = parsed.matches(in: analysis.text)
                guard matches.hasEveryPhrase else { return false }
                let title = folder.notebook.notes[candidate.path]?.title ?? ""
                hits.append(AnalysisSnapshot.hit(note: note, title: title, analysis: analysis, matches: matches, score: candidate.score))
                return true
            }
        }
        hits.sort { $0.score != $1.score ? $0.score > $1.score : $0.note < $1.note }
        return Array(hits.prefix(limit))
    }

    /// The hit of a note whose text `analysis` holds `matches`: the best place and its excerpt.
    static func hit(note: NoteRef, title: String, analysis: DocumentAnalysis, matches: SearchQuery.TextMatches,
                    score: Double) -> SearchHit {
        let text = analysis.text
        let focus = bestPlace(matches)
        let (start, end) = excerptBounds(text, focus: focus)
        var bytes = Array(text[start..<end])
        for index in bytes.indices where bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { bytes[index] = 0x20 }
        let ellipsis = Array("…".utf8)
        // `…` where the excerpt cuts a line (not at a line break, nor before white space alone).
        let prefix = start > 0 && text[start - 1] != 0x0A && text[start - 1] != 0x0D ? ellipsis : []
        let cutsText = text[end...].contains { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        var spans: [Range<Int>] = []
        for span in matches.spans where Int(span.start) >= start && Int(span.end) <= end {
            spans.append((Int(span.start) - start + prefix.count)..<(Int(span.end) - start + prefix.count))
        }
        let excerptBytes = prefix + bytes + (cutsText ? ellipsis : [])
        let excerpt = String(decoding: excerptBytes, as: UTF8.self)
        // Bytes that are not UTF-8 were replaced: the offsets no longer hold, so none is given.
        if excerpt.utf8.count != excerptBytes.count { spans = [] }
        return SearchHit(note: note, title: title, range: focus, excerpt: excerpt, matches: spans, score: score, analysis: analysis)
    }

    /// The best place of a note's matches: its first phrase, else the match that starts the
    /// stretch of `excerptLength` bytes holding the most matches (the first such); empty at 0
    /// when nothing matched.
    static func bestPlace(_ matches: SearchQuery.TextMatches) -> ByteSpan {
        if let phrase = matches.phrases.first, let found = phrase { return found }
        let spans = matches.spans
        guard !spans.isEmpty else { return ByteSpan(0, 0) }
        var best = 0
        var bestCount = 0
        var last = 0
        for first in spans.indices {
            if last < first { last = first }
            while last + 1 < spans.count, Int(spans[last + 1].end) - Int(spans[first].start) <= excerptLength * 3 / 4 { last += 1 }
            if last - first + 1 > bestCount {
                bestCount = last - first + 1
                best = first
            }
        }
        return spans[best]
    }

    /// The bytes of an excerpt around `focus`: from the start of its line or a little before it,
    /// about `excerptLength` bytes, at characters, ending after a word where one ends near.
    static func excerptBounds(_ text: [UInt8], focus: ByteSpan) -> (Int, Int) {
        let count = text.count
        let focusStart = min(max(0, Int(focus.start)), count)
        let focusEnd = min(max(focusStart, Int(focus.end)), count)
        var start = max(0, focusStart - excerptLength / 4)
        if let lineBreak = text[start..<focusStart].lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) { start = lineBreak + 1 }
        while start < focusStart, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
        while start > 0, start < count, text[start] & 0xC0 == 0x80 { start -= 1 }
        var end = min(count, max(focusEnd, start + excerptLength))
        if end < count, let space = text[max(focusEnd, end - 24)..<end].lastIndex(of: 0x20) { end = space }
        while end < count, end > start, text[end] & 0xC0 == 0x80 { end -= 1 }
        while end > focusEnd, end > start, text[end - 1] == 0x20 || text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
        return (start, max(start, end))
    }
}
