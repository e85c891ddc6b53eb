#!/usr/bin/env python3
"""Compare MacMD's full-text search with Tantivy and with a reference BM25 (rank-bm25).

    python3 -m venv /tmp/sv && /tmp/sv/bin/pip install tantivy rank-bm25
    .build/release/macmd-bench search /dev/shm/n10k --export /tmp/search-export
    /tmp/sv/bin/python Scripts/search_compare.py /tmp/search-export [--rounds 5]

What it measures, on the notes and queries `macmd-bench search --export DIR` wrote:

- Tantivy (PyPI `tantivy`, in memory): the time to index every note of the notebook (read from
  disk: title and body, the default tokenizer, which lowercases), the memory the process grew
  by (peak RSS), and the query time (every word required, phrases as phrases, top 20 with
  their paths), p50 and p99; and how many of MacMD's top 10 Tantivy's top 10 shares (the two
  tokenize and weigh fields differently, so this is a sanity check, not a target).
- rank-bm25's BM25Okapi on MacMD's own terms (the hashes MacMD indexed, each repeated as often
  as its field weight in halves of a prose word, so both see the same frequencies and lengths;
  k1 2.4 = MacMD's 1.2 in those halves, b 0.75), the notes holding every query term: the
  overlap of its top 10 with MacMD's, for the queries of words (a phrase's order is checked by
  MacMD in the text, which BM25 does not see). The idf differs (rank-bm25's can be negative
  and is floored; MacMD's is Lucene's, never negative): the comparison is made twice, with
  rank-bm25's own idf and with Lucene's put in its place (which should agree but for ties).

Prints one line per measure; docs/performance.md ("Full-text search") keeps the figures.
"""
import json
import os
import resource
import statistics
import sys
import time


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * p // 100)]


def read_notes(folder):
    notes = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md") or name.endswith(".markdown"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    notes.append((os.path.relpath(path, folder), f.read()))
    return notes


def tantivy_query(words):
    parts = []
    for part in words:
        parts.append(part if part.startswith('"') else "+" + part)
    return " ".join(parts)


def split_query(query):
    """Words and quoted phrases, as MacMD reads them (no filters in the bench's queries)."""
    parts, i = [], 0
    while i < len(query):
        if query[i] == " ":
            i += 1
        elif query[i] == '"':
            end = query.find('"', i + 1)
            end = len(query) if end < 0 else end
            parts.append('"' + query[i + 1:end] + '"')
            i = end + 1
        else:
            end = query.find(" ", i)
            end = len(query) if end < 0 else end
            parts.append(query[i:end])
            i = end
    return parts


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    export = sys.argv[1]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    with open(os.path.join(export, "queries.json"), encoding="utf-8") as f:
        exported = json.load(f)
    folder, queries = exported["folder"], exported["queries"]

    # Tantivy.
    import tantivy
    base = rss_mb()
    start = time.perf_counter()
    notes = read_notes(folder)
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("path", stored=True, tokenizer_name="raw")
    builder.add_text_field("body", stored=False)
    schema = builder.build()
    index = tantivy.Index(schema)
    writer = index.writer(heap_size=100_000_000)
    for path, text in notes:
        writer.add_document(tantivy.Document(path=path, body=text))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    indexed = time.perf_counter() - start
    grown = rss_mb() - base
    searcher = index.searcher()
    times, overlaps = [], []
    for entry in queries:
        query = index.parse_query(tantivy_query(split_query(entry["query"])), ["body"])
        for round_ in range(rounds):
            start = time.perf_counter()
            hits = searcher.search(query, 20).hits
            top = [searcher.doc(address)["path"][0] for _, address in hits[:10]]
            times.append(time.perf_counter() - start)
        mine = entry["macmd"]
        if mine or top:
            overlaps.append(len(set(mine) & set(top)) / max(1, min(10, max(len(mine), len(top)))))
    print(f"tantivy: {len(notes)} notes indexed in "
          f"{indexed * 1000:.0f} ms (reading the files included), peak RSS grew {grown:.1f} MB")
    print(f"tantivy query (every word required, top 20 with paths), {len(queries)} queries x {rounds}: "
          f"p50 {percentile(times, 50) * 1000:.2f} ms, p99 {percentile(times, 99) * 1000:.2f} ms")
    print(f"top-10 overlap MacMD / Tantivy (other tokens and weights): mean {statistics.mean(overlaps):.2f} over {len(overlaps)} queries")

    # rank-bm25 on MacMD's terms.
    from rank_bm25 import BM25Okapi
    paths, corpus = [], []
    with open(os.path.join(export, "tokens.jsonl"), encoding="utf-8") as f:
        for line in f:
            note = json.loads(line)
            paths.append(note["path"])
            corpus.append(note["terms"])
    class LuceneIdf(BM25Okapi):
        """BM25Okapi with Lucene's idf, log(1 + (N - n + 0.5) / (n + 0.5)), as MacMD ranks."""

        def _calc_idf(self, nd):
            import math
            self.idf = {word: math.log(1 + (self.corpus_size - n + 0.5) / (n + 0.5)) for word, n in nd.items()}

    holding = [set(terms) for terms in corpus]
    for name, kind in (("BM25Okapi", BM25Okapi), ("BM25Okapi with Lucene's idf", LuceneIdf)):
        start = time.perf_counter()
        bm25 = kind(corpus, k1=2.4, b=0.75)
        built = time.perf_counter() - start
        agreement, exact, times, compared = [], 0, [], 0
        for entry in queries:
            if '"' in entry["query"]:
                continue
            terms = entry["terms"]
            start = time.perf_counter()
            scores = bm25.get_scores(terms)
            times.append(time.perf_counter() - start)
            candidates = [i for i in range(len(paths)) if all(t in holding[i] for t in terms)]
            candidates.sort(key=lambda i: (-scores[i], paths[i]))
            reference = [paths[i] for i in candidates[:10]]
            mine = entry["macmd"]
            compared += 1
            agreement.append(len(set(mine) & set(reference)) / max(1, max(len(mine), len(reference))))
            exact += mine == reference
        print(f"rank-bm25 {name} on MacMD's terms: built in {built * 1000:.0f} ms; get_scores p50 "
              f"{percentile(times, 50) * 1000:.1f} ms; top-10 overlap with MacMD: mean {statistics.mean(agreement):.3f}, "
              f"same order in {exact} of {compared} word queries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
