#!/usr/bin/env bash
# Builds a benchmark input from the real-world Markdown corpora in the shared data directory.
#
# Usage: Fixtures/bench/make-corpus.sh OUT
#
# Unpacks every ${MACMD_SHARED:-../shared}/corpus/*.tar.gz (a relative MACMD_SHARED is taken from
# the package root) into a temporary directory, then concatenates its .md files, in sorted path
# order (byte order, so the result is the same on every machine), into OUT until OUT holds at
# least ${MACMD_CORPUS_MB:-10} MiB. A blank line separates files so that no construct runs from
# one file into the next. The corpus data itself must never be committed to the repository.
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: $0 OUT" >&2
    exit 2
fi
out="$1"

package_root="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${MACMD_SHARED:-../shared}"
case "$shared" in
    /*) ;;
    *) shared="$package_root/$shared" ;;
esac
corpus="$shared/corpus"
target_bytes=$(( ${MACMD_CORPUS_MB:-10} * 1024 * 1024 ))

shopt -s nullglob
archives=("$corpus"/*.tar.gz)
if [ "${#archives[@]}" -eq 0 ]; then
    echo "$0: no corpus archives in $corpus (set MACMD_SHARED)" >&2
    exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/macmd-corpus.XXXXXX")"
trap 'rm -rf "$work"' EXIT

for archive in "${archives[@]}"; do
    tar -xzf "$archive" -C "$work"
done

# Choose the files first (sizes come from find, so this loop is cheap over tens of thousands of
# files), then write them through one open output.
selected=()
total=0
while IFS=$'\t' read -r path size; do
    selected+=("$path")
    total=$(( total + size + 2 ))
    if [ "$total" -ge "$target_bytes" ]; then
        break
    fi
done < <(cd "$work" && find . -type f -name '*.md' -printf '%P\t%s\n' | LC_ALL=C sort)
files=${#selected[@]}

# One `cat` for thousands of files: each file is followed by a separator file holding "\n\n".
printf '\n\n' > "$work/.separator"
(
    cd "$work"
    for path in "${selected[@]}"; do
        printf '%s\0.separator\0' "$path"
    done | xargs -0 cat --
) > "$out"

if [ "$total" -lt "$target_bytes" ]; then
    echo "$0: warning: the corpus holds only $total bytes of Markdown" >&2
fi
echo "$out: $files files, $(wc -c < "$out") bytes"
