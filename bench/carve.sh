#!/usr/bin/env bash
# `carve` against `cat` on the same input (issue 26: at most 2x).
#
# Usage: bench/carve.sh [INPUT...]
#
# Without INPUT, makes two inputs from the repository's fixtures in
# CARVE_DIR (default /dev/shm/innodb-carve-bench: tmpfs, so no disk speed
# hides the work): all.bin, every tablespace file of fixtures/*/files and
# */purged/files inflated and concatenated in name order (mostly zero
# pages), and dense.bin, the same with every all-zero 4 KiB block left
# out (real pages back to back, many small spaces, some pages split: the
# worst case). A given INPUT is only read.
#
# Environment: RUNS (default 15), INSPECT_BIN (default: the release build,
# built first), CARVE_DIR.
#
# Prints hyperfine's table per input (cat, then carve, interleaved) and a
# line with the ratio of the means.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
RUNS="${RUNS:-15}"
DIR="${CARVE_DIR:-/dev/shm/innodb-carve-bench}"
need=()
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ "${#need[@]}" -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" \
    || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"; }
fi
if [ -n "${INSPECT_BIN:-}" ]; then
  BIN="$INSPECT_BIN"
else
  (cd "$ROOT" && cargo build --release --quiet -p innodb-inspect)
  BIN="$ROOT/target/release/innodb-inspect"
fi

inputs=("$@")
if [ "${#inputs[@]}" -eq 0 ]; then
  mkdir -p "$DIR"
  if [ ! -f "$DIR/dense.bin" ]; then
    find "$ROOT/fixtures" \( -path '*/files/*' \) -name '*.gz' ! -name '*.tsv.gz' -print0 \
      | LC_ALL=C sort -z | xargs -0 zcat > "$DIR/all.bin"
    python3 - "$DIR/all.bin" "$DIR/dense.bin" <<'PY'
import sys
zero = bytes(4096)
with open(sys.argv[1], 'rb') as f, open(sys.argv[2], 'wb') as o:
    while block := f.read(4096):
        if block != zero:
            o.write(block)
PY
  fi
  inputs=("$DIR/dense.bin" "$DIR/all.bin")
fi

for input in "${inputs[@]}"; do
  echo "== $input ($(stat -c %s "$input") bytes); load $(cut -d' ' -f1-3 /proc/loadavg)"
  json="$(mktemp /tmp/innodb-bench-carve.XXXXXX.json)"
  hyperfine -N -w2 -r "$RUNS" --export-json "$json" "cat $input" "$BIN carve $input"
  python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
cat, carve = r[0]["mean"], r[1]["mean"]
print(f"carve / cat: {carve / cat:.2f} (cat {cat * 1000:.1f} ms, carve {carve * 1000:.1f} ms)")
PY
  rm -f "$json"
done
