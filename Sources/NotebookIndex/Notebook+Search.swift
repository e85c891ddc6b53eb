// Full-text search from the notebook's side: the notes that hold every term of a query, ranked
// by BM25 over the inverted index (`searchPostings`, `searchTermsByNumber`).
//
// Invariants:
// - Reads only the index: the notes of the bucket of each query term that hold the term (their
//   own sorted terms say, a binary search) are its postings; those of the rarest term are the
//   candidates, whose other terms are found the same way. A query costs its terms' buckets,
//   never the notebook's size (a query of filters alone, with
//   no word, reads every note's path, title and tags).
// - BM25 (k1 1.2, b 0.75, Lucene's idf, which is never negative) over the field-weighted
//   frequencies and lengths (`SearchTerms`). Ties go by path, so the order does not depend on
//   the numbers notes were given (the incremental index ranks as a fresh one does).
// - A caller that must read a note to keep it (phrases) says so with `accepting`, asked in
//   rank order until `limit` notes are kept: only the notes ranked first are read.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextCore

/// A note a query found, with its score.
public struct SearchCandidate: Sendable, Equatable {
    public var path: String
    public var score: Double

    public init(path: String, score: Double) {
        self.path = path
        self.score = score
    }
}

extension Notebook {
    static let bm25K1 = 1.2
    static let bm25B = 0.75

    /// The notes holding the search term `term`, by number, in no particular order.
    func postings(of term: UInt32) -> [Int32] {
        let bucket = Notebook.searchBucket(of: term)
        guard bucket < searchPostings.count else { return [] }
        return searchTermsByNumber.withUnsafeBufferPointer { byNumber in
            searchPostings[bucket].filter { Int($0) < byNumber.count && byNumber[Int($0)].weight(of: term) > 0 }
        }
    }

    /// How many notes hold the search term `term`.
    public func documentFrequency(of term: UInt32) -> Int { postings(of: term).count }

    /// The notes matching `query`, best first (ties by path), at most `limit` of those
    /// `accepting` keeps (asked in that order).
    public func search(_ query: SearchQuery, limit: Int, accepting: (SearchCandidate) -> Bool = { _ in true }) -> [SearchCandidate] {
        guard limit > 0, !query.isEmpty else { return [] }
        var scored: [(number: Int32, score: Double)] = []
        let terms = query.terms
        if terms.isEmpty {
            // Filters alone: every note that passes them, by path.
            for (path, note) in catalog.notes where query.admits(path: path, title: note.title, tags: note.tags) {
                if let number = catalog.number(of: path) { scored.append((number, 0)) }
            }
        } else {
            var postings: [(term: UInt32, notes: [Int32])] = []
            for term in terms {
                let notes = self.postings(of: term)
                if notes.isEmpty { return [] }
                postings.append((term, notes))
            }
            postings.sort { $0.notes.count < $1.notes.count }
            let count = Double(max(1, catalog.notes.count))
            let averageLength = max(1, Double(searchLength) / count)
            let idfs: [Double] = postings.map { posting in
                let frequency = Double(posting.notes.count)
                return log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            }
            let k1 = Notebook.bm25K1
            let b = Notebook.bm25B
            let filters = !query.tags.isEmpty || !query.paths.isEmpty || !query.titleWords.isEmpty
            searchTermsByNumber.withUnsafeBufferPointer { byNumber in
                candidates: for number in postings[0].notes {
                    guard Int(number) < byNumber.count else { continue }
                    let own = byNumber[Int(number)]
                    // A phrase's pairs must all be in the note's filter (no text read yet).
                    guard own.mayHoldPairs(query.phrasePairBits) else { continue }
                    let norm = k1 * (1 - b + b * Double(own.length) / averageLength)
                    var score = 0.0
                    for (index, posting) in postings.enumerated() {
                        let weight = own.weight(of: posting.term)
                        guard weight > 0 else { continue candidates }
                        let frequency = Double(weight)
                        score += idfs[index] * frequency * (k1 + 1) / (frequency + norm)
                    }
                    scored.append((number, score))
                }
            }
            if filters {
                scored.removeAll { item in
                    let path = catalog.path(ofNumber: item.number)
                    guard let note = catalog.notes[path] else { return true }
                    return !query.admits(path: path, title: note.title, tags: note.tags)
                }
            }
        }
        // Best first; ties by path (made only for ties).
        scored.sort { a, b in
            a.score != b.score ? a.score > b.score : catalog.path(ofNumber: a.number) < catalog.path(ofNumber: b.number)
        }
        var result: [SearchCandidate] = []
        for item in scored {
            let candidate = SearchCandidate(path: catalog.path(ofNumber: item.number), score: item.score)
            guard !candidate.path.isEmpty, accepting(candidate) else { continue }
            result.append(candidate)
            if result.count == limit { break }
        }
        return result
    }

    /// Each note's search terms as their hashes, each repeated as often as its weight (in halves
    /// of a prose word), by path: what a reference BM25 is given to compare rankings
    /// (`macmd-bench search --export-tokens`).
    public func searchTermsForExport() -> [(path: String, terms: [(hash: UInt32, weight: UInt8)])] {
        catalog.notes.keys.sorted().compactMap { path in
            guard let number = catalog.number(of: path), Int(number) < searchTermsByNumber.count else { return nil }
            let own = searchTermsByNumber[Int(number)]
            return (path, Array(zip(own.hashes, own.weights).map { (hash: $0, weight: $1) }))
        }
    }
}
