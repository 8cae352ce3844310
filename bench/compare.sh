#!/usr/bin/env bash
# Benchmark committed revisions of innodb-inspect side by side.
#
# Usage: bench/compare.sh [--rounds N] [--file FILE] REV...
#
# For each REV (anything `git rev-parse` takes), extracts the tree with
# `git archive` (read-only for the repository) into a cache directory outside
# the repo, builds it there with its own target directory, and runs
# bench/run.sh with INSPECT_BIN set to that build.  With --rounds N the
# revisions are run N times, alternating, to spread out noise from other work
# on the machine.  Results: bench/out/results-STEM-REV-rROUND.json / .md.
#
# Environment: BUILD_CACHE (default /tmp/innodb-bench-builds), plus everything
# bench/run.sh reads (RUNS, WARMUP, RSS_RUNS, IDLE_WAIT).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${BENCH_DIR}/.." && pwd)"
OUT_DIR="${BENCH_DIR}/out"
CACHE="${BUILD_CACHE:-/tmp/innodb-bench-builds}"
FILE="${OUT_DIR}/t_large.ibd"
ROUNDS=1
REVS=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --rounds) shift; ROUNDS="${1:?--rounds needs a value}" ;;
    --file) shift; FILE="${1:?--file needs a value}" ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) REVS+=("$1") ;;
  esac
  shift
done
[ "${#REVS[@]}" -gt 0 ] || { echo "usage: bench/compare.sh [--rounds N] [--file FILE] REV..." >&2; exit 2; }

log() { printf '[compare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

mkdir -p "$CACHE"
declare -a SHORTS
for rev in "${REVS[@]}"; do
  short="$(git -C "$ROOT" rev-parse --short=7 "${rev}^{commit}")"
  SHORTS+=("$short")
  bin="${CACHE}/innodb-inspect-${short}"
  if [ -x "$bin" ]; then
    log "$rev = $short: using cached build $bin"
    continue
  fi
  src="${CACHE}/src-${short}"
  rm -rf "$src"
  mkdir -p "$src"
  git -C "$ROOT" archive "$short" | tar -x -C "$src"
  log "$rev = $short: cargo build --release in $src"
  (cd "$src" && CARGO_TARGET_DIR="${CACHE}/target-${short}" cargo build --release --quiet -p innodb-inspect)
  cp "${CACHE}/target-${short}/release/innodb-inspect" "$bin"
done

stem="$(basename "$FILE")"
stem="${stem%.ibd}"
for round in $(seq 1 "$ROUNDS"); do
  for short in "${SHORTS[@]}"; do
    log "round $round/$ROUNDS: $short on $FILE"
    INSPECT_BIN="${CACHE}/innodb-inspect-${short}" \
    INSPECT_LABEL="commit ${short} ($(git -C "$ROOT" log -1 --format=%s "$short" | cut -c1-80))" \
      "${BENCH_DIR}/run.sh" "$FILE"
    cp "${OUT_DIR}/results.json" "${OUT_DIR}/results-${stem}-${short}-r${round}.json"
    cp "${OUT_DIR}/results.md" "${OUT_DIR}/results-${stem}-${short}-r${round}.md"
  done
done
