#!/usr/bin/env bash
# Minimise the fuzzers' working corpus (crates/fuzz/corpus/TARGET, not
# committed) into the kept corpus that CI replays (crates/fuzz/kept/TARGET).
#
# Usage: crates/fuzz/keep.sh [TARGET...]   (default: every target)
#
# `cargo fuzz cmin` keeps the inputs that together reach every coverage
# feature the corpus reaches; of those, each is gzipped (the replay in
# tests/fuzz_corpus.rs inflates NAME.gz) and up to KEEP_BYTES (default
# 1 MiB) of gzip per target are kept, half the smallest inputs, half a
# sample of the others, so the repository stays small.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KEEP_BYTES="${KEEP_BYTES:-1048576}"
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(zip_page undo_records pages whole_file records undo undo_pages sdi)
for t in "${TARGETS[@]}"; do
  [ -d "$DIR/corpus/$t" ] || { echo "$t: no working corpus"; continue; }
  tmp="$(mktemp -d)"
  cp "$DIR/corpus/$t"/* "$tmp"/ 2>/dev/null || true
  (cd "$DIR" && cargo fuzz cmin --fuzz-dir . --sanitizer none -O "$t" "$tmp" -- -timeout=20 -rss_limit_mb=4096) \
    >"$DIR/logs/cmin-$t.log" 2>&1 || echo "$t: cmin exit $?"
  rm -rf "$DIR/kept/$t"
  mkdir -p "$DIR/kept/$t"
  python3 - "$tmp" "$DIR/kept/$t" "$KEEP_BYTES" <<'PY'
import gzip, os, sys
src, dst, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
packed = []
for f in os.listdir(src):
    with open(os.path.join(src, f), "rb") as fh:
        packed.append((gzip.compress(fh.read(), 9, mtime=0), f))
# Half the budget for the smallest inputs, half for a sample of the rest in
# the order of their names (libFuzzer names an input by its SHA-1: random).
by_size = sorted(packed, key=lambda p: (len(p[0]), p[1]))
by_name = sorted(packed, key=lambda p: p[1])
chosen, total = {}, 0
for order, budget in ((by_size, cap // 2), (by_name, cap)):
    for data, f in order:
        if f in chosen or total + len(data) > budget:
            continue
        chosen[f] = data
        total += len(data)
for f, data in chosen.items():
    with open(os.path.join(dst, f + ".gz"), "wb") as out:
        out.write(data)
kept = len(chosen)
print(f"{os.path.basename(dst)}: {len(packed)} after cmin, {kept} kept ({total} bytes gzipped)")
PY
  rm -rf "$tmp"
done
