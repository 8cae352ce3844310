#!/usr/bin/env bash
# Fuzz every target for a time each and print what libFuzzer reports.
#
# Usage: crates/fuzz/run.sh [--cpu] SECONDS [TARGET...]   (default: every target)
#
# SECONDS is wall-clock time per target (libFuzzer's -max_total_time), or,
# with --cpu, CPU time: the fuzzer runs until its process has used SECONDS
# of user plus system time and is then interrupted (SIGINT, after which
# libFuzzer prints its final statistics), so that a target run beside other
# work still gets its whole budget. The CPU seconds used are appended to the
# log as "cpu_seconds: N".
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Works on the stable
# toolchain: `--sanitizer none` (Rust is memory-safe without it; what is
# looked for is panics, hangs and runaway memory). Seeds come from
# crates/fuzz/seed.py (real fixture files); the working corpus
# crates/fuzz/corpus/TARGET starts from the kept corpus (crates/fuzz/kept,
# inflated) when it is empty; crashes go to crates/fuzz/artifacts/TARGET. A
# log per target is written to crates/fuzz/logs/TARGET.log (a run's log is
# kept beside it as TARGET.N.log when there is one already).
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CPU=0
if [ "${1:-}" = "--cpu" ]; then
  CPU=1
  shift
fi
SECONDS_EACH="${1:?seconds per target}"
shift
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(zip_page undo_records pages whole_file records undo undo_pages sdi)
[ -d "$DIR/seeds" ] || python3 "$DIR/seed.py" "$DIR/seeds"
mkdir -p "$DIR/logs"
max_len() {
  case "$1" in
    undo) echo 4194304 ;;
    undo_pages) echo 1310720 ;;
    zip_page|undo_records) echo 16384 ;;
    *) echo 262144 ;;
  esac
}
# libFuzzer counts the corpus it holds in memory in its RSS: the undo
# target's inputs are whole system tablespaces (up to 4 MiB each), so its
# corpus alone passes 1.5 GB and grows by about 0.5 GB in ten minutes;
# undo_pages's inputs are up to 1.3 MiB each. A single allocation over 2 GB
# is still caught (-malloc_limit_mb) for every target.
rss_limit() {
  case "$1" in
    undo|undo_pages) echo 8192 ;;
    *) echo 2048 ;;
  esac
}
# The CPU seconds (user + system) process $1 has used so far.
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) / hz) }' "/proc/$1/stat" 2>/dev/null || echo 0
}
for t in "${TARGETS[@]}"; do
  mkdir -p "$DIR/corpus/$t" "$DIR/seeds/$t"
  if [ -z "$(ls -A "$DIR/corpus/$t")" ] && [ -d "$DIR/kept/$t" ]; then
    for f in "$DIR/kept/$t"/*.gz; do
      [ -e "$f" ] && gunzip -c "$f" >"$DIR/corpus/$t/$(basename "$f" .gz)"
    done
  fi
  log="$DIR/logs/$t.log"
  n=1
  while [ -e "$log" ]; do
    log="$DIR/logs/$t.$n.log"
    n=$((n + 1))
  done
  # Build first, so that the fuzzer process below is libFuzzer itself.
  (cd "$DIR" && cargo fuzz build --fuzz-dir . --sanitizer none -O "$t") >/dev/null 2>&1
  bin="$DIR/target/x86_64-unknown-linux-gnu/release/$t"
  mkdir -p "$DIR/artifacts/$t"
  total=$SECONDS_EACH
  [ "$CPU" = 1 ] && total=$((SECONDS_EACH * 100))
  (cd "$DIR" && exec "$bin" "corpus/$t" "seeds/$t" \
      -max_total_time="$total" -timeout=20 -rss_limit_mb="$(rss_limit "$t")" -malloc_limit_mb=2048 -max_len="$(max_len "$t")" \
      -artifact_prefix="artifacts/$t/" -print_final_stats=1) >"$log" 2>&1 &
  pid=$!
  used=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    now=$(cpu_seconds "$pid")
    [ "$now" -gt 0 ] && used=$now
    if [ "$CPU" = 1 ] && [ "$used" -ge "$SECONDS_EACH" ]; then
      kill -INT "$pid" 2>/dev/null || true
      break
    fi
  done
  # 72 is libFuzzer's exit code after an interrupt: the budget was used.
  rc=0
  wait "$pid" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 72 ] || echo "$t: exit $rc"
  echo "cpu_seconds: $used" >>"$log"
  grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb|cpu_seconds|ERROR|panicked" "$log" | sed "s/^/$t: /" || true
done
