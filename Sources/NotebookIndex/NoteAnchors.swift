// The places in one note a link's fragment can name (headings, block ids, HTML ids), by the keys
// links look them up by: so resolving a link into a note with thousands of headings is a table
// look-up, not a scan, and a note of ten thousand such links stays linear.
//
// Invariants:
// - Made from a note's symbols alone (`NoteCatalog` keeps one per note with many anchors, made
//   when the note is inserted); every look-up gives what the linear scans of
//   `NoteCatalog.headingIndex(_:in:loose:)`, `blockIDs.first` and `htmlID(_:in:)` give.
// - Index lists are in document order.
// - A heading path (`#A#B`) is searched depth first in document order: each part only inside the
//   sections of the earlier part's matches (a section nested in one already searched is
//   skipped), and the search stops at the first match of the last part. A path whose every part
//   matches somewhere but never nested costs the matches of its parts. The search goes one
//   level deeper per part only into a deeper heading, so no deeper than headings nest (six).

import TextCore

struct NoteAnchors: Sendable, Equatable {
    /// Notes with fewer anchors than this are scanned: a table costs more than a short scan.
    static let minimumCount = 16

    /// Headings by their slug (non-empty slugs only).
    private var headingsBySlug: [String: [Int32]] = [:]
    /// Headings by their text lowercased.
    private var headingsByFoldedText: [String: [Int32]] = [:]
    /// Headings by `NotebookPath.looseHeadingKey` of their text (non-empty keys only).
    private var headingsByLooseKey: [String: [Int32]] = [:]
    /// Headings by the slug of their text alone (`Slugger.slug(for:)`, before `-1` is added):
    /// the twins a `duplicate-heading` diagnostic names.
    private var headingsByBaseSlug: [String: [Int32]] = [:]
    /// Where each heading's section ends: the index of the next heading of its level or above
    /// (or the heading count).
    private var sectionEnds: [Int32] = []
    /// The first block with each id.
    private var blocks: [String: Int32] = [:]
    /// The first HTML id with each id, and with each id lowercased.
    private var htmlIDs: [String: Int32] = [:]
    private var foldedHTMLIDs: [String: Int32] = [:]

    /// The anchors of `note`; nil when it has fewer than `minimumCount`.
    init?(_ note: NoteSymbols) {
        guard note.headings.count + note.blockIDs.count + note.htmlIDs.count >= NoteAnchors.minimumCount else { return nil }
        let headings = note.headings
        sectionEnds = [Int32](repeating: Int32(clamping: headings.count), count: headings.count)
        var open: [Int] = []
        for (index, heading) in headings.enumerated() {
            let position = Int32(clamping: index)
            if !heading.slug.isEmpty { headingsBySlug[heading.slug, default: []].append(position) }
            headingsByFoldedText[heading.text.folded, default: []].append(position)
            let loose = NotebookPath.looseHeadingKey(heading.text)
            if !loose.isEmpty { headingsByLooseKey[loose, default: []].append(position) }
            headingsByBaseSlug[Slugger.slug(for: heading.text), default: []].append(position)
            while let top = open.last, headings.level(at: top) >= heading.level {
                sectionEnds[top] = position
                open.removeLast()
            }
            open.append(index)
        }
        for (index, block) in note.blockIDs.enumerated() where blocks[block.id] == nil { blocks[block.id] = Int32(clamping: index) }
        for (index, id) in note.htmlIDs.enumerated() {
            if htmlIDs[id.id] == nil { htmlIDs[id.id] = Int32(clamping: index) }
            let folded = id.id.folded
            if foldedHTMLIDs[folded] == nil { foldedHTMLIDs[folded] = Int32(clamping: index) }
        }
    }

    // MARK: Look-ups

    /// The index of the first block with the id `id`.
    func block(_ id: String) -> Int? { blocks[id].map(Int.init) }

    /// The index of the HTML id `fragment` names: exactly, else ignoring case.
    func htmlID(_ fragment: String) -> Int? {
        (htmlIDs[fragment] ?? foldedHTMLIDs[fragment.folded]).map(Int.init)
    }

    /// The headings whose text has the slug `base` (`Slugger.slug(for:)`), in document order.
    func headings(withBaseSlug base: String) -> [Int32] { headingsByBaseSlug[base] ?? [] }

    /// Whether a heading has the slug `slug`.
    func hasHeading(slug: String) -> Bool { headingsBySlug[slug] != nil }

    /// `NoteCatalog.headingIndex(parts, in: headings, loose:)`, by look-ups.
    func headingIndex(_ parts: [String], loose: Bool) -> Int? {
        guard !parts.isEmpty, !sectionEnds.isEmpty else { return nil }
        let lists = parts.map { matches($0, loose: loose) }
        // A part that matches nowhere: nothing to search.
        if lists.contains(where: { $0.allSatisfy(\.isEmpty) }) { return nil }
        return first(part: 0, after: -1, before: sectionEnds.count, lists: lists)
    }

    /// The sorted lists whose union is the headings matching `part` (as `NoteCatalog.matches`:
    /// by slug, exactly or lowercased, or by text lowercased; `loose`: by loose key).
    private func matches(_ part: String, loose: Bool) -> [[Int32]] {
        if loose {
            let key = NotebookPath.looseHeadingKey(part)
            return [key.isEmpty ? [] : headingsByLooseKey[key] ?? []]
        }
        let folded = part.folded
        return [headingsBySlug[part] ?? [], folded == part ? [] : headingsBySlug[folded] ?? [], headingsByFoldedText[folded] ?? []]
    }

    /// The first heading in `after+1..<before` that matches the last part with the earlier parts
    /// from `part` on matched around it, searching in document order.
    private func first(part: Int, after: Int, before: Int, lists: [[[Int32]]]) -> Int? {
        var position = after
        while let candidate = NoteAnchors.next(after: position, in: lists[part]), candidate < before {
            if part == lists.count - 1 { return candidate }
            let end = Int(sectionEnds[candidate])
            if let found = first(part: part + 1, after: candidate, before: end, lists: lists) { return found }
            // Candidates inside this section were searched with it (their sections are inside it).
            position = max(candidate, end - 1)
        }
        return nil
    }

    /// The smallest index greater than `after` in the union of the sorted `lists`.
    private static func next(after: Int, in lists: [[Int32]]) -> Int? {
        var best: Int? = nil
        for list in lists where !list.isEmpty {
            // The first element greater than `after`.
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if Int(list[middle]) <= after { low = middle + 1 } else { high = middle }
            }
            if low < list.count, best.map({ Int(list[low]) < $0 }) ?? true { best = Int(list[low]) }
        }
        return best
    }
}
