// A full-text query: words, phrases in quotes and filters, read once and cut into terms by the
// index's own tokenizer (`SearchTerms`), and the places of a note's text that it matches.
//
// Syntax: words (every one required), `"a phrase"` (its words required, in that order),
// `tag:name` or `#name` (the note uses the tag or one nested under it), `path:folder` (the note is
// in that folder, or is that file), `title:word` (the note's title holds the word; quotes take
// several). Case and accents never matter.
//
// Invariants:
// - Pure: the query is text in, terms and filters out; matching a note's text reads only that
//   text (no parse: the raw text is cut by the same tokenizer, so what is found there is what
//   the index counted, plus the markup's words, which the index leaves out).
// - Never traps, whatever the query (an unclosed quote runs to the end; an empty filter is no
//   filter).

import TextCore

/// A parsed full-text query (see the file comment).
public struct SearchQuery: Sendable, Equatable {
    /// The free words, as written.
    public private(set) var words: [String] = []
    /// The phrases in quotes, as written.
    public private(set) var phrases: [String] = []
    /// `tag:` filters, without `#`, folded.
    public private(set) var tags: [String] = []
    /// `path:` filters, without leading or trailing `/`, folded.
    public private(set) var paths: [String] = []
    /// `title:` filters, as written.
    public private(set) var titleWords: [String] = []

    /// The distinct terms the note must hold, in the order written (words, phrases and title
    /// words together): what BM25 ranks by.
    public private(set) var terms: [UInt32] = []
    /// The terms of the `title:` filters.
    private(set) var titleTerms: [UInt32] = []
    /// Each phrase's tokens (words, and letters of scripts without spaces), in order.
    private(set) var phraseTokens: [[UInt32]] = []
    /// The bits of the phrases' pairs of tokens (`SearchTerms.pairs`).
    private(set) var phrasePairBits: [Int] = []

    public init(_ text: String) {
        var index = text.startIndex
        func isSpace(_ character: Character) -> Bool { character == " " || character == "\t" || character == "\n" || character == "\r" }
        /// Reads up to the next space, or a quoted part as one piece (the quote at `index`).
        func piece() -> (text: String, quoted: Bool) {
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                index = end < text.endIndex ? text.index(after: end) : end
                return (String(text[start..<end]), true)
            }
            let start = index
            while index < text.endIndex, !isSpace(text[index]) {
                // `title:"two words"`: the quotes belong to the piece.
                if text[index] == "\"", index > start, text[text.index(before: index)] == ":" {
                    let close = text[text.index(after: index)...].firstIndex(of: "\"") ?? text.endIndex
                    index = close < text.endIndex ? text.index(after: close) : close
                    continue
                }
                index = text.index(after: index)
            }
            return (String(text[start..<index]), false)
        }
        while index < text.endIndex {
            if isSpace(text[index]) {
                index = text.index(after: index)
                continue
            }
            let (part, quoted) = piece()
            if quoted {
                if !part.isEmpty { phrases.append(part) }
                continue
            }
            if let value = SearchQuery.value(of: part, after: "tag:") ?? (part.hasPrefix("#") && part.count > 1 ? String(part.dropFirst()) : nil) {
                let tag = SearchQuery.unquoted(value)
                let trimmed = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
                if !trimmed.isEmpty { tags.append(trimmed.folded) }
            } else if let value = SearchQuery.value(of: part, after: "path:") {
                var folder = Substring(SearchQuery.unquoted(value))
                while folder.hasPrefix("/") || folder.hasPrefix("./") { folder = folder.dropFirst(folder.hasPrefix("/") ? 1 : 2) }
                while folder.hasSuffix("/") { folder = folder.dropLast() }
                if !folder.isEmpty { paths.append(String(folder).folded) }
            } else if let value = SearchQuery.value(of: part, after: "title:") {
                let words = SearchQuery.unquoted(value)
                if !words.isEmpty { titleWords.append(words) }
            } else {
                words.append(part)
            }
        }
        var seen: Set<UInt32> = []
        func addTerms(_ text: String) -> [UInt32] {
            let found = SearchQuery.terms(of: text)
            for term in found where seen.insert(term).inserted { terms.append(term) }
            return found
        }
        for word in words { _ = addTerms(word) }
        for phrase in phrases {
            _ = addTerms(phrase)
            let tokens = SearchQuery.tokens(of: phrase)
            if tokens.count > 1 {
                phraseTokens.append(tokens)
                for index in 1..<tokens.count { phrasePairBits.append(SearchTerms.pairBit(tokens[index - 1], tokens[index])) }
            }
        }
        for words in titleWords { titleTerms += addTerms(words) }
    }

    /// Whether the query asks nothing (no word, phrase or filter).
    public var isEmpty: Bool { terms.isEmpty && tags.isEmpty && paths.isEmpty && titleWords.isEmpty }

    /// Whether a note must be read to be kept (a phrase's order is checked in its text).
    public var hasPhrases: Bool { !phraseTokens.isEmpty }

    private static func value(of part: String, after prefix: String) -> String? {
        guard part.count > prefix.count, part.lowercased().hasPrefix(prefix) else { return nil }
        return String(part.dropFirst(prefix.count))
    }

    private static func unquoted(_ text: String) -> String {
        var text = Substring(text)
        if text.hasPrefix("\"") { text = text.dropFirst() }
        if text.hasSuffix("\"") { text = text.dropLast() }
        return String(text)
    }

    /// The search terms of `text`, in order, as the index cuts a note's (`SearchTerms`).
    public static func terms(of text: String) -> [UInt32] { SearchTerms.terms(of: text) }

    /// The hashes of the word tokens of `text` (letters of scripts without spaces one by one).
    static func tokens(of text: String) -> [UInt32] {
        var text = text
        return text.withUTF8 { bytes in textTokens(bytes).map(\.hash) }
    }

    /// The tokens of `bytes` that are words or letters (no symbols), folded for search.
    static func textTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [MentionToken] {
        var tokens: [MentionToken] = []
        var reader = MentionTokenReader(bytes, table: MentionTokens.searchScalarTable)
        reader.read(from: 0, to: bytes.count, into: &tokens)
        tokens.removeAll { $0.kind == .symbol }
        return tokens
    }

    // MARK: Filters

    /// Whether the note at `path` titled `title` with `tags` passes the tag, path and title
    /// filters.
    public func admits(path: String, title: String, tags noteTags: TagList) -> Bool {
        if !paths.isEmpty {
            let folded = path.folded
            for folder in paths {
                guard folded == folder || folded.hasPrefix(folder + "/") else { return false }
            }
        }
        if !tags.isEmpty {
            for tag in tags {
                guard noteTags.indices.contains(where: { TagSymbol.name(noteTags.name(at: $0).folded, matches: tag) }) else { return false }
            }
        }
        if !titleTerms.isEmpty {
            let own = Set(SearchQuery.terms(of: title))
            guard titleTerms.allSatisfy(own.contains) else { return false }
        }
        return true
    }

    // MARK: Matching text

    /// Where the query's words and phrases are in a note's text.
    public struct TextMatches: Sendable, Equatable {
        /// The UTF-8 ranges of the words (and pairs of letters) that are query terms, in order.
        public var spans: [ByteSpan]
        /// The UTF-8 ranges of each phrase's first place (nil for a phrase not found).
        public var phrases: [ByteSpan?]

        /// Whether every phrase is there.
        public var hasEveryPhrase: Bool { phrases.allSatisfy { $0 != nil } }
    }

    /// Whether every phrase is in `text` (its tokens one after the other, symbols between them
    /// skipped): what `matches(in:)` says of the phrases, read with the tokenizer's fast path and
    /// nothing kept, to drop the notes that hold a phrase's words apart before anything else.
    public func holdsEveryPhrase(_ text: [UInt8]) -> Bool {
        guard !phraseTokens.isEmpty else { return true }
        return text.withUnsafeBufferPointer { bytes in
            var sink = PhraseSink(phrases: phraseTokens)
            var reader = MentionTokenReader(bytes, table: MentionTokens.searchScalarTable)
            reader.read(from: 0, to: bytes.count, into: &sink)
            return sink.missing == 0
        }
    }

    /// Finds phrases in the tokens it takes: the last tokens kept, each phrase compared with
    /// them as a token comes.
    private struct PhraseSink: MentionTokenSink {
        static var takesSymbols: Bool { false }
        let phrases: [[UInt32]]
        var found: [Bool]
        var missing: Int
        /// The last tokens, as long as the longest phrase, a ring from `next`.
        var recent: [UInt32]
        var next = 0
        var seen = 0

        init(phrases: [[UInt32]]) {
            self.phrases = phrases
            found = Array(repeating: false, count: phrases.count)
            missing = phrases.count
            recent = Array(repeating: 0, count: max(1, phrases.map(\.count).max() ?? 1))
        }

        @inline(__always)
        mutating func add(_ hash: UInt32) {
            guard missing > 0 else { return }
            recent[next] = hash
            next = next + 1 == recent.count ? 0 : next + 1
            seen += 1
            for (index, phrase) in phrases.enumerated() where !found[index] && seen >= phrase.count && phrase.last == hash {
                var matched = true
                for offset in 0..<phrase.count {
                    // The token `offset` places before the last one.
                    let slot = (next - 1 - offset + recent.count * 2) % recent.count
                    if recent[slot] != phrase[phrase.count - 1 - offset] {
                        matched = false
                        break
                    }
                }
                if matched {
                    found[index] = true
                    missing -= 1
                }
            }
        }

        @inline(__always)
        mutating func take(_ token: MentionToken) {
            if token.kind != .symbol { add(token.hash) }
        }

        @inline(__always)
        mutating func takeWord(start: Int, end: Int, hash: UInt32) { add(hash) }
    }

    /// The places of `text` that match the query's terms, and its phrases' first places.
    public func matches(in text: [UInt8]) -> TextMatches {
        text.withUnsafeBufferPointer { bytes in
            let tokens = SearchQuery.textTokens(bytes)
            let wanted = Set(terms)
            var spans: [ByteSpan] = []
            var index = 0
            while index < tokens.count {
                let token = tokens[index]
                if token.kind == .unspaced {
                    // A pair of letters without spaces (or a lone one) is the term.
                    if index + 1 < tokens.count, tokens[index + 1].kind == .unspaced, !tokens[index + 1].spaceBefore,
                       wanted.contains(SearchTerms.bigram(token.hash, tokens[index + 1].hash)) {
                        if let last = spans.last, Int(last.end) > Int(token.start) {
                            spans[spans.count - 1] = ByteSpan(Int(last.start), Int(tokens[index + 1].end))
                        } else {
                            spans.append(ByteSpan(Int(token.start), Int(tokens[index + 1].end)))
                        }
                    } else if wanted.contains(token.hash), spans.last.map({ Int($0.end) <= Int(token.start) }) ?? true {
                        spans.append(ByteSpan(Int(token.start), Int(token.end)))
                    }
                } else if wanted.contains(token.hash) {
                    spans.append(ByteSpan(Int(token.start), Int(token.end)))
                }
                index += 1
            }
            var phrases: [ByteSpan?] = []
            for phrase in phraseTokens {
                var found: ByteSpan? = nil
                if phrase.count <= tokens.count {
                    for start in 0...(tokens.count - phrase.count) where tokens[start].hash == phrase[0] {
                        var offset = 1
                        while offset < phrase.count, tokens[start + offset].hash == phrase[offset] { offset += 1 }
                        if offset == phrase.count {
                            found = ByteSpan(Int(tokens[start].start), Int(tokens[start + phrase.count - 1].end))
                            break
                        }
                    }
                }
                phrases.append(found)
            }
            return TextMatches(spans: spans, phrases: phrases)
        }
    }
}
